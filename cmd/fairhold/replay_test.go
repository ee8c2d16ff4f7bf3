package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// simDataset writes a simulated Parquet dataset and returns its directory
// and the number of injected faults.
func simDataset(t *testing.T, game string, rounds int64, faults string) (string, int) {
	t.Helper()
	fr, err := sim.ParseFaults(faults)
	require.NoError(t, err)
	s, err := sim.New(sim.Config{Game: game, Rounds: rounds, Seed: 5, Faults: fr})
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "log")
	w, err := roundlog.NewParquetWriter(dir, roundlog.Options{RowGroupRounds: 100})
	require.NoError(t, err)
	n := 0
	for !s.Done() {
		r, inj, err := s.Next()
		require.NoError(t, err)
		n += len(inj)
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	return dir, n
}

// summaryWithoutSeconds decodes a --json summary and drops "seconds".
func summaryWithoutSeconds(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &m), out)
	require.Contains(t, m, "seconds")
	delete(m, "seconds")
	return m
}

func TestReplayClean(t *testing.T) {
	dir, _ := simDataset(t, "casino-holdem", 500, "")
	out, stderr, code := runCLI("replay", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "rounds:    500 ")
	assert.Contains(t, out, "findings:  none")
	assert.Empty(t, stderr, "no progress bar when stderr is not a terminal")

	out, stderr, code = runCLI("replay", dir, "--json")
	require.Equal(t, 0, code, stderr)
	m := summaryWithoutSeconds(t, out)
	assert.EqualValues(t, 500, m["rounds"])
	assert.Empty(t, m["findings"])
	for _, k := range []string{"wagered", "returned", "rtp"} {
		g := m[k].(map[string]any)["casino-holdem"].(map[string]any)["EUR"].(map[string]any)
		assert.Contains(t, g, "ante", k)
		assert.Contains(t, g, "total", k)
	}
	assert.Equal(t, map[string]any{"EUR": map[string]any{"decimals": 2.0, "source": "iso-4217", "rounds": 500.0}}, m["currencies"])
	voids := m["voids"].([]any)
	require.Len(t, voids, 1)
	assert.Equal(t, "rng-1", voids[0].(map[string]any)["table"])
}

func TestReplayCurrencyFlag(t *testing.T) {
	dir, _ := simDataset(t, "casino-holdem", 50, "")
	out, stderr, code := runCLI("replay", dir, "--currency", "EUR:3", "--currency", "ETH:18")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "EUR (3 decimals, declared)")
	for _, bad := range []string{"EUR", "eur:2", "ETH:19", "ETH:x"} {
		_, stderr, code := runCLI("replay", dir, "--currency", bad)
		assert.Equal(t, 2, code, bad)
		assert.Contains(t, stderr, "--currency", bad)
	}
}

func TestReplayFindingsDeterministic(t *testing.T) {
	dir, injected := simDataset(t, "casino-holdem", 800, "balance-off-by-one:0.02,cards-mismatch:0.02")
	require.Positive(t, injected)
	tmp := t.TempDir()
	var firstFile []byte
	var firstSum map[string]any
	for _, w := range []string{"1", "2", "5"} {
		for _, ext := range []string{".jsonl", ".parquet"} {
			fp := filepath.Join(tmp, "f"+w+ext)
			out, stderr, code := runCLI("replay", dir, "--workers", w, "--json", "--findings", fp)
			require.Equal(t, 3, code, stderr)
			m := summaryWithoutSeconds(t, out)
			fs := m["findings"].(map[string]any)
			assert.EqualValues(t, injected, fs["BALANCE_MISMATCH"].(float64)+fs["CARDS_MISMATCH"].(float64))
			b, err := os.ReadFile(fp)
			require.NoError(t, err)
			if ext == ".jsonl" {
				assert.Equal(t, injected, bytes.Count(b, []byte("\n")))
				if firstFile == nil {
					firstFile, firstSum = b, m
				} else {
					assert.Equal(t, firstFile, b, "findings with --workers %s", w)
					assert.Equal(t, firstSum, m, "summary with --workers %s", w)
				}
			}
		}
	}
	// Parquet findings files are identical too.
	a, err := os.ReadFile(filepath.Join(tmp, "f1.parquet"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(tmp, "f5.parquet"))
	require.NoError(t, err)
	assert.Equal(t, a, b)

	out, _, code := runCLI("replay", dir)
	assert.Equal(t, 3, code)
	assert.Contains(t, out, "BALANCE_MISMATCH")
	assert.Contains(t, out, "first findings:")
}

func TestReplayErrors(t *testing.T) {
	dir, _ := simDataset(t, "casino-holdem", 10, "")
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no path", []string{"replay"}, 2, "requires at least 1 arg"},
		{"missing path", []string{"replay", filepath.Join(dir, "nope")}, 1, "nope"},
		{"bad workers", []string{"replay", dir, "--workers", "-1"}, 2, "--workers"},
		{"bad findings name", []string{"replay", dir, "--findings", "f.txt"}, 2, ".parquet, .jsonl or .csv"},
		{"unknown findings format", []string{"replay", dir, "--findings", "f.out", "--findings-format", "xlsx"}, 2, "want parquet, jsonl or csv"},
		{"unknown profile", []string{"replay", dir, "--profile", "no-such-profile"}, 2, "no-such-profile"},
		{"profile of another game", []string{"replay", dir, "--profile", "double-holdem"}, 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(tt.args...)
			assert.Equal(t, tt.code, code, stderr)
			assert.True(t, strings.Contains(stderr, tt.msg), stderr)
		})
	}
}

func TestReplayUnreadable(t *testing.T) {
	for _, rel := range []string{filepath.Join("rounds", "part-00000.parquet"), "part-00000.rounds.parquet"} {
		dir := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, rel), []byte("not parquet"), 0o644))
		_, stderr, code := runCLI("replay", dir)
		assert.Equal(t, 1, code, stderr)
		assert.Contains(t, stderr, rel)
	}
}
