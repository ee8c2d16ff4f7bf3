package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGeneratedDocs fails when docs/cli and docs/man differ from what the
// command tree generates: a command, flag or help text changed without the
// reference being regenerated.
func TestGeneratedDocs(t *testing.T) {
	tmp := t.TempDir()
	root := newRootCmd()
	_ = addProfiling(root)
	require.NoError(t, writeDocs(root, tmp))
	for _, sub := range []string{"cli", "man"} {
		committed := filepath.Join("..", "..", "docs", sub)
		want := dirFiles(t, filepath.Join(tmp, sub))
		got := dirFiles(t, committed)
		require.NotEmpty(t, want)
		for name, b := range want {
			c, ok := got[name]
			if !ok {
				t.Errorf("docs/%s/%s is missing: regenerate the command reference with `%s` from the repository root", sub, name, regenerateDocs)
				continue
			}
			if string(c) != string(b) {
				t.Errorf("docs/%s/%s is stale: regenerate the command reference with `%s` from the repository root", sub, name, regenerateDocs)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("docs/%s/%s documents no command: regenerate the command reference with `%s` from the repository root", sub, name, regenerateDocs)
			}
		}
	}
}

func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, e := range ents {
		if e.IsDir() || !slices.Contains([]string{".md", ".1"}, filepath.Ext(e.Name())) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = b
	}
	return out
}
