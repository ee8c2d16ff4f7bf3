// Package blobsrc reads datasets from object storage through
// gocloud.dev/blob: s3:// (AWS S3 and S3-compatible servers), gs://
// (Google Cloud Storage) and azblob:// (Azure Blob Storage).
//
// A dataset is named by a URL, scheme://BUCKET/PREFIX, optionally with the
// bucket's options as a query (s3://logs/2026-11?endpoint=http://host:9000&use_path_style=true&region=us-east-1);
// credentials come from the standard environment of each cloud's SDK
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL,
// AWS_PROFILE...; GOOGLE_APPLICATION_CREDENTIALS; AZURE_STORAGE_ACCOUNT,
// AZURE_STORAGE_KEY...). The query is not part of the files' names: a
// finding names s3://logs/2026-11/rounds/part-00000.parquet.
//
// A file is read by ranged requests (blob.Bucket.NewRangeReader), never
// downloaded whole to be read: a Parquet footer costs one request of the
// file's last [MinFetch] bytes, a row group the bytes of its column
// chunks. The ranges fetched are kept while the file is open (at most
// [CacheBytes] per file), so the small reads of a Parquet reader (page
// headers, then their pages) fetch each byte once; what was fetched when
// the replay opened the dataset (footers, first pages of the child
// tables' row groups) is kept for the file's second opening, when its row
// groups are read (at most [KeepBytes] in all). Sequential reads (a JSON Lines
// file, the SHA-256 of a part checked against its manifest) stream the
// object in one request. Ranged reads that go on forwards read ahead,
// twice as far each time, up to [MaxFetch]. [Source.Stats] counts the requests and bytes.
package blobsrc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/fairhold/fairhold/replay/internal/regularfile"
	"github.com/fairhold/fairhold/replay/source"
)

// Schemes are the URL schemes of object stores.
var Schemes = []string{"s3", "gs", "azblob"}

// MinFetch is the least number of bytes a ranged read fetches: a smaller
// read (a page header, a footer's length) fetches the MinFetch bytes from
// it on (the last MinFetch of the file, near its end).
var MinFetch int64 = 16 << 10

// MaxFetch is the most bytes a read ahead fetches: reads that go on from
// where the last fetch ended double the bytes fetched from MinFetch up to
// MaxFetch (a row group's column chunks, read in order, cost a few
// requests rather than two a page).
var MaxFetch int64 = 4 << 20

// CacheBytes is the most bytes of one open file kept in memory.
var CacheBytes int64 = 16 << 20

// KeepBytes is the most bytes kept of the files closed after their first
// opening (their footers, and the first pages of the child tables' row
// groups that the replay reads when it opens a dataset), for their second
// opening, when the replay reads them.
var KeepBytes int64 = 32 << 20

// IsURL reports whether p names an object in an object store
// (scheme://...), as opposed to a local path: [source.IsURL].
func IsURL(p string) bool { return source.IsURL(p) }

// Opener opens the bucket of a URL such as s3://bucket?region=x;
// blob.OpenBucket by default.
type Opener func(ctx context.Context, urlstr string) (*blob.Bucket, error)

// Stats counts what a Source fetched.
type Stats struct {
	Requests    int64 // ranged and sequential reads (GET)
	Bytes       int64 // bytes fetched by them
	RangedBytes int64 // of which by ranged reads (ReadAt)
	Metadata    int64 // attribute and list requests (HEAD, LIST)
}

// Source is a source.Source that reads URLs from object storage and
// every other path from the local file system ([source.Local]).
type Source struct {
	ctx  context.Context
	open Opener

	mu      sync.Mutex
	buckets map[string]*bucket // by root (scheme://bucket)
	kept    map[string]*kept   // by path
	keptN   int64              // bytes in kept
	closed  map[string]bool    // files closed once

	requests, bytes, ranged, meta atomic.Int64
}

type bucket struct {
	b     *blob.Bucket
	query string
}

// kept is what was fetched of a file closed after its first opening.
type kept struct {
	etag string
	size int64
	ext  []extent
	n    int64
}

