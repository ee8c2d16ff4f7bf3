package commitlog

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"filippo.io/torchwood"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/transparency-dev/tessera/api/layout"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// TestInteropTorchwood reads a fairhold log over HTTP with
// filippo.io/torchwood's tlog-tiles client, a second implementation that
// fairhold does not use to write or prove: it parses the checkpoint,
// reads entries from the entry bundles and checks each one's
// inclusion proof against the checkpoint's root, and checks the
// consistency of the first checkpoint with the last.
func TestInteropTorchwood(t *testing.T) {
	dir, entries, cp1, cp2 := buildLog(t, 20, 280)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	ctx := context.Background()

	vkey, err := VerifierKey(testOrigin, pub(testKey("log")))
	require.NoError(t, err)
	v, err := note.NewVerifier(vkey)
	require.NoError(t, err)
	tf, err := torchwood.NewTileFetcher(srv.URL)
	require.NoError(t, err)
	raw, err := tf.ReadEndpoint(ctx, "checkpoint")
	require.NoError(t, err)
	n, err := note.Open(raw, note.VerifierList(v))
	require.NoError(t, err)
	c, err := torchwood.ParseCheckpoint(n.Text)
	require.NoError(t, err)
	require.Equal(t, testOrigin, c.Origin)
	require.EqualValues(t, cp2.Size, c.N)
	require.Equal(t, cp2.Root, [32]byte(c.Hash))

	client, err := torchwood.NewClient(tf)
	require.NoError(t, err)
	for _, i := range []int64{0, 19, 20, 255, 256, 299} {
		e, proof, err := client.Entry(ctx, c.Tree, i)
		require.NoError(t, err, "index %d", i)
		assert.Equal(t, entries[i], e, "index %d", i)
		require.NoError(t, tlog.CheckRecord(proof, c.N, c.Hash, i, tlog.RecordHash(entries[i])))
	}
	// The iterator yields the full data tiles (it leaves a trailing
	// partial tile to a later call, by design), each checked against the root.
	var got int64
	for i, e := range client.Entries(ctx, c.Tree, 0) {
		require.Equal(t, got, i)
		require.Equal(t, entries[i], e, "index %d", i)
		got++
	}
	require.NoError(t, client.Err())
	require.EqualValues(t, 256, got)

	hr := torchwood.TileHashReaderWithContext(ctx, c.Tree, tf)
	tp, err := tlog.ProveTree(c.N, int64(cp1.Size), hr)
	require.NoError(t, err)
	require.NoError(t, tlog.CheckTree(tp, c.N, c.Hash, int64(cp1.Size), tlog.Hash(cp1.Root)))

	// An entry changed in its bundle: torchwood refuses it too.
	bundle := filepath.Join(dir, filepath.FromSlash(layout.EntriesPath(0, 0)))
	b, err := os.ReadFile(bundle)
	require.NoError(t, err)
	i := bytes.Index(b, entries[3])
	require.Positive(t, i)
	b[i+len(entries[3])-2] ^= 1
	require.NoError(t, os.WriteFile(bundle, b, 0o644))
	tf2, err := torchwood.NewTileFetcher(srv.URL)
	require.NoError(t, err)
	client2, err := torchwood.NewClient(tf2)
	require.NoError(t, err)
	_, _, err = client2.Entry(ctx, c.Tree, 3)
	assert.ErrorContains(t, err, "does not match")
}

// TestInteropTorchwoodCosignature checks cosignature/v1 three ways:
// torchwood's signer (what litewitness signs with) against the verifier
// fairhold uses (transparency-dev/formats), and the test's cosigner
// (written from the C2SP text) against torchwood's verifier.
func TestInteropTorchwoodCosignature(t *testing.T) {
	_, _, _, cp := buildLog(t, 2, 1)
	tc := newTestCosigner("w.example/torchwood", t0)
	ts, err := torchwood.NewCosignatureSigner(tc.name, tc.key)
	require.NoError(t, err)
	require.Equal(t, tc.vkey(), ts.Verifier().String())

	signed := cosign(t, cp.Raw, ts)
	cos, err := VerifyCosignatures(signed, []string{ts.Verifier().String()})
	require.NoError(t, err)
	require.Len(t, cos, 1)
	n, err := note.Open(signed, note.VerifierList(ts.Verifier()))
	require.NoError(t, err)
	sec, err := torchwood.CosignatureTimestamp(n.Sigs[0])
	require.NoError(t, err)
	assert.Equal(t, sec, cos[0].Time.Unix())

	n, err = note.Open(cosign(t, cp.Raw, tc), note.VerifierList(ts.Verifier()))
	require.NoError(t, err)
	sec, err = torchwood.CosignatureTimestamp(n.Sigs[0])
	require.NoError(t, err)
	assert.Equal(t, t0.Unix(), sec)
}
