package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/transparency-dev/tessera/api/layout"
	"k8s.io/klog/v2"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/manifest"
)

func newCommitlogCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "commitlog",
		Short: "The transparency log of seed commitments (docs/commitment-log.md)",
		Long: `Operators publish every seed commitment to an append-only transparency log: a
C2SP tlog-tiles log (transparency-dev/tessera, POSIX driver) whose checkpoints
are C2SP signed notes with an Ed25519 key (docs/commitment-log.md). Anyone can
check an entry's inclusion from the tiles alone.

Witnesses the operator does not run cosign checkpoints (C2SP tlog-witness:
commitlog witness) and RFC 3161 authorities time-stamp them (commitlog
timestamp); the cosigned checkpoints and tokens are stored under the log's
evidence/ and bound when each entry was public (commitlog evidence).`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newCommitlogAppendCmd(), newCommitlogCheckpointCmd(), newCommitlogProveCmd(),
		newCommitlogVerifyInclusionCmd(), newCommitlogConsistencyCmd(),
		newCommitlogWitnessCmd(), newCommitlogTimestampCmd(), newCommitlogEvidenceCmd())
	return cmd
}

// quietTessera keeps tessera's klog lines off the command's output.
func quietTessera() {
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
}

func readLogPrivateKey(path string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read the private key %s: %w", path, err)
	}
	k, err := manifest.ParsePrivateKey(b)
	if err != nil {
		return nil, usageErrorf("--key %s: %v (an Ed25519 key, fairhold keys new without --pq)", path, err)
	}
	return k, nil
}

func readLogPublicKey(path string) (ed25519.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read the public key %s: %w", path, err)
	}
	k, err := manifest.ParsePublicKey(b)
	if err != nil {
		return nil, usageErrorf("--key %s: %v (an Ed25519 key, fairhold keys new without --pq)", path, err)
	}
	return k, nil
}

// --- append

type commitlogAppendOptions struct {
	key, origin string
	entry       []string
	entries     string
	asJSON      bool
}

type commitlogAppendResult struct {
	Log     string   `json:"log"`
	Origin  string   `json:"origin"`
	Indices []uint64 `json:"indices"`
	Size    uint64   `json:"size"`
	Root    string   `json:"root"`
}

