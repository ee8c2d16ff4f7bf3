package roundlog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
)

// jsonlLines writes rounds as a JSON Lines file's lines: the version
// header first, then one line a round, without newlines.
func jsonlLines(t *testing.T, rs []round.Round) [][]byte {
	t.Helper()
	var b bytes.Buffer
	w, err := NewJSONLWriter(&b)
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
	return bytes.Split(bytes.TrimSuffix(b.Bytes(), []byte("\n")), []byte("\n"))
}

// TestJSONLTextNotRepaired: a JSON Lines text that is not valid UTF-8, as
// raw bytes or as the \u escape of an unpaired surrogate, is damage on
// its line, naming the member; encoding/json would have read U+FFFD
// (docs/fairness.md section 4). Escaped pairs and escaped backslashes are
// not surrogates and read as they are.
func TestJSONLTextNotRepaired(t *testing.T) {
	const seed = `"client_seeds":["a","b"]`
	for _, tc := range []struct {
		name   string
		from   string // replaced in line 6 (round 5)
		to     string
		column string // "" when the line reads
		want   string // the seed the round reads with, when it reads
	}{
		{"raw invalid byte", seed, "\"client_seeds\":[\"a\xffa\",\"b\"]", "fairness.client_seeds[0]", ""},
		{"raw surrogate bytes", seed, "\"client_seeds\":[\"a\",\"\xed\xa0\x80\"]", "fairness.client_seeds[1]", ""},
		{"truncated sequence", seed, "\"client_seeds\":[\"a\",\"b\xe2\x82\"]", "fairness.client_seeds[1]", ""},
		{"lone low surrogate", seed, `"client_seeds":["\udc00","b"]`, "fairness.client_seeds[0]", ""},
		{"lone high surrogate", seed, `"client_seeds":["x\ud800","b"]`, "fairness.client_seeds[0]", ""},
		{"high surrogate then a letter", seed, `"client_seeds":["\uD800\u0041","b"]`, "fairness.client_seeds[0]", ""},
		{"two high surrogates", seed, `"client_seeds":["\ud800\ud800\udc00","b"]`, "fairness.client_seeds[0]", ""},
		{"reversed pair", seed, `"client_seeds":["\ude00\ud83d","b"]`, "fairness.client_seeds[0]", ""},
		{"server seed", `"server_seed":"s15"`, `"server_seed":"s\udfff"`, "fairness.server_seed", ""},
		{"commitment", `"commitment":"c"`, "\"commitment\":\"c\x80\"", "fairness.commitment", ""},
		{"table id", `"table_id":"t1"`, `"table_id":"t\udc00"`, "table_id", ""},
		{"player id", `"player_id":"p0"`, "\"player_id\":\"p\xc0\xaf\"", "boxes[0].player_id", ""},
		{"unknown member's name", `"table_id":"t1"`, "\"x\xff\":1,\"table_id\":\"t1\"", "(a member name)", ""},
		{"unknown member's value", `"table_id":"t1"`, `"note":{"k":["\ud800"]},"table_id":"t1"`, "note.k[0]", ""},
		{"escaped pair", seed, `"client_seeds":["\ud83d\ude00","b"]`, "", "\U0001F600"},
		{"escaped backslash", seed, `"client_seeds":["\\ud800","b"]`, "", `\ud800`},
		{"escaped quote then backslash", seed, `"client_seeds":["\"\\\ud83d\ude00","b"]`, "", "\"\\\U0001F600"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := casinoRounds(12)
			lines := jsonlLines(t, rs)
			require.True(t, bytes.Contains(lines[6], []byte(tc.from)), "%s", lines[6])
			lines[6] = bytes.Replace(lines[6], []byte(tc.from), []byte(tc.to), 1)
			dir := t.TempDir()
			fn := filepath.Join(dir, "a.rounds.jsonl")
			require.NoError(t, os.WriteFile(fn, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644))
			got, pos, dmg := readAll(t, dir)
			if tc.column == "" {
				require.Empty(t, dmg)
				require.Len(t, got, 12)
				assert.Equal(t, tc.want, got[5].Fairness.ClientSeeds[0])
				return
			}
			require.Len(t, dmg, 1, "%v", dmg)
			d := dmg[0]
			assert.Equal(t, fn, d.File)
			assert.Equal(t, int64(6), d.Row, "the line, from 0, the header being line 0")
			assert.Equal(t, tc.column, d.Column)
			assert.Contains(t, d.Reason, "never repaired")
			assert.Equal(t, rs[5].RoundID, d.RoundID)
			assert.True(t, utf8.ValidString(d.Error()), "the reason does not quote the bytes")
			require.Len(t, got, 11, "every other round is read")
			for i := range pos {
				assert.NotEqual(t, int64(6), pos[i].Row)
			}
			want := jsonRoundTrip(t, append(append([]round.Round{}, rs[:5]...), rs[6:]...))
			assert.Equal(t, want, got)
		})
	}
}

