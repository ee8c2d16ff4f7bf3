package roundlog

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Files of other layouts, units, codecs and encodings than this package
// writes (docs/log-format.md, section 3.5), made with parquet-go.

// TestTimestampUnits reads times written in milliseconds and nanoseconds,
// the columns in the specification's order (converted to microseconds by
// the generic reader; the fast path, which takes the int64 as it is, read
// them as microseconds), and refuses columns whose annotations give their
// values another meaning.
func TestTimestampUnits(t *testing.T) {
	type micros struct {
		T int64 `parquet:"t,timestamp(microsecond)"`
	}
	type millis struct {
		T int64 `parquet:"t,timestamp(millisecond)"`
	}
	assert.True(t, sameSchema(parquet.SchemaOf(micros{}), parquet.SchemaOf(micros{})))
	assert.False(t, sameSchema(parquet.SchemaOf(millis{}), parquet.SchemaOf(micros{})))

	dir, rs := casinoDataset(t, 30, 30, nil)
	p := TablePath(dir, TableRounds, "part-00000", "parquet")
	rows, err := readGroup(openFile(t, p).RowGroups()[0], []roundRow(nil))
	require.NoError(t, err)
	kv := []string{MetaSchemaVersion, SchemaVersion, MetaTable, TableRounds}
	// Times not adjusted to UTC ("local") are taken as UTC, whatever the
	// local time zone.
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.FixedZone("UTC-5", -5*3600)
	for _, u := range []struct {
		name     string
		mul, div int64
	}{{"millisecond", 1, 1000}, {"nanosecond", 1000, 1}, {"microsecond:local", 1, 1}, {"millisecond:local", 1, 1000}} {
		scaled := append([]roundRow(nil), rows...)
		for i := range scaled {
			r := &scaled[i]
			r.Time, r.CommittedAt, r.RevealedAt = r.Time*u.mul/u.div, r.CommittedAt*u.mul/u.div, r.RevealedAt*u.mul/u.div
		}
		writeRetagged(t, p, scaled, map[string]string{
			"time":         "time,timestamp(" + u.name + ")",
			"committed_at": "committed_at,optional,timestamp(" + u.name + ")",
			"revealed_at":  "revealed_at,optional,timestamp(" + u.name + ")",
		}, nil, kv...)
		got, _, dmg := readAll(t, dir)
		require.Empty(t, dmg, u.name)
		want := jsonRoundTrip(t, rs) // the sample's times are whole milliseconds
		require.Len(t, got, len(want))
		for i := range want {
			require.Equal(t, want[i].Time, got[i].Time, "%s: row %d", u.name, i)
			require.Equal(t, want[i], got[i], "%s: row %d", u.name, i)
		}
	}

	for _, c := range []struct {
		column string
		node   parquet.Node
		reason string
	}{
		{"nonce", parquet.Decimal(2, 18, parquet.Int64Type), "DECIMAL"},
		{"time", parquet.Time(parquet.Microsecond), "TIME"},
		{"nonce", parquet.Timestamp(parquet.Microsecond), "TIMESTAMP"},
	} {
		writeWithNodes(t, p, rows, map[string]parquet.Node{c.column: c.node}, kv...)
		d, err := Open(dir)
		require.NoError(t, err)
		require.Len(t, d.Damage(), 1, c.reason)
		assert.Equal(t, "rounds."+c.column, d.Damage()[0].Column)
		assert.Contains(t, d.Damage()[0].Reason, "wrong schema: "+c.reason)
		d.Close()
	}
}

// writeRetagged writes rows as writeRaw does (the columns in the
// specification's order), with the parquet tags of the given columns
// replaced, and the writer options opts.
func writeRetagged[T any](t *testing.T, path string, rows []T, tags map[string]string, opts []parquet.WriterOption, kv ...string) {
	t.Helper()
	typ := reflect.TypeFor[T]()
	var fields []reflect.StructField
	for i := range typ.NumField() {
		sf := typ.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("parquet"), ",")
		if tag, ok := tags[name]; ok {
			sf.Tag = reflect.StructTag(`parquet:"` + tag + `"`)
		}
		fields = append(fields, sf)
	}
	retagged := reflect.StructOf(fields)
	f, err := os.Create(path)
	require.NoError(t, err)
	opts = append([]parquet.WriterOption{parquet.CreatedBy("test", "1", ""), parquet.SchemaOf(reflect.New(retagged).Interface())}, opts...)
	for i := 0; i+1 < len(kv); i += 2 {
		opts = append(opts, parquet.KeyValueMetadata(kv[i], kv[i+1]))
	}
	w := parquet.NewWriter(f, opts...)
	for i := range rows {
		v := reflect.New(retagged)
		v.Elem().Set(reflect.ValueOf(rows[i]).Convert(retagged))
		require.NoError(t, w.Write(v.Interface()))
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
}

