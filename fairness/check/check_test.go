package check

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func checkNames(r Result) map[string]bool {
	m := map[string]bool{}
	for _, c := range r.Checks {
		m[c.Name] = c.OK
	}
	return m
}

func TestRunChecks(t *testing.T) {
	var last seed.Seed
	last[0] = 7
	ch := chain.FromLast(last, 3)
	sd := ch.Links[2]
	commit := sha256.Sum256(sd[:])
	base := Claim{Scheme: scheme.FairholdV1Name, ServerSeed: sd[:], ClientSeeds: []string{"c"}, Nonce: 9, Count: 9}
	dealt, err := scheme.FairholdV1{}.Deal(scheme.Input{ServerSeed: sd[:], ClientSeeds: []string{"c"}, Nonce: 9}, 9)
	require.NoError(t, err)
	swapped := append([]uint8{dealt[1], dealt[0]}, dealt[2:]...)

	tests := []struct {
		name string
		edit func(*Claim)
		want map[string]bool
	}{
		{"commitment", func(c *Claim) { c.Commitment = commit[:] }, map[string]bool{Commitment: true}},
		{"bad commitment", func(c *Claim) { c.Commitment = make([]byte, 32) }, map[string]bool{Commitment: false}},
		{"chain exact", func(c *Claim) { c.ChainAnchor, c.ChainSteps = ch.Links[0][:], 2 }, map[string]bool{Chain: true}},
		{"chain search", func(c *Claim) { c.ChainAnchor = ch.Links[0][:] }, map[string]bool{Chain: true}},
		{"chain bound", func(c *Claim) { c.ChainAnchor, c.MaxSteps = ch.Links[0][:], 1 }, map[string]bool{Chain: false}},
		{"cards", func(c *Claim) { c.Cards = dealt }, map[string]bool{Cards: true}},
		{"cards prefix", func(c *Claim) { c.Cards = dealt[:4] }, map[string]bool{Cards: true}},
		{"cards swapped", func(c *Claim) { c.Cards = swapped }, map[string]bool{Cards: false}},
		{"nonce reused", func(c *Claim) { c.UsedNonces = []uint64{1, 9} }, map[string]bool{NonceUnused: false}},
		{"nonce fresh", func(c *Claim) { c.UsedNonces = []uint64{} }, map[string]bool{NonceUnused: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			tt.edit(&c)
			r, err := Run(c)
			require.NoError(t, err)
			assert.Equal(t, tt.want, checkNames(r))
			ok := true
			for _, v := range tt.want {
				ok = ok && v
			}
			assert.Equal(t, ok, r.Verified)
			assert.Equal(t, dealt, r.Dealt)
		})
	}
}

func TestRunBeaconTime(t *testing.T) {
	sig := []byte{0xb4, 0x46} // wrong length on purpose: malformed
	_, err := Run(Claim{Scheme: scheme.FairholdV1Name, ServerSeed: make([]byte, 32), ClientSeeds: []string{"c"}, Count: 9,
		Beacon: &Beacon{Chain: "quicknet", Round: 1000, Signature: sig}, CommittedAt: time.Unix(0, 0)})
	var me *MalformedError
	require.True(t, errors.As(err, &me))
	assert.Equal(t, "beacon", me.Field)
}

