package replayer

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/commitments"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
)

// BenchmarkReplayCommitLog replays 200,000 simulated Casino Hold'em rounds
// (2,000 seed sessions, each an entry of the log) with 2 workers, without
// and with their commitment log (its reading, the root recomputed, the
// witness's checkpoints and the checks included): the cost of the log is
// the difference (docs/replay.md, "Commitment log's cost").
func BenchmarkReplayCommitLog(b *testing.B) {
	const n = 200_000
	dir, res, inj := simulateLog(b, sim.Config{Game: round.CasinoHoldem, Rounds: n, Seed: 3})
	require.Empty(b, inj)
	cfg := config(b)
	opts := logOptions(res, true)
	for _, with := range []bool{false, true} {
		name := "without"
		if with {
			name = "with"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				o := Options{Workers: 2, Config: cfg}
				if with {
					lg, err := commitments.Load(context.Background(), opts)
					require.NoError(b, err)
					o.CommitLog = lg
				}
				s, err := Run([]string{dir}, o)
				require.NoError(b, err)
				require.Zero(b, s.FindingsTotal())
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
		})
	}
}

// BenchmarkLoadCommitLog reads and verifies the log of
// BenchmarkReplayCommitLog alone.
func BenchmarkLoadCommitLog(b *testing.B) {
	_, res, _ := simulateLog(b, sim.Config{Game: round.CasinoHoldem, Rounds: 200_000, Seed: 3})
	opts := logOptions(res, true)
	b.ResetTimer()
	for range b.N {
		_, err := commitments.Load(context.Background(), opts)
		require.NoError(b, err)
	}
	b.ReportMetric(float64(res.Timed), "timed-checkpoints")
	b.ReportMetric(float64(res.Entries), "entries")
}
