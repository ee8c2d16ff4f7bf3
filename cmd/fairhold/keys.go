package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/certify/report"
)

func newKeysCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Key pairs that sign certification reports",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newKeysNewCmd())
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
