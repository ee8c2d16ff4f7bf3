package nist

import (
	"fmt"
	"math"
	"strconv"
)

// aperiodicTemplates returns the m-bit templates that cannot overlap
// themselves (no proper prefix equals a suffix), in increasing order: the
// templates of NIST's non-overlapping template test (148 for m = 9).
func aperiodicTemplates(m int) []int {
	var ts []int
	for t := range 1 << m {
		ok := true
		for k := 1; k < m && ok; k++ {
			// Prefix of length m-k (the high bits) against the suffix of
			// length m-k (the low bits).
			if t>>k == t&(1<<(m-k)-1) {
				ok = false
			}
		}
		if ok {
			ts = append(ts, t)
		}
	}
	return ts
}

// NonOverlappingTemplates is the non-overlapping template matching test
// (§2.7) for every aperiodic template of m bits, in increasing order, over
// blocks of the sequence. Matches of all templates are counted in a single
// pass: a match of template w at position i is counted when i is at least
// the position after the previous counted match of w.
func NonOverlappingTemplates(bits []byte, m, blocks int) []Result {
	size := len(bits) / blocks
	counts := make([][]int, blocks)
	next := make([]int, 1<<m)
	mask := 1<<m - 1
	for j := range blocks {
		c := make([]int, 1<<m)
		counts[j] = c
		clear(next)
		blk := bits[j*size : (j+1)*size]
		w := 0
		for i, b := range blk {
			w = (w<<1 | int(b)) & mask
			start := i - m + 1
			if start < 0 {
				continue
			}
			if start >= next[w] {
				c[w]++
				next[w] = start + m
			}
		}
	}
	mu := float64(size-m+1) / math.Exp2(float64(m))
	sigma2 := float64(size) * (1/math.Exp2(float64(m)) - float64(2*m-1)/math.Exp2(float64(2*m)))
	ts := aperiodicTemplates(m)
	out := make([]Result, 0, len(ts))
	for _, t := range ts {
		var chi float64
		for j := range blocks {
			d := float64(counts[j][t]) - mu
			chi += d * d / sigma2
		}
		name := "template=" + fmt.Sprintf("%0*s", m, strconv.FormatInt(int64(t), 2))
		out = append(out, result("non-overlapping-template", name, chi, igamc(float64(blocks)/2, chi/2)))
	}
	return out
}

// overlappingProbs returns the probabilities of 0, 1, 2, 3, 4 and >= 5
// (overlapping) matches of the template of nine ones in a block of 1032
// bits by the compound-Poisson approximation of NIST's reference code
// (function Pr of sts-2.1.2, eta = (M-m+1)/2^(m+1)): P(0) = e^-eta,
// P(u) = sum_{l=1..u} e^-eta 2^-u eta^l / l! * C(u-1, l-1). These are the
// probabilities NIST's reference P-values were computed with; the exact
// values (rev. 1a's table, 0.364091, 0.185659, ...) give different
// P-values.
func overlappingProbs() []float64 {
	const k = 5
	eta := float64(overlappingBlock-overlappingM+1) / math.Exp2(overlappingM) / 2
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	probs := make([]float64, k+1)
	probs[0] = math.Exp(-eta)
	sum := probs[0]
	for u := 1; u < k; u++ {
		for l := 1; l <= u; l++ {
			probs[u] += math.Exp(-eta - float64(u)*math.Ln2 + float64(l)*math.Log(eta) -
				lg(float64(l+1)) + lg(float64(u)) - lg(float64(l)) - lg(float64(u-l+1)))
		}
		sum += probs[u]
	}
	probs[k] = 1 - sum
	return probs
}

// Overlapping-template parameters: template of nine ones, blocks of 1032
// bits; the probabilities above hold for exactly these.
const (
	overlappingM     = 9
	overlappingBlock = 1032
)

// OverlappingTemplate is the overlapping template matching test (§2.8) with
// the template of nine ones in blocks of 1032 bits.
func OverlappingTemplate(bits []byte) Result {
	blocks := len(bits) / overlappingBlock
	probs := overlappingProbs()
	obs := make([]int, len(probs))
	for j := range blocks {
		blk := bits[j*overlappingBlock : (j+1)*overlappingBlock]
		run, matches := 0, 0
		for _, b := range blk {
			if b == 1 {
				run++
				if run >= overlappingM {
					matches++
				}
			} else {
				run = 0
			}
		}
		obs[min(matches, len(obs)-1)]++
	}
	chi := chiSquare(obs, probs, float64(blocks))
	return result("overlapping-template", "", chi, igamc(float64(len(obs)-1)/2, chi/2))
}
