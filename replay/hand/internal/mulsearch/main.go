// Command mulsearch finds the rank multipliers of the hand evaluator's keys.
//
// A hand's rank key is the sum of one multiplier per card, by rank. The
// evaluator needs every multiset of up to seven ranks, with at most four
// cards of a rank, to have its own sum. mulsearch picks the multipliers
// greedily, deuce first: each is the smallest number above the previous
// one that keeps all sums distinct. It prints them as a Go array literal.
//
//	go run ./replay/hand/internal/mulsearch
//
// The output is pasted into replay/hand/key.go (rankMul); the test
// TestRankMultipliersDistinct re-checks the pasted numbers.
package main

import (
	"fmt"
	"strings"
)

const (
	numRanks = 13
	maxCards = 7
	maxOfOne = 4
)

type multiset struct {
	sum  uint32
	size uint8
}

func main() {
	muls := search()
	parts := make([]string, len(muls))
	for i, m := range muls {
		parts[i] = fmt.Sprint(m)
	}
	fmt.Printf("[13]uint32{%s}\n", strings.Join(parts, ", "))
	fmt.Printf("largest 7-card key: %d\n", 4*muls[12]+3*muls[11])
}

// search returns the greedy multipliers.
func search() []uint32 {
	sets := []multiset{{0, 0}}
	var muls []uint32
	var base, extra bitset
	m := uint32(0)
	for r := 0; r < numRanks; r++ {
		base.reset()
		for _, s := range sets {
			base.add(s.sum)
		}
		for m++; !distinct(sets, m, &base, &extra); m++ {
		}
		muls = append(muls, m)
		var next []multiset
		for _, s := range sets {
			for j := 0; j <= maxOfOne && int(s.size)+j <= maxCards; j++ {
				next = append(next, multiset{s.sum + uint32(j)*m, s.size + uint8(j)})
			}
		}
		sets = next
	}
	return muls
}

// distinct reports whether adding a rank with multiplier m to the
// multisets in sets keeps every sum distinct. base holds the sums in sets,
// which are distinct already. The cheap test (no new sum equals an old
// one) runs first, so that most bad candidates are rejected early.
func distinct(sets []multiset, m uint32, base, extra *bitset) bool {
	for j := 1; j <= maxOfOne; j++ {
		for _, s := range sets {
			if int(s.size)+j <= maxCards && base.has(s.sum+uint32(j)*m) {
				return false
			}
		}
	}
	extra.reset()
	for j := 1; j <= maxOfOne; j++ {
		for _, s := range sets {
			if int(s.size)+j <= maxCards && !extra.add(s.sum+uint32(j)*m) {
				return false
			}
		}
	}
	return true
}

// bitset is a set of uint32 that remembers which words it touched, so
// that reset costs as much as the adds did.
type bitset struct {
	words   []uint64
	touched []uint32
}

func (b *bitset) add(x uint32) bool {
	w := x >> 6
	if int(w) >= len(b.words) {
		grown := make([]uint64, 2*int(w)+1)
		copy(grown, b.words)
		b.words = grown
	}
	bit := uint64(1) << (x & 63)
	if b.words[w]&bit != 0 {
		return false
	}
	if b.words[w] == 0 {
		b.touched = append(b.touched, w)
	}
	b.words[w] |= bit
	return true
}

func (b *bitset) has(x uint32) bool {
	w := x >> 6
	return int(w) < len(b.words) && b.words[w]&(1<<(x&63)) != 0
}

func (b *bitset) reset() {
	for _, w := range b.touched {
		b.words[w] = 0
	}
	b.touched = b.touched[:0]
}
