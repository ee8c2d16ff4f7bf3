package commitlog

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"net/http"
	"time"

	"github.com/digitorus/pkcs7"
	"github.com/digitorus/timestamp"
)

// Token is a verified RFC 3161 time-stamp token over a checkpoint.
type Token struct {
	Authority string        // the TSA certificate's subject
	GenTime   time.Time     // the token's genTime, UTC
	Accuracy  time.Duration // the token's accuracy, 0 when absent
	Bound     time.Time     // GenTime + Accuracy: the checkpoint existed by then
}

// NoteImprint returns the SHA-256 message imprint of a signed note: the
// digest of its text (the body lines with their LFs, signatures excluded).
func NoteImprint(signedNote []byte) ([32]byte, error) {
	text, _, err := noteText(signedNote)
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(text), nil
}

// NewTimestampRequest returns a DER RFC 3161 TimeStampReq over the text of
// a signed checkpoint note: SHA-256, certReq true, a random 64-bit nonce.
func NewTimestampRequest(signedNote []byte) (req []byte, nonce *big.Int, err error) {
	text, _, err := noteText(signedNote)
	if err != nil {
		return nil, nil, err
	}
	nonce, err = rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 64))
	if err != nil {
		return nil, nil, err
	}
	req, err = timestamp.CreateRequest(bytes.NewReader(text), &timestamp.RequestOptions{Hash: crypto.SHA256, Certificates: true, Nonce: nonce})
	return req, nonce, err
}

// maxTSAResponse limits what a TSA's answer may hold.
const maxTSAResponse = 64 << 10

// RequestTimestamp asks the RFC 3161 time-stamping authority at tsaURL
// (HTTP POST, application/timestamp-query, RFC 3161 section 3.4) for a
// token over the text of a signed checkpoint note, and returns the DER
// TimeStampResp after checking its status, signature, imprint and nonce.
// roots, when not nil, must also accept the TSA ([VerifyTimestamp]).
func RequestTimestamp(ctx context.Context, c *http.Client, tsaURL string, signedNote []byte, roots *x509.CertPool) ([]byte, *Token, error) {
	req, nonce, err := NewTimestampRequest(signedNote)
	if err != nil {
		return nil, nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, tsaURL, bytes.NewReader(req))
	if err != nil {
		return nil, nil, fmt.Errorf("TSA %s: %w", tsaURL, err)
	}
	hr.Header.Set("Content-Type", "application/timestamp-query")
	if c == nil {
		c = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := c.Do(hr)
	if err != nil {
		return nil, nil, fmt.Errorf("TSA %s: %w", tsaURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTSAResponse+1))
	if err != nil {
		return nil, nil, fmt.Errorf("TSA %s: %w", tsaURL, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("TSA %s: HTTP status %s: %q", tsaURL, resp.Status, trunc(string(body)))
	}
	if len(body) > maxTSAResponse {
		return nil, nil, fmt.Errorf("TSA %s: an answer of more than %d bytes", tsaURL, maxTSAResponse)
	}
	tok, ts, err := verifyToken(body, signedNote, roots)
	if err != nil {
		return nil, nil, fmt.Errorf("TSA %s: %w", tsaURL, err)
	}
	if ts.Nonce == nil || ts.Nonce.Cmp(nonce) != 0 {
		return nil, nil, fmt.Errorf("TSA %s: %w", tsaURL, verifyErr("the token's nonce %v is not the request's %v", ts.Nonce, nonce))
	}
	return body, tok, nil
}

// VerifyTimestamp verifies a DER RFC 3161 TimeStampResp over the text of
// a signed checkpoint note: a granted status; a token signed by the one
// certificate it carries, whose chain leads to roots at the token's
// genTime with the extended key usage timeStamping; a SHA-256 message
// imprint equal to the digest of the note's text. Failures match
// [ErrVerification]. roots nil checks all but the chain (for a client that
// has not been told which authorities to trust).
func VerifyTimestamp(tsr, signedNote []byte, roots *x509.CertPool) (*Token, error) {
	tok, _, err := verifyToken(tsr, signedNote, roots)
	return tok, err
}

func verifyToken(tsr, signedNote []byte, roots *x509.CertPool) (*Token, *timestamp.Timestamp, error) {
	want, err := NoteImprint(signedNote)
	if err != nil {
		return nil, nil, err
	}
	ts, err := timestamp.ParseResponse(tsr)
	if err != nil {
		return nil, nil, verifyErr("not a valid RFC 3161 time-stamp response: %v", err)
	}
	if len(ts.Certificates) == 0 {
		// digitorus/timestamp checks the signature only when the token
		// carries the signer's certificate.
		return nil, nil, verifyErr("the time-stamp token carries no certificate, so its signature cannot be checked")
	}
	p7, err := pkcs7.Parse(ts.RawToken)
	if err != nil {
		return nil, nil, verifyErr("time-stamp token: %v", err)
	}
	signer := p7.GetOnlySigner()
	if signer == nil {
		return nil, nil, verifyErr("time-stamp token: want exactly one signer whose certificate the token carries")
	}
	if roots != nil {
		inter := x509.NewCertPool()
		for _, c := range p7.Certificates {
			inter.AddCert(c)
		}
		err := p7.VerifyWithOpts(x509.VerifyOptions{
			Roots: roots, Intermediates: inter, CurrentTime: ts.Time,
			KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageTimeStamping},
		})
		if err != nil {
			return nil, nil, verifyErr("time-stamp token by %q: not a trusted time-stamping authority at its genTime %s: %v", signer.Subject.String(), ts.Time.UTC().Format(time.RFC3339), err)
		}
	}
	if ts.HashAlgorithm != crypto.SHA256 {
		return nil, nil, verifyErr("time-stamp token: message imprint with %v, want SHA-256", ts.HashAlgorithm)
	}
	if subtle.ConstantTimeCompare(ts.HashedMessage, want[:]) != 1 {
		return nil, nil, verifyErr("time-stamp token over other bytes: its message imprint is %x, the checkpoint's note text has SHA-256 %x", ts.HashedMessage, want)
	}
	if ts.Accuracy < 0 {
		return nil, nil, verifyErr("time-stamp token: negative accuracy %v", ts.Accuracy)
	}
	gen := ts.Time.UTC()
	return &Token{Authority: signer.Subject.String(), GenTime: gen, Accuracy: ts.Accuracy, Bound: gen.Add(ts.Accuracy)}, ts, nil
}

// loadToken reads and verifies evidence/timestamp/<SIZE> of cp; nil, nil
// when there is none.
func loadToken(ctx context.Context, r *Reader, cp *Checkpoint, roots *x509.CertPool) (*Token, error) {
	p := EvidenceTimestampPath(cp.Size)
	b, err := r.get(ctx, p, maxTimestamp)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name(p), err)
	}
	tok, err := VerifyTimestamp(b, cp.Raw, roots)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name(p), err)
	}
	return tok, nil
}
