package main

import (
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/fairness/commitlog/tsatest"
	"github.com/fairhold/fairhold/fairness/commitlog/witnesstest"
)

const evidenceEntries = `[
  {"operator": "acme", "table": "rng-1", "scheme": "fairhold/v1",
   "commitment": "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb", "first_nonce": "0"},
  {"operator": "acme", "table": "rng-2", "scheme": "fairhold/v1",
   "commitment": "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d", "first_nonce": "17"}
]`

// evidenceLog makes a key pair and a log of two entries in a temp dir.
func evidenceLog(t *testing.T) (dir, log, pub string) {
	t.Helper()
	dir = t.TempDir()
	mustRun := func(args ...string) {
		t.Helper()
		out, errOut, code := runCLI(args...)
		require.Equal(t, 0, code, "%v: %s %s", args, out, errOut)
	}
	mustRun("keys", "new", "--out", filepath.Join(dir, "op"))
	entries := filepath.Join(dir, "day.json")
	require.NoError(t, os.WriteFile(entries, []byte(evidenceEntries), 0o644))
	log = filepath.Join(dir, "log")
	mustRun("commitlog", "append", log, "--key", filepath.Join(dir, "op.key"), "--origin", "casino.example/commitments", "--entries", entries)
	return dir, log, filepath.Join(dir, "op.pub")
}

