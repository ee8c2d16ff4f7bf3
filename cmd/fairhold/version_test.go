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
	assert.Contains(t, stdout, "revision ")

	flag, stderr, code := runCLI("--version")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, stdout, flag, "--version prints what version prints")

	stdout, stderr, code = runCLI("version", "--json")
	require.Equal(t, exitOK, code, stderr)
	var got struct {
		Verdict string `json:"verdict"`
		versionInfo
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	assert.Equal(t, "ok", got.Verdict)
	assert.Equal(t, version, got.Version)
	assert.Equal(t, runtime.Version(), got.Go)
	assert.Equal(t, "github.com/fairhold/fairhold", got.Module)
	assert.Equal(t, buildVersion(), got.versionInfo)

	_, stderr, code = runCLI("version", "extra")
	assert.Equal(t, exitUsage, code)
	assert.NotEmpty(t, stderr)
}

func TestVersionString(t *testing.T) {
	v := versionInfo{Version: "v1.2.3", Go: "go1.26.0", Revision: "abc", ModuleVersion: "v1.2.3"}
	assert.Equal(t, "fairhold v1.2.3 (go1.26.0, revision abc)", v.String())
	v = versionInfo{Version: "1.2.3", Go: "go1.26.0", ModuleVersion: "(devel)"}
	assert.Equal(t, "fairhold 1.2.3 (go1.26.0, module (devel), revision unknown)", v.String())
}
