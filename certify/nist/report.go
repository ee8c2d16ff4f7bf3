package nist

import (
	"fmt"
	"math"
)

// Policy describes the suite's verdict in words, for reports.
const Policy = "NIST SP 800-22 second-level rules per reported P-value: proportion of sequences with P >= alpha " +
	"within (1-alpha) -/+ 3 sqrt(alpha(1-alpha)/m); from 55 sequences, uniformity P-value_T >= 0.0001; " +
	"the suite fails when the number of failed rules has probability < alpha under the null (Poisson-binomial)"

// Report is the outcome of the suite on many sequences: the JSON of
// `fairhold stats nist --json` and the result of a certification's raw
// bytes requirement.
type Report struct {
	// Source says where the bits came from: a generator or a file.
	Source    string  `json:"source"`
	Sequences int     `json:"sequences"`
	Bits      int     `json:"bits"`
	Alpha     float64 `json:"alpha"`
	Policy    string  `json:"policy"`
	// Tests are the assessments of the reported P-values, in the order of
	// the first sequence's results.
	Tests []TestReport `json:"tests"`
	// Failed counts the failed assessments; ExpectedFailures is their
	// expected number under the null and PFailures the probability of at
	// least Failed ([Summary]).
	Failed           int     `json:"failed"`
	ExpectedFailures float64 `json:"expected_failures"`
	PFailures        float64 `json:"p_failures"`
	Pass             bool    `json:"pass"`
}

// TestReport is one [Assessment] in JSON: Uniformity is null when there
// were too few sequences for the uniformity rule.
type TestReport struct {
	Name       string   `json:"name"`
	Sequences  int      `json:"sequences"`
	Passed     int      `json:"passed"`
	Proportion float64  `json:"proportion"`
	Low        float64  `json:"low"`
	High       float64  `json:"high"`
	Uniformity *float64 `json:"uniformity"`
	Pass       bool     `json:"pass"`
}

// NewReport assesses the results of many sequences at alpha ([Assess],
// then [Summarize] at level alpha).
func NewReport(source string, runs [][]Result, bits int, alpha float64) (*Report, error) {
	as, err := Assess(runs, alpha)
	if err != nil {
		return nil, err
	}
	sum := Summarize(as, alpha, alpha)
	r := &Report{Source: source, Sequences: len(runs), Bits: bits, Alpha: alpha, Policy: Policy,
		Tests: make([]TestReport, len(as)), Failed: sum.Failed, ExpectedFailures: sum.Expected,
		PFailures: sum.P, Pass: sum.Pass}
	for i, a := range as {
		r.Tests[i] = TestReport{Name: a.Name, Sequences: a.Sequences, Passed: a.Passed,
			Proportion: a.Proportion, Low: a.Low, High: a.High, Pass: a.Pass}
		if !math.IsNaN(a.Uniformity) {
			u := a.Uniformity
			r.Tests[i].Uniformity = &u
		}
	}
	return r, nil
}

// RunBytes runs the suite on count consecutive sequences of bits bits (a
// multiple of 8) taken from data, most significant bit of each byte first
// (as [FromBytes]): sequence i is data[i*bits/8 : (i+1)*bits/8]. data must
// hold them all. See [RunMany] for workers and done.
func RunBytes(data []byte, bits, count, workers int, p Params, done func()) ([][]Result, error) {
	if bits <= 0 || bits%8 != 0 {
		return nil, fmt.Errorf("nist: %d bits is not a whole number of bytes", bits)
	}
	n := bits / 8
	if count < 1 || len(data)/n < count {
		return nil, fmt.Errorf("nist: %d bytes hold %d sequences of %d bits, not %d", len(data), len(data)/n, bits, count)
	}
	gen := func(i int, buf []byte) error {
		copy(buf, data[i*n:(i+1)*n])
		return nil
	}
	return RunMany(gen, count, bits, workers, p, done)
}
