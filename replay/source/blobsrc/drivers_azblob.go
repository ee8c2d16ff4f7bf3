//go:build azblob

package blobsrc

// azblob:// (Azure Blob Storage), in a build with the tag azblob only (about
// 5 MB of the binary: docs/scale-out.md).
import _ "gocloud.dev/blob/azureblob"
