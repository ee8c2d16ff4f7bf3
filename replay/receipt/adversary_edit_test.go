package receipt_test

// The dishonest operator's edits of an honest log, made apart from the
// detector: they change the rounds (JSON form) by hand, deal and settle
// Casino Hold'em rounds again where their seeds change (redeal), make
// every wallet continuous again (rechain) and number the tables' rounds
// again (renumber), as a careful cheat does so that the replay sees
// nothing. The expected findings are derived from the edit itself.

import (
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/receipt"
	"github.com/fairhold/fairhold/replay/round"
)

// holder names the wallet of box or seat k of r: wallet_ids[k], or the
// player.
func holder(r *round.Round, k int, player string) string {
	if k < len(r.WalletIDs) {
		return "w:" + r.WalletIDs[k]
	}
	return "p:" + player
}

// rechain makes every wallet continuous again: each box's (seat's)
// balance before becomes its wallet's balance after its previous round,
// and its balance after moves by as much.
func rechain(rs []round.Round) {
	last := map[string]int64{}
	move := func(h string, before, after *int64) {
		if v, ok := last[h]; ok && v != *before {
			d := v - *before
			*before += d
			*after += d
		}
		last[h] = *after
	}
	for i := range rs {
		r := &rs[i]
		for k := range r.Boxes {
			move(holder(r, k, r.Boxes[k].PlayerID), &r.Boxes[k].BalanceBefore, &r.Boxes[k].BalanceAfter)
		}
		if r.Double != nil {
			for k := range r.Double.Seats {
				s := &r.Double.Seats[k]
				move(holder(r, k, s.PlayerID), &s.StackBefore, &s.StackAfter)
			}
		}
	}
}

// solvent reports whether no balance of rs is negative and no Casino
// Hold'em box stakes more than its wallet held.
func solvent(rs []round.Round) bool {
	for _, r := range rs {
		for _, b := range r.Boxes {
			if b.BalanceBefore < 0 || b.BalanceAfter < 0 || b.Ante+b.Call+b.Bonus > b.BalanceBefore {
				return false
			}
		}
		if r.Double != nil {
			for _, s := range r.Double.Seats {
				if s.StackBefore <= 0 || s.StackAfter < 0 {
					return false
				}
			}
		}
	}
	return true
}

// renumber numbers each table's rounds 1, 2, ... in log order again.
func renumber(rs []round.Round) {
	next := map[string]uint64{}
	for i := range rs {
		next[rs[i].TableID]++
		rs[i].TableSeq = next[rs[i].TableID]
	}
}

// redeal deals a round again from its fairness fields and settles it
// under its game's built-in profile: a Casino Hold'em round keeps its
// stakes and decisions, balances after following from balances before; a
// Double Hold'em hand as redealDouble says.
func redeal(t testing.TB, r *round.Round) {
	t.Helper()
	p, err := profile.Builtin(r.Game)
	require.NoError(t, err)
	sch, err := scheme.Lookup(r.Fairness.Scheme)
	require.NoError(t, err)
	seed, err := hex.DecodeString(r.Fairness.ServerSeed)
	require.NoError(t, err)
	require.Empty(t, r.Fairness.BeaconSignature, "redeal: no beacon in the simulated logs")
	hands := len(r.Boxes)
	if r.Double != nil {
		hands = len(r.Double.Seats)
	}
	lay, err := layout.For(r.Game, hands)
	require.NoError(t, err)
	idx, err := sch.Deal(scheme.Input{ServerSeed: seed, ClientSeeds: r.Fairness.ClientSeeds, Nonce: r.Fairness.Nonce}, lay.Count)
	require.NoError(t, err)
	dealt := make([]card.Card, len(idx))
	for i, x := range idx {
		dealt[i] = card.Card(x)
	}
	cs, err := layout.Split(lay, dealt)
	require.NoError(t, err)
	board := [5]card.Card{cs.Flop[0], cs.Flop[1], cs.Flop[2], cs.Turn, cs.River}
	if r.Double != nil {
		redealDouble(t, r, p, cs, board)
		return
	}
	tb, err := casino.Compile(p)
	require.NoError(t, err)
	dealer := [2]card.Card{cs.Dealer[0], cs.Dealer[1]}
	r.Dealer, r.Board = card.Strings(dealer[:]), card.Strings(board[:])
	for k := range r.Boxes {
		b := &r.Boxes[k]
		hole := [2]card.Card{cs.Hands[k][0], cs.Hands[k][1]}
		b.Cards = card.Strings(hole[:])
		dec := casino.Unfinished
		switch b.Decision {
		case "call":
			dec = casino.Call
		case "fold":
			dec = casino.Fold
		}
		bets := casino.Bets{Ante: b.Ante, Bonus: b.Bonus}
		var res casino.BoxResult
		if r.Void {
			res, err = tb.Void(b.Box, bets, dec)
		} else {
			res, err = tb.SettleBox(bets, dec, hole, dealer, board)
		}
		require.NoError(t, err)
		b.Call, b.AnteReturn, b.CallReturn, b.BonusReturn = res.Call, res.AnteReturn, res.CallReturn, res.BonusReturn
		b.BalanceAfter = b.BalanceBefore - res.Staked() + res.Returned()
	}
}