func newCommitlogAppendCmd() *cobra.Command {
	var o commitlogAppendOptions
	cmd := &cobra.Command{
		Use:   "append DIR --key KEY (--entry FILE... | --entries FILE.json)",
		Short: "Append commitment entries to the log in DIR and sign a new checkpoint",
		Long: `Append entries to the commitment log in directory DIR (created when absent),
wait until a checkpoint signed with KEY covers them, and print their indices.

--entry FILE (repeatable) is an entry in its canonical encoding
(docs/commitment-log.md section 2); --entries FILE.json a JSON array of entries
in their JSON form (section 2.3). Every entry is checked before any is
appended. KEY is an Ed25519 private key (PEM PKCS #8, fairhold keys new).
--origin names the log (its checkpoints' first line and key name); for an
existing log it defaults to the log's origin, and the log's checkpoint must be
signed by KEY under that origin.

Exit codes: 0 appended; 2 usage (a malformed entry or key, no entries);
1 an I/O error.`,
		Example: `  fairhold commitlog append log --key operator.key --origin casino.example/commitments --entries day.json
  fairhold commitlog append log --key operator.key --entry seed-17.txt --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runCommitlogAppend(cmd, args[0], o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.key, "key", "", "the log's Ed25519 private key `KEY` (PEM)")
	f.StringVar(&o.origin, "origin", "", "the log's origin, e.g. casino.example/commitments (default: the existing log's)")
	f.StringArrayVar(&o.entry, "entry", nil, "an entry `FILE` in canonical encoding (repeatable)")
	f.StringVar(&o.entries, "entries", "", "a JSON array of entries `FILE.json`")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("key")
	return cmd
}

func loadAppendEntries(o commitlogAppendOptions) ([][]byte, error) {
	var out [][]byte
	for _, p := range o.entry {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("failed to read %s: %w", p, err)
		}
		if _, err := commitlog.Unmarshal(b); err != nil {
			return nil, usageErrorf("--entry %s: %v", p, err)
		}
		out = append(out, b)
	}
	if o.entries != "" {
		b, err := os.ReadFile(o.entries)
		if err != nil {
			return nil, fmt.Errorf("failed to read %s: %w", o.entries, err)
		}
		var raw []json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			return nil, usageErrorf("--entries %s: want a JSON array of entries: %v", o.entries, err)
		}
		for i, r := range raw {
			var e commitlog.Entry
			if err := json.Unmarshal(r, &e); err != nil {
				return nil, usageErrorf("--entries %s: entry %d: %v", o.entries, i+1, err)
			}
			enc, err := e.Marshal()
			if err != nil {
				return nil, usageErrorf("--entries %s: entry %d: %v", o.entries, i+1, err)
			}
			out = append(out, enc)
		}
	}
	if len(out) == 0 {
		return nil, usageErrorf("no entries: give --entry FILE or --entries FILE.json")
	}
	return out, nil
}

func runCommitlogAppend(cmd *cobra.Command, dir string, o commitlogAppendOptions) error {
	quietTessera()
	key, err := readLogPrivateKey(o.key)
	if err != nil {
		return err
	}
	entries, err := loadAppendEntries(o)
	if err != nil {
		return err
	}
	origin := o.origin
	cpPath := filepath.Join(dir, layout.CheckpointPath)
	if raw, err := os.ReadFile(cpPath); err == nil {
		cp, err := commitlog.ParseCheckpoint(raw, origin, key.Public().(ed25519.PublicKey))
		if err != nil {
			return usageErrorf("%s: %v; is --key the log's key (and --origin its origin)?", cpPath, err)
		}
		origin = cp.Origin
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	} else if origin == "" {
		return usageErrorf("--origin: required for a new log (%s has no checkpoint)", dir)
	}
	res, err := commitlog.Append(cmd.Context(), dir, origin, key, entries)
	if err != nil {
		return err
	}
	out := commitlogAppendResult{Log: dir, Origin: origin, Indices: res.Indices, Size: res.Checkpoint.Size, Root: hex.EncodeToString(res.Checkpoint.Root[:])}
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictOK, out)
	}
	idx := make([]string, len(out.Indices))
	for i, x := range out.Indices {
		idx[i] = fmt.Sprint(x)
	}
	_, err = fmt.Fprintf(w, "appended %d entries to %s: indices %s\ncheckpoint: %s, size %d, root %s\n", len(entries), dir, strings.Join(idx, " "), origin, out.Size, out.Root)
	return err
}

// --- checkpoint

type commitlogReadOptions struct {
	key, origin string
	index       int64
	entry, old  string
	asJSON      bool
}

func addReadFlags(cmd *cobra.Command, o *commitlogReadOptions) {
	f := cmd.Flags()
	f.StringVar(&o.key, "key", "", "the log's Ed25519 public key `PUB` (PEM)")
	f.StringVar(&o.origin, "origin", "", "the origin the checkpoint must name (default: its first line)")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("key")
}

type commitlogCheckpointResult struct {
	Log         string `json:"log"`
	Origin      string `json:"origin"`
	Size        uint64 `json:"size"`
	Root        string `json:"root"`
	VerifierKey string `json:"verifier_key"`
	Verified    bool   `json:"verified"`
	Problem     string `json:"problem,omitempty"`
}

func newCommitlogCheckpointCmd() *cobra.Command {
	var o commitlogReadOptions
	cmd := &cobra.Command{
		Use:   "checkpoint LOG --key PUB",
		Short: "Verify the log's checkpoint and print its size and root",
		Long: `Read the checkpoint of the log LOG (a directory or an http(s) base URL), verify
its signature with the Ed25519 public key PUB (PEM PKIX) under the log's
origin, and print the origin, tree size, root hash and the C2SP verifier key.

Exit codes: 0 verified; 3 the signature does not verify (another key or
origin, a changed checkpoint); 2 usage; 1 the log cannot be read.`,
		Example: `  fairhold commitlog checkpoint log --key operator.pub
  fairhold commitlog checkpoint https://casino.example/commitments/ --key operator.pub --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runCommitlogCheckpoint(cmd, args[0], o) },
	}
	addReadFlags(cmd, &o)
	return cmd
}

