package replayer

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// Voids are not a way out: an operator that voids, with a proper refund,
// the rounds its players would have won keeps every balance right and
// every void refunded, and only the pattern of its voids shows it. The
// replay therefore counts every table's voids by reason, settles every
// Casino Hold'em round, void or played, from its cards at each box's best
// decision ([audit.IfPlayed]: nothing the operator logs after the deal
// enters), and tests whether voids fall on rounds won for the players, won
// big, or won by large amounts among rounds of the same stakes, more often
// than played rounds are: per table, and per game with its tables pooled.
//
// # The test
//
// The unit is the round: a round is won for the players when its boxes
// together return more than they stake (on the 6-box live table the boxes
// of a round share the dealer's hand and one void cancels them all, so
// they are not independent; the round is). A round's outcome, played or
// void, is its settlement at the best decisions. Under the null hypothesis that voids do
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
// clean rounds included. The big and huge tiers are tested alike, each at
// the same level; the money test shares the level among its 64 x 64
// strata and sizes (tailTest); each pool of a game's tables adds its own.
//
// Power: the figures these functions gave before issue 24 (w = 0.432 for
// the simulated single-box table, 0.491 for a round of the live table,
// wins counted under the logged decision: 17 and 20 voids that are all
// wins found once the played rounds are many) no longer hold as they
// were: every round is now judged at its best decision, which raises w
// (about 0.53 at the single-box table), so a few more voided wins are
// needed by the count test, while the tier and money tests find voids of
// large wins far sooner. docs/suite-format.md section 7 gives the figures
// measured with the adversary tests.
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
	// amounts are known and that settle from their cards; PlayedWon,
	// PlayedBig and PlayedHuge those that, settled at their best
	// ([audit.IfPlayed]), are won for the players, won big and won huge.
	Played     int64 `json:"played"`
	PlayedWon  int64 `json:"played_won"`
	PlayedBig  int64 `json:"played_big"`
	PlayedHuge int64 `json:"played_huge"`
	// IfPlayed is, by currency, what the re-settled void rounds would have
	// staked and returned had they been played; Net is what the players
	// would have won (negative: lost).
	IfPlayed map[string]IfPlayedTotals `json:"if_played,omitempty"`
	// Test is the void-bias test of wins; nil when the table has no
	// re-settled void or no played round, and for Double Hold'em. Tests
	// are the tests of each tier: "won", "big" and "huge".
	Test  *VoidTest           `json:"test,omitempty"`
	Tests map[string]VoidTest `json:"tests,omitempty"`
	// Money are the tests by money, one per currency (tailTest).
	Money []MoneyTest `json:"money,omitempty"`

	tails map[tailKey]*moneyTails
}

// tiers counts rounds by win tier ([audit.IfPlayed.Tier]): [0] the rounds
// won, [1] won big, [2] won huge.
type tiers [3]int64

func (t *tiers) add(tier int) {
	for i := range min(tier, len(t)) {
		t[i]++
	}
}

func (t *tiers) merge(o tiers) {
	for i := range t {
		t[i] += o[i]
	}
}

// Sizes of wins, by money: a round's bucket is bits.Len64 of what it wins
// at its best (0 for no win), so that bucket b >= 1 holds the wins from
// 2^(b-1) to 2^b - 1 minor units. The void test by money (tailTest) asks,
// for every size, whether voids fall on wins of that size or more more
// often than played rounds do: an operator voiding only the largest wins
// takes much of what the players won with few voids, which no count of
// wins shows. Rounds are compared within a stratum of stakes (their Base,
// by the same buckets) and a currency: voids that fall on large stakes
// more often than on small ones (players at high limits losing their
// connection as often as others, but playing more) are no finding; large
// wins voided among rounds of the same stakes are.
const tailBuckets = 65

func tailBucket(net int64) int {
	if net <= 0 {
		return 0
	}
	return bits.Len64(uint64(net))
}

// tailKey is a stratum: a currency and a stake bucket.
type tailKey struct {
	currency string
	stake    uint8
}