// redealDouble gives a Double Hold'em hand the cards dealt, keeping its
// seats, button, actions and bonus-card choices (a chosen card by its
// place among the hole cards, an automatic one by the rule), and settles
// it again: pots, rake and stacks after.
func redealDouble(t testing.TB, r *round.Round, p *profile.Profile, cs layout.Cards[card.Card], board [5]card.Card) {
	t.Helper()
	h := r.Double
	seats := make([]int, len(h.Seats))
	for i, s := range h.Seats {
		seats[i] = s.Seat
	}
	order, err := layout.DealingOrder(seats, h.Button)
	require.NoError(t, err)
	for k, seat := range order {
		st := &h.Seats[slices.Index(seats, seat)]
		hole := [3]card.Card{cs.Hands[k][0], cs.Hands[k][1], cs.Hands[k][2]}
		if st.BonusCard != "" {
			if st.BonusAuto {
				st.BonusCard = double.AutoBonusCard(p, hole).String()
			} else {
				j := slices.Index(st.Cards, st.BonusCard)
				require.GreaterOrEqual(t, j, 0)
				st.BonusCard = hole[j].String()
			}
		}
		st.Cards = card.Strings(hole[:])
	}
	r.Board = card.Strings(board[:len(r.Board)])
	if r.Void {
		for i := range h.Seats {
			h.Seats[i].StackAfter = h.Seats[i].StackBefore
		}
		return
	}
	res, err := double.Settle(p, r)
	require.NoError(t, err, "round %s: the hand dealt again does not settle", r.RoundID)
	h.Pots = make([]round.Pot, len(res.Pots))
	for i, q := range res.Pots {
		h.Pots[i] = round.Pot{Amount: q.Amount, Eligible: slices.Clone(q.Eligible), Winners: slices.Clone(q.Winners), Shares: slices.Clone(q.Shares)}
	}
	h.Rake = res.Rake
	for i := range h.Seats {
		h.Seats[i].StackAfter = res.StackAfter[h.Seats[i].Seat]
	}
}

// playerNet is what player won (or lost, negative) in r, from the log's
// own fields: returns less stakes of their boxes, or their stack's change.
func playerNet(r *round.Round, player string) int64 {
	var n int64
	for _, b := range r.Boxes {
		if b.PlayerID == player {
			n += b.AnteReturn + b.CallReturn + b.BonusReturn - b.Ante - b.Call - b.Bonus
		}
	}
	if r.Double != nil {
		for _, s := range r.Double.Seats {
			if s.PlayerID == player {
				n += s.StackAfter - s.StackBefore
			}
		}
	}
	return n
}

// playerAfter is player's balance (stack) after r: their last box's or
// their seat's.
func playerAfter(r *round.Round, player string) (int64, bool) {
	var v int64
	ok := false
	for _, b := range r.Boxes {
		if b.PlayerID == player {
			v, ok = b.BalanceAfter, true
		}
	}
	if r.Double != nil {
		for _, s := range r.Double.Seats {
			if s.PlayerID == player {
				v, ok = s.StackAfter, true
			}
		}
	}
	return v, ok
}

// playersOf lists the players of r from its boxes and seats.
func playersOf(r *round.Round) []string {
	var out []string
	for _, b := range r.Boxes {
		if !slices.Contains(out, b.PlayerID) {
			out = append(out, b.PlayerID)
		}
	}
	if r.Double != nil {
		for _, s := range r.Double.Seats {
			out = append(out, s.PlayerID)
		}
	}
	return out
}

