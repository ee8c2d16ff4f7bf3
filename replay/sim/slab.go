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
