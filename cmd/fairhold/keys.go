package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/replay/atomicfile"
)

func newKeysCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Key pairs that sign reports and files; detached signatures",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newKeysNewCmd(), newKeysSignCmd(), newKeysVerifyCmd())
	return cmd
}

type keysNewOptions struct {
	out    string
	pq     bool
	force  bool
	asJSON bool
}

func newKeysNewCmd() *cobra.Command {
	var o keysNewOptions
	cmd := &cobra.Command{
		Use:   "new --out PREFIX",
		Short: "Generate a key pair that signs reports",
		Long: `Generate a key pair for signing certification reports (docs/report-format.md):
Ed25519, or ML-DSA-65 (FIPS 204, post-quantum) with --pq.

PREFIX.key holds the private key, a PEM "PRIVATE KEY" block (PKCS #8), written
with mode 0600; PREFIX.pub the public key, a PEM "PUBLIC KEY" block (PKIX),
which verifiers are given. ML-DSA-65 keys use the encoding of RFC 9881. The key
id printed is the SHA-256 of the public key's DER, the keyid of its signatures.

Each file is written whole or not at all, and an existing file is never
overwritten unless --force. The private key is never printed.

Exit codes: 0 written, 2 usage (a file exists), 1 error.`,
		Example: `  fairhold keys new --out lab
  fairhold keys new --out regulator --pq --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runKeysNew(cmd, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "write PREFIX.key and PREFIX.pub")
	f.BoolVar(&o.pq, "pq", false, "an ML-DSA-65 key instead of Ed25519")
	f.BoolVar(&o.force, "force", false, "overwrite existing key files")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

func runKeysNew(cmd *cobra.Command, o keysNewOptions) error {
	if o.out == "" {
		return usageErrorf("--out: empty prefix")
	}
	alg := report.Ed25519
	if o.pq {
		alg = report.MLDSA65
	}
	k, err := report.GenerateKey(alg, nil)
	if err != nil {
		return err
	}
	kf, err := report.WriteKeyFiles(k, o.out, o.force)
	if errors.Is(err, fs.ErrExist) {
		return usageErrorf("--out: %v; refusing to overwrite a key (--force to replace it)", err)
	}
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictOK, kf)
	}
	_, err = fmt.Fprintf(w, "%s key pair written\nprivate key: %s (mode 0600, keep it secret)\npublic key:  %s\nkeyid:       %s\n",
		kf.Algorithm, kf.PrivateKey, kf.PublicKey, kf.KeyID)
	return err
}

// maxKeyFile bounds a key read from standard input: a PEM key is a few
// hundred bytes (an ML-DSA-65 public key under 3 KiB).
const maxKeyFile = 64 << 10

type keysSignOptions struct {
	key    string
	out    string
	force  bool
	asJSON bool
}

// keysSignResult is the JSON of keys sign --json. It holds no secret.
type keysSignResult struct {
	File      string           `json:"file"`
	Signature string           `json:"signature"`
	Algorithm report.Algorithm `json:"algorithm"`
	KeyID     string           `json:"keyid"`
}

func newKeysSignCmd() *cobra.Command {
	var o keysSignOptions
	cmd := &cobra.Command{
		Use:   "sign FILE --key KEY",
		Short: "Sign a file with an Ed25519 key: a detached signature, FILE.sig",
		Long: `Sign FILE with the Ed25519 private key KEY (a PEM "PRIVATE KEY" block, PKCS #8,
as fairhold keys new or openssl genpkey -algorithm ed25519 write it), writing
the detached signature to FILE.sig (or --out).

The signature file holds exactly the 64 bytes of the Ed25519 signature
(RFC 8032, pure Ed25519: no pre-hash, no context) of the exact bytes of FILE,
nothing else: the form of a dataset's manifest.json.sig (docs/log-format.md,
section 8.2), which OpenSSL 3 verifies too (docs/release.md). Ed25519 is
deterministic: the same file and key give the same signature. The release
process signs checksums.txt this way (docs/release.md).

KEY "-" reads the private key from standard input, so that a key held in an
environment variable (a CI secret) never touches the disk. The private key
is never printed, nor any part of it in an error.

The signature is written whole or not at all, and an existing file is never
overwritten unless --force.

Exit codes: 0 signed; 2 usage (a malformed key file, a key that is not an
Ed25519 private key, the signature file exists); 1 an I/O error (FILE or KEY
does not exist).`,
		Example: `  fairhold keys sign checksums.txt --key release.key
  printf '%s\n' "$FAIRHOLD_RELEASE_KEY" | fairhold keys sign dist/checksums.txt --key - --out dist/checksums.txt.sig`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runKeysSign(cmd, args[0], o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.key, "key", "", "the Ed25519 private key (.key, PEM PKCS #8); - reads it from standard input")
	f.StringVar(&o.out, "out", "", "write the signature to `SIG` (default: FILE.sig)")
	f.BoolVar(&o.force, "force", false, "overwrite an existing signature file")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("key")
	return cmd
}

// readSigningKey reads the Ed25519 private key of keys sign from the file
// path, or from in when path is "-". Errors name the source and never
// contain the key.
func readSigningKey(path string, in io.Reader) (*report.PrivateKey, error) {
	name := path
	var data []byte
	var err error
	if path == "-" {
		name = "--key - (standard input)"
		data, err = io.ReadAll(io.LimitReader(in, maxKeyFile+1))
		if err == nil && len(data) > maxKeyFile {
			return nil, usageErrorf("%s: more than %d bytes; want a PEM private key", name, maxKeyFile)
		}
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("failed to read the private key %s: %w", name, err)
	}
	k, err := report.ParsePrivateKey(data)
	if err != nil {
		return nil, usageErrorf("%s: %v", name, err)
	}
	if k.Algorithm() != report.Ed25519 {
		return nil, usageErrorf("%s: an %s key; detached signatures are Ed25519 (fairhold keys new without --pq)", name, k.Algorithm())
	}
	return k, nil
}

func runKeysSign(cmd *cobra.Command, file string, o keysSignOptions) error {
	if o.key == "" {
		return usageErrorf("--key: empty path")
	}
	out := o.out
	if out == "" {
		out = file + ".sig"
	}
	if out == file {
		return usageErrorf("--out: %s is the file to sign", out)
	}
	k, err := readSigningKey(o.key, cmd.InOrStdin())
	if err != nil {
		return err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("failed to read %s: %w", file, err)
	}
	sig, err := k.Sign(data)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(out, sig, 0o644, o.force); errors.Is(err, fs.ErrExist) {
		return usageErrorf("--out: %v; refusing to overwrite a signature (--force to replace it)", err)
	} else if err != nil {
		return err
	}
	res := keysSignResult{File: file, Signature: out, Algorithm: k.Algorithm(), KeyID: k.KeyID()}
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictOK, res)
	}
	_, err = fmt.Fprintf(w, "signed %s\nsignature: %s (%s, %d bytes)\nkeyid:     %s\n", file, out, res.Algorithm, len(sig), res.KeyID)
	return err
}

type keysVerifyOptions struct {
	key    string
	sig    string
	asJSON bool
}

// keysVerifyResult is the JSON of keys verify --json.
type keysVerifyResult struct {
	File      string           `json:"file"`
	Signature string           `json:"signature"`
	Key       string           `json:"key"`
	Algorithm report.Algorithm `json:"algorithm"`
	KeyID     string           `json:"keyid"`
	Verified  bool             `json:"verified"`
	Problem   string           `json:"problem,omitempty"` // why it did not verify
}

func newKeysVerifyCmd() *cobra.Command {
	var o keysVerifyOptions
	cmd := &cobra.Command{
		Use:   "verify FILE --key PUB",
		Short: "Verify a file's detached Ed25519 signature (FILE.sig)",
		Long: `Verify that FILE.sig (or --sig) is the Ed25519 signature of FILE by the public
key PUB (a PEM "PUBLIC KEY" block, PKIX, as fairhold keys new or openssl pkey
-pubout write it): the form keys sign writes, 64 bytes, that of a dataset's
manifest.json.sig (docs/log-format.md, section 8.2).

A user of a release verifies checksums.txt.sig with the project's release
key, docs/release-key.pub, then the archive against checksums.txt
(docs/release.md). The key id printed is the SHA-256 of the key's DER, to
compare with the one the project publishes. A fairhold you downloaded cannot
vouch for itself: verify with a fairhold built from source, or with OpenSSL.

Exit codes: 0 verified; 3 the signature does not verify (FILE or the
signature was changed, or another key signed it) or the signature file is
not a signature (not 64 bytes); 2 usage (a malformed key file, a key that is
not an Ed25519 public key); 1 an I/O error (FILE, the signature or PUB does
not exist).`,
		Example: `  fairhold keys verify checksums.txt --key release-key.pub
  fairhold keys verify day/manifest.json --key operator.pub.pem --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runKeysVerify(cmd, args[0], o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.key, "key", "", "the Ed25519 public key (.pub, PEM PKIX) that must have signed")
	f.StringVar(&o.sig, "sig", "", "the signature file `SIG` (default: FILE.sig)")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("key")
	return cmd
}

