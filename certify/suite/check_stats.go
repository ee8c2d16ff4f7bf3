package suite

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/fairhold/fairhold/certify/nist"
	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/certify/stats"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/roundlog"
)

// checkStatsScheme runs the deck battery on decks the scheme deals from
// public test seeds, as `fairhold stats` does. Result: [stats.Report].
func checkStatsScheme(e *env, r *Requirement) (result, error) {
	p := r.params.(*SchemeParams)
	sch, err := scheme.Lookup(p.Scheme)
	if err != nil {
		return result{}, err
	}
	rep, err := stats.Run(stats.SchemeSource{Scheme: sch, Seed: p.Seed}, stats.Config{Decks: p.Decks, Alpha: p.Alpha, Workers: e.opts.Workers})
	if err != nil {
		return result{}, err
	}
	res := batteryResult(rep, fmt.Sprintf("%d decks of %s (seed %d)", p.Decks, p.Scheme, p.Seed))
	return res, nil
}

// checkStatsDecks runs the deck battery on the operator's decks file.
// Result: [stats.Report].
func checkStatsDecks(e *env, r *Requirement) (result, error) {
	p := r.params.(*AlphaParams)
	file := e.s.Artefacts.Decks
	if file == "" {
		return notTested("no decks file: the suite names none (artefacts.decks)")
	}
	d, err := e.loadDecks()
	if err != nil {
		return result{}, err
	}
	if n := d.Len(); n < stats.MinDecks || n > 1<<32-1 {
		res, _ := notTested(fmt.Sprintf("%s holds %d decks; the battery takes %d to %d", file, n, stats.MinDecks, uint64(1<<32-1)))
		res.subjects = []string{"decks"}
		return res, nil
	}
	rep, err := stats.Run(d, stats.Config{Decks: d.Len(), Alpha: p.Alpha, Workers: e.opts.Workers})
	if err != nil {
		return result{}, err
	}
	res := batteryResult(rep, fmt.Sprintf("%d decks of %s", d.Len(), file))
	res.subjects = []string{"decks"}
	return res, nil
}

// checkStatsLog runs the log battery on the cards of the logged Casino
// Hold'em rounds, as `fairhold stats --from-log` does. Result:
// [stats.Report].
func checkStatsLog(e *env, r *Requirement) (result, error) {
	p := r.params.(*AlphaParams)
	if len(e.s.Artefacts.Logs) == 0 {
		return notTested("no round log: the suite names none (artefacts.logs)")
	}
	ds, err := roundlog.Open(e.logPaths()...)
	if err != nil {
		return result{}, e.logsError(err)
	}
	defer ds.Close()
	b := stats.NewLogBattery()
	var unreadable int64
	damage, err := ds.Scan(func(rec *roundlog.Record) error {
		if b.Add(&rec.Round) != nil {
			unreadable++
		}
		return nil
	})
	if err != nil {
		return result{}, fmt.Errorf("failed to read the logs: %w", err)
	}
	rep, err := b.Report(p.Alpha)
	if err != nil {
		res, _ := notTested(fmt.Sprintf("the logs: %v", err))
		res.subjects = []string{"logs"}
		return res, nil
	}
	if unreadable > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d rounds with a card that does not parse left out (the replay reports them)", unreadable))
	}
	if len(damage) > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d damaged files or rows left out (the replay reports them)", len(damage)))
	}
	res := batteryResult(rep, fmt.Sprintf("%d logged rounds", rep.Decks))
	res.subjects = []string{"logs"}
	return res, nil
}

// batteryResult is the requirement of a battery's report: its verdict,
// a summary, the heatmap of the card-by-position counts (full decks) and
// the histogram of the tests' P-values.
func batteryResult(rep *stats.Report, what string) result {
	res := result{status: report.Pass, value: rep}
	if !rep.Pass {
		res.status = report.Fail
	}
	failed := rep.Failed()
	res.summary = fmt.Sprintf("%s: %d tests, %d failed (Holm, family-wise alpha %g)", what, len(rep.Tests), len(failed), rep.Alpha)
	for i, t := range failed {
		if i == 3 {
			res.summary += fmt.Sprintf(", and %d more", len(failed)-3)
			break
		}
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		res.summary += fmt.Sprintf("%s%s (P %.3g)", sep, t.Name, t.P)
	}
	if rep.Positions != nil {
		res.charts = append(res.charts, positionHeatmap(rep))
	}
	ps := make([]float64, 0, len(rep.Tests))
	for _, t := range rep.Tests {
		if !math.IsNaN(t.P) {
			ps = append(ps, round6(t.P))
		}
	}
	res.charts = append(res.charts, report.Chart{Kind: report.ChartPValues, Title: "P-values of the battery's tests", PValues: ps})
	return res
}

