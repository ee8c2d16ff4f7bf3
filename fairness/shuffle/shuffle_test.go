package shuffle

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fairhold/fairhold/fairness/stream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"
)

// fixed is the fixed, seeded source of the statistical tests: the
// production HMAC stream under a constant key.
func fixed(label string) *stream.Stream {
	return stream.NewKey([]byte("fairhold shuffle test key")).Stream([]byte(label))
}

// anyPosition is the classic broken shuffle: every position swaps with any
// position, U(size). It has size^size equally likely paths onto size!
// permutations, which cannot be uniform for size >= 3.
func anyPosition(src Source, size int) []uint8 {
	deck := make([]uint8, size)
	for i := range deck {
		deck[i] = uint8(i)
	}
	for i := range size {
		j := src.Uint(size)
		deck[i], deck[j] = deck[j], deck[i]
	}
	return deck
}

func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}

// permChiSquare shuffles samples decks and returns the number of distinct
// permutations seen and the chi-square p-value of their counts against the
// uniform distribution.
func permChiSquare(t *testing.T, size, samples int, shuffle func() []uint8) (int, float64) {
	t.Helper()
	counts := map[string]int{}
	for range samples {
		d := shuffle()
		require.Len(t, d, size)
		counts[string(d)]++
	}
	cells := factorial(size)
	exp := float64(samples) / float64(cells)
	stat := 0.0
	for _, c := range counts {
		stat += (float64(c) - exp) * (float64(c) - exp) / exp
	}
	stat += float64(cells-len(counts)) * exp // cells never seen
	p := distuv.ChiSquared{K: float64(cells - 1)}.Survival(stat)
	return len(counts), p
}

func TestSmallDeckPermutations(t *testing.T) {
	for _, size := range []int{3, 4, 5} {
		samples := 1000 * factorial(size)
		t.Run(fmt.Sprintf("production/%d", size), func(t *testing.T) {
			src := fixed(fmt.Sprintf("production %d", size))
			seen, p := permChiSquare(t, size, samples, func() []uint8 {
				d, err := Deal(nil, src, size, size)
				require.NoError(t, err)
				return d
			})
			assert.Equal(t, factorial(size), seen, "every permutation appears")
			assert.Greater(t, p, 0.001)
		})
		t.Run(fmt.Sprintf("swap-with-any/%d", size), func(t *testing.T) {
			src := fixed(fmt.Sprintf("broken %d", size))
			_, p := permChiSquare(t, size, samples, func() []uint8 { return anyPosition(src, size) })
			assert.Less(t, p, 0.001, "the broken shuffle must fail the same test")
		})
	}
}

type seq []int

func (s *seq) Uint(n int) int {
	v := (*s)[0] % n
	*s = (*s)[1:]
	return v
}

func TestDealForwardFisherYates(t *testing.T) {
	// Position i swaps with i + U(size-i): draws 2, 0, 1 on a deck of 4
	// (0 1 2 3) -> swap 0,2 (2 1 0 3) -> swap 1,1 -> swap 2,3 (2 1 3 0).
	src := seq{2, 0, 1, 0}
	d, err := Deal(nil, &src, 4, 4)
	require.NoError(t, err)
	assert.Equal(t, []uint8{2, 1, 3, 0}, d)
	// A prefix of k cards costs k draws and equals the full shuffle's prefix.
	src = seq{2, 0}
	d, err = Deal([]uint8{9}, &src, 4, 2)
	require.NoError(t, err)
	assert.Equal(t, []uint8{9, 2, 1}, d)
	assert.Empty(t, src)
}

func TestDealPermutation(t *testing.T) {
	src := fixed("perm")
	for range 100 {
		d, err := Deal(nil, src, 52, 52)
		require.NoError(t, err)
		s := slices.Clone(d)
		slices.Sort(s)
		for i, c := range s {
			require.Equal(t, uint8(i), c)
		}
	}
}

func TestDealErrors(t *testing.T) {
	src := fixed("err")
	for _, c := range []struct{ size, n int }{{0, 0}, {257, 1}, {52, 53}, {52, -1}} {
		_, err := Deal(nil, src, c.size, c.n)
		assert.Error(t, err, "%+v", c)
	}
}
