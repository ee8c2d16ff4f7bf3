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

// FuzzReplayJSONL replays arbitrary JSON Lines logs (seeded with short
// simulated logs of every game, faults injected): the replay never panics,
// and 1 and 3 workers give the same error, or the same summary and the same
// findings file, byte for byte.
func FuzzReplayJSONL(f *testing.F) {
	for _, game := range []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem} {
		s, err := sim.New(sim.Config{Game: game, Rounds: 12, Seed: 7, Faults: []sim.FaultRate{
			{Name: sim.FaultCardsMismatch, Rate: 0.2}, {Name: sim.FaultCommitmentLate, Rate: 0.2}}})
		require.NoError(f, err)
		var buf bytes.Buffer
		w, err := roundlog.NewJSONLWriter(&buf)
		require.NoError(f, err)
		for !s.Done() {
			r, _, err := s.Next()
			require.NoError(f, err)
			require.NoError(f, w.Write(r))
		}
		require.NoError(f, w.Close())
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "day.rounds.jsonl")
		require.NoError(t, os.WriteFile(p, data, 0o644))
		type out struct {
			summary  string // as `fairhold replay --json` prints it
			findings []byte
			err      string
		}
		var outs [2]out
		for i, workers := range []int{1, 3} {
			fp := filepath.Join(dir, "findings.jsonl")
			fw, err := CreateFindings(fp)
			require.NoError(t, err)
			s, err := Run([]string{p}, Options{Workers: workers, Config: config(t), Findings: fw.Write})
			require.NoError(t, fw.Close())
			if err != nil {
				outs[i].err = err.Error()
				continue
			}
			s.Seconds = 0
			js, err := json.MarshalIndent(s, "", "  ")
			require.NoError(t, err)
			b, err := os.ReadFile(fp)
			require.NoError(t, err)
			outs[i] = out{summary: string(js), findings: b}
		}
		require.Equal(t, outs[0], outs[1])
	})
}
