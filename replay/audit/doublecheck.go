package audit

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/round"
)

// DoubleEngine is the [DoubleChecker] backed by the rules engine (package
// double). It re-plays the hand's actions under the round's profile and
// compares the rake, the pots (amounts, eligible seats, winners, shares)
// and the stacks after with the log, reporting the first kind of
// difference only: a wrong side pot changes who wins what, and a wrong
// winner changes the stacks, so the later differences follow from the
// first.
type DoubleEngine struct {
	Rules *Rulebook
}

// settlers are the rules engine's Settlers, reused from hand to hand by
// the goroutines checking hands. Lean: the checks read the pots, the rake
// and the stacks after.
var settlers = sync.Pool{New: func() any { return &double.Settler{Lean: true} }}

// CheckDouble implements [DoubleChecker].
func (d DoubleEngine) CheckDouble(r *round.Round, conserved bool, rep Reporter) {
	p, err := d.Rules.Profile(r)
	if err != nil {
		rep.Add(finding.ProfileMismatch, "profile", "a Double Hold'em profile", quote(r.Profile), err.Error())
		return
	}
	st := settlers.Get().(*double.Settler)
	defer settlers.Put(st)
	res, err := st.Settle(p, r)
	if err != nil {
		var ae *double.ActionError
		var he *double.HandError
		switch {
		case errors.As(err, &ae):
			act := "none (the hand ended early)"
			if ae.Index < len(r.Double.Actions) {
				a := r.Double.Actions[ae.Index]
				act = fmt.Sprintf("seat %d %s %d", a.Seat, a.Kind, a.Amount)
			}
			rep.Add(finding.DHIllegalAction, "double.actions["+strconv.Itoa(ae.Index)+"]", "a legal action", act, ae.Reason)
		case errors.As(err, &he) && strings.HasSuffix(he.Field, ".bonus_card") && strings.Contains(he.Reason, "automatic rule"):
			rep.Add(finding.DHBonusCardWrong, he.Field, "the card the automatic rule selects", "another card", he.Reason)
		default:
			rep.Add(finding.InputDamaged, "double", "a hand the rules engine can settle", "error", err.Error())
		}
		return
	}
	h := r.Double
	rakeOK := true
	if h.Rake != res.Rake {
		rakeOK = false
		code := finding.DHRakeOverCap
		if h.Rake < res.Rake {
			code = finding.ReturnMismatch
		}
		rep.AddAmounts(Amounts{Expected: res.Rake, Actual: h.Rake}, code, "double.rake", strconv.FormatInt(res.Rake, 10), strconv.FormatInt(h.Rake, 10), "")
	}
	if len(h.Pots) != len(res.Pots) {
		rep.Add(finding.DHSidePotWrong, "double.pots", fmt.Sprintf("%d pots", len(res.Pots)), fmt.Sprintf("%d pots", len(h.Pots)), "")
		return
	}
	// The engine's pots are after rake; with a wrong rake, compare the
	// amounts before it.
	potFound := false
	for i := range res.Pots {
		want, got := &res.Pots[i], &h.Pots[i]
		field := "double.pots[" + strconv.Itoa(i) + "]"
		amountWrong, eligibleWrong := want.Amount != got.Amount, !slices.Equal(want.Eligible, got.Eligible)
		if (rakeOK && amountWrong) || eligibleWrong {
			a := Amounts{Expected: want.Amount, Actual: got.Amount}
			switch {
			case !rakeOK:
				// The amounts (before the rake) were not compared: the
				// eligible seats differ; the pot as a whole, no amounts.
				rep.Add(finding.DHSidePotWrong, field, fmt.Sprintf("amount %d, eligible %v", want.Amount, want.Eligible),
					fmt.Sprintf("amount %d, eligible %v", got.Amount, got.Eligible), "")
			case amountWrong:
				// The values are the pot's amounts (after the rake).
				detail := fmt.Sprintf("eligible seats %v", want.Eligible)
				if eligibleWrong {
					detail += fmt.Sprintf(", logged %v", got.Eligible)
				}
				rep.AddAmounts(a, finding.DHSidePotWrong, field, strconv.FormatInt(want.Amount, 10), strconv.FormatInt(got.Amount, 10), detail)
			default:
				// The amount is right, the eligible seats are not: the
				// values are the seats.
				rep.AddAmounts(a, finding.DHSidePotWrong, field, fmt.Sprint(want.Eligible), fmt.Sprint(got.Eligible),
					fmt.Sprintf("the eligible seats of a pot of %d", want.Amount))
			}
			return
		}
	}
	for i := range res.Pots {
		want, got := &res.Pots[i], &h.Pots[i]
		field := "double.pots[" + strconv.Itoa(i) + "]"
		ws, gs := sortedCopy(want.Winners), sortedCopy(got.Winners)
		switch {
		case !slices.Equal(ws, gs):
			reportShares(rep, h, want, got, finding.DHPotWrongWinner, field+".winners", fmt.Sprint(want.Winners), fmt.Sprint(got.Winners))
			potFound = true
		case !rakeOK:
		case !sharesEqual(want, got):
			code := finding.DHPotWrongWinner
			if slices.Equal(sortedCopy64(want.Shares), sortedCopy64(got.Shares)) {
				code = finding.DHOddChipWrong
			}
			reportShares(rep, h, want, got, code, field+".shares", fmt.Sprintf("%v to %v", want.Shares, want.Winners), fmt.Sprintf("%v to %v", got.Shares, got.Winners))
			potFound = true
		}
	}
	if potFound || !rakeOK || !conserved {
		return
	}
	for i := range h.Seats {
		s := &h.Seats[i]
		if want := res.StackAfter[s.Seat]; want != s.StackAfter {
			rep.AddAmounts(Amounts{Expected: want, Actual: s.StackAfter}, finding.DHPotWrongWinner, seatField(i, "stack_after"), strconv.FormatInt(want, 10), strconv.FormatInt(s.StackAfter, 10), "the pots as logged do not give this stack")
		}
	}
}

