package stats

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/fairhold/fairhold/fairness/scheme"
)

func mustScheme(t testing.TB, name string) scheme.Scheme {
	t.Helper()
	s, err := scheme.Lookup(name)
	require.NoError(t, err)
	return s
}

// failedFamilies returns the families of the failed tests.
func failedFamilies(r *Report) map[string]bool {
	fs := map[string]bool{}
	for _, t := range r.Failed() {
		fs[t.Family] = true
	}
	return fs
}

// TestPower runs the battery on each broken shuffle with the smallest
// sample that fails it robustly (the default sample is 1,000,000 decks, far
// larger) and checks the battery fails, and fails in the family that
// targets the flaw.
func TestPower(t *testing.T) {
	for _, tc := range []struct {
		name   string
		src    Source
		decks  uint64
		family string
	}{
		{"modulo-bias", doubleSource{shuffle: moduloBias, small: true}, 20000, "position/card"},
		{"swap-any-position", doubleSource{shuffle: swapAny, small: true}, 20000, "position/card"},
		{"off-by-one", doubleSource{shuffle: offByOne, small: true}, 20000, "position/card"},
		{"clock-seeded-32-bit", doubleSource{shuffle: honest, seedOf: clockSeed, newRand: newLCG, small: true}, 20000, "collisions"},
		{"with-replacement (stake-compat)", SchemeSource{Scheme: mustScheme(t, scheme.StakeCompatName), Seed: 1}, 20000, "validity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Run(tc.src, Config{Decks: tc.decks})
			require.NoError(t, err)
			assert.False(t, r.Pass)
			assert.True(t, failedFamilies(r)[tc.family], "failed families %v", failedFamilies(r))
		})
	}
}

// TestFairholdV1Passes runs the battery on the production scheme.
func TestFairholdV1Passes(t *testing.T) {
	decks := uint64(200000)
	if testing.Short() {
		decks = 20000
	}
	r, err := Run(SchemeSource{Scheme: mustScheme(t, scheme.FairholdV1Name), Seed: 7}, Config{Decks: decks})
	require.NoError(t, err)
	assert.True(t, r.Pass, "failed: %v", r.Failed())
	assert.Equal(t, 1+3*52+1+4+1+2+1+2+1+3, len(r.Tests))
	assert.Empty(t, r.Notes)
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	src := SchemeSource{Scheme: mustScheme(t, scheme.FairholdV1Name), Seed: 3}
	cfg := Config{Decks: 3*chunkSize + 123, SmallPerSize: 5000}
	if testing.Short() {
		cfg.Decks = chunkSize + 123 // still crosses a chunk boundary
	}
	var reports []*Report
	for _, w := range []int{1, 2, 5} {
		cfg.Workers = w
		r, err := Run(src, cfg)
		require.NoError(t, err)
		reports = append(reports, r)
	}
	assert.Equal(t, reports[0], reports[1])
	assert.Equal(t, reports[0], reports[2])
	// A different seed gives different statistics.
	src.Seed = 4
	r, err := Run(src, cfg)
	require.NoError(t, err)
	assert.NotEqual(t, reports[0].Tests[0].Statistic, r.Tests[0].Statistic)
}

