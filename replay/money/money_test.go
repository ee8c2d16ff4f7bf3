package money

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestChecked(t *testing.T) {
	vals := []int64{0, 1, -1, 2, -2, 7, 100, -100, math.MaxInt64, math.MinInt64,
		math.MaxInt64 / 2, math.MinInt64 / 2, math.MaxInt32, 3037000500, -3037000500}
	fits := func(b *big.Int) bool { return b.IsInt64() }
	for _, a := range vals {
		for _, b := range vals {
			ba, bb := big.NewInt(a), big.NewInt(b)
			for _, op := range []struct {
				name string
				f    func(a, b int64) (int64, error)
				want *big.Int
			}{
				{"add", Add, new(big.Int).Add(ba, bb)},
				{"sub", Sub, new(big.Int).Sub(ba, bb)},
				{"mul", Mul, new(big.Int).Mul(ba, bb)},
			} {
				got, err := op.f(a, b)
				if fits(op.want) {
					assert.NoError(t, err, "%s(%d, %d)", op.name, a, b)
					assert.Equal(t, op.want.Int64(), got, "%s(%d, %d)", op.name, a, b)
				} else {
					assert.ErrorIs(t, err, ErrOverflow, "%s(%d, %d)", op.name, a, b)
				}
			}
		}
	}
}

func TestMulDiv(t *testing.T) {
	for _, c := range []struct{ a, num, den int64 }{
		{1000, 500, 10000}, {999, 500, 10000}, {math.MaxInt64, 1, 3}, {math.MaxInt64, 500, 10000},
		{12345, 7, 7}, {0, 5, 1},
		// The remainder times num does not fit, but the result does: this
		// used to be reported as an overflow.
		{9999, 1_000_000_000_000_000_000, 10000}, {math.MaxInt64 - 1, math.MaxInt64, math.MaxInt64},
	} {
		want := new(big.Int).Mul(big.NewInt(c.a), big.NewInt(c.num))
		want.Quo(want, big.NewInt(c.den))
		got, err := MulDiv(c.a, c.num, c.den)
		assert.NoError(t, err)
		assert.Equal(t, want.Int64(), got, "%+v", c)
	}
	_, err := MulDiv(math.MaxInt64, 3, 2)
	assert.ErrorIs(t, err, ErrOverflow)
	_, err = MulDiv(math.MaxInt64, math.MaxInt64, 1)
	assert.ErrorIs(t, err, ErrOverflow)
	_, err = MulDiv(-1, 3, 2)
	assert.Error(t, err)
}

func TestSum(t *testing.T) {
	s, err := Sum(1, 2, 3)
	assert.NoError(t, err)
	assert.Equal(t, int64(6), s)
	_, err = Sum(math.MaxInt64, 1)
	assert.ErrorIs(t, err, ErrOverflow)
}
