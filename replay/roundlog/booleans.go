package roundlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/snappy"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// BOOLEAN columns are decoded here, not by parquet-go: parquet-go v0.32
// misreads RLE-encoded booleans (the encoding of hyparquet-writer, and of
// Arrow and parquet-java with data pages v2). It rounds each run's length up
// to whole bytes, so that every later value moves (a log whose only void
// round is row 163 read as void at row 168), and broadcasts a run's value
// as a byte, so that a run of true reads as one true in eight. Its own
// writer makes only runs of whole bytes of 0x00 or 0xFF, which is why
// files it writes read back right.
//
// The reader reads a boolean column chunk's pages itself: the page
// headers, the codec, the definition levels and the values, PLAIN
// (bit-packed) or RLE (a 4-byte length, then the RLE/bit-packing hybrid of
// bit width 1), in data pages v1 and v2. The fast path decodes them
// straight into a column (decodeColumn); every other reader of the row
// group (the generic reader, nullRows) gets them through rowGroup, which
// hands out the boolean chunks as pages decoded here.
//
// The columns are never repeated (rounds.void, seats.bonus_auto,
// actions.all_in, and optional boolean columns of later minor versions),
// so a page's definition levels are 0 or 1, one per row.

// rowGroup returns row group g of f with its BOOLEAN column chunks
// decoded by this package.
func rowGroup(f *parquet.File, g int) parquet.RowGroup {
	rg := f.RowGroups()[g]
	ccs := rg.ColumnChunks()
	var out []parquet.ColumnChunk
	md := f.Metadata()
	for c, cc := range ccs {
		if cc.Type().Kind() != parquet.Boolean || g >= len(md.RowGroups) || c >= len(md.RowGroups[g].Columns) {
			continue
		}
		if out == nil {
			out = append([]parquet.ColumnChunk(nil), ccs...)
		}
		bc := &boolChunk{ColumnChunk: cc, col: c, src: f, size: f.Size(), meta: &md.RowGroups[g].Columns[c].MetaData, rows: rg.NumRows()}
		if leaf, ok := rg.Schema().Lookup(rg.Schema().Columns()[c]...); ok {
			bc.maxDef, bc.maxRep = leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel
		}
		out[c] = bc
	}
	if out == nil {
		return rg
	}
	return &boolRowGroup{RowGroup: rg, chunks: out}
}

// boolRowGroup is a file's row group whose BOOLEAN chunks are boolChunks.
type boolRowGroup struct {
	parquet.RowGroup
	chunks []parquet.ColumnChunk
}

func (g *boolRowGroup) ColumnChunks() []parquet.ColumnChunk { return g.chunks }

// Rows reads the rows from the chunks above (a file's row group reads its
// own).
func (g *boolRowGroup) Rows() parquet.Rows { return parquet.NewRowGroupRowReader(g) }

// boolChunk is a BOOLEAN column chunk of a file, decoded by this package.
type boolChunk struct {
	parquet.ColumnChunk             // the file's chunk: type, page index, values
	col                 int         // the column's index
	src                 io.ReaderAt // the file, of size bytes
	size                int64
	meta                *format.ColumnMetaData
	rows                int64
	maxDef, maxRep      int
}

func (c *boolChunk) Column() int { return c.col }

func (c *boolChunk) Pages() parquet.Pages {
	ps := &boolPages{chunk: c, r: new(boolReader)}
	ps.r.reset(c)
	return ps
}

// decode appends the chunk's present values to vals and the rows holding
// null to nulls, and returns them with the chunk's row count. It reads the
// pages with r, whose buffers it reuses.
func (c *boolChunk) decode(r *boolReader, vals []bool, nulls []int) ([]bool, []int, int, error) {
	r.reset(c)
	defer func() { r.c, r.codec = nil, nil }() // the buffers outlive the file, not the file
	rows := 0
	for {
		page, err := r.next()
		if errors.Is(err, io.EOF) {
			return vals, nulls, rows, nil
		}
		if err != nil {
			return vals, nulls, rows, err
		}
		vals = append(vals, page.vals...)
		for i, d := range page.defs {
			if d == 0 {
				nulls = append(nulls, rows+i)
			}
		}
		rows += page.rows()
	}
}

