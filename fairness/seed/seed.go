// Package seed implements server seeds and their commitments for the
// fairhold/v1 provably-fair scheme (docs/fairness.md).
//
// A server seed is 32 bytes from crypto/rand, written as 64 lowercase hex
// digits. Its commitment is the SHA-256 digest of the 32 seed bytes (the
// bytes, not the hex text):
//
//	commitment = SHA-256(seed)
//
// Start with [New] to draw a seed, [Commit] to compute the commitment that is
// published before any client input is known, and [Verify] to check a
// revealed seed against a published commitment in constant time.
//
// A seed is a secret until it is revealed: [Seed.String] and the errors of
// this package never contain its digits. Use [Seed.Hex] to write it out on
// purpose.
package seed

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
)

// Size is the length of a server seed and of a commitment in bytes.
const Size = 32

// Seed is a server seed.
type Seed [Size]byte

// Commitment is the SHA-256 digest of a server seed.
type Commitment [Size]byte

// Errors returned by the parsers.
var (
	// ErrOddLength means a hex string has an odd number of digits.
	ErrOddLength = errors.New("odd number of hex digits")
	// ErrNotHex means a string contains a character that is not a lowercase
	// or uppercase hex digit.
	ErrNotHex = errors.New("not a hex digit")
	// ErrLength means the decoded value does not have the expected length.
	ErrLength = errors.New("wrong length")
)

// New returns a fresh seed from crypto/rand.
func New() (Seed, error) {
	var s Seed
	if _, err := rand.Read(s[:]); err != nil {
		return Seed{}, fmt.Errorf("failed to read random seed: %w", err)
	}
	return s, nil
}

// Hex returns the seed as 64 lowercase hex digits. It is the only way this
// package writes out a seed's value.
func (s Seed) Hex() string {
	var b [2 * Size]byte
	hex.Encode(b[:], s[:])
	return string(b[:])
}

// String returns a redacted placeholder, so that a seed printed by mistake
// (in a log line or an error) does not leak.
func (s Seed) String() string { return "seed(redacted)" }

// GoString is like String, for %#v.
func (s Seed) GoString() string { return s.String() }

// Commit returns the commitment to s: SHA-256 of its 32 bytes.
func Commit(s Seed) Commitment { return Commitment(sha256.Sum256(s[:])) }

// Verify reports whether c is the commitment to s. The comparison takes
// constant time.
func Verify(s Seed, c Commitment) bool {
	got := Commit(s)
	return subtle.ConstantTimeCompare(got[:], c[:]) == 1
}

// Hex returns the commitment as 64 lowercase hex digits.
func (c Commitment) Hex() string { return hex.EncodeToString(c[:]) }

// String returns c.Hex(); a commitment is public.
func (c Commitment) String() string { return c.Hex() }

// Equal reports whether c and d are equal, in constant time.
func (c Commitment) Equal(d Commitment) bool {
	return subtle.ConstantTimeCompare(c[:], d[:]) == 1
}

// Parse parses a seed written as 64 hex digits (either case). The error
// describes what is wrong without repeating the input.
func Parse(s string) (Seed, error) {
	b, err := DecodeHex(s, Size)
	if err != nil {
		return Seed{}, err
	}
	return Seed(b), nil
}

// ParseCommitment parses a commitment written as 64 hex digits.
func ParseCommitment(s string) (Commitment, error) {
	b, err := DecodeHex(s, Size)
	if err != nil {
		return Commitment{}, err
	}
	return Commitment(b), nil
}

// DecodeHex decodes a hex string (either case, no prefix, no spaces). When
// want is not negative the decoded value must be exactly want bytes long.
// Errors wrap [ErrOddLength], [ErrNotHex] or [ErrLength] and never contain
// the input, which may be a secret.
func DecodeHex(s string, want int) ([]byte, error) {
	if len(s)%2 != 0 {
		return nil, fmt.Errorf("%w: %d digits", ErrOddLength, len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return nil, fmt.Errorf("%w at offset %d", ErrNotHex, i)
		}
	}
	if want >= 0 && len(s)/2 != want {
		return nil, fmt.Errorf("%w: got %d bytes, want %d", ErrLength, len(s)/2, want)
	}
	b := make([]byte, len(s)/2)
	if _, err := hex.Decode(b, []byte(s)); err != nil {
		return nil, fmt.Errorf("%w", ErrNotHex)
	}
	return b, nil
}
