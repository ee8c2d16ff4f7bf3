package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/conformance"
)

func TestVectorsExportAnswer(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "inputs")
	out, stderr, code := runCLI("vectors", "export", in)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "vector inputs written")
	_, stderr, code = runCLI("vectors", "export", in)
	assert.Equal(t, 2, code, "a second export into the same directory")
	assert.Contains(t, stderr, "not empty")

	answers := filepath.Join(dir, "answers.jsonl")
	_, stderr, code = runCLI("vectors", "answer", in, "--out", answers)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(answers)
	require.NoError(t, err)
	as, err := conformance.ParseAnswers(bytes.NewReader(data))
	require.NoError(t, err)
	rep, err := conformance.CompareAnswers(as)
	require.NoError(t, err)
	assert.True(t, rep.Pass(), "%v", rep.Problems)

	_, _, code = runCLI("vectors", "answer", in, "--out", answers)
	assert.Equal(t, 2, code, "refuses to overwrite")

	// A malformed input is named.
	bad := filepath.Join(in, "rules", "casino-ante-flush.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"id":"casino-ante-flush","expect":{}}`), 0o644))
	_, stderr, code = runCLI("vectors", "answer", in, "--out", filepath.Join(dir, "b.jsonl"), "--force")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "casino-ante-flush.json")
	_, err = os.Stat(filepath.Join(dir, "b.jsonl"))
	assert.True(t, os.IsNotExist(err), "nothing written")
}
