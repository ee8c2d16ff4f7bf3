package roundlog

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// boolPageSpec is one hand-made page of a boolean column chunk.
type boolPageSpec struct {
	v2        bool
	values    []int8 // 1 true, 0 false, -1 null
	enc       format.Encoding
	levelEnc  format.Encoding // v1 pages: RLE or BIT_PACKED
	dict      bool            // a dictionary page instead
	badNulls  bool            // a v2 header with one null too many
	emptyNull bool            // an all-null page without even the RLE length
}

// hybrid1 encodes bits (0 or 1) as the RLE/bit-packing hybrid of bit
// width 1: runs of 8 equal bits or more as RLE runs, the rest bit-packed.
func hybrid1(bits []byte) []byte {
	var out []byte
	for i := 0; i < len(bits); {
		j := i
		for j < len(bits) && bits[j] == bits[i] {
			j++
		}
		if j-i >= 8 || j == len(bits) {
			out = binary.AppendUvarint(out, uint64(j-i)<<1)
			out = append(out, bits[i])
			i = j
			continue
		}
		// One bit-packed group of 8 (padded with zeros at the end).
		var b byte
		for k := 0; k < 8 && i+k < len(bits); k++ {
			b |= bits[i+k] << k
		}
		out = append(out, 1<<1|1, b)
		i = min(i+8, len(bits))
	}
	return out
}

// buildBoolChunk lays out the pages as a column chunk after 4 bytes of
// file magic, compressed with codec (gzip or none).
func buildBoolChunk(t *testing.T, pages []boolPageSpec, maxDef int, gz bool) *boolChunk {
	t.Helper()
	file := []byte("PAR1")
	rows := 0
	for _, p := range pages {
		var defs, vals []byte
		nulls := 0
		for _, v := range p.values {
			if v < 0 {
				nulls++
				defs = append(defs, 0)
				continue
			}
			defs = append(defs, 1)
			vals = append(vals, byte(v))
		}
		rows += len(p.values)
		var data []byte
		switch {
		case p.emptyNull:
		case p.enc == format.Plain:
			data = make([]byte, (len(vals)+7)/8)
			for i, v := range vals {
				data[i/8] |= v << (i % 8)
			}
		default:
			h := hybrid1(vals)
			data = binary.LittleEndian.AppendUint32(nil, uint32(len(h)))
			data = append(data, h...)
		}
		compress := func(b []byte) []byte {
			if !gz {
				return b
			}
			var buf bytes.Buffer
			w := gzip.NewWriter(&buf)
			_, err := w.Write(b)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			return buf.Bytes()
		}
		var h format.PageHeader
		var body []byte
		switch {
		case p.dict:
			h.Type = format.DictionaryPage
			h.DictionaryPageHeader = thrift.New(format.DictionaryPageHeader{NumValues: 2, Encoding: format.Plain})
			body = compress([]byte{0b10})
			h.UncompressedPageSize = 1
		case p.v2:
			var levels []byte
			if maxDef > 0 {
				levels = hybrid1(defs)
			}
			h.Type = format.DataPageV2
			n := nulls
			if p.badNulls {
				n++
			}
			h.DataPageHeaderV2 = thrift.New(format.DataPageHeaderV2{NumValues: int32(len(p.values)), NumNulls: int32(n), NumRows: int32(len(p.values)),
				Encoding: p.enc, DefinitionLevelsByteLength: int32(len(levels))})
			body = append(levels, compress(data)...)
			h.UncompressedPageSize = int32(len(levels) + len(data))
		default:
			var plain []byte
			if maxDef > 0 {
				if p.levelEnc == format.BitPacked {
					lv := make([]byte, (len(defs)+7)/8)
					for i, d := range defs {
						lv[i/8] |= d << (7 - i%8)
					}
					plain = lv
				} else {
					lv := hybrid1(defs)
					plain = append(binary.LittleEndian.AppendUint32(nil, uint32(len(lv))), lv...)
				}
			}
			plain = append(plain, data...)
			h.Type = format.DataPage
			h.DataPageHeader = thrift.New(format.DataPageHeader{NumValues: int32(len(p.values)), Encoding: p.enc,
				DefinitionLevelEncoding: p.levelEnc, RepetitionLevelEncoding: format.RLE})
			body = compress(plain)
			h.UncompressedPageSize = int32(len(plain))
		}
		h.CompressedPageSize = int32(len(body))
		enc, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
		require.NoError(t, err)
		file = append(append(file, enc...), body...)
	}
	codec := format.Uncompressed
	if gz {
		codec = format.Gzip
	}
	meta := &format.ColumnMetaData{Type: format.Boolean, Codec: codec, DataPageOffset: 4, TotalCompressedSize: int64(len(file) - 4)}
	return &boolChunk{src: bytes.NewReader(file), size: int64(len(file)), meta: meta, rows: int64(rows), maxDef: maxDef}
}

