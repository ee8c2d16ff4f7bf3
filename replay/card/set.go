package card

import "math/bits"

// Set is a set of cards as a bit set: bit i is set when card i is present.
type Set uint64

// FullDeck is the set of all 52 cards.
const FullDeck Set = 1<<DeckSize - 1

// SetOf returns the set of the given cards.
func SetOf(cs ...Card) Set {
	var s Set
	for _, c := range cs {
		s |= 1 << c
	}
	return s
}

// Has reports whether c is in the set.
func (s Set) Has(c Card) bool { return s&(1<<c) != 0 }

// Add returns the set with c added.
func (s Set) Add(c Card) Set { return s | 1<<c }

// Remove returns the set without c.
func (s Set) Remove(c Card) Set { return s &^ (1 << c) }

// Len returns the number of cards in the set.
func (s Set) Len() int { return bits.OnesCount64(uint64(s)) }

// Cards returns the cards in ascending canonical order.
func (s Set) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for v := uint64(s); v != 0; v &= v - 1 {
		out = append(out, Card(bits.TrailingZeros64(v)))
	}
	return out
}

// String returns the cards in canonical notation, separated by spaces.
func (s Set) String() string { return Format(s.Cards()) }
