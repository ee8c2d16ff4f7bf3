package roundlog

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
)

// BenchmarkSimulateAndWrite is `fairhold simulate` without the CLI: one
// goroutine simulates single-box Casino Hold'em rounds, the benchmark's
// goroutine writes them as Parquet.
func BenchmarkSimulateAndWrite(b *testing.B) {
	s, err := sim.New(sim.Config{Game: round.CasinoHoldem, Rounds: int64(b.N), Seed: 1})
	require.NoError(b, err)
	w, err := NewParquetWriter(b.TempDir(), Options{})
	require.NoError(b, err)
	ch := make(chan []*round.Round, 4)
	go func() {
		defer close(ch)
		for !s.Done() {
			batch := make([]*round.Round, 0, 1024)
			for len(batch) < 1024 && !s.Done() {
				r, _, err := s.Next()
				if err != nil {
					panic(err)
				}
				batch = append(batch, r)
			}
			ch <- batch
		}
	}()
	b.ResetTimer()
	for batch := range ch {
		for _, r := range batch {
			if err := w.Write(r); err != nil {
				b.Fatal(err)
			}
		}
	}
	require.NoError(b, w.Close())
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkWriteParquetDouble writes simulated Double Hold'em hands held
// in memory: the writer's share of `fairhold simulate --game
// double-holdem` (a hand is one round row, its seats, about 20 actions and
// its pots). The CPU time per hand (user time, the writer encodes on other
// goroutines) is what counts against the simulator's throughput target.
func BenchmarkWriteParquetDouble(b *testing.B) {
	const hands = 20_000 // written again and again
	s, err := sim.New(sim.Config{Game: round.DoubleHoldem, Rounds: hands, Seed: 1})
	require.NoError(b, err)
	rs := make([]*round.Round, 0, hands)
	for !s.Done() {
		r, _, err := s.Next()
		require.NoError(b, err)
		rs = append(rs, r)
	}
	// One writer for the whole run, as the simulator has: its buffers
	// reach their size once.
	w, err := NewParquetWriter(b.TempDir(), Options{})
	require.NoError(b, err)
	b.ResetTimer()
	for i := range b.N {
		if err := w.Write(rs[i%len(rs)]); err != nil {
			b.Fatal(err)
		}
	}
	require.NoError(b, w.Close())
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}
