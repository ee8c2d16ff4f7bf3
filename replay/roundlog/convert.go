package roundlog

import (
	"fmt"
	"math"
	"time"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/round"
)

// cardText is the canonical text of every card, and cardIndex maps the two
// bytes of a canonical card to its index + 1 (0: not canonical).
var cardText, cardIndex = cardTables()

func cardTables() (text [card.DeckSize]string, index *[256][256]uint8) {
	index = new([256][256]uint8)
	for c := card.Card(0); c < card.DeckSize; c++ {
		s := c.String()
		text[c] = s
		if len(s) == 2 {
			index[s[0]][s[1]] = uint8(c) + 1
		}
	}
	return text, index
}

// canonicalCard returns the interned canonical text of s, accepting any
// spelling card.Parse accepts.
func canonicalCard(s string) (string, bool) {
	if len(s) == 2 {
		if ix := cardIndex[s[0]][s[1]]; ix != 0 {
			return cardText[ix-1], true
		}
	}
	c, err := card.Parse(s)
	if err != nil {
		return "", false
	}
	return cardText[c], true
}

// parseTime converts an RFC 3339 time to UTC microseconds; "" is 0.
func parseTime(field, s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	if us, ok := parseFast(s); ok {
		return us, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not an RFC 3339 time", field, s)
	}
	return t.UnixMicro(), nil
}

// formatTime is the inverse of parseTime.
func formatTime(us int64) string {
	if us == 0 {
		return ""
	}
	return time.UnixMicro(us).UTC().Format(time.RFC3339Nano)
}

func toInt64(field string, v uint64) (int64, error) {
	if v > math.MaxInt64 {
		return 0, fmt.Errorf("%s: %d does not fit a signed 64-bit column", field, v)
	}
	return int64(v), nil
}

func at(ss []string, i int) string {
	if i < len(ss) {
		return ss[i]
	}
	return ""
}

// flatten converts one round to its rows; row is the round's row index
// in the rounds file.
func (w *partWriter) flatten(r *round.Round, row int64) error {
	var err error
	rr := roundRow{
		RoundID: r.RoundID, Game: r.Game, TableID: r.TableID, Currency: r.Currency,
		Profile: r.Profile, ProfileHash: r.ProfileHash,
		Scheme: r.Fairness.Scheme, Commitment: r.Fairness.Commitment, ServerSeed: r.Fairness.ServerSeed,
		ClientSeeds:             r.Fairness.ClientSeeds,
		ClientSeedRotated:       r.Fairness.ClientSeedRotated,
		WalletIDs:               r.WalletIDs,
		BeaconChain:             r.Fairness.BeaconChain,
		BeaconSignature:         r.Fairness.BeaconSignature,
		BeaconPreviousSignature: r.Fairness.BeaconPreviousSignature,
		Void:                    r.Void, VoidReason: r.VoidReason,
		NBoxes: int32(len(r.Boxes)),
	}
	if rr.Time, err = parseTime("time", r.Time); err != nil {
		return err
	}
	if rr.CommittedAt, err = parseTime("fairness.committed_at", r.Fairness.CommittedAt); err != nil {
		return err
	}
	if rr.RevealedAt, err = parseTime("fairness.revealed_at", r.Fairness.RevealedAt); err != nil {
		return err
	}
	if rr.ChainIndex, err = toInt64("fairness.chain_index", r.Fairness.ChainIndex); err != nil {
		return err
	}
	if rr.Nonce, err = toInt64("fairness.nonce", r.Fairness.Nonce); err != nil {
		return err
	}
	if rr.TableSeq, err = toInt64("table_seq", r.TableSeq); err != nil {
		return err
	}
	if rr.BeaconRound, err = toInt64("fairness.beacon_round", r.Fairness.BeaconRound); err != nil {
		return err
	}
	if len(r.Dealer) > 2 {
		return fmt.Errorf("dealer: %d cards, at most 2 can be stored", len(r.Dealer))
	}
	if len(r.Board) > 5 {
		return fmt.Errorf("board: %d cards, at most 5 can be stored", len(r.Board))
	}
	rr.Dealer1, rr.Dealer2 = at(r.Dealer, 0), at(r.Dealer, 1)
	rr.Board1, rr.Board2, rr.Board3, rr.Board4, rr.Board5 = at(r.Board, 0), at(r.Board, 1), at(r.Board, 2), at(r.Board, 3), at(r.Board, 4)
	if len(r.Boxes) > math.MaxInt32 {
		return fmt.Errorf("boxes: too many")
	}
	for i := range r.Boxes {
		b := &r.Boxes[i]
		if len(b.Cards) != 2 {
			return fmt.Errorf("boxes[%d].cards: %d cards, want 2", i, len(b.Cards))
		}
		w.boxes = append(w.boxes, boxRow{
			RoundID: r.RoundID, RoundRow: row, Box: int32(b.Box), PlayerID: b.PlayerID,
			Card1: b.Cards[0], Card2: b.Cards[1],
			AnteRequested: b.AnteRequested, Ante: b.Ante, BonusRequested: b.BonusRequested, Bonus: b.Bonus,
			Decision: b.Decision, Call: b.Call,
			AnteReturn: b.AnteReturn, CallReturn: b.CallReturn, BonusReturn: b.BonusReturn,
			BalanceBefore: b.BalanceBefore, BalanceAfter: b.BalanceAfter,
		})
	}
	if d := r.Double; d != nil {
		rr.Button, rr.SmallBlind, rr.BigBlind, rr.Rake = int32(d.Button), d.SmallBlind, d.BigBlind, d.Rake
		rr.NSeats, rr.NActions, rr.NPots = int32(len(d.Seats)), int32(len(d.Actions)), int32(len(d.Pots))
		for i := range d.Seats {
			s := &d.Seats[i]
			if len(s.Cards) != 3 {
				return fmt.Errorf("double.seats[%d].cards: %d cards, want 3", i, len(s.Cards))
			}
			w.seats = append(w.seats, seatRow{
				RoundID: r.RoundID, RoundRow: row, Seat: int32(s.Seat), PlayerID: s.PlayerID,
				Card1: s.Cards[0], Card2: s.Cards[1], Card3: s.Cards[2],
				BonusCard: s.BonusCard, BonusAuto: s.BonusAuto,
				StackBefore: s.StackBefore, StackAfter: s.StackAfter,
			})
		}
		for i := range d.Actions {
			a := &d.Actions[i]
			w.actions = append(w.actions, actionRow{
				RoundID: r.RoundID, RoundRow: row, Seq: int32(i), Seat: int32(a.Seat),
				Street: a.Street, Kind: a.Kind, Amount: a.Amount, AllIn: a.AllIn,
			})
		}
		for i := range d.Pots {
			p := &d.Pots[i]
			if len(p.Winners) != len(p.Shares) {
				return fmt.Errorf("double.pots[%d]: %d winners but %d shares", i, len(p.Winners), len(p.Shares))
			}
			w.pots = append(w.pots, potRow{
				RoundID: r.RoundID, RoundRow: row, Pot: int32(i), Amount: p.Amount,
				Eligible: ints32(p.Eligible), Winners: ints32(p.Winners), Shares: p.Shares,
			})
		}
	} else if r.Game == round.DoubleHoldem {
		return fmt.Errorf("double: missing for a %s round", r.Game)
	}
	w.rounds = append(w.rounds, rr)
	return nil
}

func ints32(v []int) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}

func ints(v []int32) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}
