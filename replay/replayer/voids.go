package replayer

import (
	"fmt"
	"math"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// Voids are not a way out: an operator that voids, with a proper refund,
// the rounds its players would have won keeps every balance right and
// every void refunded, and only the pattern of its voids shows it. The
// replay therefore counts every table's voids by reason, re-settles every
// void Casino Hold'em round as if it had been played ([audit.IfPlayed]),
// and tests whether voids fall on rounds won for the players more often
// than played rounds are won.
//
// # The test
//
// The unit is the round: a round is won for the players when its boxes
// together return more than they stake (on the 6-box live table the boxes
// of a round share the dealer's hand and one void cancels them all, so
// they are not independent; the round is). A played round's outcome is
// its logged returns (a wrong return is a finding of its own); a void
// round's is its re-settlement. Under the null hypothesis that voids do
// not depend on the outcome, the wins among a table's R re-settled voids
// are Binomial(R, w), w the table's win rate of played rounds. The test is
// exact and one-sided: P = P(X >= wins), computed in log space
// (binomial.go). w is estimated from the played rounds; so that its
// sampling error cannot make a finding on a small table, the reference
// rate is the upper end of its exact (Clopper-Pearson) one-sided
// confidence interval at level 1 - [VoidBiasAlpha] (at 1,000,000 played
// rounds and w near 0.43 it is w + 0.0024). A table with P <
// [VoidBiasAlpha] is a VOID_BIAS finding: a false one has probability at
// most 2 * 10^-6 per table (10^-6 that the reference rate is below the
// true one, 10^-6 that the test rejects when it is not), however many
// rounds the table has: at most 2T * 10^-6 for a log of T tables, 10,000,000
// clean rounds included.
//
// Power (measured with these functions; w = 0.432 for the simulated
// single-box table, whose players call most hands, and 0.491 for a round
// of the simulated live table): when every void is a win the test needs
// 17 voids at the single-box table and 20 at the live table once the
// played rounds are many (100,000 or more; 18 and 21 at 10,000, 21 and 25
// at 1,000, where the reference rate is higher). With honest voids at 2
// per 1,000 rounds, an operator voiding E won rounds more is found with
// probability 1/2 at E = 35, 75, 206 and 625 at the single-box table
// (41, 84, 232 and 704 at the live table) for 10^4, 10^5, 10^6 and 10^7
// rounds: 0.35% of the rounds at 10^4, 0.006% at 10^7.
//
// Double Hold'em voids are counted per table and reason but not tested:
// the house is not a party to the pots (the players play each other and
// the house's only gain is the rake, which a void forgoes), and a void
// hand is logged before any action, so there are no decisions to settle
// it by and no "won for the players" to test.

// VoidBiasAlpha is the void-bias test's level: P below it is a VOID_BIAS
// finding. The played rounds' win rate is taken at the upper end of its
// 1 - VoidBiasAlpha confidence interval.
const VoidBiasAlpha = 1e-6

// NoVoidReason stands for an empty void_reason in [TableVoids.Reasons].
const NoVoidReason = "(none)"

// TableVoids are the voids of one table of one game.
type TableVoids struct {
	Table string `json:"table"`
	Game  string `json:"game"`
	// Rounds is the table's rounds in the log, void or not; the rates are
	// per round of the table.
	Rounds int64 `json:"rounds"`
	VoidCounts
	// Reasons are the voids by void_reason (NoVoidReason for none).
	Reasons map[string]VoidCounts `json:"reasons"`
	// Played is the Casino Hold'em table's played (non-void) rounds whose
	// amounts are known, PlayedWon those won for the players.
	Played    int64 `json:"played"`
	PlayedWon int64 `json:"played_won"`
	// IfPlayed is, by currency, what the re-settled void rounds would have
	// staked and returned had they been played; Net is what the players
	// would have won (negative: lost).
	IfPlayed map[string]IfPlayedTotals `json:"if_played,omitempty"`
	// Test is the void-bias test; nil when the table has no re-settled void
	// or no played round, and for Double Hold'em.
	Test *VoidTest `json:"test,omitempty"`
}

// VoidCounts count void rounds.
type VoidCounts struct {
	Voids int64 `json:"voids"`
	// Rate is Voids over the table's rounds.
	Rate float64 `json:"rate"`
	// Resettled is the void rounds re-settled as if played (Casino
	// Hold'em), ResettledWon those that would have been won for the
	// players.
	Resettled    int64 `json:"resettled"`
	ResettledWon int64 `json:"resettled_won"`
}

// IfPlayedTotals are stakes and returns as if void rounds had been played.
type IfPlayedTotals struct {
	Wagered  int64 `json:"wagered"`
	Returned int64 `json:"returned"`
	Net      int64 `json:"net"`
}

// VoidTest is one table's void-bias test.
type VoidTest struct {
	// PlayedRate is PlayedWon / Played; ReferenceRate the upper end of its
	// 1 - VoidBiasAlpha confidence interval, the rate the voids are tested
	// against.
	PlayedRate    float64 `json:"played_rate"`
	ReferenceRate float64 `json:"reference_rate"`
	// P is P(X >= ResettledWon) for X ~ Binomial(Resettled,
	// ReferenceRate); Log10P its decimal logarithm (P itself is 0 below
	// 1e-308).
	P      float64 `json:"p"`
	Log10P float64 `json:"log10_p"`
	// Biased is P < VoidBiasAlpha: a VOID_BIAS finding.
	Biased bool `json:"biased"`
}

// finishVoids fills s.Voids from the tables and returns the VOID_BIAS
// findings, in the order of the tables.
func (s *Summary) finishVoids() []finding.Finding {
	var out []finding.Finding
	for _, k := range s.sortedTables() {
		ts := s.tables[k]
		tv := TableVoids{Table: k.table, Game: k.game, Rounds: ts.rounds, VoidCounts: ts.voids,
			Reasons: map[string]VoidCounts{}, Played: ts.played, PlayedWon: ts.playedWon}
		rate := func(c VoidCounts) VoidCounts {
			if ts.rounds > 0 {
				c.Rate = float64(c.Voids) / float64(ts.rounds)
			}
			return c
		}
		tv.VoidCounts = rate(tv.VoidCounts)
		for reason, c := range ts.reasons {
			tv.Reasons[reason] = rate(*c)
		}
		if len(ts.ifPlayed) > 0 {
			tv.IfPlayed = map[string]IfPlayedTotals{}
			for cur, ip := range ts.ifPlayed {
				tv.IfPlayed[cur] = *ip
			}
		}
		casinoGame := k.game == round.CasinoHoldem || k.game == round.LiveCasinoHoldem
		if casinoGame && tv.Resettled > 0 && tv.Played > 0 {
			tv.Test = voidTest(tv.Played, tv.PlayedWon, tv.Resettled, tv.ResettledWon)
			if tv.Test.Biased {
				out = append(out, voidBiasFinding(&tv))
			}
		}
		s.Voids = append(s.Voids, tv)
	}
	return out
}

// voidTest tests won wins among voids re-settled voids against the win
// rate of played rounds (playedWon of played).
func voidTest(played, playedWon, voids, won int64) *VoidTest {
	ref := binomUpperLimit(played, playedWon, VoidBiasAlpha)
	lp := logBinomUpper(voids, won, ref)
	return &VoidTest{
		PlayedRate: float64(playedWon) / float64(played), ReferenceRate: ref,
		P: math.Exp(lp), Log10P: lp / math.Ln10, Biased: lp < math.Log(VoidBiasAlpha),
	}
}

func voidBiasFinding(tv *TableVoids) finding.Finding {
	t := tv.Test
	p := fmt.Sprintf("%.2g", t.P)
	if t.P < 1e-300 {
		p = fmt.Sprintf("10^%.1f", t.Log10P)
	}
	return finding.Finding{
		Code: finding.VoidBias, Severity: finding.SeverityOf(finding.VoidBias), Row: -1, Field: "void",
		Expected: fmt.Sprintf("a win rate of voided rounds near the played rounds' %.4f (at most %.4f)", t.PlayedRate, t.ReferenceRate),
		Actual:   fmt.Sprintf("%d wins in %d voids (p = %s)", tv.ResettledWon, tv.Resettled, p),
		Detail: fmt.Sprintf("table %s (%s): %d of %d played rounds won for the players; its void rounds re-settled as if played, exact one-sided binomial test at p < %g",
			tv.Table, tv.Game, tv.PlayedWon, tv.Played, VoidBiasAlpha),
	}
}