func TestRunMalformed(t *testing.T) {
	ok := Claim{Scheme: scheme.FairholdV1Name, ServerSeed: make([]byte, 32), ClientSeeds: []string{"c"}, Count: 9}
	tests := []struct {
		field string
		edit  func(*Claim)
	}{
		{"scheme", func(c *Claim) { c.Scheme = "x" }},
		{"server_seed", func(c *Claim) { c.ServerSeed = c.ServerSeed[:31] }},
		{"commitment", func(c *Claim) { c.Commitment = []byte{1} }},
		{"chain_anchor", func(c *Claim) { c.ChainAnchor = []byte{1} }},
		{"count", func(c *Claim) { c.Count = 53 }},
		{"claimed_cards", func(c *Claim) { c.Cards = []uint8{52} }},
		{"claimed_cards", func(c *Claim) { c.Cards = make([]uint8, 10) }},
		{"count", func(c *Claim) { l, _ := layout.For(layout.CasinoHoldem, 1); c.Layout, c.Count = &l, 8 }},
		{"client_seeds", func(c *Claim) { c.ClientSeeds = nil }},
		{"beacon_chain", func(c *Claim) { c.Beacon = &Beacon{Chain: "x", Round: 1, Signature: make([]byte, 48)} }},
		{"count", func(c *Claim) { c.Count = -1 }},
		{"chain_steps", func(c *Claim) { c.ChainAnchor, c.ChainSteps = make([]byte, 32), 1<<40 }},
		{"chain_max_steps", func(c *Claim) { c.ChainAnchor, c.MaxSteps = make([]byte, 32), -1 }},
		{"chain_max_steps", func(c *Claim) { c.ChainAnchor, c.MaxSteps = make([]byte, 32), 1<<40 }},
		{"beacon_round", func(c *Claim) { c.Beacon = &Beacon{Chain: "quicknet", Round: 0, Signature: make([]byte, 48)} }},
		{"beacon_round", func(c *Claim) { c.Beacon = &Beacon{Chain: "quicknet", Round: 1<<64 - 1, Signature: make([]byte, 48)} }},
		{"beacon_previous_signature", func(c *Claim) { c.Beacon = &Beacon{Chain: "default", Round: 1000, Signature: make([]byte, 96)} }},
		{"beacon", func(c *Claim) {
			c.Scheme = scheme.StakeCompatName
			c.Beacon = &Beacon{Chain: "quicknet", Round: 1000, Signature: make([]byte, 48)}
		}},
	}
	for _, tt := range tests {
		c := ok
		tt.edit(&c)
		_, err := Run(c)
		var me *MalformedError
		require.True(t, errors.As(err, &me), tt.field)
		assert.Equal(t, tt.field, me.Field)
		assert.ErrorIs(t, err, ErrMalformed)
	}
}

func TestRunStakeRepeats(t *testing.T) {
	seed := make([]byte, 32)
	r, err := Run(Claim{Scheme: scheme.StakeCompatName, ServerSeed: seed, ClientSeeds: []string{"c"}, Count: 52})
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{NoRepeatedCards: false}, checkNames(r), "52 draws with replacement repeat")
	assert.False(t, r.Verified)
}

