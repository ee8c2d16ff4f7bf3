package replayer

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
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
