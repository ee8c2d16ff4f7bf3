package replayer

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// replayMem replays rounds held in memory and returns the summary and the
// findings.
func replayMem(t *testing.T, rs []round.Round, workers int, cur *currency.Table) (*Summary, []finding.Finding) {
	t.Helper()
	var fs []finding.Finding
	s, err := Replay(memDataset{rs}, Options{Workers: workers, Config: config(t), Currencies: cur,
		Findings: func(f *finding.Finding) error { fs = append(fs, *f); return nil }})
	require.NoError(t, err)
	s.Seconds = 0
	return s, fs
}

// TestVoidBias: an operator that voids, with a proper refund, rounds the
// player would have won passes every per-round check; the void-bias test
// finds it. Voids that do not depend on the outcome are not a finding.
func TestVoidBias(t *testing.T) {
	won := func(res casino.BoxResult) bool { return res.Returned() > res.Staked() }
	t.Run("voids on wins", func(t *testing.T) {
		n := 0
		rs := genRoundsVoiding(t, 3000, 7, func(k int, res casino.BoxResult) bool {
			if k%10 == 3 && won(res) && n < 40 {
				n++
				return true
			}
			return false
		})
		require.Equal(t, 40, n)
		s, fs := replayMem(t, rs, 2, nil)
		require.Len(t, fs, 1, "only the void bias: every void is refunded and the balances chain")
		f := fs[0]
		assert.Equal(t, finding.VoidBias, f.Code)
		assert.Equal(t, finding.Critical, f.Severity)
		assert.Empty(t, f.RoundID)
		assert.Equal(t, int64(-1), f.Row)
		assert.Equal(t, "void", f.Field)
		assert.Contains(t, f.Actual, "40 wins in 40 voids")
		assert.Contains(t, f.Detail, "table rng-1 (casino-holdem)")
		require.Len(t, s.Voids, 1)
		v := s.Voids[0]
		assert.Equal(t, int64(3000), v.Rounds)
		assert.Equal(t, VoidCounts{Voids: 40, Rate: 40.0 / 3000, Resettled: 40, ResettledWon: 40, ResettledBig: v.ResettledBig, ResettledHuge: v.ResettledHuge}, v.VoidCounts)
		assert.LessOrEqual(t, v.ResettledHuge, v.ResettledBig)
		assert.Equal(t, v.Test.P, v.Tests["won"].P)
		assert.Equal(t, map[string]VoidCounts{"connection-lost": v.VoidCounts}, v.Reasons)
		assert.Equal(t, int64(2960), v.Played)
		require.NotNil(t, v.Test)
		assert.True(t, v.Test.Biased)
		assert.Less(t, v.Test.Log10P, -6.0)
		assert.Greater(t, v.Test.ReferenceRate, v.Test.PlayedRate)
		ip := v.IfPlayed["EUR"]
		assert.Positive(t, ip.Net, "the players would have won")
		assert.Equal(t, ip.Returned-ip.Wagered, ip.Net)
		// Determinism: the same summary and findings with 1 and 3 workers.
		s3, fs3 := replayMem(t, rs, 3, nil)
		assert.Equal(t, s, s3)
		assert.Equal(t, fs, fs3)
	})
	t.Run("voids at random", func(t *testing.T) {
		rs := genRoundsVoiding(t, 3000, 7, func(k int, _ casino.BoxResult) bool { return k%50 == 7 })
		s, fs := replayMem(t, rs, 2, nil)
		assert.Empty(t, fs)
		v := s.Voids[0]
		assert.Equal(t, int64(60), v.Voids)
		assert.Equal(t, int64(60), v.Resettled)
		require.NotNil(t, v.Test)
		assert.False(t, v.Test.Biased)
		assert.Greater(t, v.Test.P, 1e-3)
	})
}

// TestVoidResettledFromTheSeeds: a void round that logs no board is
// re-settled from the cards the seeds deal.
func TestVoidResettledFromTheSeeds(t *testing.T) {
	rs := genRoundsVoiding(t, 200, 3, func(k int, _ casino.BoxResult) bool { return k == 17 })
	rs[17].Board, rs[17].Dealer = nil, nil
	rs[17].Boxes[0].Decision = ""
	s, fs := replayMem(t, rs, 1, nil)
	assert.Empty(t, fs)
	assert.Equal(t, int64(1), s.Voids[0].Resettled)
}

