package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.key")
	require.NoError(t, Write(p, []byte("one"), 0o600, false))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), fi.Mode().Perm())

	err = Write(p, []byte("two"), 0o600, false)
	require.ErrorIs(t, err, fs.ErrExist)
	assert.Contains(t, err.Error(), p)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "one", string(b), "not replaced")

	require.NoError(t, Write(p, []byte("three"), 0o644, true))
	b, err = os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "three", string(b))
	fi, err = os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o644), fi.Mode().Perm())

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left")

	// A missing directory is an error, and nothing is written.
	err = Write(filepath.Join(dir, "absent", "b"), []byte("x"), 0o600, false)
	require.Error(t, err)
	assert.NotErrorIs(t, err, fs.ErrExist)

	// A relative name is written in the working directory.
	t.Chdir(dir)
	require.NoError(t, Write("c", []byte("c"), 0o600, false))
	b, err = os.ReadFile(filepath.Join(dir, "c"))
	require.NoError(t, err)
	assert.Equal(t, "c", string(b))
}

func TestLinkRefuses(t *testing.T) {
	dir := t.TempDir()
	tmp, p := filepath.Join(dir, "tmp"), filepath.Join(dir, "p")
	require.NoError(t, os.WriteFile(tmp, []byte("new"), 0o600))
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o600))
	require.ErrorIs(t, link(tmp, p), fs.ErrExist, "a file that appeared after the check is not replaced")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "old", string(b))
}
