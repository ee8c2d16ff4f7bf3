package nist

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Frequency is the frequency (monobit) test (SP 800-22 §2.1).
func Frequency(bits []byte) Result {
	s := 0
	for _, b := range bits {
		s += int(b)
	}
	s = 2*s - len(bits)
	obs := math.Abs(float64(s)) / math.Sqrt(float64(len(bits)))
	return result("frequency", "", obs, math.Erfc(obs/math.Sqrt2))
}

// BlockFrequency is the frequency test within blocks of m bits (§2.2).
func BlockFrequency(bits []byte, m int) Result {
	n := len(bits) / m
	var chi float64
	for i := range n {
		ones := 0
		for _, b := range bits[i*m : (i+1)*m] {
			ones += int(b)
		}
		d := float64(ones)/float64(m) - 0.5
		chi += d * d
	}
	chi *= 4 * float64(m)
	return result("block-frequency", "", chi, igamc(float64(n)/2, chi/2))
}

// Runs is the runs test (§2.3). When the frequency prerequisite fails the
// P-value is 0, as in NIST's code.
func Runs(bits []byte) Result {
	n := float64(len(bits))
	ones := 0
	for _, b := range bits {
		ones += int(b)
	}
	pi := float64(ones) / n
	if math.Abs(pi-0.5) >= 2/math.Sqrt(n) {
		return result("runs", "", 0, 0)
	}
	v := 1
	for i := 1; i < len(bits); i++ {
		if bits[i] != bits[i-1] {
			v++
		}
	}
	q := pi * (1 - pi)
	p := math.Erfc(math.Abs(float64(v)-2*n*q) / (2 * math.Sqrt(2*n) * q))
	return result("runs", "", float64(v), p)
}

// CumulativeSums is the cumulative sums test (§2.13), forward then backward.
func CumulativeSums(bits []byte) []Result {
	n := len(bits)
	maxAbs := func(forward bool) int {
		s, z := 0, 0
		for i := range n {
			b := bits[i]
			if !forward {
				b = bits[n-1-i]
			}
			s += 2*int(b) - 1
			if s > z {
				z = s
			} else if -s > z {
				z = -s
			}
		}
		return z
	}
	out := make([]Result, 0, 2)
	for _, dir := range []struct {
		name    string
		forward bool
	}{{"forward", true}, {"backward", false}} {
		z := maxAbs(dir.forward)
		out = append(out, result("cumulative-sums", dir.name, float64(z), cusumP(n, z)))
	}
	return out
}

// cusumP is the P-value of the cumulative sums test; the loop bounds use
// integer division truncating towards zero as in the specification.
func cusumP(n, z int) float64 {
	if z == 0 {
		return 1
	}
	phi := distuv.UnitNormal.CDF
	sn := math.Sqrt(float64(n))
	fz := float64(z)
	s1 := 0.0
	for k := (-n/z + 1) / 4; k <= (n/z-1)/4; k++ {
		s1 += phi(float64(4*k+1)*fz/sn) - phi(float64(4*k-1)*fz/sn)
	}
	s2 := 0.0
	for k := (-n/z - 3) / 4; k <= (n/z-1)/4; k++ {
		s2 += phi(float64(4*k+3)*fz/sn) - phi(float64(4*k+1)*fz/sn)
	}
	return 1 - s1 + s2
}

// LongestRun is the test for the longest run of ones in a block (§2.4),
// with the block length and classes NIST prescribes for the sequence
// length and exact class probabilities.
func LongestRun(bits []byte) Result {
	n := len(bits)
	var m, lo, hi int
	switch {
	case n >= 750000:
		m, lo, hi = 10000, 10, 16
	case n >= 6272:
		m, lo, hi = 128, 4, 9
	default:
		m, lo, hi = 8, 1, 4
	}
	blocks := n / m
	obs := make([]int, hi-lo+1)
	for i := range blocks {
		longest, run := 0, 0
		for _, b := range bits[i*m : (i+1)*m] {
			if b == 1 {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
		obs[min(max(longest, lo), hi)-lo]++
	}
	probs := longestRunProbs(m, lo, hi)
	chi := chiSquare(obs, probs, float64(blocks))
	return result("longest-run", "", chi, igamc(float64(len(obs)-1)/2, chi/2))
}

// longestRunProbs returns the probabilities that the longest run of ones in
// m fair bits is <= lo, lo+1, ..., hi-1, >= hi, computed exactly by
// dynamic programming over the length of the current run.
func longestRunProbs(m, lo, hi int) []float64 {
	// atMost(r) = P(longest run <= r).
	atMost := func(r int) float64 {
		// state: length of the current trailing run of ones, 0..r.
		cur := make([]float64, r+1)
		next := make([]float64, r+1)
		cur[0] = 1
		for range m {
			clear(next)
			var zero float64
			for k, p := range cur {
				zero += p / 2
				if k < r {
					next[k+1] += p / 2
				}
			}
			next[0] += zero
			cur, next = next, cur
		}
		var s float64
		for _, p := range cur {
			s += p
		}
		return s
	}
	probs := make([]float64, hi-lo+1)
	prev := 0.0
	for r := lo; r < hi; r++ {
		c := atMost(r)
		probs[r-lo] = c - prev
		prev = c
	}
	probs[hi-lo] = 1 - prev
	return probs
}
