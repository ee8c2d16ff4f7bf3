package main

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// /dev/null is a character device but not a terminal: no progress bar.
func TestIsTerminalDevNull(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, isTerminal(f))
	assert.False(t, isTerminal(&bytes.Buffer{}))
}

// syncBuffer is a bytes.Buffer safe for the progress goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Off a terminal, --progress prints a line every interval and one at the
// end; nothing is redrawn in place.
func TestProgressLines(t *testing.T) {
	old := progressInterval
	progressInterval = 20 * time.Millisecond
	t.Cleanup(func() { progressInterval = old })
	var w syncBuffer
	p := startProgress(&w, progressLines, "work", 10)
	p.Add(4)
	time.Sleep(90 * time.Millisecond)
	p.Add(6)
	p.Done()
	out := w.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.GreaterOrEqual(t, len(lines), 3, out)
	assert.Contains(t, lines[0], "work: 4 of 10 (40.0%)")
	assert.Contains(t, lines[len(lines)-1], "work: 10 of 10 (100.0%)")
	assert.NotContains(t, out, "\r")

	var off syncBuffer
	p = startProgress(&off, progressOff, "work", 10)
	p.Add(10)
	p.Done()
	assert.Empty(t, off.String())
}

// The default: a bar only on a terminal and not with --json; --progress
// forces lines off a terminal, --progress=false silences.
func TestProgressMode(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want progressMode
	}{
		{[]string{"replay", "x"}, progressOff}, // stderr is a buffer, not a terminal
		{[]string{"replay", "x", "--progress"}, progressLines},
		{[]string{"replay", "x", "--json", "--progress"}, progressLines},
		{[]string{"replay", "x", "--progress=false"}, progressOff},
	} {
		root := newRootCmd()
		root.SetErr(&bytes.Buffer{})
		cmd, rest, err := root.Find(tc.args)
		require.NoError(t, err)
		require.NoError(t, cmd.ParseFlags(rest))
		assert.Equal(t, tc.want, progressModeOf(cmd), "%v", tc.args)
	}
}
