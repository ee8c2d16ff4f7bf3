package replayer

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
)

// exactUpper is P(X >= k) for X ~ Binomial(n, num/den), in exact integer
// arithmetic: the sum of C(n, j) num^j (den-num)^(n-j) over j >= k, over
// den^n.
func exactUpper(n, k int64, num, den int64) *big.Rat {
	sum := new(big.Int)
	for j := k; j <= n; j++ {
		t := new(big.Int).Binomial(n, j)
		t.Mul(t, new(big.Int).Exp(big.NewInt(num), big.NewInt(j), nil))
		t.Mul(t, new(big.Int).Exp(big.NewInt(den-num), big.NewInt(n-j), nil))
		sum.Add(sum, t)
	}
	return new(big.Rat).SetFrac(sum, new(big.Int).Exp(big.NewInt(den), big.NewInt(n), nil))
}

// logRat is the natural logarithm of a positive rational, accurate to a
// double's precision whatever its magnitude.
func logRat(r *big.Rat) float64 {
	f := new(big.Float).SetPrec(200).SetRat(r)
	mant := new(big.Float)
	exp := f.MantExp(mant)
	m, _ := mant.Float64()
	return math.Log(m) + float64(exp)*math.Ln2
}

// TestBinomialTails checks the log-space tails against exact rational
// arithmetic, far into the tails (P down to 1e-600) and at the mode.
func TestBinomialTails(t *testing.T) {
	for _, tc := range []struct{ n, k, num, den int64 }{
		{1, 1, 43, 100}, {1, 0, 43, 100}, {10, 10, 43, 100}, {10, 4, 43, 100}, {10, 5, 43, 100},
		{60, 41, 43, 100}, {60, 26, 43, 100}, {60, 0, 43, 100}, {60, 60, 43, 100},
		{200, 199, 1, 2}, {200, 101, 1, 2}, {200, 100, 1, 2}, {500, 480, 43, 100}, {1000, 1000, 1, 3},
		{1000, 470, 43, 100}, {1000, 431, 43, 100}, {1000, 1, 1, 1000}, {1000, 12, 1, 1000},
	} {
		want := logRat(exactUpper(tc.n, tc.k, tc.num, tc.den))
		got := logBinomUpper(tc.n, tc.k, float64(tc.num)/float64(tc.den))
		assert.InDelta(t, want, got, 1e-9*math.Max(1, math.Abs(want)), "n %d k %d p %d/%d", tc.n, tc.k, tc.num, tc.den)
		// The lower tail is the upper tail of the failures.
		wantL := logRat(exactUpper(tc.n, tc.n-tc.k, tc.den-tc.num, tc.den))
		assert.InDelta(t, wantL, logBinomLower(tc.n, tc.k, float64(tc.num)/float64(tc.den)), 1e-9*math.Max(1, math.Abs(wantL)))
	}
	assert.Equal(t, 0.0, logBinomUpper(10, 0, 0.3))
	assert.True(t, math.IsInf(logBinomUpper(10, 11, 0.3), -1))
	assert.True(t, math.IsInf(logBinomUpper(10, 1, 0), -1))
	assert.Equal(t, 0.0, logBinomUpper(10, 10, 1))
	// Large n: the tail at 5 standard deviations above the mean of
	// Binomial(10^7, 0.43) is near the normal's 2.9e-7.
	n := int64(10_000_000)
	sd := math.Sqrt(float64(n) * 0.43 * 0.57)
	p := math.Exp(logBinomUpper(n, int64(0.43*float64(n)+5*sd), 0.43))
	assert.InDelta(t, 2.9e-7, p, 0.3e-7)
}

func TestBinomUpperLimit(t *testing.T) {
	for _, tc := range []struct {
		n, k  int64
		alpha float64
	}{{10, 0, 1e-6}, {10, 3, 0.05}, {1000, 430, 1e-6}, {1_000_000, 430_000, 1e-6}, {5, 5, 0.01}} {
		u := binomUpperLimit(tc.n, tc.k, tc.alpha)
		if tc.k == tc.n {
			assert.Equal(t, 1.0, u)
			continue
		}
		assert.Greater(t, u, float64(tc.k)/float64(tc.n))
		assert.InDelta(t, math.Log(tc.alpha), logBinomLower(tc.n, tc.k, u), 1e-6)
	}
	// No wins in 10 played rounds: the rate may still be up to 1 - 1e-6^(1/10).
	assert.InDelta(t, 1-math.Pow(1e-6, 0.1), binomUpperLimit(10, 0, 1e-6), 1e-9)
}
