package hand

import (
	"math/bits"

	"github.com/fairhold/fairhold/replay/card"
)

// This file numbers the hand classes of each category directly from the
// ranks that break ties, without searching: the fast evaluator's tables
// are filled from it. Within a category the classes are ordered by their
// tie-break ranks compared in order, so a class's ordinal is the number
// of classes of the category that it beats:
//
//	high card, flush    number of non-straight 5-rank sets with a smaller 13-bit rank mask
//	one pair            220*pair + colex rank of the 3 kickers among the other 12 ranks
//	two pair            11*(C(high,2) + low) + kicker among the other 11 ranks
//	three of a kind     66*trips + colex rank of the 2 kickers among the other 12 ranks
//	straight            top rank - 3 (five-high 0 ... ace-high 9)
//	full house          12*trips + pair among the other 12 ranks
//	four of a kind      12*quads + kicker among the other 12 ranks
//	straight flush      top rank - 3 (five-high 0 ... king-high 8)
//	royal flush         0
//
// For sets of equally many ranks, comparing the ranks from the highest
// down is the same as comparing their 13-bit masks as integers, and the
// same as colex order; that is what makes these formulas order-preserving.

const rankMaskBits = 13

// binom[n][k] is n choose k for n < 13, k <= 3.
var binom = func() (b [13][4]uint16) {
	for n := range b {
		b[n][0] = 1
		for k := 1; k < 4 && k <= n; k++ {
			b[n][k] = b[n-1][k-1] + b[n-1][k]
		}
	}
	return b
}()

// straightTop returns the top rank of the highest straight in a 13-bit
// rank mask (card.Five for the wheel), and false if there is none.
func straightTop(mask uint16) (card.Rank, bool) {
	// Bit 0 of m is the ace played low, bit r+1 is rank r.
	m := uint32(mask)<<1 | uint32(mask>>card.Ace&1)
	s := m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4)
	if s == 0 {
		return 0, false
	}
	// Bit i of s: ranks i-1 .. i+3 present, so the top rank is i+3.
	return card.Rank(bits.Len32(s) - 1 + 3), true
}

// topBits keeps the n highest set bits of mask.
func topBits(mask uint16, n int) uint16 {
	for bits.OnesCount16(mask) > n {
		mask &= mask - 1
	}
	return mask
}

// highCardOrdinal[m] is the ordinal of the high-card (or flush) class with
// the five ranks of mask m; it is meaningful only for such masks.
var highCardOrdinal = func() (t [1 << rankMaskBits]uint16) {
	n := uint16(0)
	for m := 0; m < len(t); m++ {
		if bits.OnesCount(uint(m)) != 5 {
			continue
		}
		if _, ok := straightTop(uint16(m)); ok {
			continue
		}
		t[m] = n
		n++
	}
	return t
}()

// below returns how many of the ranks in mask are lower than r: a rank's
// index among the ranks not in mask, when r itself is not in mask.
func below(mask uint16, r card.Rank) uint16 {
	return uint16(bits.OnesCount16(mask & (1<<r - 1)))
}

// colex returns the colex rank of the ranks of mask (at most 3) after
// removing the ranks in skip and closing the gaps.
func colex(mask, skip uint16) uint16 {
	var ord uint16
	k := 1
	for m := mask; m != 0; m &= m - 1 {
		r := card.Rank(bits.TrailingZeros16(m))
		ord += binom[uint16(r)-below(skip, r)][k]
		k++
	}
	return ord
}

func makeValue(c Category, ordinal uint16) Value {
	return Value(uint16(c)<<ordinalBits | ordinal)
}

// flushValue is the value of the best five cards of one suit whose ranks
// are mask (five to seven of them).
func flushValue(mask uint16) Value {
	if top, ok := straightTop(mask); ok {
		if top == card.Ace {
			return makeValue(RoyalFlush, 0)
		}
		return makeValue(StraightFlush, uint16(top)-3)
	}
	return makeValue(Flush, highCardOrdinal[topBits(mask, 5)])
}

// countsValue is the value of the best five of 5 to 7 cards that hold
// no flush, given how many cards there are of each rank.
func countsValue(counts *[13]uint8) Value {
	var present, pairs, trips, quads uint16
	for r, n := range counts {
		if n > 0 {
			present |= 1 << r
		}
		switch n {
		case 2:
			pairs |= 1 << r
		case 3:
			trips |= 1 << r
		case 4:
			quads |= 1 << r
		}
	}
	high := func(m uint16) card.Rank { return card.Rank(bits.Len16(m) - 1) }
	switch {
	case quads != 0:
		q := high(quads)
		k := high(present &^ (1 << q))
		return makeValue(FourOfAKind, 12*uint16(q)+uint16(k)-below(1<<q, k))
	case trips != 0 && (pairs != 0 || bits.OnesCount16(trips) > 1):
		t := high(trips)
		p := high(pairs | trips&^(1<<t))
		return makeValue(FullHouse, 12*uint16(t)+uint16(p)-below(1<<t, p))
	}
	if top, ok := straightTop(present); ok {
		return makeValue(Straight, uint16(top)-3)
	}
	switch {
	case trips != 0:
		t := high(trips)
		return makeValue(ThreeOfAKind, 66*uint16(t)+colex(topBits(present&^trips, 2), trips))
	case bits.OnesCount16(pairs) >= 2:
		two := topBits(pairs, 2)
		k := high(present &^ two)
		return makeValue(TwoPair, 11*colex(two, 0)+uint16(k)-below(two, k))
	case pairs != 0:
		p := high(pairs)
		return makeValue(OnePair, 220*uint16(p)+colex(topBits(present&^pairs, 3), pairs))
	}
	return makeValue(HighCard, highCardOrdinal[topBits(present, 5)])
}
