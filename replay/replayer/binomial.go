package replayer

import "math"

// Exact binomial tails for the void-bias test, in log space.
//
// A probability mass is computed by Loader's saddle-point expansion (C.
// Loader, "Fast and accurate computation of binomial probabilities",
// 2000; the method of R's dbinom): log P(X = k) = stirlerr(n) -
// stirlerr(k) - stirlerr(n-k) - bd0(k, np) - bd0(n-k, nq) - log(2 pi k
// (n-k) / n) / 2, where every term is small or computed without
// cancellation, so the result keeps its relative precision for n in the
// millions and masses far below the smallest double. A tail is then summed
// outward from its first term by the ratio of consecutive masses, away
// from the mode, until the terms no longer change the sum; a tail that
// contains the mode is one minus the other tail.

// logBinomUpper returns log P(X >= k) for X ~ Binomial(n, p).
func logBinomUpper(n, k int64, p float64) float64 {
	switch {
	case k <= 0:
		return 0
	case k > n || p <= 0:
		return math.Inf(-1)
	case p >= 1:
		return 0
	}
	if float64(k) < float64(n+1)*p {
		// The tail holds the mode: 1 - P(X <= k-1), the other tail
		// summed away from the mode.
		return math.Log1p(-math.Exp(logBinomUpper(n, n-k+1, 1-p)))
	}
	// k is at or above the mode: the masses fall from k on.
	q := 1 - p
	r := p / q
	first := logBinomPMF(n, k, p)
	sum, term := 1.0, 1.0
	for j := k; j < n; j++ {
		term *= float64(n-j) / float64(j+1) * r
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return first + math.Log(sum)
}

// logBinomLower returns log P(X <= k) for X ~ Binomial(n, p).
func logBinomLower(n, k int64, p float64) float64 {
	return logBinomUpper(n, n-k, 1-p)
}

// logBinomPMF returns log P(X = k) for X ~ Binomial(n, p), 0 < p < 1.
func logBinomPMF(n, k int64, p float64) float64 {
	q := 1 - p
	switch {
	case k < 0 || k > n:
		return math.Inf(-1)
	case k == 0:
		return float64(n) * math.Log1p(-p)
	case k == n:
		return float64(n) * math.Log(p)
	}
	nf, kf := float64(n), float64(k)
	lc := stirlerr(nf) - stirlerr(kf) - stirlerr(nf-kf) - bd0(kf, nf*p) - bd0(nf-kf, nf*q)
	lf := math.Log(2*math.Pi) + math.Log(kf) + math.Log1p(-kf/nf)
	return lc - 0.5*lf
}

// stirlerr returns log(n!) - log(sqrt(2 pi n) (n/e)^n), the error of
// Stirling's formula, for n >= 1.
func stirlerr(n float64) float64 {
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	if n <= 15 {
		lg, _ := math.Lgamma(n + 1)
		return lg - (n+0.5)*math.Log(n) + n - 0.5*math.Log(2*math.Pi)
	}
	nn := n * n
	switch {
	case n > 500:
		return (s0 - s1/nn) / n
	case n > 80:
		return (s0 - (s1-s2/nn)/nn) / n
	case n > 35:
		return (s0 - (s1-(s2-s3/nn)/nn)/nn) / n
	}
	return (s0 - (s1-(s2-(s3-s4/nn)/nn)/nn)/nn) / n
}

// bd0 returns x log(x / np) + np - x without cancellation when x is near
// np.
func bd0(x, np float64) float64 {
	if math.Abs(x-np) < 0.1*(x+np) {
		v := (x - np) / (x + np)
		s := (x - np) * v
		ej := 2 * x * v
		v *= v
		for j := 1; j < 1000; j++ {
			ej *= v
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return x*math.Log(x/np) + np - x
}

// binomUpperLimit returns the upper end of the exact (Clopper-Pearson)
// one-sided confidence interval for the success probability of k
// successes in n trials at level 1 - alpha: the p for which P(X <= k) =
// alpha. It is 1 when k = n.
func binomUpperLimit(n, k int64, alpha float64) float64 {
	if k >= n {
		return 1
	}
	la := math.Log(alpha)
	lo, hi := float64(k)/float64(n), 1.0
	for range 100 {
		mid := (lo + hi) / 2
		if logBinomLower(n, k, mid) > la {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-12 {
			break
		}
	}
	return hi
}
