package roundlog

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// v10Type is the type of a rounds row as schema version 1.0 wrote it:
// roundRow without the columns later minor versions added, in the same
// order.
func v10Type() reflect.Type {
	rt := reflect.TypeOf(roundRow{})
	var fs []reflect.StructField
	for i := range rt.NumField() {
		f := rt.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		if !slices.Contains(addedColumns, name) {
			fs = append(fs, f)
		}
	}
	return reflect.StructOf(fs)
}

// rewriteV10 rewrites the rounds file at path as a 1.0 writer wrote it
// (one row group); reordered puts its columns in alphabetical order, so
// that the generic reader reads it.
func rewriteV10(t *testing.T, path string, reordered bool) {
	t.Helper()
	rows, err := parquet.ReadFile[roundRow](path)
	require.NoError(t, err)
	typ := v10Type()
	sch := parquet.SchemaOf(reflect.New(typ).Interface())
	if reordered {
		g := parquet.Group{}
		for _, f := range sch.Fields() {
			g[f.Name()] = f
		}
		sch = parquet.NewSchema(TableRounds, g)
	} else {
		sch = parquet.NewSchema(TableRounds, sch)
	}
	for _, name := range addedColumns {
		require.False(t, hasField(sch, name), name)
	}
	f, err := os.Create(path)
	require.NoError(t, err)
	w := parquet.NewWriter(f, sch, parquet.CreatedBy("fairhold-roundlog", "1.0", "1"),
		parquet.KeyValueMetadata(MetaSchemaVersion, "1.0"), parquet.KeyValueMetadata(MetaTable, TableRounds))
	for i := range rows {
		v := reflect.New(typ)
		src := reflect.ValueOf(rows[i])
		for j := range typ.NumField() {
			v.Elem().Field(j).Set(src.FieldByName(typ.Field(j).Name))
		}
		require.NoError(t, w.Write(v.Interface()))
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
}

// TestReadsVersion10 reads rounds files of schema version 1.0, without
// the optional columns 1.1 added: they read as null (no table number, no
// rotation), by the fast path for a file in the specification's column
// order and by the generic reader for another order; and a 1.1 file
// holds them.
func TestReadsVersion10(t *testing.T) {
	rs := sample(300)
	for i := range rs {
		rs[i].TableSeq = uint64(i + 1)
		rs[i].Fairness.ClientSeedRotated = i%5 == 0
		n := len(rs[i].Boxes)
		if rs[i].Double != nil {
			n = len(rs[i].Double.Seats)
		}
		for k := range n {
			rs[i].WalletIDs = append(rs[i].WalletIDs, fmt.Sprintf("w-%d-%d", i%7, k))
		}
	}
	want := jsonRoundTrip(t, rs)
	dir := t.TempDir()
	writeParquet(t, dir, rs, Options{})
	got, _, dmg := readAll(t, dir)
	require.Empty(t, dmg)
	require.Equal(t, want, got, "1.2 round trip")
	pf := openFile(t, TablePath(dir, TableRounds, "part-00000", "parquet"))
	v, _ := pf.Lookup(MetaSchemaVersion)
	assert.Equal(t, SchemaVersion, v)
	assert.Equal(t, "1.2", SchemaVersion)

	for i := range want {
		want[i].TableSeq, want[i].Fairness.ClientSeedRotated, want[i].WalletIDs = 0, false, nil
	}
	for _, reordered := range []bool{false, true} {
		d := t.TempDir()
		writeParquet(t, d, rs, Options{})
		path := TablePath(d, TableRounds, "part-00000", "parquet")
		rewriteV10(t, path, reordered)
		pf := openFile(t, path)
		assert.Equal(t, !reordered, fastRounds(pf.Schema()), "reordered %v", reordered)
		got, _, dmg := readAll(t, d)
		require.Empty(t, dmg, "reordered %v", reordered)
		assert.Equal(t, want, got, "reordered %v", reordered)
	}

	// A 1.0 file after a 1.1 file: the reused column buffers do not carry
	// the 1.1 file's table numbers over.
	d := t.TempDir()
	writeParquet(t, d, rs, Options{RowGroupRounds: 100, FileRounds: 100})
	rewriteV10(t, TablePath(d, TableRounds, "part-00001", "parquet"), false)
	got, _, dmg = readAll(t, d)
	require.Empty(t, dmg)
	for i, r := range got {
		if i >= 100 && i < 200 {
			assert.Zero(t, r.TableSeq, "row %d", i)
		} else {
			assert.Equal(t, uint64(i+1), r.TableSeq, "row %d", i)
		}
	}
}

// TestRoundColumnsKept: the decoded columns of the rounds table, the added
// list wallet_ids among them, are kept from row group to row group (their
// buffers reused), and an added column a row group lacks is dropped.
func TestRoundColumnsKept(t *testing.T) {
	rs := sample(200)
	for i := range rs {
		n := len(rs[i].Boxes)
		if rs[i].Double != nil {
			n = len(rs[i].Double.Seats)
		}
		for k := range n {
			rs[i].WalletIDs = append(rs[i].WalletIDs, fmt.Sprintf("w-%d-%d", i%7, k))
		}
	}
	d := t.TempDir()
	writeParquet(t, d, rs, Options{RowGroupRounds: 100, FileRounds: 100})
	first := openFile(t, TablePath(d, TableRounds, "part-00000", "parquet"))
	second := openFile(t, TablePath(d, TableRounds, "part-00001", "parquet"))
	require.True(t, hasField(first.Schema(), "wallet_ids"))
	require.False(t, hasField(first.Schema(), "list"))
	cols := map[string]*column{}
	require.NoError(t, decodeRoundColumns(first.RowGroups()[0], cols))
	kept := map[string]*column{}
	for _, name := range addedColumns {
		require.NotNil(t, cols[name], name)
		kept[name] = cols[name]
	}
	require.NoError(t, decodeRoundColumns(second.RowGroups()[0], cols))
	for _, name := range addedColumns {
		assert.Same(t, kept[name], cols[name], name)
	}
	assert.Equal(t, rs[100].WalletIDs, cols["wallet_ids"].lstrs[0])

	rewriteV10(t, TablePath(d, TableRounds, "part-00001", "parquet"), false)
	second = openFile(t, TablePath(d, TableRounds, "part-00001", "parquet"))
	require.NoError(t, decodeRoundColumns(second.RowGroups()[0], cols))
	for _, name := range addedColumns {
		assert.Nil(t, cols[name], name)
	}
}
