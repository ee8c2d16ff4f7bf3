package suite

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/replayer"
)

func TestMethods(t *testing.T) {
	for _, c := range CheckNames() {
		assert.NotEmpty(t, Methods[c], "check %s states its method", c)
	}
	assert.Len(t, Methods, len(CheckNames()), "a method for each check, no other")
	assert.Contains(t, Methods[CheckNISTRaw], "NIST SP 800-22 rev. 1a")
	assert.Contains(t, Methods[CheckMathClaims], "exact enumeration")
}

func TestSuiteFileParties(t *testing.T) {
	doc := `{"name":"s","version":"2026.1","lab":"Example Lab","operator":"ACME","jurisdiction":"Malta","game":"casino-holdem","profile":"casino-holdem",
	 "requirements":[{"id":"a","text":"t","check":"replay"}]}`
	s, err := Parse([]byte(doc), "s.json", ".")
	require.NoError(t, err)
	assert.Equal(t, "2026.1", s.Version)
	assert.Equal(t, "Example Lab", s.Lab)
	assert.Equal(t, "ACME", s.Operator)
	assert.Equal(t, "Malta", s.Jurisdiction)
	assert.Equal(t, report.SubjectOf("", []byte(doc)).SHA256(), s.SHA256(), "the digest of the file's bytes")
	for field, bad := range map[string]string{"lab": ` Example Lab`, "operator": "AC\\u0000ME", "jurisdiction": "", "version": "1\\n"} {
		d := strings.Replace(doc, `"`+field+`":"`+map[string]string{"lab": "Example Lab", "operator": "ACME", "jurisdiction": "Malta", "version": "2026.1"}[field]+`"`, `"`+field+`":"`+bad+`"`, 1)
		_, err := Parse([]byte(d), "s.json", ".")
		if bad == "" {
			require.NoError(t, err, "an empty member is left out")
			continue
		}
		var e *Error
		require.True(t, errors.As(err, &e), "%s: %v", field, err)
		assert.Equal(t, field, e.Field)
	}
}

func casinoProfile(t *testing.T) *profile.Profile {
	t.Helper()
	p, err := profile.Builtin("casino-holdem")
	require.NoError(t, err)
	return p
}

func omittedIDs(n *report.NotInSuite) []string {
	var out []string
	for _, r := range n.Requirements {
		out = append(out, r.ID)
	}
	return out
}

func omittedClaims(n *report.NotInSuite) []string {
	var out []string
	for _, c := range n.Claims {
		out = append(out, c.Name+"@"+c.Requirement)
	}
	return out
}

// TestNotInSuite: what a custom suite leaves out of the built-in suite of
// its game, requirement by check and claim by claim.
func TestNotInSuite(t *testing.T) {
	prof := casinoProfile(t)
	// A built-in suite leaves nothing out: no comparison.
	b, err := Builtin("casino-holdem", ".")
	require.NoError(t, err)
	n, err := b.notInSuite(prof)
	require.NoError(t, err)
	assert.Nil(t, n)

	// The built-in definition under another name leaves nothing out.
	data, err := BuiltinJSON("casino-holdem")
	require.NoError(t, err)
	s, err := Parse([]byte(strings.Replace(string(data), `"name": "casino-holdem"`, `"name": "copy"`, 1)), "copy.json", ".")
	require.NoError(t, err)
	n, err = s.notInSuite(prof)
	require.NoError(t, err)
	require.NotNil(t, n)
	assert.Equal(t, "casino-holdem", n.Builtin)
	assert.Empty(t, n.Requirements)
	assert.Empty(t, n.Claims)
	assert.NotNil(t, n.Requirements, "[] in the report, not null")

	// The tests' short suite: no claims, no return checks.
	s, err = Parse([]byte(shortSuite), "short.json", ".")
	require.NoError(t, err)
	n, err = s.notInSuite(prof)
	require.NoError(t, err)
	assert.Equal(t, []string{"math.optimal-claims", "math.basic-claims", "rtp.observed", "rtp.decisions"}, omittedIDs(n))
	assert.Equal(t, []string{"main-optimal@math.optimal-claims", "aa-bonus-optimal@math.optimal-claims",
		"main-basic@math.basic-claims", "aa-bonus-basic@math.basic-claims",
		"main-side-bet-optimal@math.basic-claims", "aa-bonus-side-bet-optimal@math.basic-claims"}, omittedClaims(n))
	assert.Equal(t, "nist-raw", mustOmit(t, b, "stats.raw-nist").Check)

	// One claim of the optimal strategy kept: the optimal requirement is
	// in the suite, the basic one is not, and every other claim is named.
	doc := `{"name":"s","game":"casino-holdem","profile":"casino-holdem","requirements":[
	 {"id":"math.one","text":"t","check":"math-claims","params":{"claims":["main-optimal"]}},
	 {"id":"replay.x","text":"t","check":"replay"}]}`
	s, err = Parse([]byte(doc), "s.json", ".")
	require.NoError(t, err)
	n, err = s.notInSuite(prof)
	require.NoError(t, err)
	assert.Equal(t, []string{"vectors.engine-conformance", "stats.scheme-decks", "stats.operator-decks", "stats.raw-nist",
		"stats.logged-cards", "math.basic-claims", "rtp.observed", "rtp.decisions"}, omittedIDs(n))
	assert.Equal(t, []string{"aa-bonus-optimal@math.optimal-claims", "main-basic@math.basic-claims", "aa-bonus-basic@math.basic-claims",
		"main-side-bet-optimal@math.basic-claims", "aa-bonus-side-bet-optimal@math.basic-claims"}, omittedClaims(n))

	// Double Hold'em: its built-in suite, whose profile publishes no claim.
	doc = `{"name":"s","game":"double-holdem","profile":"double-holdem","requirements":[{"id":"replay.x","text":"t","check":"replay"}]}`
	s, err = Parse([]byte(doc), "s.json", ".")
	require.NoError(t, err)
	dp, err := profile.Builtin("double-holdem")
	require.NoError(t, err)
	n, err = s.notInSuite(dp)
	require.NoError(t, err)
	assert.Equal(t, []string{"vectors.engine-conformance", "stats.scheme-decks", "stats.operator-decks", "stats.raw-nist"}, omittedIDs(n))
	assert.Empty(t, n.Claims)
	assert.Contains(t, s.limits(), limitDoubleButton)
}