var _ source.Source = (*Source)(nil)

// New returns a Source whose buckets are opened by open (nil:
// blob.OpenBucket) when [Source.Add] names them; a URL of another bucket
// is an error.
func New(ctx context.Context, open Opener) *Source {
	if open == nil {
		open = blob.OpenBucket
	}
	return &Source{ctx: ctx, open: open, buckets: map[string]*bucket{}, kept: map[string]*kept{}, closed: map[string]bool{}}
}

// Resolve returns the source of paths and the paths to give it: the
// local file system and paths unchanged when none is a URL; otherwise a
// Source that has opened the bucket of every URL, and the URLs without
// their query. A URL of an unknown scheme, or one bucket given with two
// queries, is an error.
func Resolve(ctx context.Context, paths []string, open Opener) (source.Source, []string, error) {
	if !slices.ContainsFunc(paths, IsURL) {
		return source.Local, paths, nil
	}
	s := New(ctx, open)
	out := make([]string, len(paths))
	for i, p := range paths {
		if !IsURL(p) {
			out[i] = p
			continue
		}
		name, err := s.Add(p)
		if err != nil {
			s.Close()
			return nil, nil, err
		}
		out[i] = name
	}
	return s, out, nil
}

// Add opens the bucket of the URL u (with its query, if any) and returns
// u's name in the Source: scheme://bucket/prefix, without the query.
func (s *Source) Add(u string) (string, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("%s: not a URL: %v", u, err)
	}
	if !slices.Contains(Schemes, pu.Scheme) {
		return "", fmt.Errorf("%s: unknown scheme %q: want one of %s", u, pu.Scheme, strings.Join(Schemes, "://, ")+"://")
	}
	if pu.Host == "" {
		return "", fmt.Errorf("%s: no bucket name", u)
	}
	root := pu.Scheme + "://" + pu.Host
	name := source.Clean(root + "/" + pu.Path)
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.buckets[root]; ok {
		if b.query != pu.RawQuery && pu.RawQuery != "" {
			return "", fmt.Errorf("%s: bucket %s given twice with other options (%q, %q)", u, root, b.query, pu.RawQuery)
		}
		return name, nil
	}
	bu := root
	if pu.RawQuery != "" {
		bu += "?" + pu.RawQuery
	}
	b, err := s.open(s.ctx, bu)
	if err != nil {
		return "", fmt.Errorf("%s: cannot open the bucket: %w", root, err)
	}
	s.buckets[root] = &bucket{b: b, query: pu.RawQuery}
	return name, nil
}

// Close closes the buckets.
func (s *Source) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, b := range s.buckets {
		errs = append(errs, b.b.Close())
	}
	s.buckets = map[string]*bucket{}
	return errors.Join(errs...)
}

// Stats returns what the Source fetched so far.
func (s *Source) Stats() Stats {
	return Stats{Requests: s.requests.Load(), Bytes: s.bytes.Load(), RangedBytes: s.ranged.Load(), Metadata: s.meta.Load()}
}

// object returns the bucket and the object key of the URL path p.
func (s *Source) object(p string) (*blob.Bucket, string, error) {
	root, key, _ := source.SplitURL(p)
	s.mu.Lock()
	b := s.buckets[root]
	s.mu.Unlock()
	if b == nil {
		return nil, "", &fs.PathError{Op: "open", Path: p, Err: errors.New("bucket not opened (a path outside the URLs given)")}
	}
	return b.b, strings.TrimPrefix(key, "/"), nil
}

// pathError names the object of a failed request; a missing object
// matches fs.ErrNotExist, a refused one fs.ErrPermission.
func pathError(op, p string, err error) error {
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		return &fs.PathError{Op: op, Path: p, Err: fs.ErrNotExist}
	case gcerrors.PermissionDenied:
		return &fs.PathError{Op: op, Path: p, Err: fmt.Errorf("%w: %v", fs.ErrPermission, err)}
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}

type info struct {
	name string
	size int64
	mod  time.Time
	dir  bool
	etag string
}

