package receipt

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"golang.org/x/mod/sumdb/note"

	"github.com/fairhold/fairhold/fairness/commitlog"
)

// A receipt is signed as a C2SP signed note (docs/receipts.md section 3):
// the body is the note's text, and the operator's Ed25519 key, named by
// the operator's key name (the receipt's operator line), signs it. The
// key name and key hash follow docs/commitment-log.md section 4, so the
// operator's verifier key string is the one of a log of that origin.

// Signer signs receipts with an operator's key.
type Signer struct {
	name string
	s    note.Signer
}

// NewSigner returns the signer of key under the key name operator.
func NewSigner(operator string, key ed25519.PrivateKey) (*Signer, error) {
	if why := validOperator(operator); why != "" {
		return nil, fmt.Errorf("operator key name %q: %s", trunc(operator), why)
	}
	s, err := commitlog.NewSigner(operator, key)
	if err != nil {
		return nil, err
	}
	return &Signer{name: operator, s: s}, nil
}

// Name is the signer's key name, the operator line of its receipts.
func (s *Signer) Name() string { return s.name }

// Sign encodes r, whose Operator must be the signer's name, and returns
// the signed note.
func (s *Signer) Sign(r *Receipt) ([]byte, error) {
	if r.Operator != s.name {
		return nil, fmt.Errorf("receipt of round %s names operator %q; the key is %q's", r.Round, trunc(r.Operator), s.name)
	}
	body, err := r.Marshal()
	if err != nil {
		return nil, err
	}
	return note.Sign(&note.Note{Text: string(body)}, s.s)
}

// Verifier checks receipts against an operator's public key.
type Verifier struct {
	pub  ed25519.PublicKey
	name string // "": the key name each receipt's operator line gives
	vs   map[string]note.Verifier
}

// NewVerifier returns the verifier of pub. operator "" takes the key name
// from each receipt's operator line (the signature is still checked under
// that name); otherwise every receipt must name operator.
func NewVerifier(operator string, pub ed25519.PublicKey) (*Verifier, error) {
	if len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("an Ed25519 public key of %d bytes, want %d", len(pub), ed25519.PublicKeySize)
	}
	v := &Verifier{pub: pub, name: operator, vs: map[string]note.Verifier{}}
	if operator != "" {
		if _, err := v.verifier(operator); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func (v *Verifier) verifier(name string) (note.Verifier, error) {
	if nv, ok := v.vs[name]; ok {
		return nv, nil
	}
	if why := validOperator(name); why != "" {
		return nil, fmt.Errorf("operator key name %q: %s", trunc(name), why)
	}
	nv, err := commitlog.NewVerifier(name, v.pub)
	if err != nil {
		return nil, err
	}
	v.vs[name] = nv
	return nv, nil
}

// ErrSignature is matched (errors.Is) by the error of [Verifier.Open] for a
// receipt whose signature by the key does not verify, or that the key did
// not sign.
var ErrSignature = errors.New("the receipt's signature does not verify with the operator's key")

// maxNote bounds a signed receipt: its body and a few signature lines.
const maxNote = MaxBodySize + 4096

// Open verifies a signed receipt and parses its body. The note must carry
// a signature of the operator's key under the operator's name, which must
// be the body's operator line; signatures of other keys are ignored (C2SP
// signed-note). A note that is not a signed note or whose body is not a
// canonical receipt is malformed ([ErrNotCanonical] or a note error); a
// signature that does not verify, or a note the key did not sign, matches
// [ErrSignature].
func (v *Verifier) Open(msg []byte) (*Receipt, error) {
	r, _, err := v.open(msg)
	return r, err
}

// open is Open, also returning the body.
func (v *Verifier) open(msg []byte) (*Receipt, string, error) {
	if len(msg) > maxNote {
		return nil, "", fmt.Errorf("%w: %d bytes, at most %d", ErrNotCanonical, len(msg), maxNote)
	}
	// Find the body's operator line without trusting it: it only chooses
	// the name the key is checked under.
	name := v.name
	if name == "" {
		name = operatorOf(msg)
	}
	nv, err := v.verifier(name)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrNotCanonical, err)
	}
	n, err := note.Open(msg, note.VerifierList(nv))
	if err != nil {
		var unverified *note.UnverifiedNoteError
		var invalid *note.InvalidSignatureError
		if errors.As(err, &unverified) || errors.As(err, &invalid) {
			return nil, "", fmt.Errorf("%w (key name %q): %v", ErrSignature, name, err)
		}
		return nil, "", fmt.Errorf("%w: not a signed note: %v", ErrNotCanonical, err)
	}
	r, err := Unmarshal([]byte(n.Text))
	if err != nil {
		return nil, "", err
	}
	if r.Operator != name {
		return nil, "", fmt.Errorf("%w: operator %q; the key given is %q's", ErrSignature, trunc(r.Operator), name)
	}
	return r, n.Text, nil
}

// operatorOf returns the value of the second line of msg when it is an
// operator line, else "".
func operatorOf(msg []byte) string {
	const prefix = Header + "\noperator "
	if len(msg) < len(prefix) || string(msg[:len(prefix)]) != prefix {
		return ""
	}
	rest := msg[len(prefix):]
	for i, c := range rest {
		if c == '\n' {
			return string(rest[:i])
		}
	}
	return ""
}
