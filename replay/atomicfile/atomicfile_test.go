package atomicfile

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestCommit(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.jsonl")
	f, err := Create(name)
	require.NoError(t, err)
	defer f.Abort()
	_, err = f.Write([]byte("half"))
	require.NoError(t, err)
	_, err = os.Stat(name)
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing at the final name before Commit")
	assert.True(t, strings.HasPrefix(filepath.Base(f.TempName()), ".out.jsonl.tmp-"), f.TempName())
	_, err = f.Write([]byte(" and whole\n"))
	require.NoError(t, err)
	require.NoError(t, f.Commit())
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, "half and whole\n", string(b))
	assert.Equal(t, []string{"out.jsonl"}, entries(t, dir), "no temporary file left")
	assert.NoError(t, f.Abort(), "Abort after Commit does nothing")
	assert.Error(t, f.Commit(), "a second Commit")
	_, err = os.Stat(name)
	assert.NoError(t, err)

	// Commit replaces; CommitNew refuses to.
	require.NoError(t, WriteFile(name, []byte("new\n"), 0o644))
	b, err = os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(b))
	g, err := Create(name)
	require.NoError(t, err)
	_, err = g.Write([]byte("other"))
	require.NoError(t, err)
	assert.ErrorIs(t, g.CommitNew(), os.ErrExist)
	b, err = os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(b))
	assert.Equal(t, []string{"out.jsonl"}, entries(t, dir))
	h, err := CreateMode(filepath.Join(dir, "secret"), 0o600)
	require.NoError(t, err)
	require.NoError(t, h.CommitNew())
	st, err := os.Stat(filepath.Join(dir, "secret"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
}

// TestFailureBeforeCommit: an error while writing, followed by Abort,
// leaves no file at the final name and no temporary file.
func TestFailureBeforeCommit(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "findings.parquet")
	write := func() (err error) {
		f, err := Create(name)
		if err != nil {
			return err
		}
		defer f.Abort()
		if _, err := f.Write([]byte("PAR1 half a file")); err != nil {
			return err
		}
		return errors.New("encoder failed")
	}
	require.EqualError(t, write(), "encoder failed")
	assert.Empty(t, entries(t, dir))

	// A final name that is a directory is refused before anything is
	// written, and nothing is left beside it.
	require.NoError(t, os.Mkdir(name, 0o755))
	_, err := Create(name)
	assert.ErrorContains(t, err, "is a directory")
	assert.Equal(t, []string{"findings.parquet"}, entries(t, dir))

	// No directory: an error naming the file.
	_, err = Create(filepath.Join(dir, "nope", "x"))
	assert.ErrorContains(t, err, filepath.Join("nope", "x"))
}

// TestKilledWriter: a process killed while writing leaves nothing at the
// final name (only its temporary file).
func TestKilledWriter(t *testing.T) {
	if dir := os.Getenv("ATOMICFILE_HELPER_DIR"); dir != "" {
		f, err := Create(filepath.Join(dir, "manifest.json"))
		if err != nil {
			os.Exit(2)
		}
		f.Write([]byte(`{"version":1,"parts":[`))
		os.Stdout.WriteString("ready\n")
		select {} // killed here
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriter$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_HELPER_DIR="+dir)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ready\n", line)
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	_, err = os.Stat(filepath.Join(dir, "manifest.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	names := entries(t, dir)
	require.Len(t, names, 1)
	assert.True(t, strings.HasPrefix(names[0], ".manifest.json.tmp-"), names[0])
}
