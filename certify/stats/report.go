package stats

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/fairhold/fairhold/replay/hand"
)

// chiSurvival is P(X >= x) for X chi-square with df degrees of freedom.
func chiSurvival(x float64, df int) float64 {
	if df <= 0 {
		return math.NaN()
	}
	return distuv.ChiSquared{K: float64(df)}.Survival(x)
}

// pearson returns sum (o - n p)^2 / (n p) over the cells, for expected
// probabilities probs (summing to 1) and total n.
func pearson(obs []uint64, probs []float64) float64 {
	var n uint64
	for _, o := range obs {
		n += o
	}
	var s float64
	for i, o := range obs {
		e := float64(n) * probs[i]
		d := float64(o) - e
		s += d * d / e
	}
	return s
}

// uniform returns k equal probabilities.
func uniform(k int) []float64 {
	p := make([]float64, k)
	for i := range p {
		p[i] = 1 / float64(k)
	}
	return p
}

func chiTest(name, family string, stat float64, df int) Test {
	return Test{Name: name, Family: family, Statistic: stat, DF: df, P: chiSurvival(stat, df)}
}

// report turns the counts into the battery's tests and applies the policy.
func report(cfg Config, c *counts, deckFP, seedFP []uint64, withSmall bool) *Report {
	r := &Report{Decks: cfg.Decks, Alpha: cfg.Alpha, Policy: Policy, Positions: &c.pos}
	n := float64(cfg.Decks)
	var ts []Test

	// Card by position.
	rows := make([][]uint64, DeckSize)
	for p := range rows {
		rows[p] = c.pos[p][:]
	}
	ts = append(ts, chiTest("position/global", "position/global", positionGlobal(rows, n), (DeckSize-1)*(DeckSize-1)))
	for p, row := range rows {
		ts = append(ts, positionTests(fmt.Sprintf("position/%02d", p+1), row)...)
	}

	// Adjacency.
	z := make([][]float64, DeckSize)
	ea := n / DeckSize
	for a := range z {
		z[a] = make([]float64, DeckSize)
		for b := range z[a] {
			if a != b {
				z[a][b] = (float64(c.adj[a][b]) - ea) / math.Sqrt(ea)
			}
		}
	}
	ts = append(ts, chiTest("adjacency", "adjacency", adjacencyStatistic(z), DeckSize*(DeckSize-1)-1))

	// Small decks through the production shuffle, relative order of fixed
	// cards in full decks.
	if withSmall {
		r.SmallPerSize = cfg.SmallPerSize
		for s, size := range smallSizes {
			k := factorial(size)
			ts = append(ts, chiTest(fmt.Sprintf("small-deck/%d", size), "small-deck",
				pearson(c.small[s][:k], uniform(k)), k-1))
		}
	} else {
		r.Notes = append(r.Notes, "small-deck permutations left out: the source has no small-deck shuffle")
	}
	ts = append(ts, chiTest("relative-order/5-cards", "relative-order", pearson(c.order[:], uniform(120)), 119))

	// Independence of successive decks and runs within decks.
	if cfg.Decks > 1 {
		// Var of (2x-51) for a uniform position is (52^2-1)/3 = 901.
		const v = (DeckSize*DeckSize - 1) / 3.0
		pairs := n - 1
		var chi, sum float64
		for _, s := range c.serial {
			zc := float64(s) / (v * math.Sqrt(pairs))
			chi += zc * zc
			sum += float64(s)
		}
		ts = append(ts, chiTest("serial/position", "serial", chi, DeckSize))
		// Spearman: sum over cards of the products; its variance per pair
		// of decks is (sum of (2x-51)^2)^2 / 51.
		const sq = DeckSize * (DeckSize*DeckSize - 1) / 3.0
		zs := sum / (sq * math.Sqrt(pairs/(DeckSize-1)))
		ts = append(ts, chiTest("serial/spearman", "serial", zs*zs, 1))
	}
	meanRuns := (2*DeckSize - 1) / 3.0
	varRuns := (16*DeckSize - 29) / 90.0
	zr := (float64(c.runs) - n*meanRuns) / math.Sqrt(n*varRuns)
	ts = append(ts, chiTest("runs-up-down", "runs", zr*zr, 1))

	// Collisions and validity.
	pairs := n * (n - 1) / 2
	lambda := pairs * (math.Exp2(-64) + math.Exp(-lgamma(53)))
	ts = append(ts, countTest("collisions/decks", countRepeats(deckFP), lambda))
	if seedFP != nil {
		ts = append(ts, countTest("collisions/seeds", countRepeats(seedFP), pairs*math.Exp2(-64)))
	} else {
		r.Notes = append(r.Notes, "repeated seeds left out: the decks come without seeds")
	}
	invalid := c.invalid + c.smallInvalid
	vp := 1.0
	if invalid > 0 {
		vp = 0
	}
	ts = append(ts, Test{Name: "validity", Family: "validity", Statistic: float64(invalid), P: vp})

	// Dealt outcomes.
	if c.hands > 0 {
		ts = append(ts, chiTest("dealt/starting-hands", "dealt", pearson(c.starting[:], startingProbs()), 168))
		p := float64(aaBonusQualifying) / float64(fiveCardHands)
		ts = append(ts, chiTest("dealt/aa-bonus", "dealt",
			pearson([]uint64{c.aaBonus, c.hands - c.aaBonus}, []float64{p, 1 - p}), 1))
		ts = append(ts, chiTest("dealt/dealer-categories", "dealt", pearson(c.dealer[:], dealerProbs()), dealerCells-1))
	} else {
		r.Notes = append(r.Notes, "dealt-outcome tests left out: no deck dealt nine distinct cards")
	}

	holm(ts, cfg.Alpha)
	r.Tests = ts
	r.Pass = true
	for _, t := range ts {
		r.Pass = r.Pass && t.Pass
	}
	return r
}

