package rtp

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/round"
)

// Bet types of the observed-return tests.
const (
	BetMain  = "main"     // ANTE + CALL: the call's stake follows the decision and the payout cap applies to their sum
	BetBonus = "aa-bonus" // the AA Bonus
	BetTotal = "total"    // every bet of the box
)

var betNames = [...]string{BetMain, BetBonus, BetTotal}

const (
	iMain = iota
	iBonus
	iTotal
	numBets
)

// maxPoints bounds the points of a cell's series.
const maxPoints = 200

// Observer compares a round log's Casino Hold'em boxes with a [Theory]:
// add the rounds in log order with [Observer.Add], then call
// [Observer.Report]. Rounds of another game, void rounds and rounds whose
// cards or stakes cannot be evaluated are counted and left out. Not safe
// for concurrent use.
type Observer struct {
	t        *Theory
	declared CallPolicy
	cells    map[cellKey]*cell
	skipped  map[string]int64
	sds      []float64 // per box of the round being added, scratch
}

// CallPolicy is a declared call/fold strategy; *exact.Decisions (a
// strategy file) is one.
type CallPolicy interface {
	// Call reports whether to call with these hole cards and flop, and ok
	// whether the policy covers the state.
	Call(hole [2]card.Card, flop [3]card.Card) (call, ok bool)
}

// Declare sets the strategy the players are declared to follow, before
// the first round is added: each cell then reports the share of boxes
// whose decision was the declared one.
func (o *Observer) Declare(p CallPolicy) { o.declared = p }

type cellKey struct{ game, currency string }

// cell is what the Observer sums for one game and currency.
type cell struct {
	rounds, boxes, optimal, declared int64
	bets                             [numBets]betSums
	// The decision test over all bets: the rounds' deviations and their
	// squares, and the variance bounds.
	dev, devSquares float64
	points          []Point
	step            int64
}

// betSums are one bet type's sums over the rounds of a cell.
type betSums struct {
	wagered, returned int64 // logged, minor units
	fixed             int64 // the expectation's known part: folds, voids, the AA Bonus
	random            float64
	varIndep          float64 // the boxes' variances summed
	varBound          float64 // per round, (sum of the boxes' standard deviations)^2, summed
}

// NewObserver returns an Observer of the boxes of t's game.
func NewObserver(t *Theory) *Observer {
	return &Observer{t: t, cells: map[cellKey]*cell{}, skipped: map[string]int64{}}
}

// roundSums are one round's contributions.
type roundSums struct {
	wagered, returned, fixed [numBets]int64
	random, varIndep, sdSum  [numBets]float64
	optimal, declared        int64
}

// Add adds one round. It returns an error only for a round it cannot
// evaluate; the round is then counted as skipped, with the reason, and
// the Observer stays usable.
func (o *Observer) Add(r *round.Round) error {
	g := o.t.g.Profile.Game
	switch {
	case r.Game != g:
		o.skipped["game "+r.Game]++
		return nil
	case r.Void:
		o.skipped["void round"]++
		return nil
	}
	rs, err := o.evaluate(r)
	if err != nil {
		reason := "cards or stakes that cannot be evaluated"
		if errors.Is(err, ErrNoState) {
			reason = "state not in the solution"
		}
		o.skipped[reason]++
		return fmt.Errorf("round %s: %w", r.RoundID, err)
	}
	k := cellKey{r.Game, r.Currency}
	c := o.cells[k]
	if c == nil {
		c = &cell{step: 1}
		o.cells[k] = c
	}
	next := c.bets
	for b := range numBets {
		s := &next[b]
		var e1, e2, e3 error
		s.wagered, e1 = money.Add(s.wagered, rs.wagered[b])
		s.returned, e2 = money.Add(s.returned, rs.returned[b])
		s.fixed, e3 = money.Add(s.fixed, rs.fixed[b])
		if e1 != nil || e2 != nil || e3 != nil {
			o.skipped["amounts that overflow the totals"]++
			return fmt.Errorf("round %s: the %s totals overflow int64", r.RoundID, betNames[b])
		}
		s.random += rs.random[b]
		s.varIndep += rs.varIndep[b]
		s.varBound += rs.sdSum[b] * rs.sdSum[b]
	}
	c.bets = next
	d := float64(rs.returned[iTotal]-rs.fixed[iTotal]) - rs.random[iTotal]
	c.dev += d
	c.devSquares += d * d
	c.rounds++
	c.boxes += int64(len(r.Boxes))
	c.optimal += rs.optimal
	c.declared += rs.declared
	if c.rounds%c.step == 0 {
		c.points = append(c.points, c.point())
		if len(c.points) == maxPoints {
			kept := c.points[:0]
			for i := 1; i < len(c.points); i += 2 {
				kept = append(kept, c.points[i])
			}
			c.points, c.step = kept, 2*c.step
		}
	}
	return nil
}

