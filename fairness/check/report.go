package check

import (
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
)

// Dealt is one round's cards derived from its revealed seeds: the JSON of
// `fairhold deal --json` (docs/fairness.md, "JSON output of deal and
// verify").
type Dealt struct {
	// Scheme is the provably-fair scheme's name.
	Scheme string `json:"scheme"`
	// Game is the game whose dealing order arranges Cards; empty for the
	// raw sequence.
	Game string `json:"game,omitempty"`
	// Nonce is the round's nonce, a decimal string (64-bit: JSON numbers
	// are not exact above 2^53 in JavaScript).
	Nonce uint64 `json:"nonce,string"`
	// BeaconRandomness is the verified drand randomness mixed into the
	// stream, lower-case hex; empty without a beacon.
	BeaconRandomness string `json:"beacon_randomness,omitempty"`
	// Cards are the dealt cards by position.
	Cards layout.Deal `json:"cards"`
	// Notes are the scheme's known weaknesses.
	Notes []string `json:"notes,omitempty"`
}

// Verdict is the outcome of verifying one round: the JSON of
// `fairhold verify --json` (docs/fairness.md, "JSON output of deal and
// verify").
type Verdict struct {
	// Verdict is [VerdictVerified], [VerdictPartial] or [VerdictFailed]
	// ([Result.Verdict]).
	Verdict string `json:"verdict"`
	// Verified is true exactly when Verdict is "verified": every check
	// run passed, the claimed cards cover the whole round (a round that
	// deals no cards needs none) and a commitment or a chain anchor binds
	// the server seed.
	Verified bool `json:"verified"`
	// Unbound is [UnboundReason] when nothing binds the server seed
	// ([Result.Unbound]): the round cannot be checked, whatever its
	// checks say. Empty otherwise.
	Unbound string `json:"unbound,omitempty"`
	// Scheme is the provably-fair scheme's name.
	Scheme string `json:"scheme"`
	// Game is the game whose dealing order names the positions; empty for
	// the raw sequence.
	Game string `json:"game,omitempty"`
	// Nonce is the round's nonce, a decimal string.
	Nonce uint64 `json:"nonce,string"`
	// Count is the number of cards the round deals (0: no cards dealt).
	Count int `json:"count"`
	// Checks are the checks run, in order.
	Checks []Item `json:"checks"`
	// Claimed is the number of claimed cards (0: no card claim; with
	// Count > 0 that is a partial claim).
	Claimed int `json:"claimed"`
	// CheckedPositions names, in dealing order, the positions whose
	// claimed card was compared with the deal; UncheckedPositions the
	// positions a partial claim left out (all of them without claimed
	// cards). Absent when the round deals no cards, and when the cards
	// cannot be derived.
	CheckedPositions   []string `json:"checked_positions,omitempty"`
	UncheckedPositions []string `json:"unchecked_positions,omitempty"`
	// Mismatches are the claimed cards that differ from the deal.
	Mismatches []Mismatch `json:"mismatches,omitempty"`
	// Cards are the cards the scheme deals, by position, when they can be
	// derived.
	Cards *layout.Deal `json:"cards,omitempty"`
	// Notes are the scheme's known weaknesses.
	Notes []string `json:"notes,omitempty"`
	// Hints are the likely copying mistakes that explain a failed check
	// ([Hints]); absent unless the verdict is "failed".
	Hints []Hint `json:"hints,omitempty"`
}

// names returns the canonical names of card indices.
func names(idx []uint8) []string {
	out := make([]string, len(idx))
	for i, c := range idx {
		out[i] = cardName(c)
	}
	return out
}

// NewVerdict is the report of c's verification r: what `fairhold verify
// --json` prints (and the web page's verifier returns) for it.
func NewVerdict(c Claim, r Result) (Verdict, error) {
	v := Verdict{
		Verdict: r.Verdict(), Verified: r.Verdict() == VerdictVerified, Scheme: c.Scheme, Nonce: c.Nonce,
		Count: c.Count, Checks: r.Checks, Claimed: len(c.Cards),
		CheckedPositions: r.Checked, UncheckedPositions: r.Unchecked, Mismatches: r.Mismatches,
	}
	if r.Unbound {
		v.Unbound = UnboundReason
	}
	if c.Layout != nil {
		v.Game = c.Layout.Game
	}
	if s, err := scheme.Lookup(c.Scheme); err == nil {
		v.Notes = s.Properties().Notes
	}
	if v.Verdict == VerdictFailed {
		v.Hints = Hints(c, r)
	}
	if r.Dealt != nil && c.Count > 0 {
		d, err := layout.NewDeal(c.Layout, c.Seats, names(r.Dealt))
		if err != nil {
			return Verdict{}, err
		}
		v.Cards = &d
	}
	return v, nil
}
