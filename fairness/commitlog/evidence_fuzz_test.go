package commitlog

import (
	"testing"
)

// The parsers of evidence never panic on hostile bytes; the seeds run in
// every go test, and go test -fuzz explores further.

func FuzzParseEvidenceIndex(f *testing.F) {
	for _, s := range []string{"", "0\n", "3\n7\n", "03\n", "3\n3\n", "3", "\x00\n", "18446744073709551616\n", "+1\n", "-1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sizes, err := parseEvidenceIndex(b)
		if err == nil {
			for i := 1; i < len(sizes); i++ {
				if sizes[i] <= sizes[i-1] {
					t.Fatalf("accepted %q: not ascending", b)
				}
			}
		}
	})
}

func FuzzVerifyCosignatures(f *testing.F) {
	w := newTestCosigner("w.example/fuzz", t0)
	raw := signCheckpoint(&testing.T{}, testOrigin, 3, [32]byte{1})
	f.Add(raw)
	f.Add(cosign(&testing.T{}, raw, w))
	f.Add([]byte("x\n\n— w.example/fuzz AAAA\n"))
	f.Add([]byte("\n\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = VerifyCosignatures(b, []string{w.vkey()})
		_, _ = ParseCheckpoint(b, testOrigin, pub(testKey("log")))
		_, _ = NoteImprint(b)
	})
}

func FuzzVerifyTimestamp(f *testing.F) {
	raw := signCheckpoint(&testing.T{}, testOrigin, 3, [32]byte{1})
	f.Add([]byte{})
	f.Add([]byte{0x30, 0x03, 0x02, 0x01, 0x00})
	f.Add([]byte{0x30, 0x80, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = VerifyTimestamp(b, raw, nil)
	})
}
