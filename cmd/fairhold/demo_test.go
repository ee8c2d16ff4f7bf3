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

	"github.com/fairhold/fairhold/certify/demo"
	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/replay/finding"
)

// TestDemo runs the demo as the README does, on a smaller day: in -short
// mode without the exact mathematics (the claims and the return checks),
// which takes most of the full run.
func TestDemo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demo")
	args := []string{"demo", "--rounds", "6000", "--decks", "5000", "--out", out, "--json"}
	if testing.Short() {
		args = append(args, "--no-math")
	}
	var stdout, stderr bytes.Buffer
	code := run(args, nil, &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr.String(), stdout.String())
	assert.Empty(t, stderr.String(), "no progress on stderr when it is not a terminal")

	var rep demo.Report
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep))
	assert.True(t, rep.OK)
	assert.Equal(t, out, rep.Out)
	who := map[string]int{}
	for _, s := range rep.Steps {
		assert.True(t, s.OK, "%s: %s", s.Command, s.Detail)
		who[s.Who]++
	}
	// 3 clean + 3 faulty simulations, 1 with the dataset faults, 1 with
	// the commitment log's faults, 1 for the player's round, the engine's
	// answers and the operator's key; 8 replays and 2 report verifications;
	// 2 player checks; selftest, vectors export, keys new and 2
	// certifications.
	assert.Equal(t, map[string]int{"operator": 11, "regulator": 10, "player": 2, "lab": 5}, who)

	// The faulty replays found exactly what was injected, and something was.
	faulty := 0
	for _, s := range rep.Steps {
		if s.Who == "regulator" && strings.HasPrefix(s.Command, "replay") && strings.Contains(s.Command, "faulty") {
			faulty++
			assert.Contains(t, s.Detail, "missed 0, unexpected 0")
			assert.NotContains(t, s.Detail, " 0 faults injected")
		}
	}
	assert.Equal(t, 5, faulty)
	assert.FileExists(t, filepath.Join(out, "findings", "commitments-faulty.jsonl"))
	for _, g := range []string{"casino-holdem", "live-casino-holdem", "double-holdem"} {
		assert.FileExists(t, filepath.Join(out, "findings", g+"-faulty.jsonl"))
		assert.FileExists(t, filepath.Join(out, "logs", g+"-faulty", faultsManifest))
	}

	// The demo key.
	assert.Equal(t, report.Ed25519, rep.Key.Algorithm)
	assert.Equal(t, filepath.Join(out, "demo-key.pub"), rep.Key.Public)
	assert.Contains(t, rep.Key.Note, "demo key")
	pub, err := report.ReadPublicKey(rep.Key.Public)
	require.NoError(t, err)

	require.Len(t, rep.Certificates, 2)
	clean, bad := rep.Certificates[0], rep.Certificates[1]

	// The clean operator is certified: verdict pass, and the report
	// verifies with the demo key, every certified file at hand.
	assert.Equal(t, "clean", clean.Operator)
	assert.True(t, clean.OK, "%v", clean.Problems)
	assert.Equal(t, report.VerdictPass, clean.Verdict)
	assert.Empty(t, clean.Failing)
	assert.Empty(t, clean.Injected)
	assert.Empty(t, clean.Findings)
	wantReqs := 4
	if !testing.Short() {
		wantReqs = 8
	}
	assert.Equal(t, wantReqs, clean.Requirements)
	v := verifyDemoReport(t, clean.Report, pub, out)
	assert.Equal(t, report.VerdictPass, v.Verdict)
	assert.Equal(t, report.VerdictPass, v.Statement.Predicate.Verdict)
	for _, r := range v.Statement.Predicate.Requirements {
		assert.Equal(t, report.Pass, r.Status, "%s: %s", r.ID, r.Evidence.Summary)
	}

	// The faulty operator is refused for exactly the injected faults: the
	// replay finds the codes of faults.jsonl and no other; the log
	// battery fails on the repeated card and the repeated decks; in the
	// full run, the observed AA Bonus return (whose expected value the
	// cards decide) on the AA Bonus faults. Nothing else fails.
	assert.Equal(t, "faulty", bad.Operator)
	assert.True(t, bad.OK, "%v", bad.Problems)
	assert.Equal(t, report.VerdictFail, bad.Verdict)
	injected := injectedCodes(t, filepath.Join(out, "logs", "casino-holdem-faulty", faultsManifest))
	assert.Equal(t, injected, codeStrings(bad.Injected))
	assert.Equal(t, injected, codeStrings(bad.Findings))
	wantFailing := []string{demo.ReqLoggedCards, demo.ReqReplay}
	if !testing.Short() {
		wantFailing = append(wantFailing, demo.ReqObserved)
	}
	assert.Equal(t, wantFailing, bad.Failing)
	causes := map[string]demo.Cause{}
	for _, c := range bad.Causes {
		causes[c.Requirement] = c
		assert.True(t, c.Certain, c.Requirement)
	}
	assert.Equal(t, []finding.Code{finding.CardDuplicate, finding.NonceReused}, causes[demo.ReqLoggedCards].Codes)
	if !testing.Short() {
		assert.Equal(t, []demo.Failure{{What: "aa-bonus casino-holdem EUR", Codes: []finding.Code{finding.BonusPaidAfterFold, finding.BonusPayoutWrong}}},
			causes[demo.ReqObserved].Failed)
	}
	v = verifyDemoReport(t, bad.Report, pub, out)
	assert.Equal(t, report.VerdictFail, v.Verdict)
	var failing []string
	for _, r := range v.Statement.Predicate.Requirements {
		if r.Status == report.Fail {
			failing = append(failing, r.ID)
		}
	}
	assert.Equal(t, wantFailing, failing, "the signed report's own statuses")

	// The HTML reports exist, with their verdicts and charts.
	for _, c := range rep.Certificates {
		html, err := os.ReadFile(c.HTML)
		require.NoError(t, err, c.Operator)
		assert.Contains(t, string(html), "<svg", c.Operator)
	}

	// The suite leaves out the AA Bonus claim, and says why.
	require.NotEmpty(t, rep.Excluded)
	assert.Equal(t, "claim aa-bonus-optimal", rep.Excluded[0].What)
	assert.Contains(t, rep.Excluded[0].Why, "90.9%")
	assert.Contains(t, rep.Excluded[0].Why, "90.78%")
	suiteData, err := os.ReadFile(clean.Suite)
	require.NoError(t, err)
	if !testing.Short() {
		assert.Contains(t, string(suiteData), `"main-optimal"`)
	}
	assert.Contains(t, string(suiteData), "on 5,000 decks of the scheme")
	assert.NotContains(t, string(suiteData), `"aa-bonus-optimal"`)

	// The screen: run again into the same directory (the demo's own
	// files are replaced), without --json.
	stdout.Reset()
	stderr.Reset()
	code = run([]string{"demo", "--rounds", "6000", "--decks", "5000", "--out", out, "--no-math"}, nil, &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	screen := stdout.String()
	for _, want := range []string{
		"clean operator   CERTIFIED, as expected",
		"faulty operator  REFUSED, as expected: failed stats.logged-cards, replay.resettle, for exactly its",
		"validity <- CARD_DUPLICATE",
		"exactly the codes of the faults injected",
		"DEMO key",
		"claim aa-bonus-optimal",
		"HTML report, clean operator: " + filepath.Join(out, "clean-operator", "report.html"),
		"demo: every step gave the expected result",
	} {
		assert.Contains(t, screen, want)
	}
}

