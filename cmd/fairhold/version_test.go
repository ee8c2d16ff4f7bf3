package main

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersion(t *testing.T) {
	stdout, stderr, code := runCLI("version")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "fairhold "+version+" ("+runtime.Version())

	stdout, stderr, code = runCLI("version", "--json")
	require.Equal(t, exitOK, code, stderr)
	var got map[string]string
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	assert.Equal(t, version, got["version"])
	assert.Equal(t, runtime.Version(), got["go"])

	_, stderr, code = runCLI("version", "extra")
	assert.Equal(t, exitUsage, code)
	assert.NotEmpty(t, stderr)
}
