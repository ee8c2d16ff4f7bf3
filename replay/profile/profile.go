// Package profile defines rules profiles: versioned JSON documents that fully
// determine how a round of Casino Hold'em, the live Casino Hold'em table or
// Double Hold'em is settled.
//
// A [Profile] names its game and holds one game section: [Casino] for the two
// Casino Hold'em games (paytables, dealer qualifier, limits, call multiple,
// AA Bonus, unfinished-round policy, boxes) or [Double] for Double Hold'em
// (betting structure, blinds, rake, bonus-card rule). Every interpretation
// the rules digests in docs/rules/ mark is a named field,
// so an auditor can see and change it; docs/rules-profiles.md documents each.
//
// # Loading
//
// [Load] takes a built-in name ([Names]) or a JSON file. [Parse] is strict:
// unknown or duplicate fields, trailing data, wrong types and invalid
// settings are errors naming the field ("casino.ante_paytable.flush: ...").
//
// # Identity
//
// [Profile.Canonical] is the compact JSON of the profile with fields in a
// fixed order; [Profile.Hash] is the hex SHA-256 of it. Parse(Canonical())
// gives a profile whose canonical form is the same bytes.
package profile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

// Games a profile can describe (the same strings as package round).
const (
	GameCasinoHoldem     = "casino-holdem"
	GameLiveCasinoHoldem = "live-casino-holdem"
	GameDoubleHoldem     = "double-holdem"
)

// Profile is one rules profile.
type Profile struct {
	Name        string   `json:"name"`    // lower-case letters, digits and '-'
	Version     int      `json:"version"` // >= 1; bumped on every change
	Game        string   `json:"game"`    // one of the Game constants
	Description string   `json:"description"`
	Sources     []string `json:"sources"` // the documents the rules come from

	// Casino is set for casino-holdem and live-casino-holdem, Double for
	// double-holdem; the other is absent.
	Casino *Casino `json:"casino,omitempty"`
	Double *Double `json:"double,omitempty"`

	// RTPClaims are the operator's published return-to-player figures, for
	// the math engine to check.
	RTPClaims []RTPClaim `json:"rtp_claims"`
}

// Unfinished-round policies.
const (
	UnfinishedFold = "fold" // the box is settled as a fold
	UnfinishedCall = "call" // the box is settled as a call
	UnfinishedVoid = "void" // every stake of the box is returned
)

// Auto-adjust policies.
const (
	AdjustReduceToMax = "reduce-to-max" // a stake above the maximum is reduced to it
	AdjustReject      = "reject"        // a stake above the maximum is not accepted
)

// Max-payout scopes.
const (
	PayoutCapWinnings = "winnings" // the cap limits ANTE + CALL winnings; stakes are returned in full
	PayoutCapTotal    = "total"    // the cap limits ANTE + CALL returns, stakes included
)

// Casino holds the settings of Casino Hold'em (RNG and live table).
type Casino struct {
	// Boxes is the number of boxes at the table (1 for the RNG game, up to
	// 6 for the live table).
	Boxes int `json:"boxes"`
	// CallMultiple: the CALL (live table: BET) stake is CallMultiple x ANTE.
	CallMultiple int64 `json:"call_multiple"`
	// DealerQualifier is the weakest dealer hand that qualifies.
	DealerQualifier Threshold `json:"dealer_qualifier"`
	// AntePaytable: "X" pays X:1 on ANTE, by the player's final 7-card
	// category, for hands at or above AnteMinHand.
	AntePaytable Paytable  `json:"ante_paytable"`
	AnteMinHand  Threshold `json:"ante_min_hand"`
	// AnteBelowMinHandPays is what ANTE pays (X:1) when it wins with a hand
	// below AnteMinHand (only possible when the dealer does not qualify).
	// Interpretation (live table): 1.
	AnteBelowMinHandPays int64 `json:"ante_below_min_hand_pays"`
	// CallPushWhenDealerNotQualified: true returns the CALL stake when the
	// dealer does not qualify; false loses it. Interpretation (live table):
	// true.
	CallPushWhenDealerNotQualified bool `json:"call_push_when_dealer_not_qualified"`
	// MaxPayoutScope says what MaxPayoutPerBox caps. Interpretation (live
	// table): "winnings".
	MaxPayoutScope string `json:"max_payout_scope"`
	Limits         Limits `json:"limits"`
	// AutoAdjust is what happens to a requested stake above its maximum.
	AutoAdjust string `json:"auto_adjust"`
	// UnfinishedRound settles a box with no decision: fold, call or void.
	UnfinishedRound string `json:"unfinished_round"`
	// Bonus is the AA Bonus side bet; absent on tables without it.
	Bonus *Bonus `json:"aa_bonus,omitempty"`
}