// boolReader reads a boolean chunk's data pages one at a time.
type boolReader struct {
	c        *boolChunk
	codec    compress.Codec
	pos, end int64
	hr       headerReader
	body     []byte // a page as stored
	data     []byte // a page (v2: its values) decompressed
	page     boolPage
}

// reset starts reading chunk c, keeping the buffers.
func (r *boolReader) reset(c *boolChunk) {
	start := c.meta.DataPageOffset
	if c.meta.DictionaryPageOffset != 0 {
		start = c.meta.DictionaryPageOffset
	}
	r.c, r.codec, r.pos, r.end = c, parquet.LookupCompressionCodec(c.meta.Codec), start, start+c.meta.TotalCompressedSize
}

// next decodes the next data page. The page is valid until the next call.
// It returns io.EOF after the last page.
func (r *boolReader) next() (*boolPage, error) {
	c := r.c
	if c.maxRep != 0 || c.maxDef > 1 {
		return nil, fmt.Errorf("a BOOLEAN column nested %d deep and repeated %d times: this reader takes flat boolean columns", c.maxDef, c.maxRep)
	}
	if r.pos >= r.end {
		return nil, io.EOF
	}
	// checkChunk has checked the chunk lies in the file and its pages in
	// the chunk, within maxPageSize; the checks are repeated here, so that
	// this reader stands alone.
	if r.pos < 4 || r.end > c.size {
		return nil, fmt.Errorf("the footer places the chunk at bytes %d to %d of a file of %d bytes", r.pos, r.end, c.size)
	}
	h, n, err := r.hr.read(c.src, r.pos, r.end)
	if err != nil {
		return nil, err
	}
	at := r.pos
	comp, uncomp := int64(h.CompressedPageSize), int64(h.UncompressedPageSize)
	if comp < 0 || uncomp < 0 || comp > maxPageSize || uncomp > maxPageSize || comp > r.end-r.pos-int64(n) {
		return nil, fmt.Errorf("page at byte %d: %d bytes compressed, %d uncompressed, in a chunk ending at byte %d", at, comp, uncomp, r.end)
	}
	r.pos += int64(n)
	if int64(cap(r.body)) < comp {
		r.body = make([]byte, comp)
	}
	body := r.body[:comp]
	if k, err := c.src.ReadAt(body, r.pos); k != len(body) {
		return nil, fmt.Errorf("page at byte %d: %v", at, err)
	}
	r.pos += comp
	p := &r.page
	p.col, p.maxDef = c.col, byte(c.maxDef)
	switch {
	case h.Type == format.DataPage && h.DataPageHeader.Valid:
		err = r.pageV1(&h.DataPageHeader.V, body, int(uncomp))
	case h.Type == format.DataPageV2 && h.DataPageHeaderV2.Valid:
		err = r.pageV2(&h.DataPageHeaderV2.V, body, int(uncomp))
	case h.Type == format.DictionaryPage:
		err = errors.New("a dictionary page: this reader takes BOOLEAN values PLAIN or RLE, not dictionary-encoded")
	default:
		err = fmt.Errorf("a page of type %s", h.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("page at byte %d: %w", at, err)
	}
	return p, nil
}

// decompress returns src decompressed, which must give want bytes.
func (r *boolReader) decompress(src []byte, want int) ([]byte, error) {
	if r.c.meta.Codec == format.Uncompressed {
		if len(src) != want {
			return nil, fmt.Errorf("%d bytes, the header says %d", len(src), want)
		}
		return src, nil
	}
	if r.c.meta.Codec == format.Snappy {
		// The length a snappy block claims is allocated before it is
		// decoded: check it first.
		if n, err := snappy.DecodedLen(src); err != nil || n != want {
			return nil, fmt.Errorf("snappy block of %d bytes (%v), the header says %d", n, err, want)
		}
	}
	if cap(r.data) < want {
		r.data = make([]byte, 0, want)
	}
	out, err := r.codec.Decode(r.data[:0], src)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", r.c.meta.Codec, err)
	}
	if cap(out) <= maxPageSize {
		r.data = out[:0]
	}
	if len(out) != want {
		return nil, fmt.Errorf("%s: %d bytes decompressed, the header says %d", r.c.meta.Codec, len(out), want)
	}
	return out, nil
}

