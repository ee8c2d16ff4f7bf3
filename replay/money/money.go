// Package money does checked arithmetic on amounts of money.
//
// An amount is an int64 count of minor units (cents, say) of one currency.
// Every operation that could leave the int64 range returns [ErrOverflow]
// instead of wrapping, so a settlement never pays a wrapped amount.
//
// [Format] is the one text of an amount for a person to read:
// "EUR 1,234,567.89", with the decimals of the currency's minor unit
// (package currency).
package money

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// ErrOverflow is returned, wrapped, when a result does not fit in an int64.
var ErrOverflow = errors.New("money: amount overflows int64")

// Add returns a + b.
func Add(a, b int64) (int64, error) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, fmt.Errorf("%w: %d + %d", ErrOverflow, a, b)
	}
	return s, nil
}

// Sub returns a - b.
func Sub(a, b int64) (int64, error) {
	d := a - b
	if (b > 0 && d > a) || (b < 0 && d < a) {
		return 0, fmt.Errorf("%w: %d - %d", ErrOverflow, a, b)
	}
	return d, nil
}

// Mul returns a * b.
func Mul(a, b int64) (int64, error) {
	if a == 0 || b == 0 {
		return 0, nil
	}
	p := a * b
	if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) || p/b != a {
		return 0, fmt.Errorf("%w: %d * %d", ErrOverflow, a, b)
	}
	return p, nil
}

// MulDiv returns floor(a * num / den) for a >= 0, num >= 0, den > 0. The
// product is formed exactly in 128 bits, so only a quotient that does not
// fit in an int64 is an overflow.
func MulDiv(a, num, den int64) (int64, error) {
	if a < 0 || num < 0 || den <= 0 {
		return 0, fmt.Errorf("money: MulDiv(%d, %d, %d): want a >= 0, num >= 0, den > 0", a, num, den)
	}
	hi, lo := bits.Mul64(uint64(a), uint64(num))
	if hi >= uint64(den) {
		// The quotient is at least 2^64 (and Div64 would panic).
		return 0, fmt.Errorf("%w: %d * %d / %d", ErrOverflow, a, num, den)
	}
	q, _ := bits.Div64(hi, lo, uint64(den))
	if q > math.MaxInt64 {
		return 0, fmt.Errorf("%w: %d * %d / %d", ErrOverflow, a, num, den)
	}
	return int64(q), nil
}

// Sum returns the sum of xs.
func Sum(xs ...int64) (int64, error) {
	var s int64
	for _, x := range xs {
		var err error
		if s, err = Add(s, x); err != nil {
			return 0, err
		}
	}
	return s, nil
}