// Limits are stake limits per box, in minor units.
type Limits struct {
	AnteMin int64 `json:"ante_min"`
	AnteMax int64 `json:"ante_max"`
	// MaxPayoutPerBox caps one box's ANTE + CALL payout; 0 means no cap.
	MaxPayoutPerBox int64 `json:"max_payout_per_box"`
}

// Bonus is the AA Bonus side bet, settled on the player's 2 cards and the
// 3 flop cards.
type Bonus struct {
	// Paytable: "X" pays X:1 by the 5-card category, for hands at or above
	// MinHand; lower hands lose.
	Paytable Paytable  `json:"paytable"`
	MinHand  Threshold `json:"min_hand"`
	Min      int64     `json:"min"`
	Max      int64     `json:"max"`
	// ForfeitOnFold: a fold loses the bonus stake and any bonus win.
	ForfeitOnFold bool `json:"forfeit_on_fold"`
}

// Betting structures of Double Hold'em.
const (
	NoLimit    = "no-limit"
	PotLimit   = "pot-limit"
	FixedLimit = "fixed-limit"
)

// Double holds the settings of Double Hold'em.
type Double struct {
	SeatsMin int `json:"seats_min"`
	SeatsMax int `json:"seats_max"`
	// Structure is no-limit (default), pot-limit or fixed-limit.
	Structure  string `json:"structure"`
	SmallBlind int64  `json:"small_blind"`
	BigBlind   int64  `json:"big_blind"`
	// FixedLimit sizes bets under the fixed-limit structure.
	FixedLimit FixedLimitBets `json:"fixed_limit"`
	Rake       Rake           `json:"rake"`
	// ActionOrder: "clockwise" (Interpretation: the standard Texas Hold'em
	// order, to the left of the big blind pre-flop and of the button after).
	ActionOrder string `json:"action_order"`
	// AutoBonusTie says how the automatic bonus card breaks a tie of the
	// highest rank: "suited-with-third" (Interpretation: the card suited
	// with the third card, then SuitOrder) or "suit-order" (SuitOrder only).
	AutoBonusTie string `json:"auto_bonus_tie"`
	// SuitOrder ranks suits high to low for the automatic bonus card, as
	// four letters. Interpretation: "shdc".
	SuitOrder string `json:"suit_order"`
	// AutoBonusWhenAllInPreflop: a player all-in before the flop gets the
	// automatic bonus card. Interpretation: true.
	AutoBonusWhenAllInPreflop bool `json:"auto_bonus_when_all_in_preflop"`
	// SidePots: "standard" (Interpretation: a player wins only what they
	// matched).
	SidePots string `json:"side_pots"`
	// OddChip: "first-left-of-button" (the rules: the odd chip goes to the
	// winner closest to the left of the button).
	OddChip string `json:"odd_chip"`
}

// FixedLimitBets are the bet sizes of fixed-limit betting.
type FixedLimitBets struct {
	SmallBet int64 `json:"small_bet"` // pre-flop and flop
	BigBet   int64 `json:"big_bet"`   // turn and river
	MaxBets  int   `json:"max_bets"`  // bet plus raises per street, e.g. 4
}

// Rake is the house's cut of a Double Hold'em pot.
type Rake struct {
	// RateBP is the rake rate in basis points (500 = 5%), rounded down.
	RateBP int64 `json:"rate_bp"`
	// Cap is the most rake per hand; 0 means no cap.
	Cap int64 `json:"cap"`
	// NoFlopNoDrop: no rake when the hand ends before the flop.
	NoFlopNoDrop bool `json:"no_flop_no_drop"`
}

