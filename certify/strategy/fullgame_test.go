package strategy

import (
	"context"
	"math/big"
	"testing"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFullGameBuiltins solves the whole game and asserts the exact figures
// of every built-in strategy that docs/math.md gives, and the seeds'
// basic-strategy claims under pair-jack-draw.
func TestFullGameBuiltins(t *testing.T) {
	if testing.Short() {
		t.Skip("solves all 27,813,810,024,000 deals")
	}
	sol, err := exact.Solve(context.Background(), hand.MinPair(card.Four), exact.Options{})
	require.NoError(t, err)
	p := exact.DefaultParams()
	for _, tc := range []struct {
		name                         string
		rtp, rtpAnte, bonus, sboMain string
		calls, differ, bonusFolded   int64
		resultAntes                  int64
	}{
		{"always-call", "1015552978897/1043017875900", "320207728297/347672625300", "101357/108290", "1015552978897/1043017875900", 25989600, 4680540, 0, -2197191760240},
		{"simple", "3989412031493/4139420006700", "1588355151293/1738363126500", "101357/108290", "3989412031493/4139420006700", 17948640, 5389788, 0, -2400127603312},
		{"fairhold-sim", "15520545888911/16242273630000", "6231724764911/6953452506000", "101357/108290", "15520545888911/16242273630000", 17359200, 5973276, 0, -2886910964356},
		{"cardsflip", "8542336639549/8759654976600", "3259407915949/3476726253000", "101357/108290", "8542336639549/8759654976600", 19745760, 4076052, 0, -1738546696408},
		{SeedsBasic, "477063104741/483434788320", "6717700213577/6953452506000", "485209/541450", "8857346536201/8978179213080", 20433072, 2118516, 129456, -943009169692},
	} {
		s, err := Builtin(tc.name)
		require.NoError(t, err)
		r, err := Evaluate(sol.States, p, s)
		require.NoError(t, err)
		assert.EqualValues(t, exact.Deals, r.Outcome.Deals, tc.name)
		assert.Equal(t, tc.rtp, r.RTPTotalWagerExact, tc.name)
		assert.Equal(t, tc.rtpAnte, r.RTPAnteExact, tc.name)
		assert.Equal(t, tc.bonus, r.BonusRTPForfeitExact, tc.name)
		assert.Equal(t, tc.sboMain, r.SideBetOptimal.RTPTotalWagerExact, tc.name)
		assert.Equal(t, "101357/108290", r.SideBetOptimal.BonusRTPForfeitExact, tc.name)
		assert.Equal(t, tc.calls, r.CallStates, tc.name)
		assert.Equal(t, tc.differ, r.DifferFromOptimal, tc.name)
		assert.Equal(t, tc.bonusFolded, r.BonusWinsFolded, tc.name)
		assert.Equal(t, tc.resultAntes, r.PlayerResultAntes, tc.name)
	}

	// The seeds' claims, rounded as published: 98.7% main and 89.6% AA
	// Bonus (basic), 98.7% main and 93.60% AA Bonus (side-bet optimal).
	s, err := Builtin(SeedsBasic)
	require.NoError(t, err)
	r, err := Evaluate(sol.States, p, s)
	require.NoError(t, err)
	pct := func(f string, d int) string {
		x, ok := new(big.Rat).SetString(f)
		require.True(t, ok)
		return x.Mul(x, big.NewRat(100, 1)).FloatString(d)
	}
	assert.Equal(t, "98.7", pct(r.RTPTotalWagerExact, 1))
	assert.Equal(t, "89.6", pct(r.BonusRTPForfeitExact, 1))
	assert.Equal(t, "98.7", pct(r.SideBetOptimal.RTPTotalWagerExact, 1))
	assert.Equal(t, "93.60", pct(r.SideBetOptimal.BonusRTPForfeitExact, 2))
}