func mustOmit(t *testing.T, b *Suite, id string) Requirement {
	t.Helper()
	for _, r := range b.Requirements {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no requirement %s in the built-in suite", id)
	return Requirement{}
}

func TestLimits(t *testing.T) {
	s, err := Parse([]byte(shortSuite), "short.json", ".")
	require.NoError(t, err)
	l := s.limits()
	assert.Equal(t, limitArtefacts, l[0])
	for _, want := range append(slices.Clone(limitsReplay), limitStatistics, limitSupplied, limitVectors) {
		assert.Contains(t, l, want)
	}
	for _, not := range []string{limitMath, limitReturns, limitDoubleButton} {
		assert.NotContains(t, l, not)
	}
	b, err := Builtin("casino-holdem", ".")
	require.NoError(t, err)
	assert.Contains(t, b.limits(), limitMath)
	assert.Contains(t, b.limits(), limitReturns)
	for _, x := range b.limits() {
		assert.True(t, strings.HasSuffix(x, "."), "a sentence: %s", x)
	}
}

// replaySuite certifies the operator's log by the replay alone, with the
// suite file's lab, operator and jurisdiction.
const replaySuite = `{"name":"acme-replay","version":"3","lab":"Example Lab","operator":"ACME Gaming","jurisdiction":"Malta",
 "game":"casino-holdem","profile":"casino-holdem","artefacts":{"logs":["logs"]},
 "requirements":[{"id":"replay.resettle","text":"every logged round re-settles","check":"replay","params":{"manifest_key":"operator.pub"}}]}`

// TestRunDetails: what Run gives the statement besides its requirements.
func TestRunDetails(t *testing.T) {
	op := newOperator(t, 300, "")
	s := op.suite(t, replaySuite)
	res, err := Run(context.Background(), s, Options{})
	require.NoError(t, err)
	d := res.Details
	require.NotNil(t, d.Suite)
	assert.Equal(t, report.SuiteRef{Name: "acme-replay", Version: "3", Digest: map[string]string{"sha256": report.SubjectOf("", []byte(replaySuite)).SHA256()},
		Subject: "suite.json"}, *d.Suite)
	assert.Equal(t, "Example Lab", d.Lab)
	assert.Equal(t, "ACME Gaming", d.Operator)
	assert.Equal(t, "Malta", d.Jurisdiction)
	prof := casinoProfile(t)
	assert.Equal(t, []report.GameProfile{{Game: "casino-holdem", Profile: "casino-holdem", ProfileVersion: prof.Version, ProfileHash: prof.Hash()}}, d.Games)
	// The period is the replay's.
	var sum replayer.Summary
	require.NoError(t, json.Unmarshal(res.Requirements[0].Evidence.Result, &sum))
	require.NotNil(t, sum.Period)
	require.NotNil(t, d.Period)
	assert.Equal(t, sum.Period.First, d.Period.First.Format(time.RFC3339Nano))
	assert.Equal(t, sum.Period.Last, d.Period.Last.Format(time.RFC3339Nano))
	assert.True(t, d.Period.First.Before(d.Period.Last))
	assert.Equal(t, Methods[CheckReplay], res.Requirements[0].Method)
	require.NotNil(t, d.NotInSuite)
	assert.Len(t, d.NotInSuite.Requirements, 9, "every requirement of the built-in suite but the replay")
	assert.Contains(t, d.Limits, limitsReplay[0])

	st, err := report.NewStatement(res.Subjects, res.Requirements, report.Tool{Name: "fairhold", Version: "test"}, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), d)
	require.NoError(t, err)
	assert.Equal(t, report.VerdictPass, st.Predicate.Verdict)

	// The built-in suite: built in, no file, nothing left out.
	b, err := Builtin("casino-holdem", op.dir)
	require.NoError(t, err)
	require.NoError(t, b.SetArtefacts(Artefacts{Logs: []string{"logs"}}))
	b.Requirements = slices.DeleteFunc(b.Requirements, func(r Requirement) bool { return r.Check != CheckReplay })
	res, err = Run(context.Background(), b, Options{})
	require.NoError(t, err)
	data, err := BuiltinJSON("casino-holdem")
	require.NoError(t, err)
	assert.Equal(t, &report.SuiteRef{Name: "casino-holdem", Digest: map[string]string{"sha256": report.SubjectOf("", data).SHA256()}, Builtin: true}, res.Details.Suite)
	assert.Nil(t, res.Details.NotInSuite)
}

