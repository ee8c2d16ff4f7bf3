package roundlog

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzReadParquet replaces one file of a small dataset (every game, every
// table, row groups of 4 rounds) with damaged bytes: the reader never
// panics, allocates at most 128 MB for these files of 4 to 20 KB (a page is at
// most 32 MiB), and what it cannot read is an error or a damage report
// naming a file of the dataset. testdata/fuzz/FuzzReadParquet holds
// inputs that once made it fail.
func FuzzReadParquet(f *testing.F) {
	src := f.TempDir()
	writeParquet(f, src, sample(12), Options{RowGroupRounds: 4})
	tables := []string{TableRounds, TableBoxes, TableSeats, TableActions, TablePots}
	orig := make([][]byte, len(tables))
	for i, table := range tables {
		b, err := os.ReadFile(TablePath(src, table, "part-00000", "parquet"))
		require.NoError(f, err)
		orig[i] = b
		f.Add(uint8(i), b)
		f.Add(uint8(i), b[:len(b)*2/3])
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		dir := t.TempDir()
		k := int(which) % len(tables)
		for i, table := range tables {
			b := orig[i]
			if i == k {
				b = data
			}
			p := TablePath(dir, table, "part-00000", "parquet")
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, b, 0o644))
		}
		scanDamaged(t, dir)
	})
}

// FuzzReadJSONL reads a JSON Lines log of damaged bytes (seeded with a
// small log of every game): the reader never panics, and every error and
// damage report names the file.
func FuzzReadJSONL(f *testing.F) {
	var buf bytes.Buffer
	w, err := NewJSONLWriter(&buf)
	require.NoError(f, err)
	rs := sample(6)
	for i := range rs {
		require.NoError(f, w.Write(&rs[i]))
	}
	require.NoError(f, w.Close())
	f.Add(buf.Bytes())
	lines := bytes.SplitAfter(buf.Bytes(), []byte("\n"))
	for _, l := range lines[1:] {
		f.Add(append(append([]byte(nil), lines[0]...), l...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "day.rounds.jsonl")
		require.NoError(t, os.WriteFile(p, data, 0o644))
		ds, err := Open(p)
		if err != nil {
			require.Contains(t, err.Error(), p)
			return
		}
		defer ds.Close()
		dmg, err := ds.Scan(func(r *Record) error {
			require.Equal(t, p, r.File)
			return nil
		})
		if err != nil { // an unknown schema version
			require.Contains(t, err.Error(), p)
		}
		for _, d := range dmg {
			require.Equal(t, p, d.File)
		}
	})
}

// scanDamaged opens and scans the dataset in dir, of damaged bytes: it
// allocates less than 128 MiB, and Open's error or else every damage
// report names a file of the dataset (Scan itself does not fail).
func scanDamaged(t *testing.T, dir string) {
	t.Helper()
	var openErr, scanErr error
	var dmg []*DamageError
	a := allocated(func() {
		ds, err := Open(dir)
		if openErr = err; err != nil {
			return
		}
		defer ds.Close()
		dmg, scanErr = ds.Scan(func(*Record) error { return nil })
	})
	require.Less(t, a, uint64(128<<20), "bytes allocated")
	if openErr != nil {
		require.True(t, strings.Contains(openErr.Error(), dir), "the error names the dataset's file: %v", openErr)
		return
	}
	require.NoError(t, scanErr)
	for _, d := range dmg {
		require.True(t, strings.HasPrefix(d.File, dir), "damage names a file of the dataset: %v", d)
	}
}