// positionGlobal is the calibrated global statistic of k x 52 card-by-
// position counts (k positions of N rounds, each dealing k distinct cards):
// with z the standardised counts, Pearson's sum splits into the card
// effects (the column means, eigenvalue (52-k)/51 of the covariance) and
// the rest (eigenvalue 52/51); dividing each by its eigenvalue gives a
// chi-square with k*51 degrees of freedom, (51)^2 for full decks (k = 52,
// where the card effects vanish). The deck size is len(rows[0]).
func positionGlobal(rows [][]uint64, n float64) float64 {
	e := n / float64(len(rows[0]))
	z := make([][]float64, len(rows))
	for p, row := range rows {
		z[p] = make([]float64, len(row))
		for c, o := range row {
			z[p][c] = (float64(o) - e) / math.Sqrt(e)
		}
	}
	return positionGlobalZ(z)
}

// positionGlobalZ is [positionGlobal] on the standardised counts
// z = (O - E)/sqrt(E).
func positionGlobalZ(z [][]float64) float64 {
	k, size := len(z), len(z[0])
	fs := float64(size)
	var total float64
	col := make([]float64, size)
	for _, row := range z {
		for c, v := range row {
			total += v * v
			col[c] += v
		}
	}
	var colPart float64
	for _, s := range col {
		colPart += s * s / float64(k)
	}
	if k == size {
		return total * (fs - 1) / fs
	}
	return (total-colPart)*(fs-1)/fs + colPart*(fs-1)/(fs-float64(k))
}

// positionTests are the card, suit and rank tests of one position's counts.
func positionTests(id string, row []uint64) []Test {
	var suits [4]uint64
	var ranks [13]uint64
	for card, o := range row {
		suits[card%4] += o
		ranks[card/4] += o
	}
	return []Test{
		chiTest(id+"/card", "position/card", pearson(row, uniform(DeckSize)), DeckSize-1),
		chiTest(id+"/suit", "position/suit", pearson(suits[:], uniform(4)), 3),
		chiTest(id+"/rank", "position/rank", pearson(ranks[:], uniform(13)), 12),
	}
}

// countTest is a test on a count k that is Poisson(lambda) under the null:
// P = P(K >= k).
func countTest(name string, k uint64, lambda float64) Test {
	p := 1.0
	if k > 0 {
		p = distuv.Poisson{Lambda: lambda}.Survival(float64(k) - 1)
		if math.IsNaN(p) || p < 0 {
			p = 0
		}
	}
	return Test{Name: name, Family: "collisions", Statistic: float64(k), P: p}
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}

// holm sets PHolm and Pass by Holm's step-down procedure at level alpha:
// with the P-values sorted ascending p_(1) <= ... <= p_(m), the adjusted
// value of p_(i) is max over j <= i of min(1, (m-j+1) p_(j)). Ties keep the
// tests' order, so the result is deterministic.
func holm(ts []Test, alpha float64) {
	idx := make([]int, len(ts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ts[idx[a]].P < ts[idx[b]].P })
	m := len(ts)
	running := 0.0
	for rank, i := range idx {
		adj := math.Min(1, float64(m-rank)*ts[i].P)
		if math.IsNaN(ts[i].P) {
			adj = 1
		}
		running = math.Max(running, adj)
		ts[i].PHolm = running
		ts[i].Pass = running > alpha
	}
}

// Exact combinatorics of the dealt outcomes (the published hand counts,
// docs/math.md): 5-card hands winning the AA Bonus, and 7-card hands by category.
const (
	aaBonusQualifying = 282660
	fiveCardHands     = 2598960
	sevenCardHands    = 133784560
)

// dealerCells are the dealer's 7-card categories as tested: high card, one
// pair, two pair, trips, straight, flush, full house, and four of a kind or
// better pooled (straight flushes are too rare for the chi-square at the
// battery's smallest sample).
const dealerCells = 8

func dealerCell(c hand.Category) int {
	return min(int(c)-int(hand.HighCard), dealerCells-1)
}

// dealerProbs are the 7-card category probabilities of the dealer's cells.
func dealerProbs() []float64 {
	counts := []float64{23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184,
		224848 + 37260 + 4324}
	for i := range counts {
		counts[i] /= sevenCardHands
	}
	return counts
}

// startingClass is the index of the 169 starting-hand classes of two cards:
// 0..12 pairs (by rank), 13..90 suited and 91..168 offsuit non-pairs (by
// high and low rank).
func startingClass(a, b uint8) int {
	ra, rb := int(a/4), int(b/4)
	if ra == rb {
		return ra
	}
	hi, lo := max(ra, rb), min(ra, rb)
	k := hi*(hi-1)/2 + lo
	if a%4 == b%4 {
		return 13 + k
	}
	return 13 + 78 + k
}

// startingProbs are the exact class probabilities: 6, 4 and 12 of the
// 1,326 two-card hands for a pair, a suited and an offsuit class.
func startingProbs() []float64 {
	p := make([]float64, 169)
	for i := range p {
		switch {
		case i < 13:
			p[i] = 6.0 / 1326
		case i < 13+78:
			p[i] = 4.0 / 1326
		default:
			p[i] = 12.0 / 1326
		}
	}
	return p
}