// TestBoolPages decodes hand-made pages of every layout this reader
// takes: v1 and v2 pages, PLAIN and RLE values, definition levels RLE or
// BIT_PACKED, compressed or not, several pages a chunk.
func TestBoolPages(t *testing.T) {
	run := func(n, at int) []int8 { // n values, true at at
		v := make([]int8, n)
		v[at] = 1
		return v
	}
	mixed := []int8{1, -1, 0, 1, 1, -1, -1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, 0}
	cases := []struct {
		name   string
		maxDef int
		pages  []boolPageSpec
		err    string
	}{
		{"v1 RLE", 0, []boolPageSpec{{values: run(200, 163), enc: format.RLE}}, ""},
		{"v1 PLAIN", 0, []boolPageSpec{{values: run(200, 163), enc: format.Plain}}, ""},
		{"v2 RLE", 0, []boolPageSpec{{v2: true, values: run(200, 163), enc: format.RLE}}, ""},
		{"v1 RLE optional, RLE levels", 1, []boolPageSpec{{values: mixed, enc: format.RLE, levelEnc: format.RLE}}, ""},
		{"v1 PLAIN optional, BIT_PACKED levels", 1, []boolPageSpec{{values: mixed, enc: format.Plain, levelEnc: format.BitPacked}}, ""},
		{"v2 RLE optional", 1, []boolPageSpec{{v2: true, values: mixed, enc: format.RLE}}, ""},
		{"pages of both versions", 1, []boolPageSpec{
			{values: mixed, enc: format.RLE, levelEnc: format.RLE},
			{v2: true, values: []int8{-1, -1, -1}, enc: format.RLE, emptyNull: true},
			{v2: true, values: mixed, enc: format.Plain},
		}, ""},
		{"a dictionary page", 0, []boolPageSpec{{dict: true}, {values: run(10, 3), enc: format.RLEDictionary}}, "dictionary"},
		{"DELTA_BINARY_PACKED", 0, []boolPageSpec{{values: run(10, 3), enc: format.DeltaBinaryPacked}}, "BOOLEAN values encoded DELTA_BINARY_PACKED"},
		{"nulls the levels do not have", 1, []boolPageSpec{{v2: true, values: mixed, enc: format.RLE, badNulls: true}}, "nulls in the header"},
	}
	for _, c := range cases {
		for _, gz := range []bool{false, true} {
			chunk := buildBoolChunk(t, c.pages, c.maxDef, gz)
			var r boolReader
			vals, nulls, rows, err := chunk.decode(&r, nil, nil)
			if c.err != "" {
				require.Error(t, err, c.name)
				assert.Contains(t, err.Error(), c.err, c.name)
				continue
			}
			require.NoError(t, err, "%s (gzip %v)", c.name, gz)
			var wantVals []bool
			var wantNulls []int
			row := 0
			for _, p := range c.pages {
				for _, v := range p.values {
					if v < 0 {
						wantNulls = append(wantNulls, row)
					} else {
						wantVals = append(wantVals, v == 1)
					}
					row++
				}
			}
			assert.Equal(t, row, rows, c.name)
			assert.Equal(t, wantVals, vals, "%s (gzip %v)", c.name, gz)
			assert.Equal(t, wantNulls, nulls, "%s (gzip %v)", c.name, gz)
		}
	}
}