func (r *boolReader) pageV1(h *format.DataPageHeader, body []byte, uncomp int) error {
	n := int(h.NumValues)
	if n < 0 || int64(n) > r.c.rows {
		return fmt.Errorf("%d values in a chunk of %d rows", n, r.c.rows)
	}
	data, err := r.decompress(body, uncomp)
	if err != nil {
		return err
	}
	p := &r.page
	p.defs = p.defs[:0]
	if p.maxDef > 0 {
		switch h.DefinitionLevelEncoding {
		case format.RLE:
			if len(data) < 4 {
				return errors.New("definition levels: no length")
			}
			k := int(binary.LittleEndian.Uint32(data))
			if k < 0 || k > len(data)-4 {
				return fmt.Errorf("definition levels of %d bytes in %d", k, len(data)-4)
			}
			if p.defs, err = appendHybrid(p.defs, data[4:4+k], n, 1); err != nil {
				return fmt.Errorf("definition levels: %v", err)
			}
			data = data[4+k:]
		case format.BitPacked:
			// The deprecated encoding: bits from the most significant.
			k := (n + 7) / 8
			if k > len(data) {
				return fmt.Errorf("definition levels of %d bytes in %d", k, len(data))
			}
			for i := range n {
				p.defs = append(p.defs, data[i/8]>>(7-i%8)&1)
			}
			data = data[k:]
		default:
			return fmt.Errorf("definition levels encoded %s", h.DefinitionLevelEncoding)
		}
	}
	return p.values(h.Encoding, data, n, -1)
}

func (r *boolReader) pageV2(h *format.DataPageHeaderV2, body []byte, uncomp int) error {
	n, nulls := int(h.NumValues), int(h.NumNulls)
	repLen, defLen := int(h.RepetitionLevelsByteLength), int(h.DefinitionLevelsByteLength)
	if n < 0 || int64(n) > r.c.rows || nulls < 0 || nulls > n {
		return fmt.Errorf("%d values, %d of them null, in a chunk of %d rows", n, nulls, r.c.rows)
	}
	if repLen < 0 || defLen < 0 || repLen > len(body)-defLen || repLen+defLen > uncomp {
		return fmt.Errorf("levels of %d and %d bytes in a page of %d", repLen, defLen, len(body))
	}
	// Repetition levels of a column that is not repeated are skipped, as
	// parquet-go does.
	levels, data := body[repLen:repLen+defLen], body[repLen+defLen:]
	p := &r.page
	p.defs = p.defs[:0]
	if p.maxDef > 0 {
		var err error
		if p.defs, err = appendHybrid(p.defs, levels, n, 1); err != nil {
			return fmt.Errorf("definition levels: %v", err)
		}
	} else if nulls != 0 {
		return fmt.Errorf("%d nulls in a required column", nulls)
	}
	want := uncomp - repLen - defLen
	if !h.IsCompressed.Valid || h.IsCompressed.V {
		var err error
		if data, err = r.decompress(data, want); err != nil {
			return err
		}
	} else if len(data) != want {
		return fmt.Errorf("values of %d bytes, the header says %d", len(data), want)
	}
	return p.values(h.Encoding, data, n, nulls)
}

