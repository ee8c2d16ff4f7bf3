// Package layout defines each game's dealing order: how many cards a round
// deals and which positions of the dealt sequence go to each box or seat,
// the dealer, the flop, the turn and the river (docs/fairness.md, "Dealing
// order").
//
// The scheme deals a sequence of cards c[0], c[1], ... (the first cards of
// the shuffled deck). There are no burn cards. The games take them in
// consecutive blocks:
//
//	casino-holdem        player c[0..1], dealer c[2..3], flop c[4..6], turn c[7], river c[8]   (9 cards)
//	live-casino-holdem   box 1 c[0..1], box 2 c[2..3], ... box b c[2b-2..2b-1] (b = 1..6 boxes
//	                     in play, in box order), then dealer, flop, turn, river  (2b + 7 cards)
//	double-holdem        3 hole cards per seated player, players in dealing order, then flop,
//	                     turn, river  (3s + 5 cards, s = 2..10 players)
//
// The Double Hold'em dealing order starts with the first occupied seat to
// the left of the button (clockwise: the next higher seat number, wrapping
// from the highest seat to seat 1) and ends with the button; [DealingOrder]
// computes it from the seat numbers and the button's seat. A seat's three
// hole cards are its "left, middle, right" cards in dealing order.
//
// Start with [For].
package layout

import (
	"errors"
	"fmt"
	"slices"
)

// Game names, as in the round logs.
const (
	CasinoHoldem     = "casino-holdem"
	LiveCasinoHoldem = "live-casino-holdem"
	DoubleHoldem     = "double-holdem"
)

// Limits on the number of hands.
const (
	MaxBoxes   = 6  // live-casino-holdem
	MinSeats   = 2  // double-holdem
	MaxSeats   = 10 // double-holdem
	BoardCards = 5
)

// ErrGame is wrapped by errors for an unknown game or a number of hands the
// game does not allow.
var ErrGame = errors.New("invalid game layout")

// Layout is the dealing order of one round. Every field holds positions in
// the dealt sequence (0-based).
type Layout struct {
	Game  string
	Count int // number of cards the round deals
	// Hands[k] holds the positions of the k-th hand in dealing order: the
	// player (casino-holdem), box k+1 (live-casino-holdem), or the k-th
	// seated player from the left of the button (double-holdem).
	Hands  [][]int
	Dealer []int // the dealer's 2 cards; nil for double-holdem
	Flop   [3]int
	Turn   int
	River  int
}

// Games returns the game names, sorted.
func Games() []string { return []string{CasinoHoldem, DoubleHoldem, LiveCasinoHoldem} }

// For returns the layout of game with hands boxes or seated players:
// exactly 1 for casino-holdem, 1..6 for live-casino-holdem, 2..10 for
// double-holdem.
func For(game string, hands int) (Layout, error) {
	var per, lo, hi int
	dealer := false
	switch game {
	case CasinoHoldem:
		per, lo, hi, dealer = 2, 1, 1, true
	case LiveCasinoHoldem:
		per, lo, hi, dealer = 2, 1, MaxBoxes, true
	case DoubleHoldem:
		per, lo, hi = 3, MinSeats, MaxSeats
	default:
		return Layout{}, fmt.Errorf("%w: unknown game %q (known: %v)", ErrGame, game, Games())
	}
	if hands < lo || hands > hi {
		return Layout{}, fmt.Errorf("%w: %s deals to %d..%d hands, got %d", ErrGame, game, lo, hi, hands)
	}
	l := Layout{Game: game, Hands: make([][]int, hands)}
	pos := 0
	take := func(n int) []int {
		p := make([]int, n)
		for i := range p {
			p[i] = pos
			pos++
		}
		return p
	}
	for k := range l.Hands {
		l.Hands[k] = take(per)
	}
	if dealer {
		l.Dealer = take(2)
	}
	copy(l.Flop[:], take(3))
	l.Turn = take(1)[0]
	l.River = take(1)[0]
	l.Count = pos
	return l, nil
}

// Board returns the positions of the five community cards: flop, turn,
// river.
func (l Layout) Board() []int {
	return []int{l.Flop[0], l.Flop[1], l.Flop[2], l.Turn, l.River}
}

