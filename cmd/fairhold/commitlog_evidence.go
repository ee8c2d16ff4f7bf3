package main

import (
	"bytes"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/fairness/commitlog"
)

// logDir refuses a URL where the command writes evidence into the log.
func logDir(loc string) error {
	if strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://") {
		return usageErrorf("%s: the evidence is written into the log: give its directory, not a URL", loc)
	}
	return nil
}

// readCertPool reads PEM certificates: the trusted roots of TSAs.
func readCertPool(path string) (*x509.CertPool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	pool := x509.NewCertPool()
	n := 0
	for len(b) > 0 {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			break
		}
		if blk.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(blk.Bytes)
		if err != nil {
			return nil, usageErrorf("--tsa-roots %s: certificate %d: %v", path, n+1, err)
		}
		pool.AddCert(c)
		n++
	}
	if n == 0 {
		return nil, usageErrorf("--tsa-roots %s: no PEM CERTIFICATE block", path)
	}
	return pool, nil
}

// evidenceFailed maps an error of the evidence layer to its exit code:
// ErrVerification is 3, the rest 1.
func evidenceFailed(err error) error {
	if errors.Is(err, commitlog.ErrVerification) {
		return verificationFailed(err)
	}
	return err
}

// --- witness

type commitlogWitnessOptions struct {
	commitlogReadOptions
	witness, witnessKey string
}

type commitlogWitnessResult struct {
	Log      string `json:"log"`
	Origin   string `json:"origin"`
	Size     uint64 `json:"size"`
	Root     string `json:"root"`
	Witness  string `json:"witness"`
	Cosigned string `json:"cosigned_at"`
	Evidence string `json:"evidence"`
}

func newCommitlogWitnessCmd() *cobra.Command {
	var o commitlogWitnessOptions
	cmd := &cobra.Command{
		Use:   "witness DIR --key PUB --witness URL --witness-key VKEY",
		Short: "Have a witness cosign the log's checkpoint and store the cosigned note as evidence",
		Long: `Verify the checkpoint of the log in directory DIR with PUB, send it to the
C2SP tlog-witness at URL (POST URL/add-checkpoint, with the consistency proof
from the tree size the witness last saw, built from the tiles), check that the
answer holds a valid cosignature/v1 by VKEY (the witness's C2SP verifier key,
name+hash+base64), and store the cosigned checkpoint as
DIR/evidence/checkpoint/SIZE, merged with any cosignatures already there, and
its size in DIR/evidence/index (docs/commitment-log.md sections 9, 10). The
cosignature's time bounds when every entry of the checkpoint was public.

The witness's operator must have added the log's origin and verifier key
(printed by fairhold commitlog checkpoint) to the witness.

Exit codes: 0 cosigned and stored; 3 the checkpoint does not verify, the
witness has seen a larger tree or refused the consistency proof (a fork in
its view), or its answer is not a valid cosignature by VKEY; 2 usage (a
malformed VKEY, a URL for DIR); 1 the witness refused otherwise (403: it does
not know the log) or could not be reached.`,
		Example: `  fairhold commitlog witness log --key operator.pub --witness https://witness.example/ --witness-key 'witness.example+1f2e3d4c+BH...'`,
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return runCommitlogWitness(cmd, args[0], o) },
	}
	addReadFlags(cmd, &o.commitlogReadOptions)
	f := cmd.Flags()
	f.StringVar(&o.witness, "witness", "", "the witness's base `URL` (C2SP tlog-witness)")
	f.StringVar(&o.witnessKey, "witness-key", "", "the witness's C2SP verifier key `VKEY`")
	_ = cmd.MarkFlagRequired("witness")
	_ = cmd.MarkFlagRequired("witness-key")
	return cmd
}

func runCommitlogWitness(cmd *cobra.Command, dir string, o commitlogWitnessOptions) error {
	if err := logDir(dir); err != nil {
		return err
	}
	if err := commitlog.CheckWitnessKey(o.witnessKey); err != nil {
		return usageErrorf("--witness-key: %v", err)
	}
	ctx := cmd.Context()
	r, cp, _, err := openLog(ctx, dir, o.commitlogReadOptions)
	if err != nil {
		return err
	}
	note, cos, err := commitlog.Cosign(ctx, nil, o.witness, o.witnessKey, r, cp)
	if err != nil {
		return evidenceFailed(err)
	}
	if err := commitlog.WriteEvidence(dir, note, nil); err != nil {
		return err
	}
	res := commitlogWitnessResult{Log: dir, Origin: cp.Origin, Size: cp.Size, Root: hex.EncodeToString(cp.Root[:]),
		Witness: cos.Witness, Cosigned: cos.Time.Format(time.RFC3339),
		Evidence: filepath.Join(dir, filepath.FromSlash(commitlog.EvidenceCheckpointPath(cp.Size)))}
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictVerified, res)
	}
	_, err = fmt.Fprintf(w, "cosigned  checkpoint of %s, size %d, by witness %s at %s\nstored    %s\n", cp.Origin, cp.Size, cos.Witness, res.Cosigned, res.Evidence)
	return err
}

