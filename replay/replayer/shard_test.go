package replayer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shardCounts are the numbers of shards every sharded test merges.
var shardCounts = []int{1, 2, 4, 7}

func rulesConfig(t testing.TB, declared *profile.Profile) *audit.Config {
	t.Helper()
	rb, err := audit.NewRulebook(declared)
	require.NoError(t, err)
	return &audit.Config{Dealers: audit.SchemeDealers{}, Rules: rb, Double: audit.DoubleEngine{Rules: rb}}
}

// summaryBytes is the summary's JSON without its wall-clock seconds.
func summaryBytes(t testing.TB, s *Summary) string {
	t.Helper()
	c := *s
	c.Seconds = 0
	b, err := json.MarshalIndent(&c, "", "  ")
	require.NoError(t, err)
	return string(b)
}

// unsharded replays paths as `fairhold replay` does and returns the
// summary's JSON and the findings file's bytes (JSON Lines).
func unsharded(t testing.TB, paths []string, declared *profile.Profile) (string, []byte) {
	t.Helper()
	ff := filepath.Join(t.TempDir(), "findings.jsonl")
	fw, err := CreateFindings(ff)
	require.NoError(t, err)
	s, err := Run(paths, Options{Workers: 2, Config: rulesConfig(t, declared), Findings: fw.Write})
	require.NoError(t, err)
	require.NoError(t, fw.Close())
	b, err := os.ReadFile(ff)
	require.NoError(t, err)
	return summaryBytes(t, s), b
}

// writeShards replays paths as n shards, each as its own `fairhold replay
// --shard I/N` would (its own dataset, its own checker state), and returns
// the parts' paths.
func writeShards(t testing.TB, paths []string, n int, declared *profile.Profile, meta PartMeta) []string {
	t.Helper()
	dir := t.TempDir()
	var parts []string
	for i := range n {
		ds, err := roundlog.Open(paths...)
		require.NoError(t, err)
		path := filepath.Join(dir, fmt.Sprintf("part-%d.fhpart", i))
		require.NoError(t, replayShardFile(ds, Options{Workers: 1 + i%2, Config: rulesConfig(t, declared), Manifests: LoadManifests(paths, nil)},
			ShardSpec{i, n}, meta, path))
		require.NoError(t, ds.Close())
		parts = append(parts, path)
	}
	return parts
}

// replayShardFile replays a shard as `fairhold replay --part-out path`
// does: the part at path, its traces at path + TracesSuffix.
func replayShardFile(ds Dataset, opts Options, spec ShardSpec, meta PartMeta, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	tf, err := os.Create(path + TracesSuffix)
	if err != nil {
		return err
	}
	defer tf.Close()
	if _, err := ReplayShard(ds, opts, spec, meta, f, tf); err != nil {
		return err
	}
	if err := tf.Close(); err != nil {
		return err
	}
	return f.Close()
}

// merge merges parts and returns the summary's JSON and the findings
// file's bytes.
func merge(t testing.TB, parts []string) (string, []byte) {
	t.Helper()
	return mergeParts(t, parts, false)
}

// mergeParts is merge, replaying the traces with replayTraces.
func mergeParts(t testing.TB, parts []string, replayTraces bool) (string, []byte) {
	t.Helper()
	ps, err := OpenParts(parts, MergeCheck{})
	require.NoError(t, err)
	ps.ReplayTraces = replayTraces
	ff := filepath.Join(t.TempDir(), "merged.jsonl")
	fw, err := CreateFindings(ff)
	require.NoError(t, err)
	s, err := ps.Merge(Options{Findings: fw.Write})
	require.NoError(t, err)
	require.NoError(t, fw.Close())
	b, err := os.ReadFile(ff)
	require.NoError(t, err)
	lastFallback = ps.Fallback
	t.Logf("merge of %d parts: fallback %q", len(parts), ps.Fallback)
	return summaryBytes(t, s), b
}

// lastFallback is the last merge's PartSet.Fallback.
var lastFallback string

