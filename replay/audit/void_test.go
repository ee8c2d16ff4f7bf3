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

// TestIfPlayed: a void round is re-settled as if played, from the seeds'
// cards and the logged decisions, to the returns the played round would
// have had.
func TestIfPlayed(t *testing.T) {
	cfg := testConfig(t)
	won := func(res casino.BoxResult, _ *round.Round) bool { return res.Returned() > res.Staked() }
	lost := func(res casino.BoxResult, _ *round.Round) bool { return res.Returned() < res.Staked() }
	for _, tc := range []struct {
		name string
		pred func(casino.BoxResult, *round.Round) bool
		dec  string
		won  bool
	}{{"won", won, "call", true}, {"lost", lost, "call", false}, {"folded", lost, "fold", false}} {
		t.Run(tc.name, func(t *testing.T) {
			played := findNonce(t, round.CasinoHoldem, box{ante: 100, bonus: 100, decision: tc.dec}, tc.pred)
			b := played.Boxes[0]
			want := IfPlayed{Settled: true, Wagered: b.Ante + b.Call + b.Bonus, Returned: b.AnteReturn + b.CallReturn + b.BonusReturn}
			c := NewChecker(cfg)
			var tr Trace
			assert.Empty(t, c.Check(&played, Source{}, &tr, nil))
			assert.False(t, c.IfPlayed().Settled, "a played round has no IfPlayed")

			v := voided(played)
			assert.Empty(t, c.Check(&v, Source{}, &tr, nil))
			assert.Equal(t, want, c.IfPlayed())
			assert.Equal(t, tc.won, c.IfPlayed().Won())

			// The board and dealer need not be logged: the seeds deal them.
			v.Board, v.Dealer = v.Board[:3], nil
			assert.Empty(t, c.Check(&v, Source{}, &tr, nil))
			assert.Equal(t, want, c.IfPlayed())
		})
	}
	t.Run("live table: the round is the unit", func(t *testing.T) {
		r := honestCasino(t, round.LiveCasinoHoldem, 7, []box{{500, 0, "call"}, {1000, 0, "fold"}, {50000, 0, "call"}}, nil)
		var w, ret int64
		for _, b := range r.Boxes {
			w += b.Ante + b.Call + b.Bonus
			ret += b.AnteReturn + b.CallReturn + b.BonusReturn
		}
		c := NewChecker(cfg)
		v := voided(r)
		var tr Trace
		assert.Empty(t, c.Check(&v, Source{}, &tr, nil))
		assert.Equal(t, IfPlayed{Settled: true, Wagered: w, Returned: ret}, c.IfPlayed())
	})
	t.Run("not re-settled", func(t *testing.T) {
		r := voided(findNonce(t, round.CasinoHoldem, box{ante: 100, bonus: 100, decision: "call"}, won))
		r.Boxes[0].Decision = "raise"
		c := NewChecker(cfg)
		var tr Trace
		c.Check(&r, Source{}, &tr, nil)
		assert.False(t, c.IfPlayed().Settled)
	})
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
