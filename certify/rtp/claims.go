package rtp

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/certify/strategy"
	"github.com/fairhold/fairhold/replay/profile"
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
	// AtAnte is the ante the claim is stated at (profile.RTPClaim.AtAnte),
	// 0 for none: it is decided at that ante, the payout cap applied.
	AtAnte int64 `json:"at_ante,omitempty"`
	// CapUnstated: the payout cap binds at some ante the profile allows,
	// changes the claim's figure there, and the claim states no ante. It
	// fails: nothing says at which stakes it holds. Computed is then the
	// figure at the profile's ante_max with the cap, Note says so.
	CapUnstated bool `json:"cap_unstated,omitempty"`
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
	// BasicStrategy is the declared basic strategy's exact figures, when
	// one was declared.
	BasicStrategy *strategy.Result `json:"basic_strategy,omitempty"`
	// Claims are the claims decided, in the profile's order.
	Claims []Claim `json:"claims"`
}

// Strategies named by the claims of a profile.
const (
	StrategyOptimal        = "optimal"
	StrategyBasic          = "basic"
	StrategySideBetOptimal = "side-bet-optimal"
)

// NoBasicStrategy is the note of a claim under a basic strategy when none
// is declared: the rules define none, so the claim is not decided.
const NoBasicStrategy = "the rules define no basic strategy and none is declared: the claim is not decided"

// Figures are the exact figures a profile's claims are decided against.
type Figures struct {
	Game *Game
	// Optimal is the outcome of the main game's optimal strategy over
	// every deal ([exact.Tally] with [exact.Optimal]).
	Optimal *exact.Outcome
	// Basic is the declared basic strategy's result ([strategy.Evaluate]
	// over every deal), or nil: the claims under a basic strategy (and the
	// main game's under the side-bet-optimal one, which rests on it) are
	// then not decided.
	Basic *strategy.Result
	// BasicNote, if set, says how the basic strategy was chosen; the
	// notes of the claims decided under it end with it.
	BasicNote string
}

// Claim returns the exact figure claim cl states (a fraction: 1 is 100%)
// and a note saying what it was computed under; nil and the reason when
// there is no figure to decide it.
func (f *Figures) Claim(cl profile.RTPClaim) (*big.Rat, string) {
	g, o, sr := f.Game, f.Optimal, f.Basic
	under := ""
	if sr != nil {
		under = fmt.Sprintf("strategy %s (sha256 %.16s)", sr.Name, sr.SHA256)
		if f.BasicNote != "" {
			under += ", " + f.BasicNote
		}
	}
	main, bonus := cl.Bet == "main", cl.Bet == "aa-bonus" && g.HasBonus
	switch {
	case main && cl.Strategy == StrategyOptimal && cl.Denominator == "ante+call":
		return o.RTPTotalWager(), ""
	case main && cl.Strategy == StrategyOptimal && cl.Denominator == "ante":
		return o.RTPAnte(), ""
	case bonus && cl.Strategy == StrategyOptimal:
		if !g.Forfeit {
			return o.BonusRTPCollectAll(), "AA Bonus paid whatever the player does"
		}
		return o.BonusRTPForfeit(), "AA Bonus forfeited on a fold, main-game optimal strategy"
	case bonus && cl.Strategy == StrategySideBetOptimal:
		return o.BonusRTPCollectAll(), "every bonus win collected (the player calls on every bonus win)"
	case (cl.Strategy == StrategyBasic || cl.Strategy == StrategySideBetOptimal) && sr == nil:
		return nil, NoBasicStrategy
	case main && cl.Strategy == StrategyBasic && cl.Denominator == "ante+call":
		return sr.Outcome.RTPTotalWager(), "under " + under
	case main && cl.Strategy == StrategyBasic && cl.Denominator == "ante":
		return sr.Outcome.RTPAnte(), "under " + under
	case main && cl.Strategy == StrategySideBetOptimal && cl.Denominator == "ante+call":
		return sr.SideBetOptimal.Outcome.RTPTotalWager(), "call on every bonus win, otherwise " + under
	case main && cl.Strategy == StrategySideBetOptimal && cl.Denominator == "ante":
		return sr.SideBetOptimal.Outcome.RTPAnte(), "call on every bonus win, otherwise " + under
	case bonus && cl.Strategy == StrategyBasic:
		if !g.Forfeit {
			return sr.Outcome.BonusRTPCollectAll(), "AA Bonus paid whatever the player does"
		}
		return sr.Outcome.BonusRTPForfeit(), "AA Bonus forfeited on a fold, " + under
	}
	return nil, "no such figure"
}

// Decide returns claim cl decided against its exact figure fig (nil: not
// checked, note says why): the figure in percent, rounded to the claim's
// decimals, must be the claim's text.
func Decide(cl profile.RTPClaim, fig *big.Rat, note string) Claim {
	c := Claim{Name: cl.Name, Bet: cl.Bet, Strategy: cl.Strategy, Denominator: cl.Denominator, Claimed: cl.Percent,
		Note: note, Status: ClaimNotChecked}
	if fig == nil {
		return c
	}
	pct := new(big.Rat).Mul(fig, big.NewRat(100, 1))
	c.Computed = pct.FloatString(cl.Decimals)
	c.ComputedExact = pct.FloatString(cl.Decimals + 6)
	c.Status = ClaimFail
	if c.Computed == cl.Percent {
		c.Status = ClaimPass
	}
	return c
}

