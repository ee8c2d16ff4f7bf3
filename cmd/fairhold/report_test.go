package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/report"
)

// reportFixture is a directory with a lab key (Ed25519), a regulator key
// (ML-DSA-65), two subject files and report.json signed by both.
type reportFixture struct {
	dir, report, labPub, regPub, labKey string
}

func newReportFixture(t *testing.T) reportFixture {
	t.Helper()
	dir := t.TempDir()
	f := reportFixture{dir: dir, report: filepath.Join(dir, "report.json"),
		labPub: filepath.Join(dir, "lab.pub"), regPub: filepath.Join(dir, "regulator.pub"), labKey: filepath.Join(dir, "lab.key")}
	_, stderr, code := runCLI("keys", "new", "--out", filepath.Join(dir, "lab"))
	require.Equal(t, 0, code, stderr)
	_, stderr, code = runCLI("keys", "new", "--pq", "--out", filepath.Join(dir, "regulator"))
	require.Equal(t, 0, code, stderr)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "logs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "logs", "day1.rounds.jsonl"), []byte(`{"round_id":"ch-1"}`+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "profile.json"), []byte(`{"name":"casino-holdem"}`+"\n"), 0o644))
	_, stderr, code = runCLI("report", "sign", "--key", f.labKey, "--key", filepath.Join(dir, "regulator.key"),
		"--out", f.report, "--time", "2026-03-01T12:00:00Z",
		"--requirement", "replay.resettle:pass:every logged round re-settles",
		"--requirement", "stats.decks:not-tested:per-position chi-square at 99%",
		"logs/day1.rounds.jsonl", "profile.json")
	require.Equal(t, 0, code, stderr)
	return f
}

func TestKeysNew(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "lab")
	out, stderr, code := runCLI("keys", "new", "--out", prefix, "--json")
	require.Equal(t, 0, code, stderr)
	var kf report.KeyFiles
	require.NoError(t, json.Unmarshal([]byte(out), &kf))
	assert.Equal(t, report.Ed25519, kf.Algorithm)
	assert.Equal(t, prefix+".key", kf.PrivateKey)
	assert.NotContains(t, out, "PRIVATE KEY")

	fi, err := os.Stat(prefix + ".key")
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	pub, err := report.ReadPublicKey(prefix + ".pub")
	require.NoError(t, err)
	assert.Equal(t, kf.KeyID, pub.KeyID())
	priv, err := report.ReadPrivateKey(prefix + ".key")
	require.NoError(t, err)
	assert.Equal(t, kf.KeyID, priv.KeyID())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary file left behind")

	// Never overwritten without --force.
	before, err := os.ReadFile(prefix + ".key")
	require.NoError(t, err)
	_, stderr, code = runCLI("keys", "new", "--out", prefix, "--pq")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, prefix+".key")
	assert.Contains(t, stderr, "--force")
	after, err := os.ReadFile(prefix + ".key")
	require.NoError(t, err)
	assert.Equal(t, before, after)

	// Only the public key exists: still refused, and nothing is written.
	require.NoError(t, os.Remove(prefix+".key"))
	_, _, code = runCLI("keys", "new", "--out", prefix)
	assert.Equal(t, 2, code)
	_, err = os.Stat(prefix + ".key")
	assert.ErrorIs(t, err, os.ErrNotExist)

	out, stderr, code = runCLI("keys", "new", "--out", prefix, "--pq", "--force")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "ml-dsa-65 key pair written")
	pub, err = report.ReadPublicKey(prefix + ".pub")
	require.NoError(t, err)
	assert.Equal(t, report.MLDSA65, pub.Algorithm())

	_, _, code = runCLI("keys", "new")
	assert.Equal(t, 2, code, "--out is required")
	_, _, code = runCLI("keys", "new", "--out", filepath.Join(dir, "absent", "k"))
	assert.Equal(t, 1, code, "an I/O error")
}

