package nist

import (
	"math"
	"math/bits"
)

// linearComplexityProbs are the probabilities of the seven classes of the
// linear complexity test's statistic T, the limits as the block length
// grows: 1/96, 1/32, 1/8, 1/2, 1/4, 1/16, 1/48 (the document rounds the
// first to 0.010417 and NIST's code uses 0.01047).
var linearComplexityProbs = []float64{1.0 / 96, 1.0 / 32, 1.0 / 8, 1.0 / 2, 1.0 / 4, 1.0 / 16, 1.0 / 48}

// LinearComplexity is the linear complexity test (§2.10) on blocks of m
// bits, the complexity of each found by Berlekamp-Massey.
func LinearComplexity(seq []byte, m int) Result {
	n := len(seq) / m
	fm := float64(m)
	sign := 1.0
	if m%2 == 1 {
		sign = -1
	}
	mean := fm/2 + (9+(-sign))/36 - (fm/3+2.0/9)/math.Exp2(fm)
	obs := make([]int, 7)
	bm := newBerlekampMassey(m)
	for i := range n {
		l := bm.complexity(seq[i*m : (i+1)*m])
		t := sign*(float64(l)-mean) + 2.0/9
		var c int
		switch {
		case t <= -2.5:
			c = 0
		case t <= -1.5:
			c = 1
		case t <= -0.5:
			c = 2
		case t <= 0.5:
			c = 3
		case t <= 1.5:
			c = 4
		case t <= 2.5:
			c = 5
		default:
			c = 6
		}
		obs[c]++
	}
	chi := chiSquare(obs, linearComplexityProbs, float64(n))
	return result("linear-complexity", "", chi, igamc(3, chi/2))
}

// berlekampMassey computes linear complexities of bit blocks of a fixed
// maximum length with polynomials packed 64 coefficients to a word.
type berlekampMassey struct {
	c, b, t, r []uint64
}

func newBerlekampMassey(m int) *berlekampMassey {
	w := (m+1)/64 + 2
	return &berlekampMassey{
		c: make([]uint64, w), b: make([]uint64, w), t: make([]uint64, w), r: make([]uint64, w),
	}
}

// complexity returns the length of the shortest LFSR generating s.
func (bm *berlekampMassey) complexity(s []byte) int {
	c, b, t, r := bm.c, bm.b, bm.t, bm.r
	clear(c)
	clear(b)
	clear(r)
	c[0], b[0] = 1, 1
	l, last := 0, -1
	for n, sn := range s {
		// r holds s_n, s_{n-1}, ..., s_0 at bits 0, 1, ..., n.
		shiftLeft1(r)
		r[0] |= uint64(sn)
		var d uint64
		for i := range c {
			d ^= c[i] & r[i]
		}
		if bits.OnesCount64(d)&1 == 0 {
			continue
		}
		copy(t, c)
		xorShifted(c, b, n-last)
		if l <= n/2 {
			l = n + 1 - l
			last = n
			copy(b, t)
		}
	}
	return l
}

// shiftLeft1 multiplies the packed polynomial x by z (drops the top bit).
func shiftLeft1(x []uint64) {
	for i := len(x) - 1; i > 0; i-- {
		x[i] = x[i]<<1 | x[i-1]>>63
	}
	x[0] <<= 1
}

// xorShifted sets dst ^= src * z^k (bits shifted past the end are dropped).
func xorShifted(dst, src []uint64, k int) {
	ws, bs := k/64, uint(k%64)
	for i := len(dst) - 1; i >= ws; i-- {
		v := src[i-ws] << bs
		if bs != 0 && i-ws-1 >= 0 {
			v |= src[i-ws-1] >> (64 - bs)
		}
		dst[i] ^= v
	}
}