// boolPage is one decoded data page of a boolean column: a parquet.Page
// for parquet-go's readers.
type boolPage struct {
	col    int
	maxDef byte
	vals   []bool // the present values
	defs   []byte // definition levels, one a row; none when maxDef is 0
	bits   []byte // Data's bitmap, made when asked
}

// values decodes the page's values, given its n levels (and, in a v2
// page, the nulls its header gives, or -1).
func (p *boolPage) values(enc format.Encoding, data []byte, n, nulls int) error {
	present := n
	if p.maxDef > 0 {
		present = 0
		for _, d := range p.defs {
			if d == p.maxDef {
				present++
			}
		}
		if nulls >= 0 && present != n-nulls {
			return fmt.Errorf("%d nulls in the header, %d in the definition levels", nulls, n-present)
		}
	}
	p.vals = p.vals[:0]
	p.bits = p.bits[:0]
	if present == 0 {
		return nil // a page of nulls: some writers leave out even the RLE length
	}
	switch enc {
	case format.Plain:
		if (present+7)/8 > len(data) {
			return fmt.Errorf("PLAIN values: %d values in %d bytes", present, len(data))
		}
		for i := range present {
			p.vals = append(p.vals, data[i/8]>>(i%8)&1 == 1)
		}
	case format.RLE:
		if len(data) < 4 {
			return errors.New("RLE values: no length")
		}
		k := int(binary.LittleEndian.Uint32(data))
		if k < 0 || k > len(data)-4 {
			return fmt.Errorf("RLE values: a length of %d bytes in %d", k, len(data)-4)
		}
		var err error
		if p.bits, err = appendHybrid(p.bits, data[4:4+k], present, 0); err != nil {
			return fmt.Errorf("RLE values: %v", err)
		}
		for _, b := range p.bits {
			p.vals = append(p.vals, b == 1)
		}
		p.bits = p.bits[:0]
	default:
		return fmt.Errorf("BOOLEAN values encoded %s: this reader takes PLAIN or RLE", enc)
	}
	return nil
}

// appendHybrid decodes n values of bit width 1 of the RLE/bit-packing
// hybrid encoding from src and appends them to dst as bytes 0 and 1. A
// bit-packed run's values beyond n are its padding. A run's repeated value
// is a byte, 0 or 1; for values (maxLevel 0), 0xFF is also read as 1
// (parquet-go's writer makes it; every reader takes it as true). Levels
// (maxLevel 1) take 0 and 1 only.
func appendHybrid(dst, src []byte, n, maxLevel int) ([]byte, error) {
	want := len(dst) + n
	for len(dst) < want {
		h, k := binary.Uvarint(src)
		if k <= 0 {
			return dst, fmt.Errorf("%d of %d values, then no run header", len(dst)-want+n, n)
		}
		src = src[k:]
		if h&1 == 1 { // bit-packed: h>>1 groups of 8 values, a byte each
			g := h >> 1
			if g > uint64(len(src)) {
				return dst, fmt.Errorf("a bit-packed run of %d groups in %d bytes", g, len(src))
			}
			for _, b := range src[:g] {
				for j := range 8 {
					if len(dst) == want {
						break
					}
					dst = append(dst, b>>j&1)
				}
			}
			src = src[g:]
			continue
		}
		count := h >> 1
		if count == 0 {
			continue // an empty run: nothing to read (parquet-go skips it too)
		}
		if len(src) < 1 {
			return dst, fmt.Errorf("an RLE run of %d values without its value", count)
		}
		v := src[0]
		src = src[1:]
		switch {
		case v <= 1:
		case v == 0xFF && maxLevel == 0:
			v = 1
		default:
			return dst, fmt.Errorf("an RLE run of value %d, want 0 or 1", v)
		}
		k2 := int(min(count, uint64(want-len(dst))))
		for range k2 {
			dst = append(dst, v)
		}
	}
	return dst, nil
}

