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
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fairhold/fairhold/fairness/beacon"
	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/layout"
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
	ChainSteps  uint64    // exact distance from the anchor, >= 1; 0 = not stated: search up to MaxSteps
	MaxSteps    int       // bound for the search; 0 = DefaultMaxSteps
	Beacon      *Beacon
	UsedNonces  []uint64 // nonces already used with this server seed and client input
	// Cards are the claimed cards in dealing order, canonical indices: the
	// first len(Cards) positions of the deal. Fewer than Count, none
	// included, make a partial claim ([Result.Partial]); more are
	// malformed.
	Cards []uint8
	// Count is how many cards the round deals; 0 deals none (nothing to
	// compare Cards with, so Cards must then be empty too).
	Count int
	// Layout is the game's dealing order, nil for the raw sequence, and
	// Seats the Double Hold'em seat numbers in dealing order: they only
	// name the positions in the report ([layout.Position]). With a Layout,
	// Count must be Layout.Count.
	Layout *layout.Layout
	Seats  []int
}

// Verdicts of a verification ([Result.Verdict]).
const (
	// VerdictVerified: every check passed, and the claimed cards cover
	// every position the round deals (a round that deals none: Count 0).
	VerdictVerified = "verified"
	// VerdictPartial: every check passed, but the round deals cards and
	// the claimed ones cover only its first positions, or none; or
	// nothing binds the server seed ([Result.Unbound]): the round cannot
	// be checked.
	VerdictPartial = "partial"
	// VerdictFailed: a check failed.
	VerdictFailed = "failed"
)

// Result is the outcome of [Run].
type Result struct {
	// Verified is true when every check run passed, a partial claim
	// included; see [Result.Verdict].
	Verified   bool    `json:"verified"`
	Checks     []Item  `json:"checks"`
	Dealt      []uint8 `json:"-"` // the cards the scheme deals (nil if not derivable)
	Randomness []byte  `json:"-"` // the beacon randomness, if verified
	// Partial is true when the round deals cards (Count > 0), fewer were
	// claimed (none included), and the deal could be derived to compare
	// the claimed ones with.
	Partial bool `json:"-"`
	// Checked names the positions whose claimed card was compared with the
	// deal, in dealing order ([layout.Position]); Unchecked the positions
	// the round deals that the claim left out (every position for a claim
	// without cards). Both are nil when the round deals no cards or the
	// cards could not be derived.
	Checked   []string `json:"-"`
	Unchecked []string `json:"-"`
	// Mismatches are the claimed cards that differ from the deal, in
	// dealing order.
	Mismatches []Mismatch `json:"-"`
	// Unbound is true when nothing binds the server seed before the
	// round: the claim has no commitment and no chain anchor. Such a seed
	// can be any seed the operator chose after seeing the client seeds,
	// so cards that follow from it prove nothing: the round cannot be
	// checked, and its verdict is [VerdictPartial], never verified
	// ([UnboundReason]).
	Unbound bool `json:"-"`
}

// UnboundReason says why a round whose server seed nothing binds
// ([Result.Unbound]) cannot be checked.
const UnboundReason = "nothing binds the server seed: no commitment and no hash chain anchor, " +
	"so the operator could have chosen it after seeing the client seeds"

// Mismatch is a claimed card that differs from the dealt one.
type Mismatch struct {
	// Position names the position in words ([layout.Position]).
	Position string `json:"position"`
	// Claimed and Dealt are the cards by name ("Qd").
	Claimed string `json:"claimed"`
	Dealt   string `json:"dealt"`
}

// String gives the mismatch as "river: Qd claimed, Qc dealt".
func (m Mismatch) String() string {
	return m.Position + ": " + m.Claimed + " claimed, " + m.Dealt + " dealt"
}

// Verdict returns [VerdictFailed] when a check failed, [VerdictPartial]
// when every check passed but the claim left positions out or nothing
// binds the server seed ([Result.Unbound]), and [VerdictVerified]
// otherwise.
func (r Result) Verdict() string {
	switch {
	case !r.Verified:
		return VerdictFailed
	case r.Partial, r.Unbound:
		return VerdictPartial
	}
	return VerdictVerified
}

