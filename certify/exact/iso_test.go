package exact

import (
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFlopClasses(t *testing.T) {
	classes := FlopClasses()
	require.Len(t, classes, 1755)
	weights, states, stateWeights := 0, 0, int64(0)
	for i := range classes {
		fc := &classes[i]
		weights += fc.Weight
		// Orbit-stabiliser: |class| x |stabiliser| = 24.
		assert.Equal(t, 24, fc.Weight*len(fc.stab), "flop %v", fc.Flop)
		holes := 0
		for _, o := range fc.holeOrbits() {
			holes += o.size
			states++
			stateWeights += int64(fc.Weight) * int64(o.size)
		}
		assert.Equal(t, 1176, holes)
	}
	assert.Equal(t, 22100, weights)
	// reference README §2: 25,989,600 states, 1,286,792 up to isomorphism.
	assert.Equal(t, 1286792, states)
	assert.EqualValues(t, HoleFlopStates, stateWeights)
	assert.EqualValues(t, 25989600, stateWeights)
}

// TestSuitRelabelling checks the premise of the isomorphism: the sweep of
// a relabelled flop gives, for each relabelled hole, the same counts.
func TestSuitRelabelling(t *testing.T) {
	q := hand.MinPair(card.Four)
	cs, err := card.ParseN("3h 3s Jh", 3)
	require.NoError(t, err)
	f := [3]card.Card{cs[0], cs[1], cs[2]}
	p := suitPerm{3, 0, 2, 1} // c->s, d->c, h->h, s->d
	g := [3]card.Card{p.apply(f[0]), p.apply(f[1]), p.apply(f[2])}
	require.NotEqual(t, sort3(f), sort3(g))
	s1, s2 := &sweeper{qualifier: q}, &sweeper{qualifier: q}
	s1.flop(f)
	s2.flop(g)
	used := card.SetOf(cs...)
	for a := card.Card(0); a < card.DeckSize; a++ {
		for b := a + 1; b < card.DeckSize; b++ {
			if used.Has(a) || used.Has(b) {
				continue
			}
			require.Equal(t, s1.acc[pairIndex[a][b]], s2.acc[pairIndex[p.apply(a)][p.apply(b)]], "%s%s", a, b)
		}
	}
}

func TestHoleOrbits(t *testing.T) {
	// A monotone flop is fixed by the 6 relabellings of the other suits;
	// a rainbow flop of distinct ranks by the identity only.
	for _, tc := range []struct {
		flop   string
		stab   int
		orbits int
	}{
		{"2c 3c 4c", 6, 0},
		{"2c 3d 4h", 1, 1176},
	} {
		cs, err := card.ParseN(tc.flop, 3)
		require.NoError(t, err)
		var fc *FlopClass
		for _, c := range FlopClasses() {
			if c.Flop == sort3([3]card.Card{cs[0], cs[1], cs[2]}) {
				fc = &c
				break
			}
		}
		require.NotNil(t, fc, tc.flop)
		assert.Len(t, fc.stab, tc.stab, tc.flop)
		if tc.orbits > 0 {
			assert.Len(t, fc.holeOrbits(), tc.orbits, tc.flop)
		}
		for _, o := range fc.holeOrbits() {
			assert.True(t, o.rep[0] < o.rep[1])
		}
	}
}
