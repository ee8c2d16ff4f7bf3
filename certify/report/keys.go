package report

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"io"
	"os"

	"github.com/cloudflare/circl/pki"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
)

// Algorithm is a signature algorithm of report keys.
type Algorithm string

// The signature algorithms.
const (
	// Ed25519 is EdDSA over edwards25519 (RFC 8032), the standard
	// library's crypto/ed25519. Signatures are 64 bytes.
	Ed25519 Algorithm = "ed25519"
	// MLDSA65 is ML-DSA-65 (FIPS 204), circl's sign/mldsa/mldsa65, in pure
	// mode with an empty context string. Signatures are 3,309 bytes.
	MLDSA65 Algorithm = "ml-dsa-65"
)

// PEM block types of key files.
const (
	pemPrivate = "PRIVATE KEY"
	pemPublic  = "PUBLIC KEY"
)

// The algorithm identifiers of the key files: id-Ed25519 (RFC 8410) and
// id-ml-dsa-65 (RFC 9881).
var (
	oidEd25519 = asn1.ObjectIdentifier{1, 3, 101, 112}
	oidMLDSA65 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 18}
)

// PublicKey is a public key that verifies report signatures.
type PublicKey struct {
	alg  Algorithm
	ed   ed25519.PublicKey
	ml   *mldsa65.PublicKey
	der  []byte // the DER SubjectPublicKeyInfo
	id   string
	name string
}

// Algorithm returns the key's algorithm.
func (k *PublicKey) Algorithm() Algorithm { return k.alg }

// KeyID returns the key's id: the lower-case hex SHA-256 of its DER
// SubjectPublicKeyInfo, the bytes inside the PEM block of its .pub file.
// It is the keyid of the key's signatures in a report.
func (k *PublicKey) KeyID() string { return k.id }

// Name returns where the key was read from ([ReadPublicKey]'s path), or "".
func (k *PublicKey) Name() string { return k.name }

// MarshalPEM returns the key's .pub file: a PEM "PUBLIC KEY" block holding
// the DER SubjectPublicKeyInfo (RFC 5280; RFC 8410 for Ed25519, RFC 9881 for
// ML-DSA-65).
func (k *PublicKey) MarshalPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: pemPublic, Bytes: k.der})
}

// Verify reports whether sig is the key's signature of message: the raw
// signature bytes, as [PrivateKey.Sign] returns them (64 bytes for
// Ed25519, 3,309 for ML-DSA-65). It is the check of detached signatures
// (`fairhold keys verify`); a report's signatures are checked by [Verify].
func (k *PublicKey) Verify(message, sig []byte) bool { return k.verify(message, sig) }

// verify reports whether sig is the key's signature of msg.
func (k *PublicKey) verify(msg, sig []byte) bool {
	switch k.alg {
	case Ed25519:
		return ed25519.Verify(k.ed, msg, sig)
	case MLDSA65:
		return mldsa65.Verify(k.ml, msg, nil, sig)
	}
	return false
}

// newPublicKey encodes the key and computes its id.
func newPublicKey(alg Algorithm, ed ed25519.PublicKey, ml *mldsa65.PublicKey) (*PublicKey, error) {
	k := &PublicKey{alg: alg, ed: ed, ml: ml}
	var err error
	switch alg {
	case Ed25519:
		k.der, err = x509.MarshalPKIXPublicKey(ed)
	case MLDSA65:
		k.der, err = pki.MarshalPKIXPublicKey(ml)
	default:
		err = fmt.Errorf("%w: %q", ErrKeyType, alg)
	}
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(k.der)
	k.id = hex.EncodeToString(sum[:])
	return k, nil
}

// PrivateKey is a private key that signs reports. It implements [Signer].
// Its String and GoString name the algorithm and key id only, so that
// printing a key by mistake prints no secret.
type PrivateKey struct {
	pub *PublicKey
	ed  ed25519.PrivateKey
	ml  *mldsa65.PrivateKey
}

// GenerateKey returns a new key of the algorithm, from 32 bytes of random
// (nil: the operating system's secure source). The key is a deterministic
// function of those bytes.
func GenerateKey(alg Algorithm, random io.Reader) (*PrivateKey, error) {
	switch alg {
	case Ed25519:
		pub, priv, err := ed25519.GenerateKey(random)
		if err != nil {
			return nil, fmt.Errorf("failed to generate an Ed25519 key: %w", err)
		}
		return newPrivateKey(alg, pub, priv, nil)
	case MLDSA65:
		_, priv, err := mldsa65.GenerateKey(random)
		if err != nil {
			return nil, fmt.Errorf("failed to generate an ML-DSA-65 key: %w", err)
		}
		return newPrivateKey(alg, nil, nil, priv)
	}
	return nil, fmt.Errorf("%w: %q, want %q or %q", ErrKeyType, alg, Ed25519, MLDSA65)
}

