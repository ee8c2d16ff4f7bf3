//go:build !nogcs

package blobsrc

// gs:// (Google Cloud Storage), left out by the build tag nogcs (about 30
// MB of the binary: docs/scale-out.md).
import _ "gocloud.dev/blob/gcsblob"