// requireShardedSame asserts that the merge of every shard count gives
// the unsharded replay's summary and findings, byte for byte, and returns
// the findings.
func requireShardedSame(t testing.TB, paths []string, declared *profile.Profile, counts []int) []finding.Finding {
	t.Helper()
	wantSum, wantF := unsharded(t, paths, declared)
	for _, n := range counts {
		gotSum, gotF := merge(t, writeShards(t, paths, n, declared, PartMeta{Tool: "test", Inputs: paths}))
		require.Equal(t, wantSum, gotSum, "summary of %d shards", n)
		require.Equal(t, string(wantF), string(gotF), "findings of %d shards", n)
	}
	return decodeFindings(t, wantF)
}

func decodeFindings(t testing.TB, b []byte) []finding.Finding {
	t.Helper()
	var fs []finding.Finding
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var f finding.Finding
		require.NoError(t, json.Unmarshal(line, &f))
		fs = append(fs, f)
	}
	return fs
}

// writeDataset writes rs as a Parquet dataset with its manifest, a part
// every partRounds rounds, and returns the directory.
func writeDataset(t testing.TB, rs []round.Round, rowGroup int, partRounds int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "day")
	w, err := roundlog.NewParquetWriter(dir, roundlog.Options{RowGroupRounds: rowGroup, FileRounds: partRounds})
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
	m := manifest.New()
	m.Parts = w.Parts()
	_, err = manifest.Write(dir, m, nil)
	require.NoError(t, err)
	return dir
}

// simLog simulates cfg, faults allowed, and returns the rounds.
func simLog(t testing.TB, cfg sim.Config) []round.Round {
	t.Helper()
	s, err := sim.New(cfg)
	require.NoError(t, err)
	var rs []round.Round
	for !s.Done() {
		r, _, err := s.Next()
		require.NoError(t, err)
		rs = append(rs, cloneRound(t, r))
	}
	return rs
}

// multiTable moves every other seed session (hash chain at the live
// table) of the log to a second table and numbers each table's rounds
// again: the log, still in time order, is of two tables, and the players
// of the single-box game and of the live table's pool play at both.
func multiTable(rs []round.Round) {
	for j, s := range sessions(rs) {
		if j%2 == 1 {
			for _, i := range s {
				rs[i].TableID += "-b"
			}
		}
	}
	number(rs)
}

func tablesOf(rs []round.Round) []string {
	var out []string
	for i := range rs {
		out = append(out, rs[i].TableID)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestShardedMultiTable: a multi-table, multi-part dataset of every game,
// clean and with every round fault of the catalogue, merged from 1, 2, 4
// and 7 shards, gives the unsharded replay's summary and findings byte
// for byte.
func TestShardedMultiTable(t *testing.T) {
	rounds := int64(2400)
	if testing.Short() {
		rounds = 900
	}
	for _, game := range adversaryGames {
		for _, faulty := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/faults=%v", game, faulty), func(t *testing.T) {
				cfg := sim.Config{Game: game, Rounds: rounds, Seed: 21, Players: 3}
				if game == gameLive {
					cfg.Players = 0
				}
				if faulty {
					for _, f := range sim.Catalogue() {
						if slices.Contains(f.Games, game) && f.Kind != "dataset" && f.Kind != "log" {
							cfg.Faults = append(cfg.Faults, sim.FaultRate{Name: f.Name, Rate: 0.004})
						}
					}
				}
				rs := simLog(t, cfg)
				multiTable(rs)
				if game != gameLive {
					require.Len(t, tablesOf(rs), 2)
				}
				dir := writeDataset(t, rs, 100, rounds/6)
				fs := requireShardedSame(t, []string{dir}, nil, shardCounts)
				if !faulty {
					assert.Empty(t, codesOf(fs), "a clean multi-table log")
				} else {
					assert.Greater(t, len(codesOf(fs)), 5, "the faults are found")
				}
			})
		}
	}
}

