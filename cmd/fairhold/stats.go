package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/certify/nist"
	"github.com/fairhold/fairhold/certify/stats"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/roundlog"
)

type statsOptions struct {
	scheme  string
	decks   uint64
	small   uint64
	seed    uint64
	workers int
	alpha   float64
	all     bool
	asJSON  bool
	fromLog string
}

func newStatsCmd() *cobra.Command {
	var o statsOptions
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Run the statistical battery on a scheme's decks (and, with 'nist', on its raw stream)",
		Long: `Deal --decks decks from a scheme with public test seeds derived from --seed and
run the deck battery (docs/statistics.md): card by position (global and per
position: cards, suits, ranks), adjacency, small-deck permutations through the
production shuffle (3..6 cards) and the relative order of five fixed cards,
serial and rank correlation between successive decks, runs up and down,
repeated decks and seeds, decks that are not permutations, and the dealt
casino Hold'em outcomes against exact combinatorics.

Every test prints its statistic, degrees of freedom, P-value and verdict. The
battery's multiple-testing policy is Holm's step-down procedure over all of its
tests at --alpha: an honest shuffle fails the battery with probability at most
alpha. Per-position families are shown by their worst test unless --all.

With --from-log PATH the decks come from a round log instead (Parquet parts,
JSON Lines files or a directory of them). A log holds only the dealt cards, and
which are shown depends on the player's decisions, so the log battery tests
the positions every Casino Hold'em round deals before any decision (the first
box's two cards and the flop): card by position (global and per position),
starting hands, the AA Bonus rate, cards shared by successive rounds, repeated
deals (the first box, dealer and board of a round equal to an earlier round's:
a shuffler seeded from 32 bits repeats decks), repeated fairness inputs and
rounds that repeat a card. Other games and void rounds are skipped and counted.

The output is the same for a given --seed whatever --workers. Exit status 3
when the battery fails.`,
		Example: `  fairhold stats --scheme fairhold/v1 --decks 1000000
  fairhold stats --scheme stake-compat --decks 100000 --json
  fairhold stats --from-log logs/ --json
  fairhold stats nist --sequences 100 --bits 1000000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runStats(cmd, &o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.scheme, "scheme", scheme.FairholdV1Name, "scheme to deal from: "+strings.Join(scheme.Names(), ", "))
	f.Uint64Var(&o.decks, "decks", 1000000, fmt.Sprintf("number of decks (at least %d)", stats.MinDecks))
	f.Uint64Var(&o.small, "small-decks", 0, "small decks per size 3..6 (default: decks/4 clamped to 4,000..250,000)")
	f.Uint64Var(&o.seed, "seed", 1, "seed the test server seeds are derived from")
	f.IntVar(&o.workers, "workers", 0, "worker goroutines (default: all cores); the result does not depend on it")
	f.Float64Var(&o.alpha, "alpha", stats.DefaultAlpha, "family-wise significance level")
	f.BoolVar(&o.all, "all", false, "print every test, not one line per family")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	f.StringVar(&o.fromLog, "from-log", "", "run the log battery on the dealt cards of a round log (file or directory) instead of dealing decks")
	cmd.AddCommand(newStatsNISTCmd())
	return cmd
}

func runStats(cmd *cobra.Command, o *statsOptions) error {
	if o.fromLog != "" {
		for _, name := range []string{"scheme", "decks", "seed", "small-decks", "workers"} {
			if cmd.Flags().Changed(name) {
				return usageErrorf("--from-log and --%s cannot be used together", name)
			}
		}
		return runStatsLog(cmd, o)
	}
	sch, err := scheme.Lookup(o.scheme)
	if err != nil {
		return usageError(err)
	}
	if o.decks < stats.MinDecks || o.decks > 1<<32-1 {
		return usageErrorf("--decks %d: want %d..%d", o.decks, stats.MinDecks, uint64(1<<32-1))
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return usageErrorf("--alpha %v: want a level in (0, 1)", o.alpha)
	}
	cfg := stats.Config{Decks: o.decks, SmallPerSize: o.small, Alpha: o.alpha, Workers: o.workers}
	small := o.small
	if small == 0 {
		small = min(max(o.decks/4, 4000), 250000)
	}
	if sch.Name() != scheme.FairholdV1Name {
		small = 0 // only fairhold/v1 has a small-deck shuffle
	}
	bar := newProgress(cmd, "stats", int64(o.decks+4*small))
	cfg.Progress = bar.Add
	rep, err := stats.Run(stats.SchemeSource{Scheme: sch, Seed: o.seed}, cfg)
	bar.Done()
	if err != nil {
		return err
	}
	return finishStats(cmd, rep, o)
}

// finishStats prints a deck or log battery report and maps its verdict to
// the exit status.
func finishStats(cmd *cobra.Command, rep *stats.Report, o *statsOptions) error {
	out := cmd.OutOrStdout()
	if o.asJSON {
		if err := writeResult(out, verdictOf(rep.Pass, verdictOK), rep); err != nil {
			return err
		}
	} else if err := printStats(out, rep, o); err != nil {
		return err
	}
	if !rep.Pass {
		return errVerificationFailed
	}
	return nil
}

// runStatsLog runs the log battery on --from-log.
func runStatsLog(cmd *cobra.Command, o *statsOptions) error {
	if !(o.alpha > 0 && o.alpha < 1) {
		return usageErrorf("--alpha %v: want a level in (0, 1)", o.alpha)
	}
	ds, err := roundlog.Open(o.fromLog)
	if err != nil {
		return usageError(err)
	}
	defer ds.Close()
	bar := newProgress(cmd, "stats", ds.Rounds())
	b := stats.NewLogBattery()
	damage, err := ds.Scan(func(rec *roundlog.Record) error {
		bar.Add(1)
		if err := b.Add(&rec.Round); err != nil {
			return fmt.Errorf("%s row %d: %w", rec.File, rec.Row, err)
		}
		return nil
	})
	bar.Done()
	if err != nil {
		return usageError(err)
	}
	rep, err := b.Report(o.alpha)
	if err != nil {
		return usageError(fmt.Errorf("%s: %w", o.fromLog, err))
	}
	if len(damage) > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d damaged files or rows skipped (first: %v)", len(damage), damage[0]))
	}
	return finishStats(cmd, rep, o)
}

func verdict(pass bool) string {
	if pass {
		return "pass"
	}
	return "FAIL"
}

// printStats prints the deck battery's table: every test with --all,
// otherwise one line per family (its lowest-P test) and every failed test.
func printStats(w io.Writer, r *stats.Report, o *statsOptions) error {
	if o.fromLog != "" {
		fmt.Fprintf(w, "log battery: %s, %d rounds", o.fromLog, r.Decks)
	} else {
		fmt.Fprintf(w, "deck battery: scheme %s, %d decks, seed %d", o.scheme, r.Decks, o.seed)
	}
	if r.SmallPerSize > 0 {
		fmt.Fprintf(w, ", %d small decks per size", r.SmallPerSize)
	}
	fmt.Fprintf(w, "\npolicy: %s (alpha %g, %d tests)\n\n", r.Policy, r.Alpha, len(r.Tests))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TEST\tSTATISTIC\tDF\tP\tP HOLM\tVERDICT\t")
	size := map[string]int{}
	worst := map[string]int{}
	for i, t := range r.Tests {
		size[t.Family]++
		if j, ok := worst[t.Family]; !ok || t.P < r.Tests[j].P {
			worst[t.Family] = i
		}
	}
	for i, t := range r.Tests {
		name := t.Name
		if !o.all && size[t.Family] > 1 && strings.HasPrefix(t.Family, "position/") {
			if worst[t.Family] != i && t.Pass {
				continue
			}
			if worst[t.Family] == i {
				name = fmt.Sprintf("%s (worst of %d)", t.Name, size[t.Family])
			}
		}
		df := "-"
		if t.DF > 0 {
			df = fmt.Sprint(t.DF)
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%s\t%s\t%s\t%s\t\n", name, t.Statistic, df, fmtP(t.P), fmtP(t.PHolm), verdict(t.Pass))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	fmt.Fprintf(w, "\nresult: %s (%d of %d tests failed)\n", strings.ToUpper(verdict(r.Pass)), len(r.Failed()), len(r.Tests))
	return nil
}

func fmtP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "-"
	case p >= 0.0001:
		return fmt.Sprintf("%.4f", p)
	default:
		return fmt.Sprintf("%.2e", p)
	}
}

type statsNISTOptions struct {
	sequences int
	bits      int
	seed      uint64
	workers   int
	alpha     float64
	ascii     string
	all       bool
	asJSON    bool
}

func newStatsNISTCmd() *cobra.Command {
	var o statsNISTOptions
	cmd := &cobra.Command{
		Use:   "nist",
		Short: "Run the NIST SP 800-22 battery on fairhold/v1's byte stream",
		Long: `Run the 15 tests of NIST SP 800-22 rev. 1a on --sequences sequences of --bits
bits of the fairhold/v1 byte stream (HMAC-SHA256 blocks, package
fairness/stream), each from a server seed derived from --seed, and apply NIST's
second-level rules at --alpha to each of the 188 reported P-values: the
proportion of passing sequences must lie in (1-alpha) -/+ 3 sqrt(alpha(1-alpha)/m),
and from 55 sequences the P-values must be uniform (chi-square on 10 bins,
P-value_T >= 0.0001). An honest generator fails a few of the 188 rules; the
suite fails when the number of failed rules has probability below --alpha
under the null.

With --ascii FILE the sequences are read from a file of ASCII '0'/'1'
characters (NIST's sample format; white space skipped) instead.

Families with many P-values (148 non-overlapping templates, random excursion
states) are shown by their worst member unless --all. Exit status 3 when a
suite fails.`,
		Example: `  fairhold stats nist --sequences 100 --bits 1000000
  fairhold stats nist --ascii data.e --sequences 1   # NIST STS sample data/data.e (csrc.nist.gov)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runStatsNIST(cmd, &o) },
	}
	f := cmd.Flags()
	f.IntVar(&o.sequences, "sequences", 100, "number of sequences")
	f.IntVar(&o.bits, "bits", 1000000, fmt.Sprintf("bits per sequence (a multiple of 8, at least %d)", nist.MinBits))
	f.Uint64Var(&o.seed, "seed", 1, "seed the server seeds of the sequences are derived from")
	f.IntVar(&o.workers, "workers", 0, "worker goroutines (default: all cores); the result does not depend on it")
	f.Float64Var(&o.alpha, "alpha", 0.01, "significance level of each test")
	f.StringVar(&o.ascii, "ascii", "", "read the sequences from this file of ASCII '0'/'1' instead of the scheme's stream")
	f.BoolVar(&o.all, "all", false, "print every P-value's assessment, not one line per family")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	return cmd
}

