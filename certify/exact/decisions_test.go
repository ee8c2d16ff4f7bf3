package exact

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

func TestAllStatesCoverTheGame(t *testing.T) {
	states := AllStates()
	require.Len(t, states, 1_286_792)
	var w int64
	for _, s := range states {
		w += s.Weight
	}
	assert.Equal(t, int64(numHoleFlops), w)
	// Every (hole, flop) state is in exactly one class: the expansion
	// sets each bit once and covers the game.
	d, err := NewDecisions(states, func(s *State) bool { return s.Hole[0].Rank() == s.Hole[1].Rank() })
	require.NoError(t, err)
	assert.True(t, d.Complete())
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100_000 {
		perm := rng.Perm(52)
		hole := [2]card.Card{card.Card(perm[0]), card.Card(perm[1])}
		flop := [3]card.Card{card.Card(perm[2]), card.Card(perm[3]), card.Card(perm[4])}
		call, ok := d.Call(hole, flop)
		require.True(t, ok)
		// A suit relabelling keeps the pair-ness of the hole cards.
		require.Equal(t, hole[0].Rank() == hole[1].Rank(), call, "%v %v", hole, flop)
	}
	// Pairs: 13 x 6 hole pairs x C(50,3) flops.
	assert.Equal(t, int64(78*19600), d.CallShare())
}

// TestDecisionsFollowTheSolution checks, on a partial solution, that every
// (hole, flop) state gets the decision of its class, in any card order and
// suit relabelling, and that states outside the solution are unknown.
func TestDecisionsFollowTheSolution(t *testing.T) {
	classes := FlopClasses()
	sol, err := Solve(context.Background(), hand.MinPair(card.Four), Options{Flops: []FlopClass{classes[0], classes[700]}, Workers: 2})
	require.NoError(t, err)
	p := DefaultParams()
	opt := Optimal(p)
	d, err := NewDecisions(sol.States, opt)
	require.NoError(t, err)
	assert.False(t, d.Complete())
	var want int64
	for _, s := range sol.States {
		want += s.Weight
	}
	assert.Equal(t, want, d.States())
	calls, folds := 0, 0
	for _, s := range sol.States {
		for _, sp := range allSuitPerms() {
			h := [2]card.Card{sp.apply(s.Hole[1]), sp.apply(s.Hole[0])} // reversed order too
			f := [3]card.Card{sp.apply(s.Flop[2]), sp.apply(s.Flop[0]), sp.apply(s.Flop[1])}
			call, ok := d.Call(h, f)
			require.True(t, ok)
			require.Equal(t, opt(&s), call)
			hc, fc := Canonical(h, f)
			require.Equal(t, s.Hole, hc)
			require.Equal(t, s.Flop, fc)
		}
		if opt(&s) {
			calls++
		} else {
			folds++
		}
	}
	assert.Positive(t, calls)
	assert.Positive(t, folds)
	_, ok := d.Call([2]card.Card{0, 1}, [3]card.Card{48, 49, 50}) // 2c 2d / Ac Ad Ah: another flop class
	assert.False(t, ok)

	// Through a strategy file and back.
	var buf bytes.Buffer
	require.NoError(t, WriteStrategy(&buf, sol.States, p, opt, MetaProfile, "casino-holdem", MetaProfileHash, "abc"))
	back, meta, err := ReadDecisions(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	assert.Equal(t, d.known, back.known)
	assert.Equal(t, d.call, back.call)
	assert.Equal(t, "casino-holdem", meta[MetaProfile])
	assert.Equal(t, "abc", meta[MetaProfileHash])
}

func TestReadDecisionsBadInput(t *testing.T) {
	good := StrategyRow{Hole1: "2c", Hole2: "2d", Flop1: "2h", Flop2: "2s", Flop3: "3c", Weight: 12, Decision: "call"}
	for _, tc := range []struct {
		name string
		edit func(r *StrategyRow)
		want string
	}{
		{"bad card", func(r *StrategyRow) { r.Flop2 = "1x" }, `row 1: column flop_2: "1x"`},
		{"repeated card", func(r *StrategyRow) { r.Hole2 = "2c" }, "row 1: column hole_2: 2c repeats"},
		{"bad decision", func(r *StrategyRow) { r.Decision = "raise" }, `row 1: column decision: "raise"`},
		{"bad weight", func(r *StrategyRow) { r.Weight = 0 }, "row 1: column weight: 0"},
		{"weight not the class size", func(r *StrategyRow) { r.Flop3 = "4c"; r.Weight = 13 }, "row 1: column weight: state"},
		{"same class twice", func(r *StrategyRow) {}, "row 1: column weight: state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := good
			tc.edit(&bad)
			rows := []StrategyRow{good, bad}
			var buf bytes.Buffer
			w := parquet.NewGenericWriter[StrategyRow](&buf)
			_, err := w.Write(rows)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			_, _, err = ReadDecisions(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, _, err := ReadDecisions(bytes.NewReader([]byte("not parquet")), 11)
	require.ErrorContains(t, err, "not a Parquet file")
}

// BenchmarkDecisionsCall looks up random (hole, flop) states: the
// simulator's optimal players do one per box.
func BenchmarkDecisionsCall(b *testing.B) {
	d, err := NewDecisions(AllStates(), func(s *State) bool { return s.FlopValue.Category() >= hand.OnePair })
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(5, 6))
	type q struct {
		h [2]card.Card
		f [3]card.Card
	}
	qs := make([]q, 1<<16)
	for i := range qs {
		p := rng.Perm(52)
		qs[i] = q{[2]card.Card{card.Card(p[0]), card.Card(p[1])}, [3]card.Card{card.Card(p[2]), card.Card(p[3]), card.Card(p[4])}}
	}
	b.ResetTimer()
	n := 0
	for i := range b.N {
		x := &qs[i&(len(qs)-1)]
		if c, _ := d.Call(x.h, x.f); c {
			n++
		}
	}
	_ = n
}

// FuzzReadDecisions reads damaged strategy files: ReadDecisions returns
// an error or decisions, and never panics.
func FuzzReadDecisions(f *testing.F) {
	rows := []StrategyRow{
		{Hole1: "2c", Hole2: "2d", Flop1: "2h", Flop2: "2s", Flop3: "3c", Weight: 12, Decision: "call"},
		{Hole1: "Ac", Hole2: "Kd", Flop1: "2h", Flop2: "7s", Flop3: "9c", Weight: 24, Decision: "fold"},
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[StrategyRow](&buf)
	_, err := w.Write(rows)
	require.NoError(f, err)
	require.NoError(f, w.Close())
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _, err := ReadDecisions(bytes.NewReader(data), int64(len(data)))
		if err == nil {
			require.NotNil(t, d)
		}
	})
}
