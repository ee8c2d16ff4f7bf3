package finding

import (
	"bytes"
	"encoding/csv"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/currency"
)

func csvFindings() []Finding {
	money := func(code Code, cur string, expected, actual int64) Finding {
		f := Finding{Code: code, Severity: SeverityOf(code), RoundID: "r-1", File: "rounds/part-00000.parquet", Row: 7,
			Field: "boxes[0].ante_return", Expected: "4400", Actual: "5500", Detail: "player full-house, dealer two-pair",
			PlayerID: "p1", Currency: cur, Time: "2026-11-29T10:15:03.25Z", TableID: "t-1", Game: "casino-holdem"}
		f.SetAmounts(expected, actual)
		return f
	}
	return []Finding{
		{Code: InputDamaged, Severity: Major, File: "b.parquet", Row: -1, Field: "rounds.board_1",
			Expected: "a readable value", Actual: "damaged", Detail: "whole file: truncated"},
		money(AntePayoutWrong, "EUR", 4400, 5500),
		money(BalanceMismatch, "JPY", 100, -2500),
		money(BalanceMismatch, "EUR", math.MinInt64, 1), // the difference overflows: null
		money(ReturnMismatch, "XYZ", 0, 1234),
		// Texts of the log that a spreadsheet would evaluate, quote or break lines on.
		{Code: CardsMismatch, Severity: Critical, RoundID: "=HYPERLINK(\"http://x\",\"y\")", File: "a,b.parquet", Row: 0,
			Field: "board", Expected: "As, Kd", Actual: "+1", Detail: "line one\r\nline \"two\"", PlayerID: "@p",
			Currency: "EUR", TableID: "-t", Game: "'quoted", Time: "\tx"},
		{Code: CardsMismatch, Severity: Critical, RoundID: "\uff1dSUM(A1)", File: "f", Row: 1, Field: "board",
			Expected: "ok", Actual: "bad\xffutf8", PlayerID: "p\rq"},
	}
}

func writeCSV(t *testing.T, fs []Finding, tb *currency.Table) []byte {
	t.Helper()
	var b bytes.Buffer
	w := NewCSVWriter(&b, tb)
	for i := range fs {
		require.NoError(t, w.Write(&fs[i]))
	}
	require.NoError(t, w.Flush())
	return b.Bytes()
}