// evaluate computes a round's sums; it changes nothing.
func (o *Observer) evaluate(r *round.Round) (roundSums, error) {
	var rs roundSums
	if len(r.Board) < 3 {
		return rs, errors.New("board: fewer than the three cards of the flop")
	}
	if len(r.Boxes) == 0 {
		return rs, errors.New("boxes: none")
	}
	var flop [3]card.Card
	for i := range flop {
		c, err := card.Parse(r.Board[i])
		if err != nil {
			return rs, fmt.Errorf("board[%d]: %w", i, err)
		}
		flop[i] = c
	}
	o.sds = o.sds[:0]
	for i := range r.Boxes {
		b := &r.Boxes[i]
		if len(b.Cards) != 2 {
			return rs, fmt.Errorf("boxes[%d].cards: %d cards, want 2", i, len(b.Cards))
		}
		var hole [2]card.Card
		for j := range hole {
			c, err := card.Parse(b.Cards[j])
			if err != nil {
				return rs, fmt.Errorf("boxes[%d].cards[%d]: %w", i, j, err)
			}
			hole[j] = c
		}
		if err := card.CheckDistinct([]card.Card{hole[0], hole[1], flop[0], flop[1], flop[2]}); err != nil {
			return rs, fmt.Errorf("boxes[%d]: %w", i, err)
		}
		bt, err := o.t.Box(hole, flop, b.Decision, b.Ante, b.Bonus)
		if err != nil {
			return rs, fmt.Errorf("boxes[%d]: %w", i, err)
		}
		if b.Call < 0 || b.AnteReturn < 0 || b.CallReturn < 0 || b.BonusReturn < 0 {
			return rs, fmt.Errorf("boxes[%d]: a negative stake or return", i)
		}
		if bt.Optimal {
			rs.optimal++
		}
		if o.declared != nil {
			if call, ok := o.declared.Call(hole, flop); ok && call == (b.Decision == Call) && b.Decision != Unfinished {
				rs.declared++
			}
		}
		var err1, err2, err3, err4 error
		main, bonus := [2]int64{}, [2]int64{} // wagered, returned
		main[0], err1 = money.Add(b.Ante, b.Call)
		main[1], err2 = money.Add(b.AnteReturn, b.CallReturn)
		bonus[0], bonus[1] = b.Bonus, b.BonusReturn
		mainFixed := int64(0)
		mainRandom := bt.Main
		if bt.MainVar == 0 && bt.Main == math.Trunc(bt.Main) && math.Abs(bt.Main) < 1<<53 {
			mainFixed, mainRandom = int64(bt.Main), 0
		}
		for _, v := range [...]struct {
			bet              int
			wagered, ret     int64
			fixed            int64
			random, variance float64
		}{
			{iMain, main[0], main[1], mainFixed, mainRandom, bt.MainVar},
			{iBonus, bonus[0], bonus[1], bt.Bonus, 0, 0},
		} {
			for _, b := range [2]int{v.bet, iTotal} {
				if rs.wagered[b], err3 = money.Add(rs.wagered[b], v.wagered); err3 != nil {
					break
				}
				if rs.returned[b], err3 = money.Add(rs.returned[b], v.ret); err3 != nil {
					break
				}
				if rs.fixed[b], err4 = money.Add(rs.fixed[b], v.fixed); err4 != nil {
					break
				}
				rs.random[b] += v.random
				rs.varIndep[b] += v.variance
			}
		}
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return rs, fmt.Errorf("boxes[%d]: the round's amounts overflow int64", i)
		}
		o.sds = append(o.sds, math.Sqrt(bt.MainVar))
	}
	for _, sd := range o.sds {
		rs.sdSum[iMain] += sd
		rs.sdSum[iTotal] += sd
	}
	return rs, nil
}

