package wire

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

var errBad = errors.New("bad")

func TestReader(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		read func(r *Reader)
		left int
		err  error
	}{
		{"uv", []byte{0x96, 0x01, 7}, func(r *Reader) {
			if x := r.Uv(); x != 150 {
				t.Errorf("Uv = %d, want 150", x)
			}
		}, 1, nil},
		{"truncated uv", []byte{0x96}, func(r *Reader) { r.Uv() }, 0, errBad},
		{"empty uv", nil, func(r *Reader) { r.Uv() }, 0, errBad},
		{"overflowing uv", bytes.Repeat([]byte{0xff}, 11), func(r *Reader) { r.Uv() }, 0, errBad},
		{"truncated sv", []byte{0x80, 0x80}, func(r *Reader) { r.Sv() }, 0, errBad},
		{"bytes", []byte{1, 2, 3}, func(r *Reader) {
			if b := r.Bytes(2); !bytes.Equal(b, []byte{1, 2}) {
				t.Errorf("Bytes = %v", b)
			}
		}, 1, nil},
		{"overlong bytes", []byte{1, 2, 3}, func(r *Reader) {
			if b := r.Bytes(4); b != nil {
				t.Errorf("Bytes = %v, want nil", b)
			}
		}, 0, errBad},
		{"overlong text", []byte{5, 'a', 'b'}, func(r *Reader) {
			if s := r.Text(); s != "" {
				t.Errorf("Text = %q", s)
			}
		}, 0, errBad},
		{"sticky error", []byte{0x80, 1, 1, 1}, func(r *Reader) {
			r.Sv() // 0x80 0x01 is 128 zig-zag: 64
			r.Bytes(3)
			if x := r.Uv(); x != 0 {
				t.Errorf("Uv after an error = %d, want 0", x)
			}
			if b := r.Bytes(0); len(b) != 0 {
				t.Errorf("Bytes after an error = %v", b)
			}
		}, 0, errBad},
		{"fail keeps the first error", []byte{1}, func(r *Reader) {
			r.Fail()
			r.malformed = errors.New("other")
			r.Fail()
		}, 0, errBad},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(tc.b, errBad)
			tc.read(&r)
			if r.Err() != tc.err {
				t.Errorf("Err = %v, want %v", r.Err(), tc.err)
			}
			if r.Len() != tc.left {
				t.Errorf("Len = %d, want %d", r.Len(), tc.left)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	uvs := []uint64{0, 1, 127, 128, 300, math.MaxUint32, math.MaxUint64}
	svs := []int64{0, 1, -1, 63, -64, 64, -65, math.MaxInt64, math.MinInt64}
	texts := []string{"", "a", "héllo", string(bytes.Repeat([]byte{'x'}, 200))}
	var b []byte
	for _, x := range uvs {
		b = AppendUv(b, x)
	}
	for _, x := range svs {
		b = AppendSv(b, x)
	}
	for _, s := range texts {
		b = AppendText(b, s)
	}
	r := NewReader(b, errBad)
	for _, want := range uvs {
		if x := r.Uv(); x != want {
			t.Errorf("Uv = %d, want %d", x, want)
		}
	}
	for _, want := range svs {
		if x := r.Sv(); x != want {
			t.Errorf("Sv = %d, want %d", x, want)
		}
	}
	for _, want := range texts {
		if s := r.Text(); s != want {
			t.Errorf("Text = %q, want %q", s, want)
		}
	}
	if r.Err() != nil || r.Len() != 0 {
		t.Errorf("after the last value: Err = %v, Len = %d", r.Err(), r.Len())
	}
	r.Reset(AppendUv(nil, 5))
	if x := r.Uv(); x != 5 || r.Err() != nil {
		t.Errorf("after Reset: Uv = %d, Err = %v", x, r.Err())
	}
}
