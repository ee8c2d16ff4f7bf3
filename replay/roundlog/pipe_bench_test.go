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
