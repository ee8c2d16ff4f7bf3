// Package nist implements the 15 statistical tests of NIST SP 800-22 rev. 1a
// ("A Statistical Test Suite for Random and Pseudorandom Number Generators
// for Cryptographic Applications") and the suite's second-level rules.
//
// A sequence is a slice of bits, one bit per byte (0 or 1); [ParseASCII]
// reads NIST's sample files and [FromBytes] unpacks a byte stream most
// significant bit first. [Run] applies every test to one sequence and
// returns one [Result] per reported P-value (188 for a 1,000,000-bit
// sequence: 148 non-overlapping templates, 2 cumulative sums, 2 serial, 8
// random-excursion states and 18 random-excursion-variant states among
// them). [Assess] applies the second-level rules to the results of many
// sequences: the proportion of passing sequences and the uniformity of the
// P-values, per test.
//
// # Parameters and constants
//
// [DefaultParams] are the parameters of NIST's reference runs: block
// frequency M=128, non-overlapping template m=9 in 8 blocks, overlapping
// template of nine ones in blocks of 1032 bits (fixed),
// serial m=16, approximate entropy m=10, linear complexity M=500. The
// category probabilities of the longest-run, binary-rank and
// linear-complexity tests are computed exactly (see [longestRunProbs],
// [rankProb], [linearComplexityProbs]) rather than taken from the
// document's four-decimal tables; the overlapping-template probabilities
// are those of NIST's reference code (see [overlappingProbs]). With them
// the P-values of NIST's e and pi samples reproduce the reference values
// (docs/statistics.md lists each and the two exceptions).
// P-values come from gonum's survival functions (chi-square, normal) and
// math.Erfc.
package nist

import (
	"errors"
	"fmt"
	"math"
	"unicode"

	"gonum.org/v1/gonum/stat/distuv"
)

// Params are the tunable parameters of the suite.
type Params struct {
	BlockFrequencyM     int // block length of the block frequency test
	NonOverlappingM     int // template length of the non-overlapping template test
	SerialM             int // pattern length of the serial test
	ApproxEntropyM      int // pattern length of the approximate entropy test
	LinearComplexityM   int // block length of the linear complexity test
	NonOverlappingBlock int // number of blocks N of the non-overlapping template test
}

// DefaultParams are the parameters of NIST's reference runs.
func DefaultParams() Params {
	return Params{
		BlockFrequencyM:     128,
		NonOverlappingM:     9,
		SerialM:             16,
		ApproxEntropyM:      10,
		LinearComplexityM:   500,
		NonOverlappingBlock: 8,
	}
}

// MinBits is the shortest sequence [Run] accepts: the length NIST's
// parameter choices (Maurer's universal test with L=6 in particular) were
// made for is 10^6; below 387,840 bits the universal test is undefined.
const MinBits = 387840

// Result is one P-value of one test on one sequence.
type Result struct {
	// Test is the test's name, e.g. "frequency" or "serial".
	Test string
	// Variant names the reported value within a test ("forward", "x=+1",
	// "template=000000001", "1"), empty for single-valued tests.
	Variant string
	// Statistic is the test statistic the P-value was computed from.
	Statistic float64
	// P is the P-value; NaN when the test was not applicable (Applicable
	// false).
	P float64
	// Applicable is false when the sequence did not meet the test's
	// precondition (random excursions with too few cycles); such a result is
	// left out of the second-level rules.
	Applicable bool
}

// Name is Test, or Test/Variant when there is a variant.
func (r Result) Name() string {
	if r.Variant == "" {
		return r.Test
	}
	return r.Test + "/" + r.Variant
}

// ErrTooShort is returned by [Run] for sequences shorter than [MinBits].
var ErrTooShort = errors.New("nist: sequence too short")

// ParseASCII reads a sequence of ASCII '0' and '1' characters, skipping
// white space, and returns at most max bits (all of them if max <= 0).
func ParseASCII(data []byte, max int) ([]byte, error) {
	bits := make([]byte, 0, len(data))
	for i, c := range data {
		switch {
		case c == '0' || c == '1':
			bits = append(bits, c-'0')
			if max > 0 && len(bits) == max {
				return bits, nil
			}
		case unicode.IsSpace(rune(c)):
		default:
			return nil, fmt.Errorf("nist: byte %d: want '0', '1' or white space, got %q", i, c)
		}
	}
	return bits, nil
}

// FromBytes unpacks b into bits, most significant bit of each byte first
// (the order of NIST's assess tool for binary input). dst is reused when it
// is large enough.
func FromBytes(dst []byte, b []byte) []byte {
	n := 8 * len(b)
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	for i, x := range b {
		o := dst[8*i : 8*i+8 : 8*i+8]
		o[0] = x >> 7
		o[1] = x >> 6 & 1
		o[2] = x >> 5 & 1
		o[3] = x >> 4 & 1
		o[4] = x >> 3 & 1
		o[5] = x >> 2 & 1
		o[6] = x >> 1 & 1
		o[7] = x & 1
	}
	return dst
}

// Run applies the 15 tests to the sequence bits (one bit per byte).
func Run(bits []byte, p Params) ([]Result, error) {
	if len(bits) < MinBits {
		return nil, fmt.Errorf("%w: %d bits, need at least %d", ErrTooShort, len(bits), MinBits)
	}
	for i, b := range bits {
		if b > 1 {
			return nil, fmt.Errorf("nist: bit %d is %d, want 0 or 1", i, b)
		}
	}
	var rs []Result
	rs = append(rs, Frequency(bits))
	rs = append(rs, BlockFrequency(bits, p.BlockFrequencyM))
	rs = append(rs, CumulativeSums(bits)...)
	rs = append(rs, Runs(bits))
	rs = append(rs, LongestRun(bits))
	rs = append(rs, Rank(bits))
	rs = append(rs, DFT(bits))
	rs = append(rs, NonOverlappingTemplates(bits, p.NonOverlappingM, p.NonOverlappingBlock)...)
	rs = append(rs, OverlappingTemplate(bits))
	rs = append(rs, Universal(bits))
	rs = append(rs, ApproximateEntropy(bits, p.ApproxEntropyM))
	rs = append(rs, RandomExcursions(bits)...)
	rs = append(rs, RandomExcursionsVariant(bits)...)
	rs = append(rs, Serial(bits, p.SerialM)...)
	rs = append(rs, LinearComplexity(bits, p.LinearComplexityM))
	return rs, nil
}

// igamc is the regularised upper incomplete gamma function Q(a, x), the
// survival function of a chi-square with 2a degrees of freedom at 2x.
func igamc(a, x float64) float64 {
	if x <= 0 {
		return 1
	}
	return distuv.ChiSquared{K: 2 * a}.Survival(2 * x)
}

// chiSquare returns sum (obs_i - n p_i)^2 / (n p_i).
func chiSquare(obs []int, probs []float64, n float64) float64 {
	var s float64
	for i, o := range obs {
		e := n * probs[i]
		d := float64(o) - e
		s += d * d / e
	}
	return s
}

func result(test, variant string, stat, p float64) Result {
	return Result{Test: test, Variant: variant, Statistic: stat, P: p, Applicable: true}
}

func notApplicable(test, variant string) Result {
	return Result{Test: test, Variant: variant, P: math.NaN()}
}
