package pageround

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/settle"
)

// PayoutCheck is the name of the check that a round record's logged
// returns (or Double Hold'em stacks after the hand) are the rules' for
// the cards its seeds deal: `fairhold verify --round` and the verifier
// page report it after the fairness checks.
const PayoutCheck = "payout"

// Payout is the settlement of a round record and its payout check.
type Payout struct {
	// Settlement is the record settled with the cards the seeds deal
	// (`fairhold settle --json` of [WithDeal]'s record).
	Settlement *settle.Result `json:"settlement"`
	// Mismatches are the logged amounts that are not the rules' (empty
	// when every one is).
	Mismatches []settle.Diff `json:"mismatches"`
	// Check is the payout check: ok when there is no mismatch; its detail
	// names each bet that differs and both amounts, in units of the
	// record's currency.
	Check check.Item `json:"check"`
}

// WithDeal returns a copy of rec with the cards deal gives in place of
// the ones it logs: the k-th box in play (in box order) gets the k-th
// hand, a Double Hold'em seat its seat's cards, the dealer the dealer's,
// and the board as many cards as rec logs (a fold, or a hand that ended
// early, logs fewer than five). A nil deal leaves rec's cards.
func WithDeal(rec *round.Round, deal *layout.Deal) *round.Round {
	r := *rec
	if deal == nil {
		return &r
	}
	board := append(slices.Clone(deal.Flop), deal.Turn, deal.River)
	if len(rec.Board) < len(board) {
		board = board[:len(rec.Board)]
	}
	r.Board = board
	if deal.Dealer != nil {
		r.Dealer = slices.Clone(deal.Dealer)
	}
	r.Boxes = slices.Clone(rec.Boxes)
	inPlay := make([]int, 0, len(r.Boxes))
	for _, b := range r.Boxes {
		inPlay = append(inPlay, b.Box)
	}
	slices.Sort(inPlay)
	for i := range r.Boxes {
		k := slices.Index(inPlay, r.Boxes[i].Box)
		switch {
		case deal.Player != nil:
			r.Boxes[i].Cards = slices.Clone(deal.Player)
		case k < len(deal.Boxes):
			r.Boxes[i].Cards = slices.Clone(deal.Boxes[k])
		}
	}
	if rec.Double != nil {
		d := *rec.Double
		d.Seats = slices.Clone(rec.Double.Seats)
		for i := range d.Seats {
			for _, s := range deal.Seats {
				if s.Seat == d.Seats[i].Seat {
					d.Seats[i].Cards = slices.Clone(s.Cards)
				}
			}
		}
		r.Double = &d
	}
	return &r
}

// SettlePayout settles rec with the cards deal gives ([WithDeal]) under p
// and compares the amounts rec logs with the settlement ([settle.Diffs]).
// The error is the settlement's: a round that cannot be settled.
func SettlePayout(p *profile.Profile, rec *round.Round, deal *layout.Deal) (*Payout, error) {
	r := WithDeal(rec, deal)
	res, err := settle.Round(p, r)
	if err != nil {
		return nil, err
	}
	diffs := settle.Diffs(res, r)
	out := &Payout{Settlement: res, Mismatches: diffs, Check: check.Item{Name: PayoutCheck, OK: len(diffs) == 0}}
	if len(diffs) == 0 {
		what := "return"
		if res.Double != nil {
			what = "stack after the hand"
		}
		out.Check.Detail = fmt.Sprintf("every logged %s equals the settlement under profile %s", what, p.Name)
	} else {
		texts := make([]string, len(diffs))
		for i, d := range diffs {
			texts[i] = d.Text(rec.Currency)
		}
		out.Check.Detail = strings.Join(texts, "; ")
	}
	if deal == nil {
		out.Check.Detail += " (settled with the cards the record logs)"
	}
	return out, nil
}

// PayoutDeal is the deal a record's payout is settled with, from its
// verification v: the cards the seeds deal, or nil (the cards the record
// logs) when they cannot be derived or differ from the logged ones. A
// record whose cards are not the seeds' fails the cards check; its payout
// check then says whether the logged hand was paid by the rules, a
// question of its own.
func PayoutDeal(v Verdict) *layout.Deal {
	for _, c := range v.Checks {
		if c.Name == check.Cards && !c.OK {
			return nil
		}
	}
	return v.Cards
}

// PayoutJSON is the page's payout (the WebAssembly build's payout): rec
// is a round record's JSON, verdict the JSON of its round's verification
// ([Verify]; empty: none), whose cards it is settled with ([PayoutDeal]).
// The record is settled under the built-in profile it names, or its
// game's.
func PayoutJSON(rec, verdict []byte) (*Payout, error) {
	r, err := ParseRecord(rec)
	if err != nil {
		return nil, err
	}
	var d *layout.Deal
	if len(bytes.TrimSpace(verdict)) > 0 {
		var v Verdict
		if err := json.Unmarshal(verdict, &v); err != nil {
			return nil, fmt.Errorf("verdict: %w", err)
		}
		d = PayoutDeal(v)
	}
	name := r.Profile
	if name == "" {
		name = r.Game
	}
	p, err := profile.Builtin(name)
	if err != nil {
		return nil, err
	}
	return SettlePayout(p, r, d)
}

// ParseRecord decodes one round record (docs/log-format.md): unknown
// fields are an error, and a field of the wrong type is named.
func ParseRecord(b []byte) (*round.Round, error) {
	var r round.Round
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Field == "":
			return nil, fmt.Errorf("round: got a JSON %s, want an object (one round)", te.Value)
		case errors.As(err, &te):
			return nil, fmt.Errorf("round: %s: got a JSON %s, want %s", te.Field, te.Value, te.Type)
		case errors.Is(err, io.EOF):
			return nil, errors.New("round: empty; want one JSON round")
		}
		return nil, fmt.Errorf("round: %w", err)
	}
	if dec.More() {
		return nil, errors.New("round: trailing data after the round")
	}
	return &r, nil
}
