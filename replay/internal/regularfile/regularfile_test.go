//go:build unix

package regularfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "part.parquet")
	require.NoError(t, os.WriteFile(reg, []byte("PAR1"), 0o644))
	fifo := filepath.Join(dir, "fifo.parquet")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	sub := filepath.Join(dir, "dir.parquet")
	require.NoError(t, os.Mkdir(sub, 0o755))
	link := filepath.Join(dir, "link.parquet")
	require.NoError(t, os.Symlink(reg, link))
	dangling := filepath.Join(dir, "dangling.parquet")
	require.NoError(t, os.Symlink(filepath.Join(dir, "gone"), dangling))
	loop := filepath.Join(dir, "loop.parquet")
	require.NoError(t, os.Symlink(loop, loop))
	toFifo := filepath.Join(dir, "tofifo.parquet")
	require.NoError(t, os.Symlink(fifo, toFifo))

	for _, name := range []string{reg, link} {
		f, err := Open(name)
		require.NoError(t, err, name)
		f.Close()
	}
	for name, want := range map[string]string{
		fifo:        "not a regular file (named pipe)",
		toFifo:      "not a regular file (named pipe)",
		sub:         "not a regular file (directory)",
		dangling:    "dangling symbolic link",
		loop:        "symbolic link loop",
		"/dev/null": "not a regular file (character device)",
	} {
		_, err := Open(name)
		var e *Error
		require.True(t, errors.As(err, &e), "%s: %v", name, err)
		assert.Equal(t, want, e.Reason, name)
		assert.Equal(t, name, e.Path)
	}
	_, err := Open(filepath.Join(dir, "missing"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
}
