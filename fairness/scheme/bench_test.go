package scheme

import (
	"testing"
)

// benchDeal deals n cards per round, one nonce per iteration, from one
// prepared server seed (the simulator's and replayer's hot path).
func benchDeal(b *testing.B, s Scheme, clientSeeds []string, beacon []byte, n int) {
	d, err := s.Prepare(make([]byte, 32))
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]uint8, 0, 64)
	var nonce uint64
	for b.Loop() {
		nonce++
		dst, err = d.Deal(dst[:0], clientSeeds, nonce, beacon, n)
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFairholdV1(b *testing.B) {
	short := []string{"player-seed-1"}                                                    // 13 bytes: the message is one SHA-256 block
	hex64 := []string{"3f9a1c0e5b7d2468ace013579bdf02468ace013579bdf02468ace013579bdf0a"} // 64 hex characters
	six := []string{"seat-1", "seat-2", "seat-3", "seat-4", "seat-5", "seat-6"}
	beacon := make([]byte, 32)
	b.Run("casino-holdem-9/short-seed", func(b *testing.B) { benchDeal(b, FairholdV1{}, short, nil, 9) })
	b.Run("casino-holdem-9/hex64-seed", func(b *testing.B) { benchDeal(b, FairholdV1{}, hex64, nil, 9) })
	b.Run("casino-holdem-9/short-seed+beacon", func(b *testing.B) { benchDeal(b, FairholdV1{}, short, beacon, 9) })
	b.Run("live-6-boxes-19/six-seeds", func(b *testing.B) { benchDeal(b, FairholdV1{}, six, nil, 19) })
	b.Run("full-deck-52/short-seed", func(b *testing.B) { benchDeal(b, FairholdV1{}, short, nil, 52) })
	b.Run("full-deck-52/hex64-seed", func(b *testing.B) { benchDeal(b, FairholdV1{}, hex64, nil, 52) })
}

func BenchmarkStakeCompat(b *testing.B) {
	b.Run("draws-10", func(b *testing.B) { benchDeal(b, StakeCompat{}, []string{"bb62964774"}, nil, 10) })
}
