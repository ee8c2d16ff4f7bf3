package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSlab(t *testing.T) {
	s := slab[int]{size: 8}
	a := s.take(3)
	b := s.take(3)
	assert.Len(t, a, 3)
	assert.Equal(t, 3, cap(a), "capped: an append cannot reach the next slice")
	a = append(a, 1)
	assert.Equal(t, 4, len(a))
	assert.Equal(t, 0, b[0], "b untouched by a's append")
	c := s.take(3) // 2 left: a new array
	assert.Len(t, s.buf, 3)
	assert.Equal(t, 3, cap(c))

	// open/keep: the used part is taken, the rest stays free.
	o := s.open(2)
	o = append(o, 7, 8)
	o = s.keep(o)
	assert.Equal(t, []int{7, 8}, o)
	assert.Equal(t, 2, cap(o))
	assert.Len(t, s.buf, 5)
	// A slice that outgrew the tail moved away: nothing is taken.
	o = s.open(1)
	o = append(o, 1, 2, 3, 4, 5)
	o = s.keep(o)
	assert.Len(t, s.buf, 5)
	assert.Equal(t, []int{1, 2, 3, 4, 5}, o)
	assert.Equal(t, 0, s.buf[:6][5], "the tail is still free")
}
