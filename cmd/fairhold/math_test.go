package main

import (
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/certify/rtp"
	"github.com/fairhold/fairhold/certify/strategy"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMathPartialJSON(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "s.parquet")
	out, stderr, code := runCLI("math", "casino-holdem", "--json", "--max-flop-classes", "1", "--strategy-out", pq)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stderr, "no progress bar when stderr is not a terminal")
	var r struct {
		Partial                bool             `json:"partial"`
		States                 int              `json:"states"`
		Deals                  int64            `json:"deals"`
		Fold                   int64            `json:"fold"`
		CallDealerNotQualified int64            `json:"call_dealer_not_qualified"`
		CallWin                int64            `json:"call_win"`
		CallLose               int64            `json:"call_lose"`
		CallTie                int64            `json:"call_tie"`
		AnteWins               map[string]int64 `json:"ante_wins"`
		PlayerResultAntes      int64            `json:"player_result_antes"`
		AABonus                struct {
			RTPCollectAllDirect string `json:"rtp_collect_all_direct_exact"`
		} `json:"aa_bonus"`
		Claims []rtp.MathClaim `json:"claims"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	fc := exact.FlopClasses()[0]
	assert.True(t, r.Partial)
	assert.Equal(t, int64(fc.Weight)*1176*exact.Completions, r.Deals)
	assert.Equal(t, r.Deals, r.Fold+r.CallDealerNotQualified+r.CallWin+r.CallLose+r.CallTie)
	var wins, paid int64
	pays := exact.DefaultParams().AntePays
	for _, c := range hand.Categories() {
		wins += r.AnteWins[c.String()]
		paid += r.AnteWins[c.String()] * pays[c-1]
	}
	assert.Equal(t, r.CallDealerNotQualified+r.CallWin, wins)
	assert.Equal(t, paid+2*r.CallWin-3*r.CallLose-r.Fold, r.PlayerResultAntes)
	assert.Equal(t, "101357/108290", r.AABonus.RTPCollectAllDirect) // 2,432,568 / 2,598,960
	require.NotEmpty(t, r.Claims)
	for _, c := range r.Claims {
		assert.Equal(t, claimSkip, c.Status, c.Name)
	}

	f, err := os.Open(pq)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	rows, err := parquet.Read[exact.StrategyRow](f, st.Size())
	require.NoError(t, err)
	assert.Len(t, rows, r.States)
}

func TestMathHuman(t *testing.T) {
	out, stderr, code := runCLI("math", "casino-holdem", "--max-flop-classes", "1")
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{"PARTIAL RUN: 1 flop classes", "RTP per total wager", "RTP per ante", "AA Bonus", "by starting hand", "SKIP main-optimal"} {
		assert.Contains(t, out, want)
	}
}

func TestMathUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"math", "poker"}, "unknown game"},
		{[]string{"math", "casino-holdem", "--bonus-ratio", "-1"}, "--bonus-ratio"},
		{[]string{"math", "casino-holdem", "--bonus-ratio", "x"}, "--bonus-ratio"},
		{[]string{"math", "casino-holdem", "--profile", "no-such-profile"}, "no such built-in profile"},
		{[]string{"math", "casino-holdem", "--profile", "live-casino-holdem"}, "is for live-casino-holdem"},
		{[]string{"math", "double-holdem"}, "unknown game"},
		{[]string{"math"}, "accepts 1 arg"},
	} {
		out, stderr, code := runCLI(tc.args...)
		assert.Equal(t, 2, code, tc.args)
		assert.Empty(t, out, tc.args)
		assert.Contains(t, stderr, tc.want, tc.args)
	}
}

func TestMathParams(t *testing.T) {
	rng, err := profile.Builtin("casino-holdem")
	require.NoError(t, err)
	g, err := mathParams(rng)
	require.NoError(t, err)
	assert.Equal(t, exact.DefaultParams(), g.params, "the RNG profile is the default paytable")
	assert.Equal(t, hand.MinPair(card.Four), g.qualifier)
	assert.True(t, g.hasBonus)
	assert.True(t, g.forfeit)

	live, err := profile.Builtin("live-casino-holdem")
	require.NoError(t, err)
	g, err = mathParams(live)
	require.NoError(t, err)
	// High card is below the minimum hand and pays ante_below_min_hand_pays;
	// one pair straddles it and pays the same on both sides.
	assert.Equal(t, exact.DefaultParams().AntePays, g.params.AntePays)
	assert.False(t, g.hasBonus)

	split := live.Clone()
	split.Casino.AnteBelowMinHandPays = 0
	_, err = mathParams(split)
	assert.ErrorContains(t, err, "splits one-pair")

	noPush := rng.Clone()
	noPush.Casino.CallPushWhenDealerNotQualified = false
	_, err = mathParams(noPush)
	assert.ErrorContains(t, err, "not supported")
}

func TestCheckClaims(t *testing.T) {
	prof, err := profile.Builtin("casino-holdem")
	require.NoError(t, err)
	g, err := mathParams(prof)
	require.NoError(t, err)
	// A made-up outcome: RTP per total wager 99.18265%, AA Bonus 93.5977%
	// collected and 90.94% forfeited.
	o := &exact.Outcome{
		Ante: 1, Deals: 100, States: 100,
		Result:             big.NewInt(-100_000 + 99_182_650*0 - 0),
		Wagered:            big.NewInt(0),
		BonusReturnAll:     93,
		BonusReturnForfeit: 91,
	}
	// Wagered W and result R with (W+R)/W = 0.9918265.
	o.Wagered = big.NewInt(10_000_000)
	o.Result = big.NewInt(-81_735)
	claims, err := checkClaims(g, o, nil, false, false, nil)
	require.NoError(t, err)
	got := map[string]rtp.MathClaim{}
	for _, c := range claims {
		got[c.Name] = c
	}
	assert.Equal(t, claimPass, got["main-optimal"].Status)
	assert.Equal(t, "99.18", got["main-optimal"].Computed)
	assert.True(t, got["main-optimal"].Pass)
	assert.Equal(t, claimFail, got["aa-bonus-optimal"].Status) // 91.0 vs 90.9
	assert.Equal(t, "91.0", got["aa-bonus-optimal"].Computed)
	assert.False(t, got["aa-bonus-optimal"].Pass)
	assert.Equal(t, claimFail, got["aa-bonus-side-bet-optimal"].Status) // 93.00 vs 93.60
	assert.Equal(t, claimSkip, got["main-basic"].Status)
	assert.Equal(t, claimSkip, got["main-side-bet-optimal"].Status)
	assert.ErrorIs(t, claimsResult(claims), errVerificationFailed)
	assert.NoError(t, claimsResult([]rtp.MathClaim{got["main-optimal"], got["main-basic"]}))

	// Under a declared strategy: main 98.68% and bonus 89.6% pass; its
	// side-bet optimal variant, 98.60%, fails 98.7%.
	sr := &strategy.Result{
		Name: "mine", SHA256: strings.Repeat("ab", 32),
		Outcome: &exact.Outcome{Ante: 1, Deals: 100, States: 1000, BonusReturnForfeit: 896,
			Wagered: big.NewInt(10_000_000), Result: big.NewInt(-132_000)},
		SideBetOptimal: strategy.SideBetOptimal{Outcome: &exact.Outcome{Ante: 1, Deals: 100, States: 1000,
			Wagered: big.NewInt(10_000_000), Result: big.NewInt(-140_000)}},
	}
	got = map[string]rtp.MathClaim{}
	claims, err = checkClaims(g, o, sr, true, false, nil)
	require.NoError(t, err)
	for _, c := range claims {
		got[c.Name] = c
	}
	assert.Equal(t, claimPass, got["main-basic"].Status)
	assert.Equal(t, "98.6800000", got["main-basic"].ComputedExact)
	assert.Contains(t, got["main-basic"].Note, "strategy mine (sha256 abababababababab), fairhold's default")
	assert.Equal(t, claimPass, got["aa-bonus-basic"].Status)
	assert.Equal(t, "89.6", got["aa-bonus-basic"].Computed)
	assert.Equal(t, claimFail, got["main-side-bet-optimal"].Status)
	assert.Equal(t, "98.6", got["main-side-bet-optimal"].Computed)
	assert.Contains(t, got["main-side-bet-optimal"].Note, "call on every bonus win")
	assert.Equal(t, claimPass, got["main-optimal"].Status, "the optimal claims do not depend on it")
}

// A profile whose payout cap binds (1 EUR per box, the published claims
// kept): the claims the cap changes fail for stating no ante, their
// figure the capped one at ante_max (from at, called once); the AA Bonus
// collected on every win, which the cap does not change, is decided as
// before.
func TestCheckClaimsUnderCap(t *testing.T) {
	prof, err := profile.Builtin("casino-holdem")
	require.NoError(t, err)
	prof = prof.Clone()
	prof.Casino.Limits.MaxPayoutPerBox = 100
	g, err := mathParams(prof)
	require.NoError(t, err)
	outcome := func(ante, wagered, result int64) *exact.Outcome {
		return &exact.Outcome{Ante: ante, Deals: 100, States: 100, BonusReturnAll: 93, BonusReturnForfeit: 91,
			Wagered: big.NewInt(wagered), Result: big.NewInt(result)}
	}
	// Uncapped 99.18265%; at ante 50,000 with the cap 39.37%, forfeit 60%.
	o := outcome(1, 10_000_000, -81_735)
	capped := outcome(50_000, 10_000_000, -6_063_000)
	capped.BonusReturnForfeit = 60
	var antes []int64
	at := func(ante int64) (*rtp.Figures, error) {
		antes = append(antes, ante)
		return &rtp.Figures{Game: g.game, Optimal: capped}, nil
	}
	claims, err := checkClaims(g, o, nil, false, false, at)
	require.NoError(t, err)
	got := map[string]rtp.MathClaim{}
	for _, c := range claims {
		got[c.Name] = c
	}
	assert.Equal(t, []int64{50_000}, antes)
	mo := got["main-optimal"]
	assert.Equal(t, claimFail, mo.Status, "99.18%% without the cap: %s", mo.Note)
	assert.Equal(t, "39.37", mo.Computed)
	assert.Contains(t, mo.Note, "the payout cap (100 per box, winnings) binds above ante 0: the claim must state its RTP at the stakes the profile allows")
	assert.Equal(t, claimFail, got["aa-bonus-optimal"].Status)
	assert.Equal(t, "60.0", got["aa-bonus-optimal"].Computed)
	assert.Equal(t, "93.00", got["aa-bonus-side-bet-optimal"].Computed, "the cap does not change it: decided as before")
	assert.NotContains(t, got["aa-bonus-side-bet-optimal"].Note, "payout cap")
	assert.Equal(t, claimSkip, got["main-basic"].Status, "no basic strategy: not decided, cap or not")
	assert.ErrorIs(t, claimsResult(claims), errVerificationFailed)
}

func TestMathProfileFile(t *testing.T) {
	prof, err := profile.Builtin("casino-holdem")
	require.NoError(t, err)
	prof.Casino.AntePaytable[hand.RoyalFlush] = 500
	path := filepath.Join(t.TempDir(), "rich.json")
	require.NoError(t, os.WriteFile(path, prof.Canonical(), 0o600))
	out, stderr, code := runCLI("math", "casino-holdem", "--json", "--max-flop-classes", "1", "--profile", path)
	require.Equal(t, 0, code, stderr)
	var r struct {
		ProfileHash string `json:"profile_hash"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.Equal(t, prof.Hash(), r.ProfileHash)

	require.NoError(t, os.WriteFile(path, []byte(`{"name": 1}`), 0o600))
	_, stderr, code = runCLI("math", "casino-holdem", "--profile", path)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, path)
}

