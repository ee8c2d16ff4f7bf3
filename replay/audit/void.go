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
		// The call's settlement: checkBox's when it settled a call on these
		// cards and stakes, otherwise the rules engine's. A fold follows
		// from it: the ante lost, the AA Bonus paid as under the call
		// unless the profile forfeits it on a fold (the payout cap touches
		// ANTE and CALL only).
		call := c.settled[i]
		if !(call.ok && call.isCall && call.hole == hole && call.dealer == dealer && call.board == board && call.ante == b.Ante && call.bonus == b.Bonus) {
			res, err := rules.Table.SettleBox(casino.Bets{Ante: b.Ante, Bonus: b.Bonus}, casino.Call, hole, dealer, board)
			if err != nil {
				return
			}
			call = settledOf(&res, hole, dealer, board)
		}
		callStake, err1 := money.Add(call.ante, call.call)
		callStake, err2 := money.Add(callStake, call.bonus)
		callRet, err3 := money.Add(call.anteRet, call.callRet)
		callRet, err4 := money.Add(callRet, call.bonusRet)
		foldStake, err5 := money.Add(b.Ante, b.Bonus)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil || err5 != nil {
			return
		}
		foldRet := call.bonusRet
		if rules.forfeit {
			foldRet = 0
		}
		bestStake, bestRet, worstStake, worstRet := callStake, callRet, foldStake, foldRet
		if foldRet-foldStake > callRet-callStake {
			bestStake, bestRet, worstStake, worstRet = foldStake, foldRet, callStake, callRet
		}
		w, err1 := money.Add(out.Wagered, bestStake)
		ret, err2 := money.Add(out.Returned, bestRet)
		base, err3 := money.Add(out.Base, foldStake)
		wn, err4 := money.Add(out.Worst, worstRet-worstStake)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			return
		}
		out.Wagered, out.Returned, out.Base, out.Worst = w, ret, base, wn
	}
	out.Settled = true
	c.ifPlayed = out
}

// boxSettled is a box's settlement by checkBox (its amounts), with the
// cards it used.
type boxSettled struct {
	ok, isCall                 bool
	ante, call, bonus          int64
	anteRet, callRet, bonusRet int64
	hole, dealer               [2]card.Card
	board                      [5]card.Card
}

func settledOf(r *casino.BoxResult, hole, dealer [2]card.Card, board [5]card.Card) boxSettled {
	return boxSettled{ok: true, isCall: r.Decision == "call", ante: r.Ante, call: r.Call, bonus: r.Bonus,
		anteRet: r.AnteReturn, callRet: r.CallReturn, bonusRet: r.BonusReturn, hole: hole, dealer: dealer, board: board}
}