func (i *info) Name() string { return i.name }
func (i *info) Size() int64  { return i.size }
func (i *info) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i *info) ModTime() time.Time { return i.mod }
func (i *info) IsDir() bool        { return i.dir }
func (i *info) Sys() any           { return nil }

// Stat describes an object, or a "directory": a prefix that objects'
// keys start with, followed by a slash.
func (s *Source) Stat(p string) (fs.FileInfo, error) {
	if !IsURL(p) {
		return source.Local.Stat(p)
	}
	b, key, err := s.object(p)
	if err != nil {
		return nil, err
	}
	if key != "" {
		s.meta.Add(1)
		a, err := b.Attributes(s.ctx, key)
		if err == nil {
			return &info{name: path.Base(key), size: a.Size, mod: a.ModTime, etag: a.ETag}, nil
		}
		if gcerrors.Code(err) != gcerrors.NotFound {
			return nil, pathError("stat", p, err)
		}
	}
	prefix := ""
	if key != "" {
		prefix = key + "/"
	}
	s.meta.Add(1)
	objs, _, err := b.ListPage(s.ctx, blob.FirstPageToken, 1, &blob.ListOptions{Prefix: prefix, Delimiter: "/"})
	if err != nil {
		return nil, pathError("stat", p, err)
	}
	if len(objs) == 0 && key != "" {
		return nil, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
	}
	return &info{name: path.Base("/" + key), dir: true}, nil
}

// Lstat is Stat: an object store has no symbolic links.
func (s *Source) Lstat(p string) (fs.FileInfo, error) {
	if !IsURL(p) {
		return source.Local.Lstat(p)
	}
	return s.Stat(p)
}

// Check reports whether p is an object.
func (s *Source) Check(p string) (fs.FileInfo, error) {
	if !IsURL(p) {
		return source.Local.Check(p)
	}
	st, err := s.Stat(p)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, &regularfile.Error{Path: p, Reason: "not a regular file (directory)"}
	}
	return st, nil
}

type dirEntry struct{ info }

func (e *dirEntry) Type() fs.FileMode          { return e.Mode().Type() }
func (e *dirEntry) Info() (fs.FileInfo, error) { return &e.info, nil }