// openLog opens LOG and verifies its checkpoint; a checkpoint that does
// not verify is exit 3.
func openLog(ctx context.Context, loc string, o commitlogReadOptions) (*commitlog.Reader, *commitlog.Checkpoint, ed25519.PublicKey, error) {
	pub, err := readLogPublicKey(o.key)
	if err != nil {
		return nil, nil, nil, err
	}
	r, err := commitlog.Open(loc, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	cp, err := r.Checkpoint(ctx, o.origin, pub)
	if errors.Is(err, commitlog.ErrVerification) {
		return nil, nil, nil, verificationFailed(fmt.Errorf("%s: %w", loc, err))
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", loc, err)
	}
	return r, cp, pub, nil
}

func runCommitlogCheckpoint(cmd *cobra.Command, loc string, o commitlogReadOptions) error {
	_, cp, pub, err := openLog(cmd.Context(), loc, o)
	if err != nil {
		return err
	}
	vkey, err := commitlog.VerifierKey(cp.Origin, pub)
	if err != nil {
		return err
	}
	res := commitlogCheckpointResult{Log: loc, Origin: cp.Origin, Size: cp.Size, Root: hex.EncodeToString(cp.Root[:]), VerifierKey: vkey, Verified: true}
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictVerified, res)
	}
	_, err = fmt.Fprintf(w, "verified checkpoint of %s\norigin: %s\nsize:   %d\nroot:   %s\nkey:    %s\n", loc, res.Origin, res.Size, res.Root, vkey)
	return err
}

// --- prove

type commitlogProofResult struct {
	Log      string   `json:"log"`
	Origin   string   `json:"origin"`
	Index    uint64   `json:"index"`
	Size     uint64   `json:"size"`
	Root     string   `json:"root"`
	Entry    string   `json:"entry"`
	LeafHash string   `json:"leaf_hash"`
	Proof    []string `json:"proof"`
	Verified bool     `json:"verified"`
}

func newCommitlogProveCmd() *cobra.Command {
	var o commitlogReadOptions
	cmd := &cobra.Command{
		Use:   "prove LOG --key PUB --index N",
		Short: "Print entry N, its leaf hash and its inclusion proof, built from the tiles",
		Long: `Verify the log's checkpoint, read entry N from its entry bundle, build the
entry's inclusion proof from the tiles (RFC 6962 audit path, docs/commitment-log.md
section 6) and check it against the checkpoint's root before printing it.

Exit codes: 0 proved; 3 the checkpoint or the proof does not verify; 2 usage
(an index outside the tree); 1 the log cannot be read.`,
		Example: `  fairhold commitlog prove log --key operator.pub --index 17 --json`,
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return runCommitlogProve(cmd, args[0], o) },
	}
	addReadFlags(cmd, &o)
	cmd.Flags().Int64Var(&o.index, "index", -1, "the entry's index `N` (0-based)")
	_ = cmd.MarkFlagRequired("index")
	return cmd
}

func checkIndex(o commitlogReadOptions, cp *commitlog.Checkpoint) error {
	if o.index < 0 || uint64(o.index) >= cp.Size {
		return usageErrorf("--index %d: the log's checkpoint covers entries 0..%d", o.index, int64(cp.Size)-1)
	}
	return nil
}

