package roundlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// The fast path decodes a row group column by column from its pages into
// typed slices, then fills the row structs from them: no per-row
// reflection. It is used when a file's schema is exactly the
// specification's (as this package writes it); other files go through
// parquet-go's generic reader, which converts.

// column is one decoded column chunk: exactly one of the slices is used.
// A column is reused from row group to row group (its slices keep their
// capacity), so that a steady read allocates only the pages' string data.
type column struct {
	i64   []int64
	i32   []int32
	bools []bool
	strs  []string
	lstrs [][]string
	li32  [][]int32
	li64  [][]int64

	// Scratch, also reused.
	starts []int
	nulls  []int
	vs     []parquet.Value
	dc     dictCache
	text   arena      // the bytes of a plain text column's strings
	br     boolReader // a boolean column's pages (booleans.go)
	// keepDict keeps dc from one call of decodeColumn to the next: the
	// sliced reader (slice.go) decodes a column chunk a page at a time.
	keepDict bool
	// nonASCII: a text column's chunk holds a byte above 0x7f, in a
	// value or in a dictionary it uses (possibly in an entry no row
	// uses). When it is false, every value is ASCII, so valid UTF-8.
	nonASCII bool
}

// sameSchema reports whether got has exactly want's leaf columns, in the
// same order, with the same physical types, repetition and optionality,
// and timestamps in the same unit.
func sameSchema(got, want *parquet.Schema) bool {
	gc, wc := got.Columns(), want.Columns()
	if len(gc) != len(wc) {
		return false
	}
	units := timeUnits(want)
	for i, path := range wc {
		g, ok := got.Lookup(path...)
		w, _ := want.Lookup(path...)
		if !ok || g.ColumnIndex != i || !sameColumn(g, w, units[i]) {
			return false
		}
	}
	return true
}

// sameColumn reports whether the leaf g has w's physical type, repetition
// and optionality, and, for a timestamp (unit not ""), the same unit.
func sameColumn(g, w parquet.LeafColumn, unit string) bool {
	return g.Node.Type().Kind() == w.Node.Type().Kind() &&
		g.Node.Optional() == w.Node.Optional() && g.MaxRepetitionLevel == w.MaxRepetitionLevel &&
		g.MaxDefinitionLevel == w.MaxDefinitionLevel && (unit == "" || timeUnit(g.Node.Type()) == unit)
}

// specUnits holds timeUnits of the specification's schemas, which
// sameSchema asks for every row group (a logical type is made anew at
// every call).
var specUnits = func() map[*parquet.Schema][]string {
	m := map[*parquet.Schema][]string{}
	for _, s := range []*parquet.Schema{schemaRounds, schemaBoxes, schemaSeats, schemaActions, schemaPots} {
		m[s] = unitsOf(s)
	}
	return m
}()

// timeUnits gives the unit of each TIMESTAMP column of s, by column index
// ("" for the other columns).
func timeUnits(s *parquet.Schema) []string {
	if u, ok := specUnits[s]; ok {
		return u
	}
	return unitsOf(s)
}

func unitsOf(s *parquet.Schema) []string {
	cols := s.Columns()
	units := make([]string, len(cols))
	for i, path := range cols {
		leaf, _ := s.Lookup(path...)
		units[i] = timeUnit(leaf.Node.Type())
	}
	return units
}

// timeUnit is the unit of a TIMESTAMP column ("" for other columns). The
// fast path takes the int64 values as they are, so a file whose times are
// in milliseconds or nanoseconds is read by the generic reader, which
// converts them to microseconds.
func timeUnit(t parquet.Type) string {
	if lt := t.LogicalType(); lt != nil {
		if ts, ok := lt.Value.(*format.TimestampType); ok {
			return ts.Unit.String()
		}
	}
	return ""
}

// checkReadable refuses a file this reader would misread: a column whose
// annotation gives its values another meaning (checkTypes), or a codec it
// does not read right (checkCodecs). A panic of parquet-go on a malformed
// schema is damage.
func checkReadable(fn, table string, f *parquet.File, want *parquet.Schema) (dmg *DamageError) {
	defer func() {
		if r := recover(); r != nil {
			dmg = &DamageError{File: fn, RowGroup: -1, Row: -1, Reason: fmt.Sprintf("wrong schema: %v", r)}
		}
	}()
	if col, reason := checkTypes(f.Schema(), want); col != "" {
		return &DamageError{File: fn, RowGroup: -1, Row: -1, Column: table + "." + col, Reason: reason}
	}
	if col, reason := checkCodecs(f); reason != "" {
		return &DamageError{File: fn, RowGroup: -1, Row: -1, Column: table + "." + col, Reason: reason}
	}
	return nil
}

