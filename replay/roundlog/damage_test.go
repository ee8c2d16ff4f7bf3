package roundlog

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
)

// writeRaw writes rows as a Parquet file with the given key-value metadata.
func writeRaw[T any](t *testing.T, path string, rows []T, kv ...string) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	opts := []parquet.WriterOption{parquet.CreatedBy("test", "1", "")}
	for i := 0; i+1 < len(kv); i += 2 {
		opts = append(opts, parquet.KeyValueMetadata(kv[i], kv[i+1]))
	}
	w := parquet.NewGenericWriter[T](f, opts...)
	_, err = w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
}

// writeReordered writes rows as writeRaw does, but with the columns in
// alphabetical order (a parquet.Group's), so that the schema is not exactly
// the specification's and the generic reader reads the file.
func writeReordered[T any](t *testing.T, path string, rows []T, kv ...string) {
	t.Helper()
	g := parquet.Group{}
	for _, f := range parquet.SchemaOf(new(T)).Fields() {
		g[f.Name()] = f
	}
	f, err := os.Create(path)
	require.NoError(t, err)
	opts := []parquet.WriterOption{parquet.CreatedBy("test", "1", ""), parquet.NewSchema("reordered", g)}
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

// openFile opens the Parquet file at path for the rest of the test.
func openFile(t *testing.T, path string) *parquet.File {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	require.NoError(t, err)
	pf, err := parquet.OpenFile(f, st.Size())
	require.NoError(t, err)
	return pf
}

// casinoDataset writes n single-box rounds in row groups of rg.
func casinoDataset(t *testing.T, n, rg int, edit func(i int, r *round.Round)) (string, []round.Round) {
	dir := t.TempDir()
	rs := casinoRounds(n)
	for i := range rs {
		if edit != nil {
			edit(i, &rs[i])
		}
	}
	writeParquet(t, dir, rs, Options{RowGroupRounds: rg})
	return dir, rs
}

func TestDamageValues(t *testing.T) {
	rounds := filepath.Join(TableRounds, "part-00000.parquet")
	boxes := filepath.Join(TableBoxes, "part-00000.parquet")
	for _, tc := range []struct {
		name    string
		edit    func(r *round.Round)
		file    string
		column  string
		row     int64 // row within file
		rowRG   int
		wantMsg string
	}{
		{"invalid board card", func(r *round.Round) { r.Board[1] = "Zz" }, rounds, "rounds.board_2", 13, 1, "invalid card"},
		{"invalid box card", func(r *round.Round) { r.Boxes[0].Cards[0] = "1x" }, boxes, "boxes.card_1", 13, 1, "invalid card"},
		{"negative ante", func(r *round.Round) { r.Boxes[0].Ante = -5 }, boxes, "boxes.ante", 13, 1, "negative"},
		{"empty round id", func(r *round.Round) { r.RoundID = "" }, rounds, "rounds.round_id", 13, 1, "empty"},
		{"unknown game", func(r *round.Round) { r.Game = "poker" }, rounds, "rounds.game", 13, 1, "unknown game"},
		{"no currency", func(r *round.Round) { r.Currency = "" }, rounds, "rounds.currency", 13, 1, "want a currency code"},
		{"currency not a code", func(r *round.Round) { r.Currency = "eur" }, rounds, "rounds.currency", 13, 1, `"eur": want a currency code, 2 to 10 of A-Z and 0-9`},
		{"currency too long", func(r *round.Round) { r.Currency = "ABCDEFGHIJK" }, rounds, "rounds.currency", 13, 1, "want a currency code"},
		{"currency starting with a digit", func(r *round.Round) { r.Currency = "1INCH" }, rounds, "rounds.currency", 13, 1, "want a currency code"},
		{"two wallet ids for one box", func(r *round.Round) { r.WalletIDs = []string{"w1", "w2"} }, rounds, "rounds.wallet_ids", 13, 1, "2 wallet ids for 1 boxes or seats: want one per box or seat, or none"},
		{"an empty wallet id", func(r *round.Round) { r.WalletIDs = []string{""} }, rounds, "rounds.wallet_ids", 13, 1, "an empty wallet id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, rs := casinoDataset(t, 40, 10, func(i int, r *round.Round) {
				if i == 13 {
					tc.edit(r)
				}
			})
			got, _, dmg := readAll(t, dir)
			require.Len(t, dmg, 1)
			d := dmg[0]
			assert.Equal(t, filepath.Join(dir, tc.file), d.File)
			assert.Equal(t, tc.rowRG, d.RowGroup)
			assert.Equal(t, tc.row, d.Row)
			assert.Equal(t, tc.column, d.Column)
			assert.Contains(t, d.Error(), tc.wantMsg)
			assert.Contains(t, d.Error(), "row group 1")
			// Read after the later row groups reused the reader's buffers:
			// the damage owns its round id.
			assert.Equal(t, rs[13].RoundID, d.RoundID)
			want := jsonRoundTrip(t, append(append([]round.Round{}, rs[:13]...), rs[14:]...))
			assert.Equal(t, want, got, "every other round is read")
		})
	}
}