// ReadDir lists the objects and prefixes under p/, sorted by name.
func (s *Source) ReadDir(p string) ([]fs.DirEntry, error) {
	if !IsURL(p) {
		return source.Local.ReadDir(p)
	}
	b, key, err := s.object(p)
	if err != nil {
		return nil, err
	}
	prefix := ""
	if key != "" {
		prefix = key + "/"
	}
	var out []fs.DirEntry
	it := b.List(&blob.ListOptions{Prefix: prefix, Delimiter: "/"})
	s.meta.Add(1)
	for {
		o, err := it.Next(s.ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, pathError("readdir", p, err)
		}
		n := strings.TrimSuffix(strings.TrimPrefix(o.Key, prefix), "/")
		if n == "" {
			continue // the "directory" object itself
		}
		out = append(out, &dirEntry{info{name: n, size: o.Size, mod: o.ModTime, dir: o.IsDir}})
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// Open opens the object p.
func (s *Source) Open(p string) (source.File, error) {
	if !IsURL(p) {
		return source.Local.Open(p)
	}
	b, key, err := s.object(p)
	if err != nil {
		return nil, err
	}
	if key == "" {
		return nil, &regularfile.Error{Path: p, Reason: "not a regular file (directory)"}
	}
	s.meta.Add(1)
	a, err := b.Attributes(s.ctx, key)
	if err != nil {
		if gcerrors.Code(err) == gcerrors.NotFound {
			if st, serr := s.Stat(p); serr == nil && st.IsDir() {
				return nil, &regularfile.Error{Path: p, Reason: "not a regular file (directory)"}
			}
		}
		return nil, pathError("open", p, err)
	}
	o := &object{s: s, b: b, name: p, key: key, info: info{name: path.Base(key), size: a.Size, mod: a.ModTime, etag: a.ETag}}
	return o, nil
}

// take gives o what was kept of its file, at its first ranged read (a
// sequential read, such as the hashing of the file, takes nothing). o.mu
// is held.
func (s *Source) take(o *object) {
	o.took = true
	s.mu.Lock()
	defer s.mu.Unlock()
	if k := s.kept[o.name]; k != nil {
		delete(s.kept, o.name)
		s.keptN -= k.n
		if k.etag == o.etag && k.size == o.size && len(o.ext) == 0 {
			o.ext, o.cached = k.ext, k.n
		}
	}
}

// keep keeps what was fetched of a file closed after its first opening,
// while the kept bytes fit in KeepBytes.
func (s *Source) keep(o *object) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed[o.name] || len(o.ext) == 0 {
		return
	}
	s.closed[o.name] = true
	if s.keptN+o.cached > KeepBytes {
		return
	}
	s.kept[o.name] = &kept{etag: o.etag, size: o.size, ext: o.ext, n: o.cached}
	s.keptN += o.cached
}

// extent is bytes of an object from off.
type extent struct {
	off  int64
	data []byte
	used uint64
}

func (e *extent) end() int64 { return e.off + int64(len(e.data)) }

// object is an open object.
type object struct {
	s    *Source
	b    *blob.Bucket
	name string // as the Source names it
	key  string
	info

	mu       sync.Mutex
	ext      []extent // sorted by off, not overlapping
	inflight []*flight
	cached   int64
	took     bool  // what was kept of the file is taken
	lastEnd  int64 // where the last fetch ended
	win      int64 // bytes the last fetch read ahead
	tick     uint64

	r   *blob.Reader // sequential reads
	pos int64
}

func (o *object) Stat() (fs.FileInfo, error) { return &o.info, nil }

// Read reads the object from its start to its end in one request.
func (o *object) Read(p []byte) (int, error) {
	if o.r == nil {
		if o.pos >= o.size {
			return 0, io.EOF
		}
		o.s.requests.Add(1)
		r, err := o.b.NewRangeReader(o.s.ctx, o.key, o.pos, -1, nil)
		if err != nil {
			return 0, pathError("read", o.name, err)
		}
		o.r = r
	}
	n, err := o.r.Read(p)
	o.pos += int64(n)
	o.s.bytes.Add(int64(n))
	if err != nil && !errors.Is(err, io.EOF) {
		return n, pathError("read", o.name, err)
	}
	return n, err
}

// Close ends the reads, keeping what was fetched for the file's second
// opening.
func (o *object) Close() error {
	o.mu.Lock()
	o.s.keep(o)
	o.ext, o.cached = nil, 0
	o.mu.Unlock()
	if o.r != nil {
		err := o.r.Close()
		o.r = nil
		return err
	}
	return nil
}

// ReadAt reads len(p) bytes at off, from the extents fetched or by
// fetching the missing ones.
func (o *object) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: o.name, Err: errors.New("negative offset")}
	}
	n := 0
	for n < len(p) {
		pos := off + int64(n)
		if pos >= o.size {
			return n, io.EOF
		}
		o.mu.Lock()
		if !o.took {
			o.s.take(o)
		}
		if i := o.find(pos); i >= 0 {
			e := &o.ext[i]
			o.tick++
			e.used = o.tick
			n += copy(p[n:], e.data[pos-e.off:])
			o.mu.Unlock()
			continue
		}
		if f := o.pending(pos); f != nil {
			// Another read is fetching these bytes: wait for them.
			o.mu.Unlock()
			<-f.done
			if f.err != nil {
				return n, f.err
			}
			continue
		}
		f := o.window(pos, int64(len(p)-n))
		o.mu.Unlock()
		data := make([]byte, f.end-f.off)
		f.err = o.fetch(data, f.off)
		o.mu.Lock()
		if f.err == nil {
			n += copy(p[n:], data[pos-f.off:])
			o.insert(extent{off: f.off, data: data})
		}
		o.inflight = slices.DeleteFunc(o.inflight, func(x *flight) bool { return x == f })
		o.mu.Unlock()
		close(f.done)
		if f.err != nil {
			return n, f.err
		}
	}
	return n, nil
}