// point is the cell's series point after its rounds so far.
func (c *cell) point() Point {
	t := &c.bets[iTotal]
	return Point{Rounds: c.rounds, Wagered: t.wagered, Returned: t.returned,
		Expected: float64(t.fixed) + t.random, SD: math.Sqrt(t.varBound)}
}

// Point is a cell's running totals (all bets) after Rounds rounds: what
// the series of a report's figure is drawn from.
type Point struct {
	Rounds   int64   `json:"rounds"`
	Wagered  int64   `json:"wagered"`
	Returned int64   `json:"returned"`
	Expected float64 `json:"expected"` // the expected return of the decisions taken
	SD       float64 `json:"sd"`       // its standard deviation (the bound used by the tests)
}

// Report is the outcome of the observed-return tests over a log: the
// result of a suite's "rtp-observed" and "rtp-decisions" requirements.
type Report struct {
	Profile     string  `json:"profile"`
	ProfileHash string  `json:"profile_hash"`
	Alpha       float64 `json:"alpha"`
	// Cells are the log's games and currencies, sorted.
	Cells []Cell `json:"cells"`
	// Skipped counts the rounds left out, by reason.
	Skipped map[string]int64 `json:"skipped"`
	// ObservedPass: every bet type of every cell is inside its interval;
	// DecisionsPass: every cell passes the decision test.
	ObservedPass  bool `json:"observed_pass"`
	DecisionsPass bool `json:"decisions_pass"`
}

// Cell is one game and currency of the log.
type Cell struct {
	Game     string `json:"game"`
	Currency string `json:"currency"`
	Rounds   int64  `json:"rounds"`
	Boxes    int64  `json:"boxes"`
	// OptimalShare is the share of boxes whose decision was the optimal
	// strategy's.
	OptimalShare float64 `json:"optimal_share"`
	// DeclaredShare is the share of boxes whose decision was the declared
	// strategy's ([Observer.Declare]); absent without one.
	DeclaredShare *float64     `json:"declared_share,omitempty"`
	Bets          []BetTest    `json:"bets"`
	Decisions     DecisionTest `json:"decisions"`
	// Points are the running totals for the figures; not in the JSON.
	Points []Point `json:"-"`
}

