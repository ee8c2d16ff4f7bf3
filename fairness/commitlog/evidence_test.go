package commitlog

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	fnote "github.com/transparency-dev/formats/note"
	"github.com/transparency-dev/tessera/api/layout"
	"golang.org/x/mod/sumdb/note"
)

// testCosigner signs cosignature/v1 (C2SP tlog-cosignature) at a fixed
// time. It is written from the spec, apart from the verifier under test
// (transparency-dev/formats/note), so that the two check each other.
type testCosigner struct {
	name string
	key  ed25519.PrivateKey
	at   time.Time
}

func newTestCosigner(name string, at time.Time) *testCosigner {
	return &testCosigner{name: name, key: testKey("witness/" + name), at: at}
}

func (c *testCosigner) pubWithType() []byte {
	return append([]byte{0x04}, c.key.Public().(ed25519.PublicKey)...)
}

func (c *testCosigner) Name() string { return c.name }
func (c *testCosigner) KeyHash() uint32 {
	h := sha256.Sum256(append([]byte(c.name+"\n"), c.pubWithType()...))
	return binary.BigEndian.Uint32(h[:4])
}
func (c *testCosigner) Sign(msg []byte) ([]byte, error) {
	ts := uint64(c.at.Unix())
	m := fmt.Sprintf("cosignature/v1\ntime %d\n%s", ts, msg)
	return append(binary.BigEndian.AppendUint64(nil, ts), ed25519.Sign(c.key, []byte(m))...), nil
}

// vkey is the witness's C2SP verifier key.
func (c *testCosigner) vkey() string {
	return fmt.Sprintf("%s+%08x+%s", c.name, c.KeyHash(), base64.StdEncoding.EncodeToString(c.pubWithType()))
}

// cosign appends the cosignature lines of signers to a signed note.
func cosign(t *testing.T, raw []byte, signers ...note.Signer) []byte {
	t.Helper()
	text, _, err := noteText(raw)
	require.NoError(t, err)
	signed, err := note.Sign(&note.Note{Text: string(text)}, signers...)
	require.NoError(t, err)
	return append(append([]byte(nil), raw...), signed[len(text)+1:]...)
}

var t0 = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

func loadTL(t *testing.T, dir string, latest *Checkpoint, trust Trust) (*Timeline, error) {
	t.Helper()
	r, err := Open(dir, nil)
	require.NoError(t, err)
	return LoadTimeline(context.Background(), r, latest, pub(testKey("log")), trust)
}

func TestTestCosignerMatchesFormats(t *testing.T) {
	// The test cosigner and formats/note's signer agree on the key hash,
	// and formats' verifier accepts the test cosigner's signatures.
	c := newTestCosigner("w.example/one", t0)
	skey := fmt.Sprintf("PRIVATE+KEY+%s+%08x+%s", c.name, c.KeyHash(), base64.StdEncoding.EncodeToString(append([]byte{0x04}, c.key.Seed()...)))
	s, err := fnote.NewSignerForCosignatureV1(skey)
	require.NoError(t, err)
	assert.Equal(t, c.KeyHash(), s.KeyHash())
	v, err := fnote.NewVerifierForCosignatureV1(c.vkey())
	require.NoError(t, err)
	msg := []byte("o\n1\nAAAA\n")
	sig, _ := c.Sign(msg)
	assert.True(t, v.Verify(msg, sig))
	assert.False(t, v.Verify([]byte("o\n2\nAAAA\n"), sig))
}