// flight is a range being fetched.
type flight struct {
	off, end int64
	done     chan struct{}
	err      error
}

// pending returns the fetch in flight of byte pos, if any.
func (o *object) pending(pos int64) *flight {
	for _, f := range o.inflight {
		if f.off <= pos && pos < f.end {
			return f
		}
	}
	return nil
}

// find returns the index of the extent holding byte pos, or -1.
func (o *object) find(pos int64) int {
	i, _ := slices.BinarySearchFunc(o.ext, pos, func(e extent, pos int64) int {
		switch {
		case e.end() <= pos:
			return -1
		case e.off > pos:
			return 1
		}
		return 0
	})
	if i < len(o.ext) && o.ext[i].off <= pos && pos < o.ext[i].end() {
		return i
	}
	return -1
}

// window registers the fetch of a read of n bytes at pos, which no
// extent holds nor fetch in flight: at least MinFetch bytes, the last
// MinFetch near the end, and never bytes held or in flight. o.mu is
// held.
func (o *object) window(pos, n int64) *flight {
	prevEnd, nextOff := int64(0), o.size
	edge := func(off, end int64) {
		if end <= pos {
			prevEnd = max(prevEnd, end)
		} else if off > pos {
			nextOff = min(nextOff, off)
		}
	}
	for _, e := range o.ext {
		edge(e.off, e.end())
	}
	for _, f := range o.inflight {
		edge(f.off, f.end)
	}
	// Reads going on forwards from the last fetch (past bytes held) read
	// ahead, twice as far each time.
	if o.win > 0 && pos >= o.lastEnd && pos-o.lastEnd <= MinFetch*16 {
		o.win = max(MinFetch, min(2*o.win, MaxFetch, CacheBytes/4))
	} else {
		o.win = MinFetch
	}
	start, end := pos, min(pos+max(n, o.win), nextOff)
	if end == o.size && end-start < MinFetch {
		start = max(prevEnd, o.size-MinFetch, 0)
	}
	o.lastEnd = end
	f := &flight{off: start, end: end, done: make(chan struct{})}
	o.inflight = append(o.inflight, f)
	return f
}

// fetch reads len(p) bytes at off in one ranged request.
func (o *object) fetch(p []byte, off int64) error {
	o.s.requests.Add(1)
	r, err := o.b.NewRangeReader(o.s.ctx, o.key, off, int64(len(p)), nil)
	if err != nil {
		return pathError("read", o.name, err)
	}
	defer r.Close()
	k, err := io.ReadFull(r, p)
	o.s.bytes.Add(int64(k))
	o.s.ranged.Add(int64(k))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			err = fmt.Errorf("the object ends at byte %d, but held %d bytes when it was opened (truncated or replaced)", off+int64(k), o.size)
		}
		return pathError("read", o.name, err)
	}
	return nil
}

// insert adds an extent fetched, trimmed to the bytes no other extent
// holds, and evicts the least recently used extents past CacheBytes. o.mu
// is held.
func (o *object) insert(e extent) {
	for _, x := range o.ext {
		if x.off <= e.off && e.off < x.end() {
			cut := x.end() - e.off
			if cut >= int64(len(e.data)) {
				return
			}
			e.off, e.data = x.end(), e.data[cut:]
		}
		if e.off < x.off && x.off < e.end() {
			e.data = e.data[:x.off-e.off]
		}
	}
	o.tick++
	e.used = o.tick
	i, _ := slices.BinarySearchFunc(o.ext, e.off, func(x extent, off int64) int {
		if x.off < off {
			return -1
		}
		return 1
	})
	o.ext = slices.Insert(o.ext, i, e)
	o.cached += int64(len(e.data))
	for o.cached > CacheBytes && len(o.ext) > 1 {
		lru := -1
		for j := range o.ext {
			if o.ext[j].used != e.used && (lru < 0 || o.ext[j].used < o.ext[lru].used) {
				lru = j
			}
		}
		o.cached -= int64(len(o.ext[lru].data))
		o.ext = slices.Delete(o.ext, lru, lru+1)
	}
}
