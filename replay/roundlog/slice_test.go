package roundlog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
)

// withLimits sets the reader's limits for the rest of the test.
func withLimits(t testing.TB, rounds, childRows int) {
	r, c := sliceRounds, sliceChildRows
	sliceRounds, sliceChildRows = rounds, childRows
	t.Cleanup(func() { sliceRounds, sliceChildRows = r, c })
}

// writeOneGroup writes rs as one part of one row group per table, with
// pages of about pageSize bytes (many pages a column), and returns the
// directory. With reorder, the columns are in another order than the
// specification's, so that parquet-go's generic reader reads them. It
// also returns the files.
func writeOneGroup(t *testing.T, rs []round.Round, pageSize int, reorder bool) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	w, err := NewParquetWriter(dir, Options{RowGroupRounds: len(rs), RowGroupRows: 1 << 24, FileRounds: int64(len(rs))})
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
	for _, fn := range w.Files() {
		f := openFile(t, fn)
		require.Len(t, f.RowGroups(), 1, fn)
		table, _ := f.Lookup(MetaTable)
		switch table {
		case TableRounds:
			rewrite[roundRow](t, fn, table, pageSize, reorder)
		case TableBoxes:
			rewrite[boxRow](t, fn, table, pageSize, reorder)
		case TableSeats:
			rewrite[seatRow](t, fn, table, pageSize, reorder)
		case TableActions:
			rewrite[actionRow](t, fn, table, pageSize, reorder)
		case TablePots:
			rewrite[potRow](t, fn, table, pageSize, reorder)
		default:
			t.Fatalf("%s: table %q", fn, table)
		}
	}
	return dir, w.Files()
}

// rewrite writes the rows of the Parquet file fn again with pages of
// about pageSize bytes, as the writer does otherwise (dictionaries, the
// compression, the metadata).
func rewrite[T any](t *testing.T, fn, table string, pageSize int, reorder bool) {
	rows, err := parquet.ReadFile[T](fn)
	require.NoError(t, err)
	var zero T
	var sch *parquet.Schema
	if reorder {
		g := parquet.Group{}
		for _, f := range parquet.SchemaOf(zero).Fields() {
			g[f.Name()] = f
		}
		sch = parquet.NewSchema(table, g)
	} else {
		sch = parquet.NewSchema(table, parquet.SchemaOf(zero))
	}
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, sch, parquet.CreatedBy(createdByApp, createdByVersion, createdByBuild),
		parquet.KeyValueMetadata(MetaSchemaVersion, SchemaVersion), parquet.KeyValueMetadata(MetaTable, table),
		parquet.Compression(&fastSnappy{}), parquet.PageBufferSize(pageSize))
	for i := range rows {
		require.NoError(t, w.Write(&rows[i]))
	}
	require.NoError(t, w.Close())
	require.NoError(t, os.WriteFile(fn, buf.Bytes(), 0o644))
	f := openFile(t, fn)
	assert.Equal(t, !reorder, sameSchema(f.Schema(), parquet.SchemaOf(zero)), "%s read by the fast path", fn)
}

// TestSlicedReadMatchesWhole reads row groups larger than the slice sizes
// (rounds, and child tables of many rows) of every game, of the
// specification's schema and of another column order, with pages of about
// 1 KiB: the records, their positions and the damage are exactly those of
// the row groups read whole.
func TestSlicedReadMatchesWhole(t *testing.T) {
	for _, game := range []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem} {
		n := int64(900)
		if game == round.DoubleHoldem {
			n = 150
		}
		rs := simRounds(t, game, n)
		// A few invalid values: damage at the same rows either way.
		rs[100].Board[2] = "Zz"
		if rs[120].Double != nil {
			rs[120].Double.Seats[0].Cards[0] = "1x"
		} else {
			rs[120].Boxes[0].Cards[1] = "1x"
		}
		for _, reorder := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s reorder=%v", game, reorder), func(t *testing.T) {
				dir, _ := writeOneGroup(t, rs, 1024, reorder)
				want, wantPos, wantDmg := readAll(t, dir)
				require.Len(t, want, len(rs)-2)
				require.Len(t, wantDmg, 2)
				for _, sizes := range [][2]int{{37, 53}, {1, 1}, {100, 1 << 20}, {1 << 20, 7}} {
					withLimits(t, sizes[0], sizes[1])
					got, gotPos, gotDmg := readAll(t, dir)
					require.Equal(t, want, got, "slices of %v", sizes)
					require.Equal(t, wantPos, gotPos, "slices of %v", sizes)
					require.Equal(t, wantDmg, gotDmg, "slices of %v", sizes)
				}
			})
		}
	}
}

