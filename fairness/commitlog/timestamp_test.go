package commitlog

import (
	"bytes"
	"context"
	"crypto"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/digitorus/timestamp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/commitlog/tsatest"
)

// TestTimestampOpenSSL asks a real TSA (openssl ts -reply on loopback) for
// a token over a checkpoint and reads it back through the evidence.
func TestTimestampOpenSSL(t *testing.T) {
	tsa := tsatest.Start(t)
	dir, _, cp1, cp2 := buildLog(t, 3, 4)
	ctx := context.Background()
	before := time.Now().Add(-time.Second)
	tsr, tok, err := RequestTimestamp(ctx, nil, tsa.URL, cp2.Raw, tsa.CA.Pool())
	require.NoError(t, err)
	after := time.Now().Add(time.Second)
	assert.False(t, tok.GenTime.Before(before), "genTime %v", tok.GenTime)
	assert.False(t, tok.GenTime.After(after), "genTime %v", tok.GenTime)
	assert.Equal(t, 1500*time.Millisecond, tok.Accuracy)
	assert.Equal(t, tok.GenTime.Add(1500*time.Millisecond), tok.Bound)
	assert.Contains(t, tok.Authority, "fairhold test TSA")

	// The token verifies alone, and over a note with cosignatures added
	// (the imprint is of the text only).
	w1 := newTestCosigner("w1.example/w", t0)
	_, err = VerifyTimestamp(tsr, cosign(t, cp2.Raw, w1), tsa.CA.Pool())
	require.NoError(t, err)

	require.NoError(t, WriteEvidence(dir, cp2.Raw, tsr))
	// Without trusted TSAs, tokens are not read: nothing is timed.
	tl, err := loadTL(t, dir, cp2, Trust{})
	require.NoError(t, err)
	assert.Equal(t, 0, tl.Len())
	tl, err = loadTL(t, dir, cp2, Trust{TSARoots: tsa.CA.Pool()})
	require.NoError(t, err)
	at, ev, ok := tl.PublicBy(6)
	require.True(t, ok)
	assert.Equal(t, tok.Bound, at)
	assert.Contains(t, ev, "timestamped by")

	// An earlier cosignature wins over the token; a later one does not.
	require.NoError(t, WriteEvidence(dir, cosign(t, cp2.Raw, w1), nil))
	tl, err = loadTL(t, dir, cp2, Trust{Witnesses: []string{w1.vkey()}, TSARoots: tsa.CA.Pool()})
	require.NoError(t, err)
	at, ev, _ = tl.PublicBy(6)
	assert.Equal(t, t0, at)
	assert.Contains(t, ev, "cosigned by witness w1.example/w")
	late := newTestCosigner("late.example/w", time.Now().Add(time.Hour))
	require.NoError(t, WriteEvidence(dir, cosign(t, cp2.Raw, late), nil))
	tl, err = loadTL(t, dir, cp2, Trust{Witnesses: []string{late.vkey()}, TSARoots: tsa.CA.Pool()})
	require.NoError(t, err)
	at, _, _ = tl.PublicBy(0)
	assert.Equal(t, tok.Bound, at)

	// A token for other bytes: cp2's token stored beside cp1.
	require.NoError(t, WriteEvidence(dir, cp1.Raw, tsr))
	_, err = loadTL(t, dir, cp2, Trust{TSARoots: tsa.CA.Pool()})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrVerification), "%v", err)
	assert.Contains(t, err.Error(), "evidence/timestamp/3")
	assert.Contains(t, err.Error(), "over other bytes")

	// A token of an authority not trusted.
	other := tsatest.NewCA(t, "another root")
	_, err = loadTL(t, dir, cp2, Trust{TSARoots: other.Pool()})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrVerification), "%v", err)
	assert.Contains(t, err.Error(), "not a trusted time-stamping authority")

	// A truncated token.
	tsPath := filepath.Join(dir, filepath.FromSlash(EvidenceTimestampPath(3)))
	require.NoError(t, os.WriteFile(tsPath, tsr[:len(tsr)-9], 0o644))
	_, err = loadTL(t, dir, cp2, Trust{TSARoots: tsa.CA.Pool()})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrVerification), "%v", err)
	assert.Contains(t, err.Error(), "evidence/timestamp/3: verification failed: not a valid RFC 3161")

	// A token with one bit of its signature or content changed.
	imprint, err := NoteImprint(cp2.Raw)
	require.NoError(t, err)
	i := bytes.Index(tsr, imprint[:])
	require.Positive(t, i)
	for _, i := range []int{len(tsr) - 3, i + 5} {
		bad := append([]byte(nil), tsr...)
		bad[i] ^= 1
		_, err := VerifyTimestamp(bad, cp2.Raw, tsa.CA.Pool())
		assert.True(t, errors.Is(err, ErrVerification), "byte %d: %v", i, err)
	}

	// A replayed answer (another request's nonce) is refused by the client.
	replay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(tsr) }))
	defer replay.Close()
	_, _, err = RequestTimestamp(ctx, nil, replay.URL, cp2.Raw, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nonce")
	// A rejection.
	rej, _ := timestamp.CreateErrorResponse(timestamp.Rejection, timestamp.BadAlgorithm)
	reject := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(rej) }))
	defer reject.Close()
	_, _, err = RequestTimestamp(ctx, nil, reject.URL, cp2.Raw, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "rejected")
}

