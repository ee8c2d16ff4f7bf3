package manifest

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
)

// ErrSignature is matched (errors.Is) by the error of [Verify] and [Load]
// for a signature that does not verify.
var ErrSignature = errors.New("the manifest's signature does not verify")

// Sign returns the detached signature of a manifest's bytes: the 64-byte
// Ed25519 signature (RFC 8032) of exactly those bytes, the content of
// manifest.json.sig.
func Sign(manifest []byte, key ed25519.PrivateKey) []byte {
	return ed25519.Sign(key, manifest)
}

// Verify checks sig, the content of manifest.json.sig, against the bytes
// of manifest.json.
func Verify(manifest, sig []byte, key ed25519.PublicKey) error {
	if len(sig) != ed25519.SignatureSize {
		return fmt.Errorf("%w: %s holds %d bytes, want the %d bytes of an Ed25519 signature", ErrSignature, SignatureName, len(sig), ed25519.SignatureSize)
	}
	if !ed25519.Verify(key, manifest, sig) {
		return fmt.Errorf("%w with the key given", ErrSignature)
	}
	return nil
}

// ParsePrivateKey reads an Ed25519 private key from a PEM block "PRIVATE
// KEY" holding PKCS #8 (as `openssl genpkey -algorithm ed25519` writes).
func ParsePrivateKey(pemBytes []byte) (ed25519.PrivateKey, error) {
	der, err := pemBlock(pemBytes, "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("not a PKCS #8 private key: %v", err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("a %T, want an Ed25519 private key", k)
	}
	return ek, nil
}

// ParsePublicKey reads an Ed25519 public key from a PEM block "PUBLIC
// KEY" holding PKIX (as `openssl pkey -pubout` writes).
func ParsePublicKey(pemBytes []byte) (ed25519.PublicKey, error) {
	der, err := pemBlock(pemBytes, "PUBLIC KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("not a PKIX public key: %v", err)
	}
	ek, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("a %T, want an Ed25519 public key", k)
	}
	return ek, nil
}

func pemBlock(b []byte, typ string) ([]byte, error) {
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, fmt.Errorf("no PEM block; want a PEM %q block", typ)
	}
	if blk.Type != typ {
		return nil, fmt.Errorf("PEM block %q, want %q", blk.Type, typ)
	}
	return blk.Bytes, nil
}

// MarshalPrivateKey and MarshalPublicKey write keys in the PEM forms the
// parsers read.
func MarshalPrivateKey(k ed25519.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// MarshalPublicKey: see [MarshalPrivateKey].
func MarshalPublicKey(k ed25519.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// LoadPrivateKey reads a private key file (see [ParsePrivateKey]).
func LoadPrivateKey(path string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	k, err := ParsePrivateKey(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// LoadPublicKey reads a public key file (see [ParsePublicKey]).
func LoadPublicKey(path string) (ed25519.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	k, err := ParsePublicKey(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}
