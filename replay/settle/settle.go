// Package settle settles one round of any game under its rules profile and
// totals it: what `fairhold settle` prints. Casino Hold'em rounds are
// settled box by box ([casino.Settle]), Double Hold'em hands action by
// action ([double.Settle]).
//
// Start with [Round].
package settle

import (
	"fmt"
	"strings"

	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
)

// Result is one round's settlement: the JSON of `fairhold settle --json`
// (docs/report-format.md, "Machine output of the commands"). Amounts are
// integer minor units.
type Result struct {
	// RoundID and Game are the round's.
	RoundID string `json:"round_id"`
	Game    string `json:"game"`
	// Profile is the name of the rules profile settled under, ProfileHash
	// its SHA-256 ([profile.Profile.Hash]).
	Profile     string `json:"profile"`
	ProfileHash string `json:"profile_hash"`
	// Void is true for a void round: every stake returned, nothing paid.
	Void bool `json:"void,omitempty"`
	// Boxes are the Casino Hold'em boxes' bets, returns and reasons.
	Boxes []casino.BoxResult `json:"boxes,omitempty"`
	// Double is the Double Hold'em hand's pots, winners, rake and stacks.
	Double *double.Result `json:"double,omitempty"`
	// Totals are the round's totals.
	Totals Totals `json:"totals"`
}

// Totals are a round's stakes, returns and rake.
type Totals struct {
	// Staked is every stake of the round: ANTE, CALL and AA Bonus of every
	// box, or every seat's chips put in.
	Staked int64 `json:"staked"`
	// Returned is every return: the boxes' returns, or the pots paid.
	Returned int64 `json:"returned"`
	// Rake is the house's rake (Double Hold'em).
	Rake int64 `json:"rake,omitempty"`
}

// UnsettledError is the error of a round that cannot be settled: a
// malformed field or an illegal action. Its text is the game's error.
type UnsettledError struct{ Err error }

func (e *UnsettledError) Error() string { return e.Err.Error() }
func (e *UnsettledError) Unwrap() error { return e.Err }

// Round settles r under p, a profile of r's game. Errors: an
// [*UnsettledError] for a round that cannot be settled; a total that
// overflows an int64 ([money.ErrOverflow], naming the total).
func Round(p *profile.Profile, r *round.Round) (*Result, error) {
	out := &Result{RoundID: r.RoundID, Game: r.Game, Profile: p.Name, ProfileHash: p.Hash(), Void: r.Void}
	if p.Game == profile.GameDoubleHoldem {
		res, err := double.Settle(p, r)
		if err != nil {
			return nil, &UnsettledError{err}
		}
		out.Double = res
		for _, s := range r.Double.Seats {
			out.Totals.Staked += res.Contributed[s.Seat]
		}
		for _, pot := range res.Pots {
			out.Totals.Returned += pot.Amount
		}
		out.Totals.Rake = res.Rake
		return out, nil
	}
	boxes, err := casino.Settle(p, r)
	if err != nil {
		return nil, &UnsettledError{err}
	}
	out.Boxes = boxes
	var staked, returned []int64
	for _, b := range boxes {
		staked = append(staked, b.Ante, b.Call, b.Bonus)
		returned = append(returned, b.AnteReturn, b.CallReturn, b.BonusReturn)
	}
	if out.Totals.Staked, err = money.Sum(staked...); err != nil {
		return nil, fmt.Errorf("total stake: %w", err)
	}
	if out.Totals.Returned, err = money.Sum(returned...); err != nil {
		return nil, fmt.Errorf("total return: %w", err)
	}
	return out, nil
}

// Diff is one amount a round record logs that is not the rules': a return
// of one of a box's bets (Casino Hold'em) or a seat's stack after the hand
// (Double Hold'em). The JSON of a member of `fairhold settle --json`'s
// "mismatches".
type Diff struct {
	// Field is the record's field: "boxes[0].ante_return",
	// "double.seats[2].stack_after" (the index in the record's list).
	Field string `json:"field"`
	// Bet names the amount in words: "box 1 ANTE", "box 2 CALL",
	// "box 1 AA Bonus", "seat 3 stack after" (the box's or seat's number).
	Bet string `json:"bet"`
	// Rules is what the rules give, Logged what the record logs, in minor
	// units.
	Rules  int64 `json:"rules"`
	Logged int64 `json:"logged"`
}

// Text says d in words, its amounts in units of currency ([money.Format]):
// "box 1 ANTE: the rules pay EUR 32.00, the log says EUR 31.99".
func (d Diff) Text(currency string) string {
	verb := "pay"
	if strings.HasSuffix(d.Bet, "stack after") {
		verb = "give"
	}
	return fmt.Sprintf("%s: the rules %s %s, the log says %s", d.Bet, verb, money.Format(d.Rules, currency), money.Format(d.Logged, currency))
}

// Diffs compares the returns r logs (Casino Hold'em) or its seats' stacks
// after the hand (Double Hold'em) with o, r's settlement, and returns
// those that differ, in the record's order (ANTE, CALL, AA Bonus of each
// box): an empty list, never nil, when every one is the rules'.
func Diffs(o *Result, r *round.Round) []Diff {
	out := []Diff{}
	add := func(field, bet string, rules, logged int64) {
		if rules != logged {
			out = append(out, Diff{Field: field, Bet: bet, Rules: rules, Logged: logged})
		}
	}
	if o.Double != nil {
		if r.Double == nil {
			return out
		}
		for i, s := range r.Double.Seats {
			if after, ok := o.Double.StackAfter[s.Seat]; ok {
				add(fmt.Sprintf("double.seats[%d].stack_after", i), fmt.Sprintf("seat %d stack after", s.Seat), after, s.StackAfter)
			}
		}
		return out
	}
	for i := range r.Boxes {
		if i >= len(o.Boxes) {
			break
		}
		b, res := &r.Boxes[i], &o.Boxes[i]
		add(fmt.Sprintf("boxes[%d].ante_return", i), fmt.Sprintf("box %d ANTE", b.Box), res.AnteReturn, b.AnteReturn)
		add(fmt.Sprintf("boxes[%d].call_return", i), fmt.Sprintf("box %d CALL", b.Box), res.CallReturn, b.CallReturn)
		add(fmt.Sprintf("boxes[%d].bonus_return", i), fmt.Sprintf("box %d AA Bonus", b.Box), res.BonusReturn, b.BonusReturn)
	}
	return out
}
