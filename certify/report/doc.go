// Package report implements fairhold's signed certification report,
// report.json (docs/report-format.md).
//
// A report is an in-toto Statement v1 ([Statement]) wrapped in a DSSE
// envelope ([dsse.Envelope]) that one or more keys sign: a lab's, an
// operator's, a regulator's. The statement names every certified artefact
// by name and SHA-256 ([Subject]) and carries the certification's results
// as its predicate ([Predicate]): the verdict, each requirement with its
// status and evidence, the fairhold build that decided them and the time of
// signing.
//
// Start with [NewStatement], then [Sign] with one or more [PrivateKey]s
// (or any [Signer]) and [MarshalEnvelope] to write report.json. A verifier
// calls [ParseEnvelope], [Verify] with the public keys it requires, then
// [Verification.CheckSubjects] on the directory of the artefacts.
//
// # Pages
//
// Beside report.json, [RenderHTML] draws report.html (one self-contained
// page for people: the verdict first, each requirement with its evidence
// and the figures of its [Evidence.Charts] as inline SVG, no script, no
// load), [RenderJUnit] report.xml (JUnit XML for CI) and [RenderSummary]
// summary.md. They are not signed and say so; the same statement and
// envelope give the same bytes. [UnverifiedStatement] reads the statement
// of a report whose keys are not at hand, for drawing its pages.
//
// # Encoding
//
//   - The envelope is DSSE v1: payloadType [PayloadType], the statement's
//     bytes in standard base64 (with padding), and one signature per key
//     over PAE(payloadType, statement) as [dsse.PAE] computes it.
//   - The statement is the compact encoding/json encoding of [Statement]
//     without HTML escaping: fields in the order of the Go types, map keys
//     sorted, subjects sorted by name, the time in UTC to the second.
//     [Statement.Marshal] is that encoding; [ParseStatement] accepts nothing
//     else, so one statement has one encoding.
//   - report.json is the envelope indented by two spaces and ended by one
//     newline ([MarshalEnvelope]). [ParseEnvelope] accepts exactly that
//     form: any edit of the file, even of white space, is an error.
//
// # Keys and determinism
//
// Keys are Ed25519 ([Ed25519]) or ML-DSA-65 ([MLDSA65], FIPS 204, pure
// mode, empty context), in PEM files: PKCS #8 private keys and PKIX public
// keys, ML-DSA-65 in the encoding of RFC 9881 (see [PrivateKey.MarshalPEM]).
// A key's id ([PublicKey.KeyID]) is the lower-case hex SHA-256 of its DER
// SubjectPublicKeyInfo. Both algorithms sign deterministically here (ML-DSA
// in FIPS 204's deterministic variant), and signatures are sorted by key id,
// so the same statement and keys give the same report.json byte for byte.
//
// # Errors
//
// Malformed input (a truncated or edited file, a bad field) is a
// [*FormatError] that names the field and wraps [ErrMalformed]; a key of an
// unsupported type also wraps [ErrKeyType]. A report that parses but does
// not verify returns [*SignatureError] ([ErrSignature]) or
// [*SubjectError] ([ErrSubject]), naming each key or subject that failed.
// Match them with [errors.Is].
package report
