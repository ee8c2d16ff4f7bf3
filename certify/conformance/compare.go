package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/vectors"
)

// AnswersReport is the outcome of comparing an engine's answer file with
// the vectors ([CompareAnswers]): the result of the engine-conformance
// requirement of a certification suite.
type AnswersReport struct {
	// Vectors is the number of vectors, each wanting one answer; Answers
	// the number of answers (lines) in the file.
	Vectors int `json:"vectors"`
	Answers int `json:"answers"`
	// Passed counts the vectors answered once and rightly; Wrong those
	// answered wrongly; Missing those not answered; Extra the answers to
	// no vector, and second answers to a vector.
	Passed  int `json:"passed"`
	Wrong   int `json:"wrong"`
	Missing int `json:"missing"`
	Extra   int `json:"extra"`
	// Problems lists every wrong, missing and extra answer: the vectors'
	// in the order of their names, then the extra answers in file order.
	Problems []AnswerProblem `json:"problems"`
}

// Pass reports whether every vector was answered once and rightly, and
// nothing else was answered.
func (r *AnswersReport) Pass() bool { return r.Passed == r.Vectors && r.Answers == r.Vectors }

// Kinds of problem.
const (
	ProblemWrong   = "wrong"
	ProblemMissing = "missing"
	ProblemExtra   = "extra"
)

// AnswerProblem is one vector answered wrongly, or not at all, or one
// answer too many.
type AnswerProblem struct {
	Vector string `json:"vector"`
	// Problem is ProblemWrong, ProblemMissing or ProblemExtra.
	Problem string `json:"problem"`
	// Line is the answer's line in the file (from 1); 0 for a missing
	// answer.
	Line int `json:"line,omitempty"`
	// Detail says what differs, naming the field (for cards, the
	// position in words) with the answered and the expected value.
	Detail string `json:"detail,omitempty"`
}

func (p AnswerProblem) String() string {
	s := p.Vector + ": " + p.Problem
	if p.Line > 0 {
		s += fmt.Sprintf(" (line %d)", p.Line)
	}
	if p.Detail != "" {
		s += ": " + p.Detail
	}
	return s
}

// CompareAnswers compares answers (in file order: answers[i] is line
// i+1) with the embedded vectors' expectations. A vector's answer is right
// when:
//
//   - fairness: the verdict is the vector's expect; for "failure" the
//     failures are the vector's, in order; for "malformed" the field is
//     the vector's; the cards are the vector's expected cards, or absent
//     when the vector has none (the cards cannot be derived).
//   - rules: boxes, double or error as the vector expects; every field of
//     a box or of the hand is equal; an error has the vector's kind, and
//     its field (round, profile) or index and seat (action) when the
//     vector names them. The reason text is not compared.
func CompareAnswers(answers []Answer) (*AnswersReport, error) {
	fv, err := vectors.Fairness()
	if err != nil {
		return nil, err
	}
	rv, err := vectors.Rules()
	if err != nil {
		return nil, err
	}
	first := map[string]int{} // vector name -> index of its first answer
	rep := &AnswersReport{Vectors: len(fv) + len(rv), Answers: len(answers), Problems: []AnswerProblem{}}
	known := make(map[string]bool, rep.Vectors)
	for _, v := range fv {
		known[vectors.KindFairness+"/"+v.ID] = true
	}
	for _, v := range rv {
		known[vectors.KindRules+"/"+v.ID] = true
	}
	var extra []AnswerProblem
	for i, a := range answers {
		switch _, seen := first[a.Vector]; {
		case !known[a.Vector]:
			extra = append(extra, AnswerProblem{Vector: a.Vector, Problem: ProblemExtra, Line: i + 1, Detail: "no such vector"})
		case seen:
			extra = append(extra, AnswerProblem{Vector: a.Vector, Problem: ProblemExtra, Line: i + 1,
				Detail: fmt.Sprintf("a second answer (the first is on line %d)", first[a.Vector]+1)})
		default:
			first[a.Vector] = i
		}
	}
	judge := func(name string, diff func(a *Answer) string) {
		i, ok := first[name]
		if !ok {
			rep.Missing++
			rep.Problems = append(rep.Problems, AnswerProblem{Vector: name, Problem: ProblemMissing})
			return
		}
		if d := diff(&answers[i]); d != "" {
			rep.Wrong++
			rep.Problems = append(rep.Problems, AnswerProblem{Vector: name, Problem: ProblemWrong, Line: i + 1, Detail: d})
			return
		}
		rep.Passed++
	}
	for _, v := range fv {
		judge(vectors.KindFairness+"/"+v.ID, func(a *Answer) string { return diffFairness(v, a) })
	}
	for _, v := range rv {
		judge(vectors.KindRules+"/"+v.ID, func(a *Answer) string { return diffRules(v, a) })
	}
	rep.Extra = len(extra)
	rep.Problems = append(rep.Problems, extra...)
	return rep, nil
}