func TestRunPositionsInWords(t *testing.T) {
	sd := make([]byte, 32)
	l, err := layout.For(layout.CasinoHoldem, 1)
	require.NoError(t, err)
	base := Claim{Scheme: scheme.FairholdV1Name, ServerSeed: sd, ClientSeeds: []string{"c"}, Nonce: 1, Count: 9, Layout: &l}
	dealt, err := scheme.FairholdV1{}.Deal(scheme.Input{ServerSeed: sd, ClientSeeds: []string{"c"}, Nonce: 1}, 9)
	require.NoError(t, err)

	// The river replaced by a card not dealt: the detail names the
	// position and both cards, never an index.
	c := base
	c.Cards = slices.Clone(dealt)
	other := uint8(0)
	for slices.Contains(dealt, other) {
		other++
	}
	c.Cards[8] = other
	r, err := Run(c)
	require.NoError(t, err)
	assert.Equal(t, VerdictFailed, r.Verdict())
	want := Mismatch{Position: "river", Claimed: cardName(other), Dealt: cardName(dealt[8])}
	assert.Equal(t, []Mismatch{want}, r.Mismatches)
	assert.Equal(t, "river: "+cardName(other)+" claimed, "+cardName(dealt[8])+" dealt", r.Checks[0].Detail)

	// Two cards exchanged: both positions, in dealing order.
	c.Cards = slices.Clone(dealt)
	c.Cards[1], c.Cards[2] = c.Cards[2], c.Cards[1]
	r, err = Run(c)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("player, second hole card: %s claimed, %s dealt; dealer, first card: %s claimed, %s dealt",
		cardName(dealt[2]), cardName(dealt[1]), cardName(dealt[1]), cardName(dealt[2])), r.Checks[0].Detail)
	assert.NotRegexp(t, `\bposition\b|\bindex\b`, r.Checks[0].Detail)

	// A partial claim: every check passes, the verdict is partial and
	// says which positions were checked.
	c.Cards = dealt[:4]
	r, err = Run(c)
	require.NoError(t, err)
	assert.True(t, r.Verified)
	assert.True(t, r.Partial)
	assert.Equal(t, VerdictPartial, r.Verdict())
	assert.Equal(t, []string{"player, first hole card", "player, second hole card", "dealer, first card", "dealer, second card"}, r.Checked)
	assert.Equal(t, []string{"flop, first card", "flop, second card", "flop, third card", "turn", "river"}, r.Unchecked)
	assert.Contains(t, r.Checks[0].Detail, "4 of the 9 cards")

	// The whole round, but nothing binds the seed: partial (cannot check).
	c.Cards = dealt
	r, err = Run(c)
	require.NoError(t, err)
	assert.True(t, r.Unbound)
	assert.False(t, r.Partial)
	assert.Equal(t, VerdictPartial, r.Verdict())
	assert.Nil(t, r.Unchecked)
	assert.Len(t, r.Checked, 9)
	// The whole round with its commitment: verified.
	commit0 := sha256.Sum256(sd)
	c.Commitment = commit0[:]
	r, err = Run(c)
	require.NoError(t, err)
	assert.False(t, r.Unbound)
	assert.Equal(t, VerdictVerified, r.Verdict())
	c.Commitment = nil

	// No card claim while the round deals 9: partial, every position
	// unchecked, and no cards item (nothing was compared, nothing failed).
	c.Cards = nil
	commit := sha256.Sum256(sd)
	c.Commitment = commit[:]
	r, err = Run(c)
	require.NoError(t, err)
	assert.True(t, r.Verified)
	assert.True(t, r.Partial)
	assert.Equal(t, VerdictPartial, r.Verdict())
	assert.Nil(t, r.Checked)
	assert.Equal(t, []string{"player, first hole card", "player, second hole card", "dealer, first card", "dealer, second card",
		"flop, first card", "flop, second card", "flop, third card", "turn", "river"}, r.Unchecked)
	for _, it := range r.Checks {
		assert.NotEqual(t, Cards, it.Name)
	}
	assert.Equal(t, dealt, r.Dealt)

	// A failing check with no cards: failed, not partial.
	bad := slices.Clone(c.Commitment)
	bad[0] ^= 1
	c.Commitment = bad
	r, err = Run(c)
	require.NoError(t, err)
	assert.Equal(t, VerdictFailed, r.Verdict())
	c.Commitment = commit[:]

	// Nothing dealt (Count 0, no layout): the commitment alone verifies.
	r, err = Run(Claim{Scheme: c.Scheme, ServerSeed: sd, ClientSeeds: c.ClientSeeds, Nonce: c.Nonce, Commitment: commit[:]})
	require.NoError(t, err)
	assert.Equal(t, VerdictVerified, r.Verdict())
	assert.False(t, r.Partial)
	assert.Nil(t, r.Checked)
	assert.Nil(t, r.Unchecked)
	assert.Nil(t, r.Dealt)
}

func TestRunRepeatNamesPositions(t *testing.T) {
	sd := make([]byte, 32)
	r, err := Run(Claim{Scheme: scheme.StakeCompatName, ServerSeed: sd, ClientSeeds: []string{"c"}, Count: 52})
	require.NoError(t, err)
	require.False(t, r.Verified)
	assert.Regexp(t, `^[2-9TJQKA][cdhs] is dealt twice, card [0-9]+ and card [0-9]+ \(`, r.Checks[0].Detail)
}

