package commitlog

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/transparency-dev/tessera/api/layout"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const testOrigin = "example.com/fairhold/test-log"

func testKey(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("fairhold commitlog test/" + label))
	return ed25519.NewKeyFromSeed(seed[:])
}

func testEntries(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		e := &Entry{Operator: "acme", Table: fmt.Sprintf("rng-%d", i), Scheme: SchemeFairholdV1, Commitment: hash(fmt.Sprint(i)), FirstNonce: uint64(i)}
		b, err := e.Marshal()
		if err != nil {
			panic(err)
		}
		out[i] = b
	}
	return out
}

// buildLog appends entries in two batches so that the log has two
// checkpoints; it returns the dir and the first checkpoint.
func buildLog(t *testing.T, n1, n2 int) (string, [][]byte, *Checkpoint, *Checkpoint) {
	t.Helper()
	dir := t.TempDir()
	entries := testEntries(n1 + n2)
	ctx := context.Background()
	r1, err := Append(ctx, dir, testOrigin, testKey("log"), entries[:n1])
	require.NoError(t, err)
	for i, idx := range r1.Indices {
		assert.Equal(t, uint64(i), idx)
	}
	r2, err := Append(ctx, dir, testOrigin, testKey("log"), entries[n1:])
	require.NoError(t, err)
	for i, idx := range r2.Indices {
		assert.Equal(t, uint64(n1+i), idx)
	}
	assert.Equal(t, uint64(n1+n2), r2.Checkpoint.Size)
	return dir, entries, r1.Checkpoint, r2.Checkpoint
}

func pub(k ed25519.PrivateKey) ed25519.PublicKey { return k.Public().(ed25519.PublicKey) }

func TestAppendProveVerify(t *testing.T) {
	dir, entries, cp1, cp2 := buildLog(t, 5, 300) // 305 entries: a full tile and a partial one
	ctx := context.Background()
	r, err := Open(dir, nil)
	require.NoError(t, err)
	cp, err := r.Checkpoint(ctx, "", pub(testKey("log")))
	require.NoError(t, err)
	assert.Equal(t, cp2.Size, cp.Size)
	assert.Equal(t, cp2.Root, cp.Root)
	assert.Equal(t, testOrigin, cp.Origin)

	for _, i := range []uint64{0, 4, 5, 255, 256, 304} {
		got, err := r.Entry(ctx, cp, i)
		require.NoError(t, err)
		assert.Equal(t, entries[i], got)
		require.NoError(t, r.VerifyEntry(ctx, cp, i, entries[i]), "index %d", i)
		// Another entry's bytes at this index do not verify.
		err = r.VerifyEntry(ctx, cp, i, entries[(i+1)%uint64(len(entries))])
		assert.True(t, errors.Is(err, ErrVerification), "%v", err)
	}
	p, err := r.ConsistencyProof(ctx, cp1.Size, cp)
	require.NoError(t, err)
	require.NoError(t, VerifyConsistency(cp1, cp, p))
	// A forged old root is not a prefix.
	bad := *cp1
	bad.Root[0] ^= 1
	assert.True(t, errors.Is(VerifyConsistency(&bad, cp, p), ErrVerification))
}

func TestHostileInput(t *testing.T) {
	dir, entries, cp1, _ := buildLog(t, 3, 4)
	ctx := context.Background()
	key := pub(testKey("log"))
	r, err := Open(dir, nil)
	require.NoError(t, err)
	cp, err := r.Checkpoint(ctx, testOrigin, key)
	require.NoError(t, err)

	// A checkpoint signed by another key, or for another origin.
	_, err = r.Checkpoint(ctx, testOrigin, pub(testKey("other")))
	assert.True(t, errors.Is(err, ErrVerification), "%v", err)
	_, err = r.Checkpoint(ctx, "example.com/another-log", key)
	assert.True(t, errors.Is(err, ErrVerification), "%v", err)
	// A forged checkpoint: the size changed under the signature.
	forged := strings.Replace(string(cp.Raw), "\n7\n", "\n8\n", 1)
	require.NotEqual(t, string(cp.Raw), forged)
	_, err = ParseCheckpoint([]byte(forged), testOrigin, key)
	assert.True(t, errors.Is(err, ErrVerification), "%v", err)
	for _, junk := range []string{"", "\n", "x\n1\n", strings.Repeat("\n", 100), "— x\n"} {
		_, err = ParseCheckpoint([]byte(junk), "", key)
		assert.Error(t, err)
	}

	// A proof for another size.
	p, err := r.InclusionProof(ctx, cp, 1)
	require.NoError(t, err)
	assert.True(t, errors.Is(VerifyInclusion(cp1, 1, entries[1], p), ErrVerification))
	assert.True(t, errors.Is(VerifyInclusion(cp, 9, entries[1], p), ErrVerification))
	assert.True(t, errors.Is(VerifyInclusion(cp, 1, entries[1], append(p, p[0])), ErrVerification))
	assert.True(t, errors.Is(VerifyInclusion(cp, 1, entries[1], [][]byte{{1, 2}}), ErrVerification))
	_, err = r.InclusionProof(ctx, cp, 7)
	assert.Error(t, err)
	_, err = r.Entry(ctx, cp, 7)
	assert.Error(t, err)

	// A truncated tile.
	tile := filepath.Join(dir, filepath.FromSlash(layout.TilePath(0, 0, 7)))
	raw, err := os.ReadFile(tile)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(tile, raw[:len(raw)-5], 0o644))
	r2, _ := Open(dir, nil)
	err = r2.VerifyEntry(ctx, cp, 2, entries[2])
	require.Error(t, err)
	assert.Contains(t, err.Error(), "truncated")
	// A tile with a changed hash: the proof does not verify.
	raw[40] ^= 1
	require.NoError(t, os.WriteFile(tile, raw, 0o644))
	r3, _ := Open(dir, nil)
	assert.True(t, errors.Is(r3.VerifyEntry(ctx, cp, 2, entries[2]), ErrVerification))

	// Appending with another key to an existing log is refused.
	_, err = Append(ctx, dir, testOrigin, testKey("other"), entries[:1])
	assert.Error(t, err)
	_, err = Append(ctx, dir, testOrigin, testKey("log"), [][]byte{[]byte("not an entry\n")})
	assert.Error(t, err)
}