func TestCSV(t *testing.T) {
	fs := csvFindings()
	out := writeCSV(t, fs, nil)
	assert.Equal(t, out, writeCSV(t, fs, nil), "the same findings, the same bytes")
	s := string(out)
	assert.True(t, strings.HasPrefix(s, strings.Join(CSVColumns, ",")+"\r\n"), "the header row first")
	assert.True(t, strings.HasSuffix(s, "\r\n"))
	assert.NotContains(t, s, "\ufeff", "no byte-order mark")

	lines := strings.Split(s, "\r\n")
	assert.Equal(t, "INPUT_DAMAGED,major,,,,,b.parquet,-1,rounds.board_1,,,a readable value,damaged,,,,,whole file: truncated", lines[1])
	assert.Equal(t, "ANTE_PAYOUT_WRONG,critical,2026-11-29T10:15:03.25Z,t-1,casino-holdem,r-1,rounds/part-00000.parquet,7,boxes[0].ante_return,"+
		"p1,EUR,4400,5500,4400,5500,1100,EUR 11.00,\"player full-house, dealer two-pair\"", lines[2])
	assert.Contains(t, lines[3], `,100,-2500,-2600,"JPY -2,600",`, "a grouped amount is quoted")
	assert.Contains(t, lines[4], ",-9223372036854775808,1,,,", "an overflowing difference is null, and so is its formatted text")
	assert.Contains(t, lines[5], `,0,1234,1234,"XYZ 1,234 (minor units)",`)

	// Read back by an RFC 4180 reader: every record has every column,
	// and the text cells are the findings' with the guard's apostrophe.
	r := csv.NewReader(bytes.NewReader(out))
	r.FieldsPerRecord = len(CSVColumns)
	recs, err := r.ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, len(fs)+1)
	assert.Equal(t, CSVColumns, recs[0])
	col := func(rec []string, name string) string {
		for i, c := range CSVColumns {
			if c == name {
				return rec[i]
			}
		}
		t.Fatalf("no column %s", name)
		return ""
	}
	inj := recs[6]
	assert.Equal(t, `'=HYPERLINK("http://x","y")`, col(inj, "round_id"))
	assert.Equal(t, "a,b.parquet", col(inj, "file"))
	assert.Equal(t, "As, Kd", col(inj, "expected"))
	assert.Equal(t, "'+1", col(inj, "actual"))
	assert.Equal(t, "'@p", col(inj, "player_id"))
	assert.Equal(t, "'-t", col(inj, "table_id"))
	assert.Equal(t, "''quoted", col(inj, "game"), "a leading apostrophe is doubled, so that dropping one gives the text back")
	assert.Equal(t, "'\tx", col(inj, "time"))
	// encoding/csv reads CRLF inside quotes as LF; the bytes keep the CR.
	assert.Equal(t, "line one\nline \"two\"", col(inj, "detail"))
	assert.Contains(t, s, "\"line one\r\nline \"\"two\"\"\"")
	other := recs[7]
	assert.Equal(t, "'\uff1dSUM(A1)", col(other, "round_id"))
	assert.Equal(t, "bad\ufffdutf8", col(other, "actual"))
	assert.Contains(t, s, "\"p\rq\"", "a CR is quoted and kept")

	// Every text cell, read back and stripped of one leading apostrophe,
	// is the finding's text; no cell a spreadsheet evaluates is left.
	for i, rec := range recs[1:] {
		f := fs[i]
		for k, name := range CSVColumns {
			cell := rec[k]
			switch name {
			case "row", "expected_amount", "actual_amount", "difference":
				continue
			}
			if cell != "" {
				assert.False(t, FormulaLike(cell) && cell[0] != '\'', "record %d %s: %q", i, name, cell)
			}
			want := map[string]string{"code": string(f.Code), "round_id": f.RoundID, "file": f.File, "player_id": f.PlayerID,
				"table_id": f.TableID, "game": f.Game, "expected": f.Expected, "field": f.Field}[name]
			if want != "" {
				assert.Equal(t, want, strings.TrimPrefix(cell, "'"), "record %d %s", i, name)
			}
		}
	}
}

// A file of no findings is the header row alone.
func TestCSVEmpty(t *testing.T) {
	assert.Equal(t, strings.Join(CSVColumns, ",")+"\r\n", string(writeCSV(t, nil, nil)))
}

// The formatted difference takes the replay's declared decimals.
func TestCSVDeclaredDecimals(t *testing.T) {
	tb, err := currency.TableOf([]string{"ETH:18"})
	require.NoError(t, err)
	f := Finding{Code: BalanceGap, Severity: Major, Currency: "ETH"}
	f.SetAmounts(0, 1500000000000000000)
	assert.Contains(t, string(writeCSV(t, []Finding{f}, tb)), ",ETH 1.500000000000000000,")
	assert.Contains(t, string(writeCSV(t, []Finding{f}, nil)), ",\"ETH 1,500,000,000.000000000\",")
}

func TestFormulaLike(t *testing.T) {
	for s, want := range map[string]bool{
		"": false, "=1": true, "+1": true, "-1": true, "@x": true, "\tx": true, "\rx": true, "'x": true,
		"\uff1dx": true, "\uff0bx": true, "\uff0dx": true, "\uff20x": true,
		"x=1": false, " =1": false, "EUR -1.00": false, "1": false, "\nx": false,
	} {
		assert.Equal(t, want, FormulaLike(s), "%q", s)
	}
}
