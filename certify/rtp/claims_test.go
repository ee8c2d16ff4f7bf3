package rtp

import (
	"context"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/certify/strategy"
	"github.com/fairhold/fairhold/replay/profile"
)

// cappedProfile is the built-in casino-holdem profile with a payout cap of
// limit per box (winnings) and its published claims kept.
func cappedProfile(t *testing.T, limit int64) *profile.Profile {
	t.Helper()
	p, err := profile.Builtin("casino-holdem")
	require.NoError(t, err)
	p = p.Clone()
	p.Name = "capped"
	p.Casino.Limits.MaxPayoutPerBox = limit
	return p
}

// partialStates are the states of the test flops (a partial solution).
func partialStates(t *testing.T, g *Game) []exact.State {
	t.Helper()
	v, ok := solOnce.Load("casino-holdem")
	if !ok {
		sol, err := exact.Solve(context.Background(), g.Qualifier, exact.Options{Flops: testFlops()})
		require.NoError(t, err)
		v, _ = solOnce.LoadOrStore("casino-holdem", sol)
	}
	return v.(*exact.Solution).States
}

// claimsAtUncapped returns the profile's claims with each figure replaced
// by what the game without the cap gives over states (the published
// figures are over every deal; the test solves a few flops): the claims
// the uncapped game reproduces, as the attack's published 99.18% is.
func claimsAtUncapped(t *testing.T, g *Game, f *Figures, claims []profile.RTPClaim) []profile.RTPClaim {
	t.Helper()
	var out []profile.RTPClaim
	for _, cl := range claims {
		fig, _ := f.Claim(cl)
		require.NotNil(t, fig, cl.Name)
		cl.Percent = new(big.Rat).Mul(fig, big.NewRat(100, 1)).FloatString(cl.Decimals)
		out = append(out, cl)
	}
	return out
}

func byName(cs []Claim) map[string]Claim {
	m := map[string]Claim{}
	for _, c := range cs {
		m[c.Name] = c
	}
	return m
}

// The attack: a profile that caps a box's win at 1 EUR (100 minor units)
// keeps claims the uncapped game reproduces. The cap binds at every ante
// the table allows; the main game's claims state no ante, so they fail.
// A figure the cap cannot change (the AA Bonus when every win is
// collected, outside the cap) is decided as before. The same claim stated
// at an ante is decided there with the cap: the uncapped figure fails,
// the capped one passes.
func TestClaimsUnderBindingCap(t *testing.T) {
	g, err := NewGame(cappedProfile(t, 100))
	require.NoError(t, err)
	above, binds := g.CapBindsAbove()
	assert.True(t, binds)
	assert.EqualValues(t, 0, above, "a royal flush wins 102 antes: 100 binds at ante 1")

	states := partialStates(t, g)
	basic, err := strategy.Builtin(strategy.SeedsBasic)
	require.NoError(t, err)
	uncapped, err := FiguresAt(g, states, 0, basic, "")
	require.NoError(t, err)
	// FiguresAt at ante 0 is in antes, uncapped: the game's own params.
	f := &Figures{Game: g, Optimal: uncapped.Optimal, Basic: uncapped.Basic}
	claims := claimsAtUncapped(t, g, f, g.Profile.RTPClaims)
	calls := map[int64]int{}
	at := func(ante int64) (*Figures, error) {
		calls[ante]++
		return FiguresAt(g, states, ante, basic, "")
	}

	// Without a cap, every one of these claims reproduces.
	free, err := NewGame(cappedProfile(t, 0))
	require.NoError(t, err)
	got, err := DecideClaims(free, claims, &Figures{Game: free, Optimal: f.Optimal, Basic: f.Basic}, nil)
	require.NoError(t, err)
	for _, c := range got {
		assert.Equal(t, ClaimPass, c.Status, "%s: %s", c.Name, c.Note)
	}

	got, err = DecideClaims(g, claims, f, at)
	require.NoError(t, err)
	require.Len(t, got, len(claims))
	m := byName(got)
	for _, name := range []string{"main-optimal", "main-basic", "main-side-bet-optimal"} {
		c := m[name]
		assert.Equal(t, ClaimFail, c.Status, name)
		assert.True(t, c.CapUnstated, name)
		assert.Contains(t, c.Note, "the payout cap (100 per box, winnings) binds above ante 0")
		assert.Contains(t, c.Note, "must state its RTP at the stakes the profile allows (at_ante, 100 to 50000)")
		assert.NotEqual(t, c.Claimed, c.Computed, "%s: computed is the figure at ante_max with the cap", name)
	}
	// A capped win of 100 at ante 50,000: the optimal strategy folds
	// nearly everything, far below the claim.
	capped, _ := strconvPercent(m["main-optimal"].Computed)
	claimed, _ := strconvPercent(m["main-optimal"].Claimed)
	assert.Less(t, capped, claimed-10)
	// The AA Bonus forfeited on a fold under the optimal strategy rests on
	// the main game's payoffs, which the cap changes: it fails too.
	assert.Equal(t, ClaimFail, m["aa-bonus-optimal"].Status)
	assert.True(t, m["aa-bonus-optimal"].CapUnstated)
	// Every bonus win collected, or the basic strategy's folds: the cap
	// does not touch the figure.
	for _, name := range []string{"aa-bonus-side-bet-optimal", "aa-bonus-basic"} {
		c := m[name]
		assert.Equal(t, ClaimPass, c.Status, "%s: %s", name, c.Note)
		assert.False(t, c.CapUnstated, name)
	}
	assert.Equal(t, map[int64]int{50_000: 1}, calls, "the capped figures at ante_max, computed once")

	// Stated at ante 100, the uncapped figure fails there; the figure
	// the capped game gives at ante 100 passes.
	cl := claimNamed(t, claims, "main-optimal")
	cl.AtAnte = 100
	at100, err := FiguresAt(g, states, 100, basic, "")
	require.NoError(t, err)
	fig, _ := at100.Claim(cl)
	right := cl
	right.Name = "main-optimal-at-100"
	right.Percent = new(big.Rat).Mul(fig, big.NewRat(100, 1)).FloatString(cl.Decimals)
	got, err = DecideClaims(g, []profile.RTPClaim{cl, right}, f, at)
	require.NoError(t, err)
	assert.Equal(t, ClaimFail, got[0].Status)
	assert.False(t, got[0].CapUnstated)
	assert.EqualValues(t, 100, got[0].AtAnte)
	assert.Contains(t, got[0].Note, "at ante 100, the payout cap (100 per box) applied")
	assert.Equal(t, ClaimPass, got[1].Status, got[1].Note)
	assert.Equal(t, got[0].ComputedExact, got[1].ComputedExact)
}