// TestSlicedReadNulls: a null in a required column that a file declares
// optional is damage for its row, in a sliced row group as in a whole one.
func TestSlicedReadNulls(t *testing.T) {
	dir := t.TempDir()
	seed := "ab"
	var rows []nullableRound
	for i := range 9 {
		r := nullableRound{RoundID: string(rune('a' + i)), Game: round.CasinoHoldem, Currency: "EUR", Scheme: "fairhold/v1", ServerSeed: &seed}
		if i == 3 || i == 7 {
			r.ServerSeed = nil
		}
		rows = append(rows, r)
	}
	p := filepath.Join(dir, "x.rounds.parquet")
	writeRaw(t, p, rows, MetaSchemaVersion, SchemaVersion, MetaTable, TableRounds)
	want, _, wantDmg := readAll(t, dir)
	require.Len(t, wantDmg, 2)
	require.Len(t, want, 7)
	withLimits(t, 2, 2)
	got, _, gotDmg := readAll(t, dir)
	assert.Equal(t, want, got)
	assert.Equal(t, wantDmg, gotDmg)
}

// TestSlicedReadDamagedPages flips bytes across the files of a sliced row
// group: the read never panics, and every round it passes on is one of
// the log's; what it cannot read is damage naming a file of the dataset.
//
// Not under the race detector: its pointer checks (checkptr) turn one of
// these flips (a byte array whose length survives the damage and whose
// data does not: parquet-go makes it with unsafe.Slice of a nil pointer)
// into a fatal error, which the normal build does not hit: there the
// sweep passes (the reader reports the damage or reads past it). Making
// the reader check such values itself is open work.
func TestSlicedReadDamagedPages(t *testing.T) {
	if raceEnabled {
		t.Skip("checkptr makes parquet-go's unsafe.Slice of a damaged byte array fatal: run without -race")
	}
	rs := simRounds(t, round.DoubleHoldem, 60)
	src, files := writeOneGroup(t, rs, 512, false)
	require.Len(t, files, 4)
	want, _, _ := readAll(t, src)
	ids := map[string]bool{}
	for _, r := range want {
		ids[r.RoundID] = true
	}
	withLimits(t, 7, 11)
	for _, fn := range files {
		orig, err := os.ReadFile(fn)
		require.NoError(t, err)
		for k := 1; k < 24; k++ {
			b := slices.Clone(orig)
			at := 4 + (len(b)-12)*k/24
			b[at] ^= 0x5a
			require.NoError(t, os.WriteFile(fn, b, 0o644))
			d, err := Open(src)
			require.NoError(t, err)
			dmg, err := d.Scan(func(r *Record) error {
				assert.True(t, ids[r.Round.RoundID], "%s byte %d: round %q", fn, at, r.Round.RoundID)
				return nil
			})
			require.NoError(t, err)
			for _, x := range dmg {
				assert.True(t, strings.HasPrefix(x.File, src), "damage names a file of the dataset: %v", x)
			}
			require.NoError(t, d.Close())
		}
		require.NoError(t, os.WriteFile(fn, orig, 0o644))
	}
}

