package receipt_test

import (
	"bytes"
	"testing"

	"github.com/fairhold/fairhold/replay/receipt"
)

// FuzzUnmarshal: every body Unmarshal accepts is the one encoding of its
// receipt (docs/receipts.md section 2.2).
func FuzzUnmarshal(f *testing.F) {
	for _, g := range games {
		rs := honest(f, g, 3, 9)
		for i := range rs {
			for _, p := range receipt.Players(&rs[i]) {
				rc, err := receipt.FromRound(&rs[i], p, testOperator)
				if err != nil {
					f.Fatal(err)
				}
				b, err := rc.Marshal()
				if err != nil {
					f.Fatal(err)
				}
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rc, err := receipt.Unmarshal(b)
		if err != nil {
			return
		}
		again, err := rc.Marshal()
		if err != nil {
			t.Fatalf("accepted but does not marshal: %v", err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("accepted %q, re-encodes to %q", b, again)
		}
	})
}