func TestMathLiveCap(t *testing.T) {
	out, stderr, code := runCLI("math", "live-casino-holdem", "--json", "--max-flop-classes", "1")
	require.Equal(t, 0, code, stderr)
	var r struct {
		Boxes   int             `json:"boxes"`
		AABonus json.RawMessage `json:"aa_bonus"`
		RTP     float64         `json:"rtp_total_wager"`
		Cap     struct {
			CanBind    bool             `json:"can_bind"`
			LargestWin int64            `json:"largest_win_at_ante_max"`
			BindsAbove map[string]int64 `json:"binds_above_ante"`
			RTPAtMax   float64          `json:"rtp_total_wager_at_ante_max"`
		} `json:"max_payout"`
		Claims []rtp.MathClaim `json:"claims"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.Equal(t, 6, r.Boxes)
	assert.Nil(t, r.AABonus, "the live table has no AA Bonus")
	assert.Empty(t, r.Claims)
	// Ante max 50,000, cap 1,000,000 on winnings: a royal flush wins
	// 102 antes, a straight flush 22, four of a kind 12.
	assert.True(t, r.Cap.CanBind)
	assert.EqualValues(t, 102*50_000, r.Cap.LargestWin)
	assert.Equal(t, map[string]int64{"royal-flush": 1_000_000 / 102, "straight-flush": 1_000_000 / 22}, r.Cap.BindsAbove)
	assert.Less(t, r.Cap.RTPAtMax, r.RTP, "the cap only takes away")
}

func TestMathStrategy(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.txt")
	require.NoError(t, os.WriteFile(path, []byte("# mine\nCALL IF pair or better ; otherwise fold\n"), 0o600))
	type result struct {
		Strategy *struct {
			Name   string   `json:"name"`
			SHA256 string   `json:"sha256"`
			Rules  []string `json:"rules"`
			States int64    `json:"states"`
			RTP    string   `json:"rtp_total_wager_exact"`
		} `json:"strategy"`
		ByDefault bool `json:"strategy_by_default"`
	}
	for _, tc := range []struct {
		args      []string
		name      string
		rules     []string
		byDefault bool
	}{
		{nil, strategy.SeedsBasic, nil, true},
		{[]string{"--strategy", "simple"}, "simple", nil, false},
		{[]string{"--strategy", path}, path, []string{"call if pair or better", "otherwise fold"}, false},
	} {
		args := append([]string{"math", "casino-holdem", "--json", "--max-flop-classes", "1"}, tc.args...)
		out, stderr, code := runCLI(args...)
		require.Equal(t, 0, code, stderr)
		var r result
		require.NoError(t, json.Unmarshal([]byte(out), &r))
		require.NotNil(t, r.Strategy, tc.args)
		assert.Equal(t, tc.name, r.Strategy.Name)
		assert.Len(t, r.Strategy.SHA256, 64)
		assert.Equal(t, tc.byDefault, r.ByDefault)
		assert.EqualValues(t, exact.FlopClasses()[0].Weight*1176, r.Strategy.States)
		assert.NotEmpty(t, r.Strategy.RTP)
		if tc.rules != nil {
			assert.Equal(t, tc.rules, r.Strategy.Rules)
		}
	}

	out, stderr, code := runCLI("math", "casino-holdem", "--max-flop-classes", "1", "--strategy", "cardsflip")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "declared strategy cardsflip (--strategy), sha256")
	assert.Contains(t, out, "call if hole QJ")
	assert.Contains(t, out, "side-bet optimal")

	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("call if pair or better\ncall if pear\notherwise fold\n"), 0o600))
	for _, tc := range []struct {
		strategy, want string
		code           int
	}{
		{bad, `bad.txt: strategy: rule 2 (line 2, column 9): "pear": want a condition`, exitUsage},
		{"no-such-strategy", "no such built-in strategy", exitUsage},
		{filepath.Join(dir, "missing.txt"), "missing.txt", exitError}, // a missing file: exit 1
	} {
		out, stderr, code := runCLI("math", "casino-holdem", "--max-flop-classes", "1", "--strategy", tc.strategy)
		assert.Equal(t, tc.code, code, tc.strategy)
		assert.Empty(t, out)
		assert.Contains(t, stderr, tc.want)
	}
}