// TestShardedWalletAcrossShards: a wallet whose balance chain crosses from
// one table in one shard's part to another table in another shard's part,
// skimmed exactly at that boundary (the wallet's balances from there on
// lowered, every round re-chained), is one BALANCE_GAP, the same in every
// merge as unsharded, naming the previous round in the other shard's part.
func TestShardedWalletAcrossShards(t *testing.T) {
	rs := simLog(t, sim.Config{Game: gameCH, Rounds: 1200, Seed: 22, Players: 3})
	multiTable(rs)
	const partRounds = 200
	// Six parts: parts 0-2 go to shard 0 of 2, parts 3-5 to shard 1. The
	// round k: a player's first round in shard 1's segment whose previous
	// round, in shard 0's, is at the other table.
	at := 3 * partRounds
	k := -1
	for i := at; i < at+partRounds && k < 0; i++ {
		p := rs[i].Boxes[0].PlayerID
		if slices.ContainsFunc(rs[at:i], func(r round.Round) bool { return plays(&r, p) }) {
			continue
		}
		for j := at - 1; j >= 0; j-- {
			if plays(&rs[j], p) {
				if rs[j].TableID != rs[i].TableID {
					k = i
				}
				break
			}
		}
	}
	require.Positive(t, k, "a wallet crossing tables at a part boundary")
	player := rs[k].Boxes[0].PlayerID
	for i := k; i < len(rs); i++ {
		if rs[i].Boxes[0].PlayerID == player {
			rs[i].Boxes[0].BalanceBefore -= 7
			rs[i].Boxes[0].BalanceAfter -= 7
		}
	}
	dir := writeDataset(t, rs, 100, partRounds)
	ds, err := roundlog.Open(dir)
	require.NoError(t, err)
	as := Assign(ds, LoadManifests([]string{dir}, nil), 2)
	require.NoError(t, ds.Close())
	part := k / partRounds
	require.Equal(t, 3, part)
	require.NotEqual(t, as[part].Shard, as[part-1].Shard, "the two parts are in different shards: %v", as)

	fs := requireShardedSame(t, []string{dir}, nil, shardCounts)
	require.Len(t, fs, 1, "one finding: %v", codesOf(fs))
	f := fs[0]
	assert.Equal(t, finding.BalanceGap, f.Code)
	assert.Equal(t, rs[k].RoundID, f.RoundID)
	assert.Equal(t, player, f.PlayerID)
	assert.Contains(t, f.Detail, filepath.Base(as[part-1].Path), "names the previous round, in the other shard's part")
	// The round's place, from the wallet's boundary state, as an
	// unsharded replay gives it (requireShardedSame compares them).
	assert.Equal(t, rs[k].TableID, f.TableID)
	assert.Equal(t, rs[k].Game, f.Game)
	assert.NotEmpty(t, f.Time)
	require.NotNil(t, f.Difference)
	assert.Equal(t, int64(-7), *f.Difference)
}

// TestShardedFaultInOneShard: a round fault in the last shard's range is
// reported once by the merge, as unsharded.
func TestShardedFaultInOneShard(t *testing.T) {
	rs := simLog(t, sim.Config{Game: gameCH, Rounds: 900, Seed: 23, Players: 3})
	multiTable(rs)
	k := 850 // in the last part of 150 rounds
	rs[k].Boxes[0].AnteReturn++
	rs[k].Boxes[0].BalanceAfter++
	for i := k + 1; i < len(rs); i++ {
		if rs[i].Boxes[0].PlayerID == rs[k].Boxes[0].PlayerID {
			rs[i].Boxes[0].BalanceBefore++
			rs[i].Boxes[0].BalanceAfter++
		}
	}
	dir := writeDataset(t, rs, 50, 150)
	fs := requireShardedSame(t, []string{dir}, nil, shardCounts)
	require.Len(t, fs, 1, "%v", codesOf(fs))
	assert.Equal(t, rs[k].RoundID, fs[0].RoundID)
}

