package roundlog

import "unsafe"

// arena holds the bytes of strings that live until the next row group: the
// plain (not dictionary-encoded) text columns and the time texts. Strings
// handed out point into its chunks, so a steady read allocates nothing for
// them; reset makes the latest chunk reusable. This is why a Record and
// everything it points to must be copied to be kept (see ReadUnit).
//
// A chunk is never grown in place: when one is full a new one is made, and
// the strings in the old one keep it alive for as long as they are used.
type arena struct {
	buf []byte
}

// reset forgets every string handed out since the last reset.
func (a *arena) reset() { a.buf = a.buf[:0] }

// reserve makes room for n more bytes in the current chunk.
func (a *arena) reserve(n int) {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(2*cap(a.buf), n, 64<<10))
	}
}

// bytes copies b into the arena and returns the copy's start index in the
// current chunk.
func (a *arena) bytes(b []byte) int {
	a.reserve(len(b))
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	return start
}

// str returns the arena's bytes [i, j) of the current chunk as a string.
func (a *arena) str(i, j int) string {
	if i == j {
		return ""
	}
	return unsafe.String(&a.buf[i], j-i)
}
