package sim

// slab hands out slices of one large array at a time, so that the many
// small slices of a round (its cards as texts, its boxes, the round
// itself) cost one allocation per slab instead of one each. A slice handed
// out has its capacity capped at its length: an append by its owner
// reallocates rather than reach the next slice. The array lives as long as
// any slice of it, so this suits values written and dropped in order, as
// the simulator's rounds are.
type slab[T any] struct {
	buf  []T
	size int // elements per array
}

func (s *slab[T]) take(n int) []T {
	if cap(s.buf)-len(s.buf) < n {
		s.buf = make([]T, 0, max(s.size, n))
	}
	i := len(s.buf)
	s.buf = s.buf[:i+n]
	return s.buf[i : i+n : i+n]
}

// one returns a pointer to a new zero element.
func (s *slab[T]) one() *T { return &s.take(1)[0] }

// open returns an empty slice whose capacity is the free tail of the
// array (at least min elements), for a value whose length is not known
// in advance (a Double Hold'em hand's actions): append into it, then
// keep it. An append beyond the tail moves to a slice of its own.
func (s *slab[T]) open(min int) []T {
	if cap(s.buf)-len(s.buf) < min {
		s.buf = make([]T, 0, max(s.size, min))
	}
	return s.buf[len(s.buf):len(s.buf)]
}

// keep ends the use of a slice from open: the elements it holds in the
// array are taken, and it is returned with its capacity capped.
func (s *slab[T]) keep(used []T) []T {
	n := len(used)
	if n > 0 && len(s.buf) < cap(s.buf) && &s.buf[:len(s.buf)+1][len(s.buf)] == &used[0] {
		s.buf = s.buf[:len(s.buf)+n]
	}
	return used[:n:n]
}