// diffFairness says how a differs from the fairness vector v, or "".
func diffFairness(v vectors.FairnessVector, a *Answer) string {
	if a.Verdict != v.Expect {
		switch v.Expect {
		case vectors.FairnessMalformed:
			return fmt.Sprintf("verdict: answered %s, expected malformed (field %s)", a.Verdict, v.Field)
		case vectors.FairnessFailure:
			return fmt.Sprintf("verdict: answered %s, expected failure of %s", a.Verdict, strings.Join(v.Failures, ", "))
		}
		return fmt.Sprintf("verdict: answered %s, expected %s", a.Verdict, v.Expect)
	}
	switch v.Expect {
	case vectors.FairnessMalformed:
		if a.Field != v.Field {
			return fmt.Sprintf("field: answered %q, expected %q", a.Field, v.Field)
		}
	case vectors.FairnessFailure:
		if !slices.Equal(a.Failures, v.Failures) {
			return fmt.Sprintf("failures: answered [%s], expected [%s]", strings.Join(a.Failures, ", "), strings.Join(v.Failures, ", "))
		}
	}
	if v.Expect != vectors.FairnessFailure && a.Failures != nil {
		return fmt.Sprintf("failures: answered [%s] with verdict %s", strings.Join(a.Failures, ", "), a.Verdict)
	}
	if v.Expect != vectors.FairnessMalformed && a.Field != "" {
		return fmt.Sprintf("field: answered %q with verdict %s", a.Field, a.Verdict)
	}
	var want []string
	if v.Expect != vectors.FairnessMalformed && v.Expected != nil {
		want = v.Expected.Cards
	}
	switch {
	case want == nil && a.Cards != nil:
		return fmt.Sprintf("cards: answered %d cards, expected none (they cannot be dealt)", len(a.Cards))
	case want != nil && a.Cards == nil:
		return fmt.Sprintf("cards: none answered, expected %d", len(want))
	}
	for i := range max(len(want), len(a.Cards)) {
		switch {
		case i >= len(a.Cards):
			return fmt.Sprintf("cards: answered %d cards, expected %d; %s missing", len(a.Cards), len(want), CardPosition(v, i))
		case i >= len(want):
			return fmt.Sprintf("cards: answered %d cards, expected %d", len(a.Cards), len(want))
		case a.Cards[i] != want[i]:
			return fmt.Sprintf("cards: %s is %s, expected %s", CardPosition(v, i), a.Cards[i], want[i])
		}
	}
	return ""
}

// CardPosition names position i (from 0) of the cards a fairness vector
// deals: "card N (WORDS)" with the position's words of docs/fairness.md
// section 11.1 ([layout.Position]), or "card N" for the raw sequence.
func CardPosition(v vectors.FairnessVector, i int) string {
	l, seats, ok, err := FairnessLayout(v)
	if !ok || err != nil || i >= l.Count {
		return fmt.Sprintf("card %d", i+1)
	}
	return fmt.Sprintf("card %d (%s)", i+1, layout.Position(&l, seats, i))
}

// diffRules says how a differs from the rules vector v, or "".
func diffRules(v vectors.RulesVector, a *Answer) string {
	want := v.Expect
	describe := func(a *Answer) string {
		switch {
		case a.Boxes != nil:
			return "a Casino Hold'em settlement"
		case a.Double != nil:
			return "a Double Hold'em settlement"
		}
		return fmt.Sprintf("a %s error", a.Error.Kind)
	}
	switch {
	case want.Error != nil:
		if a.Error == nil {
			return fmt.Sprintf("answered %s, expected %s", describe(a), describeError(want.Error))
		}
		return diffError(want.Error, a.Error)
	case a.Error != nil:
		return fmt.Sprintf("answered %s (field %q, index %d), expected a settlement", describe(a), a.Error.Field, a.Error.Index)
	case want.Boxes != nil:
		if a.Boxes == nil {
			return fmt.Sprintf("answered %s, expected a Casino Hold'em settlement", describe(a))
		}
		return diffBoxes(want.Boxes, a.Boxes)
	default:
		if a.Double == nil {
			return fmt.Sprintf("answered %s, expected a Double Hold'em settlement", describe(a))
		}
		if err := compareDoubleExpect(want.Double, a.Double); err != "" {
			return err
		}
	}
	return ""
}