func TestRunChainDistanceZero(t *testing.T) {
	sd := make([]byte, 32)
	sd[0] = 1
	for _, c := range []Claim{
		{ChainAnchor: sd},                 // search
		{ChainAnchor: sd, ChainSteps: 1},  // exact
		{ChainAnchor: sd, MaxSteps: 1000}, // bounded search
	} {
		c.Scheme, c.ServerSeed, c.ClientSeeds = scheme.FairholdV1Name, sd, []string{"c"}
		r, err := Run(c)
		require.NoError(t, err)
		assert.Equal(t, map[string]bool{Chain: false}, checkNames(r))
		assert.Contains(t, r.Checks[0].Detail, "distance 0")
	}
}

func TestParseTime(t *testing.T) {
	for in, want := range map[string]string{
		"2023-08-23T15:59:00Z":           "2023-08-23T15:59:00Z",
		"2023-08-23T15:59:23.5Z":         "2023-08-23T15:59:23.5Z",
		"2023-08-23T15:59:23.123456789Z": "2023-08-23T15:59:23.123456789Z",
		"2023-08-23T17:59:23.25+02:00":   "2023-08-23T15:59:23.25Z",
		"2023-08-23T15:59:23-00:00":      "2023-08-23T15:59:23Z",
	} {
		got, err := ParseTime(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got.UTC().Format(time.RFC3339Nano), in)
	}
	for _, in := range []string{
		"", "2023-08-23t15:59:00z", "2023-08-23 15:59:00Z", "2023-08-23T15:59:00", "2023-08-23T15:59Z",
		"2023-08-23T15:59:00,5Z", "2023-08-23T15:59:00.Z", "2023-08-23T15:59:00.1234567891Z",
		"2023-08-23T15:59:60Z", "2023-08-23T24:00:00Z", "2023-02-30T00:00:00Z", "2023-08-23T15:59:00+24:00",
		"2023-08-23T15:59:00+0200", "2023-08-23T15:59:00.5", "1692806364",
	} {
		_, err := ParseTime(in)
		assert.Error(t, err, in)
	}
}

func TestNewVerdict(t *testing.T) {
	sd := make([]byte, 32)
	l, err := layout.For(layout.DoubleHoldem, 2)
	require.NoError(t, err)
	c := Claim{Scheme: scheme.FairholdV1Name, ServerSeed: sd, ClientSeeds: []string{"a", "b"}, Nonce: 1<<64 - 1, Count: l.Count, Layout: &l, Seats: []int{7, 3}}
	dealt, err := scheme.FairholdV1{}.Deal(scheme.Input{ServerSeed: sd, ClientSeeds: c.ClientSeeds, Nonce: c.Nonce}, l.Count)
	require.NoError(t, err)
	c.Cards = slices.Clone(dealt[:5])
	c.Cards[4] = dealt[5]
	r, err := Run(c)
	require.NoError(t, err)
	v, err := NewVerdict(c, r)
	require.NoError(t, err)
	assert.Equal(t, VerdictFailed, v.Verdict)
	assert.False(t, v.Verified)
	require.Len(t, v.Mismatches, 1)
	assert.Equal(t, "seat 3, second hole card", v.Mismatches[0].Position)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"verdict":"failed"`)
	assert.Contains(t, string(b), `"nonce":"18446744073709551615"`)
	assert.Contains(t, string(b), `"game":"double-holdem"`)
	require.NotNil(t, v.Cards)
	assert.Equal(t, 7, v.Cards.Seats[0].Seat)
}

func TestNewVerdictNoCards(t *testing.T) {
	sd := make([]byte, 32)
	commit := sha256.Sum256(sd)
	l, err := layout.For(layout.CasinoHoldem, 1)
	require.NoError(t, err)
	c := Claim{Scheme: scheme.FairholdV1Name, ServerSeed: sd, ClientSeeds: []string{"x"}, Nonce: 1, Commitment: commit[:], Count: l.Count, Layout: &l}
	r, err := Run(c)
	require.NoError(t, err)
	v, err := NewVerdict(c, r)
	require.NoError(t, err)
	assert.Equal(t, VerdictPartial, v.Verdict)
	assert.False(t, v.Verified)
	assert.Equal(t, 0, v.Claimed)
	assert.Len(t, v.UncheckedPositions, 9)
	assert.Equal(t, "river", v.UncheckedPositions[8])
	require.NotNil(t, v.Cards)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"verdict":"partial"`)
	assert.Contains(t, string(b), `"unchecked_positions":["player, first hole card",`)
	assert.NotContains(t, string(b), `"checked_positions"`)
	assert.NotContains(t, string(b), `"name":"cards"`)
}