func TestReportVerify(t *testing.T) {
	f := newReportFixture(t)
	// Authentic, but incomplete: not accepted (exit 3) unless only the
	// signature is asked about (issue 24, hole 13).
	out, stderr, code := runCLI("report", "verify", f.report, "--key", f.labPub, "--key", f.regPub)
	require.Equal(t, 3, code, stderr)
	assert.Contains(t, out, "subject    ok        logs/day1.rounds.jsonl\n")
	assert.Contains(t, out, "report verdict: incomplete (2 requirements: 1 pass, 0 fail, 1 not tested")
	assert.Contains(t, out, "verified, but the certificate is not a pass (report verdict incomplete): not accepted")
	out, stderr, code = runCLI("report", "verify", f.report, "--key", f.labPub, "--key", f.regPub, "--signature-only")
	require.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasSuffix(out, "verified\n"))

	out, stderr, code = runCLI("report", "verify", f.report, "--key", f.labPub, "--json", "--signature-only")
	require.Equal(t, 0, code, stderr)
	// The command's verdict first; the report's own under report_verdict.
	var printed struct {
		report.Verification
		ReportVerdict report.Verdict `json:"report_verdict"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &printed))
	v := printed.Verification
	assert.True(t, v.Verified)
	assert.Equal(t, report.Verdict("verified"), v.Verdict)
	assert.Equal(t, report.VerdictIncomplete, printed.ReportVerdict)
	require.Len(t, v.Keys, 1)
	assert.Equal(t, f.labPub, v.Keys[0].Key)
	require.Len(t, v.Signatures, 2)
	require.Len(t, v.Subjects, 2)

	// The subjects elsewhere.
	other := t.TempDir()
	require.NoError(t, os.Rename(filepath.Join(f.dir, "logs"), filepath.Join(other, "logs")))
	require.NoError(t, os.Rename(filepath.Join(f.dir, "profile.json"), filepath.Join(other, "profile.json")))
	_, stderr, code = runCLI("report", "verify", f.report, "--key", f.labPub, "--subjects", other, "--signature-only")
	require.Equal(t, 0, code, stderr)
	out, _, code = runCLI("report", "verify", f.report, "--key", f.labPub)
	assert.Equal(t, 3, code)
	assert.Contains(t, out, "subject    MISSING   profile.json: expected sha256 ")
}

func TestReportVerifyFails(t *testing.T) {
	f := newReportFixture(t)
	third := filepath.Join(f.dir, "operator")
	_, _, code := runCLI("keys", "new", "--out", third)
	require.Equal(t, 0, code)

	t.Run("a key that did not sign", func(t *testing.T) {
		out, _, code := runCLI("report", "verify", f.report, "--key", f.labPub, "--key", third+".pub")
		assert.Equal(t, 3, code)
		assert.Contains(t, out, "key        MISSING   ed25519")
		assert.Contains(t, out, third+".pub: no signature by this key")
		assert.Contains(t, out, "NOT verified")
	})
	t.Run("a subject changed", func(t *testing.T) {
		p := filepath.Join(f.dir, "profile.json")
		orig, err := os.ReadFile(p)
		require.NoError(t, err)
		t.Cleanup(func() { _ = os.WriteFile(p, orig, 0o644) })
		require.NoError(t, os.WriteFile(p, []byte(strings.Replace(string(orig), "holdem", "holdEm", 1)), 0o644))
		out, _, code := runCLI("report", "verify", f.report, "--key", f.labPub, "--json")
		assert.Equal(t, 3, code)
		var v report.Verification
		require.NoError(t, json.Unmarshal([]byte(out), &v))
		assert.False(t, v.Verified)
		assert.Equal(t, report.SubjectDiffers, v.Subjects[1].Status)
		assert.NotEqual(t, v.Subjects[1].Expected, v.Subjects[1].Actual)
	})
	t.Run("a private key given as the public key", func(t *testing.T) {
		_, stderr, code := runCLI("report", "verify", f.report, "--key", f.labKey)
		assert.Equal(t, 2, code)
		assert.Contains(t, stderr, f.labKey+": PEM: unsupported key type: a private key")
	})
	t.Run("a truncated report", func(t *testing.T) {
		data, err := os.ReadFile(f.report)
		require.NoError(t, err)
		p := filepath.Join(t.TempDir(), "report.json")
		require.NoError(t, os.WriteFile(p, data[:len(data)-10], 0o644))
		_, stderr, code := runCLI("report", "verify", p, "--key", f.labPub)
		assert.Equal(t, 3, code, "a truncated report does not verify")
		assert.Contains(t, stderr, p+": at byte ")
	})
	t.Run("usage and I/O", func(t *testing.T) {
		_, _, code := runCLI("report", "verify", f.report)
		assert.Equal(t, 2, code, "--key is required")
		_, stderr, code := runCLI("report", "verify", f.report, "--key", f.labPub, "--key", f.labPub)
		assert.Equal(t, 2, code)
		assert.Contains(t, stderr, "duplicate key")
		_, _, code = runCLI("report", "verify", filepath.Join(f.dir, "absent.json"), "--key", f.labPub)
		assert.Equal(t, 1, code)
		_, _, code = runCLI("report", "verify", f.report, "--key", filepath.Join(f.dir, "absent.pub"))
		assert.Equal(t, 1, code)
		_, _, code = runCLI("report", "verify", f.report, "--key", f.labPub, "--subjects", filepath.Join(f.dir, "absent"))
		assert.Equal(t, 1, code)
	})
}

// TestReportVerifyEveryByte flips a bit of every fifth byte of report.json
// in turn (every 50th in -short mode): `report verify` never exits 0, and
// exits 2 or 3. certify/report's TestEveryByteChanged tries every byte.
func TestReportVerifyEveryByte(t *testing.T) {
	f := newReportFixture(t)
	data, err := os.ReadFile(f.report)
	require.NoError(t, err)
	step := 5
	if testing.Short() {
		step = 50
	}
	codes := map[int]int{}
	for i := 0; i < len(data); i += step {
		edited := []byte(string(data))
		edited[i] ^= 1
		require.NoError(t, os.WriteFile(f.report, edited, 0o644))
		_, _, code := runCLI("report", "verify", f.report, "--key", f.labPub, "--key", f.regPub)
		require.Contains(t, []int{2, 3}, code, "byte %d changed", i)
		codes[code]++
	}
	t.Logf("%d bytes: exit codes %v", len(data), codes)
}

func TestReportSign(t *testing.T) {
	f := newReportFixture(t)
	data, err := os.ReadFile(f.report)
	require.NoError(t, err)
	_, stderr, code := runCLI("report", "sign", "--key", f.labKey, "--out", f.report, "profile.json")
	assert.Equal(t, 2, code, "an existing report is not overwritten")
	assert.Contains(t, stderr, "--force")

	// The same inputs give the same bytes.
	_, stderr, code = runCLI("report", "sign", "--key", filepath.Join(f.dir, "regulator.key"), "--key", f.labKey,
		"--out", f.report, "--force", "--time", "2026-03-01T12:00:00Z",
		"--requirement", "replay.resettle:pass:every logged round re-settles",
		"--requirement", "stats.decks:not-tested:per-position chi-square at 99%",
		"profile.json", "logs/day1.rounds.jsonl")
	require.Equal(t, 0, code, stderr)
	again, err := os.ReadFile(f.report)
	require.NoError(t, err)
	assert.Equal(t, string(data), string(again))

	_, stderr, code = runCLI("report", "sign", "--key", f.labKey, "--out", f.report, "--force", "absent.json")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "absent.json")
	_, stderr, code = runCLI("report", "sign", "--key", f.labPub, "--out", f.report, "--force", "profile.json")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "want a private key")
	_, _, code = runCLI("report", "sign", "--key", f.labKey, "--out", f.report, "--force", "--requirement", "x:passed:y", "profile.json")
	assert.Equal(t, 2, code)
}

func TestReportRender(t *testing.T) {
	f := newReportFixture(t)
	out, stderr, code := runCLI("report", "render", f.report)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "verdict incomplete; signatures not verified")
	pages := map[string][]byte{}
	for _, name := range []string{"report.html", "report.xml", "summary.md"} {
		data, err := os.ReadFile(filepath.Join(f.dir, name))
		require.NoError(t, err, name)
		pages[name] = data
	}
	assert.Contains(t, string(pages["report.html"]), `id="verdict-word">Incomplete<`)
	assert.Contains(t, string(pages["report.xml"]), `<testcase name="every logged round re-settles" classname="replay.resettle"`)
	assert.Contains(t, string(pages["summary.md"]), "# fairhold certification: Incomplete")

	// Without keys no signer is named: the signatures were not verified.
	for _, id := range f.keyIDs(t) {
		assert.NotContains(t, string(pages["report.html"]), id)
		assert.NotContains(t, string(pages["summary.md"]), id)
	}
	assert.Contains(t, string(pages["report.html"]), "2 signature(s) not verified")

	// The pages are not replaced without --force; with the keys that
	// signed, the signers are named as verified.
	_, stderr, code = runCLI("report", "render", f.report)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--force")
	other := t.TempDir()
	out, stderr, code = runCLI("report", "render", f.report, "--key", f.labPub, "--key", f.regPub, "--out", other)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "signatures verified")
	for _, id := range f.keyIDs(t) {
		got, err := os.ReadFile(filepath.Join(other, "report.html"))
		require.NoError(t, err)
		assert.Contains(t, string(got), id)
	}
	// report.xml names the verified signers, and only with the keys.
	got, err := os.ReadFile(filepath.Join(other, "report.xml"))
	require.NoError(t, err)
	var signers []string
	for _, l := range strings.SplitAfter(string(got), "\n") {
		if strings.Contains(l, `<property name="signer"`) {
			signers = append(signers, l)
		}
	}
	require.Len(t, signers, 2)
	for _, id := range f.keyIDs(t) {
		assert.Contains(t, strings.Join(signers, ""), id)
		assert.NotContains(t, string(pages["report.xml"]), id, "report.xml drawn without the keys names no signer")
	}
	withoutSigners := string(got)
	for _, l := range signers {
		withoutSigners = strings.Replace(withoutSigners, l, "", 1)
	}
	assert.Equal(t, string(pages["report.xml"]), withoutSigners, "the signers apart, the same report.xml")

	// A key that did not sign: nothing is drawn, exit 3.
	_, stderr, code = runCLI("keys", "new", "--out", filepath.Join(f.dir, "operator"))
	require.Equal(t, 0, code, stderr)
	empty := t.TempDir()
	out, _, code = runCLI("report", "render", f.report, "--key", filepath.Join(f.dir, "operator.pub"), "--out", empty)
	assert.Equal(t, 3, code)
	assert.Contains(t, out, "MISSING")
	entries, err := os.ReadDir(empty)
	require.NoError(t, err)
	assert.Empty(t, entries)

	// A truncated report: exit 2 naming the file.
	data, err := os.ReadFile(f.report)
	require.NoError(t, err)
	cut := filepath.Join(empty, "cut.json")
	require.NoError(t, os.WriteFile(cut, data[:len(data)/2], 0o644))
	_, stderr, code = runCLI("report", "render", cut, "--out", empty)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "cut.json")
	_, stderr, code = runCLI("report", "render", f.report, "--out", filepath.Join(f.dir, "profile.json"), "--force")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "not a directory")
}

// keyIDs are the key ids of the fixture's two keys.
func (f reportFixture) keyIDs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range []string{f.labPub, f.regPub} {
		k, err := report.ReadPublicKey(p)
		require.NoError(t, err)
		out = append(out, k.KeyID())
	}
	return out
}
