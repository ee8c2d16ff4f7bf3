package replayer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

var fuzzGames = []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem}

// simulateInto writes 12 simulated rounds of game, with faults injected,
// the seed logs of the fuzz targets.
func simulateInto(tb testing.TB, game string, write func(*round.Round) error) {
	s, err := sim.New(sim.Config{Game: game, Rounds: 12, Seed: 7, Faults: []sim.FaultRate{
		{Name: sim.FaultCardsMismatch, Rate: 0.2}, {Name: sim.FaultCommitmentLate, Rate: 0.2}}})
	require.NoError(tb, err)
	for !s.Done() {
		r, _, err := s.Next()
		require.NoError(tb, err)
		require.NoError(tb, write(r))
	}
}

// FuzzReplayJSONL replays arbitrary JSON Lines logs (seeded with short
// simulated logs of every game, faults injected): the replay never panics,
// and 1 and 3 workers give the same error, or the same summary and the same
// findings file, byte for byte.
func FuzzReplayJSONL(f *testing.F) {
	for _, game := range fuzzGames {
		var buf bytes.Buffer
		w, err := roundlog.NewJSONLWriter(&buf)
		require.NoError(f, err)
		simulateInto(f, game, w.Write)
		require.NoError(f, w.Close())
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "day.rounds.jsonl")
		require.NoError(t, os.WriteFile(p, data, 0o644))
		require.Equal(t, replayOut(t, []string{p}, 1), replayOut(t, []string{p}, 3))
	})
}

// FuzzReplayParquet replays a small Parquet dataset of every game (row
// groups of 4 rounds, faults injected) with one of its files replaced by
// damaged bytes: the replay never panics, and 1 and 3 workers give the
// same error, or the same summary and findings file, byte for byte.
func FuzzReplayParquet(f *testing.F) {
	src := f.TempDir()
	var files []string
	for _, game := range fuzzGames {
		w, err := roundlog.NewParquetWriter(filepath.Join(src, game), roundlog.Options{RowGroupRounds: 4})
		require.NoError(f, err)
		simulateInto(f, game, w.Write)
		require.NoError(f, w.Close())
		for _, fn := range w.Files() {
			b, err := os.ReadFile(fn)
			require.NoError(f, err)
			f.Add(uint8(len(files)), b)
			files = append(files, fn)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		dir := t.TempDir()
		k := int(which) % len(files)
		for i, fn := range files {
			rel, err := filepath.Rel(src, fn)
			require.NoError(t, err)
			dst := filepath.Join(dir, rel)
			require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
			b := data
			if i != k {
				b, err = os.ReadFile(fn)
				require.NoError(t, err)
			}
			require.NoError(t, os.WriteFile(dst, b, 0o644))
		}
		var paths []string
		for _, game := range fuzzGames {
			paths = append(paths, filepath.Join(dir, game))
		}
		require.Equal(t, replayOut(t, paths, 1), replayOut(t, paths, 3))
	})
}

// fuzzOut is what a replay prints: its error, or its summary as
// `fairhold replay --json` prints it and its findings file.
type fuzzOut struct {
	summary  string
	findings []byte
	err      string
}

func replayOut(t *testing.T, paths []string, workers int) fuzzOut {
	fp := filepath.Join(t.TempDir(), "findings.jsonl")
	fw, err := CreateFindings(fp)
	require.NoError(t, err)
	s, err := Run(paths, Options{Workers: workers, Config: config(t), Findings: fw.Write})
	require.NoError(t, fw.Close())
	if err != nil {
		return fuzzOut{err: err.Error()}
	}
	s.Seconds = 0
	js, err := json.MarshalIndent(s, "", "  ")
	require.NoError(t, err)
	b, err := os.ReadFile(fp)
	require.NoError(t, err)
	return fuzzOut{summary: string(js), findings: b}
}
