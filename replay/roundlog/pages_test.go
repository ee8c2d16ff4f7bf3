package roundlog

import (
	"encoding/binary"
	"os"
	"runtime"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// reencode decodes a thrift struct from b, edits it and returns its new
// encoding.
func reencode[T any](t *testing.T, b []byte, edit func(*T)) []byte {
	t.Helper()
	var proto thrift.CompactProtocol
	var v T
	require.NoError(t, thrift.NewDecoder(proto.NewReaderFromBytes(b)).Decode(&v))
	edit(&v)
	enc, err := thrift.Marshal(&proto, &v)
	require.NoError(t, err)
	return enc
}

// rewritePageHeader edits the page header at off in the file at path and
// writes it back over the same bytes (the page's data after it may be
// overwritten: the edited header is what is tested).
func rewritePageHeader(t *testing.T, path string, off int64, edit func(h *format.PageHeader)) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	copy(b[off:], reencode(t, b[off:], edit))
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// TestDamagedPageSizes: a page header that claims more bytes than its
// chunk holds, or a page larger than the reader takes, is damage naming
// the file, row group and column, found before parquet-go allocates the
// claimed size (it allocated 0.8 to 4 GB for such files of 4 to 20 KB before).
func TestDamagedPageSizes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(h *format.PageHeader)
		reason string
	}{
		{"uncompressed size", func(h *format.PageHeader) { h.UncompressedPageSize = 1 << 30 }, "this reader takes pages of at most"},
		{"compressed size beyond the chunk", func(h *format.PageHeader) { h.CompressedPageSize = 1 << 24 }, "beyond the chunk's end"},
		{"values beyond the chunk's", func(h *format.PageHeader) {
			require.True(t, h.DataPageHeaderV2.Valid, "our writer writes version-2 data pages")
			h.DataPageHeaderV2.V.NumValues++ // same length of varint: the header keeps its size
		}, "more than the"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, rs := casinoDataset(t, 30, 10, nil)
			p := TablePath(dir, TableRounds, "part-00000", "parquet")
			md := openFile(t, p).Metadata()
			// Column 0 (round_id) of row group 1: plain, so its first page
			// is a data page at DataPageOffset.
			cm := md.RowGroups[1].Columns[0].MetaData
			require.Zero(t, cm.DictionaryPageOffset)
			rewritePageHeader(t, p, cm.DataPageOffset, tc.edit)
			var got []round0
			var dmg []*DamageError
			a := allocated(func() {
				rounds, _, d := readAll(t, dir)
				dmg = d
				for _, r := range rounds {
					got = append(got, round0{r.RoundID})
				}
			})
			assert.Less(t, a, uint64(64<<20), "bytes allocated")
			require.Len(t, dmg, 1)
			assert.Equal(t, p, dmg[0].File)
			assert.Equal(t, 1, dmg[0].RowGroup)
			assert.Contains(t, dmg[0].Error(), "corrupt row group: column rounds.round_id: ")
			assert.Contains(t, dmg[0].Error(), tc.reason)
			var want []round0
			for _, r := range append(append(rs[:0:0], rs[:10]...), rs[20:]...) {
				want = append(want, round0{r.RoundID})
			}
			assert.Equal(t, want, got, "the other row groups are read")
		})
	}
}

type round0 struct{ id string }

// TestDamagedFooterLength: a file whose last bytes give a footer longer
// than the file is damage, found before parquet-go allocates the footer.
func TestDamagedFooterLength(t *testing.T) {
	dir, _ := casinoDataset(t, 30, 10, nil)
	p := TablePath(dir, TableRounds, "part-00000", "parquet")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	binary.LittleEndian.PutUint32(b[len(b)-8:], 0x7fff_ffff)
	require.NoError(t, os.WriteFile(p, b, 0o644))
	var dmg []*DamageError
	a := allocated(func() { _, _, dmg = readAll(t, dir) })
	assert.Less(t, a, uint64(64<<20), "bytes allocated")
	require.Len(t, dmg, 1)
	assert.Equal(t, p, dmg[0].File)
	assert.Contains(t, dmg[0].Error(), "footer length of 2147483647 bytes")
}

// rewriteFooter edits the footer of the file at path and writes the file
// again with the new footer.
func rewriteFooter(t *testing.T, path string, edit func(md *format.FileMetaData)) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	start := len(b) - 8 - int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	enc := reencode(t, b[start:len(b)-8], edit)
	out := append(append([]byte(nil), b[:start]...), enc...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(enc)))
	out = append(out, "PAR1"...)
	require.NoError(t, os.WriteFile(path, out, 0o644))
}

// TestDamagedChunkMetadata: a footer whose column chunk in one row group
// has another codec, type or path than the column's (parquet-go decodes
// every chunk of a column with its first chunk's codec: such a file gave
// values from stale memory, different from run to run) makes the file
// damage, naming the row group and column.
func TestDamagedChunkMetadata(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(cm *format.ColumnMetaData)
		reason string
	}{
		{"codec", func(cm *format.ColumnMetaData) { cm.Codec = format.Uncompressed }, "this reader takes one codec per column"},
		{"type", func(cm *format.ColumnMetaData) { cm.Type = format.Boolean }, "type BOOLEAN, the schema INT64"},
		{"path", func(cm *format.ColumnMetaData) { cm.PathInSchema = []string{"round_id"} }, `chunk is for column "round_id"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := casinoDataset(t, 30, 10, nil)
			p := TablePath(dir, TableRounds, "part-00000", "parquet")
			col := -1
			for i, c := range openFile(t, p).Metadata().RowGroups[1].Columns {
				if c.MetaData.PathInSchema[0] == "nonce" {
					col = i
				}
			}
			require.NotEqual(t, -1, col)
			rewriteFooter(t, p, func(md *format.FileMetaData) { tc.edit(&md.RowGroups[1].Columns[col].MetaData) })
			_, _, dmg := readAll(t, dir)
			require.Len(t, dmg, 1)
			assert.Equal(t, p, dmg[0].File)
			assert.Equal(t, 1, dmg[0].RowGroup)
			assert.Equal(t, "rounds.nonce", dmg[0].Column)
			assert.Contains(t, dmg[0].Error(), tc.reason)
		})
	}
}
