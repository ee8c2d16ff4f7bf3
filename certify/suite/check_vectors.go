package suite

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/fairhold/fairhold/certify/conformance"
	"github.com/fairhold/fairhold/certify/report"
)

// checkVectors compares the engine's answer file with every test vector:
// it passes when every vector is answered once and rightly, and nothing
// else is answered. Result: [conformance.AnswersReport].
func checkVectors(e *env, _ *Requirement) (result, error) {
	if e.s.Artefacts.Answers == "" {
		return notTested("no answer file: the suite names none (artefacts.answers)")
	}
	answers, err := e.loadAnswers()
	if err != nil {
		return result{}, err
	}
	rep, err := conformance.CompareAnswers(answers)
	if err != nil {
		return result{}, err
	}
	res := result{status: report.Pass, subjects: []string{"answers"}, value: rep}
	if !rep.Pass() {
		res.status = report.Fail
	}
	res.summary = fmt.Sprintf("%d vectors, %d answers: %d right, %d wrong, %d missing, %d extra",
		rep.Vectors, rep.Answers, rep.Passed, rep.Wrong, rep.Missing, rep.Extra)
	if n := len(rep.Problems); n > 0 {
		shown := make([]string, 0, 3)
		for _, pr := range rep.Problems[:min(n, 3)] {
			shown = append(shown, pr.String())
		}
		res.summary += "; " + strings.Join(shown, "; ")
		if n > 3 {
			res.summary += fmt.Sprintf("; and %d more", n-3)
		}
	}
	return res, nil
}

// loadAnswers reads the suite's answer file once.
func (e *env) loadAnswers() ([]conformance.Answer, error) {
	e.answersOnce.Do(func() { e.answers, e.answersErr = e.readAnswers(e.s.Artefacts.Answers) })
	return e.answers, e.answersErr
}

func (e *env) readAnswers(p string) ([]conformance.Answer, error) {
	f, err := os.Open(e.path(p))
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", e.path(p), err)
	}
	defer f.Close()
	answers, err := conformance.ParseAnswers(f)
	if err != nil {
		var le *conformance.AnswerLineError
		if errors.As(err, &le) {
			field := fmt.Sprintf("line %d", le.Line)
			if le.Field != "" {
				field += ": " + le.Field
			}
			return nil, &Error{File: p, Field: field, Err: le.Err}
		}
		return nil, fmt.Errorf("failed to read %s: %w", e.path(p), err)
	}
	return answers, nil
}