// BetTest is the observed RTP of one bet type against the RTP the
// decisions taken give.
type BetTest struct {
	Bet      string `json:"bet"`
	Wagered  int64  `json:"wagered"`
	Returned int64  `json:"returned"`
	// Observed is Returned / Wagered; Expected the expected return of the
	// boxes given their cards up to the flop and their decisions, over
	// Wagered; [Low, High] the interval Observed lies in with probability
	// at least 1 - Level under the rules (Level = alpha over the number
	// of intervals).
	Observed float64 `json:"observed"`
	Expected float64 `json:"expected"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	Level    float64 `json:"level"`
	Pass     bool    `json:"pass"`
}

// DecisionTest is the standardized sum of the boxes' deviations from the
// expected return of the decision each took, the round being the unit.
type DecisionTest struct {
	// Deviation is the sum over boxes of (return - expected return),
	// minor units.
	Deviation float64 `json:"deviation"`
	// SD is the deviation's standard deviation under the rules: per
	// round, the sum of its boxes' standard deviations, squared and
	// summed (exact for rounds of one box, an upper bound otherwise).
	// SDIndependent is the same were a round's boxes independent;
	// SDEmpirical the root of the rounds' squared deviations.
	SD            float64 `json:"sd"`
	SDIndependent float64 `json:"sd_independent"`
	SDEmpirical   float64 `json:"sd_empirical"`
	// Z is Deviation / SD and P its two-sided P-value; the test passes
	// when P > Level (alpha over the number of cells).
	Z     float64 `json:"z"`
	P     float64 `json:"p"`
	Level float64 `json:"level"`
	Pass  bool    `json:"pass"`
}

// Report returns the tests at level alpha (a Bonferroni share of it per
// interval and per cell).
func (o *Observer) Report(alpha float64) *Report {
	p := o.t.g.Profile
	rep := &Report{Profile: p.Name, ProfileHash: p.Hash(), Alpha: alpha, Cells: []Cell{}, Skipped: o.skipped,
		ObservedPass: true, DecisionsPass: true}
	keys := make([]cellKey, 0, len(o.cells))
	intervals := 0
	for k, c := range o.cells {
		keys = append(keys, k)
		for b := range numBets {
			if c.bets[b].varBound > 0 {
				intervals++
			}
		}
	}
	slices.SortFunc(keys, func(a, b cellKey) int {
		return cmp.Or(cmp.Compare(a.game, b.game), cmp.Compare(a.currency, b.currency))
	})
	betLevel := alpha / float64(max(intervals, 1))
	cellLevel := alpha / float64(max(len(keys), 1))
	zBet := distuv.UnitNormal.Quantile(1 - betLevel/2)
	for _, k := range keys {
		c := o.cells[k]
		out := Cell{Game: k.game, Currency: k.currency, Rounds: c.rounds, Boxes: c.boxes,
			OptimalShare: float64(c.optimal) / float64(max(c.boxes, 1)), Points: slices.Clone(c.points)}
		if o.declared != nil {
			d := float64(c.declared) / float64(max(c.boxes, 1))
			out.DeclaredShare = &d
		}
		if n := len(out.Points); n == 0 || out.Points[n-1].Rounds != c.rounds {
			out.Points = append(out.Points, c.point())
		}
		for b := range numBets {
			s := &c.bets[b]
			if b == iBonus && s.wagered == 0 && s.returned == 0 && s.fixed == 0 {
				continue
			}
			out.Bets = append(out.Bets, betTest(betNames[b], s, zBet, betLevel))
			rep.ObservedPass = rep.ObservedPass && out.Bets[len(out.Bets)-1].Pass
		}
		out.Decisions = decisionTest(c, cellLevel)
		rep.DecisionsPass = rep.DecisionsPass && out.Decisions.Pass
		rep.Cells = append(rep.Cells, out)
	}
	return rep
}

func betTest(name string, s *betSums, z, level float64) BetTest {
	bt := BetTest{Bet: name, Wagered: s.wagered, Returned: s.returned, Level: level}
	exp := float64(s.fixed) + s.random
	if s.wagered > 0 {
		w := float64(s.wagered)
		half := z * math.Sqrt(s.varBound)
		bt.Observed, bt.Expected = float64(s.returned)/w, exp/w
		bt.Low, bt.High = (exp-half)/w, (exp+half)/w
	}
	if s.varBound == 0 {
		// Known returns: they are right or wrong.
		bt.Pass = s.random == 0 && s.returned == s.fixed
		return bt
	}
	bt.Pass = math.Abs(float64(s.returned)-exp) <= z*math.Sqrt(s.varBound)
	return bt
}

func decisionTest(c *cell, level float64) DecisionTest {
	t := &c.bets[iTotal]
	dt := DecisionTest{Deviation: c.dev, SD: math.Sqrt(t.varBound), SDIndependent: math.Sqrt(t.varIndep),
		SDEmpirical: math.Sqrt(c.devSquares), Level: level}
	switch {
	case dt.SD > 0:
		dt.Z = dt.Deviation / dt.SD
		dt.P = 2 * distuv.UnitNormal.CDF(-math.Abs(dt.Z))
	case dt.Deviation == 0:
		dt.P = 1
	}
	dt.Pass = dt.P > level
	return dt
}
