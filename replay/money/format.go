package money

import (
	"strconv"

	"github.com/fairhold/fairhold/replay/currency"
)

// Formatting: the one text of an amount of money a person reads, in the
// replay's summary, the findings' formatted column, the reports and the
// players' page.
//
// [Format] writes the currency's code, a space and the amount in units of
// the currency: the decimals of its minor unit (package currency: ISO 4217
// for fiat, fairhold's built-in decimals for crypto, or a declaration),
// digits before the point grouped by three with a comma, a minus sign
// (U+002D) before a negative amount:
//
//	Format(1100, "EUR")       "EUR 11.00"
//	Format(123456789, "EUR")  "EUR 1,234,567.89"
//	Format(-5, "EUR")         "EUR -0.05"
//	Format(1200, "JPY")       "JPY 1,200"
//	Format(1500, "KWD")       "KWD 1.500"
//	Format(12345, "BTC")      "BTC 0.00012345"
//
// An amount whose decimals are not known (a code neither built in nor
// declared, or no code at all) is never given a decimal point it may not
// have: it is written in minor units, grouped, followed by " (minor
// units)": "XYZ 1,234 (minor units)", "1,234 (minor units)". A code that
// is not of the form of a currency code ([currency.ValidCode]) is quoted
// in Go syntax, so that a malformed code cannot pass for another text.
// Every int64 is formatted exactly, [math.MinInt64] included: the digits
// are those of the magnitude as an unsigned integer, never of a float.

// MinorUnitsSuffix follows an amount written in minor units because its
// currency's decimals are not known.
const MinorUnitsSuffix = " (minor units)"

// Format writes amount, in minor units of the currency code, for a person
// to read, with the built-in decimals ([currency.Builtin]).
func Format(amount int64, code string) string {
	return FormatIn(currency.Builtin, amount, code)
}

// FormatIn is [Format] with the decimals of t, which knows the currencies
// declared for a replay (`fairhold replay --currency ETH:18`) besides the
// built-in ones; a nil t knows the built-in ones.
func FormatIn(t *currency.Table, amount int64, code string) string {
	name := code
	if code != "" && !currency.ValidCode(code) {
		name = strconv.Quote(code)
	}
	c, ok := t.Lookup(code)
	if code == "" || !ok {
		s := FormatNumber(amount, 0) + MinorUnitsSuffix
		if name == "" {
			return s
		}
		return name + " " + s
	}
	return name + " " + FormatNumber(amount, c.Decimals)
}

// FormatNumber writes amount minor units with decimals digits after the
// decimal point, the digits before it grouped by three with commas and a
// minus sign before a negative amount: FormatNumber(-123456789, 2) is
// "-1,234,567.89", FormatNumber(5, 3) "0.005". decimals <= 0 writes a
// whole number ("1,234"); decimals above [currency.MaxDecimals] are taken
// as that.
func FormatNumber(amount int64, decimals int) string {
	decimals = min(max(decimals, 0), currency.MaxDecimals)
	// The magnitude as a uint64: -math.MinInt64 does not fit an int64.
	mag := uint64(amount)
	if amount < 0 {
		mag = -mag
	}
	digits := strconv.FormatUint(mag, 10)
	if len(digits) <= decimals {
		digits = zeros[:decimals-len(digits)+1] + digits
	}
	whole, frac := digits[:len(digits)-decimals], digits[len(digits)-decimals:]
	b := make([]byte, 0, len(digits)+len(digits)/3+2)
	if amount < 0 {
		b = append(b, '-')
	}
	for i := range len(whole) {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, whole[i])
	}
	if decimals > 0 {
		b = append(b, '.')
		b = append(b, frac...)
	}
	return string(b)
}

// zeros pads the digits of an amount below one unit of its currency.
const zeros = "0000000000000000000"
