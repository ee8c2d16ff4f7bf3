package strategy

import (
	"context"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func cards(t testing.TB, s string) ([2]card.Card, [3]card.Card) {
	t.Helper()
	cs, err := card.ParseN(s, 5)
	require.NoError(t, err, s)
	return [2]card.Card{cs[0], cs[1]}, [3]card.Card{cs[2], cs[3], cs[4]}
}

// TestVocabulary checks every phrase on hand-picked situations: "hole |
// flop" and whether the phrase holds.
func TestVocabulary(t *testing.T) {
	for _, tc := range []struct {
		phrase string
		yes    []string
		no     []string
	}{
		{"high card", []string{"As Kd 2c 7h 9s"}, []string{"As Kd Ac 7h 9s"}},
		{"pair", []string{"2s 3d 9c 9h Ks", "As Kd Ac 7h 9s"}, []string{"As Ad Ac 7h 9s", "9s Kd 9c 7h 7s"}},
		{"pair or better", []string{"2s 3d 9c 9h Ks", "As Ad Ac 7h 9s", "5h 6h 7h 8h 9h"}, []string{"As Kd 2c 7h 9s"}},
		{"two pair or better", []string{"9s Kd 9c 7h 7s", "2c 3d 4h 5s 6c"}, []string{"2s 3d 9c 9h Ks"}},
		{"straight", []string{"Ac 2d 3h 4s 5c", "Tc Jd Qh Ks Ac"}, []string{"Kc Ad 2h 3s 4c"}},
		{"flush", []string{"2h 9h Jh 4h Kh"}, []string{"2h 3h 4h 5h 6h"}},
		{"straight flush", []string{"2h 3h 4h 5h 6h"}, []string{"Th Jh Qh Kh Ah"}},
		{"royal flush", []string{"Th Jh Qh Kh Ah"}, []string{"9h Th Jh Qh Kh"}},
		{"full house or better", []string{"9s 9d 9c 7h 7s", "9s 9d 9c 9h 7s"}, []string{"9s 9d 9c 8h 7s"}},
		{"pair of 4s or better", []string{"4s 2d 4c 7h 9s", "2s 2d 3c 3h 9s"}, []string{"3s 2d 3c 7h 9s"}},
		{"pair of As or better", []string{"As 2d Ac 7h 9s", "2s 3d 9c 9h 2h"}, []string{"Ks Qd Kc 7h 9s"}},
		{"pocket pair", []string{"7s 7d 2c 3h 9s"}, []string{"7s 2d 7c 3h 9s"}},
		{"pocket pair of 8s or better", []string{"8s 8d 2c 3h 9s", "As Ad 2c 3h 9s"}, []string{"7s 7d 2c 3h 9s"}},
		{"paired hole card", []string{"7s 2d 7c 3h 9s", "7s 7d 2c 3h 9s", "7s 2d 7c 7h 9s"}, []string{"Ks Qd 9c 9h 2s"}},
		{"board pair", []string{"Ks Qd 9c 9h 2s", "2s 3d 9c 9h 9s"}, []string{"9s Qd 9c 8h 2s"}},
		{"board trips", []string{"2s 3d 9c 9h 9s"}, []string{"Ks Qd 9c 9h 2s"}},
		{"hole card K", []string{"Ks 2d 3c 4h 5s"}, []string{"As Qd 3c 4h Ks"}},
		{"hole card K or better", []string{"Ks 2d 3c 4h 5s", "2s Ad 3c 4h 5s"}, []string{"Qs Jd Kc Ah 5s"}},
		{"both hole cards T or better", []string{"Ts Jd 3c 4h 5s"}, []string{"Ts 9d 3c 4h 5s"}},
		{"hole AK", []string{"As Kd 3c 4h 5s", "Ks Ad 3c 4h 5s", "As Ks 3c 4h 5d"}, []string{"As Qd 3c 4h Ks"}},
		{"hole AKs", []string{"As Ks 3c 4h 5d"}, []string{"As Kd 3c 4h 5s"}},
		{"hole AKo", []string{"As Kd 3c 4h 5s"}, []string{"As Ks 3c 4h 5d"}},
		{"hole 77", []string{"7s 7d 3c 4h 5s"}, []string{"7s 8d 3c 4h 5s"}},
		{"suited hole cards", []string{"2s 9s 3c 4h 5d"}, []string{"2s 9d 3c 4h 5s"}},
		{"overcard", []string{"Ts 2d 9c 4h 5s"}, []string{"9s 2d 9c 4h 5s", "Ts 2d Tc 4h 5s"}},
		{"two overcards", []string{"Ts Jd 9c 4h 5s"}, []string{"Ts 2d 9c 4h 5s"}},
		{"kicker T or better", []string{"Ts 2d 2c 4h 5s", "Ks 9d 9c 4h 5s"}, []string{"9s Kd Kc 4h 5s", "Ks Kd 2c 4h 5s", "Ks 9d Kc 9h 5s"}},
		{"four to a flush", []string{"2h 9h 3h 4h Kc", "2h 9c 3h 4h Kh"}, []string{"2c 9c 3h 4h Kh", "2h 9h 3h 4h Kh"}},
		{"four to a flush with two hole cards", []string{"2h 9h 3h 4h Kc"}, []string{"2h 9c 3h 4h Kh"}},
		{"four to a flush with one hole card", []string{"2h 9c 3h 4h Kh"}, []string{"2h 9h 3h 4h Kc"}},
		// Outside draws, a double gutshot, the ace-low wheel draw and the
		// ace-high draw (one rank each), a draw all on the board.
		{"open-ended straight draw", []string{"5s 6d 7c 8h Ks", "5s 7d 8c 9h Js", "2s 3d 4c 5h Ks"}, []string{"As 2d 3c 4h 9s", "Js Qd Kc Ah 2s", "2s 3d 7c 8h 9s", "5s 6d 7c 8h 9s"}},
		{"gutshot", []string{"5s 6d 7c 9h Ks", "As 2d 3c 4h 9s", "Js Qd Kc Ah 2s"}, []string{"5s 6d 7c 8h Ks", "2s 3d 7c 8h Tc"}},
		{"straight draw", []string{"5s 6d 7c 9h Ks", "5s 6d 7c 8h Ks"}, []string{"2s Kd 7c 8h 9s", "2s Kd 7c 8h Tc"}},
		{"cards 2s 3d on 6c Ad Ah", []string{"2s 3d 6c Ad Ah", "2h 3c 6d As Ac", "3d 2s Ah 6c Ad"}, []string{"2s 3s 6c Ad Ah", "2s 3d 6c Ad Kh"}},
	} {
		s, err := Parse([]byte("call if " + tc.phrase + "; otherwise fold"))
		require.NoError(t, err, tc.phrase)
		for _, c := range tc.yes {
			h, f := cards(t, c)
			assert.True(t, s.Call(h, f), "%s holds for %s", tc.phrase, c)
		}
		for _, c := range tc.no {
			h, f := cards(t, c)
			assert.False(t, s.Call(h, f), "%s does not hold for %s", tc.phrase, c)
		}
		neg, err := Parse([]byte("call if not " + tc.phrase + "; otherwise fold"))
		require.NoError(t, err)
		for _, c := range append(tc.yes, tc.no...) {
			h, f := cards(t, c)
			assert.NotEqual(t, s.Call(h, f), neg.Call(h, f), "not %s, %s", tc.phrase, c)
		}
	}
}

func TestRulesInOrder(t *testing.T) {
	s, err := Parse([]byte("fold if board pair and not paired hole card\ncall if pair or better\nfold if hole card 5 or hole card 6\notherwise call"))
	require.NoError(t, err)
	for _, tc := range []struct {
		cards string
		call  bool
	}{
		{"2s 3d 9c 9h Ks", false}, // rule 1
		{"9s 3d 9c 9h Ks", true},  // rule 2
		{"5s 3d 8c 9h Ks", false}, // rule 3
		{"7s 3d 8c 9h Ks", true},  // otherwise
	} {
		h, f := cards(t, tc.cards)
		assert.Equal(t, tc.call, s.Call(h, f), tc.cards)
	}
}

// randomRelabel returns a random member of the (hole, flop) state's class.
func randomRelabel(rng *rand.Rand, h [2]card.Card, f [3]card.Card) ([2]card.Card, [3]card.Card) {
	perm := rng.Perm(4)
	m := func(c card.Card) card.Card { return card.New(c.Rank(), card.Suit(perm[c.Suit()])) }
	h = [2]card.Card{m(h[1]), m(h[0])}
	f = [3]card.Card{m(f[2]), m(f[0]), m(f[1])}
	return h, f
}

// allPhrases returns one strategy per vocabulary phrase, with sample
// parameters.
func allPhrases(t testing.TB) []*Strategy {
	var out []*Strategy
	for _, p := range vocabulary {
		text := p.pattern
		for _, sub := range []struct{ from, to string }{
			{"{CAT}", "two pair"}, {"{Rs}", "9s"}, {"{R}", "J"}, {"{XY}", "AKs"},
			{"{C} {C} on {C} {C} {C}", "As Kd on Ah 7c 7d"},
		} {
			text = strings.ReplaceAll(text, sub.from, sub.to)
		}
		s, err := Parse([]byte("call if " + text + "; otherwise fold"))
		require.NoError(t, err, text)
		out = append(out, s)
	}
	return out
}

// TestSuitInvariance: every phrase decides every member of a state's class
// alike, and the decision of a state (through Func, on its representative)
// is the decision of any of its (hole, flop) states.
func TestSuitInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	phrases := allPhrases(t)
	for _, name := range Names() {
		s, err := Builtin(name)
		require.NoError(t, err)
		phrases = append(phrases, s)
	}
	classes := exact.FlopClasses()
	n := 40
	if testing.Short() {
		n = 8
	}
	for k := 0; k < n; k++ {
		fc := classes[rng.IntN(len(classes))]
		states := fc.States()
		for i := range states {
			st := &states[i]
			h, f := randomRelabel(rng, st.Hole, st.Flop)
			for _, s := range phrases {
				if s.Func()(st) != s.Call(h, f) {
					t.Fatalf("%q: state %v %v decides otherwise than its member %v %v", s.Rules()[0], st.Hole, st.Flop, h, f)
				}
			}
		}
	}
}