func TestLoadTimelineCosignatures(t *testing.T) {
	dir, _, cp1, cp2 := buildLog(t, 3, 4)
	w1, w2, w3 := newTestCosigner("w1.example/w", t0), newTestCosigner("w2.example/w", t0.Add(2*time.Minute)), newTestCosigner("w3.example/w", t0.Add(time.Hour))

	// No evidence: an empty timeline.
	tl, err := loadTL(t, dir, cp2, Trust{Witnesses: []string{w1.vkey()}})
	require.NoError(t, err)
	assert.Equal(t, 0, tl.Len())

	// Size 7 cosigned by w2 and w3; size 3 by w3 only (an hour later).
	w1b := newTestCosigner("w1.example/w", t0.Add(5*time.Minute))
	require.NoError(t, WriteEvidence(dir, cosign(t, cp2.Raw, w2, w3, w1b), nil))
	require.NoError(t, WriteEvidence(dir, cosign(t, cp1.Raw, w3), nil))
	idx, err := os.ReadFile(filepath.Join(dir, "evidence", "index"))
	require.NoError(t, err)
	assert.Equal(t, "3\n7\n", string(idx))

	all := []string{w1.vkey(), w2.vkey(), w3.vkey()}
	tl, err = loadTL(t, dir, cp2, Trust{Witnesses: all})
	require.NoError(t, err)
	require.Equal(t, 2, tl.Len())
	// Entry 0 is in both; the size-7 checkpoint was cosigned first (w2).
	at, ev, ok := tl.PublicBy(0)
	require.True(t, ok)
	assert.Equal(t, t0.Add(2*time.Minute), at)
	assert.Contains(t, ev, "w2.example/w")
	at, _, ok = tl.PublicBy(6)
	require.True(t, ok)
	assert.Equal(t, t0.Add(2*time.Minute), at)
	_, _, ok = tl.PublicBy(7)
	assert.False(t, ok)

	// Quorum 2: the second earliest of size 7 is w1 at +5 min; size 3 has one.
	tl, err = loadTL(t, dir, cp2, Trust{Witnesses: all, Quorum: 2})
	require.NoError(t, err)
	require.Equal(t, 1, tl.Len())
	at, ev, ok = tl.PublicBy(2)
	require.True(t, ok)
	assert.Equal(t, t0.Add(5*time.Minute), at)
	assert.Contains(t, ev, "2 of 3")

	// Only w3 trusted: w1's and w2's cosignatures do not count.
	tl, err = loadTL(t, dir, cp2, Trust{Witnesses: []string{w3.vkey()}})
	require.NoError(t, err)
	at, _, ok = tl.PublicBy(0)
	require.True(t, ok)
	assert.Equal(t, t0.Add(time.Hour), at)

	// No trusted witness: nothing is timed.
	tl, err = loadTL(t, dir, cp2, Trust{})
	require.NoError(t, err)
	assert.Equal(t, 0, tl.Len())
	other := newTestCosigner("w4.example/w", t0)
	tl, err = loadTL(t, dir, cp2, Trust{Witnesses: []string{other.vkey()}})
	require.NoError(t, err)
	assert.Equal(t, 0, tl.Len())

	// A quorum larger than the witnesses, a malformed key, a key twice.
	for _, tr := range []Trust{{Witnesses: all, Quorum: 4}, {Witnesses: []string{"nope"}}, {Witnesses: []string{w1.vkey(), w1.vkey()}}, {Quorum: -1}} {
		_, err = loadTL(t, dir, cp2, tr)
		assert.Error(t, err, "%+v", tr)
	}

	// The same over HTTP.
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	r, err := Open(srv.URL, srv.Client())
	require.NoError(t, err)
	tl, err = LoadTimeline(context.Background(), r, cp2, pub(testKey("log")), Trust{Witnesses: all})
	require.NoError(t, err)
	assert.Equal(t, 2, tl.Len())
}

func TestCosignatureWithFormatsSigner(t *testing.T) {
	// A cosignature made by transparency-dev/formats' own signer (the
	// current time) is read with its time.
	dir, _, cp1, cp2 := buildLog(t, 2, 1)
	_ = cp1
	skey, vkey, err := note.GenerateKey(nil, "witness.example/real")
	require.NoError(t, err)
	s, err := fnote.NewSignerForCosignatureV1(skey)
	require.NoError(t, err)
	cvkey, err := fnote.VKeyToCosignatureV1(vkey)
	require.NoError(t, err)
	before := time.Now().Add(-time.Second)
	require.NoError(t, WriteEvidence(dir, cosign(t, cp2.Raw, s), nil))
	tl, err := loadTL(t, dir, cp2, Trust{Witnesses: []string{cvkey}})
	require.NoError(t, err)
	at, ev, ok := tl.PublicBy(2)
	require.True(t, ok, ev)
	assert.False(t, at.Before(before.Truncate(time.Second)), "%v", at)
	assert.False(t, at.After(time.Now()), "%v", at)
}

