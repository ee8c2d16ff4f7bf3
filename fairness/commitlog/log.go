package commitlog

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/transparency-dev/formats/log"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/tessera"
	"github.com/transparency-dev/tessera/api/layout"
	"github.com/transparency-dev/tessera/client"
	"github.com/transparency-dev/tessera/storage/posix"
	"golang.org/x/mod/sumdb/note"
)

// ErrVerification is matched (errors.Is) by every error that means the log
// does not prove what was asked: a checkpoint whose signature does not
// verify, an entry not at the index, a proof that does not verify, two
// inconsistent checkpoints. Other errors mean the log could not be read.
var ErrVerification = errors.New("verification failed")

func verifyErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrVerification, fmt.Sprintf(format, a...))
}

// checkOrigin enforces the origin rules of docs/commitment-log.md section
// 4: 1..255 bytes of printable ASCII without space or '+'.
func checkOrigin(origin string) error {
	if origin == "" || len(origin) > 255 {
		return fmt.Errorf("log origin %q: want 1..255 bytes", trunc(origin))
	}
	for i := 0; i < len(origin); i++ {
		if c := origin[i]; c <= 0x20 || c >= 0x7f || c == '+' {
			return fmt.Errorf("log origin %q: byte %d is %q; want printable ASCII without space or '+'", trunc(origin), i+1, c)
		}
	}
	return nil
}

// NewVerifier returns the note verifier of a log's Ed25519 public key: the
// key name is the log's origin (C2SP tlog-checkpoint).
func NewVerifier(origin string, pub ed25519.PublicKey) (note.Verifier, error) {
	vkey, err := VerifierKey(origin, pub)
	if err != nil {
		return nil, err
	}
	return note.NewVerifier(vkey)
}

// VerifierKey returns the C2SP signed-note verifier key string
// "origin+keyhash+base64(0x01||pub)" of a log's key.
func VerifierKey(origin string, pub ed25519.PublicKey) (string, error) {
	if err := checkOrigin(origin); err != nil {
		return "", err
	}
	if len(pub) != ed25519.PublicKeySize {
		return "", fmt.Errorf("an Ed25519 public key of %d bytes, want %d", len(pub), ed25519.PublicKeySize)
	}
	return note.NewEd25519VerifierKey(origin, pub)
}

// signer is a note.Signer over an Ed25519 private key; its name and key
// hash are those of the x/mod verifier of the same key.
type signer struct {
	name string
	hash uint32
	key  ed25519.PrivateKey
}

func (s *signer) Name() string                    { return s.name }
func (s *signer) KeyHash() uint32                 { return s.hash }
func (s *signer) Sign(msg []byte) ([]byte, error) { return ed25519.Sign(s.key, msg), nil }

