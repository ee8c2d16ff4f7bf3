package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/replayer"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/source/blobsrc"
)

// replayMemoryLimit is the soft memory limit of a replay (GOMEMLIMIT
// overrides it).
const replayMemoryLimit = 270 << 20

type replayOptions struct {
	profile    string
	workers    int
	asJSON     bool
	findings   string
	format     string // --findings-format
	heap       string
	currencies []string
	key        string

	// Sharding (docs/sharding.md).
	shard        string
	shardFromEnv int
	partOut      string

	commitLog commitLogFlags
}

func newReplayCmd() *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay PATH...",
		Short: "Verify round logs: re-deal every round from its seeds and re-settle every bet",
		Long: `Replay round logs (dataset directories of Parquet or JSON Lines parts, or single
files) and check every round: the commitment, chain link and beacon of its seeds, its cards
re-dealt from the seeds, every bet re-settled under the rules profile, the
limits and the balances; then across rounds the seed lifecycle, nonce reuse,
duplicate round ids, time order and each player's balance continuity.

Each problem is a finding with a code (docs/findings.md), a severity, the
round (its id, time, table and game), the file and row, and the expected and
actual values. --findings writes them all, as Parquet, JSON Lines or CSV for a
spreadsheet (by the file's extension, .parquet, .jsonl or .csv, or
--findings-format); the same input gives the same findings file and the same
summary, byte for byte, whatever --workers is, except the summary's "seconds".
Amounts are shown in units of their currency ("EUR 1,234.50").

Rounds are settled under the profile each round names (a built-in profile),
or under --profile for every round.

Totals are kept per game, currency and bet type, never added across
currencies. ISO 4217 codes and the common crypto currencies (BTC 8 decimals,
ETH 9 (gwei), USDT 6, ...) are known; --currency CODE:DECIMALS declares
another one, or another unit for a known one (ETH:18 for wei).

A dataset directory's manifest.json is checked first: a part it lists that is
missing, altered or truncated, or a part it does not list, is a finding, and
so is a manifest that cannot be read or, with --manifest-key, is not signed
by that key. Without a manifest the summary warns that the dataset's
completeness could not be checked.

With --commitment-log LOG --log-key PUB.pem, every seed session (a server seed,
or a hash chain) is checked against the operator's commitment log
(docs/commitment-log.md): its commitment is in the log, bound to the session
(table, player, first nonce, scheme, beacon), public before its first round by
the cosignatures of the witnesses given (--witness-key, --witness-quorum) or the
time-stamps of the TSAs given (--tsa-cert), and each table used its published
commitments in order; the log must verify and extend every --log-checkpoint
kept earlier (docs/replay.md, "Commitment log"). Without it, the summary's
not_checked lists these checks. Not with --shard yet.

A PATH may be an object-storage URL, s3://BUCKET/PREFIX, read by ranged
requests with the credentials of the standard environment (AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL, ...); an S3-compatible
server's options go in the query:
s3://logs/day?endpoint=http://127.0.0.1:9000&use_path_style=true
A binary built with the tags gcs and azblob also reads gs://BUCKET/PREFIX and
azblob://CONTAINER/PREFIX (docs/scale-out.md).

With --shard I/N --part-out PART, the replay checks only shard I (from 0) of N
contiguous ranges of the dataset's rounds files and writes PART (its findings,
totals and boundary state) and PART.traces beside it for 'fairhold merge', which
gives the summary and findings of the whole replay (docs/sharding.md).
--shard auto/N, or --shard-from-env N, takes I from the environment:
JOB_COMPLETION_INDEX (Kubernetes Indexed Job), AWS_BATCH_JOB_ARRAY_INDEX,
SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN). Run every shard with the
same PATH arguments and options.

Exit codes: 0 no findings (a shard: its part written), 3 findings, 1 unreadable
input, 2 usage.`,
		Example: `  fairhold replay day/ --json
  fairhold replay day/ --workers 2 --findings findings.parquet
  fairhold replay day/ --findings findings.csv   # for a spreadsheet
  fairhold replay crypto-day/ --currency ETH:18 --currency SHIB:2
  fairhold replay day/ --manifest-key operator.pub.pem
  fairhold replay day/ --commitment-log log/ --log-key log.pub.pem --witness-key witness.vkey --log-checkpoint kept.cp
  fairhold replay day/ --shard 0/4 --part-out part-0.fhpart   # then: fairhold merge part-*.fhpart`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if done, err := replayExplain(cmd, args); done {
				return err
			}
			return runReplay(cmd, args, o)
		},
	}
	addReplayExplainFlags(cmd)
	f := cmd.Flags()
	f.StringVar(&o.profile, "profile", "", "rules profile for every round: a built-in name or a JSON file (default: the profile each round names)")
	f.IntVar(&o.workers, "workers", 0, "number of workers (default: the number of CPUs)")
	f.BoolVar(&o.asJSON, "json", false, "print the summary (with --explain: the link) as JSON")
	addFindingsFlags(cmd, &o.findings, &o.format)
	f.StringVar(&o.heap, "memprofile", "", "write a heap profile taken half-way through the replay to `FILE` (go tool pprof)")
	f.StringArrayVar(&o.currencies, "currency", nil, "declare a currency's decimals, `CODE:DECIMALS` (repeatable), e.g. ETH:18")
	f.StringVar(&o.key, "manifest-key", "", "require each dataset's manifest.json to be signed by the Ed25519 public key in `PUB.pem` (PEM PKIX)")
	f.StringVar(&o.shard, "shard", "", "replay shard `I/N` only (I from 0; auto/N: I from the environment) and write --part-out for 'fairhold merge'")
	f.IntVar(&o.shardFromEnv, "shard-from-env", 0, "replay shard I of `N`, I from JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX or SLURM_ARRAY_TASK_ID (as --shard auto/N)")
	f.StringVar(&o.partOut, "part-out", "", "with --shard: write the shard's part to `PART`, and its traces to PART.traces")
	addCommitLogFlags(cmd, &o.commitLog)
	return cmd
}

