package commitlog

import (
	"context"
	"crypto/x509"
	"time"
)

// Token is a verified RFC 3161 time-stamp token over a checkpoint.
type Token struct {
	Authority string        // the TSA certificate's subject
	GenTime   time.Time     // the token's genTime
	Accuracy  time.Duration // the token's accuracy, 0 when absent
	Bound     time.Time     // GenTime + Accuracy: the checkpoint existed by then
}

// loadToken reads and verifies evidence/timestamp/<SIZE> of cp; nil, nil
// when there is none.
func loadToken(ctx context.Context, r *Reader, cp *Checkpoint, roots *x509.CertPool) (*Token, error) {
	return nil, nil // RFC 3161 tokens: the next step
}
