package report

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// Signer signs reports with one key. [*PrivateKey] is a Signer; a key held
// elsewhere (an HSM, a KMS) can be one too.
type Signer interface {
	// KeyID returns the id of the signing key: the lower-case hex SHA-256
	// of its DER SubjectPublicKeyInfo ([PublicKey.KeyID]).
	KeyID() string
	// Sign returns the signature of message, the DSSE PAE of a report.
	Sign(message []byte) ([]byte, error)
}

// Sign returns the report of st signed by every signer: a DSSE envelope
// whose payload is st's one encoding ([Statement.Marshal]) and whose
// signatures, one per signer, are sorted by key id. The statement must be
// valid ([Statement.Validate]); two signers with one key id are an
// [ErrDuplicateKey].
func Sign(st *Statement, signers ...Signer) (*dsse.Envelope, error) {
	if len(signers) == 0 {
		return nil, ErrNoSigners
	}
	body, err := st.Marshal()
	if err != nil {
		return nil, err
	}
	return sign(&dsse.Envelope{PayloadType: PayloadType, Payload: base64.StdEncoding.EncodeToString(body)}, body, signers)
}

// Countersign returns env with the signers' signatures added (a regulator
// signing the lab's report), sorted by key id. It neither changes the
// payload nor checks the existing signatures: [Verify] the report first.
// A signer whose key already signed env is an [ErrDuplicateKey].
func Countersign(env *dsse.Envelope, signers ...Signer) (*dsse.Envelope, error) {
	if len(signers) == 0 {
		return nil, ErrNoSigners
	}
	body, _, err := decodeEnvelope(env)
	if err != nil {
		return nil, err
	}
	out := &dsse.Envelope{PayloadType: env.PayloadType, Payload: env.Payload, Signatures: slices.Clone(env.Signatures)}
	return sign(out, body, signers)
}

// sign adds the signers' signatures of PAE(env.PayloadType, body) to env,
// through the DSSE library's envelope signer, and sorts them by key id.
func sign(env *dsse.Envelope, body []byte, signers []Signer) (*dsse.Envelope, error) {
	seen := make(map[string]bool, len(env.Signatures)+len(signers))
	for _, s := range env.Signatures {
		seen[s.KeyID] = true
	}
	adapters := make([]dsse.Signer, len(signers))
	for i, s := range signers {
		if s == nil {
			return nil, fmt.Errorf("signer %d is nil", i)
		}
		id := s.KeyID()
		if seen[id] {
			return nil, fmt.Errorf("%w: key %s signs twice", ErrDuplicateKey, id)
		}
		seen[id] = true
		adapters[i] = dsseSigner{s}
	}
	es, err := dsse.NewEnvelopeSigner(adapters...)
	if err != nil {
		return nil, err
	}
	signed, err := es.SignPayload(context.Background(), env.PayloadType, body)
	if err != nil {
		return nil, fmt.Errorf("failed to sign the report: %w", err)
	}
	env.Signatures = append(env.Signatures, signed.Signatures...)
	slices.SortStableFunc(env.Signatures, func(a, b dsse.Signature) int { return strings.Compare(a.KeyID, b.KeyID) })
	return env, nil
}

// dsseSigner adapts a Signer to the DSSE library's signer.
type dsseSigner struct{ s Signer }

func (d dsseSigner) Sign(_ context.Context, data []byte) ([]byte, error) { return d.s.Sign(data) }
func (d dsseSigner) KeyID() (string, error)                              { return d.s.KeyID(), nil }
