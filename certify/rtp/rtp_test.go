package rtp

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
)

// testFlops are the flop classes the tests solve: a partial solution in a
// fraction of a second.
func testFlops() []exact.FlopClass {
	all := exact.FlopClasses()
	return []exact.FlopClass{all[0], all[100], all[400], all[900], all[1300], all[1754]}
}

// solOnce holds the test solutions by profile name.
var solOnce sync.Map

func theoryFor(t testing.TB, name string) *Theory {
	t.Helper()
	p, err := profile.Builtin(name)
	require.NoError(t, err)
	g, err := NewGame(p)
	require.NoError(t, err)
	v, ok := solOnce.Load(name)
	if !ok {
		sol, err := exact.Solve(context.Background(), g.Qualifier, exact.Options{Flops: testFlops()})
		require.NoError(t, err)
		v, _ = solOnce.LoadOrStore(name, sol)
	}
	th, err := NewTheory(g, v.(*exact.Solution))
	require.NoError(t, err)
	return th
}

func TestNewGameRejects(t *testing.T) {
	p, err := profile.Builtin("double-holdem")
	require.NoError(t, err)
	_, err = NewGame(p)
	assert.ErrorIs(t, err, ErrUnsupported)
}

// The moments of calling agree with the outcome table's sums.
func TestCallMomentsAgreeWithTally(t *testing.T) {
	th := theoryFor(t, "casino-holdem")
	p := th.g.Params
	o, err := exact.Tally(th.states, p, exact.AlwaysCall)
	require.NoError(t, err)
	var sum, sq float64
	for i := range th.states {
		s := &th.states[i]
		m, v := p.CallMoments(s)
		w := float64(s.Weight) * exact.Completions
		sum += w * m
		sq += w * (v + m*m)
	}
	res, _ := new(big.Float).SetInt(o.Result).Float64()
	squares, _ := new(big.Float).SetInt(o.ResultSquares).Float64()
	assert.InEpsilon(t, res, sum, 1e-9)
	assert.InEpsilon(t, squares, sq, 1e-9)
}

// simulate plays n rounds of the profile over the test flops with players
// who call at random (70%), and returns the logged rounds. edit, if not
// nil, changes each round before it is settled.
func simulate(t testing.TB, th *Theory, n int, seed uint64, edit func(rng *rand.Rand, r *round.Round, deck []card.Card)) []round.Round {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	flops := testFlops()
	p := th.g.Profile
	boxes := p.Casino.Boxes
	out := make([]round.Round, 0, n)
	for range n {
		f := flops[rng.IntN(len(flops))].Flop
		var used card.Set
		for _, c := range f {
			used = used.Add(c)
		}
		deck := make([]card.Card, 0, 49)
		for c := card.Card(0); c < card.DeckSize; c++ {
			if !used.Has(c) {
				deck = append(deck, c)
			}
		}
		rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		nb := 1 + rng.IntN(boxes)
		r := round.Round{RoundID: "r", Game: p.Game, Currency: "EUR", Profile: p.Name,
			Board:  []string{f[0].String(), f[1].String(), f[2].String(), deck[0].String(), deck[1].String()},
			Dealer: []string{deck[2].String(), deck[3].String()}}
		for b := range nb {
			h := [2]card.Card{deck[4+2*b], deck[5+2*b]}
			ante := int64(500 * (1 + rng.IntN(4)))
			if p.Casino.Bonus == nil {
				r.Boxes = append(r.Boxes, round.Box{Box: b + 1, Cards: []string{h[0].String(), h[1].String()}, Ante: ante})
			} else {
				r.Boxes = append(r.Boxes, round.Box{Box: b + 1, Cards: []string{h[0].String(), h[1].String()}, Ante: ante, Bonus: ante})
			}
			if rng.Float64() < 0.7 {
				r.Boxes[b].Decision = "call"
			} else {
				r.Boxes[b].Decision = "fold"
			}
		}
		if edit != nil {
			edit(rng, &r, deck)
		}
		settle(t, p, &r)
		out = append(out, r)
	}
	return out
}

// settle fills the returns of r's boxes by the rules.
func settle(t testing.TB, p *profile.Profile, r *round.Round) {
	t.Helper()
	cs := func(ss []string) []card.Card {
		out, err := card.ParseStrings(ss)
		require.NoError(t, err)
		return out
	}
	board, dealer := cs(r.Board), cs(r.Dealer)
	for i := range r.Boxes {
		b := &r.Boxes[i]
		h := cs(b.Cards)
		d := casino.Fold
		if b.Decision == "call" {
			d = casino.Call
		}
		res, err := casino.SettleBox(p, casino.Bets{Ante: b.Ante, Bonus: b.Bonus}, d, [2]card.Card{h[0], h[1]},
			[2]card.Card{dealer[0], dealer[1]}, [5]card.Card(board))
		require.NoError(t, err)
		b.Call, b.AnteReturn, b.CallReturn, b.BonusReturn = res.Call, res.AnteReturn, res.CallReturn, res.BonusReturn
	}
}