// TestShardedDatasetFaults: the manifest's findings (a part missing,
// altered, added) come out of the merge as out of a single replay.
func TestShardedDatasetFaults(t *testing.T) {
	rs := simLog(t, sim.Config{Game: gameDH, Rounds: 600, Seed: 24})
	multiTable(rs)
	dir := writeDataset(t, rs, 50, 100)
	parts := partFiles(t, dir)
	// Part 1 missing, part 2 altered (a byte of its footer's metadata
	// changed is enough to change the digest), part 3 copied to an extra
	// part the manifest does not list.
	require.NoError(t, os.Remove(filepath.Join(dir, "rounds", "part-00001.parquet")))
	b, err := os.ReadFile(filepath.Join(dir, "rounds", "part-00003.parquet"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "rounds", "part-00009.parquet"), b, 0o644))
	f, err := os.OpenFile(filepath.Join(dir, "boxes", "part-00002.parquet"), os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		_, err = f.Write([]byte{0})
		require.NoError(t, f.Close())
	} else {
		f, err = os.OpenFile(filepath.Join(dir, "seats", "part-00002.parquet"), os.O_WRONLY|os.O_APPEND, 0)
		require.NoError(t, err)
		_, err = f.Write([]byte{0})
		require.NoError(t, f.Close())
	}
	require.NoError(t, err)
	require.NotEmpty(t, parts)
	fs := requireShardedSame(t, []string{dir}, nil, []int{1, 2, 4, 7})
	codes := codesOf(fs)
	for _, c := range []finding.Code{finding.PartMissing, finding.PartExtra} {
		assert.Contains(t, codes, string(c))
	}
	assert.True(t, slices.Contains(codes, string(finding.PartAltered)) || slices.Contains(codes, string(finding.PartTruncated)), "%v", codes)
}

// TestTraceEncoding: a trace decoded from its encoding is what the Ledger
// read of the original, field for field, for every game with every fault.
func TestTraceEncoding(t *testing.T) {
	for _, game := range adversaryGames {
		cfg := sim.Config{Game: game, Rounds: 400, Seed: 25, Players: 3}
		for _, f := range sim.Catalogue() {
			if slices.Contains(f.Games, game) && f.Kind != "dataset" && f.Kind != "log" {
				cfg.Faults = append(cfg.Faults, sim.FaultRate{Name: f.Name, Rate: 0.02})
			}
		}
		rs := simLog(t, cfg)
		c := audit.NewChecker(rulesConfig(t, nil))
		var enc audit.TraceEncoder
		enc.Reset()
		want := make([][32]byte, len(rs))
		for i := range rs {
			var tr audit.Trace
			c.Check(&rs[i], audit.Source{File: "f", Row: int64(i)}, &tr, nil)
			tr.OwnRoundID()
			enc.Add(&rs[i], &tr)
			want[i] = audit.TraceDigest(&tr)
		}
		// Again, the round's texts in a buffer that the next round
		// overwrites, as the reader's arena is reused from one row group
		// to the next: the encoding must not keep them.
		var enc2 audit.TraceEncoder
		enc2.Reset()
		c2 := audit.NewChecker(rulesConfig(t, nil))
		arena := make([]byte, 0, 1<<16)
		transient := func(s string) string {
			if s == "" {
				return ""
			}
			start := len(arena)
			arena = append(arena, s...)
			return unsafe.String(&arena[start], len(s))
		}
		for i := range rs {
			r := cloneRound(t, &rs[i])
			arena = arena[:0]
			for k := range r.Fairness.ClientSeeds {
				r.Fairness.ClientSeeds[k] = transient(r.Fairness.ClientSeeds[k])
			}
			for k := range r.Boxes {
				r.Boxes[k].PlayerID = transient(r.Boxes[k].PlayerID)
			}
			if r.Double != nil {
				for k := range r.Double.Seats {
					r.Double.Seats[k].PlayerID = transient(r.Double.Seats[k].PlayerID)
				}
			}
			var tr audit.Trace
			c2.Check(&r, audit.Source{File: "f", Row: int64(i)}, &tr, nil)
			tr.OwnRoundID()
			enc2.Add(&r, &tr)
			for k := range arena {
				arena[k] = 'x'
			}
		}
		var dec audit.TraceDecoder
		ts2, err := dec.Decode(enc2.Bytes(), len(rs), nil)
		require.NoError(t, err)
		for i := range ts2 {
			require.Equal(t, want[i], audit.TraceDigest(&ts2[i]), "%s round %d (%s), texts overwritten after the round", game, i, rs[i].RoundID)
		}
		ts, err := dec.Decode(enc.Bytes(), len(rs), nil)
		require.NoError(t, err)
		require.Len(t, ts, len(rs))
		for i := range ts {
			require.Equal(t, want[i], audit.TraceDigest(&ts[i]), "%s round %d (%s)", game, i, rs[i].RoundID)
		}
		// Every strict prefix of the encoding is refused, not misread.
		b := enc.Bytes()
		for _, n := range []int{0, 1, len(b) / 2, len(b) - 1} {
			_, err := dec.Decode(b[:n], len(rs), nil)
			require.Error(t, err, "a prefix of %d bytes", n)
		}
	}
}