func TestWriteEvidence(t *testing.T) {
	dir, _, cp1, cp2 := buildLog(t, 3, 4)
	w1, w2 := newTestCosigner("w1.example/w", t0), newTestCosigner("w2.example/w", t0)
	// Idempotent, and merging cosignatures of the same checkpoint.
	require.NoError(t, WriteEvidence(dir, cosign(t, cp2.Raw, w1), nil))
	require.NoError(t, WriteEvidence(dir, cosign(t, cp2.Raw, w1), nil))
	require.NoError(t, WriteEvidence(dir, cosign(t, cp2.Raw, w2), []byte("token")))
	require.NoError(t, WriteEvidence(dir, cp1.Raw, nil))
	got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(EvidenceCheckpointPath(7))))
	require.NoError(t, err)
	assert.Equal(t, string(cosign(t, cp2.Raw, w1, w2)), string(got))
	tok, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(EvidenceTimestampPath(7))))
	require.NoError(t, err)
	assert.Equal(t, "token", string(tok))
	idx, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(EvidenceIndexPath)))
	require.NoError(t, err)
	assert.Equal(t, "3\n7\n", string(idx))
	tl, err := loadTL(t, dir, cp2, Trust{Witnesses: []string{w1.vkey(), w2.vkey()}, Quorum: 2})
	require.NoError(t, err)
	assert.Equal(t, 1, tl.Len())

	// Another checkpoint of the same size is refused, and so is junk.
	forked := signCheckpoint(t, testOrigin, 7, [32]byte{1})
	err = WriteEvidence(dir, forked, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "another checkpoint of size 7")
	for _, junk := range []string{"", "x", "o\n1\nAAAA\n", "o\n1\nAAAA\n\nno dash\n", "o\n01\nAAAA\n\n— o abc\n", "o\n\n— o abc\n"} {
		assert.Error(t, WriteEvidence(dir, []byte(junk), nil), "%q", junk)
	}
}

// signCheckpoint signs a checkpoint body with the test log's key.
func signCheckpoint(t *testing.T, origin string, size uint64, root [32]byte) []byte {
	t.Helper()
	s, err := NewSigner(origin, testKey("log"))
	require.NoError(t, err)
	b, err := note.Sign(&note.Note{Text: fmt.Sprintf("%s\n%d\n%s\n", origin, size, base64.StdEncoding.EncodeToString(root[:]))}, s)
	require.NoError(t, err)
	return b
}