func newPrivateKey(alg Algorithm, edPub ed25519.PublicKey, ed ed25519.PrivateKey, ml *mldsa65.PrivateKey) (*PrivateKey, error) {
	var mlPub *mldsa65.PublicKey
	if ml != nil {
		mlPub = ml.Public().(*mldsa65.PublicKey)
	}
	pub, err := newPublicKey(alg, edPub, mlPub)
	if err != nil {
		return nil, err
	}
	return &PrivateKey{pub: pub, ed: ed, ml: ml}, nil
}

// Public returns the key's public key.
func (k *PrivateKey) Public() *PublicKey { return k.pub }

// KeyID returns the id of the key's public key ([PublicKey.KeyID]).
func (k *PrivateKey) KeyID() string { return k.pub.id }

// Algorithm returns the key's algorithm.
func (k *PrivateKey) Algorithm() Algorithm { return k.pub.alg }

// Sign returns the key's signature of message. Both algorithms are
// deterministic here: Ed25519 is, and ML-DSA-65 signs with FIPS 204's
// deterministic variant (rnd = 32 zero bytes), so that a report is
// reproducible byte for byte. Any signature verifies the same way.
func (k *PrivateKey) Sign(message []byte) ([]byte, error) {
	switch k.pub.alg {
	case Ed25519:
		return ed25519.Sign(k.ed, message), nil
	case MLDSA65:
		sig := make([]byte, mldsa65.SignatureSize)
		if err := mldsa65.SignTo(k.ml, message, nil, false, sig); err != nil {
			return nil, fmt.Errorf("failed to sign with ML-DSA-65: %w", err)
		}
		return sig, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrKeyType, k.pub.alg)
}

// MarshalPEM returns the key's .key file: a PEM "PRIVATE KEY" block holding
// the DER PKCS #8 OneAsymmetricKey (RFC 5958). For Ed25519 it is RFC 8410's
// form, as crypto/x509 writes it; for ML-DSA-65, RFC 9881's seed-only form
// (the 32-byte seed as [0] IMPLICIT OCTET STRING), as circl's pki writes it.
// The bytes are a secret: write them with mode 0600 and never print them.
func (k *PrivateKey) MarshalPEM() ([]byte, error) {
	var der []byte
	var err error
	switch k.pub.alg {
	case Ed25519:
		der, err = x509.MarshalPKCS8PrivateKey(k.ed)
	case MLDSA65:
		der, err = pki.MarshalPKIXPrivateKey(k.ml)
	default:
		err = fmt.Errorf("%w: %q", ErrKeyType, k.pub.alg)
	}
	if err != nil {
		return nil, fmt.Errorf("failed to encode the private key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: pemPrivate, Bytes: der}), nil
}

// String names the key's algorithm and id, never the secret.
func (k PrivateKey) String() string {
	if k.pub == nil {
		return "report.PrivateKey(empty)"
	}
	return fmt.Sprintf("report.PrivateKey(%s %s)", k.pub.alg, k.pub.id)
}

// GoString is String, so that %#v prints no secret either.
func (k PrivateKey) GoString() string { return k.String() }

// Format prints String for every verb (%d, %x, %+v ...), so that no
// formatting of a key prints its bytes.
func (k PrivateKey) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, k.String()) }

// ReadPublicKey reads and parses a .pub file ([ParsePublicKey]); the key's
// [PublicKey.Name] is path. A *FormatError is returned as is, for the
// caller to name the file.
func ReadPublicKey(path string) (*PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	k, err := ParsePublicKey(b)
	if err != nil {
		return nil, err
	}
	k.name = path
	return k, nil
}

// ReadPrivateKey reads and parses a .key file ([ParsePrivateKey]). Errors
// never contain the file's content.
func ReadPrivateKey(path string) (*PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	return ParsePrivateKey(b)
}

// decodePEM returns the DER of the one PEM block in data, which must be of
// type want. A block of the other kind of key is an [ErrKeyType].
func decodePEM(data []byte, want, other, wantName, otherName string) ([]byte, error) {
	block, rest := pem.Decode(data)
	if block == nil {
		return nil, malformed("PEM", "no PEM block; want a %q block (a %s)", want, wantName)
	}
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, malformed("PEM", "data after the %q block", block.Type)
	}
	switch {
	case block.Type == other:
		return nil, &FormatError{Field: "PEM", Offset: -1,
			Err: fmt.Errorf("%w: a %s, want a %s", ErrKeyType, otherName, wantName)}
	case block.Type != want:
		return nil, malformed("PEM", "block type %q, want %q", block.Type, want)
	case len(block.Headers) != 0:
		return nil, malformed("PEM", "headers are not allowed")
	}
	return block.Bytes, nil
}

