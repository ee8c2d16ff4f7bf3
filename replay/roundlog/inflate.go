package roundlog

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
)

// Compression bombs. parquet-go decompresses a page into a buffer of the
// size its header declares and, when the data inflates past it, grows the
// buffer for as long as the data goes on: a 280 KB file whose GZIP page
// declared a few bytes inflated to 670 MiB and replayed clean (the values
// were read from the start of the page, the rest ignored), a 1 MB one took
// 2.6 GB. Before a chunk's pages are decoded, checkChunk therefore has
// every compressed page inflated here, bounded by the size its header
// declares (itself at most maxPageSize): a page that inflates past it is
// damage, found after inflating at most that many bytes more, into no
// buffer. SNAPPY (our writer's codec) gives its length before its data,
// so only that is read; GZIP, BROTLI and ZSTD are inflated twice, once
// here and once by parquet-go (docs/log-format.md section 6).

// errInflated is the reason of a page that inflates past its header.
var errInflated = errors.New("inflates past the uncompressed size its header declares")

// inflater inflates a page's compressed bytes without keeping them.
type inflater struct {
	buf  []byte // the compressed bytes of the page being checked
	gz   *gzip.Reader
	br   *brotli.Reader
	zstd *zstd.Decoder
}

// inflaters are pooled, with their buffer and decoders.
var inflaters = sync.Pool{New: func() any { return new(inflater) }}

// zstdDecoders are pooled: a decoder is costly to make.
var zstdDecoders = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(maxPageSize))
	if err != nil {
		panic(err) // the options are constants
	}
	return d
}}

// getInflater returns an inflater; give it back with put.
func getInflater() *inflater { return inflaters.Get().(*inflater) }

// put returns in to its pool, its decoders reading nothing (so that they
// hold no page).
func (in *inflater) put() {
	var empty bytes.Reader
	if in.gz != nil {
		_ = in.gz.Reset(&empty)
	}
	if in.br != nil {
		_ = in.br.Reset(&empty)
	}
	if in.zstd != nil {
		_ = in.zstd.Reset(&empty)
	}
	if cap(in.buf) > maxPageSize/4 {
		in.buf = nil // a rare large page is not kept
	}
	inflaters.Put(in)
}

// check inflates the compressed data of the page whose header is h and
// whose bytes are at byte pos of r, n bytes (of which prefix holds the
// first, possibly all), and reports an error when they inflate past
// h.UncompressedPageSize or do not inflate.
func (in *inflater) check(r io.ReaderAt, codec format.CompressionCodec, h *format.PageHeader, pos, n int64, prefix []byte) error {
	if codec == format.Uncompressed {
		return nil
	}
	var skip int64 // bytes of the page before its compressed data
	switch {
	case h.DictionaryPageHeader.Valid, h.DataPageHeader.Valid:
	case h.DataPageHeaderV2.Valid:
		v := &h.DataPageHeaderV2.V
		if v.IsCompressed.Valid && !v.IsCompressed.V {
			return nil
		}
		skip = int64(v.RepetitionLevelsByteLength) + int64(v.DefinitionLevelsByteLength)
		if v.RepetitionLevelsByteLength < 0 || v.DefinitionLevelsByteLength < 0 || skip > n {
			return fmt.Errorf("levels of %d and %d bytes in a page of %d bytes", v.RepetitionLevelsByteLength, v.DefinitionLevelsByteLength, n)
		}
	default:
		return nil // an index page, or one parquet-go skips
	}
	limit := int64(h.UncompressedPageSize)
	pos, n = pos+skip, n-skip
	prefix = prefix[min(int64(len(prefix)), skip):]
	prefix = prefix[:min(int64(len(prefix)), n)]
	if codec == format.Snappy {
		// A SNAPPY block starts with its length, a varint of at most 5
		// bytes; the decoder allocates that length.
		head := prefix
		if len(head) < binary.MaxVarintLen32 && int64(len(head)) < n {
			head = make([]byte, min(n, binary.MaxVarintLen32))
			if _, err := r.ReadAt(head, pos); err != nil && !errors.Is(err, io.EOF) {
				return fmt.Errorf("reading the page: %v", err)
			}
		}
		size, k := binary.Uvarint(head)
		if k <= 0 {
			return errors.New("SNAPPY data without its length")
		}
		if size > uint64(limit) {
			return fmt.Errorf("SNAPPY data of %d bytes %w (%d)", size, errInflated, limit)
		}
		return nil
	}
	if int64(cap(in.buf)) < n {
		in.buf = make([]byte, n)
	}
	data := in.buf[:n]
	if _, err := r.ReadAt(data, pos); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("reading the page: %v", err)
	}
	src := bytes.NewReader(data)
	var dec io.Reader
	switch codec {
	case format.Gzip:
		if in.gz == nil {
			in.gz = new(gzip.Reader)
		}
		if err := in.gz.Reset(src); err != nil {
			return fmt.Errorf("GZIP data that does not inflate: %v", err)
		}
		dec = in.gz
	case format.Brotli:
		if in.br == nil {
			in.br = brotli.NewReader(src)
		} else if err := in.br.Reset(src); err != nil {
			return fmt.Errorf("BROTLI data that does not inflate: %v", err)
		}
		dec = in.br
	case format.Zstd:
		if in.zstd == nil {
			in.zstd = zstdDecoders.Get().(*zstd.Decoder)
		}
		if err := in.zstd.Reset(src); err != nil {
			return fmt.Errorf("ZSTD data that does not inflate: %v", err)
		}
		dec = in.zstd
	default:
		return nil // refused when the file is opened (checkCodecs)
	}
	got, err := io.Copy(io.Discard, io.LimitReader(dec, limit+1))
	switch {
	case got > limit:
		return fmt.Errorf("%s data %w (%d)", codec, errInflated, limit)
	case err != nil:
		return fmt.Errorf("%s data that does not inflate: %v", codec, err)
	}
	return nil
}
