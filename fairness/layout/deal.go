package layout

import "fmt"

// Deal is a round's cards by position, by name ("As", "Td"): the cards of
// `fairhold deal` and `fairhold verify` in their JSON. Only the positions of
// the round's game are set; a round without a layout has Draws only.
type Deal struct {
	// Draws are the cards in dealing order, for a round without a layout.
	Draws []string `json:"draws,omitempty"`
	// Player is the player's two cards (casino-holdem).
	Player []string `json:"player,omitempty"`
	// Boxes are the boxes' two cards each, box 1 first (live-casino-holdem).
	Boxes [][]string `json:"boxes,omitempty"`
	// Seats are the seated players' three cards each, in dealing order
	// (double-holdem).
	Seats []Seat `json:"seats,omitempty"`
	// Dealer is the dealer's two cards; none in double-holdem.
	Dealer []string `json:"dealer,omitempty"`
	// Flop, Turn and River are the board.
	Flop  []string `json:"flop,omitempty"`
	Turn  string   `json:"turn,omitempty"`
	River string   `json:"river,omitempty"`
}

// Seat is a Double Hold'em seat's hole cards.
type Seat struct {
	// Seat is the seat number, 1..10.
	Seat int `json:"seat"`
	// Cards are its three hole cards in dealing order.
	Cards []string `json:"cards"`
}

// NewDeal arranges the names of the dealt cards by l. A nil l gives the
// cards as Draws. seats are the seat numbers in dealing order
// ([DealingOrder]), for double-holdem only.
func NewDeal(l *Layout, seats []int, names []string) (Deal, error) {
	if l == nil {
		return Deal{Draws: names}, nil
	}
	cs, err := Split(*l, names)
	if err != nil {
		return Deal{}, err
	}
	d := Deal{Dealer: cs.Dealer, Flop: cs.Flop, Turn: cs.Turn, River: cs.River}
	switch l.Game {
	case CasinoHoldem:
		d.Player = cs.Hands[0]
	case LiveCasinoHoldem:
		d.Boxes = cs.Hands
	case DoubleHoldem:
		if len(seats) != len(cs.Hands) {
			return Deal{}, fmt.Errorf("%w: %d seat numbers for %d hands", ErrGame, len(seats), len(cs.Hands))
		}
		for i, h := range cs.Hands {
			d.Seats = append(d.Seats, Seat{Seat: seats[i], Cards: h})
		}
	}
	return d, nil
}
