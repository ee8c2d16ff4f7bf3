package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates and replays six logs")
	}
	keep := filepath.Join(t.TempDir(), "logs")
	var out, errb bytes.Buffer
	code := run([]string{"demo", "--rounds", "4000", "--decks", "5000", "--keep", keep, "--json"}, nil, &out, &errb)
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", errb.String(), out.String())

	var rep demoReport
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	assert.True(t, rep.OK)
	who := map[string]int{}
	for _, s := range rep.Steps {
		assert.True(t, s.OK, "%s: %s", s.Command, s.Detail)
		who[s.Who]++
	}
	// 3 honest + 3 faulty simulations + 1 with the dataset faults + 1 for
	// the player's round; 7 replays; 2 player checks; selftest and stats.
	assert.Equal(t, map[string]int{"operator": 8, "regulator": 7, "player": 2, "lab": 2}, who)

	// The faulty replays found exactly what was injected, and something was.
	faulty := 0
	for _, s := range rep.Steps {
		if s.Who == "regulator" && strings.Contains(s.Command, "faulty") {
			faulty++
			assert.Contains(t, s.Detail, "missed 0, unexpected 0")
			assert.NotContains(t, s.Detail, " 0 faults injected")
		}
	}
	assert.Equal(t, 4, faulty)

	// --keep keeps the logs, with the findings next to the manifest.
	for _, g := range []string{"casino-holdem", "live-casino-holdem", "double-holdem"} {
		_, err := os.Stat(filepath.Join(keep, g+"-faulty", "findings.jsonl"))
		assert.NoError(t, err, g)
		_, err = os.Stat(filepath.Join(keep, g+"-faulty", faultsManifest))
		assert.NoError(t, err, g)
	}
}

func TestDemoUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"demo", "--rounds", "0"}, "--rounds 0"},
		{[]string{"demo", "--decks", "10"}, "--decks 10"},
		{[]string{"demo", "--workers", "-1"}, "--workers -1"},
		{[]string{"demo", "extra"}, "unknown command"},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, nil, &out, &errb)
		assert.Equal(t, exitUsage, code, tc.args)
		assert.Contains(t, errb.String(), tc.want, tc.args)
	}
}

func TestCompareFindingsReportsMissesAndExtras(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "faults.jsonl")
	found := filepath.Join(dir, "findings.jsonl")
	require.NoError(t, os.WriteFile(manifest, []byte(
		`{"round_id":"r1","fault":"tie-not-pushed","code":"TIE_NOT_PUSHED"}`+"\n"+
			`{"round_id":"r2","fault":"cards-mismatch","code":"CARDS_MISMATCH"}`+"\n"), 0o644))
	require.NoError(t, os.WriteFile(found, []byte(
		`{"round_id":"r1","code":"TIE_NOT_PUSHED"}`+"\n"+
			`{"round_id":"r3","code":"BALANCE_MISMATCH"}`+"\n"), 0o644))
	res := subResult{stdout: `{"rounds": 3, "findings": {"TIE_NOT_PUSHED": 1, "BALANCE_MISMATCH": 1}}`, code: exitVerified}

	ok, detail := compareFindings(res, manifest, found, 2)
	assert.False(t, ok)
	assert.Contains(t, detail, "missed 1, unexpected 1")
	assert.Contains(t, detail, "first missed: r2 CARDS_MISMATCH")
	assert.Contains(t, detail, "first unexpected: r3 BALANCE_MISMATCH")

	// The same findings as injected, but exit 0: a replay that found the
	// faults must say so with its exit code.
	require.NoError(t, os.WriteFile(found, []byte(
		`{"round_id":"r1","code":"TIE_NOT_PUSHED"}`+"\n"+`{"round_id":"r2","code":"CARDS_MISMATCH"}`+"\n"), 0o644))
	ok, _ = compareFindings(res, manifest, found, 2)
	assert.True(t, ok)
	res.code = exitOK
	ok, _ = compareFindings(res, manifest, found, 2)
	assert.False(t, ok)
}
