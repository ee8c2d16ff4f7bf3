package sim

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
)

func benchGame(b *testing.B, game string) {
	s, err := New(Config{Game: game, Rounds: int64(b.N), Seed: 1})
	require.NoError(b, err)
	b.ResetTimer()
	for !s.Done() {
		if _, _, err := s.Next(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

func BenchmarkSimulateCasino(b *testing.B) { benchGame(b, round.CasinoHoldem) }
func BenchmarkSimulateLive(b *testing.B)   { benchGame(b, round.LiveCasinoHoldem) }
func BenchmarkSimulateDouble(b *testing.B) { benchGame(b, round.DoubleHoldem) }
