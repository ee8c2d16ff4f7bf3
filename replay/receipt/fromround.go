package receipt

import (
	"fmt"
	"strings"

	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/round"
)

// Players returns the players of r, each once, in box (seat) order.
func Players(r *round.Round) []string {
	var out []string
	add := func(p string) {
		for _, q := range out {
			if q == p {
				return
			}
		}
		out = append(out, p)
	}
	for _, b := range r.Boxes {
		add(b.PlayerID)
	}
	if r.Double != nil {
		for _, s := range r.Double.Seats {
			add(s.PlayerID)
		}
	}
	return out
}

// ErrNotAtRound is returned by [FromRound] for a player who holds no box
// or seat of the round.
var ErrNotAtRound = fmt.Errorf("the player holds no box or seat of the round")

// FromRound returns what player's receipt of r says (docs/receipts.md
// section 4), for the operator operator, without a commitment index. Every
// string is copied, so the receipt may be kept after r is reused.
func FromRound(r *round.Round, player, operator string) (*Receipt, error) {
	c := strings.Clone
	rc := &Receipt{
		Operator:   c(operator),
		Round:      c(r.RoundID),
		Game:       c(r.Game),
		Table:      c(r.TableID),
		TableSeq:   r.TableSeq,
		Time:       c(r.Time),
		Player:     c(player),
		Currency:   c(r.Currency),
		Scheme:     c(r.Fairness.Scheme),
		Commitment: c(r.Fairness.Commitment),
		ChainIndex: r.Fairness.ChainIndex,
		Nonce:      r.Fairness.Nonce,
		Void:       r.Void,
		Board:      cloneStrings(r.Board),
	}
	seeds := r.Fairness.ClientSeeds
	wallet := func(k int) string {
		if k < len(r.WalletIDs) {
			return c(r.WalletIDs[k])
		}
		return ""
	}
	sum := func(acc *int64, v int64) error {
		s, err := money.Add(*acc, v)
		*acc = s
		return err
	}
	if r.Double == nil {
		rc.Dealer = cloneStrings(r.Dealer)
		first := -1
		for k, b := range r.Boxes {
			if b.PlayerID != player {
				continue
			}
			if len(seeds) != len(r.Boxes) {
				return nil, fmt.Errorf("round %s: %d client seeds for %d boxes; a receipt needs one client seed per box", r.RoundID, len(seeds), len(r.Boxes))
			}
			if first < 0 {
				first = k
				rc.Wallet = wallet(k)
				rc.BalanceBefore = b.BalanceBefore
			}
			rc.BalanceAfter = b.BalanceAfter
			rc.Boxes = append(rc.Boxes, Box{
				Box: b.Box, ClientSeed: c(seeds[k]), Cards: cloneStrings(b.Cards),
				Ante: b.Ante, Bonus: b.Bonus, Decision: c(b.Decision), Call: b.Call,
				AnteReturn: b.AnteReturn, CallReturn: b.CallReturn, BonusReturn: b.BonusReturn,
			})
			for _, v := range []int64{b.Ante, b.Call, b.Bonus} {
				if err := sum(&rc.Stakes, v); err != nil {
					return nil, fmt.Errorf("round %s: the player's stakes: %w", r.RoundID, err)
				}
			}
			for _, v := range []int64{b.AnteReturn, b.CallReturn, b.BonusReturn} {
				if err := sum(&rc.Returns, v); err != nil {
					return nil, fmt.Errorf("round %s: the player's returns: %w", r.RoundID, err)
				}
			}
		}
		if first < 0 {
			return nil, fmt.Errorf("round %s, player %q: %w", r.RoundID, trunc(player), ErrNotAtRound)
		}
		return rc, nil
	}
	h := r.Double
	k := -1
	for i, s := range h.Seats {
		if s.PlayerID == player {
			k = i
			break
		}
	}
	if k < 0 {
		return nil, fmt.Errorf("round %s, player %q: %w", r.RoundID, trunc(player), ErrNotAtRound)
	}
	if len(seeds) != len(h.Seats) {
		return nil, fmt.Errorf("round %s: %d client seeds for %d seats; a receipt needs one client seed per seat", r.RoundID, len(seeds), len(h.Seats))
	}
	s := h.Seats[k]
	rc.Wallet = wallet(k)
	rc.Seat = &Seat{Seat: s.Seat, ClientSeed: c(seeds[k]), Cards: cloneStrings(s.Cards), BonusCard: c(s.BonusCard)}
	rc.BalanceBefore, rc.BalanceAfter = s.StackBefore, s.StackAfter
	for _, a := range h.Actions {
		if a.Seat == s.Seat {
			if err := sum(&rc.Stakes, a.Amount); err != nil {
				return nil, fmt.Errorf("round %s: the player's stakes: %w", r.RoundID, err)
			}
		}
	}
	for _, p := range h.Pots {
		for j, w := range p.Winners {
			if w == s.Seat && j < len(p.Shares) {
				if err := sum(&rc.Returns, p.Shares[j]); err != nil {
					return nil, fmt.Errorf("round %s: the player's returns: %w", r.RoundID, err)
				}
			}
		}
	}
	return rc, nil
}

func cloneStrings(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.Clone(s)
	}
	return out
}
