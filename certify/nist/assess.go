package nist

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/stat/distuv"
)

// MinUniformity is the number of sequences from which the uniformity rule
// applies: NIST asks for at least 55 sequences for the chi-square on ten
// bins to be meaningful.
const MinUniformity = 55

// UniformityThreshold is the smallest acceptable P-value of the uniformity
// rule (P-value_T).
const UniformityThreshold = 0.0001

// Assessment is the second-level verdict on one reported P-value (one test,
// or one variant of a test) over many sequences.
type Assessment struct {
	Name string
	// Sequences is the number of sequences the test applied to.
	Sequences int
	// Passed counts the sequences with P >= alpha.
	Passed int
	// Proportion is Passed/Sequences; it must lie in [Low, High] =
	// (1-alpha) -/+ 3 sqrt(alpha (1-alpha) / Sequences).
	Proportion, Low, High float64
	// Bins counts the P-values in [0, 0.1), [0.1, 0.2), ..., [0.9, 1].
	Bins [10]int
	// Uniformity is P-value_T, the chi-square (9 df) P-value of Bins; NaN
	// when fewer than [MinUniformity] sequences.
	Uniformity float64
	// Pass is the verdict: proportion within its interval and, from
	// [MinUniformity] sequences, Uniformity >= [UniformityThreshold].
	Pass bool
}

// Assess applies NIST's second-level rules at level alpha to the results
// of many sequences (each the output of [Run] with the same parameters).
// Results that were not applicable are left out of their test's count.
// The assessments are in the order of the first sequence's results.
func Assess(runs [][]Result, alpha float64) ([]Assessment, error) {
	if len(runs) == 0 {
		return nil, errors.New("nist: no sequences to assess")
	}
	if !(alpha > 0 && alpha < 1) {
		return nil, fmt.Errorf("nist: alpha %v not in (0, 1)", alpha)
	}
	index := map[string]int{}
	var out []Assessment
	for i, rs := range runs {
		for _, r := range rs {
			name := r.Name()
			k, ok := index[name]
			if !ok {
				if i > 0 {
					return nil, fmt.Errorf("nist: sequence %d has result %s the first sequence lacks", i, name)
				}
				k = len(out)
				index[name] = k
				out = append(out, Assessment{Name: name})
			}
			if !r.Applicable {
				continue
			}
			a := &out[k]
			a.Sequences++
			if r.P >= alpha {
				a.Passed++
			}
			a.Bins[min(int(r.P*10), 9)]++
		}
	}
	for i := range out {
		a := &out[i]
		a.Uniformity = math.NaN()
		if a.Sequences == 0 {
			a.Pass = true // not applicable anywhere: nothing to judge
			continue
		}
		m := float64(a.Sequences)
		a.Proportion = float64(a.Passed) / m
		d := 3 * math.Sqrt(alpha*(1-alpha)/m)
		a.Low, a.High = 1-alpha-d, 1-alpha+d
		a.Pass = a.Proportion >= a.Low && a.Proportion <= a.High
		if a.Sequences >= MinUniformity {
			var chi float64
			e := m / 10
			for _, f := range a.Bins {
				chi += (float64(f) - e) * (float64(f) - e) / e
			}
			a.Uniformity = igamc(4.5, chi/2)
			a.Pass = a.Pass && a.Uniformity >= UniformityThreshold
		}
	}
	return out, nil
}

// Generator fills buf with the bytes of sequence i. It must be safe for
// concurrent use with distinct buffers and give the same bytes for the same
// i on every call.
type Generator func(i int, buf []byte) error

// RunMany runs the suite on sequences 0..count-1 of bits bits each (a
// multiple of 8) drawn from gen, on workers goroutines (all CPUs when
// workers <= 0). done, if not nil, is called after each sequence. The
// results are indexed by sequence, so they do not depend on workers.
func RunMany(gen Generator, count, bits, workers int, p Params, done func()) ([][]Result, error) {
	if bits%8 != 0 {
		return nil, fmt.Errorf("nist: %d bits is not a whole number of bytes", bits)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([][]Result, count)
	var next atomic.Int64
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(workers, count) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, bits/8)
			var seq []byte
			for {
				i := int(next.Add(1) - 1)
				if i >= count {
					return
				}
				err := gen(i, buf)
				var rs []Result
				if err == nil {
					seq = FromBytes(seq, buf)
					rs, err = Run(seq, p)
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("sequence %d: %w", i, err)
					}
					mu.Unlock()
					next.Store(int64(count))
					return
				}
				out[i] = rs
				if done != nil {
					done()
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// Summary is the suite-level verdict over the assessments of one run.
//
// NIST's rules are applied to each reported P-value separately; with 188
// of them an honest generator fails a few (at 100 sequences each
// proportion rule fails with probability 1.8%). The suite-level verdict
// therefore judges the number of failed assessments against its null
// distribution: assessment j fails under the null with probability q_j
// (the exact binomial probability that the proportion falls below its
// bound, plus [UniformityThreshold] for the uniformity rule when it
// applies), the failures are treated as independent (Poisson-binomial),
// and the suite fails when P(K >= Failed) < level.
type Summary struct {
	Assessments int
	Failed      int
	// Expected is the expected number of failed assessments under the null.
	Expected float64
	// P is the probability of at least Failed failures under the null.
	P    float64
	Pass bool
}

// Summarize returns the suite-level verdict at the given level for
// assessments made by [Assess] at alpha.
func Summarize(as []Assessment, alpha, level float64) Summary {
	dist := []float64{1} // dist[k] = P(K = k) over the assessments so far
	s := Summary{Assessments: len(as)}
	for _, a := range as {
		if !a.Pass {
			s.Failed++
		}
		if a.Sequences == 0 {
			continue
		}
		q := proportionFalseAlarm(a.Sequences, alpha, a.Low)
		if a.Sequences >= MinUniformity {
			q += UniformityThreshold - q*UniformityThreshold
		}
		s.Expected += q
		next := make([]float64, len(dist)+1)
		for k, p := range dist {
			next[k] += p * (1 - q)
			next[k+1] += p * q
		}
		dist = next
	}
	s.P = 0
	for k := s.Failed; k < len(dist); k++ {
		s.P += dist[k]
	}
	s.P = min(s.P, 1)
	s.Pass = s.P >= level
	return s
}

// proportionFalseAlarm is the probability that fewer than a fraction low
// of m sequences pass at alpha when every P-value is uniform: the
// binomial probability of more than m - ceil(low m) failures.
func proportionFalseAlarm(m int, alpha, low float64) float64 {
	b := distuv.Binomial{N: float64(m), P: alpha}
	var q float64
	for f := 0; f <= m; f++ {
		if float64(m-f)/float64(m) < low {
			q += b.Prob(float64(f))
		}
	}
	return q
}
