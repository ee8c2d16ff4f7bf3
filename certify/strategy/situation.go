package strategy

import (
	"math/bits"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

// situation is what a rule can see: the player's two hole cards and the
// flop, and the features the vocabulary is defined on, computed once.
type situation struct {
	hole [2]card.Card
	flop [3]card.Card

	value hand.Value // the five cards hole + flop
	cat   hand.Category

	rankCount [13]uint8 // of the five cards
	flopCount [13]uint8 // of the flop
	flopMax   card.Rank // highest flop rank

	// flushHole is the number of hole cards in the suit of a four-card
	// flush (four of the five cards of one suit), 0 if there is none.
	flushHole uint8
	// straightOuts is the number of ranks that would complete a straight
	// using at least one hole card; 0 when the five cards already make a
	// straight or better.
	straightOuts uint8

	// canonHole and canonFlop are the representative of the decision
	// state (see [exact.Canonical]), when canonKnown.
	canonKnown bool
	canonHole  [2]card.Card
	canonFlop  [3]card.Card
}

// canonical returns the representative of the situation's decision state.
func (s *situation) canonical() ([2]card.Card, [3]card.Card) {
	if !s.canonKnown {
		s.canonHole, s.canonFlop = exact.Canonical(s.hole, s.flop)
		s.canonKnown = true
	}
	return s.canonHole, s.canonFlop
}

// newSituation computes the features of hole + flop; the five cards must
// be distinct.
func newSituation(hole [2]card.Card, flop [3]card.Card) situation {
	s := situation{hole: hole, flop: flop}
	five := [5]card.Card{hole[0], hole[1], flop[0], flop[1], flop[2]}
	s.value = hand.Eval5(five)
	s.cat = s.value.Category()
	var suitCount [4]uint8
	for _, c := range five {
		s.rankCount[c.Rank()]++
		suitCount[c.Suit()]++
	}
	for _, c := range flop {
		s.flopCount[c.Rank()]++
		s.flopMax = max(s.flopMax, c.Rank())
	}
	for suit, n := range suitCount {
		if n == 4 {
			for _, c := range hole {
				if c.Suit() == card.Suit(suit) {
					s.flushHole++
				}
			}
		}
	}
	if s.cat < hand.Straight {
		s.straightOuts = straightOuts(&s.rankCount, hole[0].Rank(), hole[1].Rank())
	}
	return s
}

// straightOuts counts the ranks r absent from the five cards such that some
// five consecutive ranks (the ace also below the two) contain r and four
// present ranks, one of them a hole rank.
func straightOuts(count *[13]uint8, h0, h1 card.Rank) uint8 {
	// Extended rank masks: bit 0 is the ace played low, bits 1..13 the two
	// to the ace.
	var present uint16
	for r, n := range count {
		if n > 0 {
			present |= extBit(card.Rank(r))
		}
	}
	hole := extBit(h0) | extBit(h1)
	var outs uint16 // completing ranks, as extended bits (the ace as bit 13)
	for low := 0; low <= 9; low++ {
		window := uint16(0x1f) << low
		missing := window &^ present
		if bits.OnesCount16(missing) == 1 && present&window&hole != 0 {
			if missing == 1 {
				missing = 1 << 13 // the ace
			}
			outs |= missing
		}
	}
	return uint8(bits.OnesCount16(outs))
}

// extBit returns the extended rank bits of r: the ace is both bit 0 and
// bit 13.
func extBit(r card.Rank) uint16 {
	if r == card.Ace {
		return 1 | 1<<13
	}
	return 1 << (r + 1)
}

// kicker returns the highest hole card whose rank appears nowhere else in
// the five cards, and whether there is one.
func (s *situation) kicker() (card.Rank, bool) {
	var best card.Rank
	found := false
	for _, c := range s.hole {
		if s.rankCount[c.Rank()] == 1 && (!found || c.Rank() > best) {
			best, found = c.Rank(), true
		}
	}
	return best, found
}
