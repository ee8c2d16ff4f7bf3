package exact

import (
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

// BenchmarkBoard measures one board: 1,081 evaluations, the sort and the
// sweep. The full game is 2,063,880 boards (1,755 flop classes x 1,176).
func BenchmarkBoard(b *testing.B) {
	s := &sweeper{qualifier: hand.MinPair(card.Four), mult: 1}
	cs, _ := card.ParseN("2c 7d Kh 9s Th", 5)
	var bk hand.Key
	for _, c := range cs {
		bk = bk.Add(c)
	}
	used := card.SetOf(cs...)
	var rem [47]card.Card
	n := 0
	for c := card.Card(0); c < card.DeckSize; c++ {
		if !used.Has(c) {
			rem[n] = c
			n++
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.board(bk, &rem)
	}
}

// BenchmarkFlop measures one rainbow flop, the worst case: all 1,176
// boards (286 of the 1,755 classes are rainbow).
func BenchmarkFlop(b *testing.B) {
	s := &sweeper{qualifier: hand.MinPair(card.Four)}
	cs, _ := card.ParseN("2c 7d Kh", 3)
	f := [3]card.Card{cs[0], cs[1], cs[2]}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.flop(f)
	}
}

// BenchmarkMonotoneFlop measures one monotone flop: 344 to 378 boards.
func BenchmarkMonotoneFlop(b *testing.B) {
	s := &sweeper{qualifier: hand.MinPair(card.Four)}
	cs, _ := card.ParseN("2c 7c Kc", 3)
	f := [3]card.Card{cs[0], cs[1], cs[2]}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.flop(f)
	}
}

// BenchmarkTally measures tallying the states of 20 flop classes.
func BenchmarkTally(b *testing.B) {
	var states []State
	for _, fc := range FlopClasses()[:20] {
		states = append(states, fc.states()...)
	}
	p := DefaultParams()
	st := Optimal(p)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Tally(states, p, st); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRadixSort(b *testing.B) {
	var xs, tmp, src [boardHoldings]uint32
	for i := range src {
		src[i] = uint32(i*7919%7462)<<16 | uint32(i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		xs = src
		radixSortHigh16(xs[:], tmp[:])
	}
}
