package blobsrc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"github.com/fairhold/fairhold/replay/internal/regularfile"
	"github.com/fairhold/fairhold/replay/source"
)

// memSource is a Source whose buckets are one in-memory bucket, with the
// objects given.
func memSource(t *testing.T, objects map[string][]byte) (*Source, *blob.Bucket) {
	t.Helper()
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	t.Cleanup(func() { b.Close() })
	for k, v := range objects {
		require.NoError(t, b.WriteAll(ctx, k, v, nil))
	}
	s := New(ctx, func(context.Context, string) (*blob.Bucket, error) { return b, nil })
	_, err := s.Add("s3://b")
	require.NoError(t, err)
	return s, b
}

func TestResolve(t *testing.T) {
	ctx := context.Background()
	src, paths, err := Resolve(ctx, []string{"day", "/tmp/x"}, nil)
	require.NoError(t, err)
	assert.Equal(t, source.Local, src)
	assert.Equal(t, []string{"day", "/tmp/x"}, paths)

	var opened []string
	b := memblob.OpenBucket(nil)
	defer b.Close()
	open := func(_ context.Context, u string) (*blob.Bucket, error) { opened = append(opened, u); return b, nil }
	src, paths, err = Resolve(ctx, []string{"s3://logs/day1?endpoint=http://127.0.0.1:1&use_path_style=true", "s3://logs/day2/", "local"}, open)
	require.NoError(t, err)
	assert.Equal(t, []string{"s3://logs/day1", "s3://logs/day2", "local"}, paths)
	assert.Equal(t, []string{"s3://logs?endpoint=http://127.0.0.1:1&use_path_style=true"}, opened, "one bucket, opened once with its options")
	src.(*Source).Close()

	for _, bad := range [][]string{{"ftp://x/y"}, {"s3:///nobucket"}, {"s3://a/x?region=1", "s3://a/y?region=2"}} {
		_, _, err := Resolve(ctx, bad, open)
		assert.Error(t, err, "%v", bad)
	}
}

func TestStatReadDirOpen(t *testing.T) {
	s, _ := memSource(t, map[string][]byte{
		"day/rounds/part-00001.parquet": []byte("12345"),
		"day/rounds/part-00000.parquet": []byte("123"),
		"day/boxes/part-00000.parquet":  []byte("1"),
		"day/manifest.json":             []byte("{}"),
		"day.txt":                       []byte("x"),
	})
	st, err := s.Stat("s3://b/day")
	require.NoError(t, err)
	assert.True(t, st.IsDir())
	st, err = s.Stat("s3://b/day/rounds/part-00001.parquet")
	require.NoError(t, err)
	assert.False(t, st.IsDir())
	assert.Equal(t, int64(5), st.Size())
	_, err = s.Stat("s3://b/nosuch")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), "s3://b/nosuch")

	ents, err := s.ReadDir("s3://b/day")
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"boxes", "manifest.json", "rounds"}, names)
	assert.True(t, ents[0].IsDir())
	assert.False(t, ents[1].IsDir())

	_, err = s.Check("s3://b/day/rounds")
	var re *regularfile.Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "not a regular file (directory)", re.Reason)
	_, err = s.Open("s3://b/day/rounds")
	require.ErrorAs(t, err, &re)
	_, err = s.Open("s3://b/day/nosuch.parquet")
	assert.ErrorIs(t, err, fs.ErrNotExist)

	f, err := s.Open("s3://b/day/rounds/part-00001.parquet")
	require.NoError(t, err)
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "12345", string(b))
	require.NoError(t, f.Close())
}

