package replayer

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/finding"
)

// TestFindingsFileRoundTrip writes findings with and without amounts
// (zero, negative, an overflowing difference) and a player and currency or
// none, to both forms of the findings file, and reads them back: the
// Parquet file's new columns are optional, null where the finding has no
// value, and the values come back as written.
func TestFindingsFileRoundTrip(t *testing.T) {
	money := func(code finding.Code, player string, expected, actual int64) finding.Finding {
		f := finding.Finding{Code: code, Severity: finding.SeverityOf(code), RoundID: "r-1", File: "a.rounds.parquet", Row: 7,
			Field: "boxes[0].ante_return", Expected: "300", Actual: "200", PlayerID: player, Currency: "EUR"}
		f.SetAmounts(expected, actual)
		return f
	}
	fs := []finding.Finding{
		{Code: finding.InputDamaged, Severity: finding.Major, File: "b.rounds.parquet", Row: -1, Field: "rounds.board_1",
			Expected: "a readable value", Actual: "damaged", Detail: "whole file: truncated"},
		{Code: finding.CardsMismatch, Severity: finding.Critical, RoundID: "r-2", File: "a.rounds.parquet", Row: 8, Field: "board",
			Expected: "As", Actual: "Ks", PlayerID: "p1", Currency: "USDT"},
		money(finding.AntePayoutWrong, "p1", 300, 200),
		money(finding.VoidNotRefunded, "p2", 100, 0),
		money(finding.DHRakeOverCap, "", 0, 1534),
		money(finding.BalanceMismatch, "p3", math.MinInt64, 1),
	}
	require.Nil(t, fs[5].Difference)

	dir := t.TempDir()
	for _, name := range []string{"f.parquet", "f.jsonl"} {
		path := filepath.Join(dir, name)
		w, err := CreateFindings(path)
		require.NoError(t, err)
		for i := range fs {
			require.NoError(t, w.Write(&fs[i]))
		}
		require.NoError(t, w.Close())
		back := readFindingsFile(t, path)
		assert.Equal(t, fs, back, name)
	}

	f, err := os.Open(filepath.Join(dir, "f.parquet"))
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	pf, err := parquet.OpenFile(f, st.Size())
	require.NoError(t, err)
	schema := pf.Schema()
	for _, c := range []string{"player_id", "currency"} {
		col, ok := schema.Lookup(c)
		require.True(t, ok, c)
		assert.True(t, col.Node.Optional(), c)
		assert.Equal(t, parquet.String().Type(), col.Node.Type(), c)
	}
	for _, c := range []string{"expected_amount", "actual_amount", "difference"} {
		col, ok := schema.Lookup(c)
		require.True(t, ok, c)
		assert.True(t, col.Node.Optional(), c)
		assert.Equal(t, parquet.Int64, col.Node.Type().Kind(), c)
	}
	// The nulls are nulls in the file, not zeros.
	rows := make([]parquet.Row, len(fs))
	n, err := pf.RowGroups()[0].Rows().ReadRows(rows)
	if err != nil {
		require.ErrorIs(t, err, io.EOF)
	}
	require.Equal(t, len(fs), n)
	col := func(name string) int {
		c, ok := schema.Lookup(name)
		require.True(t, ok)
		return c.ColumnIndex
	}
	nulls := func(row parquet.Row, name string) bool {
		for _, v := range row {
			if v.Column() == col(name) {
				return v.IsNull()
			}
		}
		t.Fatalf("no column %s", name)
		return false
	}
	assert.True(t, nulls(rows[0], "player_id"))
	assert.True(t, nulls(rows[0], "currency"))
	assert.True(t, nulls(rows[1], "expected_amount"))
	assert.False(t, nulls(rows[3], "actual_amount"), "an actual amount of 0 is a value")
	assert.True(t, nulls(rows[4], "player_id"))
	assert.False(t, nulls(rows[5], "expected_amount"))
	assert.True(t, nulls(rows[5], "difference"))
}

// readFindingsFile reads a findings file back.
func readFindingsFile(t *testing.T, path string) []finding.Finding {
	t.Helper()
	var out []finding.Finding
	if format, err := FindingsFormat(path); err == nil && format == "parquet" {
		var err error
		out, err = parquet.ReadFile[finding.Finding](path)
		require.NoError(t, err)
		return out
	}
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var x finding.Finding
		require.NoError(t, json.Unmarshal(sc.Bytes(), &x))
		out = append(out, x)
	}
	require.NoError(t, sc.Err())
	return out
}

func TestFindingsFormatOf(t *testing.T) {
	for _, tc := range []struct {
		path, format, want string
		err                bool
	}{
		{"f.parquet", "", FormatParquet, false},
		{"f.jsonl", "", FormatJSONL, false},
		{"f.csv", "", FormatCSV, false},
		{"f.txt", "", "", true},
		{"f.txt", "csv", FormatCSV, false},
		{"f", "jsonl", FormatJSONL, false},
		{"f.csv", "csv", FormatCSV, false},
		{"f.parquet", "csv", "", true}, // the name says another format
		{"f.csv", "xlsx", "", true},
	} {
		got, err := FindingsFormatOf(tc.path, tc.format)
		if tc.err {
			assert.ErrorIs(t, err, ErrFindingsFormat, "%s %s", tc.path, tc.format)
			continue
		}
		require.NoError(t, err, "%s %s", tc.path, tc.format)
		assert.Equal(t, tc.want, got)
	}
}

// The CSV findings file is the finding package's CSV form, written in one
// piece: a header alone when there is no finding.
func TestFindingsFileCSV(t *testing.T) {
	dir := t.TempDir()
	f := finding.Finding{Code: finding.BalanceGap, Severity: finding.Major, RoundID: "r-1", File: "a.parquet", Row: 3,
		Field: "boxes[0].balance_before", Expected: "10300", Actual: "10000", Currency: "EUR",
		Time: "2026-11-29T10:15:03Z", TableID: "t-1", Game: "casino-holdem"}
	f.SetAmounts(10300, 10000)
	path := filepath.Join(dir, "findings.out")
	w, err := CreateFindingsWith(path, FindingsOptions{Format: FormatCSV})
	require.NoError(t, err)
	require.NoError(t, w.Write(&f))
	require.NoError(t, w.Close())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, strings.Join(finding.CSVColumns, ",")+"\r\n"+
		"BALANCE_GAP,major,2026-11-29T10:15:03Z,t-1,casino-holdem,r-1,a.parquet,3,boxes[0].balance_before,,EUR,10300,10000,10300,10000,-300,EUR -3.00,\r\n",
		string(b))

	empty := filepath.Join(dir, "none.csv")
	w, err = CreateFindings(empty)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	b, err = os.ReadFile(empty)
	require.NoError(t, err)
	assert.Equal(t, strings.Join(finding.CSVColumns, ",")+"\r\n", string(b))
}
