package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/replayer"
)

// shardSpec reads --shard and --shard-from-env; sharded is false when
// neither is given.
func shardSpec(o replayOptions) (spec replayer.ShardSpec, sharded bool, err error) {
	flag := "--shard"
	switch {
	case o.shard != "" && o.shardFromEnv != 0:
		return spec, false, usageErrorf("--shard and --shard-from-env: give one")
	case o.shard != "":
		spec, err = replayer.ParseShard(o.shard, os.Getenv)
	case o.shardFromEnv != 0:
		flag = "--shard-from-env"
		spec, err = replayer.ShardFromEnv(o.shardFromEnv, os.Getenv)
	default:
		if o.partOut != "" {
			return spec, false, usageErrorf("--part-out needs --shard I/N or --shard-from-env N")
		}
		return spec, false, nil
	}
	if err != nil {
		return spec, false, usageError(fmt.Errorf("%s: %w", flag, err))
	}
	switch {
	case o.partOut == "":
		return spec, false, usageErrorf("--shard: --part-out PART is needed (the shard's result, for 'fairhold merge')")
	case checkOutputFile("--part-out", o.partOut) != nil:
		return spec, false, checkOutputFile("--part-out", o.partOut)
	case o.findings != "" || o.format != "":
		return spec, false, usageErrorf("--findings with --shard: the findings are written by 'fairhold merge --findings'")
	case o.heap != "":
		return spec, false, usageErrorf("--memprofile with --shard is not supported")
	}
	return spec, true, nil
}

// shardConfig describes the options that change a replay's results, for
// the parts: the rules profile given (its file's SHA-256 for a file) and
// the currencies declared.
func shardConfig(o replayOptions) (string, []string) {
	cfg := "profile=" + o.profile
	if o.profile != "" {
		if b, err := os.ReadFile(o.profile); err == nil {
			s := sha256.Sum256(b)
			cfg += " sha256=" + hex.EncodeToString(s[:])
		}
	}
	cur := slices.Clone(o.currencies)
	slices.Sort(cur)
	return cfg, cur
}

// shardResult is what `replay --shard --json` prints.
type shardResult struct {
	Shard   string  `json:"shard"`
	Units   int     `json:"units"`
	Rounds  int64   `json:"rounds"`
	Part    string  `json:"part"`
	Seconds float64 `json:"seconds"`
}

func runShard(cmd *cobra.Command, ds replayer.Dataset, opts replayer.Options, spec replayer.ShardSpec, o replayOptions, args []string) error {
	af, err := atomicfile.Create(o.partOut)
	if err != nil {
		return fmt.Errorf("--part-out: %w", err)
	}
	defer af.Abort()
	tracesPath := o.partOut + replayer.TracesSuffix
	tf, err := atomicfile.Create(tracesPath)
	if err != nil {
		return fmt.Errorf("--part-out: %w", err)
	}
	defer tf.Abort()
	cfg, cur := shardConfig(o)
	meta := replayer.PartMeta{Tool: version, Inputs: args, Config: cfg, Currencies: cur}
	opts.Findings = nil
	bar := newProgress(cmd, "replay "+spec.String(), 0)
	opts.Progress = bar.Add
	res, err := replayer.ReplayShard(ds, opts, spec, meta, af, tf)
	bar.Done()
	if err != nil {
		return err
	}
	// The traces file first: a part is never without its traces.
	if err := tf.Commit(); err != nil {
		return fmt.Errorf("failed to write %s: %w", tracesPath, err)
	}
	if err := af.Commit(); err != nil {
		return fmt.Errorf("failed to write %s: %w", o.partOut, err)
	}
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictOK, shardResult{Shard: spec.String(), Units: res.Units, Rounds: res.Rounds, Part: o.partOut, Seconds: res.Seconds})
	}
	fmt.Fprintf(w, "shard %s: %d units, %d rounds (%.1f s); part written to %s and its traces to %s (merge every shard's part with 'fairhold merge')\n",
		spec, res.Units, res.Rounds, res.Seconds, o.partOut, tracesPath)
	return nil
}

type mergeOptions struct {
	asJSON       bool
	replayTraces bool
	findings     string
	format       string // --findings-format
	manifest     string
}