func runCommitlogProve(cmd *cobra.Command, loc string, o commitlogReadOptions) error {
	ctx := cmd.Context()
	r, cp, _, err := openLog(ctx, loc, o)
	if err != nil {
		return err
	}
	if err := checkIndex(o, cp); err != nil {
		return err
	}
	i := uint64(o.index)
	entry, err := r.Entry(ctx, cp, i)
	if err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	p, err := r.InclusionProof(ctx, cp, i)
	if err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	if err := commitlog.VerifyInclusion(cp, i, entry, p); err != nil {
		return verificationFailed(fmt.Errorf("%s: %w", loc, err))
	}
	leaf := commitlog.LeafHash(entry)
	res := commitlogProofResult{Log: loc, Origin: cp.Origin, Index: i, Size: cp.Size, Root: hex.EncodeToString(cp.Root[:]),
		Entry: string(entry), LeafHash: hex.EncodeToString(leaf[:]), Proof: []string{}, Verified: true}
	for _, h := range p {
		res.Proof = append(res.Proof, hex.EncodeToString(h))
	}
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictVerified, res)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "entry %d of %s (tree size %d, root %s)\n", i, cp.Origin, cp.Size, res.Root)
	fmt.Fprintf(&b, "leaf hash: %s\n", res.LeafHash)
	for k, h := range res.Proof {
		fmt.Fprintf(&b, "proof[%d]: %s\n", k, h)
	}
	b.WriteString("--- entry\n")
	b.Write(entry)
	_, err = w.Write(b.Bytes())
	return err
}

// --- verify-inclusion

type commitlogVerifyResult struct {
	Log      string `json:"log"`
	Origin   string `json:"origin"`
	Index    uint64 `json:"index"`
	Size     uint64 `json:"size"`
	Entry    string `json:"entry"`
	Verified bool   `json:"verified"`
	Problem  string `json:"problem,omitempty"`
}

func newCommitlogVerifyInclusionCmd() *cobra.Command {
	var o commitlogReadOptions
	cmd := &cobra.Command{
		Use:   "verify-inclusion LOG --key PUB --index N --entry FILE",
		Short: "Verify from the tiles alone that FILE is entry N of the log",
		Long: `Verify the log's checkpoint, build the inclusion proof of index N from the
tiles, and check that the entry FILE (its canonical encoding) hashes to leaf N
of the checkpoint's tree (docs/commitment-log.md section 7). The entry bundles
are not read: a verifier trusts only the signed checkpoint and the hashes.

Exit codes: 0 included; 3 not included (other bytes at N, a tile that does not
match the root) or the checkpoint does not verify; 2 usage (FILE is not a
canonical entry, N outside the tree); 1 the log cannot be read.`,
		Example: `  fairhold commitlog verify-inclusion https://casino.example/commitments/ --key operator.pub --index 17 --entry seed-17.txt`,
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return runCommitlogVerifyInclusion(cmd, args[0], o) },
	}
	addReadFlags(cmd, &o)
	cmd.Flags().Int64Var(&o.index, "index", -1, "the entry's index `N` (0-based)")
	cmd.Flags().StringVar(&o.entry, "entry", "", "the entry `FILE`, canonical encoding")
	_ = cmd.MarkFlagRequired("index")
	_ = cmd.MarkFlagRequired("entry")
	return cmd
}

