package report

import (
	"encoding/base64"
	"fmt"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// ParseEnvelope parses report.json: exactly the bytes [MarshalEnvelope]
// writes for an envelope with a payload type, a payload and at least one
// signature, each with a key id, all base64 in standard encoding with
// padding. It checks the form only, not the signatures ([Verify]) or the
// statement. Errors are [*FormatError]s naming the field or byte offset;
// any edit of a valid file, even of white space, is an error
// ([ErrNotCanonical]) or a failed verification.
func ParseEnvelope(data []byte) (*dsse.Envelope, error) {
	var env dsse.Envelope
	if err := decodeJSON(data, &env); err != nil {
		return nil, err
	}
	if _, _, err := decodeEnvelope(&env); err != nil {
		return nil, err
	}
	canon, err := MarshalEnvelope(&env)
	if err != nil {
		return nil, malformed("", "%v", err)
	}
	if err := checkCanonical(data, canon); err != nil {
		return nil, err
	}
	return &env, nil
}

// MarshalEnvelope returns report.json: the envelope as JSON indented by
// two spaces, fields in the order payloadType, payload, signatures (each
// keyid, sig), no HTML escaping, ended by one newline.
func MarshalEnvelope(env *dsse.Envelope) ([]byte, error) {
	return marshalJSON(env, "  ")
}

// decodeEnvelope checks the envelope's fields and decodes its payload and
// signatures.
func decodeEnvelope(env *dsse.Envelope) (payload []byte, sigs [][]byte, err error) {
	if env == nil {
		return nil, nil, malformed("", "no envelope")
	}
	if env.PayloadType == "" {
		return nil, nil, malformed("payloadType", "empty; want %q", PayloadType)
	}
	if payload, err = decodeBase64("payload", env.Payload); err != nil {
		return nil, nil, err
	}
	if len(env.Signatures) == 0 {
		return nil, nil, malformed("signatures", "no signature")
	}
	sigs = make([][]byte, len(env.Signatures))
	for i, s := range env.Signatures {
		f := fmt.Sprintf("signatures[%d]", i)
		if s.KeyID == "" {
			return nil, nil, malformed(f+".keyid", "empty; want the signing key's id")
		}
		if i > 0 && s.KeyID <= env.Signatures[i-1].KeyID {
			// One form only (docs/report-format.md): one signature per key,
			// sorted by key id; a signature listed twice is not a second
			// signer.
			return nil, nil, malformed(f+".keyid", "%s after %s: one signature per key, sorted by key id", s.KeyID, env.Signatures[i-1].KeyID)
		}
		if sigs[i], err = decodeBase64(f+".sig", s.Sig); err != nil {
			return nil, nil, err
		}
	}
	return payload, sigs, nil
}

// decodeBase64 decodes standard base64 with padding, accepting only the
// one encoding of the bytes (no line breaks, no stray bits in the last
// character), so that no two texts give the same bytes.
func decodeBase64(field, s string) ([]byte, error) {
	if s == "" {
		return nil, malformed(field, "empty")
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		return nil, malformed(field, "not standard base64: %v", err)
	}
	if base64.StdEncoding.EncodeToString(b) != s {
		return nil, malformed(field, "not the canonical base64 of its bytes")
	}
	return b, nil
}
