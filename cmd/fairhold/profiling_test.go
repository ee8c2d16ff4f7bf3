package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCPUProfileFlag(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"eval", "As", "Ks", "Qs", "Js", "Ts"}, 0},
		{[]string{"verify", "--scheme", "fairhold/v1", "--commitment", "00", "--server-seed", "00"}, 2},
	} {
		p := filepath.Join(dir, tc.args[0]+".prof")
		_, stderr, code := runCLI(append(tc.args, "--cpuprofile", p)...)
		require.Equal(t, tc.code, code, stderr)
		b, err := os.ReadFile(p)
		require.NoError(t, err, "the profile is written whatever the exit code")
		require.Greater(t, len(b), 2)
		assert.Equal(t, []byte{0x1f, 0x8b}, b[:2], "a gzipped pprof profile")
	}
	_, stderr, code := runCLI("eval", "As", "Ks", "Qs", "Js", "Ts", "--cpuprofile", filepath.Join(dir, "missing", "x.prof"))
	assert.Equal(t, 1, code, "a directory that does not exist is an error of the environment")
	assert.Contains(t, stderr, "--cpuprofile")
}

func TestReplayMemProfileFlag(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	_, stderr, code := runCLI("simulate", "--game", "casino-holdem", "--rounds", "3000", "--out", logs, "--row-group", "500")
	require.Equal(t, 0, code, stderr)
	p := filepath.Join(dir, "heap.prof")
	_, stderr, code = runCLI("replay", logs, "--workers", "2", "--memprofile", p)
	require.Equal(t, 0, code, stderr)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Greater(t, len(b), 2)
	assert.Equal(t, []byte{0x1f, 0x8b}, b[:2], "a gzipped pprof profile")

	_, stderr, code = runCLI("replay", logs, "--memprofile", filepath.Join(dir, "missing", "x.prof"))
	assert.Equal(t, 1, code, "a directory that does not exist is an error of the environment")
	assert.Contains(t, stderr, "--memprofile")
}
