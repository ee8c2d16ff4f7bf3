package roundlog

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
)

// simDataset writes n simulated single-box Casino Hold'em rounds.
func simDataset(b *testing.B, n int64) string {
	dir := b.TempDir()
	s, err := sim.New(sim.Config{Game: round.CasinoHoldem, Rounds: n, Seed: 1})
	require.NoError(b, err)
	w, err := NewParquetWriter(dir, Options{})
	require.NoError(b, err)
	for !s.Done() {
		r, _, err := s.Next()
		require.NoError(b, err)
		require.NoError(b, w.Write(r))
	}
	require.NoError(b, w.Close())
	return dir
}

// BenchmarkReadSimulated reads a simulated dataset with 2 workers taking
// units in turn, as the replayer does.
func BenchmarkReadSimulated(b *testing.B) {
	dir := simDataset(b, 500_000)
	d, err := Open(dir)
	require.NoError(b, err)
	defer d.Close()
	b.ResetTimer()
	var total atomic.Int64
	for range b.N {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1) - 1)
					if i >= len(d.Units()) {
						return
					}
					var n int64
					if _, err := d.ReadUnit(i, func(*Record) error { n++; return nil }); err != nil {
						b.Error(err)
					}
					total.Add(n)
				}
			}()
		}
		wg.Wait()
	}
	b.ReportMetric(float64(total.Load())/b.Elapsed().Seconds(), "rounds/s")
}