// TestTotalsPerCurrency: totals are kept per game and currency, never
// added across currencies; each currency shows its decimals, and a code
// neither built in nor declared is a warning.
func TestTotalsPerCurrency(t *testing.T) {
	rs := genRounds(t, 500, 5)
	codes := []string{"EUR", "BTC", "USDT", "SHIB", "ETH"}
	want := map[string]int64{}
	for k := range rs {
		// Player k%5 keeps one wallet, in one currency.
		c := codes[k%5]
		rs[k].Currency = c
		b := rs[k].Boxes[0]
		want[c] += b.Ante + b.Call + b.Bonus
	}
	s, _ := replayMem(t, rs, 2, nil)
	for c, w := range want {
		assert.Equal(t, w, s.Wagered[round.CasinoHoldem][c][BetTotal], c)
		assert.Contains(t, s.RTP[round.CasinoHoldem][c], BetTotal, c)
	}
	assert.Len(t, s.Wagered[round.CasinoHoldem], 5)
	assert.Equal(t, CurrencySeen{Decimals: 8, Source: currency.SourceCrypto, Rounds: 100}, s.Currencies["BTC"])
	assert.Equal(t, CurrencySeen{Decimals: 2, Source: currency.SourceISO, Rounds: 100}, s.Currencies["EUR"])
	assert.Equal(t, -1, s.Currencies["SHIB"].Decimals)
	assert.Equal(t, currency.SourceUnknown, s.Currencies["SHIB"].Source)
	require.Len(t, s.Warnings, 1)
	assert.Contains(t, s.Warnings[0], "currency SHIB")
	assert.Contains(t, s.Warnings[0], "--currency SHIB:DECIMALS")

	tb, err := currency.NewTable(map[string]int{"SHIB": 2, "ETH": 18})
	require.NoError(t, err)
	s, _ = replayMem(t, rs, 2, tb)
	assert.Empty(t, s.Warnings)
	assert.Equal(t, CurrencySeen{Decimals: 2, Source: currency.SourceDeclared, Rounds: 100}, s.Currencies["SHIB"])
	assert.Equal(t, 18, s.Currencies["ETH"].Decimals)
}

// TestAmountOverflowJSONL: a JSON Lines round whose returns overflow int64
// is an AMOUNT_OVERFLOW finding on that round, not damage; the other
// rounds are replayed, and the round is left out of the totals.
func TestAmountOverflowJSONL(t *testing.T) {
	rs := genRounds(t, 400, 4)
	clean := genRounds(t, 400, 4)
	b := &rs[123].Boxes[0]
	b.AnteReturn, b.CallReturn = math.MaxInt64-10, 100
	path := filepath.Join(t.TempDir(), "log.rounds.jsonl")
	writeJSONL(t, path, rs)
	var fs []finding.Finding
	s, err := Run([]string{path}, Options{Workers: 2, Config: config(t), Findings: func(f *finding.Finding) error { fs = append(fs, *f); return nil }})
	require.NoError(t, err)
	assert.Equal(t, int64(400), s.Rounds, "every round is read")
	require.NotEmpty(t, fs)
	codes := map[finding.Code]bool{}
	for _, f := range fs {
		assert.Equal(t, rs[123].RoundID, f.RoundID, "%+v", f)
		codes[f.Code] = true
	}
	assert.True(t, codes[finding.AmountOverflow])
	assert.False(t, codes[finding.InputDamaged])
	assert.Equal(t, int64(1), s.LeftOutOfTotals)
	assert.Contains(t, strings.Join(s.Warnings, "\n"), "1 rounds are left out of the totals")
	var wag int64
	for k, r := range clean {
		if k != 123 {
			wag += r.Boxes[0].Ante + r.Boxes[0].Call + r.Boxes[0].Bonus
		}
	}
	assert.Equal(t, wag, s.Wagered[round.CasinoHoldem]["EUR"][BetTotal])
}

// TestTotalsOverflowAcrossUnits: rounds whose amounts are each valid but
// whose totals would pass int64 are found one by one, in input order,
// whatever the number of workers, and the replay goes on.
func TestTotalsOverflowAcrossUnits(t *testing.T) {
	rs := genRounds(t, 3*memUnit, 5)
	big := int64(math.MaxInt64 / 5)
	// Every unit of 10,000 rounds holds some whose returns are a fifth of
	// int64 each; the totals pass int64 at the fifth of them.
	for _, k := range []int{1000, 2000, 11000, 12000, 21000, 21001, 21002} {
		rs[k].Boxes[0].BonusReturn += big
	}
	for _, w := range []int{1, 3} {
		s, fs := replayMem(t, rs, w, nil)
		var over []string
		for _, f := range fs {
			if f.Code == finding.AmountOverflow {
				over = append(over, f.RoundID)
				assert.Equal(t, "totals", f.Field)
			}
		}
		// 4 * big fits, a fifth does not: rounds 21,000 and after are left out.
		assert.Equal(t, []string{rs[21000].RoundID, rs[21001].RoundID, rs[21002].RoundID}, over, "workers %d", w)
		assert.Equal(t, int64(3), s.LeftOutOfTotals)
		assert.Equal(t, int64(3*memUnit), s.Rounds)
		assert.Positive(t, s.Returned[round.CasinoHoldem]["EUR"][BetTotal])
	}
}
