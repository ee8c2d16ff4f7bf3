package exact

import (
	"context"
	"math/big"
	"sync/atomic"
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSolveWorkersAgree(t *testing.T) {
	classes := FlopClasses()
	flops := []FlopClass{classes[0], classes[700], classes[1754], classes[33]}
	q := hand.MinPair(card.Four)
	one, err := Solve(context.Background(), q, Options{Workers: 1, Flops: flops})
	require.NoError(t, err)
	var done atomic.Int64
	three, err := Solve(context.Background(), q, Options{Workers: 3, Flops: flops, Progress: func(n int) { done.Add(int64(n)) }})
	require.NoError(t, err)
	assert.Equal(t, one.States, three.States)
	assert.EqualValues(t, len(flops), done.Load())
	for _, s := range one.States {
		require.EqualValues(t, Completions, s.Total())
	}
}

func TestSolveCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Solve(ctx, hand.MinPair(card.Four), Options{})
	assert.ErrorIs(t, err, context.Canceled)
	_, err = Solve(context.Background(), 0, Options{})
	assert.Error(t, err)
}

// TestFullGame solves the whole game and checks every integer of the
// published exhaustive solution (reference README §2).
func TestFullGame(t *testing.T) {
	if testing.Short() {
		t.Skip("solves all 27,813,810,024,000 deals")
	}
	sol, err := Solve(context.Background(), hand.MinPair(card.Four), Options{})
	require.NoError(t, err)
	require.Len(t, sol.States, 1286792)
	p := DefaultParams()
	o, err := Tally(sol.States, p, Optimal(p))
	require.NoError(t, err)
	assert.EqualValues(t, int64(27_813_810_024_000), o.Deals)
	assert.EqualValues(t, int64(5_009_067_102_600), o.Fold)
	assert.EqualValues(t, int64(5_716_980_497_520), o.CallNotQualified)
	assert.EqualValues(t, int64(7_569_463_751_688), o.CallWin)
	assert.EqualValues(t, int64(8_839_701_755_612), o.CallLose)
	assert.EqualValues(t, int64(678_596_916_580), o.CallTie)
	assert.Equal(t, "-600123513880", o.Result.String())
	straightOrLess := int64(0)
	for c := hand.HighCard; c <= hand.Straight; c++ {
		straightOrLess += o.AnteWins[c-1]
	}
	assert.EqualValues(t, int64(11_948_046_235_720), straightOrLess)
	assert.EqualValues(t, int64(674_014_956_012), o.AnteWins[hand.Flush-1])
	assert.EqualValues(t, int64(614_106_714_492), o.AnteWins[hand.FullHouse-1])
	assert.EqualValues(t, int64(42_329_395_872), o.AnteWins[hand.FourOfAKind-1])
	assert.EqualValues(t, int64(7_090_795_112), o.AnteWins[hand.StraightFlush-1])
	assert.EqualValues(t, int64(856_152_000), o.AnteWins[hand.RoyalFlush-1])
	// Published roundings: house edge 2.1576458%, P(fold) 18.0093%,
	// average wager 2.639814 antes, RTP 99.18265% / 97.84235%.
	assert.Equal(t, "0.021576458", o.HouseEdge().FloatString(9))
	assert.Equal(t, "2.639814", o.AverageWager().FloatString(6))
	assert.Equal(t, "0.9918265", o.RTPTotalWager().FloatString(7))
	assert.Equal(t, "0.9784235", o.RTPAnte().FloatString(7))
	pFold := o.CallProbability()
	pFold.Sub(big1(), pFold)
	assert.Equal(t, "0.180093", pFold.FloatString(6))

	// AA Bonus: the states give the direct count when every win is
	// collected; forfeiting on a fold can only lose.
	bc := CountBonus(p)
	assert.Zero(t, o.BonusRTPCollectAll().Cmp(bc.RTP()))
	assert.Negative(t, o.BonusRTPForfeit().Cmp(bc.RTP()))
}

func big1() *big.Rat { return big.NewRat(1, 1) }