func describeError(e *vectors.RulesErrorExp) string {
	switch e.Kind {
	case "action":
		return fmt.Sprintf("an action error at index %d", e.Index)
	}
	if e.Field != "" {
		return fmt.Sprintf("a %s error at %s", e.Kind, e.Field)
	}
	return fmt.Sprintf("a %s error", e.Kind)
}

func diffError(want *vectors.RulesErrorExp, got *RejectAnswer) string {
	switch {
	case got.Kind != want.Kind:
		return fmt.Sprintf("error kind: answered %s, expected %s", got.Kind, describeError(want))
	case want.Kind == "action" && got.Index != want.Index:
		return fmt.Sprintf("error index: answered %d, expected %d", got.Index, want.Index)
	case want.Kind == "action" && want.Seat != 0 && got.Seat != want.Seat:
		return fmt.Sprintf("error seat: answered %d, expected %d", got.Seat, want.Seat)
	case want.Kind != "action" && want.Field != "" && got.Field != want.Field:
		return fmt.Sprintf("error field: answered %q, expected %q", got.Field, want.Field)
	}
	return ""
}

func diffBoxes(want, got []vectors.BoxExpect) string {
	if len(got) != len(want) {
		return fmt.Sprintf("boxes: answered %d, expected %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		for _, f := range []struct {
			name      string
			got, want any
		}{
			{"box", g.Box, w.Box}, {"ante", g.Ante, w.Ante}, {"call", g.Call, w.Call}, {"bonus", g.Bonus, w.Bonus},
			{"ante_return", g.AnteReturn, w.AnteReturn}, {"call_return", g.CallReturn, w.CallReturn},
			{"bonus_return", g.BonusReturn, w.BonusReturn}, {"reason", g.Reason, w.Reason},
			{"bonus_reason", g.BonusReason, w.BonusReason}, {"capped", g.Capped, w.Capped},
			{"player_hand", g.PlayerHand, w.PlayerHand},
		} {
			if f.got != f.want {
				return fmt.Sprintf("boxes[%d] (box %d) %s: answered %v, expected %v", i, w.Box, f.name, f.got, f.want)
			}
		}
	}
	return ""
}

// compareDoubleExpect says how got differs from want, or "".
func compareDoubleExpect(want, got *vectors.DoubleExpect) string {
	switch {
	case got.Rake != want.Rake:
		return fmt.Sprintf("double.rake: answered %d, expected %d", got.Rake, want.Rake)
	case got.Uncalled != want.Uncalled:
		return fmt.Sprintf("double.uncalled: answered %d, expected %d", got.Uncalled, want.Uncalled)
	case got.Showdown != want.Showdown:
		return fmt.Sprintf("double.showdown: answered %v, expected %v", got.Showdown, want.Showdown)
	case len(got.Pots) != len(want.Pots):
		return fmt.Sprintf("double.pots: answered %d pots, expected %d", len(got.Pots), len(want.Pots))
	}
	for i, w := range want.Pots {
		g := got.Pots[i]
		switch {
		case g.Amount != w.Amount:
			return fmt.Sprintf("double.pots[%d].amount: answered %d, expected %d", i, g.Amount, w.Amount)
		case !slices.Equal(g.Eligible, w.Eligible):
			return fmt.Sprintf("double.pots[%d].eligible: answered %v, expected %v", i, g.Eligible, w.Eligible)
		case !slices.Equal(g.Winners, w.Winners):
			return fmt.Sprintf("double.pots[%d].winners: answered %v, expected %v", i, g.Winners, w.Winners)
		case !slices.Equal(g.Shares, w.Shares):
			return fmt.Sprintf("double.pots[%d].shares: answered %v, expected %v", i, g.Shares, w.Shares)
		}
	}
	if a, b := fmtMap(got.StackAfter), fmtMap(want.StackAfter); a != b {
		return fmt.Sprintf("double.stack_after: answered {%s}, expected {%s}", a, b)
	}
	if a, b := fmtMap(got.BonusCards), fmtMap(want.BonusCards); a != b {
		return fmt.Sprintf("double.bonus_cards: answered {%s}, expected {%s}", a, b)
	}
	return ""
}