func runReplay(cmd *cobra.Command, args []string, o replayOptions) error {
	if o.workers < 0 {
		return usageErrorf("--workers %d: want 0 (the number of CPUs) or more", o.workers)
	}
	spec, sharded, err := shardSpec(o)
	if err != nil {
		return err
	}
	if sharded && o.commitLog.given() {
		return usageErrorf("--commitment-log with --shard: not supported yet (docs/replay.md, \"Commitment log\"); replay the dataset whole to check it against the log")
	}
	var declaredProfile *profile.Profile
	if o.profile != "" {
		p, err := profile.Load(o.profile)
		if err != nil {
			return usageError(err)
		}
		declaredProfile = p
	}
	if err := checkFindingsFlags(o.findings, o.format); err != nil {
		return err
	}
	if o.heap != "" {
		if err := checkOutputFile("--memprofile", o.heap); err != nil {
			return err
		}
	}
	currencies, err := currency.TableOf(o.currencies)
	if err != nil {
		return usageError(fmt.Errorf("--currency: %w", err))
	}
	var key ed25519.PublicKey
	if o.key != "" {
		var err error
		if key, err = manifest.LoadPublicKey(o.key); err != nil {
			return usageError(fmt.Errorf("--manifest-key: %w", err))
		}
		for _, a := range args {
			if st, err := os.Stat(a); err == nil && !st.IsDir() && !blobsrc.IsURL(a) {
				return usageErrorf("--manifest-key: %s is a file; a signed manifest belongs to a dataset directory", a)
			}
		}
	}
	commitLog, err := o.commitLog.load(cmd.Context())
	if err != nil {
		return err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// Keep the heap near what the row groups in flight need instead of
		// letting it grow to twice the live data between collections.
		debug.SetMemoryLimit(replayMemoryLimit)
	}
	rules, err := audit.NewRulebook(declaredProfile)
	if err != nil {
		return err
	}
	src, args, err := openSource(cmd.Context(), args)
	if err != nil {
		return err
	}
	defer closeSource(src)
	ds, err := roundlog.OpenFrom(src, args...)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("replay: %w", err)
		}
		return fmt.Errorf("replay: cannot read the input: %w", err)
	}
	defer ds.Close()

	var fw *replayer.FindingsWriter
	if o.findings != "" {
		if fw, err = replayer.CreateFindingsWith(o.findings, replayer.FindingsOptions{Format: o.format, Currencies: currencies}); err != nil {
			return err
		}
	}
	// Without a findings file, the first findings are printed as a sample.
	const sampleMax = 20
	var sample []finding.Finding
	opts := replayer.Options{
		Workers:    o.workers,
		Config:     &audit.Config{Dealers: audit.SchemeDealers{}, Rules: rules, Double: audit.DoubleEngine{Rules: rules}},
		Currencies: currencies,
		Manifests:  replayer.LoadManifestsFrom(src, args, key),
		CommitLog:  commitLog,
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
	var hf *atomicfile.File
	if o.heap != "" {
		if hf, err = atomicfile.Create(o.heap); err != nil {
			if fw != nil {
				fw.Abort()
			}
			return usageError(fmt.Errorf("--memprofile: %w", err))
		}
		defer hf.Abort()
		opts.HeapProfile = hf
	}
	if sharded {
		return runShard(cmd, ds, opts, spec, o, args)
	}
	bar := newProgress(cmd, "replay", ds.Rounds())
	opts.Progress = bar.Add
	sum, err := replayer.Replay(ds, opts)
	bar.Done()
	if fw != nil {
		if err != nil {
			fw.Abort()
		} else if cerr := fw.Close(); cerr != nil {
			err = fmt.Errorf("failed to write %s: %w", o.findings, cerr)
		}
	}
	if hf != nil && err == nil {
		if cerr := hf.Commit(); cerr != nil {
			err = fmt.Errorf("--memprofile: %w", cerr)
		}
	}
	if err != nil {
		return err
	}
	var damage []string
	for _, d := range ds.Damage() {
		damage = append(damage, d.Error())
	}
	return finishReplay(cmd, sum, damage, sample, o, currencies)
}

