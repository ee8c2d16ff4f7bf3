// Package casino settles Casino Hold'em rounds: the RNG game with the AA
// Bonus side bet and the live table with up to six boxes, under a rules
// profile (package profile).
//
// [Settle] re-settles every box of a logged round from its cards, stakes and
// decisions. [Compile] turns a profile into a [Table] whose
// [Table.SettleBox] settles one box without allocating, for the math engine
// and the simulator. [Adjust] applies the table's auto-adjust to a
// requested stake.
//
// # Settlement
//
// A return is what a bet gives back: 0 for a lost bet, the stake for a push,
// stake + X x stake for a win "paid X:1". After CALL, with the dealer's and
// the player's best five of seven cards:
//
//   - dealer below the qualifier: ANTE paid per the ante paytable, CALL
//     returned (or lost, per call_push_when_dealer_not_qualified);
//   - player better: ANTE paid per the paytable, CALL paid 1:1;
//   - equal values: ANTE and CALL returned;
//   - dealer better: ANTE and CALL lost.
//
// The AA Bonus is decided on the player's 2 cards and the flop. A fold
// loses ANTE and (with forfeit_on_fold) the AA Bonus. The max payout per
// box caps the ANTE + CALL winnings (or returns, per max_payout_scope). A
// void round returns every stake and pays nothing.
package casino

import (
	"errors"
	"fmt"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/profile"
)

// Decision is the player's decision after the flop.
type Decision uint8

// Decisions. Unfinished is a box whose player did not decide; [Table]
// settles it by the profile's unfinished_round policy.
const (
	Unfinished Decision = iota
	Call
	Fold
)

// String returns "call", "fold" or "" (unfinished), as in round logs.
func (d Decision) String() string {
	switch d {
	case Call:
		return "call"
	case Fold:
		return "fold"
	}
	return ""
}

// Reasons for the ANTE and CALL result of a box (BoxResult.Reason).
const (
	ReasonVoid               = "void"                 // round void: every stake returned, nothing paid
	ReasonFold               = "fold"                 // the player folded: ANTE (and CALL, never placed) lost
	ReasonDealerNotQualified = "dealer-not-qualified" // ANTE paid per the paytable, CALL per the push setting
	ReasonPlayerWon          = "player-won"           // ANTE paid per the paytable, CALL 1:1
	ReasonDealerWon          = "dealer-won"           // ANTE and CALL lost
	ReasonTie                = "tie"                  // equal hands: ANTE and CALL returned
)

// Reasons for the AA Bonus result (BoxResult.BonusReason).
const (
	BonusNone    = ""                // no AA Bonus stake
	BonusWon     = "bonus-won"       // the 5-card hand is at least the min hand: paid per the bonus paytable
	BonusLost    = "bonus-lost"      // below the min hand (e.g. a pair of kings)
	BonusForfeit = "bonus-forfeited" // the player folded (forfeit_on_fold)
	BonusVoid    = "void"            // round void: stake returned
)

// Bets are the accepted stakes of one box.
type Bets struct {
	Ante  int64
	Bonus int64 // 0: no AA Bonus
}

// BoxResult is the settlement of one box.
type BoxResult struct {
	Box int `json:"box"`
	// Stakes at play (after auto-adjust) and the decision settled (after
	// the unfinished-round policy).
	Ante     int64  `json:"ante"`
	Call     int64  `json:"call"`
	Bonus    int64  `json:"bonus"`
	Decision string `json:"decision"`

	AnteReturn  int64 `json:"ante_return"`
	CallReturn  int64 `json:"call_return"`
	BonusReturn int64 `json:"bonus_return"`

	Reason      string `json:"reason"`
	BonusReason string `json:"bonus_reason,omitempty"`
	// Capped is true when the max payout per box reduced the return.
	Capped bool `json:"capped,omitempty"`
	// Unfinished is true when the decision came from the unfinished-round
	// policy; AnteAdjusted/BonusAdjusted when auto-adjust reduced a
	// requested stake.
	Unfinished    bool `json:"unfinished,omitempty"`
	AnteAdjusted  bool `json:"ante_adjusted,omitempty"`
	BonusAdjusted bool `json:"bonus_adjusted,omitempty"`

	// Hands, as category names ("flush"); empty when not needed.
	PlayerHand      string     `json:"player_hand,omitempty"`
	DealerHand      string     `json:"dealer_hand,omitempty"`
	BonusHand       string     `json:"bonus_hand,omitempty"`
	PlayerHandValue hand.Value `json:"-"`
	DealerHandValue hand.Value `json:"-"`
}