func runStatsNIST(cmd *cobra.Command, o *statsNISTOptions) error {
	if o.sequences < 1 {
		return usageErrorf("--sequences %d: want at least 1", o.sequences)
	}
	if o.bits < nist.MinBits || o.bits%8 != 0 {
		return usageErrorf("--bits %d: want a multiple of 8, at least %d", o.bits, nist.MinBits)
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return usageErrorf("--alpha %v: want a level in (0, 1)", o.alpha)
	}
	params := nist.DefaultParams()
	bar := newProgress(cmd, "nist", int64(o.sequences))
	var runs [][]nist.Result
	var err error
	source := "fairhold/v1 stream"
	if o.ascii != "" {
		source = o.ascii
		runs, err = nistASCII(o, params, func() { bar.Add(1) })
	} else {
		gen := func(i int, buf []byte) error { return stats.StreamSequence(o.seed, i, buf) }
		runs, err = nist.RunMany(gen, o.sequences, o.bits, o.workers, params, func() { bar.Add(1) })
	}
	bar.Done()
	if err != nil {
		return err
	}
	as, err := nist.Assess(runs, o.alpha)
	if err != nil {
		return err
	}
	sum := nist.Summarize(as, o.alpha, o.alpha)
	pass := sum.Pass
	out := cmd.OutOrStdout()
	if o.asJSON {
		rep, err := nist.NewReport(source, runs, o.bits, o.alpha)
		if err != nil {
			return err
		}
		err = writeResult(out, verdictOf(pass, verdictOK), rep)
		if err != nil {
			return err
		}
	} else {
		err = printNIST(out, source, runs, as, o, sum)
	}
	if err != nil {
		return err
	}
	if !pass {
		return errVerificationFailed
	}
	return nil
}

