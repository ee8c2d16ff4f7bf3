package demo

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/certify/rtp"
	"github.com/fairhold/fairhold/certify/stats"
	"github.com/fairhold/fairhold/certify/suite"
	"github.com/fairhold/fairhold/replay/finding"
)

func TestSuite(t *testing.T) {
	data, err := Suite(SuiteOptions{Operator: "clean", Log: "logs/day", Answers: "answers.jsonl", Decks: 2_000_000})
	require.NoError(t, err)
	s, err := suite.Parse(data, "clean-operator.json", ".")
	require.NoError(t, err)
	assert.Equal(t, "demo-clean-operator", s.Name)
	assert.Equal(t, "the clean operator (simulated)", s.Operator, "the certificate names the operator")
	assert.Empty(t, s.Lab, "a demo key is no lab's")
	assert.Equal(t, []string{"logs/day"}, s.Artefacts.Logs)
	assert.Equal(t, "answers.jsonl", s.Artefacts.Answers)
	var ids []string
	for _, r := range s.Requirements {
		ids = append(ids, r.ID)
		switch r.ID {
		case ReqSchemeDecks:
			assert.JSONEq(t, `{"decks": 2000000}`, string(r.Params))
			assert.Contains(t, r.Text, "on 2,000,000 decks")
		case ReqMainOptimal:
			assert.JSONEq(t, `{"strategies": ["optimal"], "claims": ["main-optimal"]}`, string(r.Params))
			assert.Contains(t, r.Text, "AA Bonus claim under the optimal strategy is left out")
		}
	}
	assert.Equal(t, []string{ReqVectors, ReqSchemeDecks, ReqLoggedCards, ReqMainOptimal, ReqBasicClaims, ReqReplay, ReqObserved, ReqDecisions}, ids)
	assert.NotContains(t, string(data), ExcludedClaim)

	data, err = Suite(SuiteOptions{Operator: "faulty", Log: "logs/day", Answers: "answers.jsonl", Decks: 5000, NoMath: true})
	require.NoError(t, err)
	s, err = suite.Parse(data, "faulty-operator.json", ".")
	require.NoError(t, err)
	ids = nil
	for _, r := range s.Requirements {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{ReqVectors, ReqSchemeDecks, ReqLoggedCards, ReqReplay}, ids)

	// A suite the format refuses is an error, not a file.
	_, err = Suite(SuiteOptions{Operator: "clean", Log: "../day", Answers: "answers.jsonl", Decks: 5000})
	assert.Error(t, err)
	_, err = Suite(SuiteOptions{Operator: "clean", Log: "day", Answers: "answers.jsonl", Decks: 10})
	assert.Error(t, err)
}

func TestExclusions(t *testing.T) {
	ex := Exclusions("90.9", "90.78", false)
	require.Len(t, ex, 2)
	assert.Equal(t, "claim aa-bonus-optimal", ex[0].What)
	assert.Contains(t, ex[0].Why, "90.9%")
	assert.Contains(t, ex[0].Why, "90.78% (computed by this run")
	ex = Exclusions("90.9", "", true)
	require.Len(t, ex, 3)
	assert.Contains(t, ex[0].Why, "90.78% (docs/math.md)")
}

// predicate builds a predicate of the demo's suite: every requirement
// passes but those given.
func predicate(t *testing.T, changed ...report.Requirement) report.Predicate {
	t.Helper()
	p := report.Predicate{}
	for _, id := range []string{ReqVectors, ReqSchemeDecks, ReqLoggedCards, ReqMainOptimal, ReqBasicClaims, ReqReplay, ReqObserved, ReqDecisions} {
		r := report.Requirement{ID: id, Text: id, Status: report.Pass}
		if id == ReqReplay {
			r.Evidence.Result = replayResult(t)
		}
		for _, c := range changed {
			if c.ID == id {
				r = c
			}
		}
		p.Requirements = append(p.Requirements, r)
	}
	p.Verdict = report.Decide(p.Requirements)
	return p
}

func replayResult(t *testing.T, codes ...finding.Code) json.RawMessage {
	t.Helper()
	f := map[finding.Code]int64{}
	for _, c := range codes {
		f[c] = 3
	}
	b, err := json.Marshal(map[string]any{"rounds": 100, "findings": f})
	require.NoError(t, err)
	return b
}