// Staked returns the total stake of the box. It cannot overflow for a box
// settled by [Settle]: stakes are within the profile's limits, and
// [profile.Profile.Validate] checks that a whole round at the limits fits
// in an int64. Sum boxes settled with other stakes with [money.Sum].
func (r *BoxResult) Staked() int64 { return r.Ante + r.Call + r.Bonus }

// Returned returns the total return of the box; see [BoxResult.Staked] for
// why it cannot overflow.
func (r *BoxResult) Returned() int64 { return r.AnteReturn + r.CallReturn + r.BonusReturn }

// Table is a profile compiled for settlement. It is immutable and safe for
// concurrent use.
type Table struct {
	c          profile.Casino
	qualifier  hand.Value
	anteMin    hand.Value
	bonusMin   hand.Value
	hasBonus   bool
	bonusTable profile.Paytable
}

// ErrNotCasino is returned by [Compile] for a profile of another game.
var ErrNotCasino = errors.New("casino: profile is not a Casino Hold'em profile")

// Compile prepares a profile for settlement.
func Compile(p *profile.Profile) (*Table, error) {
	if p == nil || p.Casino == nil {
		return nil, ErrNotCasino
	}
	t := &Table{c: *p.Casino}
	t.qualifier = p.Casino.DealerQualifier.Value()
	t.anteMin = p.Casino.AnteMinHand.Value()
	if b := p.Casino.Bonus; b != nil {
		t.hasBonus = true
		t.bonusMin = b.MinHand.Value()
		t.bonusTable = b.Paytable
	}
	return t, nil
}

// SettleBox compiles p and settles one box; see [Table.SettleBox].
func SettleBox(p *profile.Profile, bets Bets, d Decision, player, dealer [2]card.Card, board [5]card.Card) (BoxResult, error) {
	t, err := Compile(p)
	if err != nil {
		return BoxResult{}, err
	}
	return t.SettleBox(bets, d, player, dealer, board)
}

// SettleBox settles one box with accepted stakes bets. The cards must be
// distinct and valid (not checked here; [Settle] checks them). After a
// fold only the player's cards and the flop (board[0:3]) are read. It does
// not allocate.
func (t *Table) SettleBox(bets Bets, d Decision, player, dealer [2]card.Card, board [5]card.Card) (BoxResult, error) {
	var r BoxResult
	if bets.Ante <= 0 {
		return r, fmt.Errorf("casino: ante %d: want a positive stake", bets.Ante)
	}
	if bets.Bonus < 0 || (bets.Bonus > 0 && !t.hasBonus) {
		return r, fmt.Errorf("casino: aa bonus %d: the table has no AA Bonus", bets.Bonus)
	}
	r.Ante, r.Bonus = bets.Ante, bets.Bonus
	if d == Unfinished {
		r.Unfinished = true
		switch t.c.UnfinishedRound {
		case profile.UnfinishedCall:
			d = Call
		case profile.UnfinishedVoid:
			t.void(&r)
			return r, nil
		default:
			d = Fold
		}
	}
	r.Decision = d.String()
	if r.Bonus > 0 {
		v := hand.Eval5([5]card.Card{player[0], player[1], board[0], board[1], board[2]})
		r.BonusHand = v.Category().String()
		switch {
		case d == Fold && t.c.Bonus.ForfeitOnFold:
			r.BonusReason = BonusForfeit
		case v >= t.bonusMin:
			r.BonusReason = BonusWon
			ret, err := payX(r.Bonus, t.bonusTable.Pays(v.Category()))
			if err != nil {
				return r, err
			}
			r.BonusReturn = ret
		default:
			r.BonusReason = BonusLost
		}
	}
	if d == Fold {
		r.Reason = ReasonFold
		return r, nil
	}
	call, err := money.Mul(r.Ante, t.c.CallMultiple)
	if err != nil {
		return r, err
	}
	r.Call = call
	pv := hand.Eval7([7]card.Card{player[0], player[1], board[0], board[1], board[2], board[3], board[4]})
	dv := hand.Eval7([7]card.Card{dealer[0], dealer[1], board[0], board[1], board[2], board[3], board[4]})
	r.PlayerHandValue, r.DealerHandValue = pv, dv
	r.PlayerHand, r.DealerHand = pv.Category().String(), dv.Category().String()
	antePays := t.c.AnteBelowMinHandPays
	if pv >= t.anteMin {
		antePays = t.c.AntePaytable.Pays(pv.Category())
	}
	switch {
	case dv < t.qualifier:
		r.Reason = ReasonDealerNotQualified
		if r.AnteReturn, err = payX(r.Ante, antePays); err != nil {
			return r, err
		}
		if t.c.CallPushWhenDealerNotQualified {
			r.CallReturn = r.Call
		}
	case pv > dv:
		r.Reason = ReasonPlayerWon
		if r.AnteReturn, err = payX(r.Ante, antePays); err != nil {
			return r, err
		}
		if r.CallReturn, err = payX(r.Call, 1); err != nil {
			return r, err
		}
	case pv == dv:
		r.Reason = ReasonTie
		r.AnteReturn, r.CallReturn = r.Ante, r.Call
	default:
		r.Reason = ReasonDealerWon
	}
	t.capPayout(&r)
	return r, nil
}

