// Package shuffle implements the forward Fisher–Yates shuffle of the
// fairhold/v1 scheme (docs/fairness.md, "Shuffle").
//
// The deck starts in the canonical order (card index i at position i, for
// i = 0..size-1). For i = 0, 1, ..., size-2, position i is swapped with
// position i + U(size - i), where U(m) is the bounded integer of
// [stream.Stream.Uint]. After step i, position i holds the i-th card dealt
// and is never touched again, so dealing the first k cards costs k draws and
// equals the first k cards of the full shuffle. The last position needs no
// draw (U(1) = 0).
package shuffle

import (
	"fmt"

	"github.com/fairhold/fairhold/fairness/stream"
)

// Source is where the shuffle draws its integers: U(n) uniformly in
// 0..n-1. [stream.Stream] is the production source.
type Source interface {
	Uint(n int) int
}

var _ Source = (*stream.Stream)(nil)

// MaxSize is the largest deck Deal accepts.
const MaxSize = 256

// Deal shuffles a deck of size cards from src and appends its first n cards
// (card indices) to dst. It returns an error if size is out of 1..256 or n
// is out of 0..size.
func Deal(dst []uint8, src Source, size, n int) ([]uint8, error) {
	if size < 1 || size > MaxSize {
		return dst, fmt.Errorf("shuffle: deck size %d, want 1..%d", size, MaxSize)
	}
	if n < 0 || n > size {
		return dst, fmt.Errorf("shuffle: %d cards requested from a deck of %d", n, size)
	}
	deck := canonical
	if st, ok := src.(*stream.Stream); ok {
		// The production source, called directly rather than through the
		// interface; the same draws.
		for i := range n {
			j := i + st.Uint(size-i)
			deck[i], deck[j] = deck[j], deck[i]
		}
	} else {
		for i := range n {
			j := i + src.Uint(size-i)
			deck[i], deck[j] = deck[j], deck[i]
		}
	}
	return append(dst, deck[:n]...), nil
}

// canonical is the deck in canonical order: card i at position i.
var canonical = func() (d [MaxSize]uint8) {
	for i := range d {
		d[i] = uint8(i)
	}
	return d
}()