// want is one expected finding: its code, round, player and field.
// Table-seq findings fall on the table's first receipt of a round, whose
// player is left out (any player of the round).
type want struct {
	code                 finding.Code
	round, player, field string
}

func (w want) String() string { return fmt.Sprintf("%s %s %s %s", w.code, w.round, w.player, w.field) }

func got(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		w := want{f.Code, f.RoundID, f.PlayerID, f.Field}
		if f.Field == "table-seq" {
			w.player = ""
		}
		out = append(out, w.String())
	}
	sort.Strings(out)
	return out
}

func wanted(ws []want) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.String())
	}
	sort.Strings(out)
	return out
}

// missing expects a RECEIPT_ROUND_MISSING for every player of every
// dropped round.
func missing(dropped []round.Round) []want {
	var out []want
	for i := range dropped {
		for _, p := range playersOf(&dropped[i]) {
			out = append(out, want{finding.ReceiptRoundMissing, dropped[i].RoundID, p, "net"})
		}
	}
	return out
}

// seqShifts expects a table-seq RECEIPT_MISMATCH at each round of edited
// whose table_seq differs from its number in orig by another offset than
// the table's previous round in edited (0 before the first).
func seqShifts(orig, edited []round.Round) []want {
	was := map[string]uint64{}
	for _, r := range orig {
		was[r.RoundID] = r.TableSeq
	}
	prev := map[string]int64{}
	var out []want
	for _, r := range edited {
		off := int64(r.TableSeq) - int64(was[r.RoundID])
		if off != prev[r.TableID] {
			out = append(out, want{finding.ReceiptMismatch, r.RoundID, "", "table-seq"})
		}
		prev[r.TableID] = off
	}
	return out
}

// balanceShifts expects a balance-after RECEIPT_AMOUNT_MISMATCH at each
// of a player's receipted rounds of edited where the player's balance
// after has moved from orig's by another amount than at their previous
// receipted round (0 before the first).
func balanceShifts(orig, edited []round.Round, kept func(roundID, player string) bool) []want {
	was := map[string]*round.Round{}
	for i := range orig {
		was[orig[i].RoundID] = &orig[i]
	}
	prev := map[string]int64{}
	var out []want
	for i := range edited {
		r := &edited[i]
		for _, p := range playersOf(r) {
			if !kept(r.RoundID, p) {
				continue
			}
			a, _ := playerAfter(r, p)
			b, _ := playerAfter(was[r.RoundID], p)
			if off := a - b; off != prev[p] {
				out = append(out, want{finding.ReceiptAmountMismatch, r.RoundID, p, "balance-after"})
				prev[p] = off
			}
		}
	}
	return out
}

func all(string, string) bool { return true }

// only keeps the receipts kept says a player kept.
func only(rs []receipt.Signed, kept func(roundID, player string) bool) []receipt.Signed {
	var out []receipt.Signed
	for _, s := range rs {
		if kept(s.Round, s.Player) {
			out = append(out, s)
		}
	}
	return out
}

// sessionOf lists the indices of rs where player plays under commitment,
// in log order.
func sessionOf(rs []round.Round, player, commitment string) []int {
	var out []int
	for i := range rs {
		if rs[i].Fairness.Commitment == commitment && slices.Contains(playersOf(&rs[i]), player) {
			out = append(out, i)
		}
	}
	return out
}

// without returns rs without the rounds at the indices drop, and the
// dropped rounds.
func without(rs []round.Round, drop []int) (kept, dropped []round.Round) {
	for i := range rs {
		if slices.Contains(drop, i) {
			dropped = append(dropped, rs[i])
		} else {
			kept = append(kept, rs[i])
		}
	}
	return kept, dropped
}

// settles reports whether every Double Hold'em hand of rs that is not void
// settles, under the rules, to the stacks it logs: a careful cheat's log
// (the later hands keep their bets, which the re-chained stacks must still
// cover).
func settles(t testing.TB, rs []round.Round) bool {
	t.Helper()
	for i := range rs {
		r := &rs[i]
		if r.Double == nil || r.Void {
			continue
		}
		p, err := profile.Builtin(r.Game)
		require.NoError(t, err)
		res, err := double.Settle(p, r)
		if err != nil {
			return false
		}
		for _, s := range r.Double.Seats {
			if res.StackAfter[s.Seat] != s.StackAfter {
				return false
			}
		}
	}
	return true
}
