package nist

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// DFT is the discrete Fourier transform (spectral) test (§2.6): the number
// of the first n/2 moduli (the constant term included, as in NIST's code)
// below the 95% threshold sqrt(ln(1/0.05) n).
func DFT(bits []byte) Result {
	n := len(bits)
	x := make([]float64, n)
	for i, b := range bits {
		x[i] = float64(2*int(b) - 1)
	}
	coef := fourier.NewFFT(n).Coefficients(nil, x)
	t := math.Sqrt(math.Log(1/0.05) * float64(n))
	n1 := 0
	for _, c := range coef[:n/2] {
		if math.Hypot(real(c), imag(c)) < t {
			n1++
		}
	}
	n0 := 0.95 * float64(n) / 2
	d := (float64(n1) - n0) / math.Sqrt(float64(n)*0.95*0.05/4)
	return result("fft", "", d, math.Erfc(math.Abs(d)/math.Sqrt2))
}
