package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReplayCommitLog: simulate writes a log with its keys and a kept
// checkpoint beside it; replay checks the dataset against it (exit 0
// honest, exit 3 with the log faults), refuses it with --shard, and
// wants --log-key.
func TestReplayCommitLog(t *testing.T) {
	d := t.TempDir()
	ds, cl := filepath.Join(d, "ds"), filepath.Join(d, "cl")
	_, stderr, code := runCLI("simulate", "--game", "double-holdem", "--rounds", "300", "--out", ds, "--commitment-log", cl)
	require.Equal(t, 0, code, stderr)
	logArgs := []string{"--commitment-log", cl, "--log-key", cl + ".pub.pem", "--witness-key", cl + ".witness", "--log-checkpoint", cl + ".kept-checkpoint"}

	out, stderr, code := runCLI(append([]string{"replay", ds, "--json"}, logArgs...)...)
	require.Equal(t, 0, code, stderr)
	var sum struct {
		Verdict       string   `json:"verdict"`
		Warnings      []string `json:"warnings"`
		NotChecked    []string `json:"not_checked"`
		CommitmentLog *struct {
			Sessions int64 `json:"sessions"`
			Timed    int   `json:"timed_checkpoints"`
			Kept     int   `json:"kept_checkpoints"`
		} `json:"commitment_log"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &sum))
	assert.Equal(t, "ok", sum.Verdict)
	assert.Empty(t, sum.NotChecked)
	require.NotNil(t, sum.CommitmentLog)
	assert.Equal(t, int64(3), sum.CommitmentLog.Sessions)
	assert.Positive(t, sum.CommitmentLog.Timed)
	assert.Equal(t, 1, sum.CommitmentLog.Kept)

	out, _, code = runCLI("replay", ds, "--json")
	require.Equal(t, 0, code)
	sum.NotChecked = nil
	require.NoError(t, json.Unmarshal([]byte(out), &sum))
	assert.Len(t, sum.NotChecked, 4, "without a log the checks not made are listed, not warned")

	_, stderr, code = runCLI(append([]string{"replay", ds, "--shard", "0/2", "--part-out", filepath.Join(d, "p0")}, logArgs...)...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "not supported yet")
	_, stderr, code = runCLI("replay", ds, "--commitment-log", cl)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--log-key")
	_, _, code = runCLI("replay", ds, "--log-key", cl+".pub.pem")
	assert.Equal(t, exitUsage, code)

	// The log faults: exit 3.
	ds2, cl2 := filepath.Join(d, "ds2"), filepath.Join(d, "cl2")
	_, stderr, code = runCLI("simulate", "--game", "double-holdem", "--rounds", "300", "--out", ds2, "--commitment-log", cl2, "--faults", "commitment-misbound:1")
	require.Equal(t, 0, code, stderr)
	out, stderr, code = runCLI("replay", ds2, "--commitment-log", cl2, "--log-key", cl2+".pub.pem", "--witness-key", cl2+".witness")
	assert.Equal(t, 3, code, stderr)
	assert.Contains(t, out, "COMMITMENT_MISBOUND")
}
