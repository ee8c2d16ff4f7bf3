package roundlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Limits of what the reader takes from a file, so that a damaged or
// hostile file costs an error rather than the replay's memory: parquet-go
// allocates a page's buffers from the sizes its header claims before it
// reads the page.
const (
	// maxGroupRows bounds the rows of a row group: the replay holds a row
	// group in memory (our writer makes at most 65,536 rows).
	maxGroupRows = 1 << 24
	// maxPageSize bounds a page's size, compressed or not (our writer
	// makes pages of about 256 KiB; common writers about 1 MiB).
	maxPageSize = 32 << 20
	// maxPageHeader bounds a page header (statistics included).
	maxPageHeader = 1 << 20
)

// chunkInflateLimit bounds the uncompressed bytes the pages of a column
// chunk of values values may declare in all: twice (a dictionary and the
// data) a text of maxFieldBytes and its length a value, and at least
// maxPageSize. Every page inflates to at most its declared size
// (inflater.check), so this bounds what a chunk inflates to, whatever its
// pages' ratio: a file of honest pages of 32 MiB of one repeated byte,
// 32 KB each compressed, would otherwise cost a thousand times its size.
func chunkInflateLimit(values int64) int64 {
	return max(maxPageSize, values*2*(int64(maxFieldBytes)+8))
}

// checkRowGroup checks the row count of row group g of f and walks the
// page headers of each of its column chunks before any page is decoded:
// every page must lie within its chunk, its sizes within maxPageSize, and
// its values within the chunk's. The error names the column (as
// table.column).
func checkRowGroup(f *parquet.File, g int, table string) error { return checkColumns(f, g, table, -1) }

// checkColumn does the checks of checkRowGroup for column c only.
func checkColumn(f *parquet.File, g, c int, table string) error { return checkColumns(f, g, table, c) }

// checkColumns checks column only of row group g, or every column when
// only < 0. A panic of parquet-go on a malformed schema is an error.
func checkColumns(f *parquet.File, g int, table string, only int) (err error) {
	defer recoverAs(&err, "corrupt schema")
	md := f.Metadata()
	if g < 0 || g >= len(md.RowGroups) {
		return fmt.Errorf("no row group %d", g)
	}
	rg := &md.RowGroups[g]
	if rg.NumRows < 0 || rg.NumRows > maxGroupRows {
		return fmt.Errorf("the footer gives %d rows; this reader takes row groups of 0 to %d rows", rg.NumRows, maxGroupRows)
	}
	leaves := f.Schema().Columns()
	if len(rg.Columns) != len(leaves) || only >= len(leaves) {
		return fmt.Errorf("%d column chunks for %d columns", len(rg.Columns), len(leaves))
	}
	for c, path := range leaves {
		if only >= 0 && c != only {
			continue
		}
		name := table + "." + strings.Join(path, ".")
		leaf, ok := f.Schema().Lookup(path...)
		if !ok {
			return fmt.Errorf("column %s: not in the schema", name)
		}
		if err := checkChunk(f, &rg.Columns[c].MetaData, rg.NumRows, leaf.MaxRepetitionLevel > 0); err != nil {
			return fmt.Errorf("column %s: %w", name, err)
		}
	}
	return nil
}

// checkChunk walks the page headers of one column chunk.
func checkChunk(f *parquet.File, cm *format.ColumnMetaData, rows int64, repeated bool) error {
	// The values of a column that is not repeated are its rows, nulls
	// included; a repeated column has at least one entry a row.
	if !repeated && cm.NumValues != rows || repeated && cm.NumValues < rows {
		return fmt.Errorf("the footer gives %d values for %d rows", cm.NumValues, rows)
	}
	if rows == 0 && cm.NumValues == 0 {
		return nil // an empty row group: nothing is read
	}
	start := cm.DataPageOffset
	if cm.DictionaryPageOffset != 0 { // as parquet-go reads the chunk
		start = cm.DictionaryPageOffset
	}
	end := start + cm.TotalCompressedSize
	if start < 4 || cm.TotalCompressedSize <= 0 || end < start || end > f.Size() {
		return fmt.Errorf("the footer places the chunk at bytes %d to %d of a file of %d bytes", start, end, f.Size())
	}
	var values, declared int64
	limit := chunkInflateLimit(cm.NumValues)
	var hr headerReader
	in := getInflater()
	defer in.put()
	for pos := start; pos < end; {
		h, n, err := hr.read(f, pos, end)
		if err != nil {
			return err
		}
		comp, uncomp := int64(h.CompressedPageSize), int64(h.UncompressedPageSize)
		if comp < 0 || uncomp < 0 || comp > maxPageSize || uncomp > maxPageSize {
			return fmt.Errorf("page at byte %d: %d bytes compressed, %d uncompressed; this reader takes pages of at most %d", pos, comp, uncomp, maxPageSize)
		}
		if declared += uncomp; declared > limit {
			return fmt.Errorf("page at byte %d: the chunk's pages declare %d bytes uncompressed up to this one; this reader takes at most %d for a chunk of %d values", pos, declared, limit, cm.NumValues)
		}
		at := pos
		pos += int64(n)
		if comp > end-pos {
			return fmt.Errorf("page at byte %d: %d bytes, beyond the chunk's end at byte %d", pos, comp, end)
		}
		if err := in.check(f, cm.Codec, h, pos, comp, hr.win[n:]); err != nil {
			return fmt.Errorf("page at byte %d: %w", at, err)
		}
		pos += comp
		switch {
		case h.DictionaryPageHeader.Valid:
			// A dictionary value takes at least a byte.
			if nv := int64(h.DictionaryPageHeader.V.NumValues); nv < 0 || nv > max(uncomp, 1) {
				return fmt.Errorf("dictionary page: %d values in %d bytes", nv, uncomp)
			}
		case h.DataPageHeader.Valid:
			values += int64(h.DataPageHeader.V.NumValues)
		case h.DataPageHeaderV2.Valid:
			values += int64(h.DataPageHeaderV2.V.NumValues)
		}
		if values < 0 || values > cm.NumValues {
			return fmt.Errorf("pages hold more than the %d values the footer gives", cm.NumValues)
		}
	}
	return nil
}

