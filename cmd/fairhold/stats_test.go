package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
)

func TestStatsJSON(t *testing.T) {
	out, errOut, code := runCLI("stats", "--decks", "5000", "--seed", "9", "--json")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	var rep struct {
		Tests []struct {
			Name      string   `json:"name"`
			Statistic *float64 `json:"statistic"`
			DF        *int     `json:"df"`
			P         *float64 `json:"p"`
			Pass      *bool    `json:"pass"`
		} `json:"tests"`
		Policy string `json:"policy"`
		Pass   bool   `json:"pass"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.True(t, rep.Pass)
	assert.Contains(t, rep.Policy, "Holm")
	require.Len(t, rep.Tests, 172)
	for _, ts := range rep.Tests {
		require.NotNil(t, ts.Statistic, ts.Name)
		require.NotNil(t, ts.DF, ts.Name)
		require.NotNil(t, ts.P, ts.Name)
		require.NotNil(t, ts.Pass, ts.Name)
		assert.True(t, *ts.P >= 0 && *ts.P <= 1, ts.Name)
	}
	assert.Equal(t, "position/global", rep.Tests[0].Name)
	assert.Equal(t, 2601, *rep.Tests[0].DF)
}

func TestStatsDeterministicAcrossWorkers(t *testing.T) {
	a, _, ca := runCLI("stats", "--decks", "20000", "--workers", "1", "--json")
	b, _, cb := runCLI("stats", "--decks", "20000", "--workers", "2", "--json")
	require.Equal(t, 0, ca)
	require.Equal(t, 0, cb)
	assert.Equal(t, a, b)
	c, _, _ := runCLI("stats", "--decks", "20000", "--seed", "2", "--json")
	assert.NotEqual(t, a, c)
}

func TestStatsFailsWithReplacement(t *testing.T) {
	out, _, code := runCLI("stats", "--scheme", "stake-compat", "--decks", "5000")
	assert.Equal(t, exitVerified, code)
	assert.Contains(t, out, "validity")
	assert.Contains(t, out, "result: FAIL")
	assert.Contains(t, out, "note: small-deck permutations left out")
}

func TestStatsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"stats", "--decks", "10"},
		{"stats", "--scheme", "nope"},
		{"stats", "--alpha", "2"},
		{"stats", "nist", "--bits", "1000"},
		{"stats", "nist", "--sequences", "0"},
	} {
		_, errOut, code := runCLI(args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, errOut)
		assert.NotEmpty(t, errOut, "%v", args)
	}
	_, errOut, code := runCLI("stats", "nist", "--ascii", "/nonexistent/file")
	assert.Equal(t, exitError, code, "a missing input file: %s", errOut)
}

func TestStatsNISTSample(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "reference", "nist", "data.e")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("NIST sample %s not found (expected ../shared beside the repository)", path)
	}
	out, errOut, code := runCLI("stats", "nist", "--ascii", path, "--sequences", "1")
	require.Contains(t, []int{0, 3}, code, errOut)
	for _, want := range []string{"frequency", "0.953749", "fft", "0.847187", "linear-complexity", "0.826202"} {
		assert.Contains(t, out, want)
	}
}

func TestStatsNISTStream(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the NIST suite on several sequences")
	}
	a, errOut, code := runCLI("stats", "nist", "--sequences", "3", "--bits", "400000", "--workers", "1", "--json")
	require.Contains(t, []int{0, 3}, code, errOut)
	b, _, _ := runCLI("stats", "nist", "--sequences", "3", "--bits", "400000", "--workers", "2", "--json")
	assert.Equal(t, a, b)
	var rep struct {
		Tests []struct {
			Name      string `json:"name"`
			Sequences int    `json:"sequences"`
		} `json:"tests"`
		Pass bool `json:"pass"`
	}
	require.NoError(t, json.Unmarshal([]byte(a), &rep))
	assert.Len(t, rep.Tests, 188)
	assert.Equal(t, "frequency", rep.Tests[0].Name)
	assert.Equal(t, 3, rep.Tests[0].Sequences)
}

// writeStatsLog writes n Casino Hold'em rounds dealt by a scheme to a JSON
// Lines round log and returns its path.
func writeStatsLog(t *testing.T, schemeName string, n int) string {
	t.Helper()
	sch, err := scheme.Lookup(schemeName)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "rounds.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	w, err := roundlog.NewJSONLWriter(f)
	require.NoError(t, err)
	seed := make([]byte, 32)
	for i := range n {
		cs, err := sch.Deal(scheme.Input{ServerSeed: seed, ClientSeeds: []string{"player"}, Nonce: uint64(i)}, 9)
		require.NoError(t, err)
		s := func(k int) string { return card.Card(cs[k]).String() }
		require.NoError(t, w.Write(&round.Round{
			RoundID: fmt.Sprintf("r%d", i), Game: round.CasinoHoldem, Currency: "EUR",
			Fairness: round.Fairness{Scheme: schemeName, ServerSeed: fmt.Sprintf("%064x", 0), ClientSeeds: []string{"player"}, Nonce: uint64(i)},
			Boxes:    []round.Box{{Box: 1, Cards: []string{s(0), s(1)}, AnteRequested: 1, Ante: 1}},
			Dealer:   []string{s(2), s(3)},
			Board:    []string{s(4), s(5), s(6), s(7), s(8)},
		}))
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	return path
}

func TestStatsFromLog(t *testing.T) {
	path := writeStatsLog(t, scheme.FairholdV1Name, 6000)
	out, errOut, code := runCLI("stats", "--from-log", path)
	require.Equal(t, 0, code, "stdout %s stderr %s", out, errOut)
	assert.Contains(t, out, "log battery: "+path+", 6000 rounds")
	assert.Contains(t, out, "position/player-1/card")

	bad := writeStatsLog(t, scheme.StakeCompatName, 6000)
	out, _, code = runCLI("stats", "--from-log", bad, "--json")
	assert.Equal(t, exitVerified, code)
	assert.Contains(t, out, `"validity"`)

	_, errOut, code = runCLI("stats", "--from-log", path, "--decks", "6000")
	assert.Equal(t, exitUsage, code, errOut)
	_, errOut, code = runCLI("stats", "--from-log", filepath.Join(t.TempDir(), "missing.jsonl"))
	assert.Equal(t, exitError, code, errOut)
}
