package roundlog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/round"
)

// sample builds n varied rounds of every game, deterministic in i.
func sample(n int) []round.Round {
	out := make([]round.Round, 0, n)
	for i := range n {
		deck := card.Deck()
		cs := func(k int) []string {
			s := card.Strings(deck[:k])
			deck = deck[k:]
			return s
		}
		off := i % 20
		deck = append(deck[off:], deck[:off]...)
		r := round.Round{
			RoundID: fmt.Sprintf("r%06d", i), TableID: "t1", Time: fmt.Sprintf("2026-01-01T00:%02d:%02d.25Z", i/60%60, i%60),
			Currency: "EUR", Profile: "p", ProfileHash: "ab",
			Fairness: round.Fairness{Scheme: "fairhold/v1", Commitment: "c", ServerSeed: fmt.Sprintf("s%d", i), ClientSeeds: []string{"a", "b"},
				Nonce: uint64(i), ChainIndex: uint64(i % 3), CommittedAt: "2025-12-31T23:00:00Z"},
		}
		switch i % 3 {
		case 0, 1:
			r.Game = round.CasinoHoldem
			nb := 1
			if i%3 == 1 {
				r.Game, nb = round.LiveCasinoHoldem, 1+i%6
			}
			for b := range nb {
				r.Boxes = append(r.Boxes, round.Box{Box: b + 1, PlayerID: fmt.Sprintf("p%d", b), Cards: cs(2), AnteRequested: 150, Ante: 100,
					Decision: "call", Call: 200, AnteReturn: 200, CallReturn: 200, BalanceBefore: 1000, BalanceAfter: 1100})
			}
			r.Dealer = cs(2)
			r.Board = cs(5)
			if i%7 == 0 {
				r.Void, r.VoidReason = true, "misdeal"
			}
		case 2:
			r.Game = round.DoubleHoldem
			d := &round.DoubleHand{Button: 1, SmallBlind: 5, BigBlind: 10, Rake: int64(i % 2)}
			for s := range 3 {
				d.Seats = append(d.Seats, round.Seat{Seat: s + 1, PlayerID: fmt.Sprintf("q%d", s), Cards: cs(3), BonusCard: "", StackBefore: 100, StackAfter: 100})
			}
			d.Seats[0].BonusCard, d.Seats[0].BonusAuto = d.Seats[0].Cards[1], true
			d.Actions = []round.Action{{Seat: 2, Street: "preflop", Kind: "small-blind", Amount: 5}, {Seat: 3, Street: "preflop", Kind: "big-blind", Amount: 10, AllIn: true}}
			d.Pots = []round.Pot{{Amount: 15, Eligible: []int{2, 3}, Winners: []int{3}, Shares: []int64{15}}}
			r.Double = d
			r.Board = cs(i % 6)
		}
		out = append(out, r)
	}
	return out
}

func writeParquet(t testing.TB, dir string, rs []round.Round, opts Options) {
	t.Helper()
	w, err := NewParquetWriter(dir, opts)
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
}

// readAll reads a dataset, deep-copying rounds through JSON.
func readAll(t testing.TB, paths ...string) ([]round.Round, []Record, []*DamageError) {
	t.Helper()
	d, err := Open(paths...)
	require.NoError(t, err)
	defer d.Close()
	var rs []round.Round
	var pos []Record
	dmg, err := d.Scan(func(r *Record) error {
		b, err := json.Marshal(&r.Round)
		require.NoError(t, err)
		var c round.Round
		require.NoError(t, json.Unmarshal(b, &c))
		rs = append(rs, c)
		pos = append(pos, Record{File: r.File, RowGroup: r.RowGroup, Row: r.Row})
		return nil
	})
	require.NoError(t, err)
	return rs, pos, dmg
}