// TestRoundChildRowsLimit: a round with more rows in a child table than
// maxRoundChildRows is damage for its row group, naming the row and the
// count column, whole or sliced.
func TestRoundChildRowsLimit(t *testing.T) {
	rs := simRounds(t, round.LiveCasinoHoldem, 200)
	dir, _ := writeOneGroup(t, rs, 4096, false)
	k := slices.IndexFunc(rs, func(r round.Round) bool { return len(r.Boxes) > 2 })
	require.GreaterOrEqual(t, k, 0)
	m := maxRoundChildRows
	maxRoundChildRows = 2
	t.Cleanup(func() { maxRoundChildRows = m })
	for _, sliced := range []bool{false, true} {
		if sliced {
			withLimits(t, 16, 16)
		}
		got, _, dmg := readAll(t, dir)
		assert.Empty(t, got)
		require.Len(t, dmg, 1)
		assert.Equal(t, int64(k), dmg[0].Row)
		assert.Equal(t, "rounds.n_boxes", dmg[0].Column)
		assert.Contains(t, dmg[0].Reason, "this reader takes at most 2")
	}
}

// TestReadUnitStreamOrder: damage reports come in input order among the
// rounds, as they are found.
func TestReadUnitStreamOrder(t *testing.T) {
	rs := casinoRounds(30)
	rs[4].Board[0] = "Zz"
	rs[17].Currency = "euro"
	var buf bytes.Buffer
	w, err := NewJSONLWriter(&buf)
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
	dir := t.TempDir()
	jf := filepath.Join(dir, "a.rounds.jsonl")
	require.NoError(t, os.WriteFile(jf, buf.Bytes(), 0o644))
	pq := filepath.Join(dir, "pq")
	writeParquet(t, pq, rs, Options{})
	for _, path := range []string{jf, pq} {
		d, err := Open(path)
		require.NoError(t, err)
		var seq []string
		err = d.ReadUnitStream(0, func(r *Record) error {
			seq = append(seq, fmt.Sprint(r.Row))
			return nil
		}, func(e *DamageError) { seq = append(seq, fmt.Sprintf("damage %d", e.Row)) })
		require.NoError(t, err)
		require.NoError(t, d.Close())
		var want []string
		first := 0
		if path == jf {
			first = 1 // the version line
		}
		for i := range rs {
			row := fmt.Sprint(first + i)
			if i == 4 || i == 17 {
				row = "damage " + row
			}
			want = append(want, row)
		}
		assert.Equal(t, want, seq, path)
	}
}

// TestJSONLLineLimit: a line longer than maxLineBytes is damage naming the
// line, read past without being held; the lines after it are read. A line
// of exactly the limit is read.
func TestJSONLLineLimit(t *testing.T) {
	rs := casinoRounds(6)
	var lines [][]byte
	for i := range rs {
		b, err := jsonLine(&rs[i])
		require.NoError(t, err)
		lines = append(lines, b)
	}
	limit := 0
	for _, l := range lines {
		limit = max(limit, len(l))
	}
	limit += 10
	m := maxLineBytes
	maxLineBytes = limit
	t.Cleanup(func() { maxLineBytes = m })
	pad := func(b []byte, n int) []byte { // n bytes of spaces before the object
		return append(bytes.Repeat([]byte(" "), n-len(b)), b...)
	}
	var buf bytes.Buffer
	buf.Write(pad(lines[0], limit)) // exactly the limit
	buf.WriteByte('\n')
	buf.Write(pad(lines[1], limit+1)) // one byte over
	buf.WriteByte('\n')
	buf.Write(lines[2])
	buf.WriteByte('\n')
	buf.Write(bytes.Repeat([]byte("x"), 5*limit+3)) // far over, no newline before the next round's
	buf.WriteString("\r\n")
	buf.Write(lines[3])
	buf.WriteByte('\n')
	buf.Write(lines[4])
	buf.WriteByte('\n')
	buf.Write(pad(lines[5], 3*limit)) // the last line, over, without a newline
	fn := filepath.Join(t.TempDir(), "a.rounds.jsonl")
	require.NoError(t, os.WriteFile(fn, buf.Bytes(), 0o644))
	got, pos, dmg := readAll(t, fn)
	require.Len(t, got, 4)
	assert.Equal(t, []string{rs[0].RoundID, rs[2].RoundID, rs[3].RoundID, rs[4].RoundID},
		[]string{got[0].RoundID, got[1].RoundID, got[2].RoundID, got[3].RoundID})
	assert.Equal(t, []int64{0, 2, 4, 5}, []int64{pos[0].Row, pos[1].Row, pos[2].Row, pos[3].Row})
	require.Len(t, dmg, 3)
	for i, want := range []struct {
		row   int64
		bytes int
	}{{1, limit + 1}, {3, 5*limit + 4}, {6, 3 * limit}} {
		assert.Equal(t, fn, dmg[i].File)
		assert.Equal(t, want.row, dmg[i].Row)
		assert.Equal(t, fmt.Sprintf("a line of %d bytes; this reader takes lines of at most %d bytes", want.bytes, limit), dmg[i].Reason)
	}
}