// TestMergeCoverage: the merge refuses parts that do not cover the
// dataset exactly once, naming them.
func TestMergeCoverage(t *testing.T) {
	rs := simLog(t, sim.Config{Game: gameCH, Rounds: 600, Seed: 26, Players: 3})
	dir := writeDataset(t, rs, 50, 100)
	meta := PartMeta{Tool: "test", Inputs: []string{dir}}
	parts := writeShards(t, []string{dir}, 3, nil, meta)
	coverage := func(ps []string, chk MergeCheck) string {
		t.Helper()
		_, err := OpenParts(ps, chk)
		var ce *CoverageError
		require.ErrorAs(t, err, &ce)
		return ce.Error()
	}
	msg := coverage(parts[:2], MergeCheck{})
	assert.Contains(t, msg, "missing: no part for shard 2/3")
	assert.Contains(t, msg, "part-0000", "names the missing shard's rounds files")

	msg = coverage([]string{parts[0], parts[1], parts[1], parts[2]}, MergeCheck{})
	assert.Contains(t, msg, "duplicated: shard 1/3 is in "+parts[1]+" and "+parts[1])

	// A part of another dataset (another manifest).
	other := writeDataset(t, simLog(t, sim.Config{Game: gameCH, Rounds: 600, Seed: 27, Players: 3}), 50, 100)
	foreign := writeShards(t, []string{other}, 3, nil, PartMeta{Tool: "test", Inputs: []string{other}})
	msg = coverage([]string{parts[0], parts[1], foreign[2]}, MergeCheck{})
	assert.Contains(t, msg, foreign[2]+": foreign or stale")
	assert.Contains(t, msg, "missing: no part for shard 2/3")

	// Stale: the manifest given is not the one the shards read.
	mb, err := os.ReadFile(filepath.Join(other, manifest.FileName))
	require.NoError(t, err)
	msg = coverage(parts, MergeCheck{ManifestSHA256: sha256Hex(mb)})
	assert.Contains(t, msg, "stale")

	// Another tool version, another split.
	v2 := writeShards(t, []string{dir}, 3, nil, PartMeta{Tool: "test-2", Inputs: []string{dir}})
	msg = coverage([]string{parts[0], parts[1], v2[2]}, MergeCheck{})
	assert.Contains(t, msg, v2[2]+": stale: shard 2/3 written by fairhold test-2")
	two := writeShards(t, []string{dir}, 2, nil, meta)
	msg = coverage([]string{parts[0], parts[1], parts[2], two[1]}, MergeCheck{})
	assert.Contains(t, msg, two[1]+": shard 1/2 of another split")

	// The right manifest given passes.
	mb, err = os.ReadFile(filepath.Join(dir, manifest.FileName))
	require.NoError(t, err)
	ps, err := OpenParts(parts, MergeCheck{ManifestSHA256: sha256Hex(mb)})
	require.NoError(t, err)
	ps.Close()

	// A truncated or altered part is not a part.
	b, err := os.ReadFile(parts[1])
	require.NoError(t, err)
	cut := filepath.Join(t.TempDir(), "cut.fhpart")
	require.NoError(t, os.WriteFile(cut, b[:len(b)-100], 0o644))
	_, err = OpenParts([]string{parts[0], cut, parts[2]}, MergeCheck{})
	var pe *PartError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, cut, pe.Path)

	altered := filepath.Join(t.TempDir(), "altered.fhpart")
	c := bytes.Clone(b)
	c[len(c)/2] ^= 1
	require.NoError(t, os.WriteFile(altered, c, 0o644))
	ps, err = OpenParts([]string{parts[0], altered, parts[2]}, MergeCheck{})
	if err == nil {
		_, err = ps.Merge(Options{})
	}
	require.ErrorAs(t, err, &pe, "an altered byte in the records")
	assert.Equal(t, altered, pe.Path)

	notPart := filepath.Join(t.TempDir(), "x.fhpart")
	require.NoError(t, os.WriteFile(notPart, []byte("{}"), 0o644))
	_, err = OpenParts([]string{notPart}, MergeCheck{})
	require.ErrorAs(t, err, &pe)

	_, err = OpenParts([]string{filepath.Join(t.TempDir(), "absent.fhpart")}, MergeCheck{})
	require.True(t, errors.Is(err, os.ErrNotExist), "%v", err)
}

