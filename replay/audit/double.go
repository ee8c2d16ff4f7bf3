package audit

import (
	"fmt"
	"strconv"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/round"
)

// DoubleChecker re-settles a Double Hold'em hand with the rules engine and
// reports every difference from the log to rep, with its code
// ([finding.DHIllegalAction], [finding.DHPotWrongWinner], ...), and the
// amounts of those about money. The Checker itself checks the cards, chip
// conservation and the stacks.
type DoubleChecker interface {
	// conserved is false when the Checker found the chips not conserved.
	CheckDouble(r *round.Round, conserved bool, rep Reporter)
}

// checkDouble checks a Double Hold'em hand.
func (c *Checker) checkDouble(r *round.Round, t *Trace, dealtOK bool, e *emitter) {
	d := r.Double
	if d == nil {
		e.add(finding.InputDamaged, "double", "the Double Hold'em hand", "absent", "")
		return
	}
	ns := len(d.Seats)
	t.perBox = len(r.Fairness.ClientSeeds) == ns
	if ns < 2 || ns > 10 {
		e.add(finding.InputDamaged, "double.seats", "2..10 seats", strconv.Itoa(ns), "")
		return
	}
	// Positions: seats 1 to the profile's seats_max. The rules engine
	// cannot settle a hand whose seats are not 1..10 in increasing order:
	// its positions are then the finding.
	hi := 10
	if c.ruleErr == nil && c.ruleEntry.p.Double != nil {
		hi = c.ruleEntry.p.Double.SeatsMax
	}
	var nums [10]int
	settleable := true
	for i := range d.Seats {
		nums[i] = d.Seats[i].Seat
		settleable = settleable && nums[i] >= 1 && nums[i] <= 10 && (i == 0 || nums[i] > nums[i-1])
	}
	checkPositions(e, nums[:ns], hi, true)
	var seats [10][3]card.Card
	var board [5]card.Card
	ok := true
	dealt := dealtCards{e: e}
	dup := dealt.add
	for i := range d.Seats {
		field := seatField(i, "cards")
		if !parseCards(e, field, d.Seats[i].Cards, seats[i][:], 3, 3) {
			ok = false
			continue
		}
		dup(field, seats[i][:])
	}
	nbd := len(r.Board)
	if !parseCards(e, "board", r.Board, board[:], 0, 5) {
		ok = false
	} else {
		dup("board", board[:nbd])
	}
	if dealtOK && ok && !dealt.dup {
		// Hole cards are dealt to the seats starting left of the button,
		// three to a seat, then the board.
		first := 0
		for i := range d.Seats {
			if d.Seats[i].Seat > d.Button {
				first = i
				break
			}
		}
		for k := range ns {
			i := (first + k) % ns
			compareCards(e, seatField(i, "cards"), c.dealt[3*k:3*k+3], seats[i][:])
		}
		compareCards(e, "board", c.dealt[3*ns:3*ns+nbd], board[:nbd])
	}

	// Chips: stacks before = stacks after + rake.
	var before, after int64
	var err error
	for i := range d.Seats {
		s := &d.Seats[i]
		fp := fingerprint(s.PlayerID)
		wallet, wfp := c.walletAt(r, i)
		t.addPlayer(fp, c.playerName(fp, s.PlayerID), wallet, wfp, clientAt(r, t, i, ns), s.StackBefore, s.StackAfter, i, true)
		if s.StackBefore < 0 || s.StackAfter < 0 {
			e.add(finding.InputDamaged, seatField(i, "stack_before"), "stacks >= 0", "a negative stack", "")
			return
		}
		if before, err = money.Add(before, s.StackBefore); err == nil {
			after, err = money.Add(after, s.StackAfter)
		}
		if err != nil {
			e.add(finding.AmountOverflow, seatField(i, "stack_before"), "stacks whose sum is below 2^63", "overflow", "the seats' stacks before and after are summed")
			return
		}
	}
	if d.Rake < 0 {
		e.add(finding.InputDamaged, "double.rake", ">= 0", strconv.FormatInt(d.Rake, 10), "")
		return
	}
	conserved := true
	if sum, err := money.Add(after, d.Rake); err != nil || sum != before {
		conserved = false
		// The values are the stacks before and the stacks after plus the
		// rake; the sum is in the detail.
		expected := strconv.FormatInt(before, 10)
		if err != nil {
			// The actual amount cannot be formed: no amounts.
			e.add(finding.DHChipsNotConserved, "double.seats", expected, "overflow",
				fmt.Sprintf("stacks after %d + rake %d overflows int64", after, d.Rake))
		} else {
			e.addAmounts(Amounts{Expected: before, Actual: sum}, finding.DHChipsNotConserved, "double.seats", expected, strconv.FormatInt(sum, 10),
				fmt.Sprintf("stacks after %d + rake %d, against stacks before %d", after, d.Rake, before))
		}
	}
	// One player, one seat.
	for i := 1; i < t.np; i++ {
		for j := range i {
			if p, q := t.playerAt(i), t.playerAt(j); p.id == q.id {
				e.add(finding.PositionInvalid, seatField(int(p.slot), "player_id"), "a player at one seat", "the player of "+seatField(int(q.slot), "player_id")+" again", "")
				break
			}
		}
	}
	if ok && !dealt.dup && settleable && c.cfg.Double != nil {
		c.cfg.Double.CheckDouble(r, conserved, Reporter{e})
	}
}

// seatField returns "double.seats[i].name" without allocating for the
// usual names.
func seatField(i int, name string) string {
	if name == "cards" && i < len(seatCards) {
		return seatCards[i]
	}
	return "double.seats[" + strconv.Itoa(i) + "]." + name
}
