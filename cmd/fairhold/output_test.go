package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteResult(t *testing.T) {
	type own struct {
		Verdict string `json:"verdict"`
		N       int    `json:"n"`
	}
	for _, tc := range []struct {
		name    string
		verdict string
		v       any
		want    string
	}{
		{"added first, keys kept in order", verdictOK, struct {
			B int    `json:"b"`
			A string `json:"a"`
		}{1, "<x>"}, "{\n  \"verdict\": \"ok\",\n  \"b\": 1,\n  \"a\": \"\\u003cx\\u003e\"\n}\n"},
		{"the type's own verdict kept", verdictFailed, own{"partial", 2}, "{\n  \"verdict\": \"partial\",\n  \"n\": 2\n}\n"},
		{"a report's verdict moved", verdictOK, own{"pass", 2}, "{\n  \"verdict\": \"ok\",\n  \"report_verdict\": \"pass\",\n  \"n\": 2\n}\n"},
		{"an empty object", verdictOK, struct{}{}, "{\n  \"verdict\": \"ok\"\n}\n"},
		{"a map", verdictFindings, map[string]int{"z": 1, "a": 2}, "{\n  \"verdict\": \"findings\",\n  \"a\": 2,\n  \"z\": 1\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, writeResult(&b, tc.verdict, tc.v))
			assert.Equal(t, tc.want, b.String())
		})
	}
	var b bytes.Buffer
	assert.Error(t, writeResult(&b, "maybe", struct{}{}), "not a verdict")
	assert.Error(t, writeResult(&b, verdictOK, []int{1}), "not an object")
	require.NoError(t, writeJSON(&b, []int{1}))
	assert.Equal(t, "[\n  1\n]\n", b.String(), "writeJSON writes what is not an object as it is")
}

// noJSON are the commands without --json, and why.
var noJSON = map[string]string{
	"fairhold serve": "a web server: it prints its address and logs requests",
}

// Every command takes --json, except those whose output is for a shell
// or a person: completion scripts, help, the hidden generators, noJSON.
func TestEveryCommandTakesJSON(t *testing.T) {
	root := newRootCmd()
	n := 0
	walk(root, func(c *cobra.Command) {
		path := c.CommandPath()
		if !c.Runnable() || c.Hidden && c.Name() != "sign" || c == root ||
			strings.HasPrefix(path, "fairhold completion") || strings.HasPrefix(path, "fairhold help") ||
			strings.HasPrefix(path, "fairhold __") {
			return
		}
		if len(c.Commands()) > 0 || noJSON[path] != "" {
			return // a group: its help
		}
		n++
		assert.NotNil(t, c.Flags().Lookup("json"), "%s takes no --json", path)
	})
	assert.Greater(t, n, 20)
}