func observe(t testing.TB, th *Theory, rounds []round.Round) *Report {
	o := NewObserver(th)
	for i := range rounds {
		require.NoError(t, o.Add(&rounds[i]))
	}
	return o.Report(0.01)
}

func TestObserverHonest(t *testing.T) {
	for _, name := range []string{"casino-holdem", "live-casino-holdem"} {
		t.Run(name, func(t *testing.T) {
			th := theoryFor(t, name)
			rep := observe(t, th, simulate(t, th, 20000, 1, nil))
			require.Len(t, rep.Cells, 1)
			c := rep.Cells[0]
			assert.True(t, rep.ObservedPass, "%+v", c.Bets)
			assert.True(t, rep.DecisionsPass, "%+v", c.Decisions)
			assert.EqualValues(t, 20000, c.Rounds)
			assert.Empty(t, rep.Skipped)
			assert.LessOrEqual(t, len(c.Points), maxPoints)
			assert.EqualValues(t, 20000, c.Points[len(c.Points)-1].Rounds)
			if name == "casino-holdem" {
				require.Len(t, c.Bets, 3)
				assert.Equal(t, c.Bets[1].Returned, int64(math.Round(c.Bets[1].Expected*float64(c.Bets[1].Wagered))), "the AA Bonus is known from the cards")
				assert.InDelta(t, c.Decisions.SD, c.Decisions.SDIndependent, 1e-6, "one box a round: the bound is exact")
			} else {
				require.Len(t, c.Bets, 2)
				assert.Greater(t, c.Decisions.SD, c.Decisions.SDIndependent)
			}
		})
	}
}

// A dealer dealt the better of two hands (a biased shuffle of the cards
// after the flop) is found by the decision test; a skimmed paytable (an
// ante paid 1:2 where the paytable says 1:1) by both tests.
func TestObserverFindsCheats(t *testing.T) {
	th := theoryFor(t, "casino-holdem")
	better := func(rng *rand.Rand, r *round.Round, deck []card.Card) {
		if rng.IntN(4) != 0 {
			return
		}
		// Swap the dealer's cards with the next two unused ones when those
		// are higher: the dealer's hand improves on average.
		nb := len(r.Boxes)
		a, b := deck[4+2*nb], deck[5+2*nb]
		if a.Rank()+b.Rank() > deck[2].Rank()+deck[3].Rank() {
			r.Dealer = []string{a.String(), b.String()}
		}
	}
	rep := observe(t, th, simulate(t, th, 20000, 2, better))
	assert.False(t, rep.DecisionsPass, "%+v", rep.Cells[0].Decisions)
	assert.Negative(t, rep.Cells[0].Decisions.Z)

	skim := simulate(t, th, 20000, 3, nil)
	for i := range skim {
		b := &skim[i].Boxes[0]
		if b.AnteReturn == 2*b.Ante { // paid 1:1
			b.AnteReturn = b.Ante + b.Ante/2
		}
	}
	rep = observe(t, th, skim)
	assert.False(t, rep.DecisionsPass, "%+v", rep.Cells[0].Decisions)
	assert.False(t, rep.ObservedPass, "%+v", rep.Cells[0].Bets)
}

func TestObserverSkips(t *testing.T) {
	th := theoryFor(t, "casino-holdem")
	rounds := simulate(t, th, 4, 4, nil)
	rounds[0].Void = true
	rounds[1].Game = "double-holdem"
	rounds[2].Boxes[0].Cards = []string{"Xx", "As"}
	o := NewObserver(th)
	for i := range rounds {
		err := o.Add(&rounds[i])
		if i == 2 {
			assert.Error(t, err)
		} else {
			assert.NoError(t, err)
		}
	}
	// A state outside the partial solution.
	r := rounds[3]
	r.Board = []string{"2c", "3d", "9h", "Kd", "Ks"}
	r.Boxes = []round.Box{{Box: 1, Cards: []string{"Ac", "Ad"}, Ante: 100, Decision: "call"}}
	assert.ErrorIs(t, o.Add(&r), ErrNoState)
	rep := o.Report(0.01)
	assert.Equal(t, map[string]int64{"void round": 1, "game double-holdem": 1,
		"cards or stakes that cannot be evaluated": 1, "state not in the solution": 1}, rep.Skipped)
	require.Len(t, rep.Cells, 1)
	assert.EqualValues(t, 1, rep.Cells[0].Rounds)
}