// TestHandChecked evaluates a strategy on two made-up states whose figures
// are worked out by hand.
func TestHandChecked(t *testing.T) {
	p := exact.DefaultParams()
	// A: As Ad on 2c 7h 9s, a pair of aces: the AA Bonus pays 7 to 1.
	// Calling: the dealer does not qualify 70,190 times (ante pays 1), the
	// player wins 500,000 times (ante 1 + call 2) and loses 500,000 times
	// (3): 70,190 + 1,500,000 - 1,500,000 = 70,190 antes.
	ha, fa := cards(t, "As Ad 2c 7h 9s")
	a := exact.State{Hole: ha, Flop: fa, Weight: 1, FlopValue: hand.Eval5([5]card.Card{ha[0], ha[1], fa[0], fa[1], fa[2]})}
	a.NotQualified[hand.OnePair-1] = 70_190
	a.Win[hand.OnePair-1] = 500_000
	a.Lose = 500_000
	// B: 2c 3d on 2h 9s Jc, a pair of 2s: the bonus loses. Weight 2.
	hb, fb := cards(t, "2c 3d 2h 9s Jc")
	b := exact.State{Hole: hb, Flop: fb, Weight: 2, FlopValue: hand.Eval5([5]card.Card{hb[0], hb[1], fb[0], fb[1], fb[2]})}
	b.Win[hand.OnePair-1] = 1_070_190 / 2
	b.Lose = 1_070_190 - b.Win[hand.OnePair-1]
	require.EqualValues(t, exact.Completions, a.Total())
	require.EqualValues(t, exact.Completions, b.Total())

	s, err := Parse([]byte("call if hole card K or better; otherwise fold"))
	require.NoError(t, err)
	r, err := Evaluate([]exact.State{a, b}, p, s)
	require.NoError(t, err)
	const c = 1_070_190
	// A calls (+70,190), B folds twice (-2 x 1,070,190).
	result := int64(70_190 - 2*c)
	wagered := int64(3*c + 2*c)
	assert.EqualValues(t, 3, r.States)
	assert.EqualValues(t, 1, r.CallStates)
	assert.EqualValues(t, result, r.PlayerResultAntes)
	assert.Equal(t, big.NewRat(-result, 3*c).RatString(), r.HouseEdgeExact)
	assert.Equal(t, big.NewRat(wagered+result, wagered).RatString(), r.RTPTotalWagerExact)
	assert.Equal(t, big.NewRat(3*c+result, 3*c).RatString(), r.RTPAnteExact)
	// The bonus returns 8 on A (called) and 0 on B, over 3 states.
	assert.Equal(t, "8/3", r.BonusRTPForfeitExact)
	assert.Zero(t, r.BonusWinsFolded)
	// Side-bet optimal: the same decisions (A wins the bonus and calls).
	assert.Equal(t, r.RTPTotalWagerExact, r.SideBetOptimal.RTPTotalWagerExact)
	// The optimal strategy calls A (EV +0.066) and calls B too: B's
	// EV(call) is (535,095 x 3 - 535,095 x 3) / c = 0 > -1. Folding B twice
	// costs 2 x (0 + c) antes.
	assert.EqualValues(t, 2, r.DifferFromOptimal)
	assert.Equal(t, big.NewRat(2*c, 3*c).RatString(), r.ExtraHouseEdgeExact)

	// A strategy that folds the bonus winner forfeits it; calling it for
	// the bonus is the side-bet optimal strategy.
	fold, err := Parse([]byte("otherwise fold"))
	require.NoError(t, err)
	r, err = Evaluate([]exact.State{a, b}, p, fold)
	require.NoError(t, err)
	assert.Equal(t, "0", r.BonusRTPForfeitExact)
	assert.EqualValues(t, 1, r.BonusWinsFolded)
	assert.Equal(t, "8/3", r.SideBetOptimal.BonusRTPForfeitExact)
	assert.Equal(t, big.NewRat(3*c+70_190, 5*c).RatString(), r.SideBetOptimal.RTPTotalWagerExact)
}