// checkCodecs refuses compression codecs other than those this reader
// reads right: UNCOMPRESSED, SNAPPY, GZIP, BROTLI and ZSTD. parquet-go
// v0.32 does not have LZO or the deprecated Hadoop-framed LZ4, and reads
// LZ4_RAW wrong: it decodes a page that compresses less than three times
// into a new buffer, and then reads the values from the buffer it had
// allocated for them, so that values come from stale memory without an
// error (and on a corrupt block it doubles its buffer without end).
func checkCodecs(f *parquet.File) (column, reason string) {
	for _, rg := range f.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			switch codec := cc.MetaData.Codec; codec {
			case format.Uncompressed, format.Snappy, format.Gzip, format.Brotli, format.Zstd:
			case format.Lz4Raw:
				return strings.Join(cc.MetaData.PathInSchema, "."), "compression LZ4_RAW is not read: parquet-go v0.32 misreads its pages (values from stale memory); write the log with ZSTD, SNAPPY, GZIP, BROTLI or no compression"
			default:
				return strings.Join(cc.MetaData.PathInSchema, "."), fmt.Sprintf("compression %s is not read: write the log with ZSTD, SNAPPY, GZIP, BROTLI or no compression", codec)
			}
		}
	}
	return "", ""
}

// checkTypes refuses a column whose annotation says its values mean
// something else than the specification's type: a DECIMAL with a scale
// (an amount in other units), a DATE or TIME where a timestamp or integer
// is due, a TIMESTAMP where an integer is due. A TIMESTAMP in
// milliseconds or nanoseconds is taken (and converted), as is a time
// column written as a plain INT64 of microseconds.
func checkTypes(got, want *parquet.Schema) (column, reason string) {
	for _, path := range want.Columns() {
		g, ok := got.Lookup(path...)
		if !ok {
			continue
		}
		w, _ := want.Lookup(path...)
		lt := g.Node.Type().LogicalType()
		if lt == nil {
			continue
		}
		wantTime := timeUnit(w.Node.Type()) != ""
		switch v := lt.Value.(type) {
		case *format.DecimalType:
			if v.Scale != 0 {
				return path[0], fmt.Sprintf("wrong schema: %s, want %s", v, w.Node.Type())
			}
		case *format.DateType, *format.TimeType:
			return path[0], fmt.Sprintf("wrong schema: %s, want %s", v, w.Node.Type())
		case *format.TimestampType:
			if !wantTime {
				return path[0], fmt.Sprintf("wrong schema: %s, want %s", v, w.Node.Type())
			}
		}
	}
	return "", ""
}

// dictCache holds the decoded strings of the last dictionary seen.
type dictCache struct {
	dict parquet.Dictionary
	// nonASCII: the dictionary's texts hold a byte above 0x7f.
	nonASCII bool
	strs     []string
	i64      []int64
	i32      []int32
}

func (c *dictCache) load(d parquet.Dictionary, kind parquet.Kind) {
	if c.dict == d {
		return
	}
	c.dict = d
	vals := d.Page().Data()
	switch kind {
	case parquet.ByteArray:
		c.strs = splitStrings(vals, c.strs[:0])
		data, _ := vals.ByteArray()
		c.nonASCII = !isASCII(data)
	case parquet.Int64:
		c.i64 = append(c.i64[:0], vals.Int64()...)
	case parquet.Int32:
		c.i32 = append(c.i32[:0], vals.Int32()...)
	}
}

// splitStrings turns a page of byte arrays into strings sharing one
// allocation.
func splitStrings(vals encoding.Values, dst []string) []string {
	data, offs := vals.ByteArray()
	whole := string(data)
	for i := 0; i+1 < len(offs); i++ {
		dst = append(dst, whole[offs[i]:offs[i+1]])
	}
	return dst
}

