package roundlog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
)

func simRounds(t *testing.T, game string, n int64) []round.Round {
	s, err := sim.New(sim.Config{Game: game, Rounds: n, Seed: 11, Faults: []sim.FaultRate{{Name: sim.FaultCardsMismatch, Rate: 0.01}}})
	require.NoError(t, err)
	var out []round.Round
	for !s.Done() {
		r, _, err := s.Next()
		require.NoError(t, err)
		out = append(out, *r)
	}
	return out
}

// TestSimulatedRoundTrip writes simulated rounds of every game as Parquet
// and as JSON Lines and reads both back.
func TestSimulatedRoundTrip(t *testing.T) {
	for _, g := range []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem} {
		t.Run(g, func(t *testing.T) {
			rs := simRounds(t, g, 1500)
			want := jsonRoundTrip(t, rs)
			dir := t.TempDir()
			writeParquet(t, filepath.Join(dir, "pq"), rs, Options{RowGroupRounds: 256, FileRounds: 1000})
			got, pos, dmg := readAll(t, filepath.Join(dir, "pq"))
			assert.Empty(t, dmg)
			assert.Equal(t, want, got)
			assert.Equal(t, 2, pos[700].RowGroup, "row 700 is in row group 700/256")
			assert.Equal(t, int64(700), pos[700].Row)
			assert.Equal(t, int64(0), pos[1000].Row, "the second part starts at row 0")

			var buf bytes.Buffer
			w, err := NewJSONLWriter(&buf)
			require.NoError(t, err)
			for i := range rs {
				require.NoError(t, w.Write(&rs[i]))
			}
			require.NoError(t, w.Close())
			jf := filepath.Join(dir, "log.jsonl")
			require.NoError(t, os.WriteFile(jf, buf.Bytes(), 0o644))
			got, _, dmg = readAll(t, jf)
			assert.Empty(t, dmg)
			assert.Equal(t, want, got)
		})
	}
}

// TestFastPathUsed checks that the files this package writes take the
// column-by-column path (the generic path is exercised by the files of
// TestDamageNullInRequiredColumn, whose schema differs).
func TestFastPathUsed(t *testing.T) {
	dir := t.TempDir()
	writeParquet(t, dir, casinoRounds(50), Options{RowGroupRounds: 20})
	d, err := Open(dir)
	require.NoError(t, err)
	defer d.Close()
	require.Len(t, d.Units(), 3)
	for _, u := range d.Units() {
		p := d.parts[u.File]
		files, err := p.acquire()
		require.NoError(t, err)
		assert.True(t, sameSchema(files.rounds.RowGroups()[u.RowGroup].Schema(), schemaRounds))
		assert.True(t, sameSchema(files.kids[0].RowGroups()[u.RowGroup].Schema(), schemaBoxes))
		assert.False(t, sameSchema(files.rounds.RowGroups()[u.RowGroup].Schema(), schemaBoxes))
		p.release()
	}
}

// TestRowGroupRowsBound checks that a row group ends once a child table
// reaches RowGroupRows rows (Double Hold'em hands have many actions), that
// every row group stays within the bound and that the rounds read back.
func TestRowGroupRowsBound(t *testing.T) {
	rs := simRounds(t, round.DoubleHoldem, 600)
	dir := t.TempDir()
	const bound = 500
	writeParquet(t, dir, rs, Options{RowGroupRounds: 10_000, RowGroupRows: bound})
	d, err := Open(dir)
	require.NoError(t, err)
	defer d.Close()
	units := d.Units()
	require.Greater(t, len(units), 1, "the rounds bound alone would make one row group")
	var rounds int64
	for _, u := range units {
		p := d.parts[u.File]
		rounds += u.Rounds
		for _, c := range p.children {
			if c == nil {
				continue
			}
			n := c.rows[u.RowGroup]
			// The round that reaches the bound closes the group: it may add
			// its own rows past it, no more.
			assert.Less(t, n, int64(bound+100), "%s row group %d", c.path, u.RowGroup)
		}
	}
	assert.Equal(t, int64(len(rs)), rounds)
	got, _, dmg := readAll(t, dir)
	assert.Empty(t, dmg)
	assert.Equal(t, jsonRoundTrip(t, rs), got)
}