// cardName is a card index's canonical name, "As" (docs/cards.md).
func cardName(c uint8) string {
	if c >= scheme.DeckSize {
		return fmt.Sprintf("card index %d", c)
	}
	return string([]byte{"23456789TJQKA"[c/4], "cdhs"[c%4]})
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
// beacon_round, beacon_previous_signature, count, claimed_cards (the names
// of the vector fields, docs/fairness.md).
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
	if c.Layout != nil && c.Count != c.Layout.Count {
		return Result{}, malformed("count", "%d cards, but %s deals %d", c.Count, c.Layout.Game, c.Layout.Count)
	}
	if len(c.Cards) > c.Count {
		return Result{}, malformed("claimed_cards", "%d cards claimed, but the round deals %d", len(c.Cards), c.Count)
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
			return Result{}, malformed("claimed_cards", "card %d is index %d, want 0..51", i+1, cd)
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
		if sd == anchor {
			// Distance 0: the anchor is public, so revealing it proves
			// nothing; it is never a round's link.
			add(Chain, false, "the server seed is the anchor itself (distance 0): the anchor is public, so it is no round's link")
		} else if c.ChainSteps > 0 {
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
				bc.Name, b.Round, at.Format(time.RFC3339), c.CommittedAt.UTC().Format(time.RFC3339Nano))
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
		pos := func(i int) string { return layout.Position(c.Layout, c.Seats, i) }
		// Fewer claimed cards than the round deals, none included, is a
		// partial claim: the positions left out are listed unchecked.
		for i := range c.Count {
			if i < len(c.Cards) {
				r.Checked = append(r.Checked, pos(i))
			} else {
				r.Unchecked = append(r.Unchecked, pos(i))
			}
		}
		r.Partial = len(c.Cards) < c.Count
		if len(c.Cards) > 0 {
			var msgs []string
			for i, cd := range c.Cards {
				if dealt[i] != cd {
					m := Mismatch{Position: pos(i), Claimed: cardName(cd), Dealt: cardName(dealt[i])}
					r.Mismatches = append(r.Mismatches, m)
					msgs = append(msgs, m.String())
				}
			}
			switch {
			case len(msgs) > 0:
				add(Cards, false, "%s", strings.Join(msgs, "; "))
			case r.Partial:
				add(Cards, true, "%d of the %d cards claimed, and they equal the scheme's deal; not claimed: %s",
					len(c.Cards), c.Count, strings.Join(r.Unchecked, "; "))
			default:
				add(Cards, true, "%d claimed cards equal the scheme's deal", len(c.Cards))
			}
		}
		if s.Properties().WithReplacement {
			if i, j := firstRepeat(dealt); i >= 0 {
				add(NoRepeatedCards, false, "%s is dealt twice, %s and %s (the scheme draws with replacement)", cardName(dealt[i]), pos(i), pos(j))
			} else {
				add(NoRepeatedCards, true, "no card repeats in these %d cards, but the scheme draws with replacement and can repeat", len(dealt))
			}
		}
	} else if !beaconOK && len(c.Cards) > 0 {
		add(Cards, false, "not derivable: the beacon did not verify")
	}
	r.Randomness = randomness
	r.Unbound = c.Commitment == nil && c.ChainAnchor == nil
	r.Verified = true
	for _, ch := range r.Checks {
		r.Verified = r.Verified && ch.OK
	}
	return r, nil
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

// ParseTime parses a time as fairhold reads one (docs/fairness.md, "Times"):
// RFC 3339 in the form YYYY-MM-DDTHH:MM:SS, optionally a fraction of 1 to
// 9 digits after a full stop, then Z or an offset +HH:MM or -HH:MM (offset
// hours 00..23). Upper-case T and Z only; no leap second (60), no comma
// fraction, no other layout. The fraction is kept: the comparison with a
// beacon round's whole-second time is exact.
func ParseTime(s string) (time.Time, error) {
	m := timeRE.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, fmt.Errorf("%q: want an RFC 3339 time such as 2026-01-02T15:04:05Z or 2026-01-02T16:04:05.25+01:00", s)
	}
	if m[1] != "" && m[1] > "23" {
		return time.Time{}, fmt.Errorf("%q: offset hours %s, want 00..23", s, m[1])
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("not a valid date and time: %w", err)
	}
	return t, nil
}

var timeRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?(?:Z|[+-]([0-9]{2}):[0-5][0-9])$`)
