package audit

import (
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/round"
)

// IfPlayed is a void Casino Hold'em round re-settled as if it had been
// played: the cards the seeds deal (a void round's cards are re-dealt like
// any other's), the decisions the log records (a box without one under the
// profile's unfinished-round policy) and the stakes as logged, settled by
// the rules engine under the round's profile. It is what the void took
// from the players, or spared them: the input of the void-bias test
// (package replayer).
type IfPlayed struct {
	// Settled is false when the round could not be re-settled: not a void
	// Casino Hold'em round, cards that neither the seeds nor the log give
	// in full, a decision that is not call, fold or empty, stakes the rules
	// engine refuses (no ante, an AA Bonus at a table without one), or sums
	// beyond int64.
	Settled bool
	// Wagered is the stakes summed over the boxes (ante, the call at the
	// profile's multiple when the box calls, AA Bonus); Returned the
	// returns the rules give for them.
	Wagered, Returned int64
}

// Won reports whether the round, re-settled, was won for the players: its
// boxes together return more than they stake. On a table of several boxes
// the round, not the box, is the unit: the boxes of a round share the
// dealer's hand, and a void cancels them all at once.
func (p IfPlayed) Won() bool { return p.Settled && p.Returned > p.Wagered }

// IfPlayed returns the last round checked re-settled as if it had been
// played, when it was a void Casino Hold'em round (Settled is false
// otherwise).
func (c *Checker) IfPlayed() IfPlayed { return c.ifPlayed }

// resettleVoid re-settles the void round r as if it had been played, into
// c.ifPlayed. dealtOK tells whether c.dealt holds the seeds' cards;
// otherwise the logged cards are used when they are all there (cardsOK:
// parsed, no card twice).
func (c *Checker) resettleVoid(r *round.Round, rules *CasinoRules, dealtOK, cardsOK bool) {
	nb := len(r.Boxes)
	var dealer [2]card.Card
	var board [5]card.Card
	d := c.dealt[:2*nb+7]
	switch {
	case dealtOK:
		dealer = [2]card.Card{card.Card(d[2*nb]), card.Card(d[2*nb+1])}
		for j := range board {
			board[j] = card.Card(d[2*nb+2+j])
		}
	case cardsOK && len(r.Dealer) == 2 && len(r.Board) == 5:
		dealer, board = c.dealer, c.board
	default:
		return
	}
	var out IfPlayed
	for i := range r.Boxes {
		b := &r.Boxes[i]
		hole := c.boxCards[i]
		if dealtOK {
			hole = [2]card.Card{card.Card(d[2*i]), card.Card(d[2*i+1])}
		}
		var dec casino.Decision
		switch b.Decision {
		case "call":
			dec = casino.Call
		case "fold":
			dec = casino.Fold
		case "":
			dec = casino.Unfinished
		default:
			return
		}
		res, err := rules.Table.SettleBox(casino.Bets{Ante: b.Ante, Bonus: b.Bonus}, dec, hole, dealer, board)
		if err != nil {
			return
		}
		w, err1 := money.Sum(out.Wagered, res.Ante, res.Call, res.Bonus)
		ret, err2 := money.Sum(out.Returned, res.AnteReturn, res.CallReturn, res.BonusReturn)
		if err1 != nil || err2 != nil {
			return
		}
		out.Wagered, out.Returned = w, ret
	}
	out.Settled = true
	c.ifPlayed = out
}
