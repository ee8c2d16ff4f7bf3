// Package currency knows the currencies a round log may name and how many
// decimals their minor unit has.
//
// Every amount of a round log is an int64 count of minor units of the
// round's currency (docs/log-format.md section 1). The checks never need
// the number of decimals (they compare integers), but a report does: 1,000
// minor units are 10 EUR, 1 JPY... or 0.00001 BTC.
//
// # Codes
//
// A currency code is 2 to 10 characters of A-Z and 0-9, starting with a
// letter ([ValidCode]): the ISO 4217 codes (EUR, JPY) and the tickers of
// crypto currencies (BTC, USDT, DOGE) both have this form.
//
// # Decimals
//
// [Builtin] knows two sets:
//
//   - ISO 4217 (list one as published by the maintenance agency, with
//     HRK, SLL and ZWL, withdrawn since 2023, kept for older logs): the
//     minor unit of the standard, e.g. EUR 2, JPY 0, KWD 3, CLF 4. Codes
//     without a minor unit (XAU, XDR, ...) are not built in.
//   - Crypto currencies, with decimals chosen so that an int64 count of
//     minor units holds any amount a casino wallet plausibly holds (2^63 - 1
//     minor units, about 9.2 * 10^18): BTC 8 (satoshi, up to 92 billion
//     BTC), ETH 9 (gwei: at its native 18 decimals, wei, an int64 overflows
//     at 9.2 ETH), USDT and USDC 6 (their decimals on Tron and Ethereum), and
//     the others of [cryptoDecimals].
//
// An operator whose wallet counts in another unit (ETH in wei, a token at
// 18 decimals, a code not built in) declares it: `fairhold replay
// --currency CODE:DECIMALS` ([ParseDeclaration]), or a JSON object
// {"ETH": 18} ([ParseDeclarations]), as a dataset's manifest may carry. A
// declaration overrides the built-in decimals for that code.
package currency

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// MaxDecimals is the largest number of decimals a currency may have: an
// int64 holds 18 full decimal digits.
const MaxDecimals = 18

// Sources of a currency's decimals.
const (
	SourceISO      = "iso-4217" // the minor unit of ISO 4217
	SourceCrypto   = "crypto"   // fairhold's built-in crypto decimals
	SourceDeclared = "declared" // declared for the replay
	SourceUnknown  = "unknown"  // a well-formed code nobody declared
)

// Currency is a currency code and its minor unit.
type Currency struct {
	Code string `json:"code"`
	// Decimals is the number of decimal digits of the minor unit: an
	// amount of n minor units is n / 10^Decimals of the currency. -1 when
	// the code is unknown.
	Decimals int `json:"decimals"`
	// Source says where Decimals comes from (SourceISO, ...).
	Source string `json:"source"`
}

// ErrCode is wrapped by the errors about a malformed currency code, and
// ErrDecimals by those about a number of decimals out of range.
var (
	ErrCode     = errors.New("invalid currency code")
	ErrDecimals = errors.New("invalid number of decimals")
)

// ValidCode reports whether s has the form of a currency code: 2 to 10
// characters of A-Z and 0-9, the first a letter.
func ValidCode(s string) bool {
	if len(s) < 2 || len(s) > 10 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// CodeForm describes the accepted form, for error messages.
const CodeForm = "2 to 10 of A-Z and 0-9, starting with a letter (an ISO 4217 code or a crypto ticker)"

// Table resolves currency codes to their decimals: the built-in ones and
// the declared ones, which take precedence. The zero Table knows the
// built-in currencies only. A Table is read-only once built and safe for
// concurrent use.
type Table struct {
	declared map[string]int
}

// Builtin is the table of the built-in currencies.
var Builtin = &Table{}

// NewTable returns a table of the built-in currencies and the declared
// ones (code -> decimals), which it checks.
func NewTable(declared map[string]int) (*Table, error) {
	t := &Table{declared: map[string]int{}}
	for _, code := range slices.Sorted(maps.Keys(declared)) {
		if err := checkDeclaration(code, declared[code]); err != nil {
			return nil, err
		}
		t.declared[code] = declared[code]
	}
	return t, nil
}

func checkDeclaration(code string, decimals int) error {
	if !ValidCode(code) {
		return fmt.Errorf("%w %q: want %s", ErrCode, code, CodeForm)
	}
	if decimals < 0 || decimals > MaxDecimals {
		return fmt.Errorf("%w for %s: %d, want 0 to %d", ErrDecimals, code, decimals, MaxDecimals)
	}
	return nil
}

// Lookup returns the currency of code: declared, ISO 4217, crypto, or
// unknown (ok false; Decimals -1).
func (t *Table) Lookup(code string) (c Currency, ok bool) {
	if t != nil {
		if d, ok := t.declared[code]; ok {
			return Currency{Code: code, Decimals: d, Source: SourceDeclared}, true
		}
	}
	if d, ok := isoDecimals[code]; ok {
		return Currency{Code: code, Decimals: d, Source: SourceISO}, true
	}
	if d, ok := cryptoDecimals[code]; ok {
		return Currency{Code: code, Decimals: d, Source: SourceCrypto}, true
	}
	return Currency{Code: code, Decimals: -1, Source: SourceUnknown}, false
}

// Declared returns the declared decimals, by code.
func (t *Table) Declared() map[string]int {
	if t == nil {
		return map[string]int{}
	}
	return maps.Clone(t.declared)
}

// ParseDeclaration parses "CODE:DECIMALS" (the form of `fairhold replay
// --currency`), e.g. "ETH:18" or "SHIB:2".
func ParseDeclaration(s string) (code string, decimals int, err error) {
	code, ds, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return "", 0, fmt.Errorf("%w %q: want CODE:DECIMALS, e.g. ETH:18", ErrCode, s)
	}
	decimals, err = strconv.Atoi(ds)
	if err != nil {
		return "", 0, fmt.Errorf("%w in %q: %q is not a whole number", ErrDecimals, s, ds)
	}
	if err := checkDeclaration(code, decimals); err != nil {
		return "", 0, err
	}
	return code, decimals, nil
}

// TableOf returns the table of the built-in currencies and the
// declarations ds, each "CODE:DECIMALS" as [ParseDeclaration] reads it (the
// values of `fairhold replay --currency`, also recorded in a shard's part).
func TableOf(ds []string) (*Table, error) {
	declared := make(map[string]int, len(ds))
	for _, d := range ds {
		code, n, err := ParseDeclaration(d)
		if err != nil {
			return nil, err
		}
		declared[code] = n
	}
	return NewTable(declared)
}

// ParseDeclarations parses a JSON object of declarations, code to number
// of decimals: {"BTC": 8, "ETH": 18}.
func ParseDeclarations(data []byte) (map[string]int, error) {
	var raw map[string]json.Number
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("currency declarations: want a JSON object such as {\"BTC\": 8}: %w", err)
	}
	if dec.More() {
		return nil, errors.New("currency declarations: trailing data after the JSON object")
	}
	out := make(map[string]int, len(raw))
	for _, code := range slices.Sorted(maps.Keys(raw)) {
		d, err := strconv.Atoi(raw[code].String())
		if err != nil {
			return nil, fmt.Errorf("%w for %s: %s is not a whole number", ErrDecimals, code, raw[code])
		}
		if err := checkDeclaration(code, d); err != nil {
			return nil, err
		}
		out[code] = d
	}
	return out, nil
}
