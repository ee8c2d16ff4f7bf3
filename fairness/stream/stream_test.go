package stream

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reference computes block j independently with crypto/hmac.
func reference(key, prefix []byte, j uint64) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(prefix)
	m.Write(binary.BigEndian.AppendUint64(nil, j))
	return m.Sum(nil)
}

func TestStreamBlocks(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	for _, prefix := range [][]byte{nil, []byte("p"), make([]byte, 200)} {
		k := NewKey(key)
		s := k.Stream(prefix)
		got := make([]byte, 3*BlockSize+5)
		_, err := s.Read(got)
		require.NoError(t, err)
		var want []byte
		for j := uint64(0); j < 4; j++ {
			want = append(want, reference(key, prefix, j)...)
		}
		assert.Equal(t, want[:len(got)], got)
		assert.Equal(t, uint64(4), s.Blocks())
		// Reset restarts the stream with a new prefix, reusing s.
		k.Reset(s, []byte("other"))
		b := s.Byte()
		assert.Equal(t, reference(key, []byte("other"), 0)[0], b)
		assert.Equal(t, uint64(1), s.Blocks())
	}
}

// SetKey gives a Key another key: its streams follow the new key, for
// keys shorter than, as long as and longer than the HMAC block, and with
// no allocation once the Key has been used.
func TestSetKey(t *testing.T) {
	k := NewKey([]byte("first"))
	var s Stream
	for _, n := range []int{0, 1, 32, 63, 64, 65, 200} {
		key := make([]byte, n)
		for i := range key {
			key[i] = byte(i*7 + n)
		}
		k.SetKey(key)
		k.Reset(&s, []byte("prefix"))
		got := make([]byte, 2*BlockSize)
		_, _ = s.Read(got)
		want := append(reference(key, []byte("prefix"), 0), reference(key, []byte("prefix"), 1)...)
		assert.Equal(t, want, got, "key of %d bytes", n)
	}
	key := make([]byte, 32)
	allocs := testing.AllocsPerRun(100, func() {
		key[0]++
		k.SetKey(key)
		k.Reset(&s, []byte("prefix"))
		s.Byte()
	})
	if !raceEnabled {
		assert.Zero(t, allocs)
	}
}

// The rule of Uint gives every result in 0..n-1 the same number of
// accepted byte values, for every n: no modulo bias.
func TestAcceptIsUnbiased(t *testing.T) {
	for n := 2; n <= 256; n++ {
		counts := make([]int, n)
		accepted := 0
		for b := range 256 {
			if v, ok := accept(byte(b), n); ok {
				require.Less(t, v, n)
				require.Equal(t, b%n, v, "n=%d b=%d", n, b)
				counts[v]++
				accepted++
			}
		}
		assert.Equal(t, 256-256%n, accepted, "n=%d", n)
		for v, c := range counts {
			assert.Equal(t, 256/n, c, "n=%d v=%d", n, v)
		}
	}
}

func TestUintConsumesAsSpecified(t *testing.T) {
	key := []byte("k")
	raw := NewKey(key).Stream([]byte("x"))
	s := NewKey(key).Stream([]byte("x"))
	for _, n := range []int{52, 51, 1, 50, 49, 2, 48, 256, 47, 33, 3} {
		got := s.Uint(n)
		want := 0
		if n > 1 {
			for {
				b := int(raw.Byte())
				if b < 256-256%n {
					want = b % n
					break
				}
			}
		}
		assert.Equal(t, want, got, "n=%d", n)
	}
	assert.Panics(t, func() { s.Uint(0) })
	assert.Panics(t, func() { s.Uint(257) })
}

func BenchmarkBlock(b *testing.B) {
	k := NewKey(make([]byte, 32))
	s := k.Stream(make([]byte, 28))
	for b.Loop() {
		s.fill()
	}
}

// The floor: one SHA-256 compression, measured as the difference between
// hashing 119 bytes (2 compressions) and 55 bytes (1 compression).
var sink [32]byte

func BenchmarkSHA256OneCompression(b *testing.B) {
	m := make([]byte, 55)
	for b.Loop() {
		sink = sha256.Sum256(m)
	}
}

func BenchmarkSHA256TwoCompressions(b *testing.B) {
	m := make([]byte, 119)
	for b.Loop() {
		sink = sha256.Sum256(m)
	}
}