// CheckClaims computes the exact figures of g from a complete solution,
// under the optimal strategy and under basic (the declared basic
// strategy; nil for none, when the basic-strategy claims are not decided),
// and decides the profile's claims whose strategy is in strategies (all
// of them when strategies is empty); the others are left out.
func CheckClaims(g *Game, sol *exact.Solution, strategies []string, basic *strategy.Strategy) (*Math, error) {
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
	f := &Figures{Game: g, Optimal: o}
	if basic != nil {
		if f.Basic, err = strategy.Evaluate(sol.States, p, basic); err != nil {
			return nil, err
		}
		m.BasicStrategy = f.Basic
	}
	var claims []profile.RTPClaim
	for _, cl := range g.Profile.RTPClaims {
		if len(strategies) == 0 || slices.Contains(strategies, cl.Strategy) {
			claims = append(claims, cl)
		}
	}
	at := func(ante int64) (*Figures, error) { return FiguresAt(g, sol.States, ante, basic, "") }
	if m.Claims, err = DecideClaims(g, claims, f, at); err != nil {
		return nil, err
	}
	return m, nil
}

// CapBindsAbove returns the largest ante at which the profile's payout
// cap reduces no win of a box, and whether it reduces one at an ante the
// profile allows (one above it, up to casino.limits.ante_max). Without a
// cap: 0 and false. The largest win of a box is its strongest category's
// ANTE + CALL win (with the stakes when the cap's scope is "total"), as
// the exact engine pays it ([exact.Params.MaxPayout]).
func (g *Game) CapBindsAbove() (int64, bool) {
	c := g.Profile.Casino
	limit := c.Limits.MaxPayoutPerBox
	if limit == 0 {
		return 0, false
	}
	p := g.Params
	stakes := int64(0)
	if c.MaxPayoutScope == profile.PayoutCapTotal {
		stakes = 1 + p.CallMultiple
	}
	var perAnte int64 // the largest win (or return) of a box per unit of ante
	for _, x := range p.AntePays {
		perAnte = max(perAnte, x+p.CallMultiple+stakes)
	}
	above := limit / perAnte
	return above, c.Limits.AnteMax > above
}

// FiguresAt returns the figures at ante (money units) with the profile's
// payout cap applied ([Game.AtAnte]): the optimal strategy for the capped
// payoffs over states, and basic (nil for none) evaluated under them;
// basicNote as in [Figures].
func FiguresAt(g *Game, states []exact.State, ante int64, basic *strategy.Strategy, basicNote string) (*Figures, error) {
	p := g.AtAnte(ante)
	o, err := exact.Tally(states, p, exact.Optimal(p))
	if err != nil {
		return nil, err
	}
	f := &Figures{Game: g, Optimal: o, BasicNote: basicNote}
	if basic != nil {
		if f.Basic, err = strategy.Evaluate(states, p, basic); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// DecideClaims decides claims under the declared profile, its payout cap
// included. f are the figures without the cap; at returns the figures at
// an ante with the cap applied ([FiguresAt]; called once per ante, and
// only when the cap binds).
//
//   - A claim stated at an ante (at_ante) is decided at that ante: against
//     f when the cap reduces no win there, else against at(ante).
//   - A claim stated at no ante is decided against f, unless the cap binds
//     at some ante the profile allows ([Game.CapBindsAbove]) and changes
//     the claim's figure at casino.limits.ante_max: then it fails
//     (CapUnstated), since the uncapped game is not the game the profile
//     declares and the claim does not say at which stakes it holds.
func DecideClaims(g *Game, claims []profile.RTPClaim, f *Figures, at func(ante int64) (*Figures, error)) ([]Claim, error) {
	above, binds := g.CapBindsAbove()
	cache := map[int64]*Figures{}
	capped := func(ante int64) (*Figures, error) {
		if cf, ok := cache[ante]; ok {
			return cf, nil
		}
		if at == nil {
			return nil, fmt.Errorf("rtp: profile %s: no figures at ante %d with the payout cap", g.Profile.Name, ante)
		}
		cf, err := at(ante)
		if err != nil {
			return nil, err
		}
		cache[ante] = cf
		return cf, nil
	}
	lim := g.Profile.Casino.Limits
	out := []Claim{}
	for _, cl := range claims {
		fig, note := f.Claim(cl)
		switch {
		case cl.AtAnte > 0 && binds && cl.AtAnte > above:
			cf, err := capped(cl.AtAnte)
			if err != nil {
				return nil, err
			}
			fig, note = cf.Claim(cl)
			note = joinNote(fmt.Sprintf("at ante %d, the payout cap (%d per box) applied", cl.AtAnte, lim.MaxPayoutPerBox), note)
		case cl.AtAnte > 0 && lim.MaxPayoutPerBox == 0:
			note = joinNote(fmt.Sprintf("at ante %d, no payout cap", cl.AtAnte), note)
		case cl.AtAnte > 0:
			note = joinNote(fmt.Sprintf("at ante %d, where the payout cap reduces no win", cl.AtAnte), note)
		case binds && fig != nil:
			cf, err := capped(lim.AnteMax)
			if err != nil {
				return nil, err
			}
			cfig, _ := cf.Claim(cl)
			if cfig == nil || cfig.Cmp(fig) == 0 {
				break // the cap does not change this figure
			}
			c := Decide(cl, cfig, fmt.Sprintf("the payout cap (%d per box, %s) binds above ante %d: the claim must state its RTP at the stakes the profile allows (at_ante, %d to %d); computed is the figure at ante_max %d with the cap",
				lim.MaxPayoutPerBox, g.Profile.Casino.MaxPayoutScope, above, lim.AnteMin, lim.AnteMax, lim.AnteMax))
			c.Status, c.CapUnstated = ClaimFail, true
			out = append(out, c)
			continue
		}
		c := Decide(cl, fig, note)
		c.AtAnte = cl.AtAnte
		out = append(out, c)
	}
	return out, nil
}

// joinNote joins two parts of a claim's note.
func joinNote(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}

func ratFloat(r *big.Rat) float64 { f, _ := r.Float64(); return f }
