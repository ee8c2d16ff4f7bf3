package report

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The statements the pages' tests draw: a small one with every kind of
// chart (the golden pages, the browser test, docs/report-screenshot.png)
// and a realistic one for the benchmarks. Their data come from a fixed
// generator of plain arithmetic, so they are the same on every platform.

// splitmix is a small deterministic generator (SplitMix64).
type splitmix uint64

func (s *splitmix) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// uniform returns a float in [0, 1).
func (s *splitmix) uniform() float64 { return float64(s.next()>>11) / (1 << 53) }

// normal returns an approximately standard normal variate (Irwin-Hall).
func (s *splitmix) normal() float64 {
	v := -6.0
	for range 12 {
		v += s.uniform()
	}
	return v
}

// cardNames are the 52 cards in the order of docs/cards.md.
func cardNames() []string {
	var out []string
	for _, suit := range []string{"♣", "♦", "♥", "♠"} {
		for _, rank := range []string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"} {
			out = append(out, rank+suit)
		}
	}
	return out
}

// sampleHeatmap returns counts of cards at positions, about expected each.
func sampleHeatmap(g *splitmix, rows []string, expected float64) *Heatmap {
	h := &Heatmap{Rows: rows, Columns: cardNames(), Expected: expected}
	for range rows {
		row := make([]int64, len(h.Columns))
		for j := range row {
			row[j] = int64(math.Round(expected + math.Sqrt(expected)*g.normal()))
		}
		h.Counts = append(h.Counts, row)
	}
	return h
}

// samplePValues returns n uniform p-values.
func samplePValues(g *splitmix, n int) []float64 {
	ps := make([]float64, n)
	for i := range ps {
		ps[i] = math.Round(g.uniform()*1e6) / 1e6
	}
	return ps
}

// sampleSeries returns an observed RTP after up to rounds rounds, a
// random walk inside its 99% band, at n points spaced evenly on a log
// scale from 1,000 rounds.
func sampleSeries(g *splitmix, n int, rounds int64) *Series {
	const target, sd, z = 0.9784, 1.9, 2.576
	s := &Series{XLabel: "rounds", YLabel: "RTP", Target: target}
	sum, prev := 0.0, int64(0)
	for i := range n {
		x := int64(math.Round(1000 * math.Pow(float64(rounds)/1000, float64(i)/float64(n-1))))
		if x <= prev {
			x = prev + 1
		}
		sum += math.Sqrt(float64(x-prev)) * sd * g.normal()
		prev = x
		half := z * sd / math.Sqrt(float64(x))
		round := func(v float64) float64 { return math.Round(v*1e6) / 1e6 }
		s.Points = append(s.Points, Point{X: x, Observed: round(target + sum/float64(x)), Low: round(target - half), High: round(target + half)})
	}
	return s
}

