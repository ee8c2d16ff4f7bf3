package roundlog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/round"
)

// flatten moves a dataset of one folder per table into the old flat
// layout: rounds/part-00000.parquet becomes part-00000.rounds.parquet.
func flattenLayout(t *testing.T, dir string) {
	t.Helper()
	for _, table := range append([]string{TableRounds}, childTables[:]...) {
		ents, err := os.ReadDir(filepath.Join(dir, table))
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		for _, e := range ents {
			part := strings.TrimSuffix(e.Name(), ".parquet")
			require.NoError(t, os.Rename(filepath.Join(dir, table, e.Name()), filepath.Join(dir, part+"."+table+".parquet")))
		}
		require.NoError(t, os.Remove(filepath.Join(dir, table)))
	}
}

func TestOldLayoutReadWithWarning(t *testing.T) {
	rs := sample(60)
	dir := t.TempDir()
	writeParquet(t, dir, rs, Options{RowGroupRounds: 7, FileRounds: 25})
	flattenLayout(t, dir)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "faults.jsonl"), []byte("{}\n"), 0o644))
	got, _, dmg := readAll(t, dir)
	assert.Empty(t, dmg)
	assert.Equal(t, jsonRoundTrip(t, rs), got)
	d, err := Open(dir)
	require.NoError(t, err)
	defer d.Close()
	require.Len(t, d.Warnings(), 1)
	assert.Contains(t, d.Warnings()[0], "old flat layout")
	assert.Contains(t, d.Warnings()[0], dir)
	assert.Len(t, d.Files(), 3*5, "3 parts of 5 tables")

	// The current layout has no warning, and lists its files.
	cur := t.TempDir()
	writeParquet(t, cur, rs, Options{RowGroupRounds: 7, FileRounds: 25})
	d2, err := Open(cur)
	require.NoError(t, err)
	defer d2.Close()
	assert.Empty(t, d2.Warnings())
	var paths []string
	for _, f := range d2.Files() {
		rel, err := filepath.Rel(cur, f.Path)
		require.NoError(t, err)
		paths = append(paths, fmt.Sprintf("%s %s %d", filepath.ToSlash(rel), f.Table, f.Rows))
	}
	assert.Contains(t, paths, "rounds/part-00002.parquet rounds 10")
	assert.Contains(t, paths, "boxes/part-00002.parquet boxes 15")
	assert.Len(t, paths, 15)
}

// TestOpenForms: a dataset is read from its directory, its rounds folder,
// or one rounds file (which finds its child files); a JSON Lines log in the
// rounds folder is read; dot files and the other files of the directory
// are not logs.
func TestOpenForms(t *testing.T) {
	rs := casinoRounds(30)
	dir := t.TempDir()
	writeParquet(t, dir, rs, Options{RowGroupRounds: 7, FileRounds: 10})
	require.NoError(t, os.WriteFile(filepath.Join(dir, TableRounds, ".part-00009.parquet.tmp-123"), []byte("torn"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, TableRounds, "notes.txt"), []byte("x"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, manifest.FileName), []byte("{}"), 0o644))
	want := jsonRoundTrip(t, rs)
	for _, paths := range [][]string{
		{dir},
		{filepath.Join(dir, TableRounds)},
		{TablePath(dir, TableRounds, "part-00000", "parquet"), TablePath(dir, TableRounds, "part-00001", "parquet"), TablePath(dir, TableRounds, "part-00002", "parquet")},
	} {
		got, _, dmg := readAll(t, paths...)
		assert.Empty(t, dmg, paths)
		assert.Equal(t, want, got, paths)
	}
	// JSON Lines in the rounds folder.
	jl := t.TempDir()
	w := NewJSONLDatasetWriter(jl, Options{})
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
	got, _, dmg := readAll(t, jl)
	assert.Empty(t, dmg)
	assert.Equal(t, want, got)
	p := w.Parts()
	require.Len(t, p, 1)
	assert.Equal(t, "rounds/part-00000.jsonl", p[0].Files[0].Path)
	assert.Equal(t, int64(30), p[0].Rounds)
	assert.Equal(t, rs[29].RoundID, p[0].LastRoundID)

	_, err := Open(t.TempDir())
	assert.ErrorContains(t, err, "no round log files")
}

// TestOrphanChildFile: a child table's file whose rounds file is gone is
// damage: the part's rounds are missing.
func TestOrphanChildFile(t *testing.T) {
	rs := casinoRounds(30)
	for _, flat := range []bool{false, true} {
		dir := t.TempDir()
		writeParquet(t, dir, rs, Options{FileRounds: 10})
		gone, orphanPath := TablePath(dir, TableRounds, "part-00001", "parquet"), TablePath(dir, TableBoxes, "part-00001", "parquet")
		if flat {
			flattenLayout(t, dir)
			gone, orphanPath = filepath.Join(dir, "part-00001.rounds.parquet"), filepath.Join(dir, "part-00001.boxes.parquet")
		}
		require.NoError(t, os.Remove(gone))
		got, _, dmg := readAll(t, dir)
		require.Len(t, dmg, 1, "flat %v", flat)
		assert.Equal(t, orphanPath, dmg[0].File)
		assert.Contains(t, dmg[0].Reason, "without its rounds file")
		assert.Equal(t, jsonRoundTrip(t, append(append([]round.Round{}, rs[:10]...), rs[20:]...)), got)
	}
}