// verifyDemoReport verifies a demo report with the demo key and its
// subjects under dir, as a regulator would with certify/report.
func verifyDemoReport(t *testing.T, path string, pub *report.PublicKey, dir string) *report.Verification {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	env, err := report.ParseEnvelope(data)
	require.NoError(t, err)
	v, err := report.Verify(env, pub)
	require.NoError(t, err, path)
	require.NoError(t, v.CheckSubjects(os.DirFS(dir)), path)
	require.True(t, v.Verified, path)
	return v
}

func codeStrings(cs []finding.Code) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, string(c))
	}
	return out
}

func TestDemoUsage(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "foreign")
	require.NoError(t, os.MkdirAll(foreign, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine\n"), 0o644))
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"demo", "--rounds", "0"}, "--rounds 0"},
		{[]string{"demo", "--rounds", "5999"}, "--rounds 5999: want at least 6000"},
		{[]string{"demo", "--decks", "10"}, "--decks 10"},
		{[]string{"demo", "--decks", "4294967296"}, "--decks 4294967296"},
		{[]string{"demo", "--workers", "-1"}, "--workers -1"},
		{[]string{"demo", "--out", ""}, "--out: empty"},
		{[]string{"demo", "--out", foreign}, "not written by fairhold demo"},
		{[]string{"demo", "--out", file}, "not a directory"},
		{[]string{"demo", "extra"}, "unknown command"},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, nil, &out, &errb)
		assert.Equal(t, exitUsage, code, tc.args)
		assert.Contains(t, errb.String(), tc.want, tc.args)
	}
	// Nothing of the foreign directory was touched.
	ents, err := os.ReadDir(foreign)
	require.NoError(t, err)
	assert.Len(t, ents, 1)
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