func jsonRoundTrip(t testing.TB, rs []round.Round) []round.Round {
	var out []round.Round
	for i := range rs {
		b, err := json.Marshal(&rs[i])
		require.NoError(t, err)
		var c round.Round
		require.NoError(t, json.Unmarshal(b, &c))
		out = append(out, c)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	rs := sample(500)
	want := jsonRoundTrip(t, rs)
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"one group", Options{}},
		{"small groups", Options{RowGroupRounds: 7}},
		{"small files", Options{RowGroupRounds: 13, FileRounds: 100}},
		{"few groups per file", Options{RowGroupRounds: 13, FileRowGroups: 3}},
	} {
		t.Run("parquet/"+tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeParquet(t, dir, rs, tc.opts)
			got, pos, dmg := readAll(t, dir)
			assert.Empty(t, dmg)
			assert.Equal(t, want, got)
			for i, p := range pos {
				if tc.opts.FileRounds == 0 && tc.opts.FileRowGroups == 0 {
					assert.Equal(t, int64(i), p.Row)
				}
			}
			if tc.opts.FileRowGroups > 0 {
				parts, err := filepath.Glob(filepath.Join(dir, TableRounds, "*.parquet"))
				require.NoError(t, err)
				// 500 rounds in groups of 13 are 39 groups (the last of
				// 6): 13 parts of 3 groups, the last holding 13+13+6.
				assert.Len(t, parts, 13)
				assert.Equal(t, int64(13+13+6-1), pos[len(pos)-1].Row, "the last part's last row")
			}
		})
	}
	t.Run("jsonl", func(t *testing.T) {
		dir := t.TempDir()
		var buf bytes.Buffer
		w, err := NewJSONLWriter(&buf)
		require.NoError(t, err)
		for i := range rs {
			require.NoError(t, w.Write(&rs[i]))
		}
		require.NoError(t, w.Close())
		require.NoError(t, os.WriteFile(filepath.Join(dir, "x.rounds.jsonl"), buf.Bytes(), 0o644))
		got, pos, dmg := readAll(t, dir)
		assert.Empty(t, dmg)
		assert.Equal(t, want, got)
		assert.Equal(t, int64(1), pos[0].Row, "line 0 is the header")
	})
}

func TestDeterministicBytes(t *testing.T) {
	rs := sample(300)
	a, b := t.TempDir(), t.TempDir()
	writeParquet(t, a, rs, Options{RowGroupRounds: 50})
	writeParquet(t, b, rs, Options{RowGroupRounds: 50})
	files := 0
	require.NoError(t, filepath.WalkDir(a, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		files++
		rel, err := filepath.Rel(a, p)
		require.NoError(t, err)
		x, err := os.ReadFile(p)
		require.NoError(t, err)
		y, err := os.ReadFile(filepath.Join(b, rel))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(x, y), rel)
		return nil
	}))
	assert.Equal(t, 5, files)
}

// TestLayoutAndParts: one folder per table, a child table's folder only
// when it has rows, and Parts describes every file as written: its path
// relative to the dataset, rows, size and SHA-256, and each part's rounds,
// first and last round ids and time range.
func TestLayoutAndParts(t *testing.T) {
	dir := t.TempDir()
	rs := casinoRounds(25)
	w, err := NewParquetWriter(dir, Options{RowGroupRounds: 4, FileRounds: 10})
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
	var names []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return err
	}))
	assert.Equal(t, []string{
		"boxes/part-00000.parquet", "boxes/part-00001.parquet", "boxes/part-00002.parquet",
		"rounds/part-00000.parquet", "rounds/part-00001.parquet", "rounds/part-00002.parquet",
	}, names, "no seats, actions or pots folder for Casino Hold'em")
	parts := w.Parts()
	require.Len(t, parts, 3)
	for k, p := range parts {
		assert.Equal(t, PartName(k), p.Name)
		first, last := 10*k, min(10*k+9, len(rs)-1)
		assert.Equal(t, int64(last-first+1), p.Rounds)
		assert.Equal(t, rs[first].RoundID, p.FirstRoundID)
		assert.Equal(t, rs[last].RoundID, p.LastRoundID)
		assert.Equal(t, rs[first].Time, p.MinTime)
		assert.Equal(t, rs[last].Time, p.MaxTime)
		require.Len(t, p.Files, 2)
		for j, table := range []string{TableRounds, TableBoxes} {
			f := p.Files[j]
			assert.Equal(t, table+"/"+p.Name+".parquet", f.Path)
			assert.Equal(t, table, f.Table)
			assert.Equal(t, p.Rounds, f.Rows, "one box a round")
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
			require.NoError(t, err)
			sum := sha256.Sum256(b)
			assert.Equal(t, hex.EncodeToString(sum[:]), f.SHA256)
			assert.Equal(t, int64(len(b)), f.Bytes)
		}
	}
	m := manifest.New()
	m.Parts = parts
	assert.NoError(t, m.Validate())
}