// TestBoolPagesDamaged: a page that decompresses to another size than its
// header says, or runs past its chunk, is an error.
func TestBoolPagesDamaged(t *testing.T) {
	chunk := buildBoolChunk(t, []boolPageSpec{{values: []int8{1, 0, 1}, enc: format.Plain}}, 0, true)
	chunk.size = chunk.size - 2 // the chunk now runs past the file
	chunk.meta.TotalCompressedSize += 10
	var r boolReader
	_, _, _, err := chunk.decode(&r, nil, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "chunk")

	chunk = buildBoolChunk(t, []boolPageSpec{{values: []int8{1, 0, 1}, enc: format.Plain}}, 0, true)
	b := make([]byte, chunk.size)
	_, err = chunk.src.ReadAt(b, 0)
	require.NoError(t, err)
	// Claim one more uncompressed byte than the page holds.
	h := reencode(t, b[4:], func(h *format.PageHeader) { h.UncompressedPageSize++ })
	var proto thrift.CompactProtocol
	var orig format.PageHeader
	rd := proto.NewReaderFromBytes(b[4:])
	require.NoError(t, thrift.NewDecoder(rd).Decode(&orig))
	nb := append(append(append([]byte(nil), b[:4]...), h...), b[4+rd.BytesRead():]...)
	chunk.src, chunk.size, chunk.meta.TotalCompressedSize = bytes.NewReader(nb), int64(len(nb)), int64(len(nb)-4)
	_, _, _, err = chunk.decode(&r, nil, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the header says")
}

// TestAppendHybrid decodes RLE/bit-packing hybrid runs of bit width 1.
func TestAppendHybrid(t *testing.T) {
	zeros163 := binary.AppendUvarint(nil, 163<<1) // a run of 163 zeros
	cases := []struct {
		name     string
		src      []byte
		n, level int
		want     []byte
		err      string
	}{
		{"runs of 163, 1 and 36", append(append(zeros163, 0), 1<<1, 1, 36<<1, 0), 200, 0, nil, ""},
		{"bit-packed", []byte{1<<1 | 1, 0b00000101}, 3, 0, []byte{1, 0, 1}, ""},
		{"bit-packed groups", []byte{2<<1 | 1, 0xff, 0x01}, 9, 0, []byte{1, 1, 1, 1, 1, 1, 1, 1, 1}, ""},
		{"a run longer than needed", []byte{0x80, 0x80, 0x80, 0x80, 0x08, 1}, 4, 0, []byte{1, 1, 1, 1}, ""},
		{"0xFF as true", []byte{3 << 1, 0xff}, 3, 0, []byte{1, 1, 1}, ""},
		{"an empty run", []byte{0, 1 << 1, 1}, 1, 0, []byte{1}, ""},
		{"0xFF as a level", []byte{3 << 1, 0xff}, 3, 1, nil, "value 255"},
		{"a value of 2", []byte{3 << 1, 2}, 3, 0, nil, "value 2"},
		{"too few values", []byte{2 << 1, 1}, 3, 0, nil, "no run header"},
		{"a truncated bit-packed run", []byte{5<<1 | 1, 1, 2}, 8, 0, nil, "5 groups in 2 bytes"},
		{"a run without its value", []byte{3 << 1}, 3, 0, nil, "without its value"},
		{"a header that overflows", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1, 0, nil, "no run header"},
	}
	for _, c := range cases {
		got, err := appendHybrid(nil, c.src, c.n, c.level)
		if c.err != "" {
			require.Error(t, err, c.name)
			assert.Contains(t, err.Error(), c.err, c.name)
			continue
		}
		require.NoError(t, err, c.name)
		if c.want == nil {
			c.want = make([]byte, 200)
			c.want[163] = 1
		}
		assert.Equal(t, c.want, got, c.name)
	}
}
