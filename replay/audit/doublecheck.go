package audit

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/finding"
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
func (d DoubleEngine) CheckDouble(r *round.Round, conserved bool, add func(code finding.Code, field, expected, actual, detail string)) {
	p, err := d.Rules.Profile(r)
	if err != nil {
		add(finding.ProfileMismatch, "profile", "a Double Hold'em profile", quote(r.Profile), err.Error())
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
			add(finding.DHIllegalAction, "double.actions["+strconv.Itoa(ae.Index)+"]", "a legal action", act, ae.Reason)
		case errors.As(err, &he) && strings.HasSuffix(he.Field, ".bonus_card") && strings.Contains(he.Reason, "automatic rule"):
			add(finding.DHBonusCardWrong, he.Field, "the card the automatic rule selects", "another card", he.Reason)
		default:
			add(finding.InputDamaged, "double", "a hand the rules engine can settle", "error", err.Error())
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
		add(code, "double.rake", strconv.FormatInt(res.Rake, 10), strconv.FormatInt(h.Rake, 10), "")
	}
	if len(h.Pots) != len(res.Pots) {
		add(finding.DHSidePotWrong, "double.pots", fmt.Sprintf("%d pots", len(res.Pots)), fmt.Sprintf("%d pots", len(h.Pots)), "")
		return
	}
	// The engine's pots are after rake; with a wrong rake, compare the
	// amounts before it.
	potFound := false
	for i := range res.Pots {
		want, got := &res.Pots[i], &h.Pots[i]
		field := "double.pots[" + strconv.Itoa(i) + "]"
		if (rakeOK && want.Amount != got.Amount) || !slices.Equal(want.Eligible, got.Eligible) {
			add(finding.DHSidePotWrong, field, fmt.Sprintf("amount %d, eligible %v", want.Amount, want.Eligible),
				fmt.Sprintf("amount %d, eligible %v", got.Amount, got.Eligible), "")
			return
		}
	}
	for i := range res.Pots {
		want, got := &res.Pots[i], &h.Pots[i]
		field := "double.pots[" + strconv.Itoa(i) + "]"
		ws, gs := sortedCopy(want.Winners), sortedCopy(got.Winners)
		switch {
		case !slices.Equal(ws, gs):
			add(finding.DHPotWrongWinner, field+".winners", fmt.Sprint(want.Winners), fmt.Sprint(got.Winners), "")
			potFound = true
		case !rakeOK:
		case !sharesEqual(want, got):
			code := finding.DHPotWrongWinner
			if slices.Equal(sortedCopy64(want.Shares), sortedCopy64(got.Shares)) {
				code = finding.DHOddChipWrong
			}
			add(code, field+".shares", fmt.Sprintf("%v to %v", want.Shares, want.Winners), fmt.Sprintf("%v to %v", got.Shares, got.Winners), "")
			potFound = true
		}
	}
	if potFound || !rakeOK || !conserved {
		return
	}
	for i := range h.Seats {
		s := &h.Seats[i]
		if want := res.StackAfter[s.Seat]; want != s.StackAfter {
			add(finding.DHPotWrongWinner, seatField(i, "stack_after"), strconv.FormatInt(want, 10), strconv.FormatInt(s.StackAfter, 10), "the pots as logged do not give this stack")
		}
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