// --- timestamp

type commitlogTimestampOptions struct {
	commitlogReadOptions
	tsa, roots string
}

type commitlogTimestampResult struct {
	Log       string `json:"log"`
	Origin    string `json:"origin"`
	Size      uint64 `json:"size"`
	Root      string `json:"root"`
	Authority string `json:"authority"`
	GenTime   string `json:"gen_time"`
	Accuracy  string `json:"accuracy"`
	Bound     string `json:"public_by"`
	Trusted   bool   `json:"trusted"`
	Evidence  string `json:"evidence"`
}

func newCommitlogTimestampCmd() *cobra.Command {
	var o commitlogTimestampOptions
	cmd := &cobra.Command{
		Use:   "timestamp DIR --key PUB --tsa URL [--tsa-roots FILE.pem]",
		Short: "Get an RFC 3161 token over the log's checkpoint and store it as evidence",
		Long: `Verify the checkpoint of the log in directory DIR with PUB, ask the RFC 3161
time-stamping authority at URL (HTTP POST application/timestamp-query) for a
token over the checkpoint's note text (SHA-256, with a nonce and the TSA's
certificate), check the answer, and store it as DIR/evidence/timestamp/SIZE
beside the checkpoint (docs/commitment-log.md sections 9, 11). With --tsa-roots,
the TSA's certificate must lead to one of the PEM roots of FILE.pem with the
extended key usage timeStamping; without, the token's signature and imprint
are checked but not who signed it (a verifier decides whom to trust).

Exit codes: 0 stored; 3 the checkpoint does not verify, or the answer is not a
valid token over it (another imprint or nonce, a bad signature, an
untrusted TSA); 2 usage; 1 the TSA could not be reached or refused.`,
		Example: `  fairhold commitlog timestamp log --key operator.pub --tsa https://tsa.example/tsr --tsa-roots tsa-roots.pem`,
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return runCommitlogTimestamp(cmd, args[0], o) },
	}
	addReadFlags(cmd, &o.commitlogReadOptions)
	f := cmd.Flags()
	f.StringVar(&o.tsa, "tsa", "", "the time-stamping authority's `URL`")
	f.StringVar(&o.roots, "tsa-roots", "", "PEM `FILE` of the trusted TSA roots")
	_ = cmd.MarkFlagRequired("tsa")
	return cmd
}

func runCommitlogTimestamp(cmd *cobra.Command, dir string, o commitlogTimestampOptions) error {
	if err := logDir(dir); err != nil {
		return err
	}
	var roots *x509.CertPool
	if o.roots != "" {
		var err error
		if roots, err = readCertPool(o.roots); err != nil {
			return err
		}
	}
	ctx := cmd.Context()
	_, cp, _, err := openLog(ctx, dir, o.commitlogReadOptions)
	if err != nil {
		return err
	}
	tsr, tok, err := commitlog.RequestTimestamp(ctx, nil, o.tsa, cp.Raw, roots)
	if err != nil {
		return evidenceFailed(err)
	}
	if err := commitlog.WriteEvidence(dir, cp.Raw, tsr); err != nil {
		return err
	}
	res := commitlogTimestampResult{Log: dir, Origin: cp.Origin, Size: cp.Size, Root: hex.EncodeToString(cp.Root[:]),
		Authority: tok.Authority, GenTime: tok.GenTime.Format(time.RFC3339Nano), Accuracy: tok.Accuracy.String(),
		Bound: tok.Bound.Format(time.RFC3339Nano), Trusted: roots != nil,
		Evidence: filepath.Join(dir, filepath.FromSlash(commitlog.EvidenceTimestampPath(cp.Size)))}
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictVerified, res)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "timestamped checkpoint of %s, size %d, by %s\n", cp.Origin, cp.Size, tok.Authority)
	fmt.Fprintf(&b, "genTime   %s (accuracy %s): public by %s\n", res.GenTime, res.Accuracy, res.Bound)
	if roots == nil {
		b.WriteString("note      the TSA's certificate was not checked against trusted roots (no --tsa-roots)\n")
	}
	fmt.Fprintf(&b, "stored    %s\n", res.Evidence)
	_, err = w.Write(b.Bytes())
	return err
}

