package demo

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/certify/rtp"
	"github.com/fairhold/fairhold/certify/stats"
	"github.com/fairhold/fairhold/replay/finding"
)

// Judgement is a certification's outcome against the expected one.
type Judgement struct {
	// Verdict is the report's; Expected is pass for an operator without
	// injected faults, fail for one with.
	Verdict  report.Verdict `json:"verdict"`
	Expected report.Verdict `json:"expected"`
	// Requirements is the number of requirements certified.
	Requirements int `json:"requirements"`
	// Passed, Failing and NotTested are the requirements that passed,
	// failed and were not tested, in the suite's order.
	Passed    []string `json:"passed"`
	Failing   []string `json:"failing"`
	NotTested []string `json:"not_tested,omitempty"`
	// Findings are the finding codes the replay requirement found,
	// sorted.
	Findings []finding.Code `json:"findings"`
	// Causes explain every failing requirement by the injected faults'
	// codes, in the suite's order.
	Causes []Cause `json:"causes"`
	// Problems say how the outcome differs from the expected one: a
	// requirement that failed for no injected fault, one that an injected
	// fault must fail and that passed, replay findings other than the
	// injected codes, a requirement not tested. None when OK.
	Problems []string `json:"problems,omitempty"`
	// OK is true when there are no problems.
	OK bool `json:"ok"`
}

// Cause is why a requirement failed: the injected faults that explain it.
type Cause struct {
	Requirement string `json:"requirement"`
	// Failed are what failed inside the requirement, each with the
	// injected codes that explain it: the log battery's tests
	// ("validity"), the observed-return intervals by bet and cell
	// ("aa-bonus casino-holdem EUR"), the decision test's cells. Empty for
	// the replay, whose codes are the findings.
	Failed []Failure `json:"failed,omitempty"`
	// Codes are all the injected finding codes that explain the failure,
	// sorted.
	Codes []finding.Code `json:"codes"`
	// Certain is true when the injected faults make the requirement fail
	// whatever the number of rounds (a finding per faulty round, a
	// repeated card or deck, an AA Bonus return the cards do not give);
	// false when they shift a statistic that fails once the log is long
	// enough (the returns of the main game).
	Certain bool `json:"certain"`
}

// Failure is one part of a requirement that failed, and the injected codes
// that explain it.
type Failure struct {
	What  string         `json:"what"`
	Codes []finding.Code `json:"codes"`
}

// The finding codes of injected faults and the requirements they make
// fail (besides the replay, which every one fails with its own code).
var (
	// bonusCodes change the AA Bonus's return, which the cards up to the
	// flop decide: the observed-return test holds it to the exact
	// expected return, a point interval.
	bonusCodes = []finding.Code{finding.BonusPaidAfterFold, finding.BonusPayoutWrong}
	// mainCodes shift the main game's return away from the expectation of
	// the decisions taken: wrong payouts, voids that fall on wins (the
	// rounds left are selected on their outcome), and decks from a biased
	// shuffle (the cards after the flop no longer uniform).
	mainCodes = []finding.Code{finding.AntePayoutWrong, finding.CallPaidNotQualified, finding.CardsMismatch,
		finding.DealerQualificationWrong, finding.MaxPayoutExceeded, finding.TieNotPushed, finding.VoidBias}
	// repeatCodes repeat a round's fairness inputs, hence its deck: the
	// log battery's collision tests.
	repeatCodes = []finding.Code{finding.NonceReused}
	// duplicateCodes repeat a card within a round: the log battery's
	// validity test.
	duplicateCodes = []finding.Code{finding.CardDuplicate}
	// cardCodes can move the log battery's distribution tests: a card
	// replaced or from a biased shuffle, a card repeated, a deck repeated.
	cardCodes = []finding.Code{finding.CardDuplicate, finding.CardsMismatch, finding.NonceReused}
)

// Judge judges a certification of the demo's suite against the finding
// codes of the faults injected into the certified log: none for the
// clean operator, whose certification must pass with every requirement;
// for a faulty operator the verdict must be fail, the replay must find
// exactly the injected codes, every requirement an injected fault makes
// fail with certainty must fail, and every requirement that fails must be
// explained by an injected fault.
func Judge(p report.Predicate, injected []finding.Code) Judgement {
	inj := map[finding.Code]bool{}
	for _, c := range injected {
		inj[c] = true
	}
	j := Judgement{Verdict: p.Verdict, Expected: report.VerdictPass, Requirements: len(p.Requirements), Passed: []string{}, Failing: []string{}, Findings: []finding.Code{}, Causes: []Cause{}}
	if len(inj) > 0 {
		j.Expected = report.VerdictFail
	}
	problem := func(format string, args ...any) { j.Problems = append(j.Problems, fmt.Sprintf(format, args...)) }
	for _, r := range p.Requirements {
		if r.ID == ReqReplay {
			found, err := replayCodes(r)
			if err != nil {
				problem("%s: %v", r.ID, err)
			}
			j.Findings = found
			if !slices.Equal(found, sortedCodes(inj)) {
				problem("%s found %s; the injected faults are %s", r.ID, codesText(found), codesText(sortedCodes(inj)))
			}
		}
		certain := explainedBy(certainCodes(r.ID), inj)
		if r.ID == ReqReplay {
			certain = sortedCodes(inj)
		}
		switch r.Status {
		case report.Fail:
			j.Failing = append(j.Failing, r.ID)
			c, err := explain(r, inj)
			if err != nil {
				problem("%s: %v", r.ID, err)
				continue
			}
			if len(c.Codes) == 0 {
				problem("%s failed, and no injected fault explains it: %s", r.ID, r.Evidence.Summary)
				continue
			}
			c.Certain = len(certain) > 0
			j.Causes = append(j.Causes, c)
		case report.Pass:
			j.Passed = append(j.Passed, r.ID)
			if len(certain) > 0 {
				problem("%s passed, but the injected %s must make it fail", r.ID, codesText(certain))
			}
		default:
			j.NotTested = append(j.NotTested, r.ID)
			problem("%s was not tested: %s", r.ID, r.Evidence.Summary)
		}
	}
	if j.Verdict != j.Expected {
		problem("verdict %s, expected %s", j.Verdict, j.Expected)
	}
	j.OK = len(j.Problems) == 0
	return j
}

