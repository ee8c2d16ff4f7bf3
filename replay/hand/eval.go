package hand

import (
	"fmt"

	"github.com/fairhold/fairhold/replay/card"
)

// Eval7 returns the value of the best five of seven distinct cards.
// The cards must be distinct and valid; that is not checked.
func Eval7(cs [7]card.Card) Value { return eval7(&cs) }

// eval7 is Eval7 behind a pointer: Eval7 stays small enough to inline, so
// that callers do not copy the array through the stack twice (which costs
// a store-forwarding stall per call).
func eval7(cs *[7]card.Card) Value {
	return Key{}.Add(cs[0]).Add(cs[1]).Add(cs[2]).Add(cs[3]).Add(cs[4]).Add(cs[5]).Add(cs[6]).Value()
}

// Eval5 returns the value of five distinct cards.
func Eval5(cs [5]card.Card) Value { return eval5(&cs) }

func eval5(cs *[5]card.Card) Value {
	return Key{}.Add(cs[0]).Add(cs[1]).Add(cs[2]).Add(cs[3]).Add(cs[4]).Value()
}

// Eval returns the value of the best five of 5, 6 or 7 distinct cards. It
// returns an error for other counts, duplicates or invalid cards.
func Eval(cs ...card.Card) (Value, error) {
	if len(cs) < 5 || len(cs) > 7 {
		return 0, fmt.Errorf("hand: got %d cards, want 5, 6 or 7", len(cs))
	}
	if err := card.CheckDistinct(cs); err != nil {
		return 0, fmt.Errorf("hand: %w", err)
	}
	var k Key
	for _, c := range cs {
		k = k.Add(c)
	}
	return k.Value(), nil
}

// BestFive returns the five cards that make the best hand out of 5 to 7
// distinct cards, ordered as a report shows them (the cards that make the
// category first, higher ranks first; a wheel ends with the ace), and its
// value. Among equal-valued choices it takes the first in subset order of
// the input.
func BestFive(cs []card.Card) ([5]card.Card, Value, error) {
	var best [5]card.Card
	v, err := Eval(cs...)
	if err != nil {
		return best, 0, err
	}
	n := len(cs)
	var sub [5]card.Card
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					for e := d + 1; e < n; e++ {
						sub[0], sub[1], sub[2], sub[3], sub[4] = cs[a], cs[b], cs[c], cs[d], cs[e]
						if Eval5(sub) == v {
							best = sub
							orderForDisplay(best[:], v.Category())
							return best, v, nil
						}
					}
				}
			}
		}
	}
	return best, v, fmt.Errorf("hand: internal error: no five-card subset has value %v", v)
}

// orderForDisplay sorts five cards: larger rank groups first, then higher
// rank, then higher suit; a five-high straight puts the ace last.
func orderForDisplay(cs []card.Card, cat Category) {
	var counts [13]int
	for _, c := range cs {
		counts[c.Rank()]++
	}
	less := func(x, y card.Card) bool {
		if counts[x.Rank()] != counts[y.Rank()] {
			return counts[x.Rank()] > counts[y.Rank()]
		}
		if x.Rank() != y.Rank() {
			return x.Rank() > y.Rank()
		}
		return x.Suit() > y.Suit()
	}
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && less(cs[j], cs[j-1]); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
	if (cat == Straight || cat == StraightFlush) && cs[0].Rank() == card.Ace && cs[1].Rank() == card.Five {
		ace := cs[0]
		copy(cs, cs[1:])
		cs[4] = ace
	}
}
