package roundlog

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/format"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
)

// bombCodec writes pages with codec, as a dishonest writer would: a page
// holding target is compressed with extra zero bytes after its data, so
// that its header declares the page's size (parquet-go's writer declares
// the size of what it gave to Encode) and its data inflates far past it.
type bombCodec struct {
	codec  format.CompressionCodec
	target []byte
	extra  int64
}

func (c *bombCodec) String() string                            { return c.codec.String() }
func (c *bombCodec) CompressionCodec() format.CompressionCodec { return c.codec }
func (c *bombCodec) Decode(dst, src []byte) ([]byte, error) {
	return parquet.LookupCompressionCodec(c.codec).Decode(dst, src)
}

func (c *bombCodec) Encode(dst, src []byte) ([]byte, error) {
	if !bytes.Contains(src, c.target) {
		return parquet.LookupCompressionCodec(c.codec).Encode(dst, src)
	}
	data := io.MultiReader(bytes.NewReader(src), io.LimitReader(zeros{}, c.extra))
	var b bytes.Buffer
	var w io.WriteCloser
	switch c.codec {
	case format.Gzip:
		w, _ = gzip.NewWriterLevel(&b, gzip.BestCompression)
	case format.Brotli:
		w = brotli.NewWriterLevel(&b, 1)
	case format.Zstd:
		w, _ = zstd.NewWriter(&b, zstd.WithEncoderConcurrency(1))
	case format.Snappy: // a block: its length, then the data
		all, err := io.ReadAll(data)
		if err != nil {
			return nil, err
		}
		return s2.EncodeSnappy(nil, all), nil
	default:
		return nil, fmt.Errorf("no bomb for %s", c.codec)
	}
	if _, err := io.Copy(w, data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

var _ compress.Codec = (*bombCodec)(nil)

// bombDataset writes 30 single-box rounds in row groups of 10 with codec,
// the page of round 13's round_id (row group 1) inflating extra bytes past
// its header, and returns the directory, the rounds and the rounds file.
func bombDataset(t *testing.T, codec format.CompressionCodec, version int, extra int64) (string, []round.Round, string) {
	t.Helper()
	src, rs := casinoDataset(t, 30, 10, func(i int, r *round.Round) {
		if i == 13 {
			r.RoundID = "r-bomb-13"
		}
	})
	dir := t.TempDir()
	normal := []parquet.WriterOption{parquet.Compression(parquet.LookupCompressionCodec(codec)), parquet.MaxRowsPerRowGroup(10), parquet.DataPageVersion(version)}
	bomb := []parquet.WriterOption{parquet.Compression(&bombCodec{codec, []byte("r-bomb-13"), extra}), parquet.MaxRowsPerRowGroup(10), parquet.DataPageVersion(version)}
	rewriteTable[roundRow](t, src, dir, TableRounds, "", bomb)
	rewriteTable[boxRow](t, src, dir, TableBoxes, "", normal)
	return dir, rs, TablePath(dir, TableRounds, "part-00000", "parquet")
}

// TestCompressionBombs: a page whose data inflates past the uncompressed
// size its header declares is damage of its row group and column, found
// without inflating it (parquet-go grew its buffer for as long as the data
// went on: 670 MiB for a file of 280 KB, read without a finding); the
// other row groups are read. With extra = 0 the same files read clean.
func TestCompressionBombs(t *testing.T) {
	const extra = 64 << 20
	for _, codec := range []format.CompressionCodec{format.Gzip, format.Brotli, format.Zstd, format.Snappy} {
		for _, version := range []int{1, 2} {
			for _, sliced := range []bool{false, true} {
				name := fmt.Sprintf("%s/v%d", codec, version)
				if sliced {
					if codec != format.Gzip {
						continue
					}
					name += "/sliced"
				}
				t.Run(name, func(t *testing.T) {
					if sliced {
						defer func(n int) { sliceRounds = n }(sliceRounds)
						sliceRounds = 4
					}
					dir, rs, _ := bombDataset(t, codec, version, 0)
					var got []round.Round
					var dmg []*DamageError
					clean := allocated(func() { got, _, dmg = readAll(t, dir) })
					require.Empty(t, dmg, "no bomb")
					require.Equal(t, jsonRoundTrip(t, rs), got)

					dir, rs, p := bombDataset(t, codec, version, extra)
					st := fileSize(t, p)
					var ids []string
					a := allocated(func() {
						got, _, dmg = readAll(t, dir)
					})
					for _, r := range got {
						ids = append(ids, r.RoundID)
					}
					t.Logf("%s: a rounds file of %d bytes; %d bytes allocated reading the dataset (%d without the bomb)", name, st, a, clean)
					// The bomb's cost is what reading it allocates past the
					// same dataset without it: inflated, at least extra (64
					// MiB). The decoders' own allocations vary, by tens of
					// MiB from run to run under the race detector, so the
					// bound is on the difference, with a wider margin there.
					margin := uint64(16 << 20)
					if raceEnabled {
						margin = 40 << 20
					}
					assert.Less(t, a, clean+margin, "bytes allocated past the clean read")
					require.Len(t, dmg, 1, "%v", dmg)
					assert.Equal(t, p, dmg[0].File)
					assert.Equal(t, 1, dmg[0].RowGroup)
					assert.Contains(t, dmg[0].Error(), "column rounds.round_id: page at byte ")
					assert.Contains(t, dmg[0].Error(), codec.String()+" data")
					assert.Contains(t, dmg[0].Error(), "inflates past the uncompressed size its header declares")
					var want []string
					for i, r := range rs {
						if i < 10 || i >= 20 {
							want = append(want, r.RoundID)
						}
					}
					assert.Equal(t, want, ids, "the other row groups are read")
				})
			}
		}
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	require.NoError(t, err)
	return st.Size()
}

// TestChunkInflateLimit: pages that declare their sizes honestly but
// inflate, in all, to more than a chunk of their values can hold
// (chunkInflateLimit: here two texts of 20 MiB in pages of their own,
// 20 KB each compressed, in a chunk of 10 values) are damage of their row
// group and column, found before they are inflated.
func TestChunkInflateLimit(t *testing.T) {
	src, rs := casinoDataset(t, 30, 10, nil)
	var rows []roundRow
	for g := range 3 {
		rg, err := readGroup(rowGroup(openFile(t, TablePath(src, TableRounds, "part-00000", "parquet")), g), []roundRow(nil))
		require.NoError(t, err)
		rows = append(rows, rg...)
	}
	big := strings.Repeat("a", 20<<20)
	rows[11].VoidReason = "z" // the chunk's largest value: its statistics stay small
	rows[13].VoidReason, rows[14].VoidReason = big, big
	dir := t.TempDir()
	p := TablePath(dir, TableRounds, "part-00000", "parquet")
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	writeRetagged(t, p, rows, nil, []parquet.WriterOption{parquet.Compression(&parquet.Gzip), parquet.MaxRowsPerRowGroup(10),
		parquet.PageBufferSize(4096), parquet.SkipPageBounds("void_reason"), parquet.DataPageStatistics(false)},
		MetaSchemaVersion, SchemaVersion, MetaTable, TableRounds)
	rewriteTable[boxRow](t, src, dir, TableBoxes, "", []parquet.WriterOption{parquet.MaxRowsPerRowGroup(10)})
	big, rows = "", nil
	t.Logf("a rounds file of %d bytes", fileSize(t, p))
	var got []round.Round
	var dmg []*DamageError
	a := allocated(func() { got, _, dmg = readAll(t, dir) })
	t.Logf("%d bytes allocated reading the dataset", a)
	// 2.4 MB here, 35 MB under the race detector; 88 MB without the limit.
	bound := uint64(32 << 20)
	if raceEnabled {
		bound = 64 << 20
	}
	assert.Less(t, a, bound, "bytes allocated")
	require.Len(t, dmg, 1, "%v", dmg)
	assert.Equal(t, p, dmg[0].File)
	assert.Equal(t, 1, dmg[0].RowGroup)
	assert.Contains(t, dmg[0].Error(), "column rounds.void_reason: page at byte ")
	assert.Contains(t, dmg[0].Error(), "this reader takes at most 33554432 for a chunk of 10 values")
	assert.Equal(t, jsonRoundTrip(t, append(append([]round.Round{}, rs[:10]...), rs[20:]...)), got, "the other row groups are read")
}
