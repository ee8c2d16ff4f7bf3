package stats

import (
	"encoding/binary"
	"math/rand/v2"
)

// Test doubles: an honest shuffle and the classic broken ones. Each is a
// Source whose dealer builds deck i from a generator seeded with i, so
// runs are deterministic.

// shuffleFunc shuffles d (a deck in canonical order) with r.
type shuffleFunc func(d []uint8, r *rand.Rand)

// doubleSource deals decks by a shuffle function. seedOf maps the deck
// number to the generator's seed (identity for a 64-bit seed).
type doubleSource struct {
	shuffle shuffleFunc
	seedOf  func(i uint64) uint64
	small   bool // shuffles small decks with the same function
	newRand func(seed uint64) *rand.Rand
}

func (s doubleSource) NewDealer() (Dealer, error) { return &doubleDealer{s}, nil }

type doubleDealer struct{ s doubleSource }

func (d *doubleDealer) rng(seed uint64) *rand.Rand {
	if d.s.newRand != nil {
		return d.s.newRand(seed)
	}
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	return rand.New(rand.NewChaCha8(key))
}

func (d *doubleDealer) Deck(i uint64, out *[DeckSize]uint8) (uint64, error) {
	seed := i
	if d.s.seedOf != nil {
		seed = d.s.seedOf(i)
	}
	for k := range out {
		out[k] = uint8(k)
	}
	d.s.shuffle(out[:], d.rng(seed))
	return mix(seed), nil
}

func (d *doubleDealer) Small(i uint64, out []uint8) error {
	if !d.s.small {
		return ErrNoSmall
	}
	for k := range out {
		out[k] = uint8(k)
	}
	d.s.shuffle(out, d.rng(1<<62|uint64(len(out))<<40|i))
	return nil
}

// honest is the textbook Fisher-Yates with unbiased integers.
func honest(d []uint8, r *rand.Rand) {
	for i := len(d) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		d[i], d[j] = d[j], d[i]
	}
}

// moduloBias reduces a random byte modulo the range: values below
// 256 mod m are more likely.
func moduloBias(d []uint8, r *rand.Rand) {
	for i := len(d) - 1; i > 0; i-- {
		j := int(uint8(r.Uint32())) % (i + 1)
		d[i], d[j] = d[j], d[i]
	}
}

// swapAny swaps every position with any position: n^n equally likely
// paths onto n! orders, which n! does not divide.
func swapAny(d []uint8, r *rand.Rand) {
	for i := range d {
		j := r.IntN(len(d))
		d[i], d[j] = d[j], d[i]
	}
}

// offByOne picks j below i, never i itself (Sattolo's algorithm): the last
// card never stays in place and only cyclic permutations occur.
func offByOne(d []uint8, r *rand.Rand) {
	for i := len(d) - 1; i > 0; i-- {
		j := r.IntN(i)
		d[i], d[j] = d[j], d[i]
	}
}

// clockSeed is a generator seeded with the millisecond clock truncated to
// 32 bits, dealing two rounds per millisecond: consecutive deals share
// seeds and decks.
func clockSeed(i uint64) uint64 { return uint64(uint32(1_700_000_000_000 + i/2)) }

// lcg32 is a 32-bit linear congruential generator (Numerical Recipes) as a
// rand.Source: its whole state is the 32-bit seed.
type lcg32 struct{ x uint32 }

func (l *lcg32) Uint64() uint64 {
	l.x = 1664525*l.x + 1013904223
	hi := uint64(l.x)
	l.x = 1664525*l.x + 1013904223
	return hi<<32 | uint64(l.x)
}

func newLCG(seed uint64) *rand.Rand { return rand.New(&lcg32{x: uint32(seed)}) }
