//go:build !noazblob

package blobsrc

// azblob:// (Azure Blob Storage), left out by the build tag noazblob
// (about 5 MB of the binary: docs/scale-out.md).
import _ "gocloud.dev/blob/azureblob"