// isASCII reports whether b holds no byte above 0x7f, eight bytes at a
// time.
func isASCII(b []byte) bool {
	var or uint64
	for len(b) >= 8 {
		or |= binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	for _, c := range b {
		or |= uint64(c)
	}
	return or&0x8080808080808080 == 0
}

// splitInto turns a page of byte arrays into strings in the arena: they
// are valid until the arena is reset.
func splitInto(a *arena, vals encoding.Values, dst []string) []string {
	data, offs := vals.ByteArray()
	base := a.bytes(data)
	for i := 0; i+1 < len(offs); i++ {
		dst = append(dst, a.str(base+int(offs[i]), base+int(offs[i+1])))
	}
	return dst
}

// decodeColumn reads the n rows of one column chunk.
func decodeColumn(cc parquet.ColumnChunk, leaf parquet.LeafColumn, n int, col *column) (err error) {
	kind := leaf.Node.Type().Kind()
	maxDef, repeated := byte(leaf.MaxDefinitionLevel), leaf.MaxRepetitionLevel > 0
	// Values of the whole chunk, present ones only, in order; for a
	// repeated column, starts[r] is the index of row r's first value.
	var strs []string
	var i64 []int64
	var i32 []int32
	var bools []bool
	switch kind {
	case parquet.ByteArray:
		clear(col.strs) // drop the previous row group's strings
		strs = col.strs[:0]
		col.text.reset()
		col.nonASCII = false
	case parquet.Int64:
		i64 = col.i64[:0]
	case parquet.Int32:
		i32 = col.i32[:0]
	case parquet.Boolean:
		bools = col.bools[:0]
	default:
		return fmt.Errorf("unexpected physical type %s", kind)
	}
	starts := col.starts[:0]
	nulls := col.nulls[:0] // rows holding null (non-repeated optional columns)
	dc := &col.dc
	if !col.keepDict {
		dc.dict = nil // a dictionary belongs to its row group
	}
	vs := col.vs
	defer func() { col.starts, col.nulls, col.vs = starts, nulls, vs }()
	rows := 0
	if bc, ok := cc.(*boolChunk); ok {
		// Booleans are decoded by this package (booleans.go).
		if bools, nulls, rows, err = bc.decode(&col.br, bools, nulls); err != nil {
			return err
		}
		return finishColumn(col, kind, n, rows, false, strs, i64, i32, bools, &starts, nulls)
	}
	pages := cc.Pages()
	defer pages.Close()
	for {
		pg, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		before := len(strs) + len(i64) + len(i32) + len(bools)
		err = func() error {
			defer parquet.Release(pg)
			switch {
			case kind == parquet.Boolean: // a chunk not from rowGroup (in memory)
				nv := int(pg.NumValues())
				if cap(vs) < nv {
					vs = make([]parquet.Value, nv)
				}
				k, err := pg.Values().ReadValues(vs[:nv])
				if err != nil && !errors.Is(err, io.EOF) {
					return err
				}
				for _, v := range vs[:k] {
					if !v.IsNull() {
						bools = append(bools, v.Boolean())
					}
				}
			case pg.Dictionary() != nil:
				dc.load(pg.Dictionary(), kind)
				pd := pg.Data()
				var err error
				switch kind {
				case parquet.ByteArray:
					col.nonASCII = col.nonASCII || dc.nonASCII
					strs, err = lookup(strs, dc.strs, pd.Int32())
				case parquet.Int64:
					i64, err = lookup(i64, dc.i64, pd.Int32())
				case parquet.Int32:
					i32, err = lookup(i32, dc.i32, pd.Int32())
				}
				if err != nil {
					return err
				}
			default:
				pd := pg.Data()
				switch kind {
				case parquet.ByteArray:
					if data, _ := pd.ByteArray(); !col.nonASCII && !isASCII(data) {
						col.nonASCII = true
					}
					strs = splitInto(&col.text, pd, strs)
				case parquet.Int64:
					i64 = append(i64, pd.Int64()...)
				case parquet.Int32:
					i32 = append(i32, pd.Int32()...)
				}
			}
			present := len(strs) + len(i64) + len(i32) + len(bools) - before
			defs, reps := pg.DefinitionLevels(), pg.RepetitionLevels()
			switch {
			case !repeated && len(defs) == 0:
				rows += present
			case !repeated:
				got := 0
				for _, d := range defs {
					if d == maxDef {
						got++
					} else {
						nulls = append(nulls, rows)
					}
					rows++
				}
				if got != present {
					return fmt.Errorf("page has %d values but its levels say %d", present, got)
				}
			default:
				if len(reps) != len(defs) {
					return errors.New("page repetition and definition levels differ in length")
				}
				v := before
				for i, d := range defs {
					if reps[i] == 0 {
						starts = append(starts, v)
						rows++
					}
					if d == maxDef {
						v++
					}
				}
				if v-before != present {
					return fmt.Errorf("page has %d values but its levels say %d", present, v-before)
				}
			}
			return nil
		}()
		if err != nil {
			return err
		}
	}
	return finishColumn(col, kind, n, rows, repeated, strs, i64, i32, bools, &starts, nulls)
}

// finishColumn checks the rows of a decoded column chunk and stores its
// values in col: the zero value at the null rows, and for a repeated
// column its rows cut at starts (to which it appends the end).
func finishColumn(col *column, kind parquet.Kind, n, rows int, repeated bool, strs []string, i64 []int64, i32 []int32, bools []bool, starts *[]int, nulls []int) error {
	if rows != n {
		return fmt.Errorf("%d rows in the column chunk, want %d", rows, n)
	}
	if !repeated {
		// Put the zero value at the null rows.
		if len(nulls) > 0 {
			switch kind {
			case parquet.ByteArray:
				strs = spreadNulls(strs, nulls, n)
			case parquet.Int64:
				i64 = spreadNulls(i64, nulls, n)
			case parquet.Int32:
				i32 = spreadNulls(i32, nulls, n)
			case parquet.Boolean:
				bools = spreadNulls(bools, nulls, n)
			}
		}
		col.strs, col.i64, col.i32, col.bools = strs, i64, i32, bools
		return nil
	}
	total := len(strs) + len(i64) + len(i32)
	*starts = append(*starts, total)
	switch kind {
	case parquet.ByteArray:
		col.strs, col.lstrs = strs, splitRows(col.lstrs, strs, *starts)
	case parquet.Int64:
		col.i64, col.li64 = i64, splitRows(col.li64, i64, *starts)
	case parquet.Int32:
		col.i32, col.li32 = i32, splitRows(col.li32, i32, *starts)
	default:
		return fmt.Errorf("unexpected repeated %s column", kind)
	}
	return nil
}

// lookup appends the dictionary values of the indexes ixs to dst.
func lookup[T any](dst, dict []T, ixs []int32) ([]T, error) {
	n := len(dst)
	dst = slices.Grow(dst, len(ixs))[:n+len(ixs)]
	out := dst[n:]
	for k, ix := range ixs {
		if uint32(ix) >= uint32(len(dict)) {
			return dst[:n], fmt.Errorf("dictionary index %d out of range", ix)
		}
		out[k] = dict[ix]
	}
	return dst, nil
}

// spreadNulls returns the n rows of a column whose present values are vals
// and whose null rows (ascending) are nulls, in vals's own storage: it
// grows vals to n and moves each value to its row, from the last row down.
func spreadNulls[T any](vals []T, nulls []int, n int) []T {
	present := len(vals)
	vals = slices.Grow(vals, n-present)[:n]
	v, k := present-1, len(nulls)-1
	var zero T
	for r := n - 1; r >= 0; r-- {
		if k >= 0 && nulls[k] == r {
			k--
			vals[r] = zero
			continue
		}
		vals[r] = vals[v]
		v--
	}
	return vals
}

// splitRows cuts the flat values of a repeated column into rows, in out's
// storage.
func splitRows[T any](out [][]T, vals []T, starts []int) [][]T {
	out = slices.Grow(out[:0], len(starts)-1)[:len(starts)-1]
	for r := range out {
		a, b := starts[r], starts[r+1]
		if a < b {
			out[r] = vals[a:b:b]
		} else {
			out[r] = nil
		}
	}
	return out
}

// decodeColumns decodes every column of rg into cols, by name, reusing
// the columns already there.
func decodeColumns(rg parquet.RowGroup, table string, cols map[string]*column) error {
	n := int(rg.NumRows())
	sch := rg.Schema()
	ccs := rg.ColumnChunks()
	for _, path := range sch.Columns() {
		leaf, _ := sch.Lookup(path...)
		col := cols[path[0]]
		if col == nil {
			col = &column{}
			cols[path[0]] = col
		}
		if err := decodeColumn(ccs[leaf.ColumnIndex], leaf, n, col); err != nil {
			return fmt.Errorf("corrupt row group: column %s.%s: %v", table, path[0], err)
		}
	}
	return nil
}
