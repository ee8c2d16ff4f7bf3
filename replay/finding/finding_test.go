package finding

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetAmounts(t *testing.T) {
	tests := []struct {
		name             string
		expected, actual int64
		diff             *int64
		detail           string
	}{
		{"underpaid", 300, 200, ptr(-100), "flush"},
		{"overpaid", 0, 800, ptr(800), "flush"},
		{"zero actual", 100, 0, ptr(-100), "flush"},
		{"extremes that fit", math.MaxInt64, 0, ptr(-math.MaxInt64), "flush"},
		{"overflow up", math.MinInt64, 1, nil, "flush; " + DifferenceOverflow},
		{"overflow down", 1, math.MinInt64, nil, "flush; " + DifferenceOverflow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Finding{Code: AntePayoutWrong, Detail: "flush"}
			f.SetAmounts(tt.expected, tt.actual)
			require.NotNil(t, f.ExpectedAmount)
			require.NotNil(t, f.ActualAmount)
			assert.Equal(t, tt.expected, *f.ExpectedAmount)
			assert.Equal(t, tt.actual, *f.ActualAmount)
			assert.Equal(t, tt.diff, f.Difference)
			assert.Equal(t, tt.detail, f.Detail)
		})
	}
	f := Finding{}
	f.SetAmounts(1, math.MinInt64)
	assert.Equal(t, DifferenceOverflow, f.Detail)
}

func ptr(x int64) *int64 { return &x }

// TestFindingJSON: the amounts and the player and currency are omitted
// when absent, and a zero amount is kept.
func TestFindingJSON(t *testing.T) {
	f := Finding{Code: CardsMismatch, Severity: Critical, RoundID: "r-1", File: "a.parquet", Row: 3, Field: "board", Expected: "As", Actual: "Ks"}
	b, err := json.Marshal(&f)
	require.NoError(t, err)
	assert.JSONEq(t, `{"code":"CARDS_MISMATCH","severity":"critical","round_id":"r-1","file":"a.parquet","row":3,"field":"board","expected":"As","actual":"Ks"}`, string(b))
	for _, k := range []string{"player_id", "currency", "expected_amount", "actual_amount", "difference"} {
		assert.NotContains(t, string(b), k)
	}

	f = Finding{Code: VoidNotRefunded, Field: "boxes[0].ante_return", Expected: "100", Actual: "0", PlayerID: "p1", Currency: "EUR"}
	f.SetAmounts(100, 0)
	b, err = json.Marshal(&f)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"player_id":"p1","currency":"EUR","expected_amount":100,"actual_amount":0,"difference":-100}`)
	var back Finding
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, f, back)
}

// TestCompareAmounts: findings alike but for the player, the currency or
// the amounts have one order (nil amounts first).
func TestCompareAmounts(t *testing.T) {
	base := Finding{File: "a", Row: 1, Code: DHOddChipWrong, Field: "double.pots[0].shares"}
	with := func(player string, amounts ...int64) Finding {
		f := base
		f.PlayerID, f.Currency = player, "EUR"
		if len(amounts) == 2 {
			f.SetAmounts(amounts[0], amounts[1])
		}
		return f
	}
	fs := []Finding{base, with("p1"), with("p1", 50, 49), with("p1", 50, 51), with("p1", 51, 50), with("p2", 50, 49)}
	for i := 1; i < len(fs); i++ {
		assert.Negative(t, Compare(fs[i-1], fs[i]), "%d", i)
		assert.Positive(t, Compare(fs[i], fs[i-1]), "%d", i)
	}
	a, b := with("p1", 50, 49), with("p1", 50, 49)
	assert.Zero(t, Compare(a, b), "equal amounts behind different pointers")
}

func TestMoneyCodesCatalogued(t *testing.T) {
	for _, c := range moneyCodes {
		_, ok := Lookup(c)
		assert.True(t, ok, c)
	}
	assert.True(t, IsMoney(BalanceGap))
	assert.False(t, IsMoney(BetOverLimit), "a stake is not money paid to or held by a player")
	assert.False(t, IsMoney(AmountOverflow))
}