// addFindingsFlags adds --findings and --findings-format (replay and
// merge).
func addFindingsFlags(cmd *cobra.Command, findings, format *string) {
	f := cmd.Flags()
	f.StringVar(findings, "findings", "", "write every finding to this file (.parquet, .jsonl or .csv: docs/findings.md)")
	f.StringVar(format, "findings-format", "", "the --findings file's `FORMAT`: parquet, jsonl or csv (RFC 4180, for a spreadsheet) (default: its name's extension)")
}

// checkFindingsFlags checks --findings and --findings-format before
// anything is read: a format that is unknown, or that the file's name
// contradicts, is a usage error, and so is --findings-format alone.
func checkFindingsFlags(findings, format string) error {
	if findings == "" {
		if format != "" {
			return usageErrorf("--findings-format %s: give the file too, --findings FILE", format)
		}
		return nil
	}
	if _, err := replayer.FindingsFormatOf(findings, format); err != nil {
		return usageError(fmt.Errorf("--findings: %w", err))
	}
	return checkOutputFile("--findings", findings)
}

// finishReplay prints the summary of a replay, or of a merge of shards'
// parts, and returns the command's result. currencies gives the decimals
// of the amounts printed.
func finishReplay(cmd *cobra.Command, sum *replayer.Summary, damage []string, sample []finding.Finding, o replayOptions, currencies *currency.Table) error {
	if sum.Rounds == 0 && len(damage) > 0 {
		for _, d := range damage {
			fmt.Fprintln(cmd.ErrOrStderr(), "fairhold: replay:", d)
		}
		return &exitErr{code: exitError, err: errors.New("replay: no round could be read")}
	}
	w := cmd.OutOrStdout()
	if o.asJSON {
		verdict := verdictOK
		if sum.FindingsTotal() > 0 {
			verdict = verdictFindings
		}
		if err := writeResult(w, verdict, sum); err != nil {
			return err
		}
	} else {
		printReplaySummary(w, sum, sample, o.findings, currencies)
	}
	if sum.FindingsTotal() > 0 {
		return errVerificationFailed
	}
	return nil
}

