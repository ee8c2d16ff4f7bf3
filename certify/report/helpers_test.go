package report

import (
	"bytes"
	"flag"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the generator")

// fixedRand is an endless reader of one byte: keys from it are fixed, so
// the tests' reports are reproducible.
type fixedRand byte

func (r fixedRand) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// testKey returns the fixed key of the algorithm and seed byte.
func testKey(t testing.TB, alg Algorithm, seed byte) *PrivateKey {
	t.Helper()
	k, err := GenerateKey(alg, fixedRand(seed))
	require.NoError(t, err)
	return k
}

// Keys of the tests: a lab (Ed25519), a regulator (ML-DSA-65), an operator
// (Ed25519).
func labKey(t testing.TB) *PrivateKey       { return testKey(t, Ed25519, 1) }
func regulatorKey(t testing.TB) *PrivateKey { return testKey(t, MLDSA65, 2) }
func operatorKey(t testing.TB) *PrivateKey  { return testKey(t, Ed25519, 3) }

// testTime is the signing time of the tests' reports.
var testTime = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// testTool is a fixed tool, so that reports do not depend on the build.
var testTool = Tool{Name: "fairhold", Version: "0.1.0-test", Revision: "0123456789abcdef0123456789abcdef01234567", Go: "go1.26.0"}

// testFiles are the artefacts of the tests' reports.
func testFiles() fstest.MapFS {
	return fstest.MapFS{
		"logs/day1.rounds.jsonl": {Data: []byte(`{"round_id":"ch-1","game":"casino-holdem"}` + "\n" + `{"round_id":"ch-2","game":"casino-holdem"}` + "\n")},
		"profile.json":           {Data: []byte(`{"name":"casino-holdem","version":1}` + "\n")},
		"strategy.parquet":       {Data: bytes.Repeat([]byte{0x50, 0x41, 0x52, 0x31}, 16)},
		"suite.json":             {Data: []byte(`{"name":"acme-rng-table-2026-02","version":"2026.1","game":"casino-holdem","profile":"profile.json"}` + "\n")},
	}
}

// testDetails are what the tests' certificates name besides their
// requirements: a custom suite file, a lab, an operator, a jurisdiction,
// the game with its profile file, the period of the logs, what the suite
// left out of the built-in one and the limits of the evidence.
func testDetails(t testing.TB) Details {
	t.Helper()
	suite, err := FileSubject(testFiles(), "suite.json")
	require.NoError(t, err)
	profile, err := FileSubject(testFiles(), "profile.json")
	require.NoError(t, err)
	return Details{
		Suite:        &SuiteRef{Name: "acme-rng-table-2026-02", Version: "2026.1", Digest: suite.Digest, Subject: "suite.json"},
		Lab:          "Example Testing Laboratory Ltd",
		Operator:     "ACME Gaming Ltd",
		Jurisdiction: "Malta",
		Games: []GameProfile{{Game: "casino-holdem", Profile: "casino-holdem", ProfileVersion: 1,
			ProfileHash: profile.SHA256(), ProfileSubject: "profile.json"}},
		Period: &Period{First: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), Last: time.Date(2026, 2, 28, 23, 59, 59, 500_000_000, time.UTC)},
		NotInSuite: &NotInSuite{Builtin: "casino-holdem",
			Requirements: []OmittedRequirement{{ID: "stats.raw-nist", Text: "NIST SP 800-22 at 99% on the operator's raw RNG output", Check: "nist-raw"}},
			Claims:       []OmittedClaim{{Name: "aa-bonus-optimal", Strategy: "optimal", Requirement: "math.optimal-claims"}}},
		Limits: []string{
			"Every time, seed and client seed in a log is the operator's word.",
			"A statistical test at 99% fails by chance one time in a hundred; a pass bounds a bias, it does not prove there is none.",
		},
	}
}

// testStatement is a small certification of testFiles.
func testStatement(t testing.TB) *Statement {
	t.Helper()
	fsys := testFiles()
	var subjects []Subject
	for _, name := range []string{"strategy.parquet", "profile.json", "logs/day1.rounds.jsonl", "suite.json"} {
		s, err := FileSubject(fsys, name)
		require.NoError(t, err)
		subjects = append(subjects, s)
	}
	reqs := []Requirement{
		{ID: "replay.resettle", Text: "every logged round re-settles", Method: "re-deal and re-settlement of every logged round (docs/replay.md)", Status: Pass,
			Evidence: Evidence{Summary: "2 rounds, 0 findings", Subjects: []string{"profile.json", "logs/day1.rounds.jsonl"},
				Result: []byte(`{"rounds": 2, "findings": 0}`)}},
		{ID: "math.rtp", Text: "published RTP reproduced", Status: Pass,
			Evidence: Evidence{Summary: "98.7% <= claimed & computed", Subjects: []string{"strategy.parquet"}}},
		{ID: "stats.operator-decks", Text: "per-position chi-square at 99% on the operator's decks", Status: NotTested,
			Evidence: Evidence{Summary: "no decks file supplied"}},
	}
	st, err := NewStatement(subjects, reqs, testTool, testTime, testDetails(t))
	require.NoError(t, err)
	return st
}

// signedReport returns the bytes of testStatement signed by the keys.
func signedReport(t testing.TB, keys ...*PrivateKey) []byte {
	t.Helper()
	signers := make([]Signer, len(keys))
	for i, k := range keys {
		signers[i] = k
	}
	env, err := Sign(testStatement(t), signers...)
	require.NoError(t, err)
	b, err := MarshalEnvelope(env)
	require.NoError(t, err)
	return b
}

// verifyBytes runs the whole verification of report bytes: parse, verify
// with the keys, check the subjects in fsys. It returns nil only for a
// report that verifies.
func verifyBytes(data []byte, fsys fstest.MapFS, keys ...*PublicKey) error {
	env, err := ParseEnvelope(data)
	if err != nil {
		return err
	}
	v, err := Verify(env, keys...)
	if err != nil {
		return err
	}
	return v.CheckSubjects(fsys)
}
