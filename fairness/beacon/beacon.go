// Package beacon verifies rounds of the drand public randomness beacon
// (League of Entropy) and computes when a round is published
// (docs/fairness.md, "Public beacon").
//
// A drand round r carries a BLS signature on BLS12-381; its randomness is
// SHA-256(signature). Two chains are supported:
//
//   - quicknet (scheme bls-unchained-g1-rfc9380): public key on G2,
//     signature on G1 (48 bytes), message = SHA-256(uint64be(r)),
//     hash-to-curve DST "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_",
//     period 3 s, genesis 1692803367.
//   - default (scheme pedersen-bls-chained): public key on G1, signature on
//     G2 (96 bytes), message = SHA-256(previous signature || uint64be(r)),
//     DST "BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_", period 30 s,
//     genesis 1595431050.
//
// Round r is published at genesis + (r-1)*period (Unix seconds), and the
// latest round at time t is floor((t - genesis)/period) + 1.
//
// Start with [Lookup] and [Chain.Verify].
package beacon

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/cloudflare/circl/sign/bls"
)

// Chain names.
const (
	Quicknet = "quicknet"
	Default  = "default"
)

// Chain holds the public parameters of one drand chain.
type Chain struct {
	Name      string
	Scheme    string // drand's scheme id
	Hash      string // chain hash, hex
	PublicKey string // hex, compressed
	Genesis   int64  // Unix seconds
	Period    int64  // seconds
	Chained   bool   // the message includes the previous signature
	SigSize   int    // signature length in bytes
}

var chains = map[string]Chain{
	Quicknet: {
		Name:      Quicknet,
		Scheme:    "bls-unchained-g1-rfc9380",
		Hash:      "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
		PublicKey: "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
		Genesis:   1692803367,
		Period:    3,
		SigSize:   48,
	},
	Default: {
		Name:      Default,
		Scheme:    "pedersen-bls-chained",
		Hash:      "8990e7a9aaed2ffed73dbd7092123d6f289930540d7651336225dc172e51b2ce",
		PublicKey: "868f005eb8e6e4ca0a47c8a77ceaa5309a47978a7c71bc5cce96366b5d7a569937c529eeda66c7293784a9402801af31",
		Genesis:   1595431050,
		Period:    30,
		Chained:   true,
		SigSize:   96,
	},
}

// Errors.
var (
	// ErrUnknownChain is wrapped by [Lookup]'s error.
	ErrUnknownChain = errors.New("unknown drand chain")
	// ErrInvalid means the signature does not verify (or is malformed).
	ErrInvalid = errors.New("invalid beacon signature")
	// ErrInput means a round or previous signature is missing or malformed.
	ErrInput = errors.New("invalid beacon input")
)

// Names returns the chain names.
func Names() []string { return []string{Default, Quicknet} }

// Lookup returns the chain named name ("quicknet" or "default").
func Lookup(name string) (Chain, error) {
	c, ok := chains[name]
	if !ok {
		return Chain{}, fmt.Errorf("%w %q (known: %v)", ErrUnknownChain, name, Names())
	}
	return c, nil
}

// Message returns the 32-byte message signed for round: SHA-256 of
// uint64be(round) (unchained) or of prev || uint64be(round) (chained).
func (c Chain) Message(round uint64, prev []byte) []byte {
	h := sha256.New()
	if c.Chained {
		h.Write(prev)
	}
	var r [8]byte
	binary.BigEndian.PutUint64(r[:], round)
	h.Write(r[:])
	return h.Sum(nil)
}

// Randomness returns SHA-256(sig), the randomness of a round.
func Randomness(sig []byte) [32]byte { return sha256.Sum256(sig) }

// lastTime is the last second that RFC 3339 can write,
// 9999-12-31T23:59:59Z, in Unix seconds.
const lastTime = 253402300799

// MaxRound returns the last round of the chain published by the end of the
// year 9999, the largest round [Chain.Verify] accepts. Bounding the round
// keeps genesis + (round-1)*period from overflowing, which would make a
// far-future round look as if it had been published in the past.
func (c Chain) MaxRound() uint64 { return uint64((lastTime-c.Genesis)/c.Period) + 1 }

// CheckRound returns an error wrapping [ErrInput] unless 1 <= round <=
// [Chain.MaxRound].
func (c Chain) CheckRound(round uint64) error {
	if round == 0 {
		return fmt.Errorf("%w: round 0, rounds start at 1", ErrInput)
	}
	if round > c.MaxRound() {
		return fmt.Errorf("%w: round %d is after the last supported %s round %d (year 9999)", ErrInput, round, c.Name, c.MaxRound())
	}
	return nil
}

// Verify checks the signature of round (with the previous round's
// signature for a chained chain; ignored otherwise) and returns the
// round's randomness. It returns an error wrapping [ErrInput] for a round
// out of 1..[Chain.MaxRound], a signature of the wrong length or a missing
// previous signature, and [ErrInvalid] when the signature does not verify.
func (c Chain) Verify(round uint64, sig, prev []byte) ([32]byte, error) {
	if err := c.CheckRound(round); err != nil {
		return [32]byte{}, err
	}
	if len(sig) != c.SigSize {
		return [32]byte{}, fmt.Errorf("%w: signature is %d bytes, want %d for %s", ErrInput, len(sig), c.SigSize, c.Name)
	}
	if c.Chained && len(prev) != c.SigSize {
		return [32]byte{}, fmt.Errorf("%w: previous signature is %d bytes, want %d for %s", ErrInput, len(prev), c.SigSize, c.Name)
	}
	pk, err := hex.DecodeString(c.PublicKey)
	if err != nil {
		return [32]byte{}, fmt.Errorf("beacon: bad built-in public key: %w", err)
	}
	msg := c.Message(round, prev)
	var ok bool
	switch c.SigSize {
	case 48: // public key on G2, signature on G1
		var pub bls.PublicKey[bls.KeyG2SigG1]
		if err := pub.UnmarshalBinary(pk); err != nil {
			return [32]byte{}, fmt.Errorf("beacon: bad built-in public key: %w", err)
		}
		ok = bls.Verify(&pub, msg, sig)
	default: // public key on G1, signature on G2
		var pub bls.PublicKey[bls.KeyG1SigG2]
		if err := pub.UnmarshalBinary(pk); err != nil {
			return [32]byte{}, fmt.Errorf("beacon: bad built-in public key: %w", err)
		}
		ok = bls.Verify(&pub, msg, sig)
	}
	if !ok {
		return [32]byte{}, fmt.Errorf("%w: %s round %d", ErrInvalid, c.Name, round)
	}
	return Randomness(sig), nil
}

// RoundTime returns when round (>= 1) is published: genesis +
// (round-1)*period. Rounds outside 1..[Chain.MaxRound] are clamped to that
// range; [Chain.CheckRound] rejects them.
func (c Chain) RoundTime(round uint64) time.Time {
	round = min(max(round, 1), c.MaxRound())
	return time.Unix(c.Genesis+int64(round-1)*c.Period, 0).UTC()
}

// RoundAt returns the latest round published at time t: floor((t -
// genesis)/period) + 1, or 0 before genesis.
func (c Chain) RoundAt(t time.Time) uint64 {
	d := t.Unix() - c.Genesis
	if d < 0 {
		return 0
	}
	return uint64(d/c.Period) + 1
}

// PublishedAfter reports whether round is published strictly after t, the
// time the commitment was published: the beacon could not be known when
// the server seed was committed.
func (c Chain) PublishedAfter(round uint64, t time.Time) bool {
	return c.CheckRound(round) == nil && c.RoundTime(round).After(t)
}
