//go:build unix

package roundlog

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
)

// TestOnlyRegularFilesAreParts: a FIFO, a device, a directory, a dangling
// or looping link or an unreadable file named like a part is damage for
// that part, never a hang or a silent skip, and the other parts are read;
// a symbolic link to a regular file is read.
func TestOnlyRegularFilesAreParts(t *testing.T) {
	rs := casinoRounds(30)
	others := jsonRoundTrip(t, append(append([]round.Round{}, rs[:10]...), rs[20:]...))
	for _, tc := range []struct {
		name   string
		table  string // the file of part-00001 replaced
		ext    string
		make   func(t *testing.T, path string)
		reason string // "" for no damage
	}{
		{"fifo", TableRounds, "parquet", func(t *testing.T, p string) { require.NoError(t, syscall.Mkfifo(p, 0o644)) }, "not a regular file (named pipe)"},
		{"fifo child", TableBoxes, "parquet", func(t *testing.T, p string) { require.NoError(t, syscall.Mkfifo(p, 0o644)) }, "not a regular file (named pipe)"},
		{"fifo jsonl", TableRounds, "jsonl", func(t *testing.T, p string) { require.NoError(t, syscall.Mkfifo(p, 0o644)) }, "not a regular file (named pipe)"},
		{"directory", TableRounds, "parquet", func(t *testing.T, p string) { require.NoError(t, os.Mkdir(p, 0o755)) }, "not a regular file (directory)"},
		{"device", TableRounds, "parquet", func(t *testing.T, p string) { require.NoError(t, os.Symlink("/dev/zero", p)) }, "not a regular file (character device)"},
		{"dangling link", TableRounds, "parquet", func(t *testing.T, p string) { require.NoError(t, os.Symlink(p+".gone", p)) }, "dangling symbolic link"},
		{"looping link", TableRounds, "parquet", func(t *testing.T, p string) { require.NoError(t, os.Symlink(p, p)) }, "symbolic link loop"},
		{"unreadable", TableRounds, "parquet", func(t *testing.T, p string) {
			if os.Geteuid() == 0 {
				t.Skip("root reads any file")
			}
			require.NoError(t, os.WriteFile(p, []byte("PAR1"), 0o000))
		}, "permission denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeParquet(t, dir, rs, Options{RowGroupRounds: 4, FileRounds: 10})
			p := TablePath(dir, tc.table, "part-00001", "parquet")
			require.NoError(t, os.Remove(p))
			if tc.ext == "jsonl" {
				// The part is a JSON Lines log instead.
				require.NoError(t, os.Remove(TablePath(dir, TableBoxes, "part-00001", "parquet")))
				p = TablePath(dir, TableRounds, "part-00001", "jsonl")
			}
			tc.make(t, p)
			got, dmg := readWithin(t, 10*time.Second, dir)
			require.NotEmpty(t, dmg)
			assert.Equal(t, p, dmg[0].File)
			assert.Contains(t, dmg[0].Reason, tc.reason)
			assert.Equal(t, others, got, "the other parts are read")
		})
	}
	t.Run("link to a regular file", func(t *testing.T) {
		dir := t.TempDir()
		writeParquet(t, dir, rs, Options{RowGroupRounds: 4, FileRounds: 10})
		for _, table := range []string{TableRounds, TableBoxes} {
			p := TablePath(dir, table, "part-00001", "parquet")
			elsewhere := filepath.Join(t.TempDir(), "x.parquet")
			require.NoError(t, os.Rename(p, elsewhere))
			require.NoError(t, os.Symlink(elsewhere, p))
		}
		got, dmg := readWithin(t, 10*time.Second, dir)
		assert.Empty(t, dmg)
		assert.Equal(t, jsonRoundTrip(t, rs), got)
	})
	t.Run("swapped for a fifo after Open", func(t *testing.T) {
		dir := t.TempDir()
		writeParquet(t, dir, rs, Options{RowGroupRounds: 4, FileRounds: 10})
		d, err := Open(dir)
		require.NoError(t, err)
		defer d.Close()
		p := TablePath(dir, TableRounds, "part-00001", "parquet")
		require.NoError(t, os.Remove(p))
		require.NoError(t, syscall.Mkfifo(p, 0o644))
		done := make(chan []*DamageError, 1)
		go func() {
			dmg, err := d.Scan(func(*Record) error { return nil })
			assert.NoError(t, err)
			done <- dmg
		}()
		select {
		case dmg := <-done:
			require.NotEmpty(t, dmg)
			assert.Equal(t, p, dmg[0].File)
			assert.Contains(t, dmg[0].Reason, "named pipe")
		case <-time.After(10 * time.Second):
			t.Fatal("reading hung on a FIFO")
		}
	})
}

// readWithin reads the dataset like readAll, failing the test instead of
// hanging if the read takes longer than limit.
func readWithin(t *testing.T, limit time.Duration, dir string) ([]round.Round, []*DamageError) {
	t.Helper()
	type result struct {
		got []round.Round
		dmg []*DamageError
	}
	done := make(chan result, 1)
	go func() {
		got, _, dmg := readAll(t, dir)
		done <- result{got, dmg}
	}()
	select {
	case r := <-done:
		return r.got, r.dmg
	case <-time.After(limit):
		t.Fatal("reading hung")
		return nil, nil
	}
}
