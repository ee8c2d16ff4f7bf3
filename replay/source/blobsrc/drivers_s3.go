package blobsrc

// s3:// (AWS S3 and S3-compatible servers): its URL opener registers with
// blob's default mux.
import _ "gocloud.dev/blob/s3blob"
