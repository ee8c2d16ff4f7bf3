// Package stream implements the random byte stream of the fairhold/v1
// scheme and unbiased bounded integers drawn from it (docs/fairness.md,
// "Random stream" and "Bounded integers").
//
// The stream of a round is the concatenation of HMAC-SHA256 blocks
//
//	block[j] = HMAC-SHA256(key, prefix || uint64be(j))     j = 0, 1, 2, ...
//
// where key is the server seed (32 bytes), prefix is the round's message
// prefix (built by package scheme; it binds the scheme name, the client
// seeds, the nonce and the beacon randomness) and uint64be(j) is the block
// counter as 8 bytes, big-endian. Bytes are consumed in order: all 32 bytes
// of block 0, then block 1, and so on.
//
// [Uint] draws an integer uniformly from 0..n-1 by rejection sampling; see
// its documentation for the exact rule.
//
// Start with [NewKey], which precomputes the HMAC key state once per server
// seed; [Key.Stream] then opens the stream of one round at the cost of the
// message blocks only.
package stream

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
)

// BlockSize is the number of bytes one HMAC block adds to the stream.
const BlockSize = sha256.Size

// Key holds the precomputed HMAC-SHA256 state of one key (server seed).
// A Key and the Streams opened from it must not be used by several
// goroutines at once; open one Key per goroutine.
//
// The HMAC (RFC 2104) is computed here rather than with crypto/hmac so
// that a Key can be given another key without allocating ([Key.SetKey]):
// a hash-chain table reveals a new server seed every round.
type Key struct {
	inner, outer hash.Hash
	// The SHA-256 states after the key's inner and outer pad blocks.
	innerState, outerState []byte
	sum                    [sha256.Size]byte
	pad                    [hmacBlockSize]byte // a field: a local would escape through Write
}

// hmacBlockSize is SHA-256's block size, the HMAC pad length.
const hmacBlockSize = 64

// NewKey precomputes the HMAC-SHA256 state for key.
func NewKey(key []byte) *Key {
	k := &Key{inner: sha256.New(), outer: sha256.New()}
	k.SetKey(key)
	return k
}

// SetKey makes k the state of another key, reusing k's buffers: no
// allocation once k has been used. Streams opened from k follow the new
// key.
func (k *Key) SetKey(key []byte) {
	if len(key) > hmacBlockSize {
		k.inner.Reset()
		k.inner.Write(key)
		key = k.inner.Sum(k.sum[:0])
	}
	pad := &k.pad
	*pad = [hmacBlockSize]byte{}
	copy(pad[:], key)
	for i := range pad {
		pad[i] ^= 0x36
	}
	k.inner.Reset()
	k.inner.Write(pad[:])
	for i := range pad {
		pad[i] ^= 0x36 ^ 0x5c
	}
	k.outer.Reset()
	k.outer.Write(pad[:])
	var err1, err2 error
	k.innerState, err1 = k.inner.(encoding.BinaryAppender).AppendBinary(k.innerState[:0])
	k.outerState, err2 = k.outer.(encoding.BinaryAppender).AppendBinary(k.outerState[:0])
	if err1 != nil || err2 != nil {
		panic("stream: SHA-256 state does not marshal") // crypto/sha256 always does
	}
}

// mac writes HMAC-SHA256(key, msg) to dst.
func (k *Key) mac(dst *[sha256.Size]byte, msg []byte) {
	restore(k.inner, k.innerState)
	k.inner.Write(msg)
	k.inner.Sum(k.sum[:0])
	restore(k.outer, k.outerState)
	k.outer.Write(k.sum[:])
	k.outer.Sum(dst[:0])
}

func restore(h hash.Hash, state []byte) {
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(state); err != nil {
		panic("stream: SHA-256 state does not unmarshal") // it was marshalled by the same hash
	}
}

// Stream is the byte stream of one round. The zero value is not usable;
// open one with [Key.Stream] or [Key.Reset].
type Stream struct {
	key    *Key
	msg    []byte // prefix || counter; the counter is the last 8 bytes
	block  [BlockSize]byte
	pos    int    // next unread byte of block; BlockSize = exhausted
	next   uint64 // counter of the next block to compute
	blocks uint64 // number of blocks computed so far
}

// Stream opens the stream of the round whose message prefix is prefix.
// The prefix is copied.
func (k *Key) Stream(prefix []byte) *Stream {
	s := &Stream{}
	k.Reset(s, prefix)
	return s
}

// Reset reopens s as the stream of the round whose message prefix is
// prefix, reusing s's buffers (no allocation once they are large enough).
func (k *Key) Reset(s *Stream, prefix []byte) {
	s.key = k
	s.msg = append(append(s.msg[:0], prefix...), 0, 0, 0, 0, 0, 0, 0, 0)
	s.pos = BlockSize
	s.next = 0
	s.blocks = 0
}

// fill computes the next block.
func (s *Stream) fill() {
	binary.BigEndian.PutUint64(s.msg[len(s.msg)-8:], s.next)
	s.key.mac(&s.block, s.msg)
	s.next++
	s.blocks++
	s.pos = 0
}

// Byte returns the next byte of the stream.
func (s *Stream) Byte() byte {
	if s.pos == BlockSize {
		s.fill()
	}
	b := s.block[s.pos]
	s.pos++
	return b
}

// Read fills p with the next len(p) bytes of the stream. It never fails.
func (s *Stream) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = s.Byte()
	}
	return len(p), nil
}

// Blocks returns the number of HMAC blocks computed so far.
func (s *Stream) Blocks() uint64 { return s.blocks }

// Uint returns an integer uniformly distributed in 0..n-1, for 1 <= n <= 256,
// by rejection sampling:
//
//   - n = 1: the result is 0 and no byte is consumed.
//   - otherwise let limit = 256 - (256 mod n), the largest multiple of n not
//     above 256. Read the next byte b of the stream. If b < limit, the result
//     is b mod n. If b >= limit, discard b and read the next byte, until one
//     is accepted.
//
// Every accepted byte value is one of limit equally likely values and limit
// is a multiple of n, so every result has probability exactly 1/n: there is
// no modulo bias and no floating-point arithmetic. Uint panics if n is out
// of range, which is a programming error.
func (s *Stream) Uint(n int) int {
	if n < 1 || n > 256 {
		panic("stream: Uint bound out of range")
	}
	if n == 1 {
		return 0
	}
	for {
		if v, ok := accept(s.Byte(), n); ok {
			return v
		}
	}
}

// accept applies the rejection rule of [Stream.Uint] to one byte, with a
// precomputed limit and reciprocal instead of divisions.
func accept(b byte, n int) (int, bool) {
	r := &bounds[n]
	if uint32(b) >= r.limit {
		return 0, false
	}
	// q = floor(b/n) exactly: b*ceil(2^32/n) overshoots b*2^32/n by less
	// than 256 < 2^32/n, which cannot carry q past the next integer.
	q := (uint64(b) * r.recip) >> 32
	return int(uint64(b) - q*uint64(n)), true
}

// bound is the precomputed rejection limit and reciprocal of one n.
type bound struct {
	limit uint32 // 256 - 256 mod n
	recip uint64 // ceil(2^32 / n)
}

var bounds = func() (t [257]bound) {
	for n := 1; n <= 256; n++ {
		t[n] = bound{limit: uint32(256 - 256%n), recip: (1<<32 + uint64(n) - 1) / uint64(n)}
	}
	return t
}()