func TestLoadTimelineHostile(t *testing.T) {
	w1 := newTestCosigner("w1.example/w", t0)
	trust := Trust{Witnesses: []string{w1.vkey()}}
	type setup func(t *testing.T, dir string, cp1, cp2 *Checkpoint) (latest *Checkpoint)
	write := func(t *testing.T, dir, p string, b []byte) {
		name := filepath.Join(dir, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
		require.NoError(t, os.WriteFile(name, b, 0o644))
	}
	cases := []struct {
		name  string
		setup setup
		want  string // in the error
	}{
		{"forged checkpoint: root changed under the signature", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			raw := cosign(t, cp1.Raw, w1)
			lines := strings.SplitN(string(raw), "\n", 4)
			root, _ := base64.StdEncoding.DecodeString(lines[2])
			root[0] ^= 1
			lines[2] = base64.StdEncoding.EncodeToString(root)
			write(t, dir, EvidenceIndexPath, []byte("3\n"))
			write(t, dir, EvidenceCheckpointPath(3), []byte(strings.Join(lines, "\n")))
			return cp2
		}, "evidence/checkpoint/3"},
		{"checkpoint signed by another key", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			s, _ := NewSigner(testOrigin, testKey("other"))
			text, _, _ := noteText(cp1.Raw)
			b, _ := note.Sign(&note.Note{Text: string(text)}, s, w1)
			write(t, dir, EvidenceIndexPath, []byte("3\n"))
			write(t, dir, EvidenceCheckpointPath(3), b)
			return cp2
		}, "evidence/checkpoint/3"},
		{"a fork: signed by the log, not a prefix of the latest", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			require.NoError(t, WriteEvidence(dir, cosign(t, signCheckpoint(t, testOrigin, 3, [32]byte{9}), w1), nil))
			return cp2
		}, "not a prefix"},
		{"a fork at the latest size", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			require.NoError(t, WriteEvidence(dir, cosign(t, signCheckpoint(t, testOrigin, 7, [32]byte{9}), w1), nil))
			return cp2
		}, "forked"},
		{"checkpoint of another log", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			require.NoError(t, WriteEvidence(dir, cosign(t, signCheckpoint(t, "example.com/other-log", 3, cp1.Root), w1), nil))
			return cp2
		}, "evidence/checkpoint/3"},
		{"larger than the latest checkpoint", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			require.NoError(t, WriteEvidence(dir, cosign(t, cp2.Raw, w1), nil))
			return cp1
		}, "larger than the log's checkpoint of size 3"},
		{"checkpoint under another size's name", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			write(t, dir, EvidenceIndexPath, []byte("5\n"))
			write(t, dir, EvidenceCheckpointPath(5), cosign(t, cp1.Raw, w1))
			return cp2
		}, "under the name of size 5"},
		{"bad cosignature by a trusted witness", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			raw := cosign(t, cp1.Raw, w1)
			i := bytes.LastIndex(raw, []byte(" "))
			sig, _ := base64.StdEncoding.DecodeString(string(raw[i+1 : len(raw)-1]))
			sig[len(sig)-1] ^= 1
			raw = append(raw[:i+1], base64.StdEncoding.EncodeToString(sig)+"\n"...)
			write(t, dir, EvidenceIndexPath, []byte("3\n"))
			write(t, dir, EvidenceCheckpointPath(3), raw)
			return cp2
		}, "invalid signature for key w1.example/w"},
		{"cosignature's time edited", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			raw := cosign(t, cp1.Raw, w1)
			i := bytes.LastIndex(raw, []byte(" "))
			sig, _ := base64.StdEncoding.DecodeString(string(raw[i+1 : len(raw)-1]))
			sig[4+7]-- // one second earlier
			raw = append(raw[:i+1], base64.StdEncoding.EncodeToString(sig)+"\n"...)
			write(t, dir, EvidenceIndexPath, []byte("3\n"))
			write(t, dir, EvidenceCheckpointPath(3), raw)
			return cp2
		}, "invalid signature for key w1.example/w"},
		{"cosignature of another checkpoint moved here", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			other := cosign(t, cp2.Raw, w1)
			line := other[bytes.LastIndex(other[:len(other)-1], []byte("\n"))+1:]
			write(t, dir, EvidenceIndexPath, []byte("3\n"))
			write(t, dir, EvidenceCheckpointPath(3), append(append([]byte(nil), cp1.Raw...), line...))
			return cp2
		}, "invalid signature"},
		{"index lists an absent checkpoint", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			write(t, dir, EvidenceIndexPath, []byte("3\n"))
			return cp2
		}, "evidence/checkpoint/3: verification failed: listed in evidence/index but absent"},
		{"index with a leading zero", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			write(t, dir, EvidenceIndexPath, []byte("03\n"))
			return cp2
		}, "evidence/index: verification failed: line 1"},
		{"index not ascending", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			write(t, dir, EvidenceIndexPath, []byte("3\n3\n"))
			return cp2
		}, "strictly ascending"},
		{"index without final LF", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			write(t, dir, EvidenceIndexPath, []byte("3"))
			return cp2
		}, "evidence/index"},
		{"index of junk", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			write(t, dir, EvidenceIndexPath, []byte("\x00\xff\n"))
			return cp2
		}, "evidence/index"},
		{"checkpoint of junk", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			write(t, dir, EvidenceIndexPath, []byte("3\n"))
			write(t, dir, EvidenceCheckpointPath(3), []byte("\x00\xff—\n\n\n"))
			return cp2
		}, "evidence/checkpoint/3"},
		{"truncated tile", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			require.NoError(t, WriteEvidence(dir, cosign(t, cp1.Raw, w1), nil))
			tile := filepath.Join(dir, filepath.FromSlash(layout.TilePath(0, 0, 7)))
			raw, err := os.ReadFile(tile)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(tile, raw[:len(raw)-40], 0o644))
			return cp2
		}, "truncated"},
		{"missing tile", func(t *testing.T, dir string, cp1, cp2 *Checkpoint) *Checkpoint {
			require.NoError(t, WriteEvidence(dir, cosign(t, cp1.Raw, w1), nil))
			require.NoError(t, os.Remove(filepath.Join(dir, filepath.FromSlash(layout.TilePath(0, 0, 7)))))
			return cp2
		}, "no consistency proof from size 3 to 7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, _, cp1, cp2 := buildLog(t, 3, 4)
			latest := c.setup(t, dir, cp1, cp2)
			_, err := loadTL(t, dir, latest, trust)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrVerification), "%v", err)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), "evidence/")
			t.Log(err)
		})
	}
}

// TestLoadTimelineServerError: a server failing to serve a tile is an
// error, not a verification failure (the evidence is not shown false).
func TestLoadTimelineServerError(t *testing.T) {
	dir, _, cp1, cp2 := buildLog(t, 3, 4)
	w1 := newTestCosigner("w1.example/w", t0)
	require.NoError(t, WriteEvidence(dir, cosign(t, cp1.Raw, w1), nil))
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/tile/") {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	r, err := Open(srv.URL, srv.Client())
	require.NoError(t, err)
	_, err = LoadTimeline(context.Background(), r, cp2, pub(testKey("log")), Trust{Witnesses: []string{w1.vkey()}})
	require.Error(t, err)
	assert.False(t, errors.Is(err, ErrVerification), "%v", err)
	assert.Contains(t, err.Error(), "503")
}