func TestTimeFastPaths(t *testing.T) {
	for _, s := range []string{"2026-01-01T00:00:00Z", "2026-11-29T10:15:03.25Z", "1999-12-31T23:59:59.999999Z", "2024-02-29T12:00:00.000001Z"} {
		us, ok := parseFast(s)
		require.True(t, ok, s)
		want, err := time.Parse(time.RFC3339Nano, s)
		require.NoError(t, err)
		assert.Equal(t, want.UnixMicro(), us, s)
		assert.Equal(t, want.UTC().Format(time.RFC3339Nano), string(appendTime(nil, us)), s)
	}
	for _, s := range []string{"2026-02-30T00:00:00Z", "2026-01-01T00:00:00+01:00", "2026-01-01 00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00.Z"} {
		_, ok := parseFast(s)
		assert.False(t, ok, s)
	}
	us, err := parseTime("time", "2026-01-01T01:00:00+01:00")
	require.NoError(t, err)
	assert.Equal(t, "2026-01-01T00:00:00Z", formatTime(us))
	_, err = parseTime("time", "yesterday")
	assert.ErrorContains(t, err, "time")
}

// TestColumnBounds checks which columns carry min/max bounds in the
// footer: those a query filters on (round ids, times, amounts, players)
// do; the random hex, card and enumerated text columns, where bounds filter
// nothing, do not.
func TestColumnBounds(t *testing.T) {
	dir := t.TempDir()
	writeParquet(t, dir, sample(200), Options{})
	for table, want := range map[string]map[string]bool{
		TableRounds: {"round_id": true, "time": true, "table_id": true, "nonce": true,
			"server_seed": false, "commitment": false, "client_seeds": false, "board_1": false, "dealer_2": false},
		TableBoxes:   {"player_id": true, "ante": true, "card_1": false, "decision": false},
		TableSeats:   {"player_id": true, "stack_before": true, "card_3": false, "bonus_card": false},
		TableActions: {"seat": true, "amount": true, "street": false, "kind": false},
	} {
		f, err := os.Open(TablePath(dir, table, "part-00000", "parquet"))
		require.NoError(t, err)
		pf, err := openParquetFile(f)
		require.NoError(t, err)
		bounded := map[string]bool{}
		for _, c := range pf.Metadata().RowGroups[0].Columns {
			bounded[c.MetaData.PathInSchema[0]] = c.MetaData.Statistics.MaxValue != nil
		}
		require.NoError(t, f.Close())
		for col, b := range want {
			_, ok := bounded[col]
			require.True(t, ok, "%s: no column %s", table, col)
			assert.Equal(t, b, bounded[col], "%s.%s bounded", table, col)
		}
	}
}

// TestWriteErrorReported checks that an error while a row group is
// encoded in the background reaches the caller: once the rounds file
// fails, a later Write fails, naming the file, and so does Close.
func TestWriteErrorReported(t *testing.T) {
	dir := t.TempDir()
	rs := sample(100)
	w, err := NewParquetWriter(dir, Options{RowGroupRounds: 10})
	require.NoError(t, err)
	for i := range rs[:20] {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.cur.wait())
	// The file's buffer now writes through at once, to a failing disk.
	*w.cur.tRounds.bw = *bufio.NewWriterSize(failingWriter{}, 16)
	for i := range rs[20:] {
		if err = w.Write(&rs[20+i]); err != nil {
			break
		}
	}
	require.Error(t, err, "a Write reports the failed row group")
	assert.Contains(t, err.Error(), filepath.Join(TableRounds, "part-00000.parquet"))
	assert.Contains(t, err.Error(), "disk full")
	assert.Error(t, w.Close())
	// Nothing is left: not the part at its names, nor a temporary file.
	for _, table := range []string{TableRounds, TableBoxes} {
		ents, err := os.ReadDir(filepath.Join(dir, table))
		require.NoError(t, err)
		assert.Empty(t, ents, table)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