// TestOptimalAsRules writes the optimal strategy of a partial solve as
// rules ("fold if cards ..." for every state it folds, "otherwise call")
// and checks that its figures are the optimal strategy's, exactly.
func TestOptimalAsRules(t *testing.T) {
	classes := exact.FlopClasses()
	flops := []exact.FlopClass{classes[0], classes[len(classes)/2]}
	sol, err := exact.Solve(context.Background(), hand.MinPair(card.Four), exact.Options{Flops: flops, Workers: 2})
	require.NoError(t, err)
	p := exact.DefaultParams()
	opt := exact.Optimal(p)
	var b strings.Builder
	folds := 0
	for i := range sol.States {
		s := &sol.States[i]
		if !opt(s) {
			b.WriteString("fold if cards " + card.Format(s.Hole[:]) + " on " + card.Format(s.Flop[:]) + "\n")
			folds++
		}
	}
	b.WriteString("otherwise call\n")
	require.Positive(t, folds)
	s, err := Parse([]byte(b.String()))
	require.NoError(t, err)
	assert.Equal(t, b.String(), string(s.Canonical()), "state representatives are canonical")

	r, err := Evaluate(sol.States, p, s)
	require.NoError(t, err)
	want, err := exact.Tally(sol.States, p, opt)
	require.NoError(t, err)
	assert.Equal(t, want, r.Outcome)
	assert.Zero(t, r.DifferFromOptimal)
	assert.Equal(t, "0", r.ExtraHouseEdgeExact)
}

