package nist

import "math"

// Maurer's universal statistical test constants: the smallest sequence
// length for each block length L (6..16), and the expected value and
// variance of the statistic for each L (SP 800-22 §2.9.4 and §3.9).
var (
	universalMinN = []int{6: 387840, 7: 904960, 8: 2068480, 9: 4654080, 10: 10342400,
		11: 22753280, 12: 49643520, 13: 107560960, 14: 231669760, 15: 496435200, 16: 1059061760}
	universalExpected = []float64{6: 5.2177052, 7: 6.1962507, 8: 7.1836656, 9: 8.1764248,
		10: 9.1723243, 11: 10.170032, 12: 11.168765, 13: 12.168070, 14: 13.167693, 15: 14.167488, 16: 15.167379}
	universalVariance = []float64{6: 2.954, 7: 3.125, 8: 3.238, 9: 3.311, 10: 3.356,
		11: 3.384, 12: 3.401, 13: 3.410, 14: 3.416, 15: 3.419, 16: 3.421}
)

// Universal is Maurer's "universal statistical" test (§2.9) with the block
// length L NIST prescribes for the sequence length and Q = 10 * 2^L
// initialisation blocks.
func Universal(bits []byte) Result {
	n := len(bits)
	l := 6
	for l < 16 && n >= universalMinN[l+1] {
		l++
	}
	q := 10 << l
	k := n/l - q
	table := make([]int, 1<<l)
	block := func(i int) int { // i counts from 1
		v := 0
		for _, b := range bits[(i-1)*l : i*l] {
			v = v<<1 | int(b)
		}
		return v
	}
	for i := 1; i <= q; i++ {
		table[block(i)] = i
	}
	var sum float64
	for i := q + 1; i <= q+k; i++ {
		v := block(i)
		sum += math.Log2(float64(i - table[v]))
		table[v] = i
	}
	fn := sum / float64(k)
	fl, fk := float64(l), float64(k)
	c := 0.7 - 0.8/fl + (4+32/fl)*math.Pow(fk, -3/fl)/15
	sigma := c * math.Sqrt(universalVariance[l]/fk)
	p := math.Erfc(math.Abs(fn-universalExpected[l]) / (math.Sqrt2 * sigma))
	return result("universal", "", fn, p)
}
