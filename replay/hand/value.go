// Package hand evaluates poker hands: the best five cards out of five, six
// or seven.
//
// The result of an evaluation is a [Value]. Values order hands exactly:
// a higher value is a better hand and equal values split the pot. Only the
// best five cards count and suits never break ties. There are 7,462
// distinct values, one for each class of five-card hands.
//
// A Value packs the [Category] in its top four bits and the hand's rank
// within the category (0 = the weakest hand of the category) in the low
// twelve bits. The royal flush is a category of its own, above the
// straight flush, because paytables pay it separately.
//
// Start with [Eval7] or [Eval] for the value, [Value.Category] for the
// category and [BestFive] for the five cards a report shows. Code that
// evaluates many hands sharing cards (a board and many pairs of hole
// cards) builds a [Key] for the shared cards once and adds the rest.
//
// # Method
//
// Evaluation is two additions per card and two or three table look-ups
// per hand (docs/evaluator.md): a [Key] sums per-card rank multipliers,
// chosen so that every multiset of up to seven ranks has its own sum, and
// counts the cards of each suit; a flush is read from a table indexed by
// the flush suit's 13-bit rank mask, anything else from a table indexed by
// a perfect hash of the rank sum. The tables are built at first use, in
// a few milliseconds, from direct formulas for each category (classes.go).
//
// # Exactness
//
// [RefEval] is a slow evaluator written from the rules (the best of every
// five-card subset). The tests compare the fast evaluator with it on every
// 5-card hand and on random 6- and 7-card hands, and compare the
// exhaustive counts of [Census5] and [Census7] with the published figures.
package hand

import (
	"fmt"

	"github.com/fairhold/fairhold/replay/card"
)

// Category is a poker hand category, from [HighCard] (1) to [RoyalFlush] (10).
type Category uint8

// Categories, weakest first.
const (
	HighCard Category = iota + 1
	OnePair
	TwoPair
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
	RoyalFlush
)

// NumCategories is the number of categories.
const NumCategories = 10

var categoryNames = [...]string{"", "high-card", "one-pair", "two-pair", "three-of-a-kind",
	"straight", "flush", "full-house", "four-of-a-kind", "straight-flush", "royal-flush"}

// Categories returns all categories, weakest first.
func Categories() []Category {
	out := make([]Category, NumCategories)
	for i := range out {
		out[i] = Category(i + 1)
	}
	return out
}

// String returns the category's name in kebab case, e.g. "full-house".
// These names are used in JSON output and rules profiles.
func (c Category) String() string {
	if c == 0 || int(c) >= len(categoryNames) {
		return fmt.Sprintf("Category(%d)", uint8(c))
	}
	return categoryNames[c]
}

// ParseCategory parses a name returned by [Category.String].
func ParseCategory(s string) (Category, bool) {
	for i := 1; i < len(categoryNames); i++ {
		if categoryNames[i] == s {
			return Category(i), true
		}
	}
	return 0, false
}

// Value is the strength of a hand; higher is better. The zero Value is no
// hand and is lower than every hand.
type Value uint16

const ordinalBits = 12

// Category returns the value's hand category.
func (v Value) Category() Category { return Category(v >> ordinalBits) }

// Ordinal returns the rank of the hand within its category, 0 for the
// weakest hand of the category.
func (v Value) Ordinal() int { return int(v & (1<<ordinalBits - 1)) }

// Valid reports whether v is the value of some five-card hand.
func (v Value) Valid() bool {
	c := v.Category()
	return c >= HighCard && c <= RoyalFlush && v.Ordinal() < int(classesPerCategory[c])
}

// classesPerCategory is the number of distinct five-card hands of each
// category (reference README §1).
var classesPerCategory = [NumCategories + 1]uint16{0, 1277, 2860, 858, 858, 10, 1277, 156, 156, 9, 1}

// ClassCount returns the number of distinct values in the category.
func ClassCount(c Category) int {
	if c < HighCard || c > RoyalFlush {
		return 0
	}
	return int(classesPerCategory[c])
}

// CactusKev returns the hand's number in Kevin Suffecool's scheme: 1 for a
// royal flush up to 7,462 for the worst high card (7-5-4-3-2).
func (v Value) CactusKev() int {
	n := 0
	for c := v.Category() + 1; c <= RoyalFlush; c++ {
		n += int(classesPerCategory[c])
	}
	return n + int(classesPerCategory[v.Category()]) - v.Ordinal()
}

// FromCactusKev is the inverse of [Value.CactusKev]; it returns false
// outside 1..7462.
func FromCactusKev(n int) (Value, bool) {
	if n < 1 || n > 7462 {
		return 0, false
	}
	for c := RoyalFlush; c >= HighCard; c-- {
		k := int(classesPerCategory[c])
		if n <= k {
			return Value(uint16(c)<<ordinalBits | uint16(k-n)), true
		}
		n -= k
	}
	return 0, false
}

// String describes the value, e.g. "full-house #120".
func (v Value) String() string {
	if !v.Valid() {
		return fmt.Sprintf("Value(%d)", uint16(v))
	}
	return fmt.Sprintf("%s #%d", v.Category(), v.Ordinal())
}

// MinOfCategory returns the lowest value of category c, so that
// v >= MinOfCategory(Flush) means "a flush or better".
func MinOfCategory(c Category) Value { return Value(uint16(c) << ordinalBits) }

// MinPair returns the value of the weakest one-pair hand with a pair of
// rank r (the kickers as low as they can be), so that v >= MinPair(card.Four)
// means "a pair of fours or better" and v >= MinPair(card.Ace) means "a
// pair of aces or better". r must be a valid rank.
func MinPair(r card.Rank) Value {
	// One-pair ordinals are 220*pair + the rank of the kickers, 0 for the
	// lowest kickers (see classes.go).
	return makeValue(OnePair, 220*uint16(r))
}
