package receipt_test

import (
	"crypto/ed25519"
	"testing"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/receipt"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
)

// BenchmarkReconcile reconciles every receipt of a simulated log (10,000
// rounds of each game) with the log, a JSON Lines file: the log read, the
// receipts matched and compared, the sessions and rotations checked. The
// receipts are read and verified before the timer starts
// (BenchmarkVerify measures that).
func BenchmarkReconcile(b *testing.B) {
	for _, g := range games {
		b.Run(g, func(b *testing.B) {
			rs := honest(b, g, 10000, 21)
			recs := issue(b, rs)
			path := writeLog(b, rs)
			b.ResetTimer()
			for range b.N {
				ds, err := roundlog.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				sum, err := receipt.Reconcile(ds, recs, func(*finding.Finding) error { return nil })
				ds.Close()
				if err != nil || sum.FindingsTotal() != 0 {
					b.Fatalf("%v, %d findings", err, sum.FindingsTotal())
				}
			}
			b.ReportMetric(float64(len(recs))*float64(b.N)/b.Elapsed().Seconds(), "receipts/s")
		})
	}
}

// BenchmarkVerify reads and verifies signed receipts (one Ed25519
// verification and one parse each).
func BenchmarkVerify(b *testing.B) {
	rs := honest(b, round.LiveCasinoHoldem, 1000, 21)
	s, err := receipt.NewSigner(testOperator, testKey())
	if err != nil {
		b.Fatal(err)
	}
	var notes [][]byte
	for i := range rs {
		_, ns, err := receipt.IssueRound(&rs[i], s, nil)
		if err != nil {
			b.Fatal(err)
		}
		notes = append(notes, ns...)
	}
	v, err := receipt.NewVerifier(testOperator, testKey().Public().(ed25519.PublicKey))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := v.Open(notes[i%len(notes)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "receipts/s")
}
