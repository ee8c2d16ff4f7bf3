package audit

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// voided voids r with a proper refund: every stake returned.
func voided(r round.Round) round.Round {
	r.Void, r.VoidReason = true, "malfunction"
	r.Boxes = append([]round.Box(nil), r.Boxes...)
	for i := range r.Boxes {
		b := &r.Boxes[i]
		b.AnteReturn, b.CallReturn, b.BonusReturn = b.Ante, b.Call, b.Bonus
		b.BalanceAfter = b.BalanceBefore
	}
	return r
}

// TestIfPlayed: a round, void or played, is settled from its cards at
// each box's best decision, whatever decision the log records: a void
// logged as a fold that a call would have won is a win (issue 24, hole 3).
func TestIfPlayed(t *testing.T) {
	cfg := testConfig(t)
	won := func(res casino.BoxResult, _ *round.Round) bool { return res.Returned() > res.Staked() }
	lost := func(res casino.BoxResult, _ *round.Round) bool { return res.Returned() < res.Staked() }
	for _, tc := range []struct {
		name string
		pred func(casino.BoxResult, *round.Round) bool
		won  bool
	}{{"won", won, true}, {"lost", lost, false}} {
		t.Run(tc.name, func(t *testing.T) {
			played := findNonce(t, round.CasinoHoldem, box{ante: 100, bonus: 100, decision: "call"}, tc.pred)
			b := played.Boxes[0]
			call := IfPlayed{Settled: true, Wagered: b.Ante + b.Call + b.Bonus, Returned: b.AnteReturn + b.CallReturn + b.BonusReturn, Base: b.Ante + b.Bonus}
			c := NewChecker(cfg)
			var tr Trace
			assert.Empty(t, c.Check(&played, Source{}, &tr, nil))
			got := c.IfPlayed()
			require.True(t, got.Settled, "a played round is settled at its best too")
			assert.Equal(t, tc.won, got.Won())
			if tc.won {
				// Calling wins, so calling is best; folding loses the ante
				// (the AA Bonus as the profile says).
				assert.Equal(t, call.Wagered, got.Wagered)
				assert.Equal(t, call.Returned, got.Returned)
				assert.Less(t, got.Worst, int64(0))
			} else {
				// Calling loses more than folding.
				assert.Greater(t, got.Net(), call.Returned-call.Wagered)
				assert.Equal(t, call.Returned-call.Wagered, got.Worst)
			}
			assert.Equal(t, call.Base, got.Base)
			want := got

			// Void, with whatever decision the operator logs, or none: the
			// same outcome.
			for _, dec := range []string{"call", "fold", ""} {
				v := voided(played)
				v.Boxes[0].Decision = dec
				if dec != "call" {
					v.Boxes[0].Call, v.Boxes[0].CallReturn = 0, 0
				}
				assert.Empty(t, c.Check(&v, Source{}, &tr, nil), dec)
				assert.Equal(t, want, c.IfPlayed(), "void logged %q", dec)
				// The board and dealer need not be logged: the seeds deal them.
				v.Board, v.Dealer = v.Board[:3], nil
				assert.Empty(t, c.Check(&v, Source{}, &tr, nil))
				assert.Equal(t, want, c.IfPlayed())
			}
		})
	}
	t.Run("live table: the round is the unit", func(t *testing.T) {
		r := honestCasino(t, round.LiveCasinoHoldem, 7, []box{{500, 0, "call"}, {1000, 0, "fold"}, {50000, 0, "call"}}, nil)
		c := NewChecker(cfg)
		var tr Trace
		assert.Empty(t, c.Check(&r, Source{}, &tr, nil))
		want := c.IfPlayed()
		require.True(t, want.Settled)
		assert.Equal(t, int64(51500), want.Base)
		v := voided(r)
		for i := range v.Boxes {
			v.Boxes[i].Decision, v.Boxes[i].Call, v.Boxes[i].CallReturn = "fold", 0, 0
		}
		assert.Empty(t, c.Check(&v, Source{}, &tr, nil))
		assert.Equal(t, want, c.IfPlayed())
	})
	t.Run("not settled", func(t *testing.T) {
		r := voided(findNonce(t, round.CasinoHoldem, box{ante: 100, bonus: 100, decision: "call"}, won))
		r.Boxes[0].Ante, r.Boxes[0].AnteReturn = 0, 0
		c := NewChecker(cfg)
		var tr Trace
		c.Check(&r, Source{}, &tr, nil)
		assert.False(t, c.IfPlayed().Settled)
	})
}

// TestTier: the size of a win against the round's stakes.
func TestTier(t *testing.T) {
	for _, tc := range []struct {
		p    IfPlayed
		want int
	}{
		{IfPlayed{Settled: true, Wagered: 300, Returned: 300, Base: 100}, 0},
		{IfPlayed{Settled: true, Wagered: 300, Returned: 600, Base: 100}, 1},
		{IfPlayed{Settled: true, Wagered: 300, Returned: 699, Base: 100}, 1},
		{IfPlayed{Settled: true, Wagered: 300, Returned: 700, Base: 100}, 2},
		{IfPlayed{Settled: true, Wagered: 300, Returned: 1300, Base: 100}, 3},
		{IfPlayed{Settled: false, Wagered: 300, Returned: 1300, Base: 100}, 0},
	} {
		assert.Equal(t, tc.want, tc.p.Tier(), "%+v", tc.p)
	}
}

// TestVoidCheckAllocs: re-settling a void round allocates nothing.
func TestVoidCheckAllocs(t *testing.T) {
	cfg := testConfig(t)
	r := voided(honestCasino(t, round.CasinoHoldem, 3, []box{{ante: 100, bonus: 100, decision: "call"}}, nil))
	c := NewChecker(cfg)
	var tr Trace
	out := make([]finding.Finding, 0, 8)
	out = c.Check(&r, Source{}, &tr, out[:0])
	require.Empty(t, out)
	allocs := testing.AllocsPerRun(100, func() { out = c.Check(&r, Source{}, &tr, out[:0]) })
	assert.Zero(t, allocs)
	assert.True(t, c.IfPlayed().Settled)
}

// TestAmountOverflowFindings: sums beyond int64 are AMOUNT_OVERFLOW on the
// round, not damage.
func TestAmountOverflowFindings(t *testing.T) {
	cfg := testConfig(t)
	won := func(res casino.BoxResult, _ *round.Round) bool { return res.Returned() > res.Staked()+50 }
	r := findNonce(t, round.CasinoHoldem, box{ante: 100, bonus: 100, decision: "call"}, won)
	r.Boxes[0].BalanceBefore = math.MaxInt64 - 50
	fs := check(t, cfg, &r)
	assert.Contains(t, codes(fs), finding.AmountOverflow)
	assert.NotContains(t, codes(fs), finding.InputDamaged)

	r = honestCasino(t, round.CasinoHoldem, 3, []box{{ante: 100, bonus: 100, decision: "call"}}, nil)
	r.Boxes[0].AnteReturn, r.Boxes[0].CallReturn = 1, math.MaxInt64
	fs = check(t, cfg, &r)
	assert.Contains(t, codes(fs), finding.AmountOverflow)
	assert.NotContains(t, codes(fs), finding.InputDamaged)
}
