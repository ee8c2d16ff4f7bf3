package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readChainFile(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	c, err := chain.Parse(bytes.NewReader(b))
	require.NoError(t, err)
	out := make([]string, len(c.Links))
	for i, l := range c.Links {
		out[i] = l.Hex()
	}
	return out
}

func sha256Hex(t *testing.T, h string) string {
	t.Helper()
	b, err := hex.DecodeString(h)
	require.NoError(t, err)
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestSeedNew(t *testing.T) {
	out, stderr, code := runCLI("seed", "new", "--json")
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stderr)
	var o seed.Generated
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	require.Len(t, o.ServerSeed, 64)
	assert.Equal(t, strings.ToLower(o.ServerSeed), o.ServerSeed)
	assert.Equal(t, sha256Hex(t, o.ServerSeed), o.Commitment)

	out2, _, _ := runCLI("seed", "new", "--json")
	assert.NotEqual(t, out, out2, "a fresh seed each time")
}

func TestSeedNewOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "seed")
	out, stderr, code := runCLI("seed", "new", "--out", path)
	require.Equal(t, 0, code, stderr)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	s := strings.TrimSuffix(string(b), "\n")
	require.Len(t, s, 64)
	assert.NotContains(t, out, s, "the seed goes to the file only")
	assert.NotContains(t, stderr, s)
	assert.Contains(t, out, sha256Hex(t, s))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	// Never overwrite a secret.
	_, stderr, code = runCLI("seed", "new", "--out", path)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "already exists")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, b, after)
}

func TestSeedNewOutMalformed(t *testing.T) {
	// An explicitly empty --out must not fall back to printing the secret.
	out, stderr, code := runCLI("seed", "new", "--out", "")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "--out")
	// A file that cannot be created is a tool error naming the file.
	missing := filepath.Join(t.TempDir(), "no-such-dir", "seed")
	out, stderr, code = runCLI("seed", "new", "--out", missing)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, stderr, missing)
}

func TestSeedNewChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chain")
	out, stderr, code := runCLI("seed", "new", "--chain", "4", "--out", path, "--json")
	require.Equal(t, 0, code, stderr)
	var o seed.Generated
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	assert.Equal(t, 4, o.Chain)
	assert.Empty(t, o.Links, "links go to the file only")
	links := readChainFile(t, path)
	require.Len(t, links, 5)
	assert.Equal(t, links[0], o.Commitment)
	for i := 1; i < len(links); i++ {
		assert.Equal(t, links[i-1], sha256Hex(t, links[i]))
		assert.NotContains(t, out, links[i])
	}
	// To stdout: the links in round order.
	out, _, code = runCLI("seed", "new", "--chain", "2", "--json")
	require.Equal(t, 0, code)
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	require.Len(t, o.Links, 2)
	assert.Equal(t, o.Commitment, sha256Hex(t, o.Links[0]))
	assert.Equal(t, o.Links[0], sha256Hex(t, o.Links[1]))

	for _, n := range []string{"0", "-1", "10000001"} {
		_, stderr, code := runCLI("seed", "new", "--chain", n)
		assert.Equal(t, 2, code, n)
		assert.Contains(t, stderr, "--chain")
	}
}
