// Package scheme is the registry of provably-fair schemes: the recipes that
// turn a round's revealed seeds into its cards (docs/fairness.md).
//
// Two schemes are registered:
//
//   - "fairhold/v1" ([FairholdV1Name]): this project's scheme. HMAC-SHA256
//     stream keyed with the 32-byte server seed, unbiased bounded integers,
//     forward Fisher–Yates from the canonical deck: the cards of a round are
//     a prefix of a permutation of the 52 cards.
//   - "stake-compat" ([StakeCompatName]): a verifier for the dominant
//     third-party scheme family, for audits. Cards are drawn with
//     replacement, so they can repeat, and the float mapping is slightly
//     biased; see [StakeCompatIndexCounts].
//
// Cards are card indices 0..51 in the canonical deck order, index =
// 4*rank + suit (rank 0 = two .. 12 = ace; suits clubs 0, diamonds 1,
// hearts 2, spades 3): 2c 2d 2h 2s 3c ... As.
//
// Start with [Lookup]. [Scheme.Deal] deals one round from an [Input];
// [Scheme.Prepare] precomputes the key state of one server seed and returns a
// [Dealer] that deals many rounds (nonces) cheaply.
//
// Adding a scheme means adding a file with its type and one entry in the
// registry below; the other schemes are not touched.
package scheme

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// DeckSize is the number of cards in the deck.
const DeckSize = 52

// Input is what one round's cards are derived from.
type Input struct {
	ServerSeed  []byte   // the revealed server seed (32 bytes for fairhold/v1) or chain link
	ClientSeeds []string // client seeds in seat order (one for single-player games)
	Nonce       uint64
	Beacon      []byte // drand randomness (32 bytes), nil when no beacon is mixed in
}

// Scheme is one provably-fair scheme.
type Scheme interface {
	// Name returns the registered name, e.g. "fairhold/v1".
	Name() string
	// Deal returns the first n cards of the round's deck as canonical card
	// indices 0..51. fairhold/v1: a permutation prefix (no repeats), n in
	// 0..52. stake-compat: draws with replacement, n >= 0.
	// The error wraps [ErrInput] when the input does not fit the scheme;
	// it never contains the server seed.
	Deal(in Input, n int) ([]uint8, error)
	// Prepare precomputes the key state of one server seed and returns a
	// Dealer for the rounds dealt with it. Errors are as for Deal.
	Prepare(serverSeed []byte) (Dealer, error)
	// Properties describes the scheme for audits.
	Properties() Properties
}

// Dealer deals rounds for one server seed. A Dealer keeps buffers and must
// not be used by several goroutines at once.
type Dealer interface {
	// Deal appends the first n cards of the round (clientSeeds, nonce,
	// beacon) to dst, as [Scheme.Deal] would return them.
	Deal(dst []uint8, clientSeeds []string, nonce uint64, beacon []byte, n int) ([]uint8, error)
}

// Rekeyer is a [Dealer] that can be prepared again for another server seed
// without allocating: a hash-chain table reveals a new seed every round.
// After Rekey the dealer deals as the scheme's Prepare(serverSeed) would;
// on an error it is unchanged.
type Rekeyer interface {
	Rekey(serverSeed []byte) error
}

// Properties describes what a scheme guarantees, for audits and reports.
type Properties struct {
	// WithReplacement is true when the same card can be dealt twice in a
	// round (the scheme draws cards, not a shuffled deck).
	WithReplacement bool
	// Unbiased is true when every card (and every deck order) is exactly
	// equally likely given uniformly random stream bytes.
	Unbiased bool
	// Beacon is true when the scheme can mix in drand randomness.
	Beacon bool
	// Notes states the audit findings about the scheme's design in
	// sentences, empty for none.
	Notes []string
}

// ErrInput is wrapped by the errors of Deal and Prepare for input that does
// not fit the scheme (wrong seed length, missing client seed, n out of range).
var ErrInput = errors.New("invalid input")

// ErrUnknown is wrapped by the error of [Lookup] for a name that is not
// registered.
var ErrUnknown = errors.New("unknown scheme")

// registry lists the schemes by name.
var registry = map[string]Scheme{
	FairholdV1Name:  FairholdV1{},
	StakeCompatName: StakeCompat{},
}

// Lookup returns the scheme registered under name.
func Lookup(name string) (Scheme, error) {
	s, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %v)", ErrUnknown, name, Names())
	}
	return s, nil
}

// Names returns the registered scheme names, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ParseNonce parses a nonce written in text (flags, vectors, logs): decimal
// 0..18446744073709551615 with one text form per value, so no sign, no
// leading zeros and no spaces ("-1", "01" and "18446744073709551616" are
// errors wrapping [ErrInput]).
func ParseNonce(s string) (uint64, error) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || strconv.FormatUint(n, 10) != s {
		return 0, inputErrorf("nonce %q: want a decimal integer 0..18446744073709551615", s)
	}
	return n, nil
}

func inputErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInput, fmt.Sprintf(format, args...))
}