// TestHTTPFetchesEachTileOnce serves a log over HTTP and counts requests.
func TestHTTPFetchesEachTileOnce(t *testing.T) {
	dir, entries, _, _ := buildLog(t, 10, 290)
	var mu sync.Mutex
	hits := map[string]int{}
	fs := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		hits[req.URL.Path]++
		mu.Unlock()
		fs.ServeHTTP(w, req)
	}))
	defer srv.Close()
	ctx := context.Background()
	r, err := Open(srv.URL+"/", srv.Client())
	require.NoError(t, err)
	cp, err := r.Checkpoint(ctx, testOrigin, pub(testKey("log")))
	require.NoError(t, err)
	for i := uint64(0); i < cp.Size; i += 17 {
		require.NoError(t, r.VerifyEntry(ctx, cp, i, entries[i]))
	}
	mu.Lock()
	defer mu.Unlock()
	for p, n := range hits {
		assert.Equal(t, 1, n, p)
	}
	assert.NotEmpty(t, hits)
	_, err = Open(srv.URL+"/missing/", srv.Client())
	require.NoError(t, err)
}

// tileReader serves golang.org/x/mod/sumdb/tlog's tiles (height 8) from a
// C2SP tlog-tiles directory: the same hashes, another path scheme.
type tileReader struct{ dir string }

func (tileReader) Height() int { return 8 }
func (r tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		p := uint8(0)
		if t.W < 256 {
			p = uint8(t.W)
		}
		b, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(layout.TilePath(uint64(t.L), uint64(t.N), p))))
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}
func (tileReader) SaveTiles([]tlog.Tile, [][]byte) {}

// TestInteropXMod verifies fairhold's checkpoint and inclusion proofs with
// golang.org/x/mod/sumdb/note and sumdb/tlog, an implementation fairhold
// does not use to write or prove.
func TestInteropXMod(t *testing.T) {
	dir, entries, cp1, _ := buildLog(t, 20, 280)
	k := testKey("log")
	vkey, err := VerifierKey(testOrigin, pub(k))
	require.NoError(t, err)
	v, err := note.NewVerifier(vkey)
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join(dir, "checkpoint"))
	require.NoError(t, err)
	n, err := note.Open(raw, note.VerifierList(v))
	require.NoError(t, err)
	require.Len(t, n.Sigs, 1)
	lines := strings.Split(n.Text, "\n")
	require.Equal(t, testOrigin, lines[0])
	// The body minus the origin line is the sumdb tree format.
	tree, err := tlog.ParseTree([]byte("go.sum database tree\n" + strings.Join(lines[1:], "\n")))
	require.NoError(t, err)
	require.EqualValues(t, 300, tree.N)

	hr := tlog.TileHashReader(tree, tileReader{dir})
	for _, i := range []int64{0, 1, 19, 20, 255, 256, 299} {
		p, err := tlog.ProveRecord(tree.N, i, hr)
		require.NoError(t, err, "index %d", i)
		require.NoError(t, tlog.CheckRecord(p, tree.N, tree.Hash, i, tlog.RecordHash(entries[i])), "index %d", i)
		// fairhold's own proof is the same list of hashes.
		r, _ := Open(dir, nil)
		cp, err := r.Checkpoint(context.Background(), testOrigin, pub(k))
		require.NoError(t, err)
		mine, err := r.InclusionProof(context.Background(), cp, uint64(i))
		require.NoError(t, err)
		require.Len(t, mine, len(p))
		for j := range p {
			assert.Equal(t, p[j][:], mine[j])
		}
	}
	tp, err := tlog.ProveTree(tree.N, int64(cp1.Size), hr)
	require.NoError(t, err)
	require.NoError(t, tlog.CheckTree(tp, tree.N, tree.Hash, int64(cp1.Size), tlog.Hash(cp1.Root)))
	// And x/mod's record hash is fairhold's leaf hash.
	assert.Equal(t, [32]byte(tlog.RecordHash(entries[3])), LeafHash(entries[3]))
}