// TestReadOverflowAndCryptoCodes: amounts whose sums overflow int64 are
// each valid int64 values: the reader hands the round on (the replay
// reports AMOUNT_OVERFLOW and checks the rest of it). Crypto codes and
// codes of the accepted form are read.
func TestReadOverflowAndCryptoCodes(t *testing.T) {
	dir, rs := casinoDataset(t, 40, 10, func(i int, r *round.Round) {
		switch i {
		case 13:
			r.Boxes[0].BalanceBefore = math.MaxInt64
		case 14:
			r.Boxes[0].AnteReturn, r.Boxes[0].CallReturn = math.MaxInt64, math.MaxInt64
		case 15:
			r.Currency = "USDT"
		case 16:
			r.Currency = "A1B2C3D4E5"
		}
	})
	got, _, dmg := readAll(t, dir)
	assert.Empty(t, dmg)
	assert.Equal(t, jsonRoundTrip(t, rs), got)
}

func TestDamageFiles(t *testing.T) {
	t.Run("truncated", func(t *testing.T) {
		dir := t.TempDir()
		rs := casinoRounds(60)
		writeParquet(t, dir, rs, Options{RowGroupRounds: 10, FileRounds: 30})
		p := TablePath(dir, TableRounds, "part-00000", "parquet")
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(p, b[:len(b)/2], 0o644))
		got, _, dmg := readAll(t, dir)
		require.Len(t, dmg, 1)
		assert.Equal(t, p, dmg[0].File)
		assert.Equal(t, -1, dmg[0].RowGroup)
		assert.Contains(t, dmg[0].Error(), "truncated")
		assert.Equal(t, jsonRoundTrip(t, rs[30:]), got, "the other part is read")
	})
	t.Run("corrupt row group", func(t *testing.T) {
		dir, rs := casinoDataset(t, 40, 10, nil)
		p := TablePath(dir, TableRounds, "part-00000", "parquet")
		rg := openFile(t, p).Metadata().RowGroups[2]
		start := rg.Columns[0].MetaData.DataPageOffset
		end := rg.Columns[len(rg.Columns)-1].MetaData.DataPageOffset
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		for i := start; i < end; i++ {
			b[i] = 0xff
		}
		require.NoError(t, os.WriteFile(p, b, 0o644))
		got, _, dmg := readAll(t, dir)
		require.NotEmpty(t, dmg)
		assert.Equal(t, p, dmg[0].File)
		assert.Equal(t, 2, dmg[0].RowGroup)
		assert.Contains(t, dmg[0].Error(), "corrupt")
		assert.Equal(t, jsonRoundTrip(t, append(append([]round.Round{}, rs[:20]...), rs[30:]...)), got)
	})
	t.Run("child row of another round", func(t *testing.T) {
		// The boxes file says by round_row that a row is round 7's, and by
		// round_id that it is round 8's: a SQL join on round_id would give
		// round 8 two boxes. Both the fast and the generic reader see it.
		for _, generic := range []bool{false, true} {
			dir, rs := casinoDataset(t, 20, 20, nil)
			p := TablePath(dir, TableBoxes, "part-00000", "parquet")
			rows, err := readGroup(openFile(t, p).RowGroups()[0], []boxRow(nil))
			require.NoError(t, err)
			rows[7].RoundID = rows[8].RoundID
			kv := []string{MetaSchemaVersion, SchemaVersion, MetaTable, TableBoxes}
			if generic {
				writeReordered(t, p, rows, kv...)
			} else {
				writeRaw(t, p, rows, kv...)
			}
			got, _, dmg := readAll(t, dir)
			require.Len(t, dmg, 1, "generic %v", generic)
			assert.Equal(t, p, dmg[0].File)
			assert.Equal(t, int64(7), dmg[0].Row)
			assert.Equal(t, "round_id", dmg[0].Column)
			assert.Equal(t, rs[7].RoundID, dmg[0].RoundID)
			assert.Contains(t, dmg[0].Error(), rs[8].RoundID)
			assert.Equal(t, jsonRoundTrip(t, append(append([]round.Round{}, rs[:7]...), rs[8:]...)), got, "the other rounds are read")
		}
	})
	t.Run("wrong schema", func(t *testing.T) {
		dir := t.TempDir()
		type other struct {
			RoundID string `parquet:"round_id"`
			Time    string `parquet:"time"`
		}
		writeRaw(t, filepath.Join(dir, "x.rounds.parquet"), []other{{"a", "b"}}, MetaSchemaVersion, SchemaVersion, MetaTable, TableRounds)
		d, err := Open(dir)
		require.NoError(t, err)
		defer d.Close()
		require.Len(t, d.Damage(), 1)
		assert.Contains(t, d.Damage()[0].Error(), "wrong schema")
		assert.Equal(t, "rounds.time", d.Damage()[0].Column)
		assert.Empty(t, d.Units())
	})
	t.Run("missing column", func(t *testing.T) {
		dir := t.TempDir()
		type partial struct {
			RoundID string `parquet:"round_id"`
		}
		writeRaw(t, filepath.Join(dir, "x.rounds.parquet"), []partial{{"a"}}, MetaSchemaVersion, SchemaVersion, MetaTable, TableRounds)
		d, err := Open(dir)
		require.NoError(t, err)
		defer d.Close()
		require.Len(t, d.Damage(), 1)
		assert.Equal(t, "rounds.game", d.Damage()[0].Column)
		assert.Contains(t, d.Damage()[0].Error(), "required column missing")
	})
	t.Run("not a round log", func(t *testing.T) {
		dir := t.TempDir()
		writeRaw(t, filepath.Join(dir, "x.rounds.parquet"), []roundRow{{RoundID: "a"}})
		d, err := Open(dir)
		require.NoError(t, err)
		defer d.Close()
		require.Len(t, d.Damage(), 1)
		assert.Contains(t, d.Damage()[0].Error(), MetaSchemaVersion)
	})
	t.Run("unknown major version", func(t *testing.T) {
		dir := t.TempDir()
		writeRaw(t, filepath.Join(dir, "x.rounds.parquet"), []roundRow{{RoundID: "a"}}, MetaSchemaVersion, "2.0", MetaTable, TableRounds)
		_, err := Open(dir)
		require.Error(t, err)
		assert.True(t, errors.Is(err, ErrUnsupportedVersion))
		assert.Contains(t, err.Error(), `"2.0"`)
		assert.Contains(t, err.Error(), "x.rounds.parquet")
	})
	t.Run("newer minor version reads", func(t *testing.T) {
		dir := t.TempDir()
		rs := casinoRounds(1)
		writeParquet(t, dir, rs, Options{})
		// Rewrite the rounds file with version 1.7.
		d, err := Open(dir)
		require.NoError(t, err)
		var rows []roundRow
		for _, u := range d.Units() {
			p := d.parts[u.File]
			files, err := p.acquire()
			require.NoError(t, err)
			rows, err = readGroup(files.rounds.RowGroups()[u.RowGroup], rows)
			require.NoError(t, err)
			p.release()
		}
		d.Close()
		writeRaw(t, TablePath(dir, TableRounds, "part-00000", "parquet"), rows, MetaSchemaVersion, "1.7", MetaTable, TableRounds)
		got, _, dmg := readAll(t, dir)
		assert.Empty(t, dmg)
		assert.Equal(t, jsonRoundTrip(t, rs), got)
	})
	t.Run("jsonl unknown major version", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "a.rounds.jsonl"), []byte("{\"schema_version\":\"3.1\"}\n{}\n"), 0o644))
		d, err := Open(dir)
		require.NoError(t, err)
		_, err = d.Scan(func(*Record) error { return nil })
		assert.True(t, errors.Is(err, ErrUnsupportedVersion))
	})
	t.Run("jsonl damaged line", func(t *testing.T) {
		dir := t.TempDir()
		body := "{\"schema_version\":\"1.0\"}\n{\"round_id\":5}\nnot json\n"
		require.NoError(t, os.WriteFile(filepath.Join(dir, "a.rounds.jsonl"), []byte(body), 0o644))
		_, _, dmg := readAll(t, dir)
		require.Len(t, dmg, 2)
		assert.Equal(t, int64(1), dmg[0].Row)
		assert.Equal(t, "round_id", dmg[0].Column)
		assert.Equal(t, int64(2), dmg[1].Row)
	})
}

