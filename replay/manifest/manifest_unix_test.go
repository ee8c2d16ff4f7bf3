//go:build unix

package manifest

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadFIFO: a FIFO named manifest.json, or manifest.json.sig, is an
// invalid manifest, and never opened (which would block).
func TestLoadFIFO(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, FileName), 0o644))
	_, err := Load(dir, nil)
	var ie *InvalidError
	require.True(t, errors.As(err, &ie), "%v", err)
	assert.Contains(t, ie.Reason, "named pipe")

	dir = t.TempDir()
	_, err = Write(dir, sample(), nil)
	require.NoError(t, err)
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, SignatureName), 0o644))
	_, err = Load(dir, nil)
	require.True(t, errors.As(err, &ie), "%v", err)
	assert.Equal(t, filepath.Join(dir, SignatureName), ie.File)
}
