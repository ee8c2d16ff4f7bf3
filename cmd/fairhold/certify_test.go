package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/report"
)

// certifyLab is a directory with two simulated operators (clean and
// faulty), fairhold's answers to the vectors, a variant with one card
// wrong, and a lab key.
type certifyLab struct {
	dir    string
	faults []string // the fault names injected into the faulty operator
}

func newCertifyLab(t *testing.T, rounds string, faults ...string) certifyLab {
	t.Helper()
	dir := t.TempDir()
	lab := certifyLab{dir: dir, faults: faults}
	run := func(args ...string) {
		t.Helper()
		_, stderr, code := runCLI(args...)
		require.Equal(t, 0, code, "%v: %s", args, stderr)
	}
	// The operator signs its manifests; the lab is given its public key.
	run("keys", "new", "--out", filepath.Join(dir, "operator"))
	opKey := filepath.Join(dir, "operator.key")
	run("simulate", "--game", "casino-holdem", "--rounds", rounds, "--seed", "11", "--out", filepath.Join(dir, "clean"), "--manifest-key", opKey)
	run("simulate", "--game", "casino-holdem", "--rounds", rounds, "--seed", "12", "--out", filepath.Join(dir, "faulty"),
		"--faults", strings.Join(faults, ","), "--manifest-key", opKey)
	run("vectors", "export", filepath.Join(dir, "inputs"))
	run("vectors", "answer", filepath.Join(dir, "inputs"), "--out", filepath.Join(dir, "answers.jsonl"))
	run("keys", "new", "--out", filepath.Join(dir, "lab"))
	// The engine that deals one card wrong: the dealer's first card of the
	// worked example.
	data, err := os.ReadFile(filepath.Join(dir, "answers.jsonl"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, `{"vector":"fairness/v1-worked-example",`) {
			lines[i] = strings.Replace(l, `"4h"`, `"4c"`, 1)
			require.NotEqual(t, l, lines[i])
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wrong-card.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	return lab
}

// labSuite returns a suite over a log and an answer file: in -short mode
// without the checks that solve the game.
func labSuite(log, answers string) string {
	reqs := []string{
		`{"id": "vectors.engine-conformance", "text": "the engine's answer to every test vector is the expected one", "check": "vectors"}`,
		`{"id": "stats.scheme-decks", "text": "per-position chi-square at 99% on the scheme's decks", "check": "stats-scheme", "params": {"decks": 5000}}`,
		`{"id": "stats.logged-cards", "text": "the logged cards pass the log battery at 99%", "check": "stats-log"}`,
		`{"id": "replay.resettle", "text": "every logged round re-settles", "check": "replay"}`,
	}
	if !testing.Short() {
		reqs = append(reqs,
			`{"id": "math.main-claims", "text": "published RTP of the main game reproduced (optimal strategy)", "check": "math-claims", "params": {"claims": ["main-optimal"]}}`,
			`{"id": "rtp.observed", "text": "observed RTP inside its 99% interval", "check": "rtp-observed"}`,
			`{"id": "rtp.decisions", "text": "every box's return agrees with the exact expectation of the decision taken", "check": "rtp-decisions"}`)
	}
	return `{"name": "lab", "game": "casino-holdem", "profile": "casino-holdem",
  "artefacts": {"logs": ["` + log + `"], "answers": "` + answers + `"},
  "requirements": [` + strings.Join(reqs, ",\n") + `]}`
}

func (l certifyLab) suite(t *testing.T, name, log, answers string) string {
	t.Helper()
	p := filepath.Join(l.dir, name)
	require.NoError(t, os.WriteFile(p, []byte(labSuite(log, answers)), 0o644))
	return p
}

// certify runs the suite with --json and returns the predicate and the
// exit code.
func (l certifyLab) certify(t *testing.T, suite, out string, extra ...string) (report.Predicate, int) {
	t.Helper()
	args := append([]string{"certify", suite, "--out", filepath.Join(l.dir, out), "--key", filepath.Join(l.dir, "lab.key"),
		"--time", "2026-03-01T12:00:00Z", "--json"}, extra...)
	if !slices.Contains(extra, "--manifest-key") {
		args = append(args, "--manifest-key", filepath.Join(l.dir, "operator.pub"))
	}
	stdout, stderr, code := runCLI(args...)
	// The predicate, with the command's verdict first and the report's
	// own under "report_verdict".
	var printed struct {
		report.Predicate
		ReportVerdict report.Verdict `json:"report_verdict"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &printed), "stdout %q, stderr %s", stdout, stderr)
	p := printed.Predicate
	want := map[report.Verdict]string{report.VerdictPass: "ok", report.VerdictFail: "failed", report.VerdictIncomplete: "partial"}[printed.ReportVerdict]
	require.Equal(t, want, string(p.Verdict), "the command's verdict for the report's %s", printed.ReportVerdict)
	p.Verdict = printed.ReportVerdict
	return p, code
}

func failing(p report.Predicate) []string {
	var out []string
	for _, r := range p.Requirements {
		if r.Status == report.Fail {
			out = append(out, r.ID)
		}
	}
	return out
}

func requirement(t *testing.T, p report.Predicate, id string) report.Requirement {
	t.Helper()
	for _, r := range p.Requirements {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no requirement %s", id)
	return report.Requirement{}
}

// The done-when: a clean operator is certified, a faulty one
// fails for exactly the injected reasons, and an engine whose answers
// differ from the vectors in one card fails naming the vector and card.
func TestCertifyDoneWhen(t *testing.T) {
	rounds := "6000"
	lab := newCertifyLab(t, rounds, "tie-not-pushed", "cards-mismatch", "bonus-wrong-multiple")

	t.Run("clean-without-the-operators-key", func(t *testing.T) {
		// The manifest is signed, but the lab was not given the key: the
		// signature, and so the dataset's completeness, is a check not made.
		stdout, stderr, code := runCLI("certify", lab.suite(t, "clean-nokey.json", "clean", "answers.jsonl"), "--out", filepath.Join(lab.dir, "cert-nokey"),
			"--key", filepath.Join(lab.dir, "lab.key"), "--time", "2026-03-01T12:00:00Z", "--json")
		assert.Equal(t, 3, code, stderr)
		assert.Contains(t, stdout, `"report_verdict": "incomplete"`)
		assert.Contains(t, stdout, "no key was given")
	})
	t.Run("clean", func(t *testing.T) {
		p, code := lab.certify(t, lab.suite(t, "clean.json", "clean", "answers.jsonl"), "cert-clean")
		assert.Equal(t, 0, code)
		assert.Equal(t, report.VerdictPass, p.Verdict)
		for _, r := range p.Requirements {
			assert.Equal(t, report.Pass, r.Status, "%s: %s", r.ID, r.Evidence.Summary)
		}
		stdout, stderr, code := runCLI("report", "verify", filepath.Join(lab.dir, "cert-clean", "report.json"),
			"--key", filepath.Join(lab.dir, "lab.pub"), "--subjects", lab.dir)
		assert.Equal(t, 0, code, "%s%s", stdout, stderr)
		assert.Contains(t, stdout, "subject    ok        clean/manifest.json")
		assert.Contains(t, stdout, "subject    ok        answers.jsonl")
		assert.Contains(t, stdout, "subject    ok        clean.json")
	})

	t.Run("faulty", func(t *testing.T) {
		p, code := lab.certify(t, lab.suite(t, "faulty.json", "faulty", "answers.jsonl"), "cert-faulty")
		assert.Equal(t, 3, code)
		assert.Equal(t, report.VerdictFail, p.Verdict)
		// Every fault fails the replay; the AA Bonus paid at the wrong
		// multiple also fails the observed-return test, whose AA Bonus
		// return is known from the cards and the decisions.
		want := []string{"replay.resettle"}
		if !testing.Short() {
			want = append(want, "rtp.observed")
			var rep struct {
				Cells []struct {
					Bets []struct {
						Bet  string `json:"bet"`
						Pass bool   `json:"pass"`
					} `json:"bets"`
				} `json:"cells"`
			}
			require.NoError(t, json.Unmarshal(requirement(t, p, "rtp.observed").Evidence.Result, &rep))
			var outside []string
			for _, b := range rep.Cells[0].Bets {
				if !b.Pass {
					outside = append(outside, b.Bet)
				}
			}
			assert.Equal(t, []string{"aa-bonus"}, outside)
		}
		assert.Equal(t, want, failing(p))
		var sum struct {
			Findings map[string]int64 `json:"findings"`
		}
		r := requirement(t, p, "replay.resettle")
		require.NoError(t, json.Unmarshal(r.Evidence.Result, &sum))
		var found []string
		for c := range sum.Findings {
			found = append(found, c)
		}
		slices.Sort(found)
		assert.Equal(t, injectedCodes(t, filepath.Join(lab.dir, "faulty", "faults.jsonl")), found)
		require.Len(t, r.Evidence.Charts, 1)
		assert.Equal(t, report.ChartBars, r.Evidence.Charts[0].Kind)
	})

	t.Run("one card wrong", func(t *testing.T) {
		p, code := lab.certify(t, lab.suite(t, "wrong.json", "clean", "wrong-card.jsonl"), "cert-wrong")
		assert.Equal(t, 3, code)
		assert.Equal(t, []string{"vectors.engine-conformance"}, failing(p))
		r := requirement(t, p, "vectors.engine-conformance")
		assert.Contains(t, r.Evidence.Summary, "fairness/v1-worked-example: wrong")
		assert.Contains(t, r.Evidence.Summary, "card 3 (dealer, first card) is 4c, expected 4h")
		assert.Contains(t, r.Evidence.Summary, "1 wrong")
	})
}

// injectedCodes returns the finding codes of a simulation's faults.jsonl,
// sorted, each once.
func injectedCodes(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var codes []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var inj struct {
			Code string `json:"code"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &inj))
		if !slices.Contains(codes, inj.Code) {
			codes = append(codes, inj.Code)
		}
	}
	require.NoError(t, sc.Err())
	slices.Sort(codes)
	require.NotEmpty(t, codes)
	return codes
}

