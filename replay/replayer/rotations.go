package replayer

import (
	"fmt"
	"math"

	"github.com/fairhold/fairhold/replay/finding"
)

// Rotations, quantified (issue 24, hole 10). A logged client-seed
// rotation (fairness.client_seed_rotated) lets a round's client seed
// change within a seed session, and the log cannot prove who asked for
// it: an operator that rotates the client seed itself, on the rounds
// where the new seed deals a deck it prefers, grinds the client input.
// The replay counts every table's rotations and tests the table's rate
// against RotationBaseline, the rate documented as players' usual one
// (docs/replay.md, "Rotations"): an exact one-sided binomial test, p <
// RotationAlpha, is a ROTATION_RATE finding, once per table, with no
// round id. A table that rotates as often as its players might does not
// show; an operator rotating on 12% of rounds does within a few hundred
// rounds (docs/replay.md gives the power).

// RotationBaseline is the rate of client-seed rotations per round taken
// as players' usual one: a player who rotates their seed once every
// hundred rounds. A table whose rate is significantly above it is a
// finding.
const RotationBaseline = 0.01

// RotationAlpha is the rotation test's level.
const RotationAlpha = 1e-6

// TableRotations are the rotations of one table.
type TableRotations struct {
	Table string `json:"table"`
	Game  string `json:"game"`
	RotationTest
}

// PlayerRotations are the rotations of one player's own client seed: the
// rounds of the player where their client seed changed under a logged
// rotation, among all their rounds. The test is the table's, at the level
// shared among the players who rotated.
type PlayerRotations struct {
	Player string `json:"player"`
	RotationTest
}

// RotationTest is the rotation test of a table's or a player's rounds.
type RotationTest struct {
	Rounds  int64   `json:"rounds"`
	Rotated int64   `json:"rotated"`
	Rate    float64 `json:"rate"`
	// P is P(X >= Rotated) for X ~ Binomial(Rounds, RotationBaseline);
	// Log10P its decimal logarithm.
	P      float64 `json:"p"`
	Log10P float64 `json:"log10_p"`
	// Excessive is P below the test's level: a ROTATION_RATE finding.
	Excessive bool `json:"excessive"`
}

// rotationTest tests rotated rotations in rounds rounds at level alpha.
func rotationTest(rounds, rotated int64, alpha float64) RotationTest {
	lp := logBinomUpper(rounds, rotated, RotationBaseline)
	return RotationTest{Rounds: rounds, Rotated: rotated, Rate: float64(rotated) / float64(rounds),
		P: math.Exp(lp), Log10P: lp / math.Ln10, Excessive: lp < math.Log(alpha)}
}

// finishRotations fills s.Rotations from the tables and s.PlayerRotations
// from the players, and returns the ROTATION_RATE findings, the tables'
// then the players', each in order.
func (s *Summary) finishRotations() []finding.Finding {
	out := s.finishTableRotations()
	// One test per player who rotated: the level is shared among them
	// (Bonferroni), so that a log of many honest players has no finding
	// but with probability RotationAlpha.
	alpha := RotationAlpha / float64(max(1, len(s.playerCounts)))
	for _, pc := range s.playerCounts {
		pr := PlayerRotations{Player: pc.Player, RotationTest: rotationTest(pc.Rounds, pc.Rotated, alpha)}
		s.PlayerRotations = append(s.PlayerRotations, pr)
		if pr.Excessive {
			out = append(out, finding.Finding{
				Code: finding.RotationRate, Severity: finding.SeverityOf(finding.RotationRate), Row: -1, Field: "fairness.client_seed_rotated",
				Expected: fmt.Sprintf("the player's client seed rotated on about %g of their rounds (players' usual rate)", RotationBaseline),
				Actual:   fmt.Sprintf("%d rotations in %d rounds (%.4f; p = %s)", pr.Rotated, pr.Rounds, pr.Rate, pText(pr.P, pr.Log10P)),
				Detail: fmt.Sprintf("player %s: exact one-sided binomial test against %g at p < %g / %d (the players who rotated); the log cannot prove who rotated",
					pr.Player, RotationBaseline, RotationAlpha, max(1, len(s.playerCounts))),
				PlayerID: pr.Player,
			})
		}
	}
	return out
}

func (s *Summary) finishTableRotations() []finding.Finding {
	var out []finding.Finding
	for _, k := range s.sortedTables() {
		ts := s.tables[k]
		if ts.rotations == 0 {
			continue
		}
		tr := TableRotations{Table: k.table, Game: k.game, RotationTest: rotationTest(ts.rounds, ts.rotations, RotationAlpha)}
		s.Rotations = append(s.Rotations, tr)
		if tr.Excessive {
			p := pText(tr.P, tr.Log10P)
			out = append(out, finding.Finding{
				Code: finding.RotationRate, Severity: finding.SeverityOf(finding.RotationRate), Row: -1, Field: "fairness.client_seed_rotated",
				TableID: tr.Table, Game: tr.Game,
				Expected: fmt.Sprintf("client seeds rotated on about %g of the rounds (players' usual rate)", RotationBaseline),
				Actual:   fmt.Sprintf("%d rotations in %d rounds (%.4f; p = %s)", tr.Rotated, tr.Rounds, tr.Rate, p),
				Detail:   fmt.Sprintf("table %s (%s): exact one-sided binomial test against %g at p < %g; the log cannot prove who rotated", tr.Table, tr.Game, RotationBaseline, RotationAlpha),
			})
		}
	}
	return out
}
