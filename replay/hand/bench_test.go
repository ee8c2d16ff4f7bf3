package hand

import (
	"math/rand/v2"
	"testing"

	"github.com/fairhold/fairhold/replay/card"
)

// benchHands are random 7-card hands, drawn once so that the benchmarks
// time evaluation, not dealing.
func benchHands(n int) [][7]card.Card {
	rng := rand.New(rand.NewPCG(11, 12))
	out := make([][7]card.Card, n)
	for i := range out {
		out[i] = [7]card.Card(randomHand(rng, 7))
	}
	return out
}

var sinkValue Value

func BenchmarkEval7Random(b *testing.B) {
	hands := benchHands(1 << 16)
	setUp()
	b.ResetTimer()
	var acc Value
	for i := 0; i < b.N; i++ {
		acc ^= Eval7(hands[i&(len(hands)-1)])
	}
	sinkValue = acc
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mhands/s")
}

func BenchmarkEval5(b *testing.B) {
	hands := make([][5]card.Card, 1<<16)
	for i, h := range benchHands(len(hands)) {
		hands[i] = [5]card.Card(h[:5])
	}
	setUp()
	b.ResetTimer()
	var acc Value
	for i := 0; i < b.N; i++ {
		acc ^= Eval5(hands[i&(len(hands)-1)])
	}
	sinkValue = acc
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mhands/s")
}

// BenchmarkKeyAdd2Value times what the game mathematics does most: a
// board's key plus two hole cards, evaluated.
func BenchmarkKeyAdd2Value(b *testing.B) {
	hands := benchHands(1 << 16)
	boards := make([]Key, len(hands))
	for i, h := range hands {
		boards[i] = Key{}.Add(h[0]).Add(h[1]).Add(h[2]).Add(h[3]).Add(h[4])
	}
	setUp()
	b.ResetTimer()
	var acc Value
	for i := 0; i < b.N; i++ {
		j := i & (len(hands) - 1)
		acc ^= boards[j].Add(hands[j][5]).Add(hands[j][6]).Value()
	}
	sinkValue = acc
}

// BenchmarkCensus7 times one full enumeration of the 133,784,560
// seven-card hands per op, on one goroutine.
func BenchmarkCensus7(b *testing.B) {
	setUp()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if c := Census7(); c.Hands() != 133784560 {
			b.Fatal(c.Hands())
		}
	}
	b.ReportMetric(133784560*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mhands/s")
}

func BenchmarkCensus5(b *testing.B) {
	setUp()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Census5()
	}
}

// BenchmarkTableSetup times what the first evaluation pays: building the
// flush and rank tables.
func BenchmarkTableSetup(b *testing.B) {
	var flush [1 << rankMaskBits]Value
	var rank [1 << tableBits]Value
	for i := 0; i < b.N; i++ {
		if err := buildTables(&flush, &rank, &rowOffset); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRefEval7(b *testing.B) {
	hands := benchHands(1 << 12)
	b.ResetTimer()
	var acc Value
	for i := 0; i < b.N; i++ {
		acc ^= RefEval(hands[i&(len(hands)-1)][:])
	}
	sinkValue = acc
}
