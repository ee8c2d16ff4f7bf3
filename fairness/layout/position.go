package layout

import (
	"fmt"
	"slices"
)

// ordinals are the words for a card's place within a hand, the dealer's
// cards or the flop.
var ordinals = [...]string{"first", "second", "third"}

// Position names position i (0-based) of a round's dealt sequence in words,
// as fairhold verify reports a claimed card (docs/fairness.md, "Naming
// positions"):
//
//	casino-holdem       "player, first hole card", "player, second hole card"
//	live-casino-holdem  "box 2, first hole card", "box 2, second hole card" (boxes in play, from 1)
//	double-holdem       "seat 7, first hole card" .. "seat 7, third hole card" (the seat number)
//	every game          "dealer, first card", "dealer, second card",
//	                    "flop, first card" .. "flop, third card", "turn", "river"
//	no layout           "card 1", "card 2", ... (i + 1)
//
// l nil names the raw sequence. seats are the Double Hold'em seat numbers
// in dealing order ([SeatOrder]); without them a Double Hold'em hand is
// "player k" (k-th in dealing order, from 1). A position outside the
// layout (i < 0 or i >= l.Count) is named as in the raw sequence.
func Position(l *Layout, seats []int, i int) string {
	raw := fmt.Sprintf("card %d", i+1)
	if l == nil || i < 0 || i >= l.Count {
		return raw
	}
	for k, h := range l.Hands {
		if j := slices.Index(h, i); j >= 0 {
			var who string
			switch {
			case l.Game == CasinoHoldem:
				who = "player"
			case l.Game == LiveCasinoHoldem:
				who = fmt.Sprintf("box %d", k+1)
			case len(seats) == len(l.Hands):
				who = fmt.Sprintf("seat %d", seats[k])
			default:
				who = fmt.Sprintf("player %d", k+1)
			}
			return who + ", " + ordinals[j] + " hole card"
		}
	}
	if j := slices.Index(l.Dealer, i); j >= 0 {
		return "dealer, " + ordinals[j] + " card"
	}
	if j := slices.Index(l.Flop[:], i); j >= 0 {
		return "flop, " + ordinals[j] + " card"
	}
	switch i {
	case l.Turn:
		return "turn"
	case l.River:
		return "river"
	}
	return raw
}

// Positions names the positions 0..n-1 ([Position]).
func Positions(l *Layout, seats []int, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = Position(l, seats, i)
	}
	return out
}