// writeWithNodes writes rows as writeReordered does (the columns in
// alphabetical order), with the given columns' nodes replaced.
func writeWithNodes[T any](t *testing.T, path string, rows []T, nodes map[string]parquet.Node, kv ...string) {
	t.Helper()
	g := parquet.Group{}
	for _, f := range parquet.SchemaOf(new(T)).Fields() {
		g[f.Name()] = f
		if n, ok := nodes[f.Name()]; ok {
			g[f.Name()] = n
		}
	}
	f, err := os.Create(path)
	require.NoError(t, err)
	opts := []parquet.WriterOption{parquet.CreatedBy("test", "1", ""), parquet.NewSchema("nodes", g)}
	for i := 0; i+1 < len(kv); i += 2 {
		opts = append(opts, parquet.KeyValueMetadata(kv[i], kv[i+1]))
	}
	w := parquet.NewWriter(f, opts...)
	for i := range rows {
		require.NoError(t, w.Write(&rows[i]))
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
}

// encodingTags gives every column of T that is not a list the encoding
// enc ("plain", "delta" or "split") where parquet-go has it for the
// column's type, in place of the specification's "dict".
func encodingTags[T any](enc string) map[string]string {
	if enc == "" {
		return nil // the specification's tags
	}
	tags := map[string]string{}
	typ := reflect.TypeFor[T]()
	for i := range typ.NumField() {
		sf := typ.Field(i)
		var opts []string
		for _, o := range strings.Split(sf.Tag.Get("parquet"), ",") {
			if o != "dict" {
				opts = append(opts, o)
			}
		}
		switch k := sf.Type.Kind(); {
		case k == reflect.Slice:
			continue
		case enc == "plain", enc == "delta" && k != reflect.Bool, enc == "split" && (k == reflect.Int32 || k == reflect.Int64):
			opts = append(opts, enc)
		}
		tags[opts[0]] = strings.Join(opts, ",")
	}
	return tags
}

// TestCodecsPagesEncodings reads logs parquet-go writes with every codec
// it has, data pages v1 and v2, and the encodings PLAIN, RLE_DICTIONARY,
// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and
// BYTE_STREAM_SPLIT, on the fast path (the schema is the
// specification's).
func TestCodecsPagesEncodings(t *testing.T) {
	rs := sample(60)
	src := t.TempDir()
	writeParquet(t, src, rs, Options{RowGroupRounds: 60}) // one row group a table
	want := jsonRoundTrip(t, rs)
	type variant struct {
		name    string
		codec   parquet.WriterOption
		version int
		enc     string
	}
	var variants []variant
	for _, codec := range []struct {
		name string
		opt  parquet.WriterOption
	}{
		{"UNCOMPRESSED", parquet.Compression(&parquet.Uncompressed)}, {"SNAPPY", parquet.Compression(&parquet.Snappy)},
		{"GZIP", parquet.Compression(&parquet.Gzip)}, {"BROTLI", parquet.Compression(&parquet.Brotli)},
		{"ZSTD", parquet.Compression(&parquet.Zstd)}, {"LZ4_RAW", parquet.Compression(&parquet.Lz4Raw)},
	} {
		for _, v := range []int{1, 2} {
			variants = append(variants, variant{codec.name, codec.opt, v, ""})
		}
	}
	for _, enc := range []string{"plain", "delta", "split"} {
		for _, v := range []int{1, 2} {
			variants = append(variants, variant{enc, parquet.Compression(&parquet.Snappy), v, enc})
		}
	}
	for _, v := range variants {
		dir := t.TempDir()
		opts := []parquet.WriterOption{v.codec, parquet.DataPageVersion(v.version)}
		rewriteTable[roundRow](t, src, dir, TableRounds, v.enc, opts)
		rewriteTable[boxRow](t, src, dir, TableBoxes, v.enc, opts)
		rewriteTable[seatRow](t, src, dir, TableSeats, v.enc, opts)
		rewriteTable[actionRow](t, src, dir, TableActions, v.enc, opts)
		rewriteTable[potRow](t, src, dir, TablePots, v.enc, opts)
		if v.name == "LZ4_RAW" {
			d, err := Open(dir)
			require.NoError(t, err)
			require.Len(t, d.Damage(), 1, "the rounds file (the others are not opened)")
			assert.Equal(t, -1, d.Damage()[0].RowGroup)
			assert.Equal(t, "rounds.round_id", d.Damage()[0].Column)
			assert.Contains(t, d.Damage()[0].Reason, "compression LZ4_RAW is not read")
			d.Close()
			continue
		}
		got, _, dmg := readAll(t, dir)
		require.Empty(t, dmg, "%s v%d", v.name, v.version)
		require.Len(t, got, len(want), "%s v%d", v.name, v.version)
		for i := range want {
			require.Equal(t, want[i], got[i], "%s v%d: round %d", v.name, v.version, i)
		}
		f := openFile(t, TablePath(dir, TableRounds, "part-00000", "parquet"))
		assert.True(t, sameSchema(f.Schema(), schemaRounds), "%s v%d: the fast path", v.name, v.version)
		// The file has what the variant says.
		encs := map[format.Encoding]bool{}
		pageTypes := map[format.PageType]bool{}
		for _, cc := range f.Metadata().RowGroups[0].Columns {
			for _, e := range cc.MetaData.Encoding {
				if len(cc.MetaData.PathInSchema) == 1 { // lists keep their dictionaries
					encs[e] = true
				}
			}
			var hr headerReader
			h, _, err := hr.read(f, cc.MetaData.DataPageOffset, cc.MetaData.DataPageOffset+cc.MetaData.TotalCompressedSize)
			require.NoError(t, err)
			pageTypes[h.Type] = true
		}
		assert.Equal(t, map[format.PageType]bool{map[int]format.PageType{1: format.DataPage, 2: format.DataPageV2}[v.version]: true}, pageTypes, "%s v%d", v.name, v.version)
		switch v.enc {
		case "plain":
			assert.False(t, encs[format.RLEDictionary] || encs[format.DeltaBinaryPacked] || encs[format.DeltaLengthByteArray], "%s: %v", v.name, encs)
		case "delta":
			assert.True(t, encs[format.DeltaBinaryPacked] && encs[format.DeltaByteArray], "%s: %v", v.name, encs)
		case "split":
			assert.True(t, encs[format.ByteStreamSplit], "%s: %v", v.name, encs)
		default: // the specification's tags: parquet-go writes round_id DELTA_LENGTH_BYTE_ARRAY
			assert.True(t, encs[format.RLEDictionary] && encs[format.DeltaLengthByteArray], "%s: %v", v.name, encs)
		}
	}
}

// rewriteTable writes table of the dataset in src into dst with parquet-go,
// the writer options opts and the encodings enc (encodingTags).
func rewriteTable[T any](t *testing.T, src, dst, table, enc string, opts []parquet.WriterOption) {
	t.Helper()
	f := openFile(t, TablePath(src, table, "part-00000", "parquet"))
	var all []T
	for g := range f.RowGroups() {
		rows, err := readGroup(rowGroup(f, g), []T(nil))
		require.NoError(t, err)
		all = append(all, rows...)
	}
	out := TablePath(dst, table, "part-00000", "parquet")
	require.NoError(t, os.MkdirAll(filepath.Dir(out), 0o755))
	writeRetagged(t, out, all, encodingTags[T](enc), opts,
		MetaSchemaVersion, SchemaVersion, MetaTable, table)
}

// TestParquetGoMisreadsLZ4Raw keeps the reason LZ4_RAW is refused:
// parquet-go reads values that compress less than three times from stale
// memory, without an error. When it fails, parquet-go reads LZ4_RAW right
// and checkCodecs may take it.
func TestParquetGoMisreadsLZ4Raw(t *testing.T) {
	type row struct {
		V int64 `parquet:"v,plain"`
	}
	rows := make([]row, 5000)
	x := uint64(1)
	for i := range rows {
		x = x*6364136223846793005 + 1442695040888963407 // values that do not compress
		rows[i].V = int64(x >> 1)
	}
	p := filepath.Join(t.TempDir(), "x.parquet")
	f, err := os.Create(p)
	require.NoError(t, err)
	w := parquet.NewGenericWriter[row](f, parquet.Compression(&parquet.Lz4Raw))
	_, err = w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	got := make([]row, len(rows))
	r := parquet.NewGenericReader[row](openFile(t, p))
	n, _ := r.Read(got)
	require.Equal(t, len(rows), n)
	assert.NotEqual(t, rows, got, "parquet-go misreads LZ4_RAW pages")
}

// TestRefusedCodecs: a file compressed with a codec parquet-go does not
// have (LZO, the Hadoop-framed LZ4) is damage naming the codec, found when
// the dataset is opened.
func TestRefusedCodecs(t *testing.T) {
	for _, codec := range []format.CompressionCodec{format.LZO, format.Lz4} {
		dir, _ := casinoDataset(t, 10, 10, nil)
		p := TablePath(dir, TableRounds, "part-00000", "parquet")
		rewriteFooter(t, p, func(md *format.FileMetaData) {
			for g := range md.RowGroups {
				for c := range md.RowGroups[g].Columns {
					md.RowGroups[g].Columns[c].MetaData.Codec = codec
				}
			}
		})
		d, err := Open(dir)
		require.NoError(t, err)
		require.Len(t, d.Damage(), 1, codec)
		assert.Equal(t, p, d.Damage()[0].File)
		assert.Contains(t, d.Damage()[0].Reason, "compression "+codec.String()+" is not read")
		d.Close()
	}
}
