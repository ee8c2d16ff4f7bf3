package audit

import (
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/round"
)

// IfPlayed is a Casino Hold'em round settled from its cards alone, as if
// each box had made the decision best for it: the cards the seeds deal (a
// void round's cards are re-dealt like any other's) and the stakes as
// logged, settled by the rules engine under the round's profile for a call
// and for a fold, keeping per box whichever returns more (the cards known:
// the decision in hindsight). Nothing the operator logs after the deal
// enters it: not the decision, not whether the round was finished, not the
// void. For a void round it is what the void took from the players; for a
// played round, the same measure, so that voids and played rounds compare
// (the void-bias tests, package replayer). Worst is the same under each
// box's worse decision.
type IfPlayed struct {
	// Settled is false when the round could not be settled: not a Casino
	// Hold'em round, cards that neither the seeds nor the log give in full,
	// stakes the rules engine refuses (no ante, an AA Bonus at a table
	// without one), or sums beyond int64.
	Settled bool
	// Wagered is the stakes summed over the boxes (ante, the call at the
	// profile's multiple where calling is best, AA Bonus); Returned the
	// returns the rules give for them.
	Wagered, Returned int64
	// Base is the round's ante and AA Bonus stakes, summed over its boxes:
	// the measure of a win's size (Tier).
	Base int64
	// Worst is what the players win (negative: lose) under each box's
	// worse decision.
	Worst int64
}

// Won reports whether the round, settled at its best, was won for the
// players: its boxes together return more than they stake. On a table of
// several boxes the round, not the box, is the unit: the boxes of a round
// share the dealer's hand, and a void cancels them all at once.
func (p IfPlayed) Won() bool { return p.Settled && p.Returned > p.Wagered }

// Net is what the players win (negative: lose) under their best decisions.
func (p IfPlayed) Net() int64 { return p.Returned - p.Wagered }

// Win tiers: a round settled at its best wins at least BigWin (HugeWin)
// times its Base. A called win with a flush or better, or an ante paid
// 3:1 or more with the dealer not qualifying, is big (4x); quads or better
// is huge (10x).
const (
	BigWin  = 4
	HugeWin = 10
)

// Tier is 0 for a round not won for the players (or not settled), 1 for
// a win, 2 for a big win, 3 for a huge win.
func (p IfPlayed) Tier() int {
	switch n := p.Net(); {
	case !p.Won():
		return 0
	case n/HugeWin >= p.Base:
		return 3
	case n/BigWin >= p.Base:
		return 2
	}
	return 1
}

// IfPlayed returns the last round checked settled from its cards alone
// (Settled is false for a round that is not Casino Hold'em or could not be
// settled).
func (c *Checker) IfPlayed() IfPlayed { return c.ifPlayed }

// settleBest settles r from its cards into c.ifPlayed. dealtOK tells
// whether c.dealt holds the seeds' cards; otherwise the logged cards are
// used when they are all there (cardsOK: parsed, no card twice).
func (c *Checker) settleBest(r *round.Round, rules *CasinoRules, dealtOK, cardsOK bool) {
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
		bets := casino.Bets{Ante: b.Ante, Bonus: b.Bonus}
		var call, fold casino.BoxResult
		var err1, err2 error
		// checkBox settled the logged decision on these cards: only the
		// other one is settled here (a fold costs no hand evaluation).
		s := &c.settled[i]
		reuse := s.ok && s.hole == hole && s.dealer == dealer && s.board == board && s.res.Ante == b.Ante && s.res.Bonus == b.Bonus
		if reuse && s.res.Decision == "call" {
			call = s.res
		} else {
			call, err1 = rules.Table.SettleBox(bets, casino.Call, hole, dealer, board)
		}
		if reuse && s.res.Decision == "fold" {
			fold = s.res
		} else {
			fold, err2 = rules.Table.SettleBox(bets, casino.Fold, hole, dealer, board)
		}
		if err1 != nil || err2 != nil {
			return
		}
		best, worst := &call, &fold
		if fold.Returned()-fold.Staked() > call.Returned()-call.Staked() {
			best, worst = &fold, &call
		}
		w, err1 := money.Sum(out.Wagered, best.Ante, best.Call, best.Bonus)
		ret, err2 := money.Sum(out.Returned, best.AnteReturn, best.CallReturn, best.BonusReturn)
		base, err3 := money.Sum(out.Base, b.Ante, b.Bonus)
		wn, err4 := money.Sum(out.Worst, worst.AnteReturn, worst.CallReturn, worst.BonusReturn, -worst.Ante, -worst.Call, -worst.Bonus)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			return
		}
		out.Wagered, out.Returned, out.Base, out.Worst = w, ret, base, wn
	}
	out.Settled = true
	c.ifPlayed = out
}

// boxSettled is a box's settlement by checkBox, with the cards it used.
type boxSettled struct {
	res    casino.BoxResult
	ok     bool
	hole   [2]card.Card
	dealer [2]card.Card
	board  [5]card.Card
}
