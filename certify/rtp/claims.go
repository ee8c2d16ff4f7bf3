package rtp

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/fairhold/fairhold/certify/exact"
)

// ClaimStatus is the outcome of one published claim.
type ClaimStatus string

// The outcomes of a claim.
const (
	ClaimPass       ClaimStatus = "pass"        // the exact figure, rounded to the claim's decimals, is the claim
	ClaimFail       ClaimStatus = "fail"        // it is another figure
	ClaimNotChecked ClaimStatus = "not-checked" // no figure to decide it (Note says why)
)

// Claim is one published RTP claim of a profile, decided against the
// exact mathematics.
type Claim struct {
	Name        string `json:"name"`
	Bet         string `json:"bet"`         // "main" or "aa-bonus"
	Strategy    string `json:"strategy"`    // "optimal", "basic" or "side-bet-optimal"
	Denominator string `json:"denominator"` // "ante+call", "ante" or "aa-bonus"
	Claimed     string `json:"claimed"`     // the published percentage, as published
	// Computed is the exact figure in percent rounded to the claim's
	// decimals; ComputedExact to six more.
	Computed      string      `json:"computed,omitempty"`
	ComputedExact string      `json:"computed_exact,omitempty"`
	Status        ClaimStatus `json:"status"`
	Note          string      `json:"note,omitempty"`
}

// Math is the exact mathematics of a profile under the optimal strategy
// and its published claims: the result of a suite's "math-claims"
// requirement.
type Math struct {
	Game        string `json:"game"`
	Profile     string `json:"profile"`
	ProfileHash string `json:"profile_hash"`
	Deals       int64  `json:"deals"`
	// The optimal strategy's figures: RTP per unit of total wager (ANTE +
	// CALL) and per unit of ante, exact as fractions and in float64; the
	// standard deviation of one round's result in antes.
	RTPTotalWager      float64 `json:"rtp_total_wager"`
	RTPTotalWagerExact string  `json:"rtp_total_wager_exact"`
	RTPAnte            float64 `json:"rtp_ante"`
	RTPAnteExact       string  `json:"rtp_ante_exact"`
	StdDevAntes        float64 `json:"std_dev_antes"`
	// The AA Bonus: every win collected, and forfeited on a fold under the
	// optimal strategy (when the profile forfeits it).
	BonusRTPCollectAll string `json:"aa_bonus_rtp_collect_all_exact,omitempty"`
	BonusRTPOptimal    string `json:"aa_bonus_rtp_optimal_exact,omitempty"`
	// Claims are the claims decided, in the profile's order.
	Claims []Claim `json:"claims"`
}

// Strategies named by the claims of a profile.
const (
	StrategyOptimal        = "optimal"
	StrategyBasic          = "basic"
	StrategySideBetOptimal = "side-bet-optimal"
)

// NoBasicStrategy is the note of a claim under a basic strategy: this
// build defines none, so such a claim is not decided.
const NoBasicStrategy = "the rules define no basic strategy and this build declares none: the claim is not decided"

// CheckClaims computes the exact figures of g under the optimal strategy
// from a complete solution and decides the profile's claims whose strategy
// is in strategies (all of them when strategies is empty); the others are
// left out. A claim under the basic strategy (and the main game's under
// the side-bet-optimal strategy, which rests on it) is not checked.
func CheckClaims(g *Game, sol *exact.Solution, strategies []string) (*Math, error) {
	p := g.Params
	o, err := exact.Tally(sol.States, p, exact.Optimal(p))
	if err != nil {
		return nil, err
	}
	if o.States != exact.HoleFlopStates {
		return nil, fmt.Errorf("rtp: the solution covers %d of %d (hole, flop) states: a partial solution decides no claim", o.States, exact.HoleFlopStates)
	}
	m := &Math{Game: g.Profile.Game, Profile: g.Profile.Name, ProfileHash: g.Profile.Hash(), Deals: o.Deals,
		RTPTotalWager: ratFloat(o.RTPTotalWager()), RTPTotalWagerExact: o.RTPTotalWager().RatString(),
		RTPAnte: ratFloat(o.RTPAnte()), RTPAnteExact: o.RTPAnte().RatString(), StdDevAntes: o.StdDev(),
		Claims: []Claim{}}
	if g.HasBonus {
		m.BonusRTPCollectAll = o.BonusRTPCollectAll().RatString()
		m.BonusRTPOptimal = m.BonusRTPCollectAll
		if g.Forfeit {
			m.BonusRTPOptimal = o.BonusRTPForfeit().RatString()
		}
	}
	for _, cl := range g.Profile.RTPClaims {
		if len(strategies) > 0 && !slices.Contains(strategies, cl.Strategy) {
			continue
		}
		c := Claim{Name: cl.Name, Bet: cl.Bet, Strategy: cl.Strategy, Denominator: cl.Denominator, Claimed: cl.Percent}
		var fig *big.Rat
		switch {
		case cl.Bet == "main" && cl.Strategy == StrategyOptimal && cl.Denominator == "ante+call":
			fig = o.RTPTotalWager()
		case cl.Bet == "main" && cl.Strategy == StrategyOptimal && cl.Denominator == "ante":
			fig = o.RTPAnte()
		case cl.Bet == "aa-bonus" && cl.Strategy == StrategyOptimal && g.HasBonus:
			fig = o.BonusRTPCollectAll()
			c.Note = "AA Bonus paid whatever the player does"
			if g.Forfeit {
				fig, c.Note = o.BonusRTPForfeit(), "AA Bonus forfeited on a fold, main-game optimal strategy"
			}
		case cl.Bet == "aa-bonus" && cl.Strategy == StrategySideBetOptimal && g.HasBonus:
			fig, c.Note = o.BonusRTPCollectAll(), "every bonus win collected (the player calls on every bonus win)"
		case cl.Strategy == StrategyBasic || cl.Strategy == StrategySideBetOptimal:
			c.Note = NoBasicStrategy
		default:
			c.Note = "no such figure"
		}
		if fig == nil {
			c.Status = ClaimNotChecked
			m.Claims = append(m.Claims, c)
			continue
		}
		pct := new(big.Rat).Mul(fig, big.NewRat(100, 1))
		c.Computed = pct.FloatString(cl.Decimals)
		c.ComputedExact = pct.FloatString(cl.Decimals + 6)
		c.Status = ClaimFail
		if c.Computed == cl.Percent {
			c.Status = ClaimPass
		}
		m.Claims = append(m.Claims, c)
	}
	return m, nil
}

func ratFloat(r *big.Rat) float64 { f, _ := r.Float64(); return f }
