package scheme

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"strconv"
	"unicode/utf8"
)

// StakeCompatName is the name of the compatibility scheme for the
// Stake-family byte generator.
const StakeCompatName = "stake-compat"

// StakeCompat verifies rounds of the "Stake family" of provably-fair
// schemes (docs/fairness.md, "stake-compat"), for audits:
//
//	block[r] = HMAC-SHA256(key = the server seed's 64 lowercase hex
//	           characters as text, message = clientSeed ":" nonce ":" r)
//
// with nonce and r in decimal, r = 0, 1, 2, ... It takes exactly one client
// seed, of 1..[MaxClientSeedLen] bytes of valid UTF-8 (the limits of
// fairhold/v1); colons in it are allowed (the last two fields of the
// message are always the nonce and r). Every 4 bytes b0..b3 of the
// blocks make a float f = b0/256 + b1/256^2 + b2/256^3 + b3/256^4, and a card
// is CARDS[floor(f*52)] where CARDS is the operator's order 2d 2h 2s 2c 3d
// ... Ad Ah As Ac. floor(f*52) is computed exactly in integers as
// (uint32be(b0..b3) * 52) >> 32. The operator's index k maps to the canonical
// index 4*(k/4) + [1 2 3 0][k mod 4] (ranks agree; suits d, h, s, c become
// 1, 2, 3, 0). Cards are drawn with replacement: they can repeat.
type StakeCompat struct{}

// Name returns "stake-compat".
func (StakeCompat) Name() string { return StakeCompatName }

// stakeSuit maps the operator's suit position (d, h, s, c) to the canonical
// suit (diamonds 1, hearts 2, spades 3, clubs 0).
var stakeSuit = [4]uint8{1, 2, 3, 0}

// StakeCompatCard maps the operator's card index k (0..51, order 2d 2h 2s 2c
// 3d ...) to the canonical card index.
func StakeCompatCard(k uint8) uint8 { return 4*(k/4) + stakeSuit[k%4] }

// StakeCompatIndexCounts returns, for each operator index k, how many of the
// 2^32 values of a 4-byte word map to it: the exact distribution of one draw.
// 2^32 = 52*82595524 + 48, so 48 indices get 82595525 values and 4 get
// 82595524: a relative bias of 1/82595524, about 1.2e-8.
func StakeCompatIndexCounts() [DeckSize]uint64 {
	var c [DeckSize]uint64
	// u maps to k = floor(52u / 2^32); the first u mapping to k is
	// ceil(k * 2^32 / 52).
	first := func(k uint64) uint64 { return (k<<32 + DeckSize - 1) / DeckSize }
	for k := uint64(0); k < DeckSize; k++ {
		c[k] = first(k+1) - first(k)
	}
	return c
}

// Properties describes stake-compat's weaknesses.
func (StakeCompat) Properties() Properties {
	c := StakeCompatIndexCounts()
	lo, hi := c[0], c[0]
	nlo := 0
	for _, v := range c {
		lo, hi = min(lo, v), max(hi, v)
	}
	for _, v := range c {
		if v == lo {
			nlo++
		}
	}
	return Properties{
		WithReplacement: true,
		Notes: []string{
			"cards are drawn with replacement: the same card can be dealt twice in a round, which a one-deck Hold'em table cannot do",
			fmt.Sprintf("float mapping bias: %d of 52 cards have probability %d/2^32 and %d have %d/2^32 (relative bias %.2g per card), because 2^32 is not a multiple of 52",
				DeckSize-nlo, hi, nlo, lo, float64(hi-lo)/float64(lo)),
			"no public beacon: the operator chooses the server seed",
		},
	}
}

// Deal returns n cards drawn with replacement.
func (s StakeCompat) Deal(in Input, n int) ([]uint8, error) {
	d, err := s.Prepare(in.ServerSeed)
	if err != nil {
		return nil, err
	}
	return d.Deal(make([]uint8, 0, max(n, 0)), in.ClientSeeds, in.Nonce, in.Beacon, n)
}

// MaxStakeDraws bounds n for stake-compat.
const MaxStakeDraws = 1 << 16

// Prepare precomputes the HMAC key state; the key is the hex text of the
// 32-byte server seed.
func (StakeCompat) Prepare(serverSeed []byte) (Dealer, error) {
	if len(serverSeed) != SeedSize {
		return nil, inputErrorf("server seed is %d bytes, want %d", len(serverSeed), SeedSize)
	}
	return &stakeDealer{mac: hmac.New(sha256.New, []byte(hex.EncodeToString(serverSeed)))}, nil
}

type stakeDealer struct {
	mac   hash.Hash
	msg   []byte
	block [sha256.Size]byte
}

func (d *stakeDealer) Deal(dst []uint8, clientSeeds []string, nonce uint64, beacon []byte, n int) ([]uint8, error) {
	if len(clientSeeds) != 1 {
		return dst, inputErrorf("stake-compat takes exactly 1 client seed, got %d", len(clientSeeds))
	}
	if c := clientSeeds[0]; len(c) < 1 || len(c) > MaxClientSeedLen {
		return dst, inputErrorf("client seed 1 is %d bytes, want 1..%d", len(c), MaxClientSeedLen)
	} else if !utf8.ValidString(c) {
		return dst, inputErrorf("client seed 1 is not valid UTF-8")
	}
	if beacon != nil {
		return dst, inputErrorf("stake-compat does not mix in a beacon")
	}
	if n < 0 || n > MaxStakeDraws {
		return dst, inputErrorf("%d cards requested, want 0..%d", n, MaxStakeDraws)
	}
	d.msg = append(append(d.msg[:0], clientSeeds[0]...), ':')
	d.msg = strconv.AppendUint(d.msg, nonce, 10)
	d.msg = append(d.msg, ':')
	base := len(d.msg)
	for i := range n {
		if i%8 == 0 {
			d.msg = strconv.AppendUint(d.msg[:base], uint64(i/8), 10)
			d.mac.Reset()
			d.mac.Write(d.msg)
			d.mac.Sum(d.block[:0])
		}
		u := uint64(binary.BigEndian.Uint32(d.block[4*(i%8):]))
		dst = append(dst, StakeCompatCard(uint8(u*DeckSize>>32)))
	}
	return dst, nil
}
