package nist

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readSample reads the first 1,000,000 bits of a NIST sample file from the
// shared reference directory beside the repository.
func readSample(t testing.TB, name string) []byte {
	t.Helper()
	path := filepath.Join("..", "..", "..", "shared", "reference", "nist", name)
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Skipf("NIST sample %s not found (expected ../shared beside the repository)", path)
	}
	require.NoError(t, err)
	bits, err := ParseASCII(data, 1000000)
	require.NoError(t, err)
	require.Len(t, bits, 1000000)
	return bits
}

// TestReferencePValues reproduces the P-values of
// ../shared/reference/README.md §5 on NIST's e and pi samples. Where the
// table gives two figures the one our constants reproduce is used (see
// docs/statistics.md); rank on pi is only given from a re-implementation
// whose matrix ranks differ from NIST's and is checked against our own
// NIST-consistent value instead (tol 0 means "rounds to the reference").
func TestReferencePValues(t *testing.T) {
	ref := map[string]map[string]float64{
		"data.e": {
			"frequency": 0.953749, "block-frequency": 0.211072, "runs": 0.561917,
			"cumulative-sums/forward": 0.669887, "cumulative-sums/backward": 0.724266,
			"fft": 0.847187, "non-overlapping-template/template=000000001": 0.078790,
			"overlapping-template": 0.110434, "universal": 0.282568, "serial/1": 0.766182,
			"approximate-entropy": 0.700073, "random-excursions/x=+1": 0.786868,
			"random-excursions-variant/x=-1": 0.826009, "longest-run": 0.718366,
			"rank": 0.306156, "linear-complexity": 0.826202,
		},
		"data.pi": {
			"frequency": 0.578211, "block-frequency": 0.380615, "runs": 0.419268,
			"cumulative-sums/forward": 0.628308, "cumulative-sums/backward": 0.663369,
			"fft": 0.010186, "non-overlapping-template/template=000000001": 0.165757,
			"overlapping-template": 0.296897, "universal": 0.669012, "serial/1": 0.143005,
			"approximate-entropy": 0.361595, "random-excursions/x=+1": 0.844143,
			"random-excursions-variant/x=-1": 0.760966, "longest-run": 0.027295,
			"linear-complexity": 0.246801,
		},
	}
	// NIST's document prints 0.669887 / 0.724266 for e's cumulative sums;
	// the exact formula gives 0.6698865 / 0.7242653 (other independent
	// implementations agree), within one unit of the sixth decimal.
	tolerance := map[string]float64{"cumulative-sums/forward": 1e-6, "cumulative-sums/backward": 1e-6}
	for file, want := range ref {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			rs, err := Run(readSample(t, file), DefaultParams())
			require.NoError(t, err)
			got := map[string]float64{}
			for _, r := range rs {
				got[r.Name()] = r.P
			}
			for name, p := range want {
				require.Contains(t, got, name)
				tol := 5e-7
				if file == "data.e" && tolerance[name] != 0 {
					tol = tolerance[name]
				}
				assert.InDelta(t, p, got[name], tol, "%s %s: got %.7f", file, name, got[name])
			}
			assert.Len(t, rs, 188, "results per 10^6-bit sequence")
		})
	}
}

func TestAperiodicTemplates(t *testing.T) {
	// Counts from NIST's template files (templates2 .. templates10).
	for m, want := range map[int]int{2: 2, 3: 4, 4: 6, 5: 12, 6: 20, 7: 40, 8: 74, 9: 148, 10: 284} {
		assert.Len(t, aperiodicTemplates(m), want, "m=%d", m)
	}
	ts := aperiodicTemplates(9)
	assert.Equal(t, 1, ts[0], "first template 000000001")
}

// TestConstants checks the exactly computed class probabilities against
// the four-decimal tables of SP 800-22 §3.4, §2.5 and §3.10.
func TestConstants(t *testing.T) {
	// NIST's M=10000 table was itself approximated; it is off by up to
	// 1.6e-3, which is why its e P-value (0.718945) differs from ours.
	for _, tc := range []struct {
		m, lo, hi int
		tol       float64
		want      []float64
	}{
		{8, 1, 4, 1e-4, []float64{0.2148, 0.3672, 0.2305, 0.1875}},
		{128, 4, 9, 1e-4, []float64{0.1174, 0.2430, 0.2493, 0.1752, 0.1027, 0.1124}},
		{10000, 10, 16, 2e-3, []float64{0.0882, 0.2092, 0.2483, 0.1933, 0.1208, 0.0675, 0.0727}},
	} {
		got := longestRunProbs(tc.m, tc.lo, tc.hi)
		require.Len(t, got, len(tc.want))
		for i := range got {
			assert.InDelta(t, tc.want[i], got[i], tc.tol, "M=%d class %d", tc.m, i)
		}
	}
	assert.InDelta(t, 0.2888, rankProb(32, 32, 32), 5e-5)
	assert.InDelta(t, 0.5776, rankProb(32, 32, 31), 5e-5)
	sum := 0.0
	for _, p := range linearComplexityProbs {
		sum += p
	}
	assert.InDelta(t, 1, sum, 1e-12)
	op := overlappingProbs()
	assert.InDelta(t, 0.367879, op[0], 1e-6)
}