// positionHeatmap is the card-by-position figure: rows positions 1..52,
// columns the 52 cards in the canonical order (2c, 2d, ... As).
func positionHeatmap(rep *stats.Report) report.Chart {
	h := &report.Heatmap{Rows: make([]string, stats.DeckSize), Columns: make([]string, stats.DeckSize),
		Counts: make([][]int64, stats.DeckSize), Expected: float64(rep.Decks) / stats.DeckSize}
	for i := range stats.DeckSize {
		h.Rows[i] = strconv.Itoa(i + 1)
		h.Columns[i] = card.Card(i).String()
		h.Counts[i] = make([]int64, stats.DeckSize)
		for c, n := range rep.Positions[i] {
			h.Counts[i][c] = int64(n)
		}
	}
	return report.Chart{Kind: report.ChartHeatmap, Title: "cards (columns) dealt at each position (rows)", Heatmap: h}
}

// round6 rounds a P-value to six decimals for a figure.
func round6(p float64) float64 { return math.Round(p*1e6) / 1e6 }

// checkNISTRaw runs NIST SP 800-22 on the operator's raw bytes. Result:
// [nist.Report].
func checkNISTRaw(e *env, r *Requirement) (result, error) {
	p := r.params.(*NISTParams)
	file := e.s.Artefacts.Raw
	if file == "" {
		return notTested("no raw bytes file: the suite names none (artefacts.raw)")
	}
	f, err := os.Open(e.path(file))
	if err != nil {
		return result{}, fmt.Errorf("failed to read %s: %w", e.path(file), err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return result{}, err
	}
	per := int64(p.Bits / 8)
	count := p.Sequences
	if count == 0 {
		count = int(min(fi.Size()/per, MaxNISTSequences))
	}
	if count < 1 || fi.Size() < int64(count)*per {
		res, _ := notTested(fmt.Sprintf("%s holds %d bytes: fewer than %d sequences of %d bits", file, fi.Size(), max(count, 1), p.Bits))
		res.subjects = []string{"raw"}
		return res, nil
	}
	data := make([]byte, int64(count)*per)
	if _, err := io.ReadFull(f, data); err != nil {
		return result{}, fmt.Errorf("failed to read %s: %w", e.path(file), err)
	}
	runs, err := nist.RunBytes(data, p.Bits, count, e.opts.Workers, nist.DefaultParams(), nil)
	if err != nil {
		return result{}, err
	}
	rep, err := nist.NewReport(file, runs, p.Bits, p.Alpha)
	if err != nil {
		return result{}, err
	}
	res := result{status: report.Pass, value: rep, subjects: []string{"raw"}}
	if !rep.Pass {
		res.status = report.Fail
	}
	res.summary = fmt.Sprintf("%d sequences of %d bits from %s: %d of %d second-level rules failed (%.2f expected under the null, P(>= %d) = %.3g)",
		count, p.Bits, file, rep.Failed, len(rep.Tests), rep.ExpectedFailures, rep.Failed, rep.PFailures)
	var ps []float64
	for _, rs := range runs {
		for _, x := range rs {
			if x.Applicable {
				ps = append(ps, round6(x.P))
			}
		}
	}
	res.charts = []report.Chart{{Kind: report.ChartPValues, Title: "P-values of every test on every sequence", PValues: ps}}
	return res, nil
}

// loadDecks reads the suite's decks file once (Run reads it before the
// checks, so that a malformed file is found first).
func (e *env) loadDecks() (*stats.Decks, error) {
	e.decksOnce.Do(func() {
		file := e.s.Artefacts.Decks
		f, err := os.Open(e.path(file))
		if err != nil {
			e.decksErr = fmt.Errorf("failed to read %s: %w", e.path(file), err)
			return
		}
		defer f.Close()
		d, err := stats.ReadDecks(f)
		if err != nil {
			var de *stats.DecksError
			if errors.As(err, &de) {
				field := fmt.Sprintf("line %d", de.Line)
				if de.Card > 0 {
					field += fmt.Sprintf(", card %d", de.Card)
				}
				e.decksErr = &Error{File: file, Field: field, Err: de.Err}
				return
			}
			e.decksErr = fmt.Errorf("failed to read %s: %w", e.path(file), err)
			return
		}
		e.decks = d
	})
	return e.decks, e.decksErr
}