// Cards is a round's cards split by the layout.
type Cards[T any] struct {
	Hands  [][]T
	Dealer []T
	Flop   []T
	Turn   T
	River  T
}

// Split splits dealt (at least l.Count cards) by the layout.
func Split[T any](l Layout, dealt []T) (Cards[T], error) {
	if len(dealt) < l.Count {
		return Cards[T]{}, fmt.Errorf("%w: %s needs %d cards, got %d", ErrGame, l.Game, l.Count, len(dealt))
	}
	pick := func(ps []int) []T {
		out := make([]T, len(ps))
		for i, p := range ps {
			out[i] = dealt[p]
		}
		return out
	}
	c := Cards[T]{Hands: make([][]T, len(l.Hands)), Flop: pick(l.Flop[:]), Turn: dealt[l.Turn], River: dealt[l.River]}
	for k, h := range l.Hands {
		c.Hands[k] = pick(h)
	}
	if l.Dealer != nil {
		c.Dealer = pick(l.Dealer)
	}
	return c, nil
}

// TableError is a Double Hold'em table that [SeatOrder] rejects: Field is
// "seats" or "button", the input at fault. It wraps [ErrGame].
type TableError struct {
	Field  string
	Reason string
}

func (e *TableError) Error() string { return e.Field + ": " + e.Reason }

// Unwrap returns [ErrGame].
func (e *TableError) Unwrap() error { return ErrGame }

// SeatOrder is [DealingOrder] for input that a verifier reads (flags,
// vectors): the occupied seats must be listed in increasing seat-number
// order, the order of the client seeds (docs/fairness.md, "Dealing
// order"), and the button must be one of them. It rejects an unsorted or
// repeated list, a seat outside 1..10 and fewer than 2 or more than 10
// seats (Field "seats"), and a missing (0) or unoccupied button (Field
// "button").
func SeatOrder(seats []int, button int) ([]int, error) {
	if len(seats) < MinSeats || len(seats) > MaxSeats {
		return nil, &TableError{"seats", fmt.Sprintf("%d seated players, want %d..%d", len(seats), MinSeats, MaxSeats)}
	}
	for i, v := range seats {
		if v < 1 || v > MaxSeats {
			return nil, &TableError{"seats", fmt.Sprintf("seat %d, want 1..%d", v, MaxSeats)}
		}
		if i > 0 && seats[i-1] >= v {
			return nil, &TableError{"seats", fmt.Sprintf("seat %d listed after seat %d: list each occupied seat once, in increasing order", v, seats[i-1])}
		}
	}
	if button == 0 {
		return nil, &TableError{"button", "no button seat: give the seat of the button, one of the occupied seats"}
	}
	if !slices.Contains(seats, button) {
		return nil, &TableError{"button", fmt.Sprintf("button seat %d is not occupied", button)}
	}
	return DealingOrder(seats, button)
}

// DealingOrder returns the seat numbers of a Double Hold'em table in
// dealing order: the first occupied seat to the left of the button
// (the next higher seat number, wrapping to the lowest), clockwise, ending
// with the button. seats are the occupied seat numbers (any order, 1..10,
// no repeats); button must be one of them.
func DealingOrder(seats []int, button int) ([]int, error) {
	if len(seats) < MinSeats || len(seats) > MaxSeats {
		return nil, fmt.Errorf("%w: %d seated players, want %d..%d", ErrGame, len(seats), MinSeats, MaxSeats)
	}
	s := slices.Clone(seats)
	slices.Sort(s)
	for i, v := range s {
		if v < 1 || v > MaxSeats {
			return nil, fmt.Errorf("%w: seat %d, want 1..%d", ErrGame, v, MaxSeats)
		}
		if i > 0 && s[i-1] == v {
			return nil, fmt.Errorf("%w: seat %d listed twice", ErrGame, v)
		}
	}
	b := slices.Index(s, button)
	if b < 0 {
		return nil, fmt.Errorf("%w: button seat %d is not occupied", ErrGame, button)
	}
	out := make([]int, 0, len(s))
	for i := 1; i <= len(s); i++ {
		out = append(out, s[(b+i)%len(s)])
	}
	return out, nil
}
