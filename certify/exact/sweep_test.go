package exact

import (
	"math/rand/v2"
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteBoards evaluates, with hand.Eval7 (not the incremental Key the
// sweep uses), every holding of every turn-and-river board of flop f:
// vals[board][pairIndex] for the boards in the order returned.
func bruteBoards(f [3]card.Card) ([][2]card.Card, [][]hand.Value) {
	used := card.SetOf(f[:]...)
	var boards [][2]card.Card
	var vals [][]hand.Value
	for t := card.Card(0); t < card.DeckSize; t++ {
		for r := t + 1; r < card.DeckSize; r++ {
			if used.Has(t) || used.Has(r) {
				continue
			}
			v := make([]hand.Value, 1326)
			for a := card.Card(0); a < card.DeckSize; a++ {
				for b := a + 1; b < card.DeckSize; b++ {
					if used.Has(a) || used.Has(b) || a == t || a == r || b == t || b == r {
						continue
					}
					v[pairIndex[a][b]] = hand.Eval7([7]card.Card{f[0], f[1], f[2], t, r, a, b})
				}
			}
			boards = append(boards, [2]card.Card{t, r})
			vals = append(vals, v)
		}
	}
	return boards, vals
}

// bruteCounts settles every completion of (hole, flop) one by one: every
// board, every dealer hand, compared directly.
func bruteCounts(f [3]card.Card, h [2]card.Card, q hand.Value, boards [][2]card.Card, vals [][]hand.Value) Counts {
	var c Counts
	used := card.SetOf(f[0], f[1], f[2], h[0], h[1])
	for bi, tr := range boards {
		if used.Has(tr[0]) || used.Has(tr[1]) {
			continue
		}
		pv := vals[bi][pairIndex[h[0]][h[1]]]
		cat := pv.Category() - 1
		for a := card.Card(0); a < card.DeckSize; a++ {
			for b := a + 1; b < card.DeckSize; b++ {
				if used.Has(a) || used.Has(b) || a == tr[0] || a == tr[1] || b == tr[0] || b == tr[1] {
					continue
				}
				dv := vals[bi][pairIndex[a][b]]
				switch {
				case dv < q:
					c.NotQualified[cat]++
				case pv > dv:
					c.Win[cat]++
				case pv == dv:
					c.Tie++
				default:
					c.Lose++
				}
			}
		}
	}
	return c
}

func TestSweepMatchesBruteForce(t *testing.T) {
	q := hand.MinPair(card.Four)
	// A rainbow flop, a paired flop, a monotone straight-flush draw, trips
	// (quads and full houses for everyone), and low cards around the
	// qualifier (pairs of 2s-4s).
	flops := []string{"2c 7d Kh", "4c 4d 9s", "Tc Jc Qc", "Ah Ad As", "2s 3s 4d"}
	every := 10
	if testing.Short() {
		flops, every = flops[:2], 60
	}
	rng := rand.New(rand.NewPCG(6, 6))
	s := &sweeper{qualifier: q}
	for _, fs := range flops {
		cs, err := card.ParseN(fs, 3)
		require.NoError(t, err)
		f := [3]card.Card{cs[0], cs[1], cs[2]}
		s.flop(f)
		boards, vals := bruteBoards(f)
		require.Len(t, boards, 1176)
		used := card.SetOf(cs...)
		holes := 0
		for a := card.Card(0); a < card.DeckSize; a++ {
			for b := a + 1; b < card.DeckSize; b++ {
				if used.Has(a) || used.Has(b) {
					continue
				}
				got := s.acc[pairIndex[a][b]]
				require.EqualValues(t, Completions, got.Total(), "%s %s%s", fs, a, b)
				holes++
				if rng.IntN(every) != 0 && !(a.Rank() == card.Ace && b.Rank() == card.Ace) {
					continue
				}
				want := bruteCounts(f, [2]card.Card{a, b}, q, boards, vals)
				assert.Equal(t, want, got, "flop %s hole %s %s", fs, a, b)
			}
		}
		assert.Equal(t, 1176, holes)
	}
}
