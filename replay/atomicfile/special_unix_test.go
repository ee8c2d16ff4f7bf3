//go:build unix

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNotRegularWrittenDirectly: a named pipe (as /dev/null or a shell's
// /dev/stdout would be, a device) is written into, never renamed over: it
// is still a pipe afterwards and its reader got the bytes.
func TestNotRegularWrittenDirectly(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	require.NoError(t, WriteFile(fifo, []byte("findings\n"), 0o644))
	assert.Equal(t, "findings\n", string(<-got))
	st, err := os.Lstat(fifo)
	require.NoError(t, err)
	assert.Equal(t, os.ModeNamedPipe, st.Mode().Type(), "the pipe was replaced")
	entries, err := os.ReadDir(filepath.Dir(fifo))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")

	// Not replacing what is there: a pipe is not a new file.
	assert.ErrorIs(t, WriteFileNew(fifo, []byte("x"), 0o644), os.ErrExist)
}

// TestSymlinkWrittenThrough: a name that is a link to a regular file
// replaces the link's target, and the link stays a link.
func TestSymlinkWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	link := filepath.Join(dir, "report.json")
	require.NoError(t, os.Symlink(target, link))
	require.NoError(t, WriteFile(link, []byte("new"), 0o644))
	st, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, st.Mode().Type())
	b, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "new", string(b))

	// A directory is refused.
	assert.Error(t, WriteFile(dir, []byte("x"), 0o644))
}