// TestReadAtRanges checks what the ranged reads fetch: a footer read
// fetches the last MinFetch bytes, not the file; small reads are served
// from what was fetched; and no byte is fetched twice while the file is
// open.
func TestReadAtRanges(t *testing.T) {
	defer func(m, c int64) { MinFetch, CacheBytes = m, c }(MinFetch, CacheBytes)
	MinFetch, CacheBytes = 4096, 1<<30
	data := make([]byte, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	s, _ := memSource(t, map[string][]byte{"f": data})
	f, err := s.Open("s3://b/f")
	require.NoError(t, err)
	st, _ := f.Stat()
	require.Equal(t, int64(len(data)), st.Size())

	// A footer: its length, then the footer.
	var tail [8]byte
	_, err = f.ReadAt(tail[:], int64(len(data))-8)
	require.NoError(t, err)
	foot := make([]byte, 1000)
	_, err = f.ReadAt(foot, int64(len(data))-8-1000)
	require.NoError(t, err)
	assert.Equal(t, data[len(data)-1008:len(data)-8], foot)
	got := s.Stats()
	assert.Equal(t, int64(1), got.Requests, "the footer in one request")
	assert.Equal(t, MinFetch, got.Bytes, "the footer costs MinFetch bytes of a %d-byte file", len(data))

	// Random reads, some of them concurrent: every byte right, none
	// fetched twice.
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 9))
			for range 300 {
				n := 1 + rng.IntN(20000)
				off := rng.Int64N(int64(len(data)))
				p := make([]byte, n)
				k, err := f.ReadAt(p, off)
				want := data[off:min(off+int64(n), int64(len(data)))]
				if k < n {
					assert.ErrorIs(t, err, io.EOF)
				} else {
					assert.NoError(t, err)
				}
				assert.Equal(t, want, p[:k])
			}
		})
	}
	wg.Wait()
	got = s.Stats()
	assert.LessOrEqual(t, got.Bytes, int64(len(data)), "no byte fetched twice")
	assert.Equal(t, got.Bytes, got.RangedBytes)

	// Closed, its tail is kept for the next opening: the footer again
	// costs nothing.
	require.NoError(t, f.Close())
	before := s.Stats()
	f, err = s.Open("s3://b/f")
	require.NoError(t, err)
	_, err = f.ReadAt(foot, int64(len(data))-8-1000)
	require.NoError(t, err)
	assert.Equal(t, before.Requests, s.Stats().Requests)
	assert.Equal(t, data[len(data)-1008:len(data)-8], foot)
	require.NoError(t, f.Close())
}

func TestReadAtEvicts(t *testing.T) {
	defer func(m, c int64) { MinFetch, CacheBytes = m, c }(MinFetch, CacheBytes)
	MinFetch, CacheBytes = 1024, 8192
	data := bytes.Repeat([]byte("0123456789abcdef"), 4096)
	s, _ := memSource(t, map[string][]byte{"f": data})
	f, err := s.Open("s3://b/f")
	require.NoError(t, err)
	defer f.Close()
	p := make([]byte, 100)
	for off := int64(0); off+100 < int64(len(data)); off += 1000 {
		_, err := f.ReadAt(p, off)
		require.NoError(t, err)
		require.Equal(t, data[off:off+100], p)
	}
	o := f.(*object)
	assert.LessOrEqual(t, o.cached, CacheBytes)
}

// TestReplaced: an object that changes while it is read is an error
// naming it, not a silent short read.
func TestReplaced(t *testing.T) {
	ctx := context.Background()
	s, b := memSource(t, map[string][]byte{"day/f": bytes.Repeat([]byte("x"), 10000)})
	f, err := s.Open("s3://b/day/f")
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, b.WriteAll(ctx, "day/f", []byte("short"), nil))
	_, err = f.ReadAt(make([]byte, 100), 5000)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "s3://b/day/f")
	var pe *fs.PathError
	assert.True(t, errors.As(err, &pe))
}

// TestReadAhead: small reads going forwards (page headers, then pages)
// cost a few requests that double in size, not one a read.
func TestReadAhead(t *testing.T) {
	defer func(m, x, c int64) { MinFetch, MaxFetch, CacheBytes = m, x, c }(MinFetch, MaxFetch, CacheBytes)
	MinFetch, MaxFetch, CacheBytes = 4096, 256<<10, 1<<30
	data := bytes.Repeat([]byte("fairhold"), 1<<17) // 1 MiB
	s, _ := memSource(t, map[string][]byte{"f": data})
	f, err := s.Open("s3://b/f")
	require.NoError(t, err)
	defer f.Close()
	p := make([]byte, 1000)
	for off := int64(0); off < int64(len(data)); off += 1000 {
		n, _ := f.ReadAt(p, off)
		require.Equal(t, data[off:off+int64(n)], p[:n])
	}
	st := s.Stats()
	assert.Equal(t, int64(len(data)), st.Bytes, "each byte once")
	// 4+8+...+256 KiB, then 256 KiB at a time: 6 + 3 requests.
	assert.LessOrEqual(t, st.Requests, int64(10))
}