// headerReader reads page headers, reusing its buffer and header.
type headerReader struct {
	proto thrift.CompactProtocol
	buf   []byte
	win   []byte // the bytes read, from the last header's first on
	h     format.PageHeader
}

// read decodes the page header at byte pos of a column chunk ending at
// byte end, and returns it (valid until the next read) with its length in
// bytes. It reads the header into a window that grows until it holds it,
// so that a length inside it cannot make the decoder allocate more than
// the chunk holds.
func (hr *headerReader) read(f io.ReaderAt, pos, end int64) (*format.PageHeader, int, error) {
	for window := int64(256); ; window *= 4 {
		w := min(window, end-pos, maxPageHeader)
		if int64(cap(hr.buf)) < w {
			hr.buf = make([]byte, w)
		}
		b := hr.buf[:w]
		if _, err := f.ReadAt(b, pos); err != nil && !errors.Is(err, io.EOF) {
			return nil, 0, fmt.Errorf("page header at byte %d: %v", pos, err)
		}
		hr.h = format.PageHeader{}
		r := hr.proto.NewReaderFromBytes(b)
		err := thrift.NewDecoder(r).Decode(&hr.h)
		if err == nil {
			hr.win = b
			return &hr.h, r.BytesRead(), nil
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) || w < window {
			// w < window: the chunk or the header limit ended the window.
			return nil, 0, fmt.Errorf("page header at byte %d: %v", pos, err)
		}
	}
}

// checkFooter checks that the footer length a Parquet file ends with fits
// in the file, before parquet-go allocates a buffer of that length.
func checkFooter(r io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes: too short for a Parquet file", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("reading the footer's length: %v", err)
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("the file ends with a footer length of %d bytes, but holds %d bytes", n, size)
	}
	return nil
}

// checkChunkMeta checks the column chunks of every row group against the
// schema: parquet-go reads every chunk of a column with the compression
// codec of the column's first chunk, so a chunk of another codec, type or
// path (a damaged footer) would be decoded as garbage. It returns the
// first row group and column that does not fit. A panic of parquet-go on a
// malformed schema is an error.
func checkChunkMeta(f *parquet.File, table string) (group int, column string, err error) {
	group = -1 // the file, if the schema panics
	defer recoverAs(&err, "corrupt schema")
	leaves := f.Schema().Columns()
	rgs := f.Metadata().RowGroups
	for g := range rgs {
		if len(rgs[g].Columns) != len(leaves) {
			return g, "", fmt.Errorf("%d column chunks for %d columns", len(rgs[g].Columns), len(leaves))
		}
		for c, path := range leaves {
			name := table + "." + strings.Join(path, ".")
			cm := &rgs[g].Columns[c].MetaData
			leaf, ok := f.Schema().Lookup(path...)
			switch {
			case !ok || !leaf.Node.Leaf():
				return g, name, errors.New("not a column of the schema")
			case !slices.Equal(cm.PathInSchema, path):
				return g, name, fmt.Errorf("the footer's chunk is for column %q", strings.Join(cm.PathInSchema, "."))
			case parquet.Kind(cm.Type) != leaf.Node.Type().Kind():
				return g, name, fmt.Errorf("the footer's chunk has type %s, the schema %s", parquet.Kind(cm.Type), leaf.Node.Type().Kind())
			case cm.Codec != rgs[0].Columns[c].MetaData.Codec:
				return g, name, fmt.Errorf("compression %s, but %s in row group 0: this reader takes one codec per column", cm.Codec, rgs[0].Columns[c].MetaData.Codec)
			}
		}
	}
	return -1, "", nil
}