// TestFindingSamples: each finding code's first round ids, in the
// canonical order of the findings, the same whatever the workers.
func TestFindingSamples(t *testing.T) {
	op := newOperator(t, 3000, "tie-not-pushed,cards-mismatch,balance-off-by-one")
	s := op.suite(t, replaySuite)
	var samples [][]report.FindingSample
	for _, workers := range []int{1, 3} {
		res, err := Run(context.Background(), s, Options{Workers: workers})
		require.NoError(t, err)
		require.Equal(t, report.Fail, res.Requirements[0].Status)
		samples = append(samples, res.Requirements[0].Evidence.FindingSamples)
	}
	assert.Equal(t, samples[0], samples[1], "the same samples whatever the workers")

	// The reference: the replay's findings in their order.
	rules, err := audit.NewRulebook(casinoProfile(t))
	require.NoError(t, err)
	key, err := manifest.LoadPublicKey(filepath.Join(op.dir, "operator.pub"))
	require.NoError(t, err)
	count := map[string]int64{}
	first := map[string][]string{}
	paths := []string{filepath.Join(op.dir, "logs")}
	_, err = replayer.Run(paths, replayer.Options{
		Config:    &audit.Config{Dealers: audit.SchemeDealers{}, Rules: rules, Double: audit.DoubleEngine{Rules: rules}},
		Manifests: replayer.LoadManifests(paths, key),
		Findings: func(f *finding.Finding) error {
			c := string(f.Code)
			count[c]++
			if f.RoundID != "" && len(first[c]) < report.MaxSampleRoundIDs && !slices.Contains(first[c], f.RoundID) {
				first[c] = append(first[c], f.RoundID)
			}
			return nil
		},
	})
	require.NoError(t, err)
	got := samples[0]
	require.NotEmpty(t, got)
	var codes []string
	for _, fs := range got {
		codes = append(codes, fs.Code)
		assert.Equal(t, count[fs.Code], fs.Count, fs.Code)
		assert.Equal(t, first[fs.Code], fs.RoundIDs, fs.Code)
		assert.LessOrEqual(t, len(fs.RoundIDs), report.MaxSampleRoundIDs)
	}
	assert.True(t, slices.IsSorted(codes), "sorted by code")
	assert.Contains(t, codes, "TIE_NOT_PUSHED")
	assert.Contains(t, codes, "CARDS_MISMATCH")
	for _, fs := range got {
		if fs.Count > report.MaxSampleRoundIDs {
			assert.Len(t, fs.RoundIDs, report.MaxSampleRoundIDs, "%s: the first ten", fs.Code)
		}
	}
}
