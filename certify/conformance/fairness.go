// Package conformance runs fairhold's test vectors (package vectors)
// against the implementation.
//
// [RunFairness] runs one fairness vector: it turns the vector's text into a
// [check.Claim] (naming the field of any malformed value), runs the checks,
// and compares the outcome, the derived bytes and the cards with what the
// vector expects.
package conformance

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/vectors"
)

// Fields of a fairness vector named by malformed-input errors, beyond
// those of check.MalformedError.
const (
	FieldNonce       = "nonce"
	FieldClaimed     = "claimed_cards"
	FieldGame        = "game"
	FieldCommittedAt = "committed_at"
	FieldUsedNonces  = "used_nonces"
	FieldSeats       = "seats"
	FieldButton      = "button"
	FieldCount       = "count"
	FieldChainSteps  = "chain_steps"
)

func fieldErr(field, format string, args ...any) error {
	return &check.MalformedError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// decodeHex decodes a hex field; want < 0 accepts any length. The error
// does not repeat the value (it may be a secret).
func decodeHex(field, s string, want int) ([]byte, error) {
	b, err := seed.DecodeHex(s, want)
	if err != nil {
		return nil, fieldErr(field, "%v", err)
	}
	return b, nil
}

// ParseCards parses claimed cards, one name per string. For schemes that
// deal from one deck (no replacement), a repeated card is malformed.
func ParseCards(names []string, withReplacement bool) ([]uint8, error) {
	out := make([]uint8, len(names))
	cs := make([]card.Card, len(names))
	for i, n := range names {
		c, err := card.Parse(n)
		if err != nil {
			return nil, fieldErr(FieldClaimed, "card %d: %v", i+1, err)
		}
		cs[i], out[i] = c, uint8(c)
	}
	if !withReplacement {
		if err := card.CheckDistinct(cs); err != nil {
			return nil, fieldErr(FieldClaimed, "%v", err)
		}
	}
	return out, nil
}

// FairnessClaim turns a vector's inputs into a claim. Malformed values give
// a *check.MalformedError naming the field.
func FairnessClaim(v vectors.FairnessVector) (check.Claim, error) {
	s, err := scheme.Lookup(v.Scheme)
	if err != nil {
		return check.Claim{}, fieldErr("scheme", "%v", err)
	}
	c := check.Claim{Scheme: v.Scheme, ClientSeeds: v.ClientSeeds, Count: v.Count}
	if v.Count < 1 {
		return check.Claim{}, fieldErr(FieldCount, "%d cards, want at least 1", v.Count)
	}
	l, seats, hasLayout, err := FairnessLayout(v)
	if err != nil {
		return check.Claim{}, err
	}
	if hasLayout {
		if v.Count != l.Count {
			return check.Claim{}, fieldErr(FieldCount, "%d cards, but %s with %d hands deals %d", v.Count, v.Game, v.Hands, l.Count)
		}
		c.Layout, c.Seats = &l, seats
	}
	if c.ServerSeed, err = decodeHex("server_seed", v.ServerSeed, scheme.SeedSize); err != nil {
		return check.Claim{}, err
	}
	if c.Nonce, err = scheme.ParseNonce(v.Nonce); err != nil {
		return check.Claim{}, fieldErr(FieldNonce, "%v", err)
	}
	if v.Commitment != "" {
		if c.Commitment, err = decodeHex("commitment", v.Commitment, sha256.Size); err != nil {
			return check.Claim{}, err
		}
	}
	if v.CommittedAt != "" {
		if c.CommittedAt, err = check.ParseTime(v.CommittedAt); err != nil {
			return check.Claim{}, fieldErr(FieldCommittedAt, "%v", err)
		}
	}
	if ch := v.Chain; ch != nil {
		if c.ChainAnchor, err = decodeHex("chain_anchor", ch.Anchor, sha256.Size); err != nil {
			return check.Claim{}, err
		}
		if ch.Steps != nil {
			if *ch.Steps == 0 {
				return check.Claim{}, fieldErr(FieldChainSteps, "0 steps: a link is never its own anchor; want 1..%d, or no steps to search", chain.MaxLength)
			}
			c.ChainSteps = *ch.Steps
		}
		c.MaxSteps = ch.MaxSteps
	}
	if b := v.Beacon; b != nil {
		c.Beacon = &check.Beacon{Chain: b.Chain, Round: b.Round}
		if c.Beacon.Signature, err = decodeHex("beacon", b.Signature, -1); err != nil {
			return check.Claim{}, err
		}
		if b.PreviousSignature != "" {
			if c.Beacon.PreviousSignature, err = decodeHex("beacon", b.PreviousSignature, -1); err != nil {
				return check.Claim{}, err
			}
		}
	}
	if v.UsedNonces != nil {
		c.UsedNonces = make([]uint64, len(v.UsedNonces))
		for i, u := range v.UsedNonces {
			if c.UsedNonces[i], err = scheme.ParseNonce(u); err != nil {
				return check.Claim{}, fieldErr(FieldUsedNonces, "%v", err)
			}
		}
	}
	if v.Cards != nil {
		if c.Cards, err = ParseCards(v.Cards, s.Properties().WithReplacement); err != nil {
			return check.Claim{}, err
		}
	}
	return c, nil
}

// FairnessLayout returns the vector's layout and, for double-holdem, the
// seat numbers in dealing order. ok is false when the vector has no game.
func FairnessLayout(v vectors.FairnessVector) (l layout.Layout, seats []int, ok bool, err error) {
	if v.Game != layout.DoubleHoldem {
		switch {
		case v.Seats != nil:
			return layout.Layout{}, nil, false, fieldErr(FieldSeats, "only double-holdem has seats")
		case v.Button != 0:
			return layout.Layout{}, nil, false, fieldErr(FieldButton, "only double-holdem has a button")
		}
	}
	if v.Game == "" {
		if v.Hands != 0 {
			return layout.Layout{}, nil, false, fieldErr(FieldGame, "hands %d without a game", v.Hands)
		}
		return layout.Layout{}, nil, false, nil
	}
	l, err = layout.For(v.Game, v.Hands)
	if err != nil {
		return layout.Layout{}, nil, false, fieldErr(FieldGame, "%v", err)
	}
	if v.Game == layout.DoubleHoldem {
		if seats, err = layout.SeatOrder(v.Seats, v.Button); err != nil {
			var te *layout.TableError
			if errors.As(err, &te) {
				return layout.Layout{}, nil, false, fieldErr(te.Field, "%s", te.Reason)
			}
			return layout.Layout{}, nil, false, fieldErr(FieldSeats, "%v", err)
		}
		if len(seats) != v.Hands {
			return layout.Layout{}, nil, false, fieldErr(FieldSeats, "%d seats for %d hands", len(seats), v.Hands)
		}
	}
	return l, seats, true, nil
}

// names returns the canonical names of card indices.
func names(idx []uint8) []string {
	out := make([]string, len(idx))
	for i, c := range idx {
		out[i] = card.Card(c).String()
	}
	return out
}

// Derive computes what the vector's inputs give: the deal the vector's
// "expected" object must hold. It is the generator's source of expected
// values and the runner's point of comparison.
func Derive(v vectors.FairnessVector) (*vectors.FairnessDeal, error) {
	c, err := FairnessClaim(v)
	if err != nil {
		return nil, err
	}
	l, seats, hasLayout, err := FairnessLayout(v)
	if err != nil {
		return nil, err
	}
	r, err := check.Run(c)
	if err != nil {
		return nil, err
	}
	if r.Dealt == nil {
		return nil, nil // not derivable (the beacon did not verify)
	}
	d := &vectors.FairnessDeal{Cards: names(r.Dealt), Indices: make([]int, len(r.Dealt)), Positions: layout.Positions(c.Layout, c.Seats, len(r.Dealt))}
	for i, x := range r.Dealt {
		d.Indices[i] = int(x)
	}
	if r.Randomness != nil {
		d.BeaconRandomness = hex.EncodeToString(r.Randomness)
	}
	switch v.Scheme {
	case scheme.FairholdV1Name:
		p, err := scheme.FairholdV1Prefix(nil, c.ClientSeeds, c.Nonce, r.Randomness)
		if err != nil {
			return nil, err
		}
		d.Prefix = hex.EncodeToString(p)
		m := hmac.New(sha256.New, c.ServerSeed)
		m.Write(binary.BigEndian.AppendUint64(p, 0))
		d.Block0 = hex.EncodeToString(m.Sum(nil))
	case scheme.StakeCompatName:
		m := hmac.New(sha256.New, []byte(hex.EncodeToString(c.ServerSeed)))
		fmt.Fprintf(m, "%s:%d:0", c.ClientSeeds[0], c.Nonce)
		d.Block0 = hex.EncodeToString(m.Sum(nil))
	}
	if hasLayout {
		cs, err := layout.Split(l, d.Cards)
		if err != nil {
			return nil, fieldErr("count", "%v", err)
		}
		d.Layout = &vectors.FairnessLayout{Hands: cs.Hands, Seats: seats, Dealer: cs.Dealer, Flop: cs.Flop, Turn: cs.Turn, River: cs.River}
	}
	return d, nil
}

// ErrMismatch is wrapped by RunFairness's error when the implementation
// disagrees with the vector.
var ErrMismatch = errors.New("implementation disagrees with the vector")

func mismatch(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMismatch, fmt.Sprintf(format, args...))
}