// TestParquetTextNotUTF8: in a Parquet file a text is its bytes; a free
// text (ids, client seeds) that is not valid UTF-8 is damage of its row and
// column, as in JSON Lines. Texts of a fixed form (a server seed's hex
// digits, a time, a card) are read as they are and rejected where they
// are parsed: the replay's INPUT_DAMAGED on the field.
func TestParquetTextNotUTF8(t *testing.T) {
	rounds := filepath.Join(TableRounds, "part-00000.parquet")
	boxes := filepath.Join(TableBoxes, "part-00000.parquet")
	for _, tc := range []struct {
		name   string
		edit   func(r *round.Round)
		file   string
		column string
	}{
		{"client seed, invalid byte", func(r *round.Round) { r.Fairness.ClientSeeds[0] = "a\xffb" }, rounds, "rounds.client_seeds"},
		{"client seed, surrogate bytes", func(r *round.Round) { r.Fairness.ClientSeeds[1] = "\xed\xb0\x80" }, rounds, "rounds.client_seeds"},
		{"table id", func(r *round.Round) { r.TableID = "t\xfe" }, rounds, "rounds.table_id"},
		{"player id", func(r *round.Round) { r.Boxes[0].PlayerID = "p\xc0\xaf" }, boxes, "boxes.player_id"},
		{"round id", func(r *round.Round) { r.RoundID += "\x80" }, rounds, "rounds.round_id"},
		{"wallet id", func(r *round.Round) { r.WalletIDs = []string{"w\xe2\x82"} }, rounds, "rounds.wallet_ids"},
		{"void reason", func(r *round.Round) { r.VoidReason = "\xffx" }, rounds, "rounds.void_reason"},
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
			assert.Equal(t, 1, d.RowGroup)
			assert.Equal(t, int64(13), d.Row)
			assert.Equal(t, tc.column, d.Column)
			assert.Contains(t, d.Reason, "not valid UTF-8")
			assert.True(t, utf8.ValidString(d.Error()), "the reason does not quote the bytes")
			want := jsonRoundTrip(t, append(append([]round.Round{}, rs[:13]...), rs[14:]...))
			assert.Equal(t, want, got, "every other round is read")
		})
	}
}

// TestParquetTextUTF8: free texts that are valid UTF-8 but not ASCII read
// as they are, whether their column is ASCII in the other row groups or
// not (the reader skips the UTF-8 check of a row group whose text columns
// hold ASCII only).
func TestParquetTextUTF8(t *testing.T) {
	dir, rs := casinoDataset(t, 40, 10, func(i int, r *round.Round) {
		switch i {
		case 3:
			r.TableID = "tisch-\u00e4"
		case 14:
			r.Boxes[0].PlayerID = "jo\u00e3o"
			r.WalletIDs = []string{"\U0001F600"}
		case 25:
			r.RoundID += "-\u00e9"
			r.Fairness.ClientSeeds[0] = "\u4e2d\u6587"
		}
	})
	got, _, dmg := readAll(t, dir)
	require.Empty(t, dmg)
	assert.Equal(t, jsonRoundTrip(t, rs), got)
}

func TestIsASCII(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"", true}, {"a", true}, {"0123456789abcdef\x7f", true},
		{"\x80", false}, {"0123456\xff", false}, {"01234567\xc3\xa4", false}, {"\u00e4bcdefghij", false},
	} {
		assert.Equal(t, tc.want, isASCII([]byte(tc.s)), "%q", tc.s)
	}
}

// TestASCIIColumns: a rounds row group's decoded text columns are known
// ASCII when they are, in plain and dictionary pages, and not after a row
// group with a byte above 0x7f in one of them; the next ASCII row group
// is ASCII again (the mark is reset with the reused column).
func TestASCIIColumns(t *testing.T) {
	dir, _ := casinoDataset(t, 30, 10, func(i int, r *round.Round) {
		switch i {
		case 13:
			r.TableID = "t-\u00e4" // a dictionary column
		case 25:
			r.RoundID += "\u00e9" // a plain column
		}
	})
	f := openFile(t, filepath.Join(dir, TableRounds, "part-00000.parquet"))
	require.Len(t, f.RowGroups(), 3)
	cols := map[string]*column{}
	for g, want := range []bool{true, false, false, true} {
		require.NoError(t, decodeRoundColumns(f.RowGroups()[g%3], cols))
		assert.Equal(t, want, asciiColumns(cols), "row group %d", g%3)
	}
	assert.False(t, cols["round_id"].nonASCII)
}