func TestParseShard(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	s, err := ParseShard("2/7", getenv)
	require.NoError(t, err)
	assert.Equal(t, ShardSpec{2, 7}, s)
	for bad, msg := range map[string]string{
		"7/7":                    `"7/7": the shard index must be 0..6`,
		"-1/3":                   `"-1/3": the shard index must be 0..2`,
		"99999999999999999999/3": `"99999999999999999999/3": the shard index must be 0..2`,
		"0/0":                    `"0/0": the number of shards must be 1..100000`,
		"0/100001":               `"0/100001": the number of shards must be 1..100000`,
		"0/99999999999999999999": `"0/99999999999999999999": the number of shards must be 1..100000`,
		"1":                      `want I/N or auto/N with integers, got "1"`,
		"a/3":                    `want I/N or auto/N with integers, got "a/3"`,
		"1/x":                    `want I/N or auto/N with integers, got "1/x"`,
		"1/2/3":                  `want I/N or auto/N with integers, got "1/2/3"`,
		"x/0":                    `want I/N or auto/N with integers, got "x/0"`,
		"auto/x":                 `want I/N or auto/N with integers, got "auto/x"`,
		"/3":                     `want I/N or auto/N with integers, got "/3"`,
		" 1/3":                   `want I/N or auto/N with integers, got " 1/3"`,
		"1.0/3":                  `want I/N or auto/N with integers, got "1.0/3"`,
		"auto/0":                 `"auto/0": the number of shards must be 1..100000`,
	} {
		_, err := ParseShard(bad, getenv)
		assert.EqualError(t, err, msg, bad)
	}
	_, err = ParseShard("auto/4", getenv)
	assert.ErrorContains(t, err, "JOB_COMPLETION_INDEX")
	env["SLURM_ARRAY_TASK_ID"], env["SLURM_ARRAY_TASK_MIN"] = "4", "1"
	s, err = ParseShard("auto/4", getenv)
	require.NoError(t, err)
	assert.Equal(t, ShardSpec{3, 4}, s)
	env["JOB_COMPLETION_INDEX"] = "0"
	s, err = ShardFromEnv(4, getenv)
	require.NoError(t, err)
	assert.Equal(t, ShardSpec{0, 4}, s, "Kubernetes first")
	env["JOB_COMPLETION_INDEX"] = "4"
	_, err = ShardFromEnv(4, getenv)
	assert.ErrorContains(t, err, "0..3")
}