// payX returns the return of stake paid x:1.
func payX(stake, x int64) (int64, error) {
	w, err := money.Mul(stake, x)
	if err != nil {
		return 0, err
	}
	return money.Add(stake, w)
}

// capPayout applies the max payout per box to ANTE + CALL. Under the
// "winnings" scope the ANTE winnings are kept first, then the CALL
// winnings; under "total" the ANTE return first, then the CALL return.
// The sums are checked: SettleBox takes stakes beyond the profile's limits
// (the math engine's), and a wrapped sum would pass under the cap. A sum
// that does not fit in an int64 is above any cap, so it is capped.
func (t *Table) capPayout(r *BoxResult) {
	limit := t.c.Limits.MaxPayoutPerBox
	if limit <= 0 {
		return
	}
	if t.c.MaxPayoutScope == profile.PayoutCapTotal {
		if total, err := money.Add(r.AnteReturn, r.CallReturn); err == nil && total <= limit {
			return
		}
		r.Capped = true
		r.AnteReturn = min(r.AnteReturn, limit)
		r.CallReturn = min(r.CallReturn, limit-r.AnteReturn)
		return
	}
	// Returns are at least 0 and stakes positive, so these cannot overflow.
	anteWin := max(r.AnteReturn-r.Ante, 0)
	callWin := max(r.CallReturn-r.Call, 0)
	if win, err := money.Add(anteWin, callWin); err == nil && win <= limit {
		return
	}
	r.Capped = true
	anteWin = min(anteWin, limit)
	callWin = min(callWin, limit-anteWin)
	r.AnteReturn = r.Ante + anteWin
	r.CallReturn = r.Call + callWin
}

func (t *Table) void(r *BoxResult) {
	r.Reason = ReasonVoid
	r.AnteReturn, r.CallReturn = r.Ante, r.Call
	if r.Bonus > 0 {
		r.BonusReason = BonusVoid
		r.BonusReturn = r.Bonus
	}
}

// Void returns the result of a voided box: every stake (CALL included when
// it was placed) returned, nothing paid.
func (t *Table) Void(box int, bets Bets, d Decision) (BoxResult, error) {
	r := BoxResult{Box: box, Ante: bets.Ante, Bonus: bets.Bonus, Decision: d.String()}
	if d == Call {
		c, err := money.Mul(bets.Ante, t.c.CallMultiple)
		if err != nil {
			return r, err
		}
		r.Call = c
	}
	t.void(&r)
	return r, nil
}

// Adjust applies the table's limits to a requested stake: a stake above max
// is reduced to max under auto_adjust "reduce-to-max" (adjusted is then
// true); below min, or above max under "reject", it is an error.
func Adjust(policy string, requested, lo, hi int64) (accepted int64, adjusted bool, err error) {
	switch {
	case requested < lo:
		return 0, false, fmt.Errorf("%d is below the minimum %d", requested, lo)
	case requested <= hi:
		return requested, false, nil
	case policy == profile.AdjustReduceToMax:
		return hi, true, nil
	}
	return 0, false, fmt.Errorf("%d is above the maximum %d", requested, hi)
}