// --- evidence

type commitlogEvidenceOptions struct {
	commitlogReadOptions
	witnessKeys []string
	quorum      int
	roots       string
}

type commitlogTimedCheckpoint struct {
	Size     uint64 `json:"size"`
	Root     string `json:"root"`
	PublicBy string `json:"public_by"`
	Evidence string `json:"evidence"`
}

type commitlogEvidenceResult struct {
	Log         string                     `json:"log"`
	Origin      string                     `json:"origin"`
	Size        uint64                     `json:"size"`
	Checkpoints []commitlogTimedCheckpoint `json:"timed_checkpoints"`
	Verified    bool                       `json:"verified"`
}

func newCommitlogEvidenceCmd() *cobra.Command {
	var o commitlogEvidenceOptions
	cmd := &cobra.Command{
		Use:   "evidence LOG --key PUB [--witness-key VKEY]... [--quorum N] [--tsa-roots FILE.pem]",
		Short: "Verify the log's timed checkpoints and print when each was public",
		Long: `Verify the log's checkpoint with PUB, then every checkpoint listed in
LOG/evidence/index (docs/commitment-log.md sections 9, 12): its signature by the
log, its consistency with the log's checkpoint (from the tiles), the
cosignatures of the trusted witnesses (--witness-key, repeatable; --quorum of
them, default 1) and, with --tsa-roots, its RFC 3161 token. Print each timed
checkpoint with the time by which its entries were public and what shows it.
A checkpoint with no trusted cosignature or token is left out; cosignatures
by other keys do not count.

Exit codes: 0 verified (possibly no timed checkpoint); 3 hostile evidence (a
forged or forked checkpoint, a bad cosignature by a trusted witness, a token
over other bytes or by an untrusted TSA, a truncated tile); 2 usage; 1 the
log cannot be read.`,
		Example: `  fairhold commitlog evidence https://casino.example/commitments/ --key operator.pub --witness-key 'witness.example+1f2e3d4c+BH...' --tsa-roots tsa-roots.pem`,
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return runCommitlogEvidence(cmd, args[0], o) },
	}
	addReadFlags(cmd, &o.commitlogReadOptions)
	f := cmd.Flags()
	f.StringArrayVar(&o.witnessKeys, "witness-key", nil, "a trusted witness's C2SP verifier key `VKEY` (repeatable)")
	f.IntVar(&o.quorum, "quorum", 0, "cosignatures of distinct trusted witnesses a checkpoint needs (`N`, default 1)")
	f.StringVar(&o.roots, "tsa-roots", "", "PEM `FILE` of the trusted TSA roots (default: tokens are not read)")
	return cmd
}

func runCommitlogEvidence(cmd *cobra.Command, loc string, o commitlogEvidenceOptions) error {
	trust := commitlog.Trust{Witnesses: o.witnessKeys, Quorum: o.quorum}
	if o.roots != "" {
		var err error
		if trust.TSARoots, err = readCertPool(o.roots); err != nil {
			return err
		}
	}
	if o.quorum < 0 || o.quorum > len(o.witnessKeys) {
		return usageErrorf("--quorum %d: want 0..%d (the number of --witness-key)", o.quorum, len(o.witnessKeys))
	}
	for _, k := range o.witnessKeys {
		if err := commitlog.CheckWitnessKey(k); err != nil {
			return usageErrorf("--witness-key: %v", err)
		}
	}
	ctx := cmd.Context()
	r, cp, pub, err := openLog(ctx, loc, o.commitlogReadOptions)
	if err != nil {
		return err
	}
	tl, err := commitlog.LoadTimeline(ctx, r, cp, pub, trust)
	if err != nil {
		return evidenceFailed(err)
	}
	res := commitlogEvidenceResult{Log: loc, Origin: cp.Origin, Size: cp.Size, Checkpoints: []commitlogTimedCheckpoint{}, Verified: true}
	for _, c := range tl.Checkpoints() {
		res.Checkpoints = append(res.Checkpoints, commitlogTimedCheckpoint{Size: c.Size, Root: hex.EncodeToString(c.Root[:]),
			PublicBy: c.PublicBy.UTC().Format(time.RFC3339Nano), Evidence: c.Evidence})
	}
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictVerified, res)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "verified  %d timed checkpoints of %s (log size %d)\n", len(res.Checkpoints), cp.Origin, cp.Size)
	for _, c := range res.Checkpoints {
		fmt.Fprintf(&b, "size %d public by %s: %s\n", c.Size, c.PublicBy, c.Evidence)
	}
	_, err = w.Write(b.Bytes())
	return err
}
