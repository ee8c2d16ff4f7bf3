package replayer

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/roundlog"
)

// withChunks sets the chunk sizes for the rest of the test.
func withChunks(t testing.TB, rounds, players, findings, text int) {
	r, p, f, x := chunkRounds, chunkPlayers, chunkFindings, chunkText
	chunkRounds, chunkPlayers, chunkFindings, chunkText = rounds, players, findings, text
	t.Cleanup(func() { chunkRounds, chunkPlayers, chunkFindings, chunkText = r, p, f, x })
}

// replayChunks replays paths and returns the summary (seconds zeroed), the
// findings file's bytes and the number of chunks handed over.
func replayChunks(t *testing.T, paths []string, workers int) (*Summary, []byte, int) {
	t.Helper()
	fp := filepath.Join(t.TempDir(), "f.jsonl")
	fw, err := CreateFindings(fp)
	require.NoError(t, err)
	chunks := 0
	s, err := Run(paths, Options{Workers: workers, Config: config(t), Findings: fw.Write, Progress: func(int64) { chunks++ }})
	require.NoError(t, err)
	require.NoError(t, fw.Close())
	b, err := os.ReadFile(fp)
	require.NoError(t, err)
	s.Seconds = 0
	return s, b, chunks
}

// TestReplayChunks replays units larger than a chunk (Parquet row groups
// of 700 rounds, a JSON Lines file of 1,000 rounds whose ids repeat the
// Parquet rounds', so that every one of its rounds is a finding of the
// Ledger; a fault every 101 rounds): they are handed over in chunks of
// rounds, of boxes, of findings and of text, and the summary and the findings file
// are the same bytes for 1, 2 and 3 workers, and the same as with a chunk
// a unit.
func TestReplayChunks(t *testing.T) {
	dir := t.TempDir()
	rs, _ := faulty(t, 2500)
	writeParquet(t, filepath.Join(dir, "pq"), rs, 700)
	jf := filepath.Join(dir, "a.jsonl")
	writeJSONL(t, jf, rs[:1000])
	paths := []string{filepath.Join(dir, "pq"), jf}
	ds, err := roundlog.Open(paths...)
	require.NoError(t, err)
	units := len(ds.Units())
	require.NoError(t, ds.Close())

	want, wantB, chunks := replayChunks(t, paths, 2)
	require.Equal(t, units, chunks, "one chunk a unit by default")
	require.Greater(t, want.Findings["ROUND_DUPLICATE"], int64(900))
	const big = 1 << 30
	for _, sizes := range [][4]int{{100, big, big, big}, {big, 150, big, big}, {big, big, 3, big}, {big, big, big, 2000}, {1, 1, 1, 1}} {
		withChunks(t, sizes[0], sizes[1], sizes[2], sizes[3])
		for _, w := range []int{1, 2, 3} {
			s, b, chunks := replayChunks(t, paths, w)
			assert.Greater(t, chunks, units+2, "chunks of %v", sizes)
			assert.Equal(t, want, s, "chunks of %v, %d workers", sizes, w)
			assert.True(t, bytes.Equal(wantB, b), "chunks of %v, %d workers: the findings differ", sizes, w)
		}
	}
}

// TestReplayChunksRecycleTraces: with units of many chunks the traces'
// storage goes round from the Ledger back to the workers, so that a
// replay allocates far less than a trace a round.
func TestReplayChunksRecycleTraces(t *testing.T) {
	rs := genRounds(t, 40_000, 10)
	withChunks(t, 500, 1<<20, 1<<20, 1<<30)
	cfg := config(t)
	run := func() {
		s, err := Replay(memDataset{rs}, Options{Workers: 2, Config: cfg})
		require.NoError(t, err)
		require.Zero(t, s.FindingsTotal())
	}
	run()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	run()
	runtime.ReadMemStats(&b)
	perRound := float64(b.TotalAlloc-a.TotalAlloc) / float64(len(rs))
	t.Logf("%.0f bytes allocated a round", perRound)
	// A trace is about 170 bytes; a round allocates its id's copy.
	assert.Less(t, perRound, 120.0)
}
