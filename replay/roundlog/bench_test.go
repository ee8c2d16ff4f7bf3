package roundlog

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/round"
)

// casinoRounds builds n single-box Casino Hold'em rounds.
func casinoRounds(n int) []round.Round {
	rs := sample(3 * n)
	out := make([]round.Round, 0, n)
	for i := 0; i < len(rs); i += 3 {
		out = append(out, rs[i])
	}
	return out
}

func BenchmarkWriteParquetCasino(b *testing.B) {
	rs := casinoRounds(100_000)
	b.ResetTimer()
	for range b.N {
		writeParquet(b, b.TempDir(), rs, Options{})
	}
	b.ReportMetric(float64(len(rs)*b.N)/b.Elapsed().Seconds(), "rounds/s")
}

func BenchmarkReadParquetCasino(b *testing.B) {
	rs := casinoRounds(200_000)
	dir := b.TempDir()
	writeParquet(b, dir, rs, Options{})
	d, err := Open(dir)
	require.NoError(b, err)
	defer d.Close()
	b.ResetTimer()
	n := 0
	for range b.N {
		dmg, err := d.Scan(func(r *Record) error { n++; return nil })
		if err != nil || len(dmg) > 0 {
			b.Fatal(err, dmg)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rounds/s")
	_ = fmt.Sprint
}

func BenchmarkWriteParquetCasinoOnly(b *testing.B) {
	rs := casinoRounds(50_000)
	dir := b.TempDir()
	b.ResetTimer()
	w, err := NewParquetWriter(dir, Options{})
	require.NoError(b, err)
	for i := range b.N {
		if err := w.Write(&rs[i%len(rs)]); err != nil {
			b.Fatal(err)
		}
	}
	require.NoError(b, w.Close())
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}