func logBattery(t *testing.T, failed ...string) json.RawMessage {
	t.Helper()
	rep := stats.Report{Tests: []stats.Test{{Name: "position/global", Pass: true}}}
	for _, n := range failed {
		rep.Tests = append(rep.Tests, stats.Test{Name: n})
	}
	b, err := json.Marshal(rep)
	require.NoError(t, err)
	return b
}

func returns(t *testing.T, failedBets []string, decisionsPass bool) json.RawMessage {
	t.Helper()
	cell := rtp.Cell{Game: "casino-holdem", Currency: "EUR", Decisions: rtp.DecisionTest{Pass: decisionsPass}}
	for _, b := range []string{rtp.BetMain, rtp.BetBonus, rtp.BetTotal} {
		pass := true
		for _, f := range failedBets {
			pass = pass && f != b
		}
		cell.Bets = append(cell.Bets, rtp.BetTest{Bet: b, Pass: pass})
	}
	b, err := json.Marshal(rtp.Report{Cells: []rtp.Cell{cell}})
	require.NoError(t, err)
	return b
}

func TestJudgeClean(t *testing.T) {
	j := Judge(predicate(t), nil)
	assert.True(t, j.OK, j.Problems)
	assert.Equal(t, report.VerdictPass, j.Expected)
	assert.Equal(t, 8, j.Requirements)
	assert.Empty(t, j.Failing)
	assert.Empty(t, j.Causes)

	// Any failure of a clean operator is a problem, and so is a
	// requirement not tested.
	j = Judge(predicate(t,
		report.Requirement{ID: ReqDecisions, Status: report.Fail, Evidence: report.Evidence{Summary: "z = -3", Result: returns(t, nil, false)}},
		report.Requirement{ID: ReqVectors, Status: report.NotTested, Evidence: report.Evidence{Summary: "no answers"}}), nil)
	assert.False(t, j.OK)
	assert.Equal(t, []string{ReqDecisions}, j.Failing)
	assert.Equal(t, []string{ReqVectors}, j.NotTested)
	assert.Len(t, j.Problems, 3, j.Problems) // the failure, the requirement not tested, the verdict
	assert.Contains(t, strings.Join(j.Problems, "\n"), "rtp.decisions failed, and no injected fault explains it: z = -3")
}

func TestJudgeFaulty(t *testing.T) {
	injected := []finding.Code{finding.BonusPayoutWrong, finding.CardDuplicate, finding.NonceReused, finding.TieNotPushed}
	p := predicate(t,
		report.Requirement{ID: ReqReplay, Status: report.Fail, Evidence: report.Evidence{Result: replayResult(t, injected...)}},
		report.Requirement{ID: ReqLoggedCards, Status: report.Fail, Evidence: report.Evidence{Result: logBattery(t, "collisions/deals", "validity")}},
		report.Requirement{ID: ReqObserved, Status: report.Fail, Evidence: report.Evidence{Result: returns(t, []string{rtp.BetBonus}, true)}},
		report.Requirement{ID: ReqDecisions, Status: report.Fail, Evidence: report.Evidence{Result: returns(t, nil, false)}},
	)
	j := Judge(p, injected)
	assert.True(t, j.OK, j.Problems)
	assert.Equal(t, report.VerdictFail, j.Expected)
	assert.Equal(t, []string{ReqLoggedCards, ReqReplay, ReqObserved, ReqDecisions}, j.Failing)
	assert.Equal(t, injected, j.Findings)
	require.Len(t, j.Causes, 4)
	assert.Equal(t, []Failure{{"collisions/deals", []finding.Code{finding.NonceReused}}, {"validity", []finding.Code{finding.CardDuplicate}}}, j.Causes[0].Failed)
	assert.True(t, j.Causes[0].Certain)
	assert.Equal(t, injected, j.Causes[1].Codes)
	assert.True(t, j.Causes[1].Certain)
	assert.Equal(t, []Failure{{"aa-bonus casino-holdem EUR", []finding.Code{finding.BonusPayoutWrong}}}, j.Causes[2].Failed)
	assert.True(t, j.Causes[2].Certain)
	// The decision test is moved by the payouts, not certain to fail.
	assert.Equal(t, []finding.Code{finding.BonusPayoutWrong, finding.TieNotPushed}, j.Causes[3].Codes)
	assert.False(t, j.Causes[3].Certain)
}