// unsupported is the error of a key whose algorithm is not one of ours.
func unsupported(oid asn1.ObjectIdentifier) error {
	return &FormatError{Field: "algorithm", Offset: -1,
		Err: fmt.Errorf("%w: algorithm %s, want Ed25519 (%s) or ML-DSA-65 (%s)", ErrKeyType, oid, oidEd25519, oidMLDSA65)}
}

// ParsePublicKey parses a .pub file ([PublicKey.MarshalPEM]): one PEM
// "PUBLIC KEY" block, the DER SubjectPublicKeyInfo of an Ed25519 or
// ML-DSA-65 key, exactly as this package encodes it.
func ParsePublicKey(data []byte) (*PublicKey, error) {
	der, err := decodePEM(data, pemPublic, pemPrivate, "public key (.pub)", "private key (.key)")
	if err != nil {
		return nil, err
	}
	var spki struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}
	if rest, err := asn1.Unmarshal(der, &spki); err != nil {
		return nil, malformed("SubjectPublicKeyInfo", "%v", err)
	} else if len(rest) != 0 {
		return nil, malformed("SubjectPublicKeyInfo", "trailing data")
	}
	var k *PublicKey
	switch oid := spki.Algorithm.Algorithm; {
	case oid.Equal(oidEd25519):
		pub, err := x509.ParsePKIXPublicKey(der)
		if err != nil {
			return nil, malformed("SubjectPublicKeyInfo", "%v", err)
		}
		ed, ok := pub.(ed25519.PublicKey)
		if !ok {
			return nil, unsupported(oid)
		}
		k, err = newPublicKey(Ed25519, ed, nil)
		if err != nil {
			return nil, err
		}
	case oid.Equal(oidMLDSA65):
		pub, err := pki.UnmarshalPKIXPublicKey(der)
		if err != nil {
			return nil, malformed("SubjectPublicKeyInfo", "%v", err)
		}
		ml, ok := pub.(*mldsa65.PublicKey)
		if !ok {
			return nil, unsupported(oid)
		}
		k, err = newPublicKey(MLDSA65, nil, ml)
		if err != nil {
			return nil, err
		}
	default:
		return nil, unsupported(oid)
	}
	if !bytes.Equal(k.der, der) {
		return nil, malformed("SubjectPublicKeyInfo", "not the DER encoding of the key")
	}
	return k, nil
}

// ParsePrivateKey parses a .key file ([PrivateKey.MarshalPEM]): one PEM
// "PRIVATE KEY" block, the DER PKCS #8 of an Ed25519 or ML-DSA-65 key.
// Errors never contain the key.
func ParsePrivateKey(data []byte) (*PrivateKey, error) {
	der, err := decodePEM(data, pemPrivate, pemPublic, "private key (.key)", "public key (.pub)")
	if err != nil {
		return nil, err
	}
	var p8 struct { // OneAsymmetricKey; the optional fields are left to the parsers below
		Version    int
		Algorithm  pkix.AlgorithmIdentifier
		PrivateKey []byte
	}
	if _, err := asn1.Unmarshal(der, &p8); err != nil {
		return nil, malformed("PrivateKeyInfo", "not a PKCS #8 private key")
	}
	switch oid := p8.Algorithm.Algorithm; {
	case oid.Equal(oidEd25519):
		priv, err := x509.ParsePKCS8PrivateKey(der)
		if err != nil {
			return nil, malformed("PrivateKeyInfo", "not a valid Ed25519 private key")
		}
		ed, ok := priv.(ed25519.PrivateKey)
		if !ok {
			return nil, unsupported(oid)
		}
		return newPrivateKey(Ed25519, ed.Public().(ed25519.PublicKey), ed, nil)
	case oid.Equal(oidMLDSA65):
		priv, err := pki.UnmarshalPKIXPrivateKey(der)
		if err != nil {
			return nil, malformed("PrivateKeyInfo", "not a valid ML-DSA-65 private key (want RFC 9881's seed or both form)")
		}
		ml, ok := priv.(*mldsa65.PrivateKey)
		if !ok {
			return nil, unsupported(oid)
		}
		return newPrivateKey(MLDSA65, nil, nil, ml)
	default:
		return nil, unsupported(oid)
	}
}
