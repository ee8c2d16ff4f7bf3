package hand

import (
	"math/bits"

	"github.com/fairhold/fairhold/replay/card"
)

// Key is an incremental evaluation state: start from the zero Key, Add
// cards one at a time, and ask for the Value once it holds 5 to 7 cards.
// Keys for shared prefixes (a board, say) can be computed once and reused:
// Add is one addition and one OR, Value two or three table look-ups.
// Adding a card twice, an invalid card, or more than seven cards gives a
// meaningless value. Keys are comparable: equal keys hold the same cards.
//
// A Key is two words (docs/evaluator.md has the details):
//
//   - sum: the low 32 bits are the sum of the rank multipliers of its
//     cards (distinct for every multiset of up to seven ranks); bits
//     32+4s .. 35+4s count the cards of suit s.
//   - masks: bits 16s .. 16s+12 are the ranks held in suit s.
type Key struct {
	sum   uint64
	masks uint64
}

// Add returns the key with card c added.
func (k Key) Add(c card.Card) Key {
	return Key{sum: k.sum + cardSum[c&63], masks: k.masks | cardMask[c&63]}
}

// Value returns the value of the best five cards of the key's 5 to 7
// cards.
func (k Key) Value() Value {
	if !ready.Load() {
		setUp()
	}
	return k.value()
}

// Cards returns how many cards the key holds.
func (k Key) Cards() int { return bits.OnesCount64(k.masks) }

// Suit counters start at 3 (suitBias, added when the key is read, so that
// the zero Key is empty), so a suit with five or more cards has bit 3 of
// its nibble set: one AND finds a flush.
const (
	suitShift = 32
	suitBias  = 0x3333 << suitShift
	flushBits = 0x8888 << suitShift
)

// value is Value without the set-up check; the tables must be ready.
func (k Key) value() Value {
	if f := (k.sum + suitBias) & flushBits; f != 0 {
		// The lowest bit of f is bit 35+4s for the flush suit s.
		shift := uint(bits.TrailingZeros64(f)-35) * 4
		return flushTable[k.masks>>shift&(1<<rankMaskBits-1)]
	}
	return rankValue(uint32(k.sum))
}

// rankValue is the value of the hand with rank sum r and no flush.
func rankValue(r uint32) Value {
	return rankTable[(r&colMask+rowOffset[r>>rowShift&rowMask])&tableMask]
}

// rankMul is the rank multiplier of each rank, deuce first: the sums of
// every multiset of up to seven ranks with at most four of a rank are
// distinct. They were found by the greedy search in internal/mulsearch
// (go run ./replay/hand/internal/mulsearch) and are re-checked by
// TestRankMultipliersDistinct.
var rankMul = [13]uint32{1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520}

// maxRankSum is the largest rank sum of seven cards: four aces and three
// kings.
const maxRankSum = 4*3453520 + 3*1526359

// cardSum[c] is card c's rank multiplier plus one in its suit counter;
// cardMask[c] is its bit in its suit's rank mask. Indices 52..63 are zero
// so that a masked index needs no bounds check.
var cardSum, cardMask = cardKeys()

func cardKeys() (sum, mask [64]uint64) {
	for c := card.Card(0); c < card.DeckSize; c++ {
		sum[c] = uint64(rankMul[c.Rank()]) + 1<<(suitShift+4*uint(c.Suit()))
		mask[c] = 1 << (16*uint(c.Suit()) + uint(c.Rank()))
	}
	return sum, mask
}
