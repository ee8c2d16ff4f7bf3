package currency

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidCode(t *testing.T) {
	for _, s := range []string{"EUR", "JPY", "BTC", "USDT", "DOGE", "A1", "ABCDEFGHIJ", "USDC2"} {
		assert.True(t, ValidCode(s), s)
	}
	for _, s := range []string{"", "E", "eur", "Eur", "1INCH", "ABCDEFGHIJK", "US-D", "EU R", "€", "BTC\x00"} {
		assert.False(t, ValidCode(s), "%q", s)
	}
}

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		code     string
		decimals int
		source   string
	}{
		{"EUR", 2, SourceISO}, {"JPY", 0, SourceISO}, {"KWD", 3, SourceISO}, {"CLF", 4, SourceISO},
		{"BTC", 8, SourceCrypto}, {"ETH", 9, SourceCrypto}, {"USDT", 6, SourceCrypto}, {"USDC", 6, SourceCrypto},
		{"LTC", 8, SourceCrypto}, {"DOGE", 8, SourceCrypto}, {"TRX", 6, SourceCrypto}, {"SOL", 9, SourceCrypto},
		{"XRP", 6, SourceCrypto}, {"BNB", 8, SourceCrypto},
	} {
		c, ok := Builtin.Lookup(tc.code)
		assert.True(t, ok, tc.code)
		assert.Equal(t, Currency{tc.code, tc.decimals, tc.source}, c)
	}
	c, ok := Builtin.Lookup("SHIB")
	assert.False(t, ok)
	assert.Equal(t, Currency{"SHIB", -1, SourceUnknown}, c)
	_, ok = Builtin.Lookup("XAU")
	assert.False(t, ok, "no minor unit in ISO 4217: declare it")

	tb, err := NewTable(map[string]int{"ETH": 18, "SHIB": 2})
	require.NoError(t, err)
	c, _ = tb.Lookup("ETH")
	assert.Equal(t, Currency{"ETH", 18, SourceDeclared}, c, "a declaration overrides the built-in decimals")
	c, _ = tb.Lookup("SHIB")
	assert.Equal(t, 2, c.Decimals)
	c, _ = tb.Lookup("EUR")
	assert.Equal(t, SourceISO, c.Source)
	assert.Equal(t, map[string]int{"ETH": 18, "SHIB": 2}, tb.Declared())

	_, err = NewTable(map[string]int{"eth": 18})
	assert.ErrorIs(t, err, ErrCode)
	_, err = NewTable(map[string]int{"ETH": 19})
	assert.ErrorIs(t, err, ErrDecimals)
}

// TestBuiltinTables: every built-in code has the accepted form, no code is
// in both tables, and the crypto decimals leave an int64 room for at least
// a billion coins.
func TestBuiltinTables(t *testing.T) {
	assert.GreaterOrEqual(t, len(isoDecimals), 150)
	for code, d := range isoDecimals {
		assert.Len(t, code, 3)
		assert.True(t, ValidCode(code), code)
		assert.Contains(t, []int{0, 2, 3, 4}, d, code)
	}
	for code, d := range cryptoDecimals {
		assert.True(t, ValidCode(code), code)
		_, iso := isoDecimals[code]
		assert.False(t, iso, code)
		coins := math.MaxInt64 / math.Pow10(d)
		assert.GreaterOrEqual(t, coins, 1e9, code)
	}
	// ETH at its native 18 decimals would overflow at 9.2 ETH.
	assert.InDelta(t, 9.22, math.MaxInt64/1e18, 0.01)
}

func TestParseDeclaration(t *testing.T) {
	code, d, err := ParseDeclaration("ETH:18")
	require.NoError(t, err)
	assert.Equal(t, "ETH", code)
	assert.Equal(t, 18, d)
	for _, s := range []string{"ETH", "ETH:", "ETH:x", "eth:18", "ETH:-1", "ETH:19", ":8", "ETH:1.5"} {
		_, _, err := ParseDeclaration(s)
		assert.Error(t, err, s)
	}
}

func TestParseDeclarations(t *testing.T) {
	m, err := ParseDeclarations([]byte(`{"BTC": 8, "ETH": 18}`))
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"BTC": 8, "ETH": 18}, m)
	m, err = ParseDeclarations([]byte(`{}`))
	require.NoError(t, err)
	assert.Empty(t, m)
	for _, s := range []string{``, `[]`, `{"BTC": 8.5}`, `{"BTC": -1}`, `{"btc": 8}`, `{"BTC": 8} {}`, `{"BTC": null}`, `{"BTC": 99}`} {
		_, err := ParseDeclarations([]byte(s))
		assert.Error(t, err, s)
	}
}

func TestTableOf(t *testing.T) {
	tb, err := TableOf([]string{"SHIB:2", " XYZ:0"})
	if err != nil {
		t.Fatal(err)
	}
	if got := tb.Declared(); len(got) != 2 || got["SHIB"] != 2 || got["XYZ"] != 0 {
		t.Fatalf("declared %v, want SHIB:2 and XYZ:0", got)
	}
	for _, bad := range [][]string{{"SHIB"}, {"SHIB:x"}} {
		if _, err := TableOf(bad); err == nil {
			t.Errorf("TableOf(%q): no error", bad)
		}
	}
}