// A cap that binds only above ante 9,803 (1,000,000 per box, a royal flush
// winning 102 antes): a claim stated at ante 5,000 is decided exactly as
// the uncapped game decides it, and the capped figures are not computed;
// at ante_max the cap changes it.
func TestClaimsAtAnteBelowCap(t *testing.T) {
	g, err := NewGame(cappedProfile(t, 1_000_000))
	require.NoError(t, err)
	above, binds := g.CapBindsAbove()
	assert.True(t, binds)
	assert.EqualValues(t, 1_000_000/102, above)

	states := partialStates(t, g)
	f, err := FiguresAt(g, states, 0, nil, "")
	require.NoError(t, err)
	main := []profile.RTPClaim{claimNamed(t, g.Profile.RTPClaims, "main-optimal")}
	claims := claimsAtUncapped(t, g, f, main)
	before := Decide(claims[0], mustFig(f.Claim(claims[0])), "")
	require.Equal(t, ClaimPass, before.Status)

	calls := 0
	at := func(ante int64) (*Figures, error) { calls++; return FiguresAt(g, states, ante, nil, "") }
	cl := claims[0]
	cl.AtAnte = 5000
	got, err := DecideClaims(g, []profile.RTPClaim{cl}, f, at)
	require.NoError(t, err)
	assert.Equal(t, before.Status, got[0].Status)
	assert.Equal(t, before.ComputedExact, got[0].ComputedExact)
	assert.Contains(t, got[0].Note, "at ante 5000, where the payout cap reduces no win")
	assert.Zero(t, calls)

	// Without at_ante the cap, binding at ante_max, fails the claim.
	got, err = DecideClaims(g, claims, f, at)
	require.NoError(t, err)
	assert.Equal(t, ClaimFail, got[0].Status)
	assert.True(t, got[0].CapUnstated)
	assert.Contains(t, got[0].Note, "binds above ante 9803")
	assert.Equal(t, 1, calls)
}

// CapBindsAbove: the largest win per ante is the royal flush's ANTE +
// CALL win, with the stakes under the "total" scope; a cap no win at
// ante_max reaches does not bind, and no cap never does.
func TestCapBindsAbove(t *testing.T) {
	for _, c := range []struct {
		limit int64
		scope string
		above int64
		binds bool
	}{
		{0, profile.PayoutCapWinnings, 0, false},
		{100, profile.PayoutCapWinnings, 0, true},
		{1_000_000, profile.PayoutCapWinnings, 9803, true},
		{1_000_000, profile.PayoutCapTotal, 1_000_000 / 105, true},
		{102 * 50_000, profile.PayoutCapWinnings, 50_000, false},
		{102*50_000 - 1, profile.PayoutCapWinnings, 49_999, true},
	} {
		p := cappedProfile(t, c.limit)
		p.Casino.MaxPayoutScope = c.scope
		g, err := NewGame(p)
		require.NoError(t, err)
		above, binds := g.CapBindsAbove()
		assert.Equal(t, c.above, above, "%d %s", c.limit, c.scope)
		assert.Equal(t, c.binds, binds, "%d %s", c.limit, c.scope)
	}
}

func claimNamed(t *testing.T, claims []profile.RTPClaim, name string) profile.RTPClaim {
	t.Helper()
	for _, cl := range claims {
		if cl.Name == name {
			return cl
		}
	}
	t.Fatalf("no claim %s", name)
	return profile.RTPClaim{}
}

func mustFig(fig *big.Rat, _ string) *big.Rat { return fig }

func strconvPercent(s string) (float64, bool) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, false
	}
	f, _ := r.Float64()
	return f, true
}
