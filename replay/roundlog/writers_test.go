package roundlog

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The logs of testdata/writers were written by other Parquet writers
// (hyparquet-writer, DuckDB) from the JSON Lines logs beside them; the
// README there says how.

// gunzipLog writes the JSON Lines log testdata/writers/name into a
// temporary directory and returns its path.
func gunzipLog(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "writers", name))
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "log.rounds.jsonl")
	out, err := os.Create(p)
	require.NoError(t, err)
	_, err = io.Copy(out, zr)
	require.NoError(t, err)
	require.NoError(t, out.Close())
	return p
}

// TestForeignWriters reads the logs other writers made and compares every
// round with the JSON Lines form of the same rounds: hyparquet-writer's
// (data pages v2, RLE booleans, the specification's schema, and its
// default schema with every column optional, the columns in reverse order
// and an extra column) and DuckDB's (data pages v1, PLAIN booleans, every
// column optional). In the Casino Hold'em logs round 163 (row 163) is the
// only void round: parquet-go read it as row 168's.
func TestForeignWriters(t *testing.T) {
	cases := []struct {
		dir, log string
		voidRow  int
	}{
		{"casino-holdem/hyparquet", "casino-holdem.jsonl.gz", 163},
		{"casino-holdem/hyparquet-foreign", "casino-holdem.jsonl.gz", 163},
		{"casino-holdem/duckdb", "casino-holdem.jsonl.gz", 163},
		{"double-holdem/hyparquet", "double-holdem.jsonl.gz", -1},
		{"double-holdem/duckdb", "double-holdem.jsonl.gz", -1},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			want, _, dmg := readAll(t, gunzipLog(t, c.log))
			require.Empty(t, dmg)
			if c.voidRow >= 0 {
				for i := range want {
					want[i].Void, want[i].VoidReason = i == c.voidRow, ""
					if i == c.voidRow {
						want[i].VoidReason = "malfunction"
					}
				}
			}
			got, pos, dmg := readAll(t, filepath.Join("testdata", "writers", c.dir))
			require.Empty(t, dmg)
			require.Len(t, got, len(want))
			for i := range want {
				require.Equal(t, want[i], got[i], "row %d", pos[i].Row)
			}
			var voids, bonusAuto, allIn int
			for i := range got {
				if got[i].Void {
					voids++
					assert.Equal(t, c.voidRow, i, "the void round")
				}
				if d := got[i].Double; d != nil {
					for _, s := range d.Seats {
						bonusAuto += btoi(s.BonusAuto)
					}
					for _, a := range d.Actions {
						allIn += btoi(a.AllIn)
					}
				}
			}
			if c.voidRow >= 0 {
				assert.Equal(t, 1, voids)
			} else {
				// Values true among the booleans of the seats and actions.
				assert.NotZero(t, bonusAuto)
				assert.NotZero(t, allIn)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// voidColumn opens the rounds file of a testdata/writers log and returns
// it with the index of its void column.
func voidColumn(t *testing.T, dir string) (*parquet.File, int) {
	t.Helper()
	f := openFile(t, filepath.Join("testdata", "writers", dir, "part-00000.rounds.parquet"))
	leaf, ok := f.Schema().Lookup("void")
	require.True(t, ok)
	return f, leaf.ColumnIndex
}

// TestRLEBooleansFastPath decodes the void column of hyparquet-writer's
// file (RLE in a data page v2) with the column decoder of the fast path.
func TestRLEBooleansFastPath(t *testing.T) {
	for _, dir := range []string{"casino-holdem/hyparquet", "casino-holdem/hyparquet-foreign", "casino-holdem/duckdb"} {
		f, c := voidColumn(t, dir)
		rg := rowGroup(f, 0)
		leaf, _ := rg.Schema().Lookup("void")
		var col column
		require.NoError(t, decodeColumn(rg.ColumnChunks()[c], leaf, int(rg.NumRows()), &col), dir)
		require.Len(t, col.bools, 200, dir)
		for i, v := range col.bools {
			assert.Equal(t, i == 163, v, "%s: row %d", dir, i)
		}
	}
}

// TestParquetGoMisreadsRLEBooleans keeps the reason for booleans.go:
// parquet-go's own decoder reads the void round of hyparquet-writer's file
// at row 168. When it fails, parquet-go reads RLE booleans right, and
// booleans.go may go.
func TestParquetGoMisreadsRLEBooleans(t *testing.T) {
	f, c := voidColumn(t, "casino-holdem/hyparquet")
	pages := f.RowGroups()[0].ColumnChunks()[c].Pages()
	defer pages.Close()
	pg, err := pages.ReadPage()
	require.NoError(t, err)
	vs := make([]parquet.Value, pg.NumValues())
	n, _ := pg.Values().ReadValues(vs)
	var void []int
	for i, v := range vs[:n] {
		if v.Boolean() {
			void = append(void, i)
		}
	}
	assert.Equal(t, []int{168}, void)
}

// TestBoolPagesForGenericReader reads hyparquet-writer's RLE booleans
// through parquet-go's generic reader, from a boolRowGroup: required and
// optional columns, and a page sliced.
func TestBoolPagesForGenericReader(t *testing.T) {
	for _, dir := range []string{"casino-holdem/hyparquet", "casino-holdem/hyparquet-foreign"} {
		f, _ := voidColumn(t, dir)
		rows, err := readGroup(rowGroup(f, 0), []roundRow(nil))
		require.NoError(t, err, dir)
		for i := range rows {
			assert.Equal(t, i == 163, rows[i].Void, "%s: row %d", dir, i)
		}
		_, c := voidColumn(t, dir)
		pages := rowGroup(f, 0).ColumnChunks()[c].Pages()
		require.NoError(t, pages.SeekToRow(0))
		pg, err := pages.ReadPage()
		require.NoError(t, err)
		s := pg.Slice(160, 165)
		vs := make([]parquet.Value, 10)
		n, err := s.Values().ReadValues(vs)
		assert.Equal(t, io.EOF, err)
		require.Equal(t, 5, n)
		for i, v := range vs[:n] {
			assert.Equal(t, i == 3, v.Boolean(), "%s: sliced row %d", dir, 160+i)
		}
		require.Error(t, pages.SeekToRow(7), "only the first row is a place to seek")
		require.NoError(t, pages.Close())
	}
}

// TestDamagedBooleanPages rewrites each byte of the void column chunk of
// hyparquet-writer's rounds file (page header, RLE length, runs) with 0x00,
// 0x7F and 0xFF: the reader never panics, and it reads 200 rounds with
// their void flags, or reports the damage naming the file.
func TestDamagedBooleanPages(t *testing.T) {
	src := filepath.Join("testdata", "writers", "casino-holdem", "hyparquet")
	f, c := voidColumn(t, "casino-holdem/hyparquet")
	cm := f.Metadata().RowGroups[0].Columns[c].MetaData
	orig, err := os.ReadFile(filepath.Join(src, "part-00000.rounds.parquet"))
	require.NoError(t, err)
	boxes, err := os.ReadFile(filepath.Join(src, "part-00000.boxes.parquet"))
	require.NoError(t, err)
	dir := t.TempDir()
	p := filepath.Join(dir, "part-00000.rounds.parquet")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "part-00000.boxes.parquet"), boxes, 0o644))
	var damaged, read int
	for off := cm.DataPageOffset; off < cm.DataPageOffset+cm.TotalCompressedSize; off++ {
		for _, v := range []byte{0x00, 0x7f, 0xff} {
			b := append([]byte(nil), orig...)
			if b[off] == v {
				continue
			}
			b[off] = v
			require.NoError(t, os.WriteFile(p, b, 0o644))
			d, err := Open(dir)
			require.NoError(t, err)
			dmg, err := d.Scan(func(*Record) error { return nil })
			require.NoError(t, err)
			d.Close()
			for _, x := range dmg {
				require.True(t, strings.HasPrefix(x.File, dir), "byte %d = %#x: %v", off, v, x)
			}
			if len(dmg) > 0 {
				damaged++
			} else {
				read++
			}
		}
	}
	t.Logf("%d edits reported as damage, %d read (a value changed, or a byte nobody reads)", damaged, read)
	assert.NotZero(t, damaged)
}

// FuzzReadForeignParquet replaces one file of hyparquet-writer's Double
// Hold'em log (RLE booleans in the rounds, seats and actions) with damaged
// bytes: as FuzzReadParquet, the reader never panics, allocates at most
// 128 MB, and reports what it cannot read naming a file of the dataset.
func FuzzReadForeignParquet(f *testing.F) {
	tables := []string{TableRounds, TableSeats, TableActions, TablePots}
	orig := make([][]byte, len(tables))
	for i, table := range tables {
		b, err := os.ReadFile(filepath.Join("testdata", "writers", "double-holdem", "hyparquet", "part-00000."+table+".parquet"))
		require.NoError(f, err)
		orig[i] = b
		f.Add(uint8(i), b)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		dir := t.TempDir()
		k := int(which) % len(tables)
		for i, table := range tables {
			b := orig[i]
			if i == k {
				b = data
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, "part-00000."+table+".parquet"), b, 0o644))
		}
		scanDamaged(t, dir)
	})
}