// moneyTails count a stratum's rounds by tailBucket.
type moneyTails struct {
	played, voids [tailBuckets]int64
}

// unitTail is a unit's played rounds of one table, one currency (the
// unit's key) and one stake bucket, by tailBucket.
type unitTail struct {
	key   int32
	stake uint8
	h     [tailBuckets]int64
}

func (t *unitTable) tail(key int32, stake uint8) *[tailBuckets]int64 {
	for i := range t.tails {
		if t.tails[i].key == key && t.tails[i].stake == stake {
			return &t.tails[i].h
		}
	}
	t.tails = append(t.tails, unitTail{key: key, stake: stake})
	return &t.tails[len(t.tails)-1].h
}

func (ts *tableState) tail(k tailKey) *moneyTails {
	mt := ts.tails[k]
	if mt == nil {
		mt = &moneyTails{}
		ts.tails[k] = mt
	}
	return mt
}

// MoneyTest is the void-bias test by money of one stratum (currency and
// stakes): the size of win at which voids are most over-represented.
type MoneyTest struct {
	Currency string `json:"currency"`
	// StakesFrom and StakesTo bound the stratum's stakes (the round's
	// antes and AA Bonus bets), in minor units.
	StakesFrom int64 `json:"stakes_from"`
	StakesTo   int64 `json:"stakes_to"`
	// AtLeast is the size of win tested, in minor units: rounds that win at
	// least this much at their best.
	AtLeast int64 `json:"at_least"`
	// Played and PlayedAtLeast, Voids and VoidsAtLeast count the rounds.
	Played        int64 `json:"played"`
	PlayedAtLeast int64 `json:"played_at_least"`
	Voids         int64 `json:"voids"`
	VoidsAtLeast  int64 `json:"voids_at_least"`
	VoidTest
}

// moneyAlphaShare is how many tests share VoidBiasAlpha in the tests by
// money (Bonferroni): every stratum of stakes times every size of win.
const moneyAlphaShare = (tailBuckets - 1) * (tailBuckets - 1)

// tailTest tests every size of win of mt (a stratum's rounds) and returns
// the most significant, with Biased set against VoidBiasAlpha shared
// among every stratum and size (moneyAlphaShare); ok is false when the
// stratum has no void or no played round.
func tailTest(k tailKey, mt *moneyTails) (MoneyTest, bool) {
	var played, voids int64
	for b := range tailBuckets {
		played += mt.played[b]
		voids += mt.voids[b]
	}
	if played == 0 || voids == 0 {
		return MoneyTest{}, false
	}
	var best MoneyTest
	found := false
	var pTail, vTail int64
	for b := tailBuckets - 1; b >= 1; b-- {
		pTail += mt.played[b]
		vTail += mt.voids[b]
		if mt.voids[b] == 0 {
			continue // the tail starting here is tested where its voids start
		}
		vt := voidTest(played, pTail, voids, vTail)
		if !found || vt.Log10P < best.Log10P {
			best = MoneyTest{Currency: k.currency, AtLeast: int64(1) << (b - 1), Played: played, PlayedAtLeast: pTail, Voids: voids, VoidsAtLeast: vTail, VoidTest: *vt}
			found = true
		}
	}
	if found {
		if k.stake > 0 {
			best.StakesFrom = int64(1) << (k.stake - 1)
			best.StakesTo = best.StakesFrom*2 - 1
		}
		best.Biased = best.Log10P < math.Log10(VoidBiasAlpha/moneyAlphaShare)
	}
	return best, found
}

// tierNames name the tiers in findings and the summary.
var tierNames = [3]string{"won", "big", "huge"}

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
	// ResettledBig and ResettledHuge are those won big and huge.
	ResettledBig  int64 `json:"resettled_big"`
	ResettledHuge int64 `json:"resettled_huge"`
}

// resettledWins returns the tier counts of the re-settled voids.
func (c *VoidCounts) resettledWins() *tierRefs {
	return &tierRefs{&c.ResettledWon, &c.ResettledBig, &c.ResettledHuge}
}

