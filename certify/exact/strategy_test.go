package exact

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCanonical(t *testing.T) {
	classes := FlopClasses()
	reps := make(map[[5]card.Card]bool)
	for _, fc := range classes[:60] {
		for _, s := range fc.states() {
			reps[[5]card.Card{s.Hole[0], s.Hole[1], s.Flop[0], s.Flop[1], s.Flop[2]}] = true
		}
	}
	perms := allSuitPerms()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		fc := classes[rng.IntN(60)]
		st := fc.states()
		s := st[rng.IntN(len(st))]
		p := perms[rng.IntN(len(perms))]
		hole := [2]card.Card{p.apply(s.Hole[1]), p.apply(s.Hole[0])}
		flop := [3]card.Card{p.apply(s.Flop[2]), p.apply(s.Flop[0]), p.apply(s.Flop[1])}
		h, f := Canonical(hole, flop)
		require.True(t, reps[[5]card.Card{h[0], h[1], f[0], f[1], f[2]}], "%v %v", hole, flop)
		assert.Equal(t, s.Hole, h)
		assert.Equal(t, s.Flop, f)
	}
}

func TestWriteStrategy(t *testing.T) {
	p := DefaultParams()
	var states []State
	for _, fc := range FlopClasses()[:3] {
		states = append(states, fc.states()...)
	}
	// Give the states counts that make some of them fold.
	for i := range states {
		states[i].Lose = uint32(i % 7 * 100_000)
		states[i].Win[0] = uint32(i % 5 * 100)
	}
	st := Optimal(p)
	var a, b bytes.Buffer
	require.NoError(t, WriteStrategy(&a, states, p, st))
	require.NoError(t, WriteStrategy(&b, states, p, st))
	assert.Equal(t, a.Bytes(), b.Bytes(), "same input, same bytes")

	rows, err := parquet.Read[StrategyRow](bytes.NewReader(a.Bytes()), int64(a.Len()))
	require.NoError(t, err)
	require.Len(t, rows, len(states))
	folds := 0
	for i, r := range rows {
		s := &states[i]
		assert.Equal(t, s.Hole[0].String(), r.Hole1)
		assert.Equal(t, s.Flop[2].String(), r.Flop3)
		assert.Equal(t, s.Weight, r.Weight)
		assert.Equal(t, p.CallSum(s), r.CallSum)
		assert.InDelta(t, float64(r.CallSum)/Completions, r.EVCall, 1e-15)
		want := "fold"
		if st(s) {
			want = "call"
		} else {
			folds++
		}
		assert.Equal(t, want, r.Decision)
	}
	assert.Positive(t, folds)

	byHand, grid := FoldSummary(states, st)
	var total, fold int64
	for _, f := range byHand {
		total += f.States
		fold += f.Fold
	}
	var gTotal int64
	for _, row := range grid {
		for _, f := range row {
			gTotal += f.States
		}
	}
	assert.Equal(t, total, gTotal)
	assert.EqualValues(t, folds > 0, fold > 0)
}
