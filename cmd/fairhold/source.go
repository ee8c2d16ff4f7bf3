package main

import (
	"context"
	"io"

	"github.com/fairhold/fairhold/replay/source"
	"github.com/fairhold/fairhold/replay/source/blobsrc"
)

// openSource returns where the datasets named by args are read from: the
// local file system, or object storage for s3://, gs:// and azblob://
// URLs (docs/scale-out.md), and args as that source names them (a URL
// without its query). A URL that cannot name a bucket is a usage error.
func openSource(ctx context.Context, args []string) (source.Source, []string, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	src, names, err := blobsrc.Resolve(ctx, args, nil)
	if err != nil {
		return nil, nil, usageError(err)
	}
	return src, names, nil
}

// closeSource closes the buckets src opened, if any.
func closeSource(src source.Source) {
	if c, ok := src.(io.Closer); ok {
		c.Close()
	}
}