func printReplaySummary(w io.Writer, s *replayer.Summary, sample []finding.Finding, findingsFile string, currencies *currency.Table) {
	fmt.Fprintf(w, "rounds:    %d (%.1f s, %.0f rounds/s)\n", s.Rounds, s.Seconds, float64(s.Rounds)/max(s.Seconds, 1e-9))
	for _, g := range sortedKeys(s.Wagered) {
		fmt.Fprintf(w, "%s: %d rounds\n", g, s.Games[g])
		for _, code := range sortedKeys(s.Wagered[g]) {
			c := s.Currencies[code]
			unit := fmt.Sprintf("%d decimals, %s", c.Decimals, c.Source)
			if c.Decimals < 0 {
				unit = "decimals unknown: minor units"
			}
			fmt.Fprintf(w, "  %s (%s)\n", code, unit)
			for _, b := range sortedKeys(s.Wagered[g][code]) {
				fmt.Fprintf(w, "    %-9s wagered %s  returned %s  rtp %.4f%%\n", b,
					money.FormatIn(currencies, s.Wagered[g][code][b], code), money.FormatIn(currencies, s.Returned[g][code][b], code), 100*s.RTP[g][code][b])
			}
		}
	}
	for _, v := range s.Voids {
		if v.Voids == 0 {
			continue
		}
		fmt.Fprintf(w, "voids:     table %s (%s): %d of %d rounds (%.3f%%)", v.Table, v.Game, v.Voids, v.Rounds, 100*v.Rate)
		for _, r := range sortedKeys(v.Reasons) {
			fmt.Fprintf(w, ", %s %d", r, v.Reasons[r].Voids)
		}
		if t := v.Test; t != nil {
			fmt.Fprintf(w, "; as if played %d of %d won (played rounds %.1f%%), p = %.2g", v.ResettledWon, v.Resettled, 100*t.PlayedRate, t.P)
		}
		fmt.Fprintln(w)
	}
	if cl := s.CommitmentLog; cl != nil {
		fmt.Fprintf(w, "commitment log: %s, %d entries, %d timed checkpoints, %d kept; %d seed sessions\n", cl.Location, cl.Size, cl.TimedCheckpoints, cl.KeptCheckpoints, cl.Sessions)
		for _, t := range cl.Tables {
			fmt.Fprintf(w, "  table %s: %d sessions, %d logged; %d published, %d used, %d unused (%d skipped)\n", t.Table, t.Sessions, t.Logged, t.Published, t.Used, t.Unused, t.Skipped)
		}
	}
	for _, x := range s.Warnings {
		fmt.Fprintf(w, "warning:   %s\n", x)
	}
	for _, x := range s.NotChecked {
		fmt.Fprintf(w, "not checked: %s\n", x)
	}
	n := s.FindingsTotal()
	if n == 0 {
		fmt.Fprintln(w, "findings:  none")
		return
	}
	fmt.Fprintf(w, "findings:  %d\n", n)
	codes := make([]finding.Code, 0, len(s.Findings))
	for c := range s.Findings {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	for _, c := range codes {
		fmt.Fprintf(w, "  %-28s %-8s %d\n", c, finding.SeverityOf(c), s.Findings[c])
	}
	fmt.Fprintln(w, "first findings:")
	for _, f := range sample {
		switch {
		case f.RoundID == "" && f.File == "":
			// A finding about the whole log, such as a table's VOID_BIAS.
			fmt.Fprintf(w, "  the log: %s %s: expected %s, got %s", f.Code, f.Field, f.Expected, f.Actual)
		case f.RoundID == "" && f.Row < 0:
			// The dataset as a whole, or a whole file.
			fmt.Fprintf(w, "  %s: %s %s: expected %s, got %s", f.File, f.Code, f.Field, f.Expected, f.Actual)
		default:
			fmt.Fprintf(w, "  %s row %d round %s: %s %s: expected %s, got %s", f.File, f.Row, f.RoundID, f.Code, f.Field, f.Expected, f.Actual)
		}
		if f.Detail != "" {
			fmt.Fprintf(w, " (%s)", f.Detail)
		}
		if f.ExpectedAmount != nil && f.ActualAmount != nil {
			// A money finding's amounts, in units of the currency.
			fmt.Fprintf(w, " [expected %s, logged %s", money.FormatIn(currencies, *f.ExpectedAmount, f.Currency), money.FormatIn(currencies, *f.ActualAmount, f.Currency))
			if f.Difference != nil {
				fmt.Fprintf(w, ", difference %s", money.FormatIn(currencies, *f.Difference, f.Currency))
			}
			fmt.Fprint(w, "]")
		}
		fmt.Fprintln(w)
	}
	if findingsFile != "" {
		fmt.Fprintf(w, "all findings: %s\n", findingsFile)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
