// Package vectors holds fairhold's test vectors: plain JSON files that any
// implementation, in any language, can run, and a small loader for Go.
//
// The files live in this directory's subdirectories, one vector per file,
// and are documented in vectors/README.md:
//
//   - fairness/*.json: the provably-fair schemes (seeds, commitments, hash
//     chains, drand beacons, dealing orders), positive and negative; see
//     [Fairness] and [FairnessVector].
//   - commitlog/*.json: the commitment log (docs/commitment-log.md): entry
//     encodings, leaf hashes, a signed tree with proofs; see [Commitlog].
//   - receipts/*.json: players' signed receipts (docs/receipts.md) with the
//     published test key and the verdict; see [Receipts].
//
// A vector states its inputs, the values an implementation must derive, and
// what it must conclude: "expect" is "success" (every check passes),
// "failure" (the named checks fail) or "malformed" (the input must be
// rejected, naming a field).
//
// This package imports nothing from the rest of the module, so that the
// vectors stay an independent description of the expected behaviour; the
// runner that checks the implementation against them is in
// certify/conformance.
package vectors
