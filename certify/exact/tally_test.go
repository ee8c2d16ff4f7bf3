package exact

import (
	"context"
	"math/big"
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCountBonus(t *testing.T) {
	p := DefaultParams()
	bc := CountBonus(p)
	assert.EqualValues(t, 2598960, bc.Hands)
	// reference README §1: AA Bonus winning hands.
	flushUp := int64(0)
	for c := hand.Flush; c <= hand.RoyalFlush; c++ {
		flushUp += bc.Wins[c-1]
	}
	assert.EqualValues(t, 9516, flushUp)
	assert.EqualValues(t, 10200, bc.Wins[hand.Straight-1])
	assert.EqualValues(t, 54912, bc.Wins[hand.ThreeOfAKind-1])
	assert.EqualValues(t, 123552, bc.Wins[hand.TwoPair-1])
	assert.EqualValues(t, 84480, bc.Wins[hand.OnePair-1])
	assert.Zero(t, bc.Wins[hand.HighCard-1])
	assert.Equal(t, "0.935977", bc.RTP().FloatString(6))

	// The live-dealer table, for comparison (reference README §2): 93.7417%.
	live := p
	live.BonusPays = [hand.NumCategories]int64{0, 7, 7, 7, 7, 20, 30, 40, 50, 100}
	lc := CountBonus(live)
	assert.Equal(t, "0.937417", lc.RTP().FloatString(6))
}

// TestBonusCollectAllFromStates checks the states' weights and flop values
// against the direct count: every five-card hand arises from C(5,2) = 10
// (hole, flop) splits, so the two RTPs are equal.
func TestBonusCollectAllFromStates(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates 1,286,792 five-card hands")
	}
	p := DefaultParams()
	var states []State
	for _, fc := range FlopClasses() {
		states = append(states, fc.states()...)
	}
	o, err := Tally(states, p, AlwaysCall)
	require.NoError(t, err)
	assert.EqualValues(t, HoleFlopStates, o.States)
	bc := CountBonus(p)
	assert.Equal(t, 0, o.BonusRTPCollectAll().Cmp(bc.RTP()))
	assert.Equal(t, o.BonusReturnAll, 10*bc.Return)
	assert.Equal(t, o.BonusReturnAll, o.BonusReturnForfeit)
}

func TestTallyIdentities(t *testing.T) {
	p := DefaultParams()
	classes := FlopClasses()
	sol, err := Solve(context.Background(), hand.MinPair(card.Four), Options{Flops: classes[:2], Workers: 2})
	require.NoError(t, err)
	for _, st := range []struct {
		name string
		s    Strategy
	}{
		{"optimal", Optimal(p)},
		{"always-call", AlwaysCall},
		{"joint-1", JointOptimal(p, big.NewRat(1, 1))},
		{"never", func(*State) bool { return false }},
	} {
		o, err := Tally(sol.States, p, st.s)
		require.NoError(t, err)
		weight := int64(0)
		for _, s := range sol.States {
			weight += s.Weight
		}
		assert.Equal(t, weight*Completions, o.Deals, st.name)
		assert.Equal(t, o.Deals, o.Fold+o.CallNotQualified+o.CallWin+o.CallLose+o.CallTie, st.name)
		wins := int64(0)
		result := -o.Fold - 3*o.CallLose
		for c, n := range o.AnteWins {
			wins += n
			result += n * p.AntePays[c]
		}
		result += 2 * o.CallWin
		assert.Equal(t, o.CallNotQualified+o.CallWin, wins, st.name)
		assert.Equal(t, big.NewInt(result), o.Result, st.name)
		assert.Equal(t, big.NewInt(o.Deals+2*(o.Deals-o.Fold)), o.Wagered, st.name)
		assert.Equal(t, o.CallStates*Completions, o.Deals-o.Fold, st.name)
		// The sum of squared results, deal by deal from the counts.
		sq := new(big.Int)
		add := func(n, w, x int64) {
			sq.Add(sq, new(big.Int).Mul(big.NewInt(n*w), big.NewInt(x*x)))
		}
		for i := range sol.States {
			s := &sol.States[i]
			if !st.s(s) {
				add(Completions, s.Weight, 1)
				continue
			}
			for c := range s.Win {
				add(int64(s.NotQualified[c]), s.Weight, p.AntePays[c])
				add(int64(s.Win[c]), s.Weight, p.AntePays[c]+2)
			}
			add(int64(s.Lose), s.Weight, 3)
		}
		assert.Equal(t, sq, o.ResultSquares, st.name)
	}
	// The optimal strategy is at least as good as any other, state by state
	// and in total.
	opt, err := Tally(sol.States, p, Optimal(p))
	require.NoError(t, err)
	all, err := Tally(sol.States, p, AlwaysCall)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, opt.Result.Cmp(all.Result), 0)
	for i := range sol.States {
		s := &sol.States[i]
		assert.Equal(t, p.CallSum(s) >= -Completions, Optimal(p)(s))
	}
}

