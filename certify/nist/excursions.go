package nist

import (
	"fmt"
	"math"
)

// minCycles is the number of cycles below which the random excursion tests
// do not apply: max(0.005 sqrt(n), 500).
func minCycles(n int) int {
	return max(int(0.005*math.Sqrt(float64(n))), 500)
}

func stateName(x int) string { return fmt.Sprintf("x=%+d", x) }

// RandomExcursions is the random excursions test (§2.14): for each state
// x in -4..-1, 1..4, the number of cycles visiting x exactly k times
// (k = 0..4, and >= 5) against the walk's theoretical distribution. Not
// applicable when the walk has fewer than max(0.005 sqrt(n), 500) cycles.
func RandomExcursions(bits []byte) []Result {
	states := []int{-4, -3, -2, -1, 1, 2, 3, 4}
	// per cycle visit counts
	var cur [9]int
	var nu [9][6]int
	s := 0
	j := 0
	flush := func() {
		for i, c := range cur {
			nu[i][min(c, 5)]++
		}
		cur = [9]int{}
		j++
	}
	for _, b := range bits {
		s += 2*int(b) - 1
		switch {
		case s == 0:
			flush()
		case s >= -4 && s <= 4:
			cur[s+4]++
		}
	}
	if s != 0 {
		flush()
	}
	out := make([]Result, 0, len(states))
	if j < minCycles(len(bits)) {
		for _, x := range states {
			out = append(out, notApplicable("random-excursions", stateName(x)))
		}
		return out
	}
	for _, x := range states {
		ax := math.Abs(float64(x))
		q := 1 - 1/(2*ax)
		probs := make([]float64, 6)
		probs[0] = q
		for k := 1; k <= 4; k++ {
			probs[k] = 1 / (4 * ax * ax) * math.Pow(q, float64(k-1))
		}
		probs[5] = 1 / (2 * ax) * math.Pow(q, 4)
		chi := chiSquare(nu[x+4][:], probs, float64(j))
		out = append(out, result("random-excursions", stateName(x), chi, igamc(2.5, chi/2)))
	}
	return out
}

// RandomExcursionsVariant is the random excursions variant test (§2.15):
// the total number of visits to each state x in -9..-1, 1..9 against the
// number of cycles J. Not applicable under the same condition as
// [RandomExcursions].
func RandomExcursionsVariant(bits []byte) []Result {
	var visits [19]int
	s, j := 0, 0
	for _, b := range bits {
		s += 2*int(b) - 1
		if s == 0 {
			j++
		} else if s >= -9 && s <= 9 {
			visits[s+9]++
		}
	}
	if s != 0 {
		j++
	}
	out := make([]Result, 0, 18)
	for x := -9; x <= 9; x++ {
		if x == 0 {
			continue
		}
		if j < minCycles(len(bits)) {
			out = append(out, notApplicable("random-excursions-variant", stateName(x)))
			continue
		}
		ax := math.Abs(float64(x))
		p := math.Erfc(math.Abs(float64(visits[x+9]-j)) / math.Sqrt(2*float64(j)*(4*ax-2)))
		out = append(out, result("random-excursions-variant", stateName(x), float64(visits[x+9]), p))
	}
	return out
}