// TestAssignBalanced: the assignment cuts the input in contiguous ranges,
// the heaviest at most the average plus one part.
func TestAssignBalanced(t *testing.T) {
	rs := simLog(t, sim.Config{Game: gameCH, Rounds: 700, Seed: 28, Players: 3})
	dir := writeDataset(t, rs, 50, 100) // 7 parts of 100 rounds
	ds, err := roundlog.Open(dir)
	require.NoError(t, err)
	defer ds.Close()
	as := Assign(ds, LoadManifests([]string{dir}, nil), 3)
	require.Len(t, as, 7)
	load := map[int]int64{}
	for _, a := range as {
		load[a.Shard] += a.Rounds
	}
	// Contiguous ranges of the input: parts 0-1, 2-4 and 5-6 (each
	// part goes to the shard its middle falls in: 50, 150 | 250, 350,
	// 450 | 550, 650 of 700).
	assert.Equal(t, map[int]int64{0: 200, 1: 300, 2: 200}, load)
	var shards []int
	for _, a := range as {
		shards = append(shards, a.Shard)
	}
	assert.Equal(t, []int{0, 0, 1, 1, 1, 2, 2}, shards)
	assert.True(t, strings.HasSuffix(as[6].Path, "part-00006.parquet"))
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// shardAdversary makes replayLog replay every cheat as shards too
// (TestAdversarySharded).
var shardAdversary bool

// TestAdversarySharded runs every cheat of TestAdversary (issue 15's
// edited logs) again, each also written as a dataset of three parts and
// replayed as 2 and 3 shards: the merges give the unsharded replay's
// summary and findings byte for byte, and the (round, code, field) of the
// findings are those of the one-file log (requireShardedCheat). Without
// -tags heavy, every fourth cheat is replayed as shards (shardEvery).
func TestAdversarySharded(t *testing.T) {
	if testing.Short() {
		t.Skip("every cheat replayed as shards: run without -short")
	}
	shardAdversary, shardedCheats = true, 0
	defer func() { shardAdversary = false }()
	TestAdversary(t)
	assert.GreaterOrEqual(t, shardedCheats, 40, "cheats replayed as shards")
	assert.GreaterOrEqual(t, boundaryCuts, 80/shardEvery(), "cheats split at a finding's round")
}

// shardedCheats counts the logs given to requireShardedCheat and
// requireShardedCLI (each checks every shardEvery()-th).
var shardedCheats int

// shardEvery: the sharded adversary tests replay as shards every cheat
// under -tags heavy, and every fourth (the first included) in the default
// build (heavy_off_test.go).
func shardEvery() int {
	if heavyTests {
		return 1
	}
	return 4
}

// shardSkipped reports whether the cheat just counted in shardedCheats is
// left out of the sample.
func shardSkipped() bool { return (shardedCheats-1)%shardEvery() != 0 }

// requireShardedCheat writes rs as three JSON Lines parts, replays them
// unsharded and as 2 and 3 shards, and asserts that the merges are the
// unsharded replay byte for byte and find what the one-file replay found
// (fs): the same rounds, codes and fields.
func requireShardedCheat(t testing.TB, rs []round.Round, declared *profile.Profile, fs []finding.Finding) {
	t.Helper()
	shardedCheats++
	if shardSkipped() {
		return
	}
	dir := filepath.Join(t.TempDir(), "split")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "rounds"), 0o755))
	n := (len(rs) + 2) / 3
	for k := 0; k*n < len(rs); k++ {
		writeJSONL(t, filepath.Join(dir, "rounds", fmt.Sprintf("part-%05d.jsonl", k)), rs[k*n:min(len(rs), (k+1)*n)])
	}
	ds, err := roundlog.Open(dir)
	require.NoError(t, err)
	used := map[int]bool{}
	for _, a := range Assign(ds, LoadManifests([]string{dir}, nil), 3) {
		used[a.Shard] = true
	}
	require.NoError(t, ds.Close())
	require.Len(t, used, 3, "the three parts go to three shards")
	got := requireShardedSame(t, []string{dir}, declared, []int{2, 3})
	key := func(fs []finding.Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.RoundID+" "+string(f.Code)+" "+f.Field)
		}
		slices.Sort(out)
		return out
	}
	require.Equal(t, key(fs), key(got), "the cheat's findings, split in parts and sharded")

	// The boundary between two shards exactly at a finding's round, and
	// just after it: the round is the first of its keys in the second
	// shard's segment (its entry), or the last in the first's (its exit).
	at := map[string]int{}
	for i := range rs {
		if _, ok := at[rs[i].RoundID]; !ok {
			at[rs[i].RoundID] = i
		}
	}
	cuts := map[int]bool{}
	for _, f := range fs {
		if k, ok := at[f.RoundID]; ok && len(cuts) < 6 {
			for _, c := range []int{k, k + 1} {
				if c > 0 && c < len(rs) {
					cuts[c] = true
				}
			}
		}
	}
	for c := range cuts {
		dir := filepath.Join(t.TempDir(), "cut")
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "rounds"), 0o755))
		writeJSONL(t, filepath.Join(dir, "rounds", "part-00000.jsonl"), rs[:c])
		writeJSONL(t, filepath.Join(dir, "rounds", "part-00001.jsonl"), rs[c:])
		got := requireShardedSame(t, []string{dir}, declared, []int{2})
		require.Equal(t, key(fs), key(got), "the cheat's findings, split at round %d of %d and sharded", c, len(rs))
		boundaryCuts++
	}
}