// TestAdjacencyCovariance enumerates every permutation of n = 5 cards,
// builds the exact covariance M of the standardised adjacency counts and
// checks that the quadratic form of adjacencyStatistic is its
// pseudo-inverse: Q M = I - J/d (M's null space is the constant vector).
func TestAdjacencyCovariance(t *testing.T) {
	const n = 5
	d := n * (n - 1)
	cell := func(a, b int) int { return a*(n-1) + b - boolInt(b > a) }
	var perms [][]int
	var gen func(p []int, used int)
	gen = func(p []int, used int) {
		if len(p) == n {
			perms = append(perms, append([]int(nil), p...))
			return
		}
		for c := range n {
			if used&(1<<c) == 0 {
				gen(append(p, c), used|1<<c)
			}
		}
	}
	gen(nil, 0)
	require.Len(t, perms, 120)
	p := 1.0 / n
	m := mat.NewSymDense(d, nil)
	for _, perm := range perms {
		ind := make([]float64, d)
		for k := 0; k+1 < n; k++ {
			ind[cell(perm[k], perm[k+1])] = 1
		}
		for i := range d {
			for j := i; j < d; j++ {
				m.SetSym(i, j, m.At(i, j)+(ind[i]-p)*(ind[j]-p)/p/float64(len(perms)))
			}
		}
	}
	// Quadratic form of adjacencyStatistic by polarisation.
	q := mat.NewDense(d, d, nil)
	toZ := func(v []float64) [][]float64 {
		z := make([][]float64, n)
		for a := range z {
			z[a] = make([]float64, n)
			for b := range z[a] {
				if a != b {
					z[a][b] = v[cell(a, b)]
				}
			}
		}
		return z
	}
	unit := func(i, j int) []float64 {
		v := make([]float64, d)
		v[i]++
		v[j]++
		return v
	}
	for i := range d {
		for j := range d {
			if i == j {
				q.Set(i, i, adjacencyStatistic(toZ(unit(i, -1+i+1))))
				continue
			}
			vi := make([]float64, d)
			vi[i] = 1
			vj := make([]float64, d)
			vj[j] = 1
			q.Set(i, j, (adjacencyStatistic(toZ(unit(i, j)))-adjacencyStatistic(toZ(vi))-adjacencyStatistic(toZ(vj)))/2)
		}
	}
	// unit(i, i) doubles cell i: its form is 4 q_ii.
	for i := range d {
		q.Set(i, i, q.At(i, i)/4)
	}
	var qm mat.Dense
	qm.Mul(q, m)
	for i := range d {
		for j := range d {
			want := -1.0 / float64(d)
			if i == j {
				want += 1
			}
			assert.InDelta(t, want, qm.At(i, j), 1e-9, "QM[%d][%d]", i, j)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestCombinatorics(t *testing.T) {
	var classCount [169]int
	for a := range uint8(52) {
		for b := a + 1; b < 52; b++ {
			classCount[startingClass(a, b)]++
			assert.Equal(t, startingClass(a, b), startingClass(b, a))
		}
	}
	probs := startingProbs()
	for i, c := range classCount {
		assert.InDelta(t, probs[i]*1326, float64(c), 1e-9, "class %d", i)
	}
	sum := 0.0
	for _, p := range dealerProbs() {
		sum += p
	}
	assert.InDelta(t, 1, sum, 1e-12)

	seen := map[int]bool{}
	var perm func(v []int64, used int)
	perm = func(v []int64, used int) {
		if len(v) == 5 {
			seen[lehmer(v)] = true
			return
		}
		for c := range 5 {
			if used&(1<<c) == 0 {
				perm(append(v, int64(c)), used|1<<c)
			}
		}
	}
	perm(nil, 0)
	assert.Len(t, seen, 120)
	for k := range seen {
		assert.True(t, k >= 0 && k < 120)
	}
}

func TestHolm(t *testing.T) {
	ts := []Test{{Name: "a", P: 0.004}, {Name: "b", P: 0.001}, {Name: "c", P: 0.03}, {Name: "d", P: 0.5}}
	holm(ts, 0.01)
	// sorted: b 0.001*4 = 0.004, a 0.004*3 = 0.012, c 0.03*2 = 0.06, d 0.5
	assert.InDelta(t, 0.004, ts[1].PHolm, 1e-12)
	assert.InDelta(t, 0.012, ts[0].PHolm, 1e-12)
	assert.InDelta(t, 0.06, ts[2].PHolm, 1e-12)
	assert.InDelta(t, 0.5, ts[3].PHolm, 1e-12)
	assert.Equal(t, []bool{true, false, true, true}, []bool{ts[0].Pass, ts[1].Pass, ts[2].Pass, ts[3].Pass})
}

func TestConfigErrors(t *testing.T) {
	src := doubleSource{shuffle: honest}
	for _, cfg := range []Config{{Decks: 10}, {Decks: MinDecks, Alpha: 2}, {Decks: 1 << 33}} {
		_, err := Run(src, cfg)
		assert.Error(t, err)
	}
	r, err := Run(src, Config{Decks: MinDecks})
	require.NoError(t, err)
	assert.Contains(t, strings.Join(r.Notes, " "), "small-deck")
}

// TestFalseAlarm runs the battery on honest decks many times and checks
// that (a) the unadjusted P-values of the individual tests reject at
// about alpha (their null distributions are right) and (b) the battery's
// family-wise false-alarm rate stays within the Holm bound. Set
// FAIRHOLD_STATS_RUNS to run more (docs/statistics.md reports 1,000).
func TestFalseAlarm(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the battery many times")
	}
	runs := envInt("FAIRHOLD_STATS_RUNS", 30)
	decks := uint64(envInt("FAIRHOLD_STATS_DECKS", MinDecks))
	var tests, rejected, failedRuns int
	for k := range runs {
		r, err := Run(doubleSource{shuffle: honest, small: true, seedOf: func(i uint64) uint64 { return uint64(k)<<40 | i }},
			Config{Decks: decks, SmallPerSize: 4000})
		require.NoError(t, err)
		for _, ts := range r.Tests {
			tests++
			if ts.P < DefaultAlpha {
				rejected++
			}
		}
		if !r.Pass {
			failedRuns++
		}
	}
	rate := float64(rejected) / float64(tests)
	// Binomial bound: tests are nearly independent; 5 standard errors.
	se := math.Sqrt(DefaultAlpha * (1 - DefaultAlpha) / float64(tests))
	t.Logf("%d runs of %d decks: per-test rejection rate %.4f (%d/%d), battery failures %d (%.4f)",
		runs, decks, rate, rejected, tests, failedRuns, float64(failedRuns)/float64(runs))
	assert.InDelta(t, DefaultAlpha, rate, 5*se+0.002)
	// Family-wise: at most alpha in expectation; allow binomial noise.
	assert.LessOrEqual(t, float64(failedRuns), float64(runs)*DefaultAlpha+3*math.Sqrt(float64(runs)*DefaultAlpha)+1)
}

func BenchmarkBattery(b *testing.B) {
	src := SchemeSource{Scheme: mustScheme(b, scheme.FairholdV1Name), Seed: 1}
	for b.Loop() {
		_, err := Run(src, Config{Decks: 1 << 18})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(1<<18), "ns/deck")
}