// RTPClaim is one published return-to-player figure.
type RTPClaim struct {
	// Name identifies the claim, e.g. "main-optimal".
	Name string `json:"name"`
	// Bet is "main" (ANTE and CALL) or "aa-bonus".
	Bet string `json:"bet"`
	// Strategy is the player strategy the figure assumes: "optimal",
	// "basic" or "side-bet-optimal".
	Strategy string `json:"strategy"`
	// Percent is the figure as published, e.g. "93.60"; Decimals is its
	// number of decimal places, the precision it claims.
	Percent  string `json:"percent"`
	Decimals int    `json:"decimals"`
	// Denominator is what the return is per unit of: "ante+call" (total
	// main-game wager), "ante", or "aa-bonus".
	Denominator string `json:"denominator"`
	Source      string `json:"source"`
	// AtAnte is the ante (minor units) the figure is stated at, 0 for
	// none. A Casino Hold'em claim is decided under the profile's payout
	// cap at this ante; when the cap can bind at some ante the profile
	// allows, a claim whose figure the cap changes must state it.
	AtAnte int64 `json:"at_ante,omitempty"`
}

// Threshold is a minimum hand: a category, and for one pair optionally the
// rank of the pair ("4" for "a pair of 4s or better").
type Threshold struct {
	Category string `json:"category"`       // a hand.Category name
	Pair     string `json:"pair,omitempty"` // a rank, only with "one-pair"
}

// Value returns the weakest hand value that meets the threshold. The
// threshold must be valid.
func (t Threshold) Value() hand.Value {
	c, _ := hand.ParseCategory(t.Category)
	if c == hand.OnePair && t.Pair != "" {
		r, _ := card.ParseRank(t.Pair)
		return hand.MinPair(r)
	}
	return hand.MinOfCategory(c)
}

// String describes the threshold, e.g. "one-pair of 4s".
func (t Threshold) String() string {
	if t.Pair != "" {
		return t.Category + " of " + t.Pair + "s"
	}
	return t.Category
}

// Paytable holds "X" of "pays X:1" for every hand category, indexed by
// hand.Category. Its JSON is an object with all ten category names as keys.
type Paytable [hand.NumCategories + 1]int64

// Pays returns the multiple paid for category c.
func (p *Paytable) Pays(c hand.Category) int64 {
	if c < hand.HighCard || c > hand.RoyalFlush {
		return 0
	}
	return p[c]
}

// MarshalJSON writes the paytable strongest category first.
func (p Paytable) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for c := hand.RoyalFlush; c >= hand.HighCard; c-- {
		if c != hand.RoyalFlush {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%d", c.String(), p[c])
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// UnmarshalJSON reads an object of category names to multiples. Missing and
// unknown keys are reported by [Parse] with their path.
func (p *Paytable) UnmarshalJSON(b []byte) error {
	var m map[string]int64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*p = Paytable{}
	for k, v := range m {
		c, ok := hand.ParseCategory(k)
		if !ok {
			return fmt.Errorf("unknown hand category %q", k)
		}
		p[c] = v
	}
	return nil
}

// Canonical returns the canonical form: compact JSON, fields in declaration
// order, paytables strongest category first, no insignificant whitespace.
func (p *Profile) Canonical() []byte {
	b, err := json.Marshal(p)
	if err != nil {
		// Only plain values are marshalled; this cannot fail.
		panic("profile: marshal: " + err.Error())
	}
	return b
}

// Hash returns the hex SHA-256 of the canonical form.
func (p *Profile) Hash() string {
	h := sha256.Sum256(p.Canonical())
	return hex.EncodeToString(h[:])
}

// Clone returns a deep copy of p.
func (p *Profile) Clone() *Profile {
	var q Profile
	if err := json.Unmarshal(p.Canonical(), &q); err != nil {
		panic("profile: clone: " + err.Error())
	}
	return &q
}