// dropLines returns s without its lines that begin with prefix, and those
// lines.
func dropLines(s, prefix string) (string, []string) {
	var keep, dropped []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			dropped = append(dropped, l)
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n"), dropped
}

// boundaryCuts counts the splits of requireShardedCheat at a finding.
var boundaryCuts int

// requireShardedCLI replays dir with the command as 2 and 3 shards
// (`replay --shard I/N --part-out`, then `merge`), with the replay's extra
// options, and asserts that the merge prints the summary (out, without
// its seconds) and writes the findings file (findings) of the unsharded
// replay, with its exit code.
func (c fairholdCmd) requireShardedCLI(t testing.TB, dir, out string, findings []byte, code int, extra ...string) {
	t.Helper()
	shardedCheats++
	if shardSkipped() {
		return
	}
	noSeconds := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(l), `"seconds"`) {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	for _, n := range []int{2, 3} {
		pd := t.TempDir()
		var parts []string
		for i := range n {
			part := filepath.Join(pd, fmt.Sprintf("p%d.fhpart", i))
			sc, so := c.run(t, append([]string{"replay", dir, "--workers", "1", "--shard", fmt.Sprintf("%d/%d", i, n), "--part-out", part}, extra...)...)
			require.Zero(t, sc, so)
			parts = append(parts, part)
		}
		ff := filepath.Join(t.TempDir(), "findings.jsonl")
		mc, mo := c.run(t, append([]string{"merge", "--json", "--findings", ff}, parts...)...)
		assert.Equal(t, code, mc, "merge of %d shards: %s", n, mo)
		// The output holds stderr too: the merge's line saying how it
		// completed the checks that span shards goes.
		var path []string
		mo, path = dropLines(mo, "merge: the ")
		assert.Len(t, path, 1, "merge of %d shards: %s", n, mo)
		assert.Equal(t, noSeconds(out), noSeconds(mo), "summary of %d shards", n)
		b, err := os.ReadFile(ff)
		require.NoError(t, err)
		assert.Equal(t, string(findings), string(b), "findings of %d shards", n)
	}
}

// TestAdversaryDatasetSharded runs the dataset cheats of
// TestAdversaryDataset again, each replayed also by the command as 2 and 3
// shards and merged (requireShardedCLI); without -tags heavy, every
// fourth (shardEvery).
func TestAdversaryDatasetSharded(t *testing.T) {
	if testing.Short() {
		t.Skip("every dataset cheat replayed as shards: run without -short")
	}
	shardAdversary, shardedCheats = true, 0
	defer func() { shardAdversary = false }()
	TestAdversaryDataset(t)
	assert.GreaterOrEqual(t, shardedCheats, 5, "dataset cheats replayed as shards")
}