// certainCodes returns the codes that make requirement id fail with
// certainty (the replay's are every injected code).
func certainCodes(id string) []finding.Code {
	switch id {
	case ReqLoggedCards:
		return append(slices.Clone(duplicateCodes), repeatCodes...)
	case ReqObserved:
		return bonusCodes
	}
	return nil
}

// explain returns the cause of a failed requirement: what failed in it
// and the injected codes that explain that; no codes when nothing
// injected does.
func explain(r report.Requirement, inj map[finding.Code]bool) (Cause, error) {
	c := Cause{Requirement: r.ID, Codes: []finding.Code{}}
	codes := map[finding.Code]bool{}
	// each adds what failed and its explaining codes; a part that no
	// injected code explains empties the cause.
	unexplained := false
	each := func(what string, by []finding.Code) {
		e := explainedBy(by, inj)
		c.Failed = append(c.Failed, Failure{What: what, Codes: e})
		if len(e) == 0 {
			unexplained = true
		}
		for _, x := range e {
			codes[x] = true
		}
	}
	switch r.ID {
	case ReqReplay:
		for x := range inj {
			codes[x] = true
		}
	case ReqLoggedCards:
		var rep stats.Report
		if err := json.Unmarshal(r.Evidence.Result, &rep); err != nil {
			return c, fmt.Errorf("its result is not a log battery report: %v", err)
		}
		for _, t := range rep.Tests {
			if t.Pass {
				continue
			}
			switch {
			case t.Name == "validity":
				each(t.Name, duplicateCodes)
			case strings.HasPrefix(t.Name, "collisions/"):
				each(t.Name, repeatCodes)
			default:
				each(t.Name, cardCodes)
			}
		}
	case ReqObserved, ReqDecisions:
		var rep rtp.Report
		if err := json.Unmarshal(r.Evidence.Result, &rep); err != nil {
			return c, fmt.Errorf("its result is not an observed-return report: %v", err)
		}
		for _, cell := range rep.Cells {
			where := cell.Game + " " + cell.Currency
			if r.ID == ReqDecisions {
				if !cell.Decisions.Pass {
					each(where, append(slices.Clone(mainCodes), bonusCodes...))
				}
				continue
			}
			for _, b := range cell.Bets {
				if b.Pass {
					continue
				}
				switch b.Bet {
				case rtp.BetBonus:
					each(b.Bet+" "+where, bonusCodes)
				case rtp.BetMain:
					each(b.Bet+" "+where, mainCodes)
				default:
					each(b.Bet+" "+where, append(slices.Clone(mainCodes), bonusCodes...))
				}
			}
		}
	}
	if unexplained || len(codes) == 0 {
		return c, nil
	}
	c.Codes = sortedCodes(codes)
	return c, nil
}

// replayCodes returns the finding codes of a replay requirement's result.
func replayCodes(r report.Requirement) ([]finding.Code, error) {
	var sum struct {
		Findings map[finding.Code]int64 `json:"findings"`
	}
	if len(r.Evidence.Result) == 0 {
		return []finding.Code{}, fmt.Errorf("no result: %s", r.Evidence.Summary)
	}
	if err := json.Unmarshal(r.Evidence.Result, &sum); err != nil {
		return []finding.Code{}, fmt.Errorf("its result is not a replay summary: %v", err)
	}
	set := map[finding.Code]bool{}
	for c, n := range sum.Findings {
		if n > 0 {
			set[c] = true
		}
	}
	return sortedCodes(set), nil
}

// explainedBy returns the codes of by that were injected, sorted.
func explainedBy(by []finding.Code, inj map[finding.Code]bool) []finding.Code {
	set := map[finding.Code]bool{}
	for _, c := range by {
		if inj[c] {
			set[c] = true
		}
	}
	return sortedCodes(set)
}

func sortedCodes(set map[finding.Code]bool) []finding.Code {
	out := slices.Collect(maps.Keys(set))
	slices.Sort(out)
	if out == nil {
		out = []finding.Code{}
	}
	return out
}

func codesText(cs []finding.Code) string {
	if len(cs) == 0 {
		return "none"
	}
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}