func jsonLine(r *round.Round) ([]byte, error) {
	var buf bytes.Buffer
	w, err := NewJSONLWriter(&buf)
	if err != nil {
		return nil, err
	}
	if err := w.Write(r); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	_, line, _ := bytes.Cut(buf.Bytes(), []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\n")), nil
}

// TestFieldLimit: a text value longer than maxFieldBytes is damage naming
// the file, row and column (a child table's file and row for a child
// value), in Parquet and JSON Lines; the round id is left out of the report
// when it is the long value.
func TestFieldLimit(t *testing.T) {
	m := maxFieldBytes
	maxFieldBytes = 40
	t.Cleanup(func() { maxFieldBytes = m })
	long := strings.Repeat("p", 41)
	rs := casinoRounds(20)
	rs[3].Boxes[0].PlayerID = long
	rs[8].RoundID = "r" + long
	rs[11].Fairness.ClientSeeds = []string{"x", long}
	rs[12].Boxes[0].PlayerID = strings.Repeat("p", 40) // at the limit
	dir := t.TempDir()
	writeParquet(t, filepath.Join(dir, "pq"), rs, Options{RowGroupRounds: 16})
	jf := filepath.Join(dir, "a.rounds.jsonl")
	var buf bytes.Buffer
	w, err := NewJSONLWriter(&buf)
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
	require.NoError(t, os.WriteFile(jf, buf.Bytes(), 0o644))

	got, _, dmg := readAll(t, filepath.Join(dir, "pq"))
	assert.Len(t, got, 17)
	require.Len(t, dmg, 3)
	assert.Contains(t, dmg[0].File, TableBoxes)
	assert.Equal(t, int64(3), dmg[0].Row)
	assert.Equal(t, "boxes.player_id", dmg[0].Column)
	assert.Equal(t, "a text of 41 bytes; this reader takes texts of at most 40 bytes", dmg[0].Reason)
	assert.Contains(t, dmg[1].File, TableRounds)
	assert.Equal(t, int64(8), dmg[1].Row)
	assert.Equal(t, "rounds.round_id", dmg[1].Column)
	assert.Empty(t, dmg[1].RoundID)
	assert.Equal(t, int64(11), dmg[2].Row)
	assert.Equal(t, "rounds.client_seeds", dmg[2].Column)
	assert.Equal(t, rs[11].RoundID, dmg[2].RoundID)

	got, _, dmg = readAll(t, jf)
	assert.Len(t, got, 17)
	require.Len(t, dmg, 3)
	assert.Equal(t, []int64{4, 9, 12}, []int64{dmg[0].Row, dmg[1].Row, dmg[2].Row})
	assert.Equal(t, []string{"boxes.player_id[0]", "rounds.round_id", "rounds.client_seeds"}, []string{dmg[0].Column, dmg[1].Column, dmg[2].Column})
}

// BenchmarkReadSliced reads 200,000 single-box rounds written as one row
// group, in slices (the default slice sizes), with 1 goroutine: the
// sliced reader's speed, against BenchmarkReadWhole's.
func BenchmarkReadSliced(b *testing.B) { benchReadGroups(b, 200_000) }

// BenchmarkReadWhole reads the same rounds in row groups of 16,384, each
// decoded whole.
func BenchmarkReadWhole(b *testing.B) { benchReadGroups(b, DefaultRowGroupRounds) }

func benchReadGroups(b *testing.B, group int) {
	const n = 200_000
	rs := casinoRounds(n)
	dir := b.TempDir()
	writeParquet(b, dir, rs, Options{RowGroupRounds: group, RowGroupRows: 1 << 24, FileRounds: n})
	d, err := Open(dir)
	require.NoError(b, err)
	defer d.Close()
	rs = nil
	runtime.GC() // not the setup's garbage
	b.ReportAllocs()
	b.ResetTimer()
	k := 0
	for range b.N {
		dmg, err := d.Scan(func(*Record) error { k++; return nil })
		if err != nil || len(dmg) > 0 {
			b.Fatal(err, dmg)
		}
	}
	b.ReportMetric(float64(k)/b.Elapsed().Seconds(), "rounds/s")
}

// FuzzReadParquetSliced is FuzzReadParquet for row groups read in slices:
// one row group of 12 rounds of every game, read in slices of 3 rounds and
// 5 child rows, one file replaced by damaged bytes. The reader never
// panics, allocates at most 128 MB, and names a file of the dataset in
// what it reports.
func FuzzReadParquetSliced(f *testing.F) {
	src := f.TempDir()
	w, err := NewParquetWriter(src, Options{RowGroupRounds: 12, FileRounds: 12})
	require.NoError(f, err)
	rs := sample(12)
	for i := range rs {
		require.NoError(f, w.Write(&rs[i]))
	}
	require.NoError(f, w.Close())
	files := w.Files()
	orig := make([][]byte, len(files))
	for i, fn := range files {
		b, err := os.ReadFile(fn)
		require.NoError(f, err)
		orig[i] = b
		f.Add(uint8(i), b)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		withLimits(t, 3, 5)
		dir := t.TempDir()
		k := int(which) % len(files)
		for i, fn := range files {
			rel, err := filepath.Rel(src, fn)
			require.NoError(t, err)
			dst := filepath.Join(dir, rel)
			require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
			b := orig[i]
			if i == k {
				b = data
			}
			require.NoError(t, os.WriteFile(dst, b, 0o644))
		}
		scanDamaged(t, dir)
	})
}

