// Package check verifies one provably-fair round: it runs every check the
// given claims allow and reports each one (docs/fairness.md,
// "Verifying a round"). It is the engine of `fairhold verify` and of the
// fairness vectors' conformance runner.
//
// The checks, in order, each run only when its inputs are given:
//
//	commitment               SHA-256(server seed) equals the published commitment
//	chain                    the server seed hashes to the chain anchor (or the last
//	                         verified link) in the stated number of steps, or within a bound
//	beacon-signature         the drand round's BLS signature verifies
//	beacon-after-commitment  the drand round was published after the commitment
//	nonce-unused             the nonce was not used before with this server seed
//	cards                    the claimed cards equal the cards the scheme deals
//	no-repeated-cards        no card is dealt twice (schemes that draw with replacement)
//
// Start with [Run].
package check

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fairhold/fairhold/fairness/beacon"
	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
)

// Check names.
const (
	Commitment            = "commitment"
	Chain                 = "chain"
	BeaconSignature       = "beacon-signature"
	BeaconAfterCommitment = "beacon-after-commitment"
	NonceUnused           = "nonce-unused"
	Cards                 = "cards"
	NoRepeatedCards       = "no-repeated-cards"
)

// DefaultMaxSteps bounds the walk from a chain link to its anchor when the
// number of steps is not stated.
const DefaultMaxSteps = 1_000_000

// Beacon is a claimed drand round.
type Beacon struct {
	Chain             string // "quicknet" or "default"
	Round             uint64
	Signature         []byte
	PreviousSignature []byte // the default chain only
}

// Claim is what a round claims: the revealed inputs and the published or
// dealt values to check them against. Optional fields are nil or zero when
// not given.
type Claim struct {
	Scheme      string
	ServerSeed  []byte
	ClientSeeds []string
	Nonce       uint64

	Commitment  []byte    // published SHA-256 of the server seed
	CommittedAt time.Time // when the commitment was published (for the beacon's time check)
	ChainAnchor []byte    // chain anchor or last verified link
	ChainSteps  uint64    // exact distance from the anchor; 0 = search up to MaxSteps
	MaxSteps    int       // bound for the search; 0 = DefaultMaxSteps
	Beacon      *Beacon
	UsedNonces  []uint64 // nonces already used with this server seed and client input
	Cards       []uint8  // the claimed cards, a prefix of the deal, canonical indices
	Count       int      // how many cards to deal (at least len(Cards))
}

// Result is the outcome of [Run].
type Result struct {
	Verified   bool    `json:"verified"`
	Checks     []Item  `json:"checks"`
	Dealt      []uint8 `json:"-"` // the cards the scheme deals (nil if not derivable)
	Randomness []byte  `json:"-"` // the beacon randomness, if verified
}

// Item is one check's outcome.
type Item struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// ErrMalformed is matched (errors.Is) by Run's error for a claim that
// cannot be checked at all (unknown scheme, wrong lengths).
var ErrMalformed = errors.New("malformed claim")

// MalformedError names the malformed field of a claim and what is wrong
// with it. Field is one of: scheme, server_seed, client_seeds, commitment,
// chain_anchor, chain_steps, chain_max_steps, beacon, beacon_chain,
// beacon_round, beacon_previous_signature, count,
// cards.
type MalformedError struct {
	Field  string
	Reason string
}

func (e *MalformedError) Error() string { return e.Field + ": " + e.Reason }

// Is makes errors.Is(err, ErrMalformed) true.
func (e *MalformedError) Is(target error) bool { return target == ErrMalformed }