func TestCommitlogTimestampCLI(t *testing.T) {
	tsa := tsatest.Start(t)
	dir, log, pub := evidenceLog(t)
	roots := filepath.Join(dir, "roots.pem")
	require.NoError(t, os.WriteFile(roots, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tsa.CA.Cert.Raw}), 0o644))
	otherRoots := filepath.Join(dir, "other.pem")
	require.NoError(t, os.WriteFile(otherRoots, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tsatest.NewCA(t, "other").Cert.Raw}), 0o644))

	// No evidence yet: verified, nothing timed.
	out, errOut, code := runCLI("commitlog", "evidence", log, "--key", pub, "--tsa-roots", roots)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "verified  0 timed checkpoints")

	// A TSA the verifier does not trust: refused, nothing stored.
	_, errOut, code = runCLI("commitlog", "timestamp", log, "--key", pub, "--tsa", tsa.URL, "--tsa-roots", otherRoots)
	assert.Equal(t, 3, code, errOut)
	assert.Contains(t, errOut, "not a trusted time-stamping authority")
	assert.NoFileExists(t, filepath.Join(log, "evidence", "index"))

	out, errOut, code = runCLI("commitlog", "timestamp", log, "--key", pub, "--tsa", tsa.URL, "--tsa-roots", roots)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "timestamped checkpoint of casino.example/commitments, size 2, by CN=fairhold test TSA")
	assert.Contains(t, out, "accuracy 1.5s")
	assert.FileExists(t, filepath.Join(log, "evidence", "timestamp", "2"))

	out, errOut, code = runCLI("commitlog", "evidence", log, "--key", pub, "--tsa-roots", roots, "--json")
	require.Equal(t, 0, code, errOut)
	var res struct {
		Verdict     string `json:"verdict"`
		Checkpoints []struct {
			Size     uint64 `json:"size"`
			Evidence string `json:"evidence"`
		} `json:"timed_checkpoints"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	assert.Equal(t, "verified", res.Verdict)
	require.Len(t, res.Checkpoints, 1)
	assert.Equal(t, uint64(2), res.Checkpoints[0].Size)
	assert.Contains(t, res.Checkpoints[0].Evidence, "timestamped by CN=fairhold test TSA")

	// Without trusted roots the token is not read; with other roots it is
	// refused.
	out, _, code = runCLI("commitlog", "evidence", log, "--key", pub)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "verified  0 timed checkpoints")
	_, errOut, code = runCLI("commitlog", "evidence", log, "--key", pub, "--tsa-roots", otherRoots)
	assert.Equal(t, 3, code)
	assert.Contains(t, errOut, filepath.Join("evidence", "timestamp", "2"))

	// A token for other bytes: the checkpoint file edited under it.
	cp := filepath.Join(log, "evidence", "checkpoint", "2")
	raw, err := os.ReadFile(cp)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cp, []byte(strings.Replace(string(raw), "\n2\n", "\n1\n", 1)), 0o644))
	_, errOut, code = runCLI("commitlog", "evidence", log, "--key", pub, "--tsa-roots", roots)
	assert.Equal(t, 3, code)
	assert.Contains(t, errOut, filepath.Join("evidence", "checkpoint", "2"))

	// Usage.
	_, _, code = runCLI("commitlog", "timestamp", "https://log.example/", "--key", pub, "--tsa", tsa.URL)
	assert.Equal(t, 2, code)
	_, _, code = runCLI("commitlog", "evidence", log, "--key", pub, "--tsa-roots", pub)
	assert.Equal(t, 2, code)
}

func TestCommitlogWitnessCLI(t *testing.T) {
	w := witnesstest.Start(t, "witness.example/fairhold-cli")
	dir, log, pub := evidenceLog(t)
	out, errOut, code := runCLI("commitlog", "checkpoint", log, "--key", pub, "--json")
	require.Equal(t, 0, code, errOut)
	var cp struct {
		VerifierKey string `json:"verifier_key"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &cp))

	// The witness does not know the log: exit 1, nothing stored.
	_, errOut, code = runCLI("commitlog", "witness", log, "--key", pub, "--witness", w.URL, "--witness-key", w.VKey)
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "403")
	w.AddLog(t, "casino.example/commitments", cp.VerifierKey)

	out, errOut, code = runCLI("commitlog", "witness", log, "--key", pub, "--witness", w.URL, "--witness-key", w.VKey)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "cosigned  checkpoint of casino.example/commitments, size 2, by witness witness.example/fairhold-cli at ")

	// The log grows; the witness gets the consistency proof 2 -> 3.
	entry := filepath.Join(dir, "e3.json")
	require.NoError(t, os.WriteFile(entry, []byte(`[{"operator": "acme", "table": "rng-3", "scheme": "fairhold/v1",
   "commitment": "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb", "first_nonce": "9"}]`), 0o644))
	_, errOut, code = runCLI("commitlog", "append", log, "--key", filepath.Join(dir, "op.key"), "--entries", entry)
	require.Equal(t, 0, code, errOut)
	_, errOut, code = runCLI("commitlog", "witness", log, "--key", pub, "--witness", w.URL, "--witness-key", w.VKey, "--json")
	require.Equal(t, 0, code, errOut)

	out, errOut, code = runCLI("commitlog", "evidence", log, "--key", pub, "--witness-key", w.VKey)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "verified  2 timed checkpoints of casino.example/commitments (log size 3)")
	assert.Contains(t, out, "cosigned by witness witness.example/fairhold-cli")
	// Another witness's key: nothing timed; a quorum of 2 with one witness: usage.
	out, _, code = runCLI("commitlog", "evidence", log, "--key", pub, "--witness-key", "other.example/w+01234567+BAQ4Tz2MucB1AVSWHurDUSs7a7juKXvgbYlOy3sVjIi9")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "verified  0 timed checkpoints")
	_, _, code = runCLI("commitlog", "evidence", log, "--key", pub, "--witness-key", w.VKey, "--quorum", "2")
	assert.Equal(t, 2, code)

	// A cosignature edited: hostile evidence, exit 3, naming the file.
	cpFile := filepath.Join(log, filepath.FromSlash(commitlog.EvidenceCheckpointPath(2)))
	raw, err := os.ReadFile(cpFile)
	require.NoError(t, err)
	b := []byte(string(raw))
	i := len(b) - 10 // a character of the signature proper, past the key hash and time
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	require.NoError(t, os.WriteFile(cpFile, b, 0o644))
	_, errOut, code = runCLI("commitlog", "evidence", log, "--key", pub, "--witness-key", w.VKey)
	assert.Equal(t, 3, code)
	assert.Contains(t, errOut, cpFile)
	assert.Contains(t, errOut, "invalid signature for key witness.example/fairhold-cli")

	// Usage: a malformed witness key, a URL for the log.
	_, _, code = runCLI("commitlog", "witness", log, "--key", pub, "--witness", w.URL, "--witness-key", "nope")
	assert.Equal(t, 2, code)
	_, _, code = runCLI("commitlog", "witness", "http://127.0.0.1:1/", "--key", pub, "--witness", w.URL, "--witness-key", w.VKey)
	assert.Equal(t, 2, code)
}