func TestCertifyDeterministicAndUsage(t *testing.T) {
	lab := newCertifyLab(t, "300", "tie-not-pushed")
	suite := lab.suite(t, "s.json", "clean", "answers.jsonl")
	// Too few rounds for the log battery: not tested, so incomplete.
	p, code := lab.certify(t, suite, "a")
	assert.Equal(t, 3, code)
	assert.Equal(t, report.VerdictIncomplete, p.Verdict)
	_, code = lab.certify(t, suite, "b", "--workers", "1")
	assert.Equal(t, 3, code)
	for _, name := range certifyFiles {
		a, err := os.ReadFile(filepath.Join(lab.dir, "a", name))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(lab.dir, "b", name))
		require.NoError(t, err)
		assert.Equal(t, string(a), string(b), "%s: same inputs and --time, same bytes", name)
	}
	html, err := os.ReadFile(filepath.Join(lab.dir, "a", reportHTMLName))
	require.NoError(t, err)
	assert.Contains(t, string(html), "<svg", "the charts are drawn")

	key := filepath.Join(lab.dir, "lab.key")
	_, stderr, code := runCLI("certify", suite, "--out", filepath.Join(lab.dir, "a"), "--key", key)
	assert.Equal(t, 2, code, "an existing report is not replaced")
	assert.Contains(t, stderr, "--force")

	for name, tc := range map[string]struct {
		edit func(doc string) string
		key  string
		want string
	}{
		"missing file":   {func(d string) string { return strings.Replace(d, `"answers.jsonl"`, `"nope.jsonl"`, 1) }, key, "artefacts.answers: nope.jsonl: no such file"},
		"malformed line": {func(d string) string { return strings.Replace(d, `"answers.jsonl"`, `"bad.jsonl"`, 1) }, key, "bad.jsonl: line 2: verdict"},
		"key wrong type": {func(d string) string { return d }, filepath.Join(lab.dir, "lab.pub"), "lab.pub"},
		"unknown member": {func(d string) string { return strings.Replace(d, `"name": "lab"`, `"name": "lab", "nam": 1`, 1) }, key, "nam: unknown member"},
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(filepath.Join(lab.dir, "bad.jsonl"),
				[]byte(`{"vector":"rules/x","error":{"kind":"round"}}`+"\n"+`{"vector":"fairness/y","verdict":"maybe"}`+"\n"), 0o644))
			p := filepath.Join(lab.dir, "edited.json")
			require.NoError(t, os.WriteFile(p, []byte(tc.edit(labSuite("clean", "answers.jsonl"))), 0o644))
			out := filepath.Join(lab.dir, "out-"+strings.ReplaceAll(name, " ", "-"))
			_, stderr, code := runCLI("certify", p, "--out", out, "--key", tc.key)
			assert.Equal(t, 2, code, stderr)
			assert.Contains(t, stderr, tc.want)
			for _, name := range certifyFiles {
				_, err := os.Stat(filepath.Join(out, name))
				assert.True(t, os.IsNotExist(err), "nothing written: %s", name)
			}
		})
	}

	// A built-in suite with its artefacts as flags, relative to the
	// current directory.
	t.Chdir(lab.dir)
	_, stderr, code = runCLI("certify", "--suite", "double-holdem", "--answers", "answers.jsonl", "--out", "builtin",
		"--key", "lab.key", "--time", "2026-03-01T12:00:00Z")
	assert.Equal(t, 3, code, "incomplete: the other artefacts are not given (%s)", stderr)
	_, stderr, code = runCLI("certify", "--suite", "double-holdem", "--answers", "../answers.jsonl", "--out", "x", "--key", "lab.key")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "outside the current directory")
	_, _, code = runCLI("certify", suite, "--answers", "answers.jsonl", "--out", "x", "--key", "lab.key")
	assert.Equal(t, 2, code, "artefact flags go with --suite")
}
