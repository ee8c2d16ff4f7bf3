package roundlog

import (
	"fmt"

	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/round"
)

// badValue locates one invalid value of an assembled round: the column
// ("table.column"), the index of the child row within the round (-1 for
// the round's own row) and why.
type badValue struct {
	column string
	child  int
	reason string
}

func (b *badValue) ok() bool { return b.column == "" }

// canonCards replaces every card of cs by its interned canonical text and
// reports the first invalid one.
func canonCards(cs []string, table string, cols []string, child int, bad *badValue) {
	for i, s := range cs {
		c, ok := canonicalCard(s)
		if !ok {
			*bad = badValue{column: table + "." + cols[i], child: child, reason: fmt.Sprintf("invalid card %q", s)}
			return
		}
		cs[i] = c
	}
}

var (
	dealerCols = []string{"dealer_1", "dealer_2"}
	boardCols  = []string{"board_1", "board_2", "board_3", "board_4", "board_5"}
	cardCols   = []string{"card_1", "card_2", "card_3"}
)

func nonNeg(v int64, column string, child int, bad *badValue) {
	if v < 0 && bad.ok() {
		*bad = badValue{column: column, child: child, reason: fmt.Sprintf("negative amount %d", v)}
	}
}

// validate checks what a reader must refuse: required identifiers, the
// cards' text, the currency code's form and negative amounts. It
// canonicalises card text in place. It does not judge fairness or
// settlement: that is the replayer's job, and so are amounts whose sums
// overflow int64 (each value is a valid int64; the replay reports the
// round as AMOUNT_OVERFLOW and still checks the rest of it).
func validate(r *round.Round) badValue {
	var bad badValue
	switch {
	case r.RoundID == "":
		return badValue{column: "rounds.round_id", child: -1, reason: "empty round id"}
	case r.Game != round.CasinoHoldem && r.Game != round.LiveCasinoHoldem && r.Game != round.DoubleHoldem:
		return badValue{column: "rounds.game", child: -1, reason: fmt.Sprintf("unknown game %q", r.Game)}
	case r.Game == round.DoubleHoldem && r.Double == nil:
		return badValue{column: "rounds.n_seats", child: -1, reason: "a double-holdem round without its hand"}
	case !currency.ValidCode(r.Currency):
		return badValue{column: "rounds.currency", child: -1, reason: fmt.Sprintf("%q: want a currency code, %s", r.Currency, currency.CodeForm)}
	}
	if n := len(r.WalletIDs); n > 0 {
		players := len(r.Boxes)
		if r.Double != nil {
			players = len(r.Double.Seats)
		}
		if n != players {
			return badValue{column: "rounds.wallet_ids", child: -1, reason: fmt.Sprintf("%d wallet ids for %d boxes or seats: want one per box or seat, or none", n, players)}
		}
		for _, w := range r.WalletIDs {
			if w == "" {
				return badValue{column: "rounds.wallet_ids", child: -1, reason: "an empty wallet id"}
			}
		}
	}
	canonCards(r.Dealer, "rounds", dealerCols, -1, &bad)
	if bad.ok() {
		canonCards(r.Board, "rounds", boardCols, -1, &bad)
	}
	for i := range r.Boxes {
		b := &r.Boxes[i]
		if bad.ok() {
			canonCards(b.Cards, "boxes", cardCols, i, &bad)
		}
		for _, a := range [...]struct {
			col string
			v   int64
		}{
			{"boxes.ante_requested", b.AnteRequested}, {"boxes.ante", b.Ante},
			{"boxes.bonus_requested", b.BonusRequested}, {"boxes.bonus", b.Bonus},
			{"boxes.call", b.Call}, {"boxes.ante_return", b.AnteReturn},
			{"boxes.call_return", b.CallReturn}, {"boxes.bonus_return", b.BonusReturn},
			{"boxes.balance_before", b.BalanceBefore}, {"boxes.balance_after", b.BalanceAfter},
		} {
			nonNeg(a.v, a.col, i, &bad)
		}
	}
	if d := r.Double; d != nil {
		nonNeg(d.SmallBlind, "rounds.small_blind", -1, &bad)
		nonNeg(d.BigBlind, "rounds.big_blind", -1, &bad)
		nonNeg(d.Rake, "rounds.rake", -1, &bad)
		for i := range d.Seats {
			s := &d.Seats[i]
			if bad.ok() {
				canonCards(s.Cards, "seats", cardCols, i, &bad)
			}
			if bad.ok() && s.BonusCard != "" {
				if c, ok := canonicalCard(s.BonusCard); ok {
					s.BonusCard = c
				} else {
					bad = badValue{column: "seats.bonus_card", child: i, reason: fmt.Sprintf("invalid card %q", s.BonusCard)}
				}
			}
			nonNeg(s.StackBefore, "seats.stack_before", i, &bad)
			nonNeg(s.StackAfter, "seats.stack_after", i, &bad)
		}
		for i := range d.Actions {
			nonNeg(d.Actions[i].Amount, "actions.amount", i, &bad)
		}
		for i := range d.Pots {
			nonNeg(d.Pots[i].Amount, "pots.amount", i, &bad)
			for _, s := range d.Pots[i].Shares {
				nonNeg(s, "pots.shares", i, &bad)
			}
		}
	}
	return bad
}
