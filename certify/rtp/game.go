// Package rtp compares a Casino Hold'em game's returns with its exact
// mathematics (package exact): the profile's published RTP claims, and a
// round log's observed returns against what the rules give.
//
// Start with [NewGame], which puts a rules profile in the terms of package
// exact, and solve it once ([exact.Solve] with [Game.Qualifier]). Then:
//
//   - [CheckClaims] decides the profile's published RTP claims
//     ([profile.RTPClaim]) to their stated precision, under the profile's
//     payout cap ([DecideClaims]: a claim the binding cap changes must
//     state the ante it holds at).
//   - [NewTheory] indexes the solution's states; [Theory.Box] gives the
//     exact mean and variance of a box's returns given its hole cards, the
//     flop and the decision the player took.
//   - An [Observer] takes a log's rounds one by one and compares, per game
//     and currency, what the boxes returned with what their decisions
//     give ([Observer.Report]): per bet type, the observed RTP inside its
//     confidence interval; and over all bets, the standardized sum of the
//     boxes' deviations, the round being the independent unit.
//
// docs/suite-format.md says which cheat each test has power against.
package rtp

import (
	"errors"
	"fmt"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/profile"
)

// Game is a Casino Hold'em rules profile in the terms of package exact.
type Game struct {
	Profile *profile.Profile
	// Params are the paytables in antes, without the payout cap.
	Params exact.Params
	// Qualifier is the dealer's qualifying hand: the solution's.
	Qualifier hand.Value
	// HasBonus: the table offers the AA Bonus; Forfeit: a fold forfeits
	// it.
	HasBonus, Forfeit bool
}

// ErrUnsupported is wrapped by [NewGame]'s errors: the profile is not a
// Casino Hold'em game the exact mathematics can describe.
var ErrUnsupported = errors.New("profile not supported by the exact mathematics")

// NewGame puts a Casino Hold'em profile in the terms of package exact. A
// profile of another game, one where the call does not push against a
// dealer who does not qualify, or one whose ante_min_hand splits a hand
// category into two pays is an error wrapping [ErrUnsupported]: the
// exact engine pays by category.
func NewGame(p *profile.Profile) (*Game, error) {
	c := p.Casino
	if c == nil {
		return nil, fmt.Errorf("%w: profile %s: game %s has no Casino Hold'em settings", ErrUnsupported, p.Name, p.Game)
	}
	if !c.CallPushWhenDealerNotQualified {
		return nil, fmt.Errorf("%w: profile %s: casino.call_push_when_dealer_not_qualified=false", ErrUnsupported, p.Name)
	}
	g := &Game{Profile: p, Qualifier: c.DealerQualifier.Value()}
	par := exact.Params{CallMultiple: c.CallMultiple}
	// Hands below ante_min_hand pay ante_below_min_hand_pays; a category
	// the minimum splits must pay the same on both sides.
	minAnte := c.AnteMinHand.Value()
	for _, cat := range hand.Categories() {
		lo, hi := hand.MinOfCategory(cat), hand.MinOfCategory(cat)+hand.Value(hand.ClassCount(cat)-1)
		switch {
		case hi < minAnte:
			par.AntePays[cat-1] = c.AnteBelowMinHandPays
		case lo >= minAnte:
			par.AntePays[cat-1] = c.AntePaytable.Pays(cat)
		case c.AntePaytable.Pays(cat) == c.AnteBelowMinHandPays:
			par.AntePays[cat-1] = c.AnteBelowMinHandPays
		default:
			return nil, fmt.Errorf("%w: profile %s: casino.ante_min_hand %s splits %s, which then pays %d or %d",
				ErrUnsupported, p.Name, c.AnteMinHand, cat, c.AntePaytable.Pays(cat), c.AnteBelowMinHandPays)
		}
	}
	par.BonusMin = hand.MinOfCategory(hand.RoyalFlush)
	if b := c.Bonus; b != nil {
		g.HasBonus, g.Forfeit = true, b.ForfeitOnFold
		par.BonusMin = b.MinHand.Value()
		for _, cat := range hand.Categories() {
			par.BonusPays[cat-1] = b.Paytable.Pays(cat)
		}
	}
	if err := par.Validate(); err != nil {
		return nil, fmt.Errorf("%w: profile %s: %w", ErrUnsupported, p.Name, err)
	}
	g.Params = par
	return g, nil
}

// AtAnte returns the parameters in money units for a box of ante: the
// table's payout cap applies to its ANTE + CALL.
func (g *Game) AtAnte(ante int64) exact.Params {
	p := g.Params
	p.Ante = ante
	c := g.Profile.Casino
	p.MaxPayout = c.Limits.MaxPayoutPerBox
	p.CapIncludesStakes = c.MaxPayoutScope == profile.PayoutCapTotal
	return p
}