// NewSigner returns the checkpoint signer of a log: origin names the log
// and the key (docs/commitment-log.md section 4).
func NewSigner(origin string, key ed25519.PrivateKey) (note.Signer, error) {
	if len(key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("an Ed25519 private key of %d bytes, want %d", len(key), ed25519.PrivateKeySize)
	}
	v, err := NewVerifier(origin, key.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	return &signer{name: origin, hash: v.KeyHash(), key: key}, nil
}

// Checkpoint is a verified checkpoint.
type Checkpoint struct {
	Origin string
	Size   uint64
	Root   [32]byte
	Raw    []byte // the signed note as read
}

// ParseCheckpoint verifies a checkpoint's signature with pub and parses
// it. origin "" takes the origin from the checkpoint's first line (the
// signature is still checked under that name); otherwise it must match.
// Every failure matches [ErrVerification].
func ParseCheckpoint(raw []byte, origin string, pub ed25519.PublicKey) (*Checkpoint, error) {
	if origin == "" {
		first, _, _ := bytes.Cut(raw, []byte("\n"))
		origin = string(first)
	}
	v, err := NewVerifier(origin, pub)
	if err != nil {
		return nil, verifyErr("checkpoint: %v", err)
	}
	cp, _, _, err := log.ParseCheckpoint(raw, origin, v)
	if err != nil {
		return nil, verifyErr("checkpoint of log %q with the key given: %v", trunc(origin), err)
	}
	if len(cp.Hash) != 32 {
		return nil, verifyErr("checkpoint root hash of %d bytes, want 32", len(cp.Hash))
	}
	c := &Checkpoint{Origin: cp.Origin, Size: cp.Size, Raw: raw}
	copy(c.Root[:], cp.Hash)
	return c, nil
}

// AppendResult is what [Append] returns.
type AppendResult struct {
	Indices    []uint64    // each entry's index, in input order
	Checkpoint *Checkpoint // a published checkpoint covering every entry
}

// Append adds canonical entries to the log in dir (created when absent)
// with tessera's POSIX driver, waits until a checkpoint signed by key
// covers them all, and returns their indices. An existing log must have
// been signed under the same origin and key. Each entry must be the
// canonical encoding of an [Entry].
func Append(ctx context.Context, dir, origin string, key ed25519.PrivateKey, entries [][]byte) (*AppendResult, error) {
	if len(entries) == 0 {
		return nil, errors.New("no entries to append")
	}
	for i, e := range entries {
		if _, err := Unmarshal(e); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
	}
	s, err := NewSigner(origin, key)
	if err != nil {
		return nil, err
	}
	pub := key.Public().(ed25519.PublicKey)
	if raw, err := os.ReadFile(filepath.Join(dir, layout.CheckpointPath)); err == nil {
		if _, err := ParseCheckpoint(raw, origin, pub); err != nil {
			return nil, fmt.Errorf("%s: the log's checkpoint is not signed by this key as %q: %w", filepath.Join(dir, layout.CheckpointPath), origin, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	driver, err := posix.New(ctx, posix.Config{Path: dir})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	opts := tessera.NewAppendOptions().
		WithCheckpointSigner(s).
		WithCheckpointInterval(100*time.Millisecond).
		WithBatching(uint(min(len(entries), 256)), 20*time.Millisecond).
		WithGarbageCollectionInterval(0)
	app, shutdown, reader, err := tessera.NewAppender(ctx, driver, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	futures := make([]tessera.IndexFuture, len(entries))
	for i, e := range entries {
		futures[i] = app.Add(ctx, tessera.NewEntry(e))
	}
	awaiter := tessera.NewPublicationAwaiter(ctx, reader.ReadCheckpoint, 50*time.Millisecond)
	res := &AppendResult{}
	var last []byte
	for i, f := range futures {
		idx, cp, err := awaiter.Await(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
		res.Indices = append(res.Indices, idx.Index)
		last = cp
	}
	if err := shutdown(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if res.Checkpoint, err = ParseCheckpoint(last, origin, pub); err != nil {
		return nil, err
	}
	return res, nil
}

// Size limits of what a [Reader] reads.
const (
	maxCheckpoint = 64 << 10
	maxTile       = layout.TileWidth * 32
	maxBundle     = layout.EntryBundleWidth * (2 + 0xffff)
)

// Reader reads a log's checkpoint, tiles and entry bundles from a
// directory or an http(s) base URL, fetching each resource at most once.
type Reader struct {
	loc    string
	base   *url.URL // nil for a directory
	client *http.Client
	cache  map[string][]byte
}

// Open returns a reader of the log at loc: a directory, or a base URL
// beginning http:// or https://. c nil uses a client with a 30 s timeout.
func Open(loc string, c *http.Client) (*Reader, error) {
	r := &Reader{loc: loc, client: c, cache: map[string][]byte{}}
	if strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://") {
		u, err := url.Parse(loc)
		if err != nil {
			return nil, fmt.Errorf("log URL %q: %v", loc, err)
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		r.base = u
		if r.client == nil {
			r.client = &http.Client{Timeout: 30 * time.Second}
		}
		return r, nil
	}
	st, err := os.Stat(loc)
	if err != nil {
		return nil, fmt.Errorf("log directory: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("log directory %s: not a directory", loc)
	}
	return r, nil
}

// Location returns the directory or URL the reader reads.
func (r *Reader) Location() string { return r.loc }

// get reads one resource (a path of the tlog-tiles layout) at most once.
func (r *Reader) get(ctx context.Context, p string, limit int) ([]byte, error) {
	if b, ok := r.cache[p]; ok {
		return b, nil
	}
	var rc io.ReadCloser
	var name string
	if r.base == nil {
		name = filepath.Join(r.loc, filepath.FromSlash(p))
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		rc = f
	} else {
		u := r.base.ResolveReference(&url.URL{Path: p})
		name = u.String()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, name, nil)
		if err != nil {
			return nil, err
		}
		resp, err := r.client.Do(req)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusOK:
		case http.StatusNotFound:
			resp.Body.Close()
			return nil, fmt.Errorf("%s: %w", name, fs.ErrNotExist)
		default:
			resp.Body.Close()
			return nil, fmt.Errorf("%s: HTTP status %s", name, resp.Status)
		}
		rc = resp.Body
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(b) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes", name, limit)
	}
	r.cache[p] = b
	return b, nil
}

// partialOrFull reads a partial resource, or the full one when the
// partial one no longer exists (tlog-tiles: partial tiles may be deleted
// once full).
func (r *Reader) partialOrFull(ctx context.Context, pathOf func(uint8) string, p uint8, limit int) ([]byte, error) {
	b, err := r.get(ctx, pathOf(p), limit)
	if p != 0 && errors.Is(err, fs.ErrNotExist) {
		return r.get(ctx, pathOf(0), limit)
	}
	return b, err
}

// errTileTruncated is wrapped by the error of a tile shorter than the
// hashes it must hold.
var errTileTruncated = errors.New("truncated or corrupt")

// ReadTile reads a hash tile (client.TileFetcherFunc).
func (r *Reader) ReadTile(ctx context.Context, level, index uint64, p uint8) ([]byte, error) {
	b, err := r.partialOrFull(ctx, func(p uint8) string { return layout.TilePath(level, index, p) }, p, maxTile)
	if err != nil {
		return nil, fmt.Errorf("tile level %d index %d: %w", level, index, err)
	}
	want := 32 * layout.TileWidth
	if p != 0 {
		want = 32 * int(p)
	}
	// A partial request may be served by the full tile, which is longer.
	if len(b) < want || len(b)%32 != 0 {
		return nil, fmt.Errorf("tile level %d index %d (%s): %d bytes, want %d (%d hashes): %w", level, index, layout.TilePath(level, index, p), len(b), want, want/32, errTileTruncated)
	}
	return b, nil
}

// ReadEntryBundle reads an entry bundle (client.EntryBundleFetcherFunc).
func (r *Reader) ReadEntryBundle(ctx context.Context, index uint64, p uint8) ([]byte, error) {
	b, err := r.partialOrFull(ctx, func(p uint8) string { return layout.EntriesPath(index, p) }, p, maxBundle)
	if err != nil {
		return nil, fmt.Errorf("entry bundle %d: %w", index, err)
	}
	return b, nil
}

// Checkpoint reads the log's checkpoint and verifies it ([ParseCheckpoint]).
func (r *Reader) Checkpoint(ctx context.Context, origin string, pub ed25519.PublicKey) (*Checkpoint, error) {
	raw, err := r.get(ctx, layout.CheckpointPath, maxCheckpoint)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	return ParseCheckpoint(raw, origin, pub)
}

// Entry returns the bytes of entry index of the tree of cp.
func (r *Reader) Entry(ctx context.Context, cp *Checkpoint, index uint64) ([]byte, error) {
	if index >= cp.Size {
		return nil, fmt.Errorf("index %d: the checkpoint's tree has %d entries (0..%d)", index, cp.Size, int64(cp.Size)-1)
	}
	b, err := client.GetEntryBundle(ctx, r.ReadEntryBundle, index/layout.EntryBundleWidth, cp.Size)
	if err != nil {
		return nil, err
	}
	i := index % layout.EntryBundleWidth
	if uint64(len(b.Entries)) <= i {
		return nil, fmt.Errorf("entry bundle %d holds %d entries, want at least %d: truncated", index/layout.EntryBundleWidth, len(b.Entries), i+1)
	}
	return b.Entries[i], nil
}

// InclusionProof builds the inclusion proof of entry index in the tree of
// cp from the tiles.
func (r *Reader) InclusionProof(ctx context.Context, cp *Checkpoint, index uint64) ([][]byte, error) {
	if index >= cp.Size {
		return nil, fmt.Errorf("index %d: the checkpoint's tree has %d entries", index, cp.Size)
	}
	pb, err := client.NewProofBuilder(ctx, cp.Size, r.ReadTile)
	if err != nil {
		return nil, err
	}
	return pb.InclusionProof(ctx, index)
}

// ConsistencyProof builds the proof that the tree of size oldSize is a
// prefix of the tree of cp.
func (r *Reader) ConsistencyProof(ctx context.Context, oldSize uint64, cp *Checkpoint) ([][]byte, error) {
	if oldSize > cp.Size {
		return nil, verifyErr("the old tree has %d entries, more than the new one's %d", oldSize, cp.Size)
	}
	pb, err := client.NewProofBuilder(ctx, cp.Size, r.ReadTile)
	if err != nil {
		return nil, err
	}
	return pb.ConsistencyProof(ctx, oldSize, cp.Size)
}

// VerifyInclusion checks that entry is leaf index of the tree of cp with
// the given proof. Failures match [ErrVerification].
func VerifyInclusion(cp *Checkpoint, index uint64, entry []byte, p [][]byte) error {
	if index >= cp.Size {
		return verifyErr("index %d is not in the checkpoint's tree of %d entries", index, cp.Size)
	}
	for i, h := range p {
		if len(h) != 32 {
			return verifyErr("inclusion proof hash %d has %d bytes, want 32", i+1, len(h))
		}
	}
	leaf := LeafHash(entry)
	if err := proof.VerifyInclusion(rfc6962.DefaultHasher, index, cp.Size, leaf[:], p, cp.Root[:]); err != nil {
		return verifyErr("entry %d (leaf hash %x) is not in the tree of size %d with root %x: %s", index, leaf, cp.Size, cp.Root, proofProblem(err))
	}
	return nil
}

// VerifyConsistency checks that the tree of old is a prefix of the tree of
// cp with the given proof. Failures match [ErrVerification].
func VerifyConsistency(old, cp *Checkpoint, p [][]byte) error {
	if old.Origin != cp.Origin {
		return verifyErr("checkpoints of two logs, %q and %q", old.Origin, cp.Origin)
	}
	if old.Size > cp.Size {
		return verifyErr("the old checkpoint has %d entries, more than the new one's %d", old.Size, cp.Size)
	}
	for i, h := range p {
		if len(h) != 32 {
			return verifyErr("consistency proof hash %d has %d bytes, want 32", i+1, len(h))
		}
	}
	if err := proof.VerifyConsistency(rfc6962.DefaultHasher, old.Size, cp.Size, p, old.Root[:], cp.Root[:]); err != nil {
		return verifyErr("the tree of size %d (root %x) is not a prefix of the tree of size %d (root %x): %s", old.Size, old.Root, cp.Size, cp.Root, proofProblem(err))
	}
	return nil
}

// VerifyEntry checks from the tiles alone that entry is entry index of the
// log at cp: it builds the inclusion proof from the tiles and verifies it
// against the checkpoint's root.
func (r *Reader) VerifyEntry(ctx context.Context, cp *Checkpoint, index uint64, entry []byte) error {
	if index >= cp.Size {
		return verifyErr("index %d is not in the checkpoint's tree of %d entries", index, cp.Size)
	}
	p, err := r.InclusionProof(ctx, cp, index)
	if err != nil {
		return err
	}
	return VerifyInclusion(cp, index, entry, p)
}

// proofProblem words a merkle verification error, in hex.
func proofProblem(err error) string {
	var rm proof.RootMismatchError
	if errors.As(err, &rm) {
		return fmt.Sprintf("the proof leads to root %x", rm.CalculatedRoot)
	}
	return err.Error()
}