// tierRefs are tier counts held in named fields.
type tierRefs [3]*int64

func (t *tierRefs) add(tier int) {
	for i := range min(tier, len(t)) {
		*t[i]++
	}
}

// IfPlayedTotals are stakes and returns as if void rounds had been played.
type IfPlayedTotals struct {
	Wagered  int64 `json:"wagered"`
	Returned int64 `json:"returned"`
	Net      int64 `json:"net"`
	// NetWorst is what the players would have won under each box's worse
	// decision (Net is under the better one).
	NetWorst int64 `json:"net_worst"`
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

// finishVoids fills s.Voids and s.VoidsByGame from the tables and returns
// the VOID_BIAS findings: the tables' in the order of the tables, then the
// pooled games'.
func (s *Summary) finishVoids() []finding.Finding {
	var out []finding.Finding
	pools := map[string]*TableVoids{}
	tables := map[string]int{}
	for _, k := range s.sortedTables() {
		ts := s.tables[k]
		tv := TableVoids{Table: k.table, Game: k.game, Rounds: ts.rounds, VoidCounts: ts.voids,
			Reasons: map[string]VoidCounts{}, Played: ts.played,
			PlayedWon: ts.playedWins[0], PlayedBig: ts.playedWins[1], PlayedHuge: ts.playedWins[2]}
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
		tv.tails = ts.tails
		if f, ok := tv.test(); ok {
			out = append(out, f)
		}
		s.Voids = append(s.Voids, tv)
		if k.game == round.CasinoHoldem || k.game == round.LiveCasinoHoldem {
			p := pools[k.game]
			if p == nil {
				p = &TableVoids{Table: AllTables, Game: k.game, tails: map[tailKey]*moneyTails{}}
				pools[k.game] = p
			}
			tables[k.game]++
			p.Rounds += tv.Rounds
			p.Voids += tv.Voids
			p.Resettled += tv.Resettled
			p.ResettledWon += tv.ResettledWon
			p.ResettledBig += tv.ResettledBig
			p.ResettledHuge += tv.ResettledHuge
			p.Played += tv.Played
			p.PlayedWon += tv.PlayedWon
			p.PlayedBig += tv.PlayedBig
			p.PlayedHuge += tv.PlayedHuge
			for cur, mt := range ts.tails {
				pt := p.tails[cur]
				if pt == nil {
					pt = &moneyTails{}
					p.tails[cur] = pt
				}
				for b := range tailBuckets {
					pt.played[b] += mt.played[b]
					pt.voids[b] += mt.voids[b]
				}
			}
		}
	}
	// The tables of a game pooled: a table is the operator's word, and a
	// bias spread over many tables (one a player) shows only together.
	for _, g := range slices.Sorted(maps.Keys(pools)) {
		p := pools[g]
		if p.Rounds > 0 {
			p.Rate = float64(p.Voids) / float64(p.Rounds)
		}
		f, ok := p.test()
		if ok && tables[g] > 1 {
			f.Detail += fmt.Sprintf("; the %d tables of the game pooled", tables[g])
			out = append(out, f)
		}
		s.VoidsByGame = append(s.VoidsByGame, *p)
	}
	return out
}

// AllTables is the table of [Summary.VoidsByGame]: a game's tables pooled.
const AllTables = "(all tables)"

// tableOf is the table a finding about tv names: none for a game's
// tables pooled.
func tableOf(tv *TableVoids) string {
	if tv.Table == AllTables {
		return ""
	}
	return tv.Table
}

// test runs the void-bias tests of tv, a Casino Hold'em table (or pool),
// into tv.Test and tv.Tests, and returns the VOID_BIAS finding of the
// most significant tier when one rejects.
func (tv *TableVoids) test() (finding.Finding, bool) {
	casinoGame := tv.Game == round.CasinoHoldem || tv.Game == round.LiveCasinoHoldem
	if !casinoGame || tv.Resettled == 0 || tv.Played == 0 {
		return finding.Finding{}, false
	}
	played := tiers{tv.PlayedWon, tv.PlayedBig, tv.PlayedHuge}
	voids := tiers{tv.ResettledWon, tv.ResettledBig, tv.ResettledHuge}
	tv.Tests = map[string]VoidTest{}
	worst := -1
	for i, name := range tierNames {
		vt := voidTest(tv.Played, played[i], tv.Resettled, voids[i])
		tv.Tests[name] = *vt
		if i == 0 {
			tv.Test = vt
		}
		if vt.Biased && (worst < 0 || vt.Log10P < tv.Tests[tierNames[worst]].Log10P) {
			worst = i
		}
	}
	var money *MoneyTest
	keys := slices.SortedFunc(maps.Keys(tv.tails), func(a, b tailKey) int {
		return cmp.Or(strings.Compare(a.currency, b.currency), cmp.Compare(a.stake, b.stake))
	})
	for _, k := range keys {
		if mt, ok := tailTest(k, tv.tails[k]); ok {
			tv.Money = append(tv.Money, mt)
			if mt.Biased && (money == nil || mt.Log10P < money.Log10P) {
				money = &tv.Money[len(tv.Money)-1]
			}
		}
	}
	switch {
	case money != nil && (worst < 0 || money.Log10P < tv.Tests[tierNames[worst]].Log10P):
		return moneyBiasFinding(tv, money), true
	case worst < 0:
		return finding.Finding{}, false
	}
	return voidBiasFinding(tv, worst, played[worst], voids[worst]), true
}

func moneyBiasFinding(tv *TableVoids, m *MoneyTest) finding.Finding {
	return finding.Finding{
		Code: finding.VoidBias, Severity: finding.SeverityOf(finding.VoidBias), Row: -1, Field: "void",
		TableID: tableOf(tv), Game: tv.Game,
		Expected: fmt.Sprintf("a rate of wins of %d %s or more among voided rounds of stakes %d to %d near the played rounds' %.4f (at most %.4f)", m.AtLeast, m.Currency, m.StakesFrom, m.StakesTo, m.PlayedRate, m.ReferenceRate),
		Actual:   fmt.Sprintf("%d such wins in %d voids (p = %s)", m.VoidsAtLeast, m.Voids, pText(m.P, m.Log10P)),
		Detail: fmt.Sprintf("table %s (%s): %d of %d played rounds of those stakes win %d %s or more for the players, every round settled from its cards at the players' best decisions; exact one-sided binomial test at p < %g shared among %d strata and sizes of win",
			tv.Table, tv.Game, m.PlayedAtLeast, m.Played, m.AtLeast, m.Currency, VoidBiasAlpha, moneyAlphaShare),
	}
}

// pText writes a test's P-value, as a power of ten once P is below what
// a float64 holds.
func pText(p, log10p float64) string {
	if p < 1e-300 {
		return fmt.Sprintf("10^%.1f", log10p)
	}
	return fmt.Sprintf("%.2g", p)
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

func voidBiasFinding(tv *TableVoids, tier int, playedK, voidK int64) finding.Finding {
	t := tv.Tests[tierNames[tier]]
	p := pText(t.P, t.Log10P)
	what := [3]string{"wins", fmt.Sprintf("big wins (%dx the stake or more)", audit.BigWin), fmt.Sprintf("huge wins (%dx the stake or more)", audit.HugeWin)}[tier]
	return finding.Finding{
		Code: finding.VoidBias, Severity: finding.SeverityOf(finding.VoidBias), Row: -1, Field: "void",
		TableID: tableOf(tv), Game: tv.Game,
		Expected: fmt.Sprintf("a rate of %s among voided rounds near the played rounds' %.4f (at most %.4f)", what, t.PlayedRate, t.ReferenceRate),
		Actual:   fmt.Sprintf("%d %s in %d voids (p = %s)", voidK, what, tv.Resettled, p),
		Detail: fmt.Sprintf("table %s (%s): %d of %d played rounds are %s for the players, every round settled from its cards at the players' best decisions; exact one-sided binomial test at p < %g",
			tv.Table, tv.Game, playedK, tv.Played, what, VoidBiasAlpha),
	}
}
