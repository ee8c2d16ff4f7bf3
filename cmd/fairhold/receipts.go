package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/receipt"
	"github.com/fairhold/fairhold/replay/replayer"
	"github.com/fairhold/fairhold/replay/roundlog"
)

// defaultReceiptOperator is the key name of receipts issued without
// --operator (demos and tests).
const defaultReceiptOperator = "operator.example/receipts"

func newReceiptsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "receipts",
		Short: "Players' signed round receipts: issue them, reconcile them with a round log",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newReceiptsIssueCmd(), newReceiptsReconcileCmd())
	return cmd
}

type receiptsIssueOptions struct {
	key, operator, out string
	commitlog          string
	commitlogKey       string
	commitlogOrigin    string
	force              bool
	asJSON             bool
}

type receiptsIssueResult struct {
	Operator string `json:"operator"`
	Rounds   int64  `json:"rounds"`
	Receipts int    `json:"receipts"`
	Players  int    `json:"players"`
	Out      string `json:"out"`
	// CommitmentIndexes is the number of receipts given a commitment log
	// index.
	CommitmentIndexes int `json:"commitment_indexes"`
}

func newReceiptsIssueCmd() *cobra.Command {
	var o receiptsIssueOptions
	cmd := &cobra.Command{
		Use:   "issue LOG... --key KEY --out RDIR",
		Short: "Sign every player's receipt of every round of a round log (demos and tests)",
		Long: `Sign a receipt for every player of every round of the round logs LOG (dataset
directories or files, as fairhold replay reads them) with the operator's Ed25519
private key KEY (PEM PKCS #8, fairhold keys new), and write each player's
receipts to RDIR/PLAYER.jsonl, in log order (docs/receipts.md).

A receipt is the player's view of one round: the round, table and table_seq,
time, wallet, the commitment (and, with --commitlog, its index in the
commitment log), chain index, nonce, the player's client seed, the cards the
player was shown, their stakes, returns and balances. It is a C2SP signed note
whose key name is --operator.

A real operator signs each receipt when the round ends and gives it to the
player at once; this command signs them afterwards, from a log, for
demonstrations and tests. Its receipts are only as honest as the log it reads.

--commitlog LOG --commitlog-key PUB reads the commitment log (a directory or
URL, docs/commitment-log.md) under its checkpoint signed by PUB, and gives
each receipt the index of its commitment (or chain anchor).

RDIR is created; existing receipts files in it are not replaced unless --force.

Exit codes: 0 written; 2 usage or a log round a receipt cannot be made of (its
client seeds not one per box or seat, an id with a space); 1 I/O.`,
		Example: `  fairhold keys new --out operator
  fairhold receipts issue day --key operator.key --operator casino.example/receipts --out receipts`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReceiptsIssue(cmd, args, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.key, "key", "", "the operator's Ed25519 private key (PEM PKCS #8)")
	f.StringVar(&o.operator, "operator", defaultReceiptOperator, "the operator's key `NAME`, the receipts' operator line")
	f.StringVar(&o.out, "out", "", "write the receipts files to `RDIR`")
	f.StringVar(&o.commitlog, "commitlog", "", "the commitment `LOG` (directory or URL) whose indices the receipts give")
	f.StringVar(&o.commitlogKey, "commitlog-key", "", "the commitment log's Ed25519 public key (`PUB`, PEM PKIX)")
	f.StringVar(&o.commitlogOrigin, "commitlog-origin", "", "the commitment log's origin (default: its checkpoint's)")
	f.BoolVar(&o.force, "force", false, "replace existing receipts files")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("key")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

func runReceiptsIssue(cmd *cobra.Command, args []string, o receiptsIssueOptions) error {
	if (o.commitlog == "") != (o.commitlogKey == "") {
		return usageErrorf("--commitlog and --commitlog-key go together")
	}
	if err := checkOutputDir("--out", o.out); err != nil {
		return err
	}
	key, err := readLogPrivateKey(o.key)
	if err != nil {
		return err
	}
	s, err := receipt.NewSigner(o.operator, key)
	if err != nil {
		return usageErrorf("--operator: %v", err)
	}
	var index func(string) (uint64, bool)
	if o.commitlog != "" {
		pub, err := readLogPublicKey(o.commitlogKey)
		if err != nil {
			return err
		}
		idx, err := receipt.CommitmentIndexes(cmd.Context(), o.commitlog, o.commitlogOrigin, pub)
		if err != nil {
			return fmt.Errorf("--commitlog %s: %w", o.commitlog, err)
		}
		index = func(c string) (uint64, bool) { i, ok := idx[c]; return i, ok }
	}
	ds, err := roundlog.Open(args...)
	if err != nil {
		return fmt.Errorf("receipts issue: %w", err)
	}
	defer ds.Close()
	files := map[string]*bytes.Buffer{}
	var players []string
	res := receiptsIssueResult{Operator: o.operator, Out: o.out}
	damage, err := ds.Scan(func(rec *roundlog.Record) error {
		res.Rounds++
		ps, notes, err := receipt.IssueRound(&rec.Round, s, index)
		if err != nil {
			return usageErrorf("%s row %d: %v", rec.File, rec.Row, err)
		}
		for i, p := range ps {
			b := files[p]
			if b == nil {
				b = &bytes.Buffer{}
				files[p] = b
				players = append(players, p)
			}
			b.Write(receipt.EncodeLine(notes[i]))
			res.Receipts++
			if index != nil {
				if _, ok := index(rec.Round.Fairness.Commitment); ok {
					res.CommitmentIndexes++
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(damage) > 0 {
		return usageErrorf("receipts issue: the log is damaged: %v", damage[0])
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	names := map[string]string{}
	for _, p := range players {
		n := receipt.FileName(p)
		if q, ok := names[n]; ok {
			return usageErrorf("players %q and %q have the same receipts file name %s", q, p, n)
		}
		names[n] = p
		if err := atomicfile.Write(filepath.Join(o.out, n), files[p].Bytes(), 0o644, o.force); errors.Is(err, os.ErrExist) {
			return usageErrorf("--out: %v; refusing to replace receipts (--force to replace them)", err)
		} else if err != nil {
			return err
		}
	}
	res.Players = len(players)
	w := cmd.OutOrStdout()
	if o.asJSON {
		return writeResult(w, verdictOK, res)
	}
	_, err = fmt.Fprintf(w, "issued %d receipts of %d rounds for %d players to %s (operator %s)\n", res.Receipts, res.Rounds, res.Players, o.out, o.operator)
	return err
}

type receiptsReconcileOptions struct {
	key, operator    string
	logs             []string
	findings, format string
	asJSON           bool
}

func newReceiptsReconcileCmd() *cobra.Command {
	var o receiptsReconcileOptions
	cmd := &cobra.Command{
		Use:   "reconcile RECEIPTS... --logs LOG --key PUB",
		Short: "Reconcile players' signed receipts with a round log: every contradiction is a finding",
		Long: `Read players' receipts (RECEIPTS: receipts files, or directories whose *.jsonl
files are read), verify each with the operator's Ed25519 public key PUB (PEM
PKIX), and reconcile them with the round log LOG (--logs, repeatable: dataset
directories or files, as fairhold replay reads them) (docs/receipts.md):

  RECEIPT_ROUND_MISSING       a receipt's round is not in the log
  RECEIPT_MISMATCH            the log's round contradicts the receipt: cards,
                              client seed, nonce, table_seq, commitment, ...
  RECEIPT_AMOUNT_MISMATCH     ... or the player's stakes, returns, balance after
  RECEIPT_ROTATION_NOT_SHOWN  the log changes the player's client seed between
                              two receipts that show no such change
  RECEIPT_SESSION_SHORT       a session has fewer rounds in the log than the
                              player's receipts, or ends before the last

Each finding names the receipt's file and row (line from 0), the round, the
player, and the receipt's and the log's values (docs/findings.md); the money
findings carry the amounts. --findings writes them all (.parquet, .jsonl or
.csv), as fairhold replay does.

A receipt that is not a signed receipt, or whose signature does not verify
with PUB (or, with --operator, under that key name), is refused: the command
stops with an error naming the file and line (exit 2), and reconciles nothing.

Exit codes: 0 no findings, 3 findings, 2 usage or a receipt refused, 1 I/O.`,
		Example: `  fairhold receipts reconcile receipts/ --logs day --key operator.pub
  fairhold receipts reconcile receipts/p7.jsonl --logs day --key operator.pub --findings receipts-findings.csv`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReceiptsReconcile(cmd, args, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.key, "key", "", "the operator's Ed25519 public key (PEM PKIX)")
	f.StringVar(&o.operator, "operator", "", "the operator's key `NAME` every receipt must be signed under (default: each receipt's operator line)")
	f.StringArrayVar(&o.logs, "logs", nil, "the round log: a dataset directory or a file (repeatable)")
	addFindingsFlags(cmd, &o.findings, &o.format)
	f.BoolVar(&o.asJSON, "json", false, "print the summary as JSON")
	_ = cmd.MarkFlagRequired("key")
	_ = cmd.MarkFlagRequired("logs")
	return cmd
}

func runReceiptsReconcile(cmd *cobra.Command, args []string, o receiptsReconcileOptions) error {
	if err := checkFindingsFlags(o.findings, o.format); err != nil {
		return err
	}
	pub, err := readLogPublicKey(o.key)
	if err != nil {
		return err
	}
	v, err := receipt.NewVerifier(o.operator, pub)
	if err != nil {
		return usageErrorf("--operator: %v", err)
	}
	paths, err := receipt.Files(args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usageErrorf("no receipts files (*.jsonl) in %v", args)
	}
	var recs []receipt.Signed
	for _, p := range paths {
		rs, err := receipt.ReadFile(p, v)
		var le *receipt.LineError
		if errors.As(err, &le) {
			return usageErrorf("receipt refused: %v", err)
		} else if err != nil {
			return err
		}
		recs = append(recs, rs...)
	}
	if len(recs) == 0 {
		return usageErrorf("no receipts in %v: nothing to reconcile", paths)
	}
	ds, err := roundlog.Open(o.logs...)
	if err != nil {
		return fmt.Errorf("receipts reconcile: cannot read the log: %w", err)
	}
	defer ds.Close()
	var fw *replayer.FindingsWriter
	if o.findings != "" {
		if fw, err = replayer.CreateFindingsWith(o.findings, replayer.FindingsOptions{Format: o.format}); err != nil {
			return err
		}
	}
	const sampleMax = 20
	var sample []finding.Finding
	sum, err := receipt.Reconcile(ds, recs, func(f *finding.Finding) error {
		if len(sample) < sampleMax {
			sample = append(sample, *f)
		}
		if fw != nil {
			return fw.Write(f)
		}
		return nil
	})
	if fw != nil {
		if err != nil {
			fw.Abort()
		} else if cerr := fw.Close(); cerr != nil {
			err = fmt.Errorf("failed to write %s: %w", o.findings, cerr)
		}
	}
	if err != nil {
		return err
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
		printReceiptsSummary(w, sum, sample, o.findings)
	}
	if sum.FindingsTotal() > 0 {
		return errVerificationFailed
	}
	return nil
}

func printReceiptsSummary(w io.Writer, s *receipt.Summary, sample []finding.Finding, findingsFile string) {
	fmt.Fprintf(w, "receipts:  %d in %d files, %d players\n", s.Receipts, s.Files, s.Players)
	fmt.Fprintf(w, "log:       %d rounds\n", s.Rounds)
	fmt.Fprintf(w, "matched:   %d receipts (their round in the log)\n", s.Matched)
	for _, x := range s.Warnings {
		fmt.Fprintf(w, "warning:   %s\n", x)
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
		fmt.Fprintf(w, "  %s row %d round %s player %s: %s %s: receipt %s, log %s", f.File, f.Row, f.RoundID, f.PlayerID, f.Code, f.Field, f.Expected, f.Actual)
		if f.Detail != "" {
			fmt.Fprintf(w, " (%s)", f.Detail)
		}
		if f.ExpectedAmount != nil && f.ActualAmount != nil {
			fmt.Fprintf(w, " [receipt %s, log %s", money.Format(*f.ExpectedAmount, f.Currency), money.Format(*f.ActualAmount, f.Currency))
			if f.Difference != nil {
				fmt.Fprintf(w, ", difference %s", money.Format(*f.Difference, f.Currency))
			}
			fmt.Fprint(w, "]")
		}
		fmt.Fprintln(w)
	}
	if findingsFile != "" {
		fmt.Fprintf(w, "all findings: %s\n", findingsFile)
	}
}
