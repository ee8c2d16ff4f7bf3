//go:build gcs

package blobsrc

// gs:// (Google Cloud Storage), in a build with the tag gcs only: its SDK
// adds about 30 MB to the binary and minutes to a cold build
// (docs/scale-out.md). Without it, Google Cloud Storage is read through its
// S3-compatible XML API with s3:// and endpoint=https://storage.googleapis.com.
import _ "gocloud.dev/blob/gcsblob"
