package money

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/currency"
)

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		amount int64
		code   string
		want   string
	}{
		{1100, "EUR", "EUR 11.00"},
		{0, "EUR", "EUR 0.00"},
		{5, "EUR", "EUR 0.05"},
		{-5, "EUR", "EUR -0.05"},
		{-1100, "EUR", "EUR -11.00"},
		{99999, "EUR", "EUR 999.99"},
		{100000, "EUR", "EUR 1,000.00"},
		{123456789, "EUR", "EUR 1,234,567.89"},
		{-123456789, "EUR", "EUR -1,234,567.89"},
		{math.MaxInt64, "EUR", "EUR 92,233,720,368,547,758.07"},
		{math.MinInt64, "EUR", "EUR -92,233,720,368,547,758.08"},
		{math.MinInt64 + 1, "EUR", "EUR -92,233,720,368,547,758.07"},
		// ISO 4217 minor units: 0, 2, 3 and 4 decimals.
		{1200, "JPY", "JPY 1,200"},
		{-999, "JPY", "JPY -999"},
		{math.MinInt64, "JPY", "JPY -9,223,372,036,854,775,808"},
		{math.MaxInt64, "KRW", "KRW 9,223,372,036,854,775,807"},
		{1500, "KWD", "KWD 1.500"},
		{1, "BHD", "BHD 0.001"},
		{12345, "CLF", "CLF 1.2345"},
		// Crypto: the built-in decimals (ETH in gwei, 9).
		{12345, "BTC", "BTC 0.00012345"},
		{100000000, "BTC", "BTC 1.00000000"},
		{2100000000000000, "BTC", "BTC 21,000,000.00000000"},
		{1500000000, "ETH", "ETH 1.500000000"},
		{1000000, "USDT", "USDT 1.000000"},
		// Unknown: minor units, labelled; no code: the same without it;
		// a code not of a code's form: quoted.
		{123456, "XYZ", "XYZ 123,456 (minor units)"},
		{-7, "XYZ", "XYZ -7 (minor units)"},
		{math.MinInt64, "XYZ", "XYZ -9,223,372,036,854,775,808 (minor units)"},
		{1000, "", "1,000 (minor units)"},
		{1000, "eur", `"eur" 1,000 (minor units)`},
		{1000, "=1+1", `"=1+1" 1,000 (minor units)`},
		{1000, "E\nUR", `"E\nUR" 1,000 (minor units)`},
	} {
		assert.Equal(t, tc.want, Format(tc.amount, tc.code), "Format(%d, %q)", tc.amount, tc.code)
	}
}

func TestFormatIn(t *testing.T) {
	tb, err := currency.TableOf([]string{"ETH:18", "SHIB:2", "XYZ:0"})
	require.NoError(t, err)
	for _, tc := range []struct {
		amount int64
		code   string
		want   string
	}{
		{1500000000000000000, "ETH", "ETH 1.500000000000000000"},
		{math.MaxInt64, "ETH", "ETH 9.223372036854775807"},
		{math.MinInt64, "ETH", "ETH -9.223372036854775808"},
		{-1, "ETH", "ETH -0.000000000000000001"},
		{123456, "SHIB", "SHIB 1,234.56"},
		{123456, "XYZ", "XYZ 123,456"},
		{123456, "EUR", "EUR 1,234.56"},              // built in
		{123456, "ABC", "ABC 123,456 (minor units)"}, // neither
	} {
		assert.Equal(t, tc.want, FormatIn(tb, tc.amount, tc.code), "FormatIn(%d, %q)", tc.amount, tc.code)
	}
	// A nil table knows the built-in currencies.
	assert.Equal(t, "EUR 1,234.56", FormatIn(nil, 123456, "EUR"))
	assert.Equal(t, "ETH 0.000123456", FormatIn(nil, 123456, "ETH"))
}

func TestFormatNumber(t *testing.T) {
	for _, tc := range []struct {
		amount   int64
		decimals int
		want     string
	}{
		{0, 0, "0"}, {0, 2, "0.00"}, {0, 18, "0.000000000000000000"},
		{7, 2, "0.07"}, {-7, 2, "-0.07"}, {70, 2, "0.70"}, {700, 2, "7.00"},
		{999, 0, "999"}, {1000, 0, "1,000"}, {-1000, 0, "-1,000"},
		{100000, 0, "100,000"}, {1000000, 0, "1,000,000"},
		{123456789, 2, "1,234,567.89"}, {-123456789, 2, "-1,234,567.89"},
		{math.MaxInt64, 0, "9,223,372,036,854,775,807"},
		{math.MinInt64, 0, "-9,223,372,036,854,775,808"},
		{math.MinInt64, 18, "-9.223372036854775808"},
		{math.MinInt64, 19, "-9.223372036854775808"}, // capped at 18
		{math.MaxInt64, 18, "9.223372036854775807"},
		{1, 18, "0.000000000000000001"},
		{42, -1, "42"}, // negative decimals: a whole number
	} {
		assert.Equal(t, tc.want, FormatNumber(tc.amount, tc.decimals), "FormatNumber(%d, %d)", tc.amount, tc.decimals)
	}
}

// Every ISO 4217 and crypto currency built in formats a round amount
// with exactly its decimals.
func TestFormatEveryBuiltin(t *testing.T) {
	for _, code := range []string{"EUR", "USD", "GBP", "JPY", "KWD", "CLF", "BTC", "ETH", "USDT", "DOGE"} {
		c, ok := currency.Builtin.Lookup(code)
		require.True(t, ok, code)
		s := Format(int64(math.Pow10(c.Decimals)), code)
		want := code + " 1"
		if c.Decimals > 0 {
			want += "." + zeros[:c.Decimals]
		}
		assert.Equal(t, want, s)
	}
}

func BenchmarkFormat(b *testing.B) {
	for range b.N {
		_ = Format(123456789, "EUR")
	}
}
