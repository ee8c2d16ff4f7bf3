package casino

import (
	"fmt"
	"sort"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
)

// RoundError reports a round that cannot be settled: a field of the round
// record that is missing, malformed or against the profile.
type RoundError struct {
	Field  string // path in the round record, e.g. "boxes[1].cards"
	Reason string
}

func (e *RoundError) Error() string { return e.Field + ": " + e.Reason }

func roundErr(field, format string, args ...any) error {
	return &RoundError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// Settle re-settles every box of a logged round from its cards, stakes and
// decisions. Stakes are the requested ones after auto-adjust when a
// request is logged, else the accepted ones, which must then be within the
// limits. Results are in box-number order, whatever the order of
// r.Boxes.
func Settle(p *profile.Profile, r *round.Round) ([]BoxResult, error) {
	t, err := Compile(p)
	if err != nil {
		return nil, err
	}
	if r.Game != p.Game {
		return nil, roundErr("game", "%q, but profile %s is for %q", r.Game, p.Name, p.Game)
	}
	if len(r.Boxes) == 0 || len(r.Boxes) > t.c.Boxes {
		return nil, roundErr("boxes", "%d boxes; want 1 to %d", len(r.Boxes), t.c.Boxes)
	}
	if r.Double != nil {
		return nil, roundErr("double", "set on a %s round", r.Game)
	}
	var seen card.Set
	parse := func(field string, ss []string) ([]card.Card, error) {
		cs := make([]card.Card, len(ss))
		for i, s := range ss {
			c, err := card.Parse(s)
			if err != nil {
				return nil, roundErr(fmt.Sprintf("%s[%d]", field, i), "%v", err)
			}
			if seen.Has(c) {
				return nil, roundErr(fmt.Sprintf("%s[%d]", field, i), "card %s dealt twice", c)
			}
			seen = seen.Add(c)
			cs[i] = c
		}
		return cs, nil
	}

	type boxIn struct {
		i     int
		bets  Bets
		d     Decision
		cards []card.Card
		adjA  bool
		adjB  bool
	}
	ins := make([]boxIn, len(r.Boxes))
	anyCall := false
	boxSeen := map[int]bool{}
	for i := range r.Boxes {
		b := &r.Boxes[i]
		f := fmt.Sprintf("boxes[%d]", i)
		if b.Box < 1 || b.Box > t.c.Boxes {
			return nil, roundErr(f+".box", "%d: want 1 to %d", b.Box, t.c.Boxes)
		}
		if boxSeen[b.Box] {
			return nil, roundErr(f+".box", "box %d appears twice", b.Box)
		}
		boxSeen[b.Box] = true
		in := boxIn{i: i}
		switch b.Decision {
		case "call":
			in.d, anyCall = Call, true
		case "fold":
			in.d = Fold
		case "":
			in.d = Unfinished
			if t.c.UnfinishedRound == profile.UnfinishedCall {
				anyCall = true
			}
		default:
			return nil, roundErr(f+".decision", "%q: want \"call\", \"fold\" or \"\" (unfinished)", b.Decision)
		}
		if in.bets.Ante, in.adjA, err = t.stake(b.AnteRequested, b.Ante, t.c.Limits.AnteMin, t.c.Limits.AnteMax); err != nil {
			return nil, roundErr(f+".ante", "%v", err)
		}
		if b.Bonus != 0 || b.BonusRequested != 0 {
			if t.c.Bonus == nil {
				return nil, roundErr(f+".bonus", "%d: profile %s has no AA Bonus", max(b.Bonus, b.BonusRequested), p.Name)
			}
			if in.bets.Bonus, in.adjB, err = t.stake(b.BonusRequested, b.Bonus, t.c.Bonus.Min, t.c.Bonus.Max); err != nil {
				return nil, roundErr(f+".bonus", "%v", err)
			}
		}
		if !r.Void {
			if len(b.Cards) != 2 {
				return nil, roundErr(f+".cards", "%d cards; want 2", len(b.Cards))
			}
			if in.cards, err = parse(f+".cards", b.Cards); err != nil {
				return nil, err
			}
		}
		ins[i] = in
	}

	var dealer [2]card.Card
	var board [5]card.Card
	if !r.Void {
		wantBoard := 3
		if anyCall {
			wantBoard = 5
			if len(r.Dealer) != 2 {
				return nil, roundErr("dealer", "%d cards; want 2", len(r.Dealer))
			}
		}
		if len(r.Board) != wantBoard && len(r.Board) != 5 {
			return nil, roundErr("board", "%d cards; want %d", len(r.Board), wantBoard)
		}
		if len(r.Dealer) != 0 && len(r.Dealer) != 2 {
			return nil, roundErr("dealer", "%d cards; want 2", len(r.Dealer))
		}
		dc, err := parse("dealer", r.Dealer)
		if err != nil {
			return nil, err
		}
		copy(dealer[:], dc)
		bc, err := parse("board", r.Board)
		if err != nil {
			return nil, err
		}
		copy(board[:], bc)
	}

	out := make([]BoxResult, len(ins))
	for k, in := range ins {
		b := &r.Boxes[in.i]
		var res BoxResult
		if r.Void {
			res, err = t.Void(b.Box, in.bets, in.d)
		} else {
			res, err = t.SettleBox(in.bets, in.d, [2]card.Card{in.cards[0], in.cards[1]}, dealer, board)
		}
		if err != nil {
			return nil, roundErr(fmt.Sprintf("boxes[%d]", in.i), "%v", err)
		}
		res.Box = b.Box
		res.AnteAdjusted, res.BonusAdjusted = in.adjA, in.adjB
		out[k] = res
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Box < out[j].Box })
	return out, nil
}

// stake returns the stake at play: the requested one after auto-adjust if
// one was logged (requested > 0), else the accepted one, which must be
// within [lo, hi].
func (t *Table) stake(requested, accepted, lo, hi int64) (int64, bool, error) {
	if requested < 0 || accepted < 0 {
		return 0, false, fmt.Errorf("negative stake")
	}
	if requested > 0 {
		return Adjust(t.c.AutoAdjust, requested, lo, hi)
	}
	if accepted < lo || accepted > hi {
		return 0, false, fmt.Errorf("accepted stake %d outside the limits %d to %d", accepted, lo, hi)
	}
	return accepted, false, nil
}