func TestRankGF2(t *testing.T) {
	var id [rankSize]uint32
	for i := range id {
		id[i] = 1 << i
	}
	assert.Equal(t, 32, rankGF2(id))
	dup := id
	dup[5] = dup[7] ^ dup[9]
	assert.Equal(t, 31, rankGF2(dup))
	dup[6] = 0
	assert.Equal(t, 30, rankGF2(dup))
	assert.Equal(t, 0, rankGF2([rankSize]uint32{}))
}

// naiveLinearComplexity is textbook Berlekamp-Massey over one byte per bit.
func naiveLinearComplexity(s []byte) int {
	n := len(s)
	c, b := make([]byte, n+1), make([]byte, n+1)
	c[0], b[0] = 1, 1
	l, m := 0, -1
	for i := range n {
		d := s[i]
		for j := 1; j <= l; j++ {
			d ^= c[j] & s[i-j]
		}
		if d == 0 {
			continue
		}
		t := append([]byte(nil), c...)
		for j := 0; j+i-m <= n; j++ {
			c[j+i-m] ^= b[j]
		}
		if l <= i/2 {
			l, m, b = i+1-l, i, t
		}
	}
	return l
}

func TestBerlekampMassey(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, m := range []int{1, 7, 63, 64, 65, 200, 500} {
		bm := newBerlekampMassey(m)
		for range 50 {
			s := make([]byte, m)
			for i := range s {
				s[i] = byte(rng.IntN(2))
			}
			assert.Equal(t, naiveLinearComplexity(s), bm.complexity(s), "m=%d", m)
		}
	}
	// A known sequence: 1 followed by zeros has complexity 1; 0..01 has n.
	bm := newBerlekampMassey(10)
	assert.Equal(t, 1, bm.complexity([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0}))
	assert.Equal(t, 10, bm.complexity([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 1}))
}

func TestParseAndUnpack(t *testing.T) {
	bits, err := ParseASCII([]byte(" 10\n1 1\t0"), 0)
	require.NoError(t, err)
	assert.Equal(t, []byte{1, 0, 1, 1, 0}, bits)
	bits, err = ParseASCII([]byte("1011"), 3)
	require.NoError(t, err)
	assert.Equal(t, []byte{1, 0, 1}, bits)
	_, err = ParseASCII([]byte("10x1"), 0)
	assert.ErrorContains(t, err, "byte 2")
	assert.Equal(t, []byte{1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1}, FromBytes(nil, []byte{0x81, 0x7f}))
	_, err = Run(make([]byte, 1000), DefaultParams())
	assert.ErrorIs(t, err, ErrTooShort)
	bad := make([]byte, MinBits)
	bad[10] = 2
	_, err = Run(bad, DefaultParams())
	assert.ErrorContains(t, err, "bit 10")
}

func TestAssess(t *testing.T) {
	mk := func(ps ...float64) [][]Result {
		runs := make([][]Result, len(ps))
		for i, p := range ps {
			runs[i] = []Result{result("t", "", 0, p), notApplicable("na", "")}
		}
		return runs
	}
	uniform := make([]float64, 100)
	for i := range uniform {
		uniform[i] = (float64(i) + 0.5) / 100
	}
	as, err := Assess(mk(uniform...), 0.01)
	require.NoError(t, err)
	require.Len(t, as, 2)
	assert.Equal(t, 100, as[0].Sequences)
	assert.Equal(t, 99, as[0].Passed)
	assert.InDelta(t, 0.99-3*math.Sqrt(0.0099/100), as[0].Low, 1e-12)
	assert.InDelta(t, 1, as[0].Uniformity, 1e-9)
	assert.True(t, as[0].Pass)
	assert.Equal(t, 0, as[1].Sequences)
	assert.True(t, as[1].Pass)

	// Too many failures: 5 of 100 below alpha is outside 0.99 -/+ 0.0298.
	bad := append([]float64(nil), uniform...)
	for i := range 5 {
		bad[i] = 0.001
	}
	as, err = Assess(mk(bad...), 0.01)
	require.NoError(t, err)
	assert.False(t, as[0].Pass)

	// Proportion fine but all P-values in one bin: not uniform.
	clumped := make([]float64, 100)
	for i := range clumped {
		clumped[i] = 0.55
	}
	as, err = Assess(mk(clumped...), 0.01)
	require.NoError(t, err)
	assert.Less(t, as[0].Uniformity, UniformityThreshold)
	assert.False(t, as[0].Pass)

	_, err = Assess(nil, 0.01)
	assert.Error(t, err)
	_, err = Assess(mk(0.5), 1.5)
	assert.Error(t, err)
}

