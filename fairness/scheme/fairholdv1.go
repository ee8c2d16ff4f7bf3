package scheme

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/fairhold/fairhold/fairness/shuffle"
	"github.com/fairhold/fairhold/fairness/stream"
)

// FairholdV1Name is the name of this project's scheme, fairhold/v1.
const FairholdV1Name = "fairhold/v1"

// Limits of fairhold/v1's client input.
const (
	// MaxClientSeeds is the largest number of client seeds in one round.
	MaxClientSeeds = 16
	// MaxClientSeedLen is the largest client seed, in bytes of UTF-8.
	MaxClientSeedLen = 256
	// SeedSize is the length of a fairhold/v1 server seed in bytes.
	SeedSize = 32
	// BeaconSize is the length of drand randomness in bytes.
	BeaconSize = 32
)

// FairholdV1 is the fairhold/v1 scheme (docs/fairness.md). The HMAC-SHA256
// stream of package stream is keyed with the 32-byte server seed; the
// message prefix is [FairholdV1Prefix]; cards are dealt by the forward
// Fisher–Yates shuffle of package shuffle from the canonical deck.
type FairholdV1 struct{}

// Name returns "fairhold/v1".
func (FairholdV1) Name() string { return FairholdV1Name }

// Properties describes fairhold/v1.
func (FairholdV1) Properties() Properties {
	return Properties{Unbiased: true, Beacon: true}
}

// Deal returns the first n (0..52) cards of the round's shuffled deck.
func (s FairholdV1) Deal(in Input, n int) ([]uint8, error) {
	d, err := s.Prepare(in.ServerSeed)
	if err != nil {
		return nil, err
	}
	return d.Deal(make([]uint8, 0, max(n, 0)), in.ClientSeeds, in.Nonce, in.Beacon, n)
}

// Prepare precomputes the HMAC key state of a 32-byte server seed.
func (FairholdV1) Prepare(serverSeed []byte) (Dealer, error) {
	if len(serverSeed) != SeedSize {
		return nil, inputErrorf("server seed is %d bytes, want %d", len(serverSeed), SeedSize)
	}
	return &v1Dealer{key: stream.NewKey(serverSeed)}, nil
}

// FairholdV1Prefix appends the message prefix of a fairhold/v1 round to dst
// and returns it. The prefix is, byte for byte:
//
//	"fairhold/v1"                      11 bytes, ASCII
//	uint32be(number of client seeds)    4 bytes
//	for each client seed, in seat order:
//	    uint32be(length in bytes)       4 bytes
//	    the seed's UTF-8 bytes
//	uint64be(nonce)                     8 bytes
//	uint8(length of beacon: 0 or 32)    1 byte
//	the beacon randomness               0 or 32 bytes
//
// Block j of the stream is HMAC-SHA256(server seed, prefix || uint64be(j)).
// The error wraps [ErrInput] if there is no client seed or more than
// [MaxClientSeeds], a seed is empty, longer than [MaxClientSeedLen] or not
// UTF-8, or the beacon is neither nil nor 32 bytes.
func FairholdV1Prefix(dst []byte, clientSeeds []string, nonce uint64, beacon []byte) ([]byte, error) {
	if len(clientSeeds) < 1 || len(clientSeeds) > MaxClientSeeds {
		return dst, inputErrorf("%d client seeds, want 1..%d", len(clientSeeds), MaxClientSeeds)
	}
	if beacon != nil && len(beacon) != BeaconSize {
		return dst, inputErrorf("beacon randomness is %d bytes, want %d", len(beacon), BeaconSize)
	}
	dst = append(dst, FairholdV1Name...)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(clientSeeds)))
	for i, c := range clientSeeds {
		if len(c) < 1 || len(c) > MaxClientSeedLen {
			return dst, inputErrorf("client seed %d is %d bytes, want 1..%d", i+1, len(c), MaxClientSeedLen)
		}
		if !utf8.ValidString(c) {
			return dst, inputErrorf("client seed %d is not valid UTF-8", i+1)
		}
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(c)))
		dst = append(dst, c...)
	}
	dst = binary.BigEndian.AppendUint64(dst, nonce)
	dst = append(dst, byte(len(beacon)))
	dst = append(dst, beacon...)
	return dst, nil
}

// v1Dealer deals fairhold/v1 rounds for one server seed.
type v1Dealer struct {
	key    *stream.Key
	prefix []byte
	st     stream.Stream
}

// Rekey implements [Rekeyer].
func (d *v1Dealer) Rekey(serverSeed []byte) error {
	if len(serverSeed) != SeedSize {
		return inputErrorf("server seed is %d bytes, want %d", len(serverSeed), SeedSize)
	}
	d.key.SetKey(serverSeed)
	return nil
}

func (d *v1Dealer) Deal(dst []uint8, clientSeeds []string, nonce uint64, beacon []byte, n int) ([]uint8, error) {
	if n < 0 || n > DeckSize {
		return dst, inputErrorf("%d cards requested, want 0..%d", n, DeckSize)
	}
	p, err := FairholdV1Prefix(d.prefix[:0], clientSeeds, nonce, beacon)
	d.prefix = p
	if err != nil {
		return dst, err
	}
	d.key.Reset(&d.st, d.prefix)
	return shuffle.Deal(dst, &d.st, DeckSize, n)
}