func TestStdDev(t *testing.T) {
	// Two deals: results -1 and +3: mean 1, variance 4.
	o := &Outcome{Ante: 1, Deals: 2, Result: big.NewInt(2), ResultSquares: big.NewInt(10)}
	assert.InDelta(t, 2.0, o.StdDev(), 1e-12)
}

func TestParamsValidate(t *testing.T) {
	p := DefaultParams()
	require.NoError(t, p.Validate())
	for name, mut := range map[string]func(*Params){
		"negative ante pay": func(p *Params) { p.AntePays[0] = -1 },
		"huge bonus pay":    func(p *Params) { p.BonusPays[5] = maxPay + 1 },
		"zero call":         func(p *Params) { p.CallMultiple = 0 },
		"bad bonus minimum": func(p *Params) { p.BonusMin = 0 },
	} {
		q := DefaultParams()
		mut(&q)
		assert.Error(t, q.Validate(), name)
	}
}

func TestPayoffsCap(t *testing.T) {
	p := DefaultParams()
	p.Ante, p.MaxPayout = 50_000, 1_000_000
	require.NoError(t, p.Validate())
	po := p.payoffs()
	assert.EqualValues(t, 50_000, po.ante)
	assert.EqualValues(t, 150_000, po.lose)
	assert.EqualValues(t, 1_000_000, po.nq[hand.RoyalFlush-1])     // 5,000,000 capped
	assert.EqualValues(t, 1_000_000, po.win[hand.StraightFlush-1]) // 1,100,000 capped
	assert.EqualValues(t, 1_000_000, po.nq[hand.StraightFlush-1])  // exactly the cap
	assert.EqualValues(t, 600_000, po.win[hand.FourOfAKind-1])
	assert.EqualValues(t, 50_000, po.nq[hand.HighCard-1])

	p.CapIncludesStakes = true // returns capped: winnings <= cap - 150,000
	po = p.payoffs()
	assert.EqualValues(t, 850_000, po.win[hand.RoyalFlush-1])
	assert.EqualValues(t, 600_000, po.win[hand.FourOfAKind-1])

	p.Ante, p.MaxPayout = 1<<30, 0
	assert.Error(t, p.Validate(), "a royal flush would win more than 2^31 units")
}

func TestU128(t *testing.T) {
	var a u128
	want := new(big.Int)
	xs := []uint64{1 << 63, 1<<64 - 1, 12345, 1 << 40}
	for _, x := range xs {
		for _, y := range xs {
			a.addMul(x, y)
			want.Add(want, new(big.Int).Mul(new(big.Int).SetUint64(x), new(big.Int).SetUint64(y)))
		}
	}
	want.Mod(want, new(big.Int).Lsh(big.NewInt(1), 128))
	assert.Equal(t, want, a.big())
	b := u128{hi: 3, lo: 1<<64 - 1}
	var c u128
	c.addMulU128(b, 1000)
	w := new(big.Int).Mul(b.big(), big.NewInt(1000))
	assert.Equal(t, w, c.big())
}