// reportShares reports a pot whose winners or shares differ from the
// re-settlement's (want) once per seat whose share of the pot differs,
// with that seat's player and its share expected and logged (0 for a seat
// that is not among the winners): the sums of a player's findings are then
// what the pot took from or gave to the player. When no seat's share
// differs (a seat listed twice, say) or a seat's shares overflow, the pot
// is reported once, without amounts.
func reportShares(rep Reporter, h *round.DoubleHand, want, got *round.Pot, code finding.Code, field, expected, actual string) {
	type share struct {
		seat      int
		want, got int64
	}
	var seats []share
	addShare := func(seat int, amount int64, logged bool) bool {
		k := slices.IndexFunc(seats, func(s share) bool { return s.seat == seat })
		if k < 0 {
			seats = append(seats, share{seat: seat})
			k = len(seats) - 1
		}
		var err error
		if logged {
			seats[k].got, err = money.Add(seats[k].got, amount)
		} else {
			seats[k].want, err = money.Add(seats[k].want, amount)
		}
		return err == nil
	}
	ok := true
	for _, p := range []struct {
		pot    *round.Pot
		logged bool
	}{{want, false}, {got, true}} {
		for j, w := range p.pot.Winners {
			var amount int64
			if j < len(p.pot.Shares) {
				amount = p.pot.Shares[j]
			}
			ok = addShare(w, amount, p.logged) && ok
		}
	}
	slices.SortFunc(seats, func(a, b share) int { return cmp.Compare(a.seat, b.seat) })
	n := 0
	for _, s := range seats {
		if !ok || s.want == s.got {
			continue
		}
		player := ""
		if k := slices.IndexFunc(h.Seats, func(x round.Seat) bool { return x.Seat == s.seat }); k >= 0 {
			player = h.Seats[k].PlayerID
		}
		rep.AddAmounts(Amounts{Expected: s.want, Actual: s.got, Player: player}, code, field, expected, actual, "seat "+strconv.Itoa(s.seat)+"'s share")
		n++
	}
	if n == 0 {
		rep.Add(code, field, expected, actual, "")
	}
}

// sharesEqual compares each winner's share, whatever the order winners are
// listed in.
func sharesEqual(a, b *round.Pot) bool {
	if len(a.Winners) != len(b.Winners) || len(a.Shares) != len(a.Winners) || len(b.Shares) != len(b.Winners) {
		return false
	}
	for i, w := range a.Winners {
		j := slices.Index(b.Winners, w)
		if j < 0 || b.Shares[j] != a.Shares[i] {
			return false
		}
	}
	return true
}

func sortedCopy(x []int) []int {
	y := slices.Clone(x)
	slices.Sort(y)
	return y
}

func sortedCopy64(x []int64) []int64 {
	y := slices.Clone(x)
	slices.Sort(y)
	return y
}