// nistASCII reads --sequences sequences of --bits bits from an ASCII file.
func nistASCII(o *statsNISTOptions, p nist.Params, done func()) ([][]nist.Result, error) {
	data, err := os.ReadFile(o.ascii)
	if err != nil {
		return nil, usageError(err)
	}
	bits, err := nist.ParseASCII(data, o.sequences*o.bits)
	if err != nil {
		return nil, usageErrorf("%s: %v", o.ascii, err)
	}
	if len(bits) < o.sequences*o.bits {
		return nil, usageErrorf("%s: %d bits, need %d for %d sequences of %d", o.ascii, len(bits), o.sequences*o.bits, o.sequences, o.bits)
	}
	var runs [][]nist.Result
	for i := range o.sequences {
		rs, err := nist.Run(bits[i*o.bits:(i+1)*o.bits], p)
		if err != nil {
			return nil, err
		}
		runs = append(runs, rs)
		done()
	}
	return runs, nil
}

func printNIST(w io.Writer, source string, runs [][]nist.Result, as []nist.Assessment, o *statsNISTOptions, sum nist.Summary) error {
	fmt.Fprintf(w, "NIST SP 800-22 rev. 1a: %s, %d sequences of %d bits\npolicy: %s (alpha %g)\n\n",
		source, len(runs), o.bits, nist.Policy, o.alpha)
	single := len(runs) == 1
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if single {
		fmt.Fprintln(tw, "TEST\tSTATISTIC\tP\tVERDICT\t")
		for i, r := range runs[0] {
			if !o.all && hideVariant(r.Name()) {
				continue
			}
			p := "n/a"
			if r.Applicable {
				p = fmt.Sprintf("%.6f", r.P)
			}
			fmt.Fprintf(tw, "%s\t%.6g\t%s\t%s\t\n", r.Name(), r.Statistic, p, verdict(as[i].Pass))
		}
	} else {
		fmt.Fprintln(tw, "TEST\tSEQUENCES\tPASSED\tPROPORTION\tMIN PROPORTION\tP-VALUE_T\tVERDICT\t")
		family := func(name string) string { return strings.SplitN(name, "/", 2)[0] }
		worst := map[string]int{}
		for i, a := range as {
			f := family(a.Name)
			if j, ok := worst[f]; !ok || worse(a, as[j]) {
				worst[f] = i
			}
		}
		for i, a := range as {
			f := family(a.Name)
			if !o.all && f != a.Name && hideVariant(a.Name) && worst[f] != i && a.Pass {
				continue
			}
			u := "-"
			if !math.IsNaN(a.Uniformity) {
				u = fmtP(a.Uniformity)
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.4f\t%.4f\t%s\t%s\t\n", a.Name, a.Sequences, a.Passed, a.Proportion, a.Low, u, verdict(a.Pass))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nresult: %s (%d of %d P-values failed the second-level rules; %.2f expected under the null, P(>= %d) = %s)\n",
		strings.ToUpper(verdict(sum.Pass)), sum.Failed, sum.Assessments, sum.Expected, sum.Failed, fmtP(sum.P))
	return nil
}

// hideVariant reports whether a P-value belongs to a large family shown by
// its worst member only (templates and random-excursion states); the
// reference variants of NIST's example runs are always shown.
func hideVariant(name string) bool {
	switch name {
	case "non-overlapping-template/template=000000001", "random-excursions/x=+1", "random-excursions-variant/x=-1":
		return false
	}
	return strings.HasPrefix(name, "non-overlapping-template/") || strings.HasPrefix(name, "random-excursions")
}

// worse orders assessments by proportion, then uniformity.
func worse(a, b nist.Assessment) bool {
	if a.Proportion != b.Proportion {
		return a.Proportion < b.Proportion
	}
	return a.Uniformity < b.Uniformity
}