func newMergeCmd() *cobra.Command {
	var o mergeOptions
	cmd := &cobra.Command{
		Use:   "merge PART...",
		Short: "Merge the parts of a sharded replay into the replay's summary and findings",
		Long: `Merge the parts written by 'fairhold replay --shard I/N --part-out PART', one per
shard, into the summary and findings of the whole replay: the same summary and the
same findings file, byte for byte, as an unsharded 'fairhold replay' of the same
dataset with the same options (the summary's "seconds" apart). See docs/sharding.md.

The merge completes the checks that span shards (table numbering, seed sessions,
hash chains, client seeds, wallets, round ids) from the parts' boundary state. Where
a boundary does not connect (a cheat there, or a finding of those checks after the
first shard's range), it replays the shards' traces instead, from PART.traces beside
each part: the result is the same either way; stderr says which it did, and
--replay-traces replays them always. A traces file that is needed and missing is
exit 1; altered, exit 2.

The parts must cover the dataset exactly once: one part for each shard 0..N-1, all
written by the same fairhold version and options over the same dataset (the same
manifest and files, each listed file hashed by its shard). A part missing or given
twice, a part of another dataset or manifest, or of another run, is an error naming
it (exit 3). With --manifest, a part whose dataset's manifest.json is not that file
is stale (exit 3). The manifest is a local path or a URL that replay reads, with
the same credentials: s3://BUCKET/PREFIX/manifest.json, the bucket's options as a
query (gs:// and azblob:// in builds with those tags: docs/scale-out.md); one that
cannot be read is an error naming it (exit 1). A file that is not a part, or whose
bytes do not match its digest (truncated or altered), exits 2; a part that cannot
be read, 1.

Exit codes: 0 no findings, 3 findings or parts not covering the dataset exactly
once, 1 unreadable part or manifest, 2 usage or malformed part.`,
		Example: `  fairhold merge part-*.fhpart --json --findings findings.parquet
  fairhold merge part-*.fhpart --findings findings.csv
  fairhold merge parts/*.fhpart --manifest day/manifest.json
  fairhold merge parts/*.fhpart --manifest 's3://logs/2026-11/manifest.json?region=eu-west-1'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd, args, o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.asJSON, "json", false, "print the summary as JSON")
	addFindingsFlags(cmd, &o.findings, &o.format)
	f.BoolVar(&o.replayTraces, "replay-traces", false, "replay the shards' traces (PART.traces) even where the merge can complete their boundary state: slower, the same result")
	f.StringVar(&o.manifest, "manifest", "", "the dataset's manifest.json now, a `PATH` or URL (s3://...): a part that read another is stale")
	return cmd
}

func runMerge(cmd *cobra.Command, args []string, o mergeOptions) error {
	if err := checkFindingsFlags(o.findings, o.format); err != nil {
		return err
	}
	var chk replayer.MergeCheck
	if o.manifest != "" {
		sum, err := manifestSHA256(cmd.Context(), o.manifest)
		if err != nil {
			return err
		}
		chk.ManifestSHA256 = sum
	}
	ps, err := replayer.OpenParts(args, chk)
	if err != nil {
		var pe *replayer.PartError
		var ce *replayer.CoverageError
		switch {
		case errors.As(err, &ce):
			return &exitErr{code: exitVerified, err: fmt.Errorf("merge: %w", err)}
		case errors.As(err, &pe):
			return usageError(fmt.Errorf("merge: %w", err))
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("merge: %w", err)
		}
		return fmt.Errorf("merge: cannot read a part: %w", err)
	}
	defer ps.Close()
	ps.ReplayTraces = o.replayTraces
	hd := ps.Header()
	currencies, err := currency.TableOf(hd.Currencies)
	if err != nil {
		return usageError(fmt.Errorf("merge: the parts' --currency: %w", err))
	}
	var fw *replayer.FindingsWriter
	if o.findings != "" {
		if fw, err = replayer.CreateFindingsWith(o.findings, replayer.FindingsOptions{Format: o.format, Currencies: currencies}); err != nil {
			return err
		}
	}
	const sampleMax = 20
	var sample []finding.Finding
	opts := replayer.Options{
		Config:     &audit.Config{},
		Currencies: currencies,
		Findings: func(f *finding.Finding) error {
			if len(sample) < sampleMax {
				sample = append(sample, *f)
			}
			if fw != nil {
				return fw.Write(f)
			}
			return nil
		},
	}
	bar := newProgress(cmd, "merge", ps.Rounds())
	opts.Progress = bar.Add
	sum, err := ps.Merge(opts)
	bar.Done()
	if fw != nil {
		if err != nil {
			fw.Abort()
		} else if cerr := fw.Close(); cerr != nil {
			err = fmt.Errorf("failed to write %s: %w", o.findings, cerr)
		}
	}
	if err != nil {
		var pe *replayer.PartError
		if errors.As(err, &pe) {
			return usageError(fmt.Errorf("merge: %w", err))
		}
		return err
	}
	// How the checks that span shards were completed (docs/sharding.md).
	switch {
	case ps.Fallback == "":
		fmt.Fprintln(cmd.ErrOrStderr(), "merge: the shards' boundary state completed; no trace replayed")
	case o.replayTraces:
		fmt.Fprintln(cmd.ErrOrStderr(), "merge: the traces replayed (--replay-traces)")
	default:
		fmt.Fprintln(cmd.ErrOrStderr(), "merge: the traces replayed, as the boundary state could not be completed:", ps.Fallback)
	}
	var damage []string
	for _, d := range hd.Dataset.Damage {
		damage = append(damage, strings.TrimSpace(d.File+": "+d.Detail))
	}
	return finishReplay(cmd, sum, damage, sample, replayOptions{asJSON: o.asJSON, findings: o.findings}, currencies)
}

// manifestSHA256 returns the SHA-256 of the file named by --manifest: a
// local path, or a URL that replay accepts (s3://bucket/day/manifest.json,
// with the bucket's options as a query), read through the same source.
func manifestSHA256(ctx context.Context, name string) (string, error) {
	src, names, err := openSource(ctx, []string{name})
	if err != nil {
		return "", fmt.Errorf("--manifest: %w", err)
	}
	defer closeSource(src)
	f, err := src.Open(names[0])
	if err != nil {
		return "", fmt.Errorf("--manifest: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("--manifest: %s: %w", names[0], err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