// A seed nothing binds (no commitment, no chain anchor) may have been chosen
// after the client seeds: the round cannot be checked, however well its
// cards match. Its verdict is partial, never verified, and the report says
// why; a commitment or a chain anchor binds it; a failed check still fails.
func TestRunUnbound(t *testing.T) {
	sd := make([]byte, 32)
	sd[0] = 7
	commit := sha256.Sum256(sd)
	anchor := sha256.Sum256(commit[:]) // sd is two steps from this anchor
	l, err := layout.For(layout.CasinoHoldem, 1)
	require.NoError(t, err)
	base := Claim{Scheme: scheme.FairholdV1Name, ServerSeed: sd, ClientSeeds: []string{"p"}, Nonce: 3, Count: l.Count, Layout: &l}
	dealt, err := scheme.FairholdV1{}.Deal(scheme.Input{ServerSeed: sd, ClientSeeds: base.ClientSeeds, Nonce: base.Nonce}, l.Count)
	require.NoError(t, err)
	base.Cards = dealt

	free := base
	r, err := Run(free)
	require.NoError(t, err)
	assert.True(t, r.Verified, "every check run passed")
	assert.True(t, r.Unbound)
	assert.Equal(t, VerdictPartial, r.Verdict())
	v, err := NewVerdict(free, r)
	require.NoError(t, err)
	assert.Equal(t, VerdictPartial, v.Verdict)
	assert.False(t, v.Verified)
	assert.Equal(t, UnboundReason, v.Unbound)
	assert.Nil(t, v.UncheckedPositions, "every card was claimed: only the binding is missing")
	b, err := json.Marshal(v)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"unbound":"nothing binds the server seed: no commitment and no hash chain anchor`)

	// Nothing dealt, a nonce check alone: still nothing binds the seed.
	r, err = Run(Claim{Scheme: base.Scheme, ServerSeed: sd, ClientSeeds: base.ClientSeeds, Nonce: 3, UsedNonces: []uint64{1}})
	require.NoError(t, err)
	assert.True(t, r.Unbound)
	assert.Equal(t, VerdictPartial, r.Verdict())

	bound := base
	bound.Commitment = commit[:]
	r, err = Run(bound)
	require.NoError(t, err)
	assert.False(t, r.Unbound)
	assert.Equal(t, VerdictVerified, r.Verdict())
	v, err = NewVerdict(bound, r)
	require.NoError(t, err)
	assert.Empty(t, v.Unbound)
	b, err = json.Marshal(v)
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"unbound"`)

	chained := base
	chained.ChainAnchor = anchor[:]
	chained.ChainSteps = 2
	r, err = Run(chained)
	require.NoError(t, err)
	assert.False(t, r.Unbound)
	assert.Equal(t, VerdictVerified, r.Verdict(), r.Failed())

	wrong := base
	wrong.Cards = slices.Clone(dealt)
	wrong.Cards[0], wrong.Cards[1] = wrong.Cards[1], wrong.Cards[0]
	r, err = Run(wrong)
	require.NoError(t, err)
	assert.True(t, r.Unbound)
	assert.Equal(t, VerdictFailed, r.Verdict())
}
