package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

func TestSimulateListFaults(t *testing.T) {
	out, stderr, code := runCLI("simulate", "--list-faults", "--json")
	require.Equal(t, 0, code, stderr)
	var got []faultListing
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got, len(sim.Faults()))
	for _, f := range got {
		assert.NotEmpty(t, f.Name)
		assert.NotEmpty(t, f.Games, f.Name)
		assert.NotEmpty(t, f.Description, f.Name)
		_, ok := finding.Lookup(finding.Code(f.Finding))
		assert.True(t, ok, "%s: finding %q is a catalogued code", f.Name, f.Finding)
	}
	text, _, code := runCLI("simulate", "--list-faults")
	require.Equal(t, 0, code)
	assert.Contains(t, text, "tie-not-pushed -> TIE_NOT_PUSHED")
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
					"--seed", "5", "--faults", "tie-not-pushed:0.2,cards-mismatch:0.05", "--format", format, "--row-group", "100")
				require.Equal(t, 0, code, stderr)
				assert.Contains(t, out, "simulated 700 live-casino-holdem rounds")
			}
			// Deterministic: the same bytes in both directories.
			ents, err := os.ReadDir(dirs[0])
			require.NoError(t, err)
			for _, e := range ents {
				a, err := os.ReadFile(filepath.Join(dirs[0], e.Name()))
				require.NoError(t, err)
				b, err := os.ReadFile(filepath.Join(dirs[1], e.Name()))
				require.NoError(t, err)
				assert.True(t, bytes.Equal(a, b), e.Name())
			}
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
	} {
		_, stderr, code := runCLI(append([]string{"simulate"}, tc.args...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.msg, tc.args)
	}
}
