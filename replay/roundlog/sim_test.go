package roundlog

import (
	"bytes"
	"os"
	"path/filepath"
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
		assert.True(t, sameSchema(p.rounds.RowGroups()[u.RowGroup].Schema(), schemaRounds))
		assert.True(t, sameSchema(p.children[0].file.RowGroups()[u.RowGroup].Schema(), schemaBoxes))
		assert.False(t, sameSchema(p.rounds.RowGroups()[u.RowGroup].Schema(), schemaBoxes))
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
			n := c.file.RowGroups()[u.RowGroup].NumRows()
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
