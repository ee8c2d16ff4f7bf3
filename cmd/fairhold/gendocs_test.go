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

// TestReleaseDocs: gendocs --release writes what a release archive carries
// besides the binary: the man pages (those of docs/man) under man/man1, and
// each shell's completion script under completions/ (the same bytes as
// `fairhold completion SHELL` prints: testdata/script/release-docs.txtar,
// as cobra's completion command writes to the process's standard output);
// a second run replaces the first's pages.
func TestReleaseDocs(t *testing.T) {
	tmp := t.TempDir()
	stale := filepath.Join(tmp, "man", "man1", "fairhold-gone.1")
	require.NoError(t, os.MkdirAll(filepath.Dir(stale), 0o755))
	require.NoError(t, os.WriteFile(stale, []byte(".TH gone\n"), 0o644))
	_, stderr, code := runCLI("gendocs", "--release", tmp)
	require.Equal(t, exitOK, code, stderr)
	require.NoFileExists(t, stale)

	want := dirFiles(t, filepath.Join("..", "..", "docs", "man"))
	got := dirFiles(t, filepath.Join(tmp, "man", "man1"))
	require.NotEmpty(t, want)
	require.Equal(t, len(want), len(got))
	for name, b := range want {
		require.Equal(t, string(b), string(got[name]), "man/man1/%s differs from docs/man/%s", name, name)
	}

	heads := map[string]string{
		"fairhold.bash": "# bash completion V2 for fairhold",
		"_fairhold":     "#compdef fairhold",
		"fairhold.fish": "# fish completion for fairhold",
		"fairhold.ps1":  "# powershell completion for fairhold",
	}
	ents, err := os.ReadDir(filepath.Join(tmp, "completions"))
	require.NoError(t, err)
	require.Len(t, ents, len(completionFiles))
	for _, c := range completionFiles {
		b, err := os.ReadFile(filepath.Join(tmp, "completions", c.file))
		require.NoError(t, err)
		require.Contains(t, string(b), heads[c.file], c.file)
	}
}