// TestTimestampForgedTokens signs tokens with digitorus/timestamp's own
// responder, the way a hostile party could, and checks each is refused.
func TestTimestampForgedTokens(t *testing.T) {
	_, _, _, cp := buildLog(t, 2, 1)
	ca := tsatest.NewCA(t, "root")
	text, _, err := noteText(cp.Raw)
	require.NoError(t, err)
	digest := sha256.Sum256(text)
	mk := func(t *testing.T, tsaCert bool, hash crypto.Hash, msg []byte) []byte {
		cert, key := ca.Issue(t, "tsa", tsaCert)
		ts := &timestamp.Timestamp{HashAlgorithm: hash, HashedMessage: msg, Time: time.Now(), Policy: []int{1, 2, 3}, AddTSACertificate: true}
		b, err := ts.CreateResponseWithOpts(cert, key, crypto.SHA256)
		require.NoError(t, err)
		return b
	}
	// The control: a well-formed token verifies.
	tok, err := VerifyTimestamp(mk(t, true, crypto.SHA256, digest[:]), cp.Raw, ca.Pool())
	require.NoError(t, err)
	assert.Equal(t, time.Duration(0), tok.Accuracy)

	sum512 := sha512.Sum512(text)
	other := sha256.Sum256([]byte("other bytes"))
	for name, c := range map[string]struct {
		tsr  []byte
		want string
	}{
		"certificate without timeStamping": {mk(t, false, crypto.SHA256, digest[:]), "not a trusted time-stamping authority"},
		"SHA-512 imprint":                  {mk(t, true, crypto.SHA512, sum512[:]), "want SHA-256"},
		"imprint of other bytes":           {mk(t, true, crypto.SHA256, other[:]), "over other bytes"},
		"not DER":                          {[]byte("hello"), "not a valid RFC 3161"},
		"empty":                            {nil, "not a valid RFC 3161"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := VerifyTimestamp(c.tsr, cp.Raw, ca.Pool())
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrVerification), "%v", err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	// A token without the TSA's certificate: its signature cannot be checked.
	cert, key := ca.Issue(t, "tsa", true)
	ts := &timestamp.Timestamp{HashAlgorithm: crypto.SHA256, HashedMessage: digest[:], Time: time.Now(), Policy: []int{1, 2, 3}}
	b, err := ts.CreateResponseWithOpts(cert, key, crypto.SHA256)
	require.NoError(t, err)
	_, err = VerifyTimestamp(b, cp.Raw, ca.Pool())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no certificate")
}