// TestRunManyDeterministic checks results do not depend on the number of
// workers and that a biased generator fails the second-level rules.
func TestRunManyDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite on several sequences")
	}
	honest := func(i int, buf []byte) error {
		r := rand.NewChaCha8([32]byte{byte(i), 7})
		_, _ = r.Read(buf)
		return nil
	}
	a, err := RunMany(honest, 4, 1<<20, 1, DefaultParams(), nil)
	require.NoError(t, err)
	b, err := RunMany(honest, 4, 1<<20, 3, DefaultParams(), nil)
	require.NoError(t, err)
	// fmt renders NaN (tests not applicable) equal to itself.
	assert.Equal(t, fmt.Sprint(a), fmt.Sprint(b))

	biased := func(i int, buf []byte) error {
		r := rand.NewChaCha8([32]byte{byte(i), 9})
		_, _ = r.Read(buf)
		for j := range buf {
			if j%16 == 0 {
				buf[j] |= 0x80 // 1/128 of the bits forced to one
			}
		}
		return nil
	}
	runs, err := RunMany(biased, 4, 1<<20, 0, DefaultParams(), nil)
	require.NoError(t, err)
	as, err := Assess(runs, 0.01)
	require.NoError(t, err)
	assert.False(t, as[0].Pass, "frequency must catch a biased generator")
	_, err = RunMany(honest, 1, 12, 1, DefaultParams(), nil)
	assert.Error(t, err)
}

func BenchmarkRun(b *testing.B) {
	bits := readSample(b, "data.e")
	b.SetBytes(int64(len(bits) / 8))
	for b.Loop() {
		_, _ = Run(bits, DefaultParams())
	}
}

func TestSummarize(t *testing.T) {
	// 100 sequences: the proportion rule fails at 4 or more failures,
	// probability 1 - P(Bin(100, 0.01) <= 3) = 0.018374.
	assert.InDelta(t, 0.018374, proportionFalseAlarm(100, 0.01, 0.99-3*math.Sqrt(0.0099/100)), 1e-6)
	mk := func(failed int) []Assessment {
		as := make([]Assessment, 188)
		for i := range as {
			as[i] = Assessment{Sequences: 100, Low: 0.99 - 3*math.Sqrt(0.0099/100), Pass: i >= failed}
		}
		return as
	}
	s := Summarize(mk(4), 0.01, 0.01)
	assert.InDelta(t, 188*(0.018374+1e-4), s.Expected, 0.01)
	assert.Equal(t, 4, s.Failed)
	assert.True(t, s.Pass, "4 failures of 188 are expected under the null: P=%v", s.P)
	s = Summarize(mk(15), 0.01, 0.01)
	assert.False(t, s.Pass, "P=%v", s.P)
	s = Summarize(mk(0), 0.01, 0.01)
	assert.InDelta(t, 1, s.P, 1e-12)
}

// BenchmarkTests times each test on the first 10^6 bits of e.
func BenchmarkTests(b *testing.B) {
	bits := readSample(b, "data.e")
	p := DefaultParams()
	for _, bc := range []struct {
		name string
		fn   func()
	}{
		{"frequency", func() { Frequency(bits) }},
		{"block-frequency", func() { BlockFrequency(bits, p.BlockFrequencyM) }},
		{"cumulative-sums", func() { CumulativeSums(bits) }},
		{"runs", func() { Runs(bits) }},
		{"longest-run", func() { LongestRun(bits) }},
		{"rank", func() { Rank(bits) }},
		{"fft", func() { DFT(bits) }},
		{"non-overlapping-template", func() { NonOverlappingTemplates(bits, p.NonOverlappingM, p.NonOverlappingBlock) }},
		{"overlapping-template", func() { OverlappingTemplate(bits) }},
		{"universal", func() { Universal(bits) }},
		{"approximate-entropy", func() { ApproximateEntropy(bits, p.ApproxEntropyM) }},
		{"random-excursions", func() { RandomExcursions(bits); RandomExcursionsVariant(bits) }},
		{"serial", func() { Serial(bits, p.SerialM) }},
		{"linear-complexity", func() { LinearComplexity(bits, p.LinearComplexityM) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				bc.fn()
			}
		})
	}
}

func TestRunBytesReport(t *testing.T) {
	// Two sequences of MinBits bits from a counter-mode SHA-256 stream.
	n := MinBits / 8
	data := make([]byte, 0, 2*n+5)
	for i := 0; len(data) < 2*n+5; i++ {
		h := sha256.Sum256([]byte{byte(i), byte(i >> 8), byte(i >> 16)})
		data = append(data, h[:]...)
	}
	data = data[:2*n+5]
	runs, err := RunBytes(data, MinBits, 2, 1, DefaultParams(), nil)
	require.NoError(t, err)
	require.Len(t, runs, 2)
	want, err := Run(FromBytes(nil, data[n:2*n]), DefaultParams())
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(want), fmt.Sprint(runs[1]))
	rep, err := NewReport("test", runs, MinBits, 0.01)
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Sequences)
	assert.Nil(t, rep.Tests[0].Uniformity, "too few sequences for the uniformity rule")
	b, err := json.Marshal(rep)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"uniformity":null`)

	_, err = RunBytes(data, MinBits, 3, 1, DefaultParams(), nil)
	assert.Error(t, err, "the data holds two sequences")
	_, err = RunBytes(data, MinBits+4, 1, 1, DefaultParams(), nil)
	assert.Error(t, err, "not whole bytes")
}