func runCommitlogVerifyInclusion(cmd *cobra.Command, loc string, o commitlogReadOptions) error {
	ctx := cmd.Context()
	entry, err := os.ReadFile(o.entry)
	if err != nil {
		return fmt.Errorf("failed to read %s: %w", o.entry, err)
	}
	if _, err := commitlog.Unmarshal(entry); err != nil {
		return usageErrorf("--entry %s: %v", o.entry, err)
	}
	r, cp, _, err := openLog(ctx, loc, o)
	if err != nil {
		return err
	}
	if err := checkIndex(o, cp); err != nil {
		return err
	}
	res := commitlogVerifyResult{Log: loc, Origin: cp.Origin, Index: uint64(o.index), Size: cp.Size, Entry: o.entry, Verified: true}
	verr := r.VerifyEntry(ctx, cp, res.Index, entry)
	if verr != nil && !errors.Is(verr, commitlog.ErrVerification) {
		return fmt.Errorf("%s: %w", loc, verr)
	}
	w := cmd.OutOrStdout()
	if verr != nil {
		res.Verified, res.Problem = false, verr.Error()
	}
	if o.asJSON {
		if err := writeResult(w, verdictOf(res.Verified, verdictVerified), res); err != nil {
			return err
		}
		if !res.Verified {
			return errVerificationFailed
		}
		return nil
	}
	if verr != nil {
		return verificationFailed(fmt.Errorf("%s is not entry %d of %s: %w", o.entry, res.Index, loc, verr))
	}
	_, err = fmt.Fprintf(w, "verified  %s is entry %d of %s (tree size %d)\n", o.entry, res.Index, cp.Origin, cp.Size)
	return err
}

// --- consistency

type commitlogConsistencyResult struct {
	Log      string `json:"log"`
	Origin   string `json:"origin"`
	OldSize  uint64 `json:"old_size"`
	Size     uint64 `json:"size"`
	Verified bool   `json:"verified"`
}

func newCommitlogConsistencyCmd() *cobra.Command {
	var o commitlogReadOptions
	cmd := &cobra.Command{
		Use:   "consistency LOG --key PUB --old CHECKPOINT",
		Short: "Verify that the log only grew since a checkpoint saved earlier",
		Long: `Verify the log's current checkpoint and an older one saved earlier (the file
CHECKPOINT, as read from LOG/checkpoint), both signed by PUB, then build the
consistency proof between them from the tiles and check it: the old tree is a
prefix of the current one (docs/commitment-log.md section 6).

Exit codes: 0 consistent; 3 not consistent (the log was rewritten) or a
checkpoint does not verify; 1 the log cannot be read; 2 usage.`,
		Example: `  fairhold commitlog consistency log --key operator.pub --old yesterday.checkpoint`,
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return runCommitlogConsistency(cmd, args[0], o) },
	}
	addReadFlags(cmd, &o)
	cmd.Flags().StringVar(&o.old, "old", "", "an earlier checkpoint `FILE` of the log")
	_ = cmd.MarkFlagRequired("old")
	return cmd
}

func runCommitlogConsistency(cmd *cobra.Command, loc string, o commitlogReadOptions) error {
	ctx := cmd.Context()
	r, cp, pub, err := openLog(ctx, loc, o)
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(o.old)
	if err != nil {
		return fmt.Errorf("failed to read %s: %w", o.old, err)
	}
	old, err := commitlog.ParseCheckpoint(raw, cp.Origin, pub)
	if err != nil {
		return verificationFailed(fmt.Errorf("--old %s: %w", o.old, err))
	}
	if old.Size > cp.Size {
		return verificationFailed(fmt.Errorf("--old %s has %d entries, the log's checkpoint %d: the log shrank", o.old, old.Size, cp.Size))
	}
	p, err := r.ConsistencyProof(ctx, old.Size, cp)
	if err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	if err := commitlog.VerifyConsistency(old, cp, p); err != nil {
		return verificationFailed(fmt.Errorf("%s: %w", loc, err))
	}
	res := commitlogConsistencyResult{Log: loc, Origin: cp.Origin, OldSize: old.Size, Size: cp.Size, Verified: true}
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictVerified, res)
	}
	_, err = fmt.Fprintf(w, "verified  %s grew from %d to %d entries, consistently\n", cp.Origin, old.Size, cp.Size)
	return err
}
