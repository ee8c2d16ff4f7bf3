// Package wire holds the primitives of the part file's encoding
// (docs/sharding.md, "The part file"): unsigned integers as unsigned
// LEB128 varints (uv, [encoding/binary.AppendUvarint]), signed integers
// zig-zag encoded and then as uv (sv, [encoding/binary.AppendVarint]),
// and texts as uv(length) followed by their bytes.
//
// A [Reader] reads them back with a sticky error: after the first read
// that fails, every read returns the zero value and the error stays the
// one the caller supplied, so a decoder checks it once at the end.
package wire

import "encoding/binary"

// AppendUv appends x as an unsigned varint.
func AppendUv(b []byte, x uint64) []byte { return binary.AppendUvarint(b, x) }

// AppendSv appends x as a zig-zag varint.
func AppendSv(b []byte, x int64) []byte { return binary.AppendVarint(b, x) }

// AppendText appends s as uv(len(s)) and its bytes.
func AppendText(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Reader reads the primitives from a buffer; make one with [NewReader].
// A read that fails records the Reader's malformed error and empties the
// buffer.
type Reader struct {
	b         []byte
	err       error
	malformed error
}

// NewReader returns a Reader of b whose failed reads report malformed,
// which must not be nil.
func NewReader(b []byte, malformed error) Reader {
	return Reader{b: b, malformed: malformed}
}

// Reset starts reading b, clearing the error.
func (r *Reader) Reset(b []byte) { r.b, r.err = b, nil }

// Err returns the error of the first failed read, or nil.
func (r *Reader) Err() error { return r.err }

// Len returns the number of bytes left to read.
func (r *Reader) Len() int { return len(r.b) }

// Fail records the malformed error (unless an error is already recorded)
// and empties the buffer: the caller found the data inconsistent.
func (r *Reader) Fail() {
	if r.err == nil {
		r.err = r.malformed
	}
	r.b = nil
}

// Uv reads an unsigned varint.
func (r *Reader) Uv() uint64 {
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.Fail()
		return 0
	}
	r.b = r.b[n:]
	return x
}

// Sv reads a zig-zag varint.
func (r *Reader) Sv() int64 {
	x, n := binary.Varint(r.b)
	if n <= 0 {
		r.Fail()
		return 0
	}
	r.b = r.b[n:]
	return x
}

// Bytes reads n bytes, which alias the buffer (nil if fewer are left).
func (r *Reader) Bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.Fail()
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// Text reads a text written by [AppendText].
func (r *Reader) Text() string { return string(r.Bytes(r.Uv())) }
