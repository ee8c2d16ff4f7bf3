package main

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"time"

	"github.com/fairhold/fairhold/replay/hand"
	"github.com/spf13/cobra"
)

// handFigures are the figures of one exhaustive enumeration: per category
// the number of hands and of distinct values, and the totals.
type handFigures struct {
	Hands      uint64
	Distinct   int
	Categories map[hand.Category]uint64
	Classes    map[hand.Category]int
}

// publishedFigures are the published counts for 5-card and 7-card hands,
// as published (Alspach, "7-Card Poker Hands";
// Wikipedia, "Poker probability"). They are the expectation only: the
// counted figures are always computed by enumeration.
type publishedFigures struct {
	Five, Seven handFigures
}

func defaultPublished() publishedFigures {
	return publishedFigures{
		Five: handFigures{
			Hands: 2598960, Distinct: 7462,
			Categories: map[hand.Category]uint64{
				hand.RoyalFlush: 4, hand.StraightFlush: 36, hand.FourOfAKind: 624, hand.FullHouse: 3744,
				hand.Flush: 5108, hand.Straight: 10200, hand.ThreeOfAKind: 54912, hand.TwoPair: 123552,
				hand.OnePair: 1098240, hand.HighCard: 1302540,
			},
			Classes: map[hand.Category]int{
				hand.RoyalFlush: 1, hand.StraightFlush: 9, hand.FourOfAKind: 156, hand.FullHouse: 156,
				hand.Flush: 1277, hand.Straight: 10, hand.ThreeOfAKind: 858, hand.TwoPair: 858,
				hand.OnePair: 2860, hand.HighCard: 1277,
			},
		},
		Seven: handFigures{
			Hands: 133784560, Distinct: 4824,
			Categories: map[hand.Category]uint64{
				hand.RoyalFlush: 4324, hand.StraightFlush: 37260, hand.FourOfAKind: 224848,
				hand.FullHouse: 3473184, hand.Flush: 4047644, hand.Straight: 6180020,
				hand.ThreeOfAKind: 6461620, hand.TwoPair: 31433400, hand.OnePair: 58627800,
				hand.HighCard: 23294460,
			},
			Classes: map[hand.Category]int{
				hand.RoyalFlush: 1, hand.StraightFlush: 9, hand.FourOfAKind: 156, hand.FullHouse: 156,
				hand.Flush: 1277, hand.Straight: 10, hand.ThreeOfAKind: 575, hand.TwoPair: 763,
				hand.OnePair: 1470, hand.HighCard: 407,
			},
		},
	}
}

type selftestOptions struct {
	asJSON    bool
	workers   int
	published publishedFigures
}

func newSelftestCmd() *cobra.Command {
	return newSelftestCmdWith(&selftestOptions{published: defaultPublished()})
}

// newSelftestCmdWith builds the command around opts; tests use it to feed
// other expectations.
func newSelftestCmdWith(opts *selftestOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "selftest",
		Short: "Check this machine: enumerate every 5- and 7-card hand and compare with published counts",
		Long: `Check the hand evaluator on this machine, as a test lab would: evaluate every one
of the 133,784,560 seven-card and 2,598,960 five-card hands, count the hands and
distinct values of each category, and compare the counts with the published
figures (Alspach, "7-Card Poker Hands"). Reports how long the 7-card enumeration
took.

Exit status 0 when every count matches, 3 when any differs.`,
		Example: `  fairhold selftest
  fairhold selftest --json --workers 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.workers < 0 {
				return usageErrorf("selftest: --workers %d: want 0 (one per CPU) or more", opts.workers)
			}
			return runSelftest(cmd.OutOrStdout(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print one JSON object")
	cmd.Flags().IntVar(&opts.workers, "workers", 0, "goroutines for the 7-card enumeration (0: one per CPU)")
	return cmd
}

func runSelftest(w io.Writer, opts *selftestOptions) error {
	workers := opts.workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	five := hand.Census5()
	start := time.Now()
	seven := hand.Census7Workers(workers)
	seconds := time.Since(start).Seconds()

	rep := hand.Selftest{OK: true}
	ev := &rep.Evaluator
	ev.Hands5, ev.Distinct5 = five.Hands(), five.Distinct()
	ev.Hands7, ev.Distinct7 = seven.Hands(), seven.Distinct()
	ev.Seconds7, ev.Workers = seconds, workers
	ev.Categories5, ev.Classes5 = categoryFigures(five)
	ev.Categories7, ev.Classes7 = categoryFigures(seven)

	check := func(name string, counted, published uint64) {
		c := hand.CensusCheck{Name: name, Counted: counted, Published: published, OK: counted == published}
		rep.OK = rep.OK && c.OK
		rep.Checks = append(rep.Checks, c)
	}
	for _, e := range []struct {
		census hand.Census
		pub    handFigures
	}{{seven, opts.published.Seven}, {five, opts.published.Five}} {
		n := strconv.Itoa(e.census.Cards())
		check(n+"-card hands", e.census.Hands(), e.pub.Hands)
		for _, cat := range hand.Categories() {
			check(n+"-card "+cat.String(), e.census.CategoryCount(cat), e.pub.Categories[cat])
		}
		for _, cat := range hand.Categories() {
			check(n+"-card "+cat.String()+" values", uint64(e.census.DistinctIn(cat)), uint64(e.pub.Classes[cat]))
		}
		check(n+"-card distinct values", uint64(e.census.Distinct()), uint64(e.pub.Distinct))
	}

	if opts.asJSON {
		if err := writeResult(w, verdictOf(rep.OK, verdictOK), rep); err != nil {
			return err
		}
	} else {
		printSelftest(w, &rep)
	}
	if !rep.OK {
		return errVerificationFailed
	}
	return nil
}

// categoryFigures returns the hands and distinct values per category, by
// category name.
func categoryFigures(c hand.Census) (map[string]uint64, map[string]int) {
	hands := make(map[string]uint64, hand.NumCategories)
	classes := make(map[string]int, hand.NumCategories)
	for _, cat := range hand.Categories() {
		hands[cat.String()] = c.CategoryCount(cat)
		classes[cat.String()] = c.DistinctIn(cat)
	}
	return hands, classes
}

func printSelftest(w io.Writer, rep *hand.Selftest) {
	fmt.Fprintln(w, "Exhaustive hand enumeration against published counts (Alspach, \"7-Card Poker Hands\")")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-34s %13s %13s  %s\n", "check", "counted", "published", "result")
	failed := 0
	for _, c := range rep.Checks {
		res := "PASS"
		if !c.OK {
			res = "FAIL"
			failed++
		}
		fmt.Fprintf(w, "%-34s %13s %13s  %s\n", c.Name, groupDigits(c.Counted), groupDigits(c.Published), res)
	}
	ev := rep.Evaluator
	fmt.Fprintln(w)
	fmt.Fprintf(w, "7-card enumeration: %.3f s on %d worker(s), %.1f M hands/s\n",
		ev.Seconds7, ev.Workers, float64(ev.Hands7)/ev.Seconds7/1e6)
	if failed == 0 {
		fmt.Fprintf(w, "PASS: all %d checks match\n", len(rep.Checks))
	} else {
		fmt.Fprintf(w, "FAIL: %d of %d checks differ\n", failed, len(rep.Checks))
	}
}

// groupDigits writes n with thousands separators, e.g. 133,784,560.
func groupDigits(n uint64) string {
	s := strconv.FormatUint(n, 10)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