func (p *boolPage) rows() int {
	if p.maxDef > 0 {
		return len(p.defs)
	}
	return len(p.vals)
}

func (p *boolPage) Type() parquet.Type                   { return parquet.BooleanType }
func (p *boolPage) Column() int                          { return p.col }
func (p *boolPage) Dictionary() parquet.Dictionary       { return nil }
func (p *boolPage) NumRows() int64                       { return int64(p.rows()) }
func (p *boolPage) NumValues() int64                     { return int64(p.rows()) }
func (p *boolPage) NumNulls() int64                      { return int64(p.rows() - len(p.vals)) }
func (p *boolPage) Size() int64                          { return int64(len(p.vals) + len(p.defs)) }
func (p *boolPage) RepetitionLevels() []byte             { return nil }
func (p *boolPage) DefinitionLevels() []byte             { return p.defs }
func (p *boolPage) Values() parquet.ValueReader          { return &boolValues{p: p} }
func (p *boolPage) Bounds() (_, _ parquet.Value, _ bool) { return }

// Data returns the present values as a bitmap.
func (p *boolPage) Data() encoding.Values {
	bits := make([]byte, (len(p.vals)+7)/8)
	for i, v := range p.vals {
		if v {
			bits[i/8] |= 1 << (i % 8)
		}
	}
	return encoding.BooleanValues(bits)
}

// Slice returns rows i to j of the page, in a copy.
func (p *boolPage) Slice(i, j int64) parquet.Page {
	q := &boolPage{col: p.col, maxDef: p.maxDef}
	j = min(max(j, 0), int64(p.rows()))
	i = min(max(i, 0), j)
	if p.maxDef == 0 {
		q.vals = append(q.vals, p.vals[i:j]...)
		return q
	}
	v := 0
	for r, d := range p.defs[:j] {
		if int64(r) >= i {
			q.defs = append(q.defs, d)
			if d == p.maxDef {
				q.vals = append(q.vals, p.vals[v])
			}
		}
		if d == p.maxDef {
			v++
		}
	}
	return q
}

// boolValues reads a boolPage's values, with their levels.
type boolValues struct {
	p    *boolPage
	row  int // next row
	next int // next present value
}

func (r *boolValues) ReadValues(out []parquet.Value) (int, error) {
	p := r.p
	rows := p.rows()
	k := 0
	for ; k < len(out) && r.row < rows; k++ {
		if p.maxDef > 0 && p.defs[r.row] != p.maxDef {
			out[k] = parquet.NullValue().Level(0, int(p.defs[r.row]), p.col)
		} else {
			out[k] = parquet.BooleanValue(p.vals[r.next]).Level(0, int(p.maxDef), p.col)
			r.next++
		}
		r.row++
	}
	if r.row == rows {
		return k, io.EOF
	}
	return k, nil
}

// boolPages hands a boolChunk's pages to parquet-go's readers. Each page
// is a copy, so that it stays valid after the next.
type boolPages struct {
	chunk *boolChunk
	r     *boolReader
}

func (ps *boolPages) ReadPage() (parquet.Page, error) {
	if ps.r == nil {
		return nil, io.EOF
	}
	p, err := ps.r.next()
	if err != nil {
		return nil, err
	}
	return &boolPage{col: p.col, maxDef: p.maxDef, vals: append([]bool(nil), p.vals...), defs: append([]byte(nil), p.defs...)}, nil
}

// SeekToRow goes back to the first row (the readers seek there before
// reading); other rows are not supported.
func (ps *boolPages) SeekToRow(row int64) error {
	if row != 0 {
		return fmt.Errorf("boolean column %d: seeking to row %d is not supported", ps.chunk.col, row)
	}
	ps.r = new(boolReader)
	ps.r.reset(ps.chunk)
	return nil
}

func (ps *boolPages) Close() error {
	ps.r = nil
	return nil
}