// TestBruteForce settles every completion of sampled states one by one,
// with hand.Eval7 and a member of the state's class other than its
// representative, and checks the solver's EV(call) and the strategy's
// decision: the figures Evaluate totals.
func TestBruteForce(t *testing.T) {
	classes := exact.FlopClasses()
	rng := rand.New(rand.NewPCG(16, 2))
	fc := classes[rng.IntN(len(classes))]
	sol, err := exact.Solve(context.Background(), hand.MinPair(card.Four), exact.Options{Flops: []exact.FlopClass{fc}, Workers: 2})
	require.NoError(t, err)
	p := exact.DefaultParams()
	s, err := Builtin(SeedsBasic)
	require.NoError(t, err)
	n := 12
	if testing.Short() {
		n = 2
	}
	for k := 0; k < n; k++ {
		st := &sol.States[rng.IntN(len(sol.States))]
		h, f := randomRelabel(rng, st.Hole, st.Flop)
		assert.Equal(t, s.Func()(st), s.Call(h, f))
		assert.Equal(t, p.CallSum(st), bruteCallSum(h, f, p), "%v %v", h, f)
	}
}

// bruteCallSum is the player's total result of calling, in antes, over
// every turn, river and dealer hand.
func bruteCallSum(h [2]card.Card, f [3]card.Card, p exact.Params) int64 {
	used := card.SetOf(h[0], h[1], f[0], f[1], f[2])
	q := hand.MinPair(card.Four)
	var sum int64
	for t := card.Card(0); t < card.DeckSize; t++ {
		for r := t + 1; r < card.DeckSize; r++ {
			if used.Has(t) || used.Has(r) {
				continue
			}
			pv := hand.Eval7([7]card.Card{h[0], h[1], f[0], f[1], f[2], t, r})
			ante := p.AntePays[pv.Category()-1]
			for a := card.Card(0); a < card.DeckSize; a++ {
				for b := a + 1; b < card.DeckSize; b++ {
					if used.Has(a) || used.Has(b) || a == t || a == r || b == t || b == r {
						continue
					}
					dv := hand.Eval7([7]card.Card{a, b, f[0], f[1], f[2], t, r})
					switch {
					case dv < q:
						sum += ante
					case pv > dv:
						sum += ante + p.CallMultiple
					case pv < dv:
						sum -= 1 + p.CallMultiple
					}
				}
			}
		}
	}
	return sum
}

func BenchmarkDecideAllStates(b *testing.B) {
	states := exact.AllStates()
	s, err := Builtin(SeedsBasic)
	require.NoError(b, err)
	f := s.Func()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		for k := range states {
			if f(&states[k]) {
				n++
			}
		}
		if n == 0 {
			b.Fatal("never calls")
		}
	}
}

// BenchmarkEvaluateAllStates evaluates a strategy over all 1,286,792
// states: decisions, three tallies and the comparison with the optimal
// strategy (the counts are zero here; the work is the same).
func BenchmarkEvaluateAllStates(b *testing.B) {
	states := exact.AllStates()
	s, err := Builtin(SeedsBasic)
	require.NoError(b, err)
	p := exact.DefaultParams()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Evaluate(states, p, s); err != nil {
			b.Fatal(err)
		}
	}
}
