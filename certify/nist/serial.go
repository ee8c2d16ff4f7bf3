package nist

import "math"

// patternCounts counts the overlapping m-bit patterns of bits, the sequence
// extended by its first m-1 bits (wrapping around), as NIST's serial and
// approximate entropy tests do.
func patternCounts(bits []byte, m int) []int {
	counts := make([]int, 1<<m)
	if m == 0 {
		counts[0] = len(bits)
		return counts
	}
	mask := 1<<m - 1
	w := 0
	for _, b := range bits[:m-1] {
		w = w<<1 | int(b)
	}
	n := len(bits)
	for i := range n {
		w = (w<<1 | int(bits[(i+m-1)%n])) & mask
		counts[w]++
	}
	return counts
}

// psi2 is the serial test's psi-squared statistic for m-bit patterns.
func psi2(bits []byte, m int) float64 {
	if m <= 0 {
		return 0
	}
	var s float64
	for _, c := range patternCounts(bits, m) {
		s += float64(c) * float64(c)
	}
	n := float64(len(bits))
	return math.Exp2(float64(m))/n*s - n
}

// Serial is the serial test (§2.11) for m-bit patterns: two P-values,
// from the first and second differences of psi-squared.
func Serial(bits []byte, m int) []Result {
	p0, p1, p2 := psi2(bits, m), psi2(bits, m-1), psi2(bits, m-2)
	d1 := p0 - p1
	d2 := p0 - 2*p1 + p2
	return []Result{
		result("serial", "1", d1, igamc(math.Exp2(float64(m-2)), d1/2)),
		result("serial", "2", d2, igamc(math.Exp2(float64(m-3)), d2/2)),
	}
}

// ApproximateEntropy is the approximate entropy test (§2.12) for m-bit
// patterns.
func ApproximateEntropy(bits []byte, m int) Result {
	n := float64(len(bits))
	phi := func(k int) float64 {
		var s float64
		for _, c := range patternCounts(bits, k) {
			if c > 0 {
				f := float64(c)
				s += f * math.Log(f/n)
			}
		}
		return s / n
	}
	apen := phi(m) - phi(m+1)
	chi := 2 * n * (math.Ln2 - apen)
	return result("approximate-entropy", "", chi, igamc(math.Exp2(float64(m-1)), chi/2))
}
