package main

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

func TestSimulateListFaults(t *testing.T) {
	out, stderr, code := runCLI("simulate", "--list-faults", "--json")
	require.Equal(t, 0, code, stderr)
	var list struct {
		Verdict string               `json:"verdict"`
		Faults  []sim.CatalogueEntry `json:"faults"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	assert.Equal(t, "ok", list.Verdict)
	got := list.Faults
	require.Len(t, got, len(sim.Faults())+len(sim.LogFaults())+len(sim.DatasetFaults()))
	kinds := map[string]int{}
	for _, f := range got {
		kinds[f.Kind]++
		assert.NotEmpty(t, f.Name)
		assert.NotEmpty(t, f.Games, f.Name)
		assert.NotEmpty(t, f.Description, f.Name)
		_, ok := finding.Lookup(f.Finding)
		assert.True(t, ok, "%s: finding %q is a catalogued code", f.Name, f.Finding)
	}
	assert.Equal(t, len(sim.DatasetFaults()), kinds["dataset"])
	assert.Positive(t, kinds["round"])
	assert.Positive(t, kinds["session"])
	assert.Equal(t, len(sim.LogFaults()), kinds["log"])
	text, _, code := runCLI("simulate", "--list-faults")
	require.Equal(t, 0, code)
	assert.Contains(t, text, "tie-not-pushed -> TIE_NOT_PUSHED")
	assert.Contains(t, text, "part-missing -> PART_MISSING")
}

// treeOf maps the path (relative, with /) of every file under dir to its
// bytes.
func treeOf(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		rel, err := filepath.Rel(dir, p)
		require.NoError(t, err)
		out[filepath.ToSlash(rel)] = b
		return nil
	}))
	return out
}

func readManifest(t *testing.T, dir string) []sim.Injection {
	f, err := os.Open(filepath.Join(dir, faultsManifest))
	require.NoError(t, err)
	defer f.Close()
	var out []sim.Injection
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var in sim.Injection
		require.NoError(t, json.Unmarshal(sc.Bytes(), &in))
		out = append(out, in)
	}
	return out
}

func TestSimulateWritesLogAndManifest(t *testing.T) {
	for _, format := range []string{"parquet", "jsonl"} {
		t.Run(format, func(t *testing.T) {
			dirs := []string{t.TempDir(), t.TempDir()}
			for _, dir := range dirs {
				out, stderr, code := runCLI("simulate", "--game", "live-casino-holdem", "--rounds", "700", "--out", dir,
					"--seed", "5", "--faults", "tie-not-pushed:0.2,cards-mismatch:0.05", "--format", format, "--row-group", "100", "--part-rounds", "400")
				require.Equal(t, 0, code, stderr)
				assert.Contains(t, out, "simulated 700 live-casino-holdem rounds")
			}
			// Deterministic: the same bytes in both directories; one
			// folder per table, the fault list and the manifest at the top.
			files := treeOf(t, dirs[0])
			assert.Equal(t, treeOf(t, dirs[1]), files)
			want := []string{"boxes/part-00000.parquet", "boxes/part-00001.parquet", faultsManifest, manifest.FileName,
				"rounds/part-00000.parquet", "rounds/part-00001.parquet"}
			if format == "jsonl" {
				want = []string{faultsManifest, manifest.FileName, "rounds/part-00000.jsonl", "rounds/part-00001.jsonl"}
			}
			assert.Equal(t, want, sortedKeys(files))
			l, err := manifest.Load(dirs[0], nil)
			require.NoError(t, err)
			require.Len(t, l.Manifest.Parts, 2)
			assert.Equal(t, int64(400), l.Manifest.Parts[0].Rounds)
			assert.Equal(t, map[string]int{"EUR": 2}, l.Manifest.Currencies)
			inj := readManifest(t, dirs[0])
			codes := map[finding.Code]int{}
			for _, in := range inj {
				codes[in.Code]++
			}
			assert.Positive(t, codes[finding.TieNotPushed])
			assert.Positive(t, codes[finding.CardsMismatch])
			assert.Len(t, codes, 2)
			// The log reads back whole, and every manifest round is in it.
			ds, err := roundlog.Open(dirs[0])
			require.NoError(t, err)
			defer ds.Close()
			ids := map[string]bool{}
			dmg, err := ds.Scan(func(r *roundlog.Record) error {
				ids[strings.Clone(r.Round.RoundID)] = true // the reader reuses its strings
				return nil
			})
			require.NoError(t, err)
			assert.Empty(t, dmg)
			assert.Len(t, ids, 700)
			for _, in := range inj {
				assert.True(t, ids[in.RoundID], in.RoundID)
			}
		})
	}
}

func TestSimulateUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--rounds", "10", "--out", dir}, "--game is required"},
		{[]string{"--game", "casino-holdem", "--rounds", "10"}, "--out is required"},
		{[]string{"--game", "casino-holdem", "--rounds", "0", "--out", dir}, "--rounds"},
		{[]string{"--game", "poker", "--rounds", "10", "--out", dir}, "poker"},
		{[]string{"--game", "casino-holdem", "--rounds", "10", "--out", dir, "--format", "csv"}, "--format"},
		{[]string{"--game", "casino-holdem", "--rounds", "10", "--out", dir, "--faults", "no-such-fault"}, "unknown fault"},
		{[]string{"--game", "casino-holdem", "--rounds", "10", "--out", dir, "--faults", "tie-not-pushed:2"}, "rate"},
		{[]string{"--game", "casino-holdem", "--rounds", "10", "--out", dir, "--faults", "dh-pot-wrong-winner"}, "does not apply"},
		{[]string{"--game", "double-holdem", "--rounds", "10", "--out", dir, "--players", "11"}, "players"},
		{[]string{"--game", "casino-holdem", "--rounds", "10", "--out", dir, "--part-rounds", "0"}, "--part-rounds"},
		{[]string{"--game", "casino-holdem", "--rounds", "10", "--out", dir, "--faults", "part-missing,part-altered"}, "need 2 parts"},
	} {
		_, stderr, code := runCLI(append([]string{"simulate"}, tc.args...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.msg, tc.args)
	}
	// A key file that does not exist is an error of the environment.
	_, stderr, code := runCLI("simulate", "--game", "casino-holdem", "--rounds", "10", "--out", dir, "--manifest-key", filepath.Join(dir, "nope.pem"))
	assert.Equal(t, 1, code, stderr)
	assert.Contains(t, stderr, "--manifest-key")
}

// writeStrategy writes a whole strategy file (every state; decisions by
// the flop hand, not the optimal ones: the test is about the plumbing) for
// the named built-in profile, or only its first n states when n > 0.
func writeStrategy(t *testing.T, path, profileName string, n int) {
	t.Helper()
	p, err := profile.Builtin(profileName)
	require.NoError(t, err)
	states := exact.AllStates()
	if n > 0 {
		states = states[:n]
	}
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, exact.WriteStrategy(f, states, exact.DefaultParams(),
		func(s *exact.State) bool { return s.FlopValue.Category() >= hand.OnePair },
		exact.MetaProfile, p.Name, exact.MetaProfileHash, p.Hash()))
}

func TestSimulateOptimalStrategy(t *testing.T) {
	if testing.Short() {
		t.Skip("expands a whole strategy file")
	}
	dir := t.TempDir()
	strat := filepath.Join(dir, "strategy.parquet")
	writeStrategy(t, strat, round.CasinoHoldem, 0)

	out := filepath.Join(dir, "day")
	_, stderr, code := runCLI("simulate", "--game", "casino-holdem", "--rounds", "3000", "--players", "20", "--out", out, "--optimal-strategy", strat)
	require.Equal(t, 0, code, stderr)
	stdout, stderr, code := runCLI("replay", out, "--json")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, `"rounds": 3000`)

	// The players given the file's strategy change the log: without it the
	// same seed deals the same cards but some decisions differ.
	plain := filepath.Join(dir, "plain")
	_, stderr, code = runCLI("simulate", "--game", "casino-holdem", "--rounds", "3000", "--players", "20", "--out", plain)
	require.Equal(t, 0, code, stderr)
	a, err := os.ReadFile(filepath.Join(out, "boxes", "part-00000.parquet"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(plain, "boxes", "part-00000.parquet"))
	require.NoError(t, err)
	assert.NotEqual(t, a, b)

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"another profile", []string{"--game", "live-casino-holdem"}, `strategy for profile "casino-holdem"`},
		{"double hold'em", []string{"--game", "double-holdem"}, "has no call/fold strategy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"simulate", "--rounds", "10", "--out", filepath.Join(dir, "x"), "--optimal-strategy", strat}, tc.args...)
			_, stderr, code := runCLI(args...)
			assert.Equal(t, 2, code)
			assert.Contains(t, stderr, tc.want)
		})
	}
	t.Run("partial", func(t *testing.T) {
		part := filepath.Join(dir, "partial.parquet")
		writeStrategy(t, part, round.CasinoHoldem, 1000)
		_, stderr, code := runCLI("simulate", "--game", "casino-holdem", "--rounds", "10", "--out", filepath.Join(dir, "y"), "--optimal-strategy", part)
		assert.Equal(t, 2, code)
		assert.Contains(t, stderr, "partial.parquet: decides")
	})
	t.Run("not parquet", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.parquet")
		require.NoError(t, os.WriteFile(bad, []byte("no"), 0o644))
		_, stderr, code := runCLI("simulate", "--game", "casino-holdem", "--rounds", "10", "--out", filepath.Join(dir, "z"), "--optimal-strategy", bad)
		assert.Equal(t, 2, code)
		assert.Contains(t, stderr, "bad.parquet: not a Parquet file")
	})
}