// nullableRound is roundRow with server_seed optional, as a hand-written
// file might declare it.
type nullableRound struct {
	RoundID     string   `parquet:"round_id"`
	Game        string   `parquet:"game"`
	TableID     string   `parquet:"table_id"`
	Time        int64    `parquet:"time,timestamp(microsecond)"`
	Currency    string   `parquet:"currency"`
	Profile     string   `parquet:"profile"`
	Scheme      string   `parquet:"scheme"`
	Commitment  string   `parquet:"commitment"`
	ServerSeed  *string  `parquet:"server_seed,optional"`
	ClientSeeds []string `parquet:"client_seeds,list"`
	Nonce       int64    `parquet:"nonce"`
	Void        bool     `parquet:"void"`
	NBoxes      int32    `parquet:"n_boxes"`
	NSeats      int32    `parquet:"n_seats"`
	NActions    int32    `parquet:"n_actions"`
	NPots       int32    `parquet:"n_pots"`
}

func TestDamageNullInRequiredColumn(t *testing.T) {
	dir := t.TempDir()
	seed := "ab"
	var rows []nullableRound
	for i := range 5 {
		r := nullableRound{RoundID: string(rune('a' + i)), Game: round.CasinoHoldem, Currency: "EUR", Scheme: "fairhold/v1", ServerSeed: &seed}
		if i == 3 {
			r.ServerSeed = nil
		}
		rows = append(rows, r)
	}
	p := filepath.Join(dir, "x.rounds.parquet")
	writeRaw(t, p, rows, MetaSchemaVersion, SchemaVersion, MetaTable, TableRounds)
	got, _, dmg := readAll(t, dir)
	require.Len(t, dmg, 1)
	assert.Equal(t, p, dmg[0].File)
	assert.Equal(t, 0, dmg[0].RowGroup)
	assert.Equal(t, int64(3), dmg[0].Row)
	assert.Equal(t, "rounds.server_seed", dmg[0].Column)
	assert.Contains(t, dmg[0].Error(), "null")
	require.Len(t, got, 4)
	assert.Equal(t, "ab", got[0].Fairness.ServerSeed)
}