// sampleStatement is a certification that failed, with every kind of
// chart, hostile-free texts and a requirement that was not tested.
func sampleStatement(t testing.TB) *Statement {
	t.Helper()
	g := splitmix(16)
	positions := []string{"player 1", "player 2", "flop 1", "flop 2", "flop 3", "turn", "river", "dealer 1", "dealer 2"}
	var subjects []Subject
	for _, name := range []string{"strategy.parquet", "profile.json", "logs/day1.rounds.jsonl", "suite.json"} {
		s, err := FileSubject(testFiles(), name)
		require.NoError(t, err)
		subjects = append(subjects, s)
	}
	reqs := []Requirement{
		{ID: "stats.positions", Text: "per-position chi-square at 99% on the dealt cards", Method: "fairhold's log battery (docs/statistics.md)", Status: Pass,
			Evidence: Evidence{Summary: "100,000 rounds: χ² = 421.7 with 459 degrees of freedom, p = 0.89",
				Subjects: []string{"logs/day1.rounds.jsonl"},
				Charts:   []Chart{{Kind: ChartHeatmap, Title: "Cards by position", Heatmap: sampleHeatmap(&g, positions, 1923.1)}}}},
		{ID: "stats.battery", Text: "the deck battery's p-values are uniform", Status: Pass,
			Evidence: Evidence{Summary: "400 tests; Kolmogorov-Smirnov on the p-values: D = 0.041, p = 0.51",
				Charts: []Chart{{Kind: ChartPValues, Title: "p-values of the deck battery", PValues: samplePValues(&g, 400)}}}},
		{ID: "rtp.observed", Text: "observed RTP within its 99% confidence band", Status: Pass,
			Evidence: Evidence{Summary: "EUR main game: 97.78% observed over 1,000,000 rounds, theoretical 97.84%",
				Subjects: []string{"logs/day1.rounds.jsonl", "profile.json", "strategy.parquet"},
				Charts:   []Chart{{Kind: ChartSeries, Title: "Observed RTP, EUR main game", Series: sampleSeries(&g, 60, 1_000_000)}}}},
		{ID: "replay.resettle", Text: "every logged round re-settles", Method: "re-deal and re-settlement of every logged round (docs/replay.md)", Status: Fail,
			Evidence: Evidence{Summary: "1,000,000 rounds, 37 findings of 3 codes",
				Subjects: []string{"logs/day1.rounds.jsonl", "profile.json"},
				Result:   []byte(`{"rounds":1000000,"findings":37,"codes":{"ANTE_WRONG_MULTIPLE":21,"BALANCE_OFF_BY_ONE":12,"PAYOUT_WRONG":4}}`),
				FindingSamples: []FindingSample{
					{Code: "PAYOUT_WRONG", Count: 4, RoundIDs: []string{"rng-1-000017", "rng-1-000452", "rng-2-000031", "rng-2-001207"}},
					{Code: "ANTE_WRONG_MULTIPLE", Count: 21, RoundIDs: []string{"rng-1-000101", "rng-1-000102", "rng-1-000230", "rng-1-000231",
						"rng-1-000455", "rng-1-000789", "rng-2-000002", "rng-2-000040", "rng-2-000041", "rng-2-000099"}},
					{Code: "BALANCE_OFF_BY_ONE", Count: 12, RoundIDs: []string{"rng-1-000003", "rng-1-000900", "rng-2-000512", "rng-2-000513",
						"rng-2-000514", "rng-2-000515", "rng-2-000516", "rng-2-000517", "rng-2-000518", "rng-2-000519"}},
				},
				Charts: []Chart{{Kind: ChartBars, Title: "Findings by code", Bars: []Bar{
					{Label: "ANTE_WRONG_MULTIPLE", Count: 21, Amount: map[string]int64{"EUR": -12_450, "BTC": 0}},
					{Label: "BALANCE_OFF_BY_ONE", Count: 12, Amount: map[string]int64{"EUR": 12}},
					{Label: "PAYOUT_WRONG", Count: 4, Amount: map[string]int64{"EUR": 310_000, "BTC": -250_000}},
				}}}}},
		{ID: "stats.operator-decks", Text: "per-position chi-square at 99% on the operator's decks", Method: "fairhold's deck battery (docs/statistics.md)", Status: NotTested,
			Evidence: Evidence{Summary: "no decks file supplied"}},
	}
	st, err := NewStatement(subjects, reqs, testTool, testTime, testDetails(t))
	require.NoError(t, err)
	return st
}

// realisticStatement is the statement of the benchmarks: a 52 x 52
// heatmap, 1,000 p-values, a 200-point series and 40 bars, among a
// suite's worth of requirements.
func realisticStatement(t testing.TB) *Statement {
	t.Helper()
	g := splitmix(6)
	positions := make([]string, 52)
	for i := range positions {
		positions[i] = fmt.Sprintf("position %d", i+1)
	}
	bars := make([]Bar, 40)
	for i := range bars {
		bars[i] = Bar{Label: fmt.Sprintf("FINDING_CODE_%02d", i), Count: int64(g.next() % 5000),
			Amount: map[string]int64{"EUR": int64(g.next()%2_000_000) - 1_000_000, "USD": int64(g.next() % 500_000)}}
	}
	var subjects []Subject
	for i := range 12 {
		subjects = append(subjects, SubjectOf(fmt.Sprintf("logs/day%02d.rounds.parquet", i+1), []byte{byte(i)}))
	}
	reqs := []Requirement{
		{ID: "stats.positions", Text: "per-position chi-square at 99% on 1,000,000 decks", Status: Pass,
			Evidence: Evidence{Summary: "χ² = 2,650.3, p = 0.37", Charts: []Chart{{Kind: ChartHeatmap, Title: "Cards by deck position", Heatmap: sampleHeatmap(&g, positions, 19230.8)}}}},
		{ID: "stats.battery", Text: "the deck battery's p-values are uniform", Status: Pass,
			Evidence: Evidence{Summary: "1,000 tests", Charts: []Chart{{Kind: ChartPValues, Title: "p-values", PValues: samplePValues(&g, 1000)}}}},
		{ID: "rtp.observed", Text: "observed RTP within its 99% confidence band", Status: Pass,
			Evidence: Evidence{Summary: "1,000,000 rounds", Charts: []Chart{{Kind: ChartSeries, Title: "Observed RTP", Series: sampleSeries(&g, 200, 1_000_000)}}}},
		{ID: "replay.resettle", Text: "every logged round re-settles", Status: Fail,
			Evidence: Evidence{Summary: "findings", Charts: []Chart{{Kind: ChartBars, Title: "Findings by code", Bars: bars}}}},
	}
	for i := range 20 {
		reqs = append(reqs, Requirement{ID: fmt.Sprintf("vectors.v%02d", i), Text: "engine answers match vector set " + fmt.Sprint(i), Status: Pass,
			Evidence: Evidence{Summary: "all answers match", Result: []byte(`{"vectors":120,"mismatches":0}`)}})
	}
	st, err := NewStatement(subjects, reqs, testTool, testTime, Details{})
	require.NoError(t, err)
	return st
}