// BenchmarkReadJSONL reads 50,000 single-box rounds from a JSON Lines
// file, a line at a time.
func BenchmarkReadJSONL(b *testing.B) {
	rs := casinoRounds(50_000)
	var buf bytes.Buffer
	w, err := NewJSONLWriter(&buf)
	require.NoError(b, err)
	for i := range rs {
		require.NoError(b, w.Write(&rs[i]))
	}
	require.NoError(b, w.Close())
	fn := filepath.Join(b.TempDir(), "a.rounds.jsonl")
	require.NoError(b, os.WriteFile(fn, buf.Bytes(), 0o644))
	d, err := Open(fn)
	require.NoError(b, err)
	defer d.Close()
	b.ReportAllocs()
	b.ResetTimer()
	k := 0
	for range b.N {
		dmg, err := d.Scan(func(*Record) error { k++; return nil })
		if err != nil || len(dmg) > 0 {
			b.Fatal(err, dmg)
		}
	}
	b.ReportMetric(float64(k)/b.Elapsed().Seconds(), "rounds/s")
}

// TestSlicedReadOtherWriters reads the logs other Parquet writers wrote
// (testdata/writers/GAME/WRITER, when present) whole and in slices: the
// records, rows and damage are the same. Sliced row groups must decode
// their columns as whole ones do (booleans included).
func TestSlicedReadOtherWriters(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "writers", "*", "*"))
	require.NoError(t, err)
	n := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		n++
		t.Run(dir, func(t *testing.T) {
			want, wantPos, wantDmg := readAll(t, dir)
			for _, sizes := range [][2]int{{7, 11}, {100, 1 << 20}} {
				withLimits(t, sizes[0], sizes[1])
				got, gotPos, gotDmg := readAll(t, dir)
				require.Equal(t, want, got, "slices of %v", sizes)
				require.Equal(t, wantPos, gotPos, "slices of %v", sizes)
				require.Equal(t, wantDmg, gotDmg, "slices of %v", sizes)
			}
		})
	}
	if n == 0 {
		t.Skip("no testdata/writers logs")
	}
}