func TestJudgeFaultyProblems(t *testing.T) {
	injected := []finding.Code{finding.BonusPayoutWrong, finding.TieNotPushed}
	for name, tc := range map[string]struct {
		changed []report.Requirement
		want    string
	}{
		"replay finds another code": {
			[]report.Requirement{{ID: ReqReplay, Status: report.Fail, Evidence: report.Evidence{Result: replayResult(t, finding.BonusPayoutWrong, finding.CardsMismatch)}},
				{ID: ReqObserved, Status: report.Fail, Evidence: report.Evidence{Result: returns(t, []string{rtp.BetBonus}, true)}}},
			"replay.resettle found BONUS_PAYOUT_WRONG, CARDS_MISMATCH; the injected faults are BONUS_PAYOUT_WRONG, TIE_NOT_PUSHED",
		},
		"certain failure passed": {
			[]report.Requirement{{ID: ReqReplay, Status: report.Fail, Evidence: report.Evidence{Result: replayResult(t, injected...)}}},
			"rtp.observed passed, but the injected BONUS_PAYOUT_WRONG must make it fail",
		},
		"a failure nothing injected explains": {
			[]report.Requirement{{ID: ReqReplay, Status: report.Fail, Evidence: report.Evidence{Result: replayResult(t, injected...)}},
				{ID: ReqObserved, Status: report.Fail, Evidence: report.Evidence{Result: returns(t, []string{rtp.BetBonus}, true)}},
				{ID: ReqLoggedCards, Status: report.Fail, Evidence: report.Evidence{Summary: "validity failed", Result: logBattery(t, "validity")}}},
			"stats.logged-cards failed, and no injected fault explains it: validity failed",
		},
		"a claim failed": {
			[]report.Requirement{{ID: ReqReplay, Status: report.Fail, Evidence: report.Evidence{Result: replayResult(t, injected...)}},
				{ID: ReqObserved, Status: report.Fail, Evidence: report.Evidence{Summary: "bonus and main", Result: returns(t, []string{rtp.BetBonus, rtp.BetMain}, true)}},
				{ID: ReqMainOptimal, Status: report.Fail, Evidence: report.Evidence{Summary: "claim"}}},
			"math.main-optimal failed, and no injected fault explains it: claim",
		},
		"malformed results": {
			[]report.Requirement{{ID: ReqReplay, Status: report.Fail, Evidence: report.Evidence{Result: json.RawMessage(`{"findings": 3}`)}},
				{ID: ReqObserved, Status: report.Fail, Evidence: report.Evidence{Result: json.RawMessage(`[`)}}},
			"replay.resettle: its result is not a replay summary",
		},
		"not failed at all": {nil, "verdict pass, expected fail"},
	} {
		t.Run(name, func(t *testing.T) {
			j := Judge(predicate(t, tc.changed...), injected)
			assert.False(t, j.OK)
			assert.Contains(t, strings.Join(j.Problems, "\n"), tc.want)
		})
	}
	// One part of a failure that nothing injected explains leaves the
	// whole requirement unexplained.
	codes := []finding.Code{finding.NonceReused}
	j := Judge(predicate(t,
		report.Requirement{ID: ReqReplay, Status: report.Fail, Evidence: report.Evidence{Result: replayResult(t, codes...)}},
		report.Requirement{ID: ReqLoggedCards, Status: report.Fail, Evidence: report.Evidence{Summary: "two tests", Result: logBattery(t, "collisions/deals", "validity")}}), codes)
	assert.False(t, j.OK)
	assert.Equal(t, []string{"stats.logged-cards failed, and no injected fault explains it: two tests"}, j.Problems)

	// A replay requirement without a result does not panic.
	j = Judge(report.Predicate{Verdict: report.VerdictFail, Requirements: []report.Requirement{{ID: ReqReplay, Status: report.Fail}}}, injected)
	assert.False(t, j.OK)
	assert.Contains(t, j.Problems[0], "no result")
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[uint64]string{0: "0", 999: "999", 5000: "5,000", 1000000: "1,000,000", 4294967295: "4,294,967,295"} {
		assert.Equal(t, want, groupDigits(n))
	}
}