// TestChildGroupTake takes a group's rows round by round: made ahead for
// all the rounds, for some of them, or for none (take makes them).
func TestChildGroupTake(t *testing.T) {
	type row struct {
		round int64
		id    string
	}
	counts := []int32{2, 0, 3, 1, 4}
	var all []row
	for r, c := range counts {
		for range c {
			all = append(all, row{int64(r), fmt.Sprintf("r-%d", r)})
		}
	}
	fills := 0
	fill := func(off int, rows []row) {
		fills++
		copy(rows, all[off:off+len(rows)])
	}
	keys := func(r *row) (int64, string) { return r.round, r.id }
	for _, ahead := range []int{len(all), 3, 0} {
		g := childGroup[row]{fill: fill, n: len(all)}
		g.ahead(ahead)
		fills = 0
		at := 0
		for r, c := range counts {
			got, dmg := g.take(c, int64(r), fmt.Sprintf("r-%d", r), keys)
			require.Nil(t, dmg, "ahead %d round %d", ahead, r)
			require.Equal(t, len(all[at:at+int(c)]), len(got), "ahead %d round %d", ahead, r)
			for k := range got {
				require.Equal(t, all[at+k], got[k], "ahead %d round %d", ahead, r)
			}
			at += int(c)
		}
		if ahead == len(all) {
			assert.Zero(t, fills, "every row was made ahead")
		}
		_, dmg := g.take(1, 5, "r-5", keys)
		assert.NotNil(t, dmg, "no rows left")
	}
}