func runKeysVerify(cmd *cobra.Command, file string, o keysVerifyOptions) error {
	if o.key == "" {
		return usageErrorf("--key: empty path")
	}
	sigPath := o.sig
	if sigPath == "" {
		sigPath = file + ".sig"
	}
	k, err := report.ReadPublicKey(o.key)
	if errors.Is(err, report.ErrMalformed) {
		return usageErrorf("%s: %v", o.key, err)
	} else if err != nil {
		return err
	}
	if k.Algorithm() != report.Ed25519 {
		return usageErrorf("%s: an %s key; detached signatures are Ed25519", o.key, k.Algorithm())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("failed to read %s: %w", file, err)
	}
	sig, err := readSignature(sigPath)
	if err != nil {
		return err
	}
	res := keysVerifyResult{File: file, Signature: sigPath, Key: o.key, Algorithm: k.Algorithm(), KeyID: k.KeyID()}
	switch {
	case len(sig) != ed25519.SignatureSize:
		size := fmt.Sprintf("%d bytes", len(sig))
		if len(sig) > ed25519.SignatureSize {
			size = fmt.Sprintf("more than %d bytes", ed25519.SignatureSize)
		}
		res.Problem = fmt.Sprintf("%s holds %s, want the %d bytes of an Ed25519 signature: it is damaged or not a signature", sigPath, size, ed25519.SignatureSize)
	case !k.Verify(data, sig):
		res.Problem = fmt.Sprintf("%s is not a signature of %s by this key: the file or the signature was changed, or another key signed it", sigPath, file)
	default:
		res.Verified = true
	}
	w := cmd.OutOrStdout()
	if o.asJSON {
		if err := writeResult(w, verdictOf(res.Verified, verdictVerified), res); err != nil {
			return err
		}
	} else {
		status := "verified"
		if !res.Verified {
			status = "FAILED"
		}
		if _, err := fmt.Fprintf(w, "%s  %s\nsignature: %s\nkey:       %s (%s)\nkeyid:     %s\n", status, file, sigPath, o.key, k.Algorithm(), k.KeyID()); err != nil {
			return err
		}
	}
	if !res.Verified {
		return verificationFailed(errors.New(res.Problem))
	}
	return nil
}

// readSignature reads a signature file, no more than a byte past the
// largest signature (a larger file is not a signature either way).
func readSignature(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read the signature: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, ed25519.SignatureSize+1))
	if err != nil {
		return nil, fmt.Errorf("failed to read the signature %s: %w", path, err)
	}
	return b, nil
}