// RunFairness runs one vector and returns nil when the implementation
// concludes what the vector expects: for "success", every check passes and
// every derived value equals "expected"; for "failure", exactly the listed
// checks fail, in order, and derived values (if given) still match; for
// "malformed", the input is rejected naming the vector's field.
func RunFairness(v vectors.FairnessVector) error {
	c, err := FairnessClaim(v)
	var res check.Result
	if err == nil {
		res, err = check.Run(c)
	}
	if v.Expect == vectors.FairnessMalformed {
		var me *check.MalformedError
		if !errors.As(err, &me) {
			return mismatch("want malformed %s, got %v", v.Field, err)
		}
		if me.Field != v.Field {
			return mismatch("want malformed %s, got malformed %s (%s)", v.Field, me.Field, me.Reason)
		}
		return nil
	}
	if err != nil {
		return mismatch("want %s, got error %v", v.Expect, err)
	}
	var failed []string
	for _, ch := range res.Checks {
		if !ch.OK {
			failed = append(failed, ch.Name)
		}
	}
	switch v.Expect {
	case vectors.FairnessSuccess:
		if !res.Verified {
			return mismatch("want success, failed %v", failed)
		}
	case vectors.FairnessFailure:
		if !slices.Equal(failed, v.Failures) {
			return mismatch("want failures %v, got %v", v.Failures, failed)
		}
	}
	got, err := Derive(v)
	if err != nil {
		return mismatch("derive: %v", err)
	}
	if (got == nil) != (v.Expected == nil) {
		return mismatch("expected values present: vector %v, implementation %v", v.Expected != nil, got != nil)
	}
	if got != nil {
		if err := compareDeal(*v.Expected, *got); err != nil {
			return err
		}
	}
	return nil
}

func compareDeal(want, got vectors.FairnessDeal) error {
	type field struct {
		name string
		eq   bool
	}
	for _, f := range []field{
		{"prefix", want.Prefix == got.Prefix},
		{"block0", want.Block0 == got.Block0},
		{"beacon_randomness", want.BeaconRandomness == got.BeaconRandomness},
		{"indices", slices.Equal(want.Indices, got.Indices)},
		{"cards", slices.Equal(want.Cards, got.Cards)},
		{"layout", layoutEqual(want.Layout, got.Layout)},
		{"positions", slices.Equal(want.Positions, got.Positions)},
	} {
		if !f.eq {
			return mismatch("expected.%s differs", f.name)
		}
	}
	return nil
}

func layoutEqual(a, b *vectors.FairnessLayout) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.EqualFunc(a.Hands, b.Hands, slices.Equal) && slices.Equal(a.Seats, b.Seats) &&
		slices.Equal(a.Dealer, b.Dealer) && slices.Equal(a.Flop, b.Flop) && a.Turn == b.Turn && a.River == b.River
}