// TestPartsOpenWhileRead checks that a part's files are open only while
// its units are read: Open closes them, a read opens them, they close once
// every unit of the part has been read, a unit read again opens them
// again, and a file changed after Open is reported as damage.
func TestPartsOpenWhileRead(t *testing.T) {
	dir := t.TempDir()
	rs := casinoRounds(90)
	// Three parts of 30 rounds, row groups of 10.
	for k := range 3 {
		sub := t.TempDir()
		writeParquet(t, sub, rs[30*k:30*(k+1)], Options{RowGroupRounds: 10})
		for _, table := range []string{TableRounds, TableBoxes} {
			b, err := os.ReadFile(TablePath(sub, table, "part-00000", "parquet"))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%d.%s.parquet", k, table)), b, 0o644))
		}
	}
	d, err := Open(dir)
	require.NoError(t, err)
	defer d.Close()
	require.Len(t, d.Units(), 9)
	open := func() []string {
		var out []string
		for fn, p := range d.parts {
			if p.files != nil {
				out = append(out, filepath.Base(fn))
			}
		}
		slices.Sort(out)
		return out
	}
	assert.Empty(t, open(), "Open closes the files")
	var seen []string
	_, err = d.Scan(func(r *Record) error {
		if r.Row%10 == 0 {
			seen = append(seen, filepath.Base(r.File)+":"+strings.Join(open(), ","))
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"p0.rounds.parquet:p0.rounds.parquet", "p0.rounds.parquet:p0.rounds.parquet", "p0.rounds.parquet:p0.rounds.parquet",
		"p1.rounds.parquet:p1.rounds.parquet", "p1.rounds.parquet:p1.rounds.parquet", "p1.rounds.parquet:p1.rounds.parquet",
		"p2.rounds.parquet:p2.rounds.parquet", "p2.rounds.parquet:p2.rounds.parquet", "p2.rounds.parquet:p2.rounds.parquet",
	}, seen)
	assert.Empty(t, open(), "every part read")

	// A unit read again opens its part again.
	n := 0
	dmg, err := d.ReadUnit(4, func(*Record) error { n++; return nil })
	require.NoError(t, err)
	assert.Empty(t, dmg)
	assert.Equal(t, 10, n)
	assert.Empty(t, open())

	// A rounds file replaced by another with fewer row groups.
	small := t.TempDir()
	writeParquet(t, small, rs[:5], Options{})
	b, err := os.ReadFile(TablePath(small, TableRounds, "part-00000", "parquet"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p2.rounds.parquet"), b, 0o644))
	dmg, err = d.ReadUnit(7, func(*Record) error { t.Fatal("no round of a changed file"); return nil })
	require.NoError(t, err)
	require.Len(t, dmg, 1)
	assert.Equal(t, filepath.Join(dir, "p2.rounds.parquet"), dmg[0].File)
	assert.Equal(t, 1, dmg[0].RowGroup)
	assert.Contains(t, dmg[0].Reason, "changed since it was opened")
	// A rounds file replaced by a file of another table.
	b, err = os.ReadFile(filepath.Join(dir, "p0.boxes.parquet"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p0.rounds.parquet"), b, 0o644))
	dmg, err = d.ReadUnit(0, func(*Record) error { t.Fatal("no round of a changed file"); return nil })
	require.NoError(t, err)
	require.Len(t, dmg, 1)
	assert.Contains(t, dmg[0].Reason, "changed since it was opened: wrong schema")
	// A removed file.
	require.NoError(t, os.Remove(filepath.Join(dir, "p1.boxes.parquet")))
	dmg, err = d.ReadUnit(3, func(*Record) error { t.Fatal("no round of a removed file"); return nil })
	require.NoError(t, err)
	require.Len(t, dmg, 1)
	assert.Contains(t, dmg[0].Reason, "cannot open the file again")
	assert.Empty(t, open())
}
