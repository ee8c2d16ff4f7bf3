package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shardCLI replays dir as n shards with the command and returns the
// parts' paths.
func shardCLI(t *testing.T, dir string, n int, extra ...string) []string {
	t.Helper()
	pd := t.TempDir()
	var parts []string
	for i := range n {
		part := filepath.Join(pd, fmt.Sprintf("part-%d.fhpart", i))
		out, stderr, code := runCLI(append([]string{"replay", dir, "--shard", fmt.Sprintf("%d/%d", i, n), "--part-out", part}, extra...)...)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, out, fmt.Sprintf("shard %d/%d: ", i, n))
		parts = append(parts, part)
	}
	return parts
}

func withoutSeconds(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), `"seconds"`) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestMergeSameAsReplay: `replay --shard I/N` then `merge` prints the
// summary and writes the findings file (Parquet and JSON Lines) of
// `replay`, byte for byte, with its exit code.
func TestMergeSameAsReplay(t *testing.T) {
	dir, n := simDataset(t, "casino-holdem", 1500, "balance-off-by-one:0.01,nonce-skipped:0.01")
	require.Positive(t, n)
	for _, ext := range []string{"jsonl", "parquet"} {
		ref := filepath.Join(t.TempDir(), "ref."+ext)
		want, stderr, code := runCLI("replay", dir, "--json", "--findings", ref)
		require.Equal(t, 3, code, stderr)
		wantF, err := os.ReadFile(ref)
		require.NoError(t, err)
		for _, shards := range []int{1, 2, 4} {
			parts := shardCLI(t, dir, shards)
			ff := filepath.Join(t.TempDir(), "merged."+ext)
			got, stderr, code := runCLI(append([]string{"merge", "--json", "--findings", ff}, parts...)...)
			require.Equal(t, 3, code, stderr)
			assert.Equal(t, withoutSeconds(want), withoutSeconds(got), "%d shards", shards)
			gotF, err := os.ReadFile(ff)
			require.NoError(t, err)
			assert.Equal(t, wantF, gotF, "%d shards, %s", shards, ext)
		}
	}
	// The text summary too, apart from the time line.
	want, _, _ := runCLI("replay", dir)
	got, _, _ := runCLI(append([]string{"merge"}, shardCLI(t, dir, 2)...)...)
	cut := func(s string) string { return s[strings.Index(s, "\n"):] }
	assert.Equal(t, cut(want), cut(got))
}

// TestMergeExitCodes: parts that do not cover the dataset exactly once
// exit 3 naming them; a file that is not a part 2; a part that cannot be
// read 1; the flags are checked.
func TestMergeExitCodes(t *testing.T) {
	dir, _ := simDataset(t, "casino-holdem", 600, "")
	parts := shardCLI(t, dir, 3)
	_, stderr, code := runCLI("merge", parts[0], parts[2])
	assert.Equal(t, 3, code)
	assert.Contains(t, stderr, "missing: no part for shard 1/3")
	_, stderr, code = runCLI("merge", parts[0], parts[1], parts[2], parts[2])
	assert.Equal(t, 3, code)
	assert.Contains(t, stderr, "duplicated: shard 2/3 is in "+parts[2]+" and "+parts[2])

	other, _ := simDataset(t, "double-holdem", 300, "")
	foreign := shardCLI(t, other, 3)
	_, stderr, code = runCLI("merge", parts[0], parts[1], foreign[2])
	assert.Equal(t, 3, code)
	assert.Contains(t, stderr, foreign[2]+": ")

	bad := filepath.Join(t.TempDir(), "bad.fhpart")
	require.NoError(t, os.WriteFile(bad, []byte("not a part"), 0o644))
	_, stderr, code = runCLI("merge", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, bad)

	_, stderr, code = runCLI("merge", filepath.Join(t.TempDir(), "absent.fhpart"))
	assert.Equal(t, 1, code, stderr)

	out, stderr, code := runCLI(append([]string{"merge"}, parts...)...)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "findings:  none")

	for _, args := range [][]string{
		{"replay", dir, "--shard", "3/3", "--part-out", "x"},
		{"replay", dir, "--shard", "0/3"},
		{"replay", dir, "--part-out", "x"},
		{"replay", dir, "--shard", "0/3", "--shard-from-env", "3", "--part-out", "x"},
		{"replay", dir, "--shard", "0/3", "--part-out", "x", "--findings", "f.jsonl"},
		{"replay", dir, "--shard", "auto/3", "--part-out", "x"},
		{"merge", parts[0], "--findings", "f.txt"},
	} {
		_, _, code := runCLI(args...)
		assert.Equal(t, 2, code, "%v", args)
	}
}

// TestShardFromEnv: --shard-from-env N and --shard auto/N read the index
// from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job).
func TestShardFromEnv(t *testing.T) {
	dir, _ := simDataset(t, "casino-holdem", 300, "")
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	part := filepath.Join(t.TempDir(), "p.fhpart")
	out, stderr, code := runCLI("replay", dir, "--shard-from-env", "2", "--part-out", part, "--json")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, `"shard": "1/2"`)
	assert.Contains(t, out, `"verdict": "ok"`)
	out, stderr, code = runCLI("replay", dir, "--shard", "auto/2", "--part-out", part)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "shard 1/2: ")
}
