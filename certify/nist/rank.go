package nist

import (
	"math"
)

// rankSize is the side of the binary matrices of the rank test.
const rankSize = 32

// Rank is the binary matrix rank test (§2.5) on disjoint 32 x 32 matrices
// filled row by row, with the exact probabilities of full rank, rank 31 and
// rank <= 30.
func Rank(seq []byte) Result {
	n := len(seq) / (rankSize * rankSize)
	obs := make([]int, 3)
	var rows [rankSize]uint32
	for k := range n {
		blk := seq[k*rankSize*rankSize:]
		for r := range rows {
			var v uint32
			for _, b := range blk[r*rankSize : (r+1)*rankSize] {
				v = v<<1 | uint32(b)
			}
			rows[r] = v
		}
		switch rankGF2(rows) {
		case rankSize:
			obs[0]++
		case rankSize - 1:
			obs[1]++
		default:
			obs[2]++
		}
	}
	p32, p31 := rankProb(rankSize, rankSize, rankSize), rankProb(rankSize, rankSize, rankSize-1)
	probs := []float64{p32, p31, 1 - p32 - p31}
	chi := chiSquare(obs, probs, float64(n))
	return result("rank", "", chi, igamc(1, chi/2))
}

// rankGF2 is the rank over GF(2) of the matrix whose rows are rows.
func rankGF2(rows [rankSize]uint32) int {
	r := 0
	for col := rankSize - 1; col >= 0 && r < rankSize; col-- {
		bit := uint32(1) << col
		piv := -1
		for i := r; i < rankSize; i++ {
			if rows[i]&bit != 0 {
				piv = i
				break
			}
		}
		if piv < 0 {
			continue
		}
		rows[r], rows[piv] = rows[piv], rows[r]
		for i := range rankSize {
			if i != r && rows[i]&bit != 0 {
				rows[i] ^= rows[r]
			}
		}
		r++
	}
	return r
}

// rankProb is the probability that a random m x q matrix over GF(2) has
// rank r: 2^(r(q+m-r)-mq) prod_{i<r} (1-2^(i-q))(1-2^(i-m))/(1-2^(i-r)).
func rankProb(m, q, r int) float64 {
	p := math.Exp2(float64(r*(q+m-r) - m*q))
	for i := range r {
		p *= (1 - math.Exp2(float64(i-q))) * (1 - math.Exp2(float64(i-m))) / (1 - math.Exp2(float64(i-r)))
	}
	return p
}