func malformed(field, format string, args ...any) error {
	return &MalformedError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// Run checks c. It returns an error wrapping [ErrMalformed] when c is
// malformed; otherwise a Result whose Verified is true when every check
// passed.
func Run(c Claim) (Result, error) {
	s, err := scheme.Lookup(c.Scheme)
	if err != nil {
		return Result{}, malformed("scheme", "%v", err)
	}
	if len(c.ServerSeed) != seed.Size {
		return Result{}, malformed("server_seed", "%d bytes, want %d", len(c.ServerSeed), seed.Size)
	}
	if c.Commitment != nil && len(c.Commitment) != seed.Size {
		return Result{}, malformed("commitment", "%d bytes, want %d", len(c.Commitment), seed.Size)
	}
	if c.ChainAnchor != nil && len(c.ChainAnchor) != seed.Size {
		return Result{}, malformed("chain_anchor", "%d bytes, want %d", len(c.ChainAnchor), seed.Size)
	}
	if c.Count < 0 {
		return Result{}, malformed("count", "%d cards, want at least 0", c.Count)
	}
	if c.Count < len(c.Cards) {
		c.Count = len(c.Cards)
	}
	maxCount := scheme.DeckSize
	if s.Properties().WithReplacement {
		maxCount = scheme.MaxStakeDraws
	}
	if c.Count < 0 || c.Count > maxCount {
		return Result{}, malformed("count", "%d cards, want 0..%d for %s", c.Count, maxCount, s.Name())
	}
	for i, cd := range c.Cards {
		if cd >= scheme.DeckSize {
			return Result{}, malformed("cards", "card %d is index %d, want 0..51", i+1, cd)
		}
	}
	if c.ChainAnchor != nil {
		// Both bounds are checked here, so that an absurd bound is reported
		// as malformed input rather than walked (a denial of service) or
		// reported as a failed check.
		if c.ChainSteps > chain.MaxLength {
			return Result{}, malformed("chain_steps", "%d steps, want 1..%d", c.ChainSteps, chain.MaxLength)
		}
		if c.MaxSteps < 0 || c.MaxSteps > chain.MaxLength {
			return Result{}, malformed("chain_max_steps", "%d steps, want 1..%d (0: the default %d)", c.MaxSteps, chain.MaxLength, DefaultMaxSteps)
		}
	}
	if c.Beacon != nil && !s.Properties().Beacon {
		return Result{}, malformed("beacon", "scheme %s does not mix in a beacon", s.Name())
	}
	var r Result
	add := func(name string, ok bool, format string, args ...any) {
		r.Checks = append(r.Checks, Item{Name: name, OK: ok, Detail: fmt.Sprintf(format, args...)})
	}
	sd := seed.Seed(c.ServerSeed)

	if c.Commitment != nil {
		ok := seed.Verify(sd, seed.Commitment(c.Commitment))
		if ok {
			add(Commitment, true, "SHA-256(server seed) = %x", c.Commitment)
		} else {
			add(Commitment, false, "SHA-256(server seed) = %s, published commitment %x", seed.Commit(sd).Hex(), c.Commitment)
		}
	}
	if c.ChainAnchor != nil {
		anchor := seed.Seed(c.ChainAnchor)
		if c.ChainSteps > 0 {
			if err := chain.VerifyAt(sd, anchor, c.ChainSteps); err != nil {
				add(Chain, false, "%v", err)
			} else {
				add(Chain, true, "SHA-256^%d(server seed) = anchor %s", c.ChainSteps, anchor.Hex())
			}
		} else {
			bound := c.MaxSteps
			if bound == 0 {
				bound = DefaultMaxSteps
			}
			if n, err := chain.Verify(sd, anchor, bound); err != nil {
				add(Chain, false, "%v", err)
			} else {
				add(Chain, true, "SHA-256^%d(server seed) = anchor %s", n, anchor.Hex())
			}
		}
	}
	var randomness []byte
	beaconOK := true
	if b := c.Beacon; b != nil {
		bc, err := beacon.Lookup(b.Chain)
		if err != nil {
			return Result{}, malformed("beacon_chain", "%v", err)
		}
		if err := bc.CheckRound(b.Round); err != nil {
			return Result{}, malformed("beacon_round", "%v", err)
		}
		if bc.Chained && len(b.PreviousSignature) != bc.SigSize {
			return Result{}, malformed("beacon_previous_signature", "%d bytes, want the %s chain's previous signature of %d bytes",
				len(b.PreviousSignature), bc.Name, bc.SigSize)
		}
		rnd, err := bc.Verify(b.Round, b.Signature, b.PreviousSignature)
		switch {
		case errors.Is(err, beacon.ErrInput):
			return Result{}, malformed("beacon", "%v", err)
		case err != nil:
			beaconOK = false
			add(BeaconSignature, false, "%v", err)
		default:
			randomness = rnd[:]
			add(BeaconSignature, true, "%s round %d, randomness %x", bc.Name, b.Round, randomness)
		}
		if !c.CommittedAt.IsZero() {
			at := bc.RoundTime(b.Round)
			ok := bc.PublishedAfter(b.Round, c.CommittedAt)
			add(BeaconAfterCommitment, ok, "%s round %d published at %s, commitment at %s",
				bc.Name, b.Round, at.Format(time.RFC3339), c.CommittedAt.UTC().Format(time.RFC3339))
		}
	}
	if c.UsedNonces != nil {
		if slices.Contains(c.UsedNonces, c.Nonce) {
			add(NonceUnused, false, "nonce %d was already used with this server seed", c.Nonce)
		} else {
			add(NonceUnused, true, "nonce %d not among %d used nonces", c.Nonce, len(c.UsedNonces))
		}
	}
	if beaconOK && (c.Count > 0) {
		dealt, err := s.Deal(scheme.Input{ServerSeed: c.ServerSeed, ClientSeeds: c.ClientSeeds, Nonce: c.Nonce, Beacon: randomness}, c.Count)
		if err != nil {
			return Result{}, malformed("client_seeds", "%v", err)
		}
		r.Dealt = dealt
		if c.Cards != nil {
			if i := firstDiff(dealt, c.Cards); i >= 0 {
				add(Cards, false, "position %d: claimed card %d, the scheme deals %d", i, c.Cards[i], dealt[i])
			} else {
				add(Cards, true, "%d claimed cards equal the scheme's deal", len(c.Cards))
			}
		}
		if s.Properties().WithReplacement {
			if i, j := firstRepeat(dealt); i >= 0 {
				add(NoRepeatedCards, false, "card %d is dealt at positions %d and %d (the scheme draws with replacement)", dealt[i], i, j)
			} else {
				add(NoRepeatedCards, true, "no card repeats in these %d cards, but the scheme draws with replacement and can repeat", len(dealt))
			}
		}
	} else if !beaconOK && c.Cards != nil {
		add(Cards, false, "not derivable: the beacon did not verify")
	}
	r.Randomness = randomness
	r.Verified = true
	for _, ch := range r.Checks {
		r.Verified = r.Verified && ch.OK
	}
	return r, nil
}

func firstDiff(dealt, claimed []uint8) int {
	for i := range claimed {
		if dealt[i] != claimed[i] {
			return i
		}
	}
	return -1
}

func firstRepeat(cs []uint8) (int, int) {
	var seen [256]int
	for i := range seen {
		seen[i] = -1
	}
	for j, c := range cs {
		if seen[c] >= 0 {
			return seen[c], j
		}
		seen[c] = j
	}
	return -1, -1
}

// Failed returns the names of the failed checks, joined by ", ".
func (r Result) Failed() string {
	var f []string
	for _, c := range r.Checks {
		if !c.OK {
			f = append(f, c.Name)
		}
	}
	return strings.Join(f, ", ")
}
