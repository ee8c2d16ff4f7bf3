package main

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
)

// fileCodes reads a JSON Lines file of objects with "file" and "code"
// (faults.jsonl, a findings file) into "file code" keys, the files
// relative to dir.
func fileCodes(t *testing.T, path, dir string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec struct {
			RoundID string `json:"round_id"`
			File    string `json:"file"`
			Code    string `json:"code"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		file := rec.File
		if filepath.IsAbs(file) || strings.HasPrefix(file, dir) {
			rel, err := filepath.Rel(dir, file)
			require.NoError(t, err)
			file = filepath.ToSlash(rel)
		}
		if rec.RoundID != "" {
			file = rec.RoundID // a round's finding: the round, whatever the file
		}
		out[file+" "+rec.Code]++
	}
	require.NoError(t, sc.Err())
	return out
}

// TestSimulateDatasetFaults: every dataset fault of `fairhold simulate`,
// alone and all at once, in both forms, is reported by `fairhold replay`
// with exactly its code on exactly the files faults.jsonl lists, and
// nothing else is reported.
func TestSimulateDatasetFaults(t *testing.T) {
	games := []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem}
	if testing.Short() {
		games = games[:1]
	}
	var all []string
	for _, f := range sim.DatasetFaults() {
		all = append(all, f.Name)
	}
	specs := append(append([]string{}, all...), strings.Join(all, ","))
	for _, game := range games {
		for _, format := range []string{"parquet", "jsonl"} {
			for _, spec := range specs {
				t.Run(game+"/"+format+"/"+spec, func(t *testing.T) {
					t.Parallel()
					dir := filepath.Join(t.TempDir(), "day")
					_, stderr, code := runCLI("simulate", "--game", game, "--rounds", "400", "--part-rounds", "100", "--row-group", "30",
						"--seed", "4", "--format", format, "--out", dir, "--faults", spec)
					require.Equal(t, 0, code, stderr)
					want := fileCodes(t, filepath.Join(dir, faultsManifest), dir)
					require.NotEmpty(t, want)
					for _, name := range strings.Split(spec, ",") {
						f := datasetFault(name)
						require.NotEmpty(t, f.Finding, name)
						assert.True(t, hasCode(want, string(f.Finding)), "%s listed in faults.jsonl", name)
					}
					findings := filepath.Join(t.TempDir(), "f.jsonl")
					_, stderr, code = runCLI("replay", dir, "--findings", findings)
					require.Equal(t, exitVerified, code, stderr)
					got := fileCodes(t, findings, dir)
					assert.Equal(t, want, got)
				})
			}
		}
	}
}

func hasCode(m map[string]int, code string) bool {
	for k := range m {
		if strings.HasSuffix(k, " "+code) {
			return true
		}
	}
	return false
}

func datasetFault(name string) sim.DatasetFault {
	for _, f := range sim.DatasetFaults() {
		if f.Name == name {
			return f
		}
	}
	return sim.DatasetFault{}
}

// TestSimulateDatasetFaultsWithRoundFaults: round faults in rounds a
// dataset fault removed are not listed in faults.jsonl; the others are
// found.
func TestSimulateDatasetFaultsWithRoundFaults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "day")
	_, stderr, code := runCLI("simulate", "--game", round.CasinoHoldem, "--rounds", "400", "--part-rounds", "100",
		"--seed", "4", "--out", dir, "--faults", "part-missing,part-truncated,balance-off-by-one:0.05")
	require.Equal(t, 0, code, stderr)
	want := fileCodes(t, filepath.Join(dir, faultsManifest), dir)
	findings := filepath.Join(t.TempDir(), "f.jsonl")
	_, stderr, code = runCLI("replay", dir, "--findings", findings)
	require.Equal(t, exitVerified, code, stderr)
	assert.Equal(t, want, fileCodes(t, findings, dir))
	balance := 0
	for k := range want {
		if strings.HasSuffix(k, " BALANCE_MISMATCH") {
			balance++
		}
	}
	assert.Positive(t, balance)
}

func writeKeys(t *testing.T, dir string) (priv, pub string) {
	t.Helper()
	pk, sk, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	a, err := manifest.MarshalPrivateKey(sk)
	require.NoError(t, err)
	b, err := manifest.MarshalPublicKey(pk)
	require.NoError(t, err)
	priv, pub = filepath.Join(dir, "op.pem"), filepath.Join(dir, "op.pub.pem")
	require.NoError(t, os.WriteFile(priv, a, 0o600))
	require.NoError(t, os.WriteFile(pub, b, 0o644))
	return priv, pub
}

func TestReplayManifestSignature(t *testing.T) {
	keys := t.TempDir()
	priv, pub := writeKeys(t, keys)
	otherDir := t.TempDir()
	_, otherPub := writeKeys(t, otherDir)
	dir := filepath.Join(t.TempDir(), "day")
	out, stderr, code := runCLI("simulate", "--game", round.CasinoHoldem, "--rounds", "300", "--out", dir, "--manifest-key", priv)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "manifest, signed")
	_, err := os.Stat(filepath.Join(dir, manifest.SignatureName))
	require.NoError(t, err)

	out, stderr, code = runCLI("replay", dir, "--manifest-key", pub)
	assert.Equal(t, exitOK, code, stderr)
	assert.Contains(t, out, "findings:  none")
	assert.NotContains(t, out, "warning:")

	out, _, code = runCLI("replay", dir)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "warning:   "+dir+": manifest.json is signed, but no key was given")

	out, _, code = runCLI("replay", dir, "--manifest-key", otherPub)
	assert.Equal(t, exitVerified, code)
	assert.Contains(t, out, "MANIFEST_INVALID")
	assert.Contains(t, out, "signature does not verify")

	// A dataset without a manifest: a warning, or with a key, a finding.
	require.NoError(t, os.Remove(filepath.Join(dir, manifest.FileName)))
	out, _, code = runCLI("replay", dir)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "completeness (parts missing, added, altered or truncated) could not be checked")
	out, _, code = runCLI("replay", dir, "--manifest-key", pub)
	assert.Equal(t, exitVerified, code)
	assert.Contains(t, out, "MANIFEST_INVALID")

	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"replay", dir, "--manifest-key", priv}, `PEM block "PRIVATE KEY", want "PUBLIC KEY"`},
		{[]string{"replay", filepath.Join(dir, "rounds", "part-00000.parquet"), "--manifest-key", pub}, "is a file"},
		{[]string{"simulate", "--game", "casino-holdem", "--rounds", "10", "--out", dir, "--manifest-key", pub}, `want "PRIVATE KEY"`},
	} {
		_, stderr, code := runCLI(tc.args...)
		assert.Equal(t, exitUsage, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.msg, tc.args)
	}
	// A key file that does not exist is an error of the environment.
	_, stderr, code = runCLI("replay", dir, "--manifest-key", filepath.Join(keys, "nope.pem"))
	assert.Equal(t, exitError, code, stderr)
	assert.Contains(t, stderr, "--manifest-key")
}

// TestReplayOldLayout: a dataset of the flat layout of before is replayed,
// with a warning.
func TestReplayOldLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "day")
	_, stderr, code := runCLI("simulate", "--game", round.CasinoHoldem, "--rounds", "300", "--out", dir)
	require.Equal(t, 0, code, stderr)
	require.NoError(t, os.Remove(filepath.Join(dir, manifest.FileName)))
	for _, table := range []string{"rounds", "boxes"} {
		require.NoError(t, os.Rename(filepath.Join(dir, table, "part-00000.parquet"), filepath.Join(dir, "part-00000."+table+".parquet")))
	}
	out, stderr, code := runCLI("replay", dir)
	assert.Equal(t, exitOK, code, stderr)
	assert.Contains(t, out, "rounds:    300 ")
	assert.Contains(t, out, "the old flat layout")
	out, _, code = runCLI("replay", dir, "--json")
	assert.Equal(t, exitOK, code)
	m := summaryWithoutSeconds(t, out)
	assert.Len(t, m["warnings"], 2)
}
