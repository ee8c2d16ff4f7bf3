// Package replayer streams round logs through the checks of package audit:
// it is the engine of `fairhold replay`.
//
// [Run] opens the dataset with package roundlog and hands its units (one
// Parquet row group, or one JSON Lines file) to N workers. Each worker
// checks its unit's rounds with its own [audit.Checker] and keeps, per
// round, a small [audit.Trace]. The units' results are then taken in unit
// order (files sorted by path, row groups in order): the traces go through
// one [audit.Ledger] for the cross-round checks, each unit's findings are
// sorted by [finding.Compare] and written out. The findings, their order
// and the summary (apart from the wall-clock seconds) are therefore the
// same bytes for any number of workers.
//
// Damaged input is reported, never skipped silently: a file, row group or
// row that cannot be read becomes an [finding.InputDamaged] finding naming
// the file, row group, row and column, and every readable round around it
// is still checked.
//
// Memory is bounded by the row-group size times the number of units in
// flight (workers + 1), plus the Ledger's cross-round state.
package replayer

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/roundlog"
)

// Options configure [Run].
type Options struct {
	// Workers is the number of goroutines checking rounds; 0 means
	// GOMAXPROCS.
	Workers int
	// Config is the audit configuration (dealers and rules).
	Config *audit.Config
	// Currencies gives the currencies' decimals for the summary; nil
	// means the built-in ones (package currency).
	Currencies *currency.Table
	// Findings, if not nil, receives every finding in the canonical order.
	Findings func(f *finding.Finding) error
	// Progress, if not nil, is called with the number of rounds each unit
	// held once the unit is done (from one goroutine at a time).
	Progress func(rounds int64)
	// HeapProfile, if not nil, receives a heap profile (runtime/pprof)
	// taken after a collection once half of the units are done: the
	// cross-round state and the buffers in flight are live then, as they
	// are not once Replay returns.
	HeapProfile io.Writer
	// Manifests are the manifests of the paths replayed ([LoadManifests];
	// Run reads them): the dataset is checked against them, and their
	// findings come first (see manifest.go).
	Manifests []DatasetManifest
	// ManifestKey, if not nil, is the key Run requires the manifests to
	// be signed with.
	ManifestKey ed25519.PublicKey
}

// unitResult is what a worker produces for one unit.
type unitResult struct {
	traces   []audit.Trace
	findings []finding.Finding
	totals   *unitTotals
	rounds   int64
	err      error
}

// Run replays the dataset at paths and returns the summary. The error is
// for input that could not be opened at all (a missing path, an unknown
// schema version) or a failure to write findings; damaged parts of
// readable input are findings.
func Run(paths []string, opts Options) (*Summary, error) {
	ds, err := roundlog.Open(paths...)
	if err != nil {
		return nil, err
	}
	defer ds.Close()
	if opts.Manifests == nil {
		opts.Manifests = LoadManifests(paths, opts.ManifestKey)
	}
	return Replay(ds, opts)
}

// Replay replays an opened dataset; see [Run].
func Replay(ds Dataset, opts Options) (*Summary, error) {
	start := time.Now()
	s, err := replay(ds, opts)
	if err != nil {
		return nil, err
	}
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

// Dataset is what Run reads; *roundlog.Dataset implements it.
type Dataset interface {
	Units() []roundlog.Unit
	Damage() []*roundlog.DamageError
	ReadUnit(i int, fn func(*roundlog.Record) error) ([]*roundlog.DamageError, error)
}

func replay(ds Dataset, opts Options) (*Summary, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	units := ds.Units()
	sum := newSummary()
	ledger := audit.NewLedger()
	var total int64
	for _, u := range units {
		total += max(u.Rounds, 0)
	}
	ledger.Reserve(total)
	check := newDatasetCheck(ds, &opts, sum)
	defer check.close()
	opts.Findings = check.findings()
	emit := func(fs []finding.Finding) error {
		for i := range fs {
			sum.count(&fs[i])
			if opts.Findings != nil {
				if err := opts.Findings(&fs[i]); err != nil {
					return fmt.Errorf("failed to write findings: %w", err)
				}
			}
		}
		return nil
	}
	// Files that could not be opened at all come first.
	var pre []finding.Finding
	for _, d := range ds.Damage() {
		pre = append(pre, damageFinding(d))
	}
	sortFindings(pre)
	if err := emit(pre); err != nil {
		return nil, err
	}

	// Workers take unit indices in order; results are collected in order
	// through one channel per unit, with at most workers+1 units in flight.
	results := make([]chan *unitResult, len(units))
	for i := range results {
		results[i] = make(chan *unitResult, 1)
	}
	next := make(chan int)
	window := make(chan struct{}, workers+1)
	// The traces' storage goes back to the workers once the Ledger has
	// seen them: a steady replay allocates none.
	free := make(chan []audit.Trace, workers+2)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := audit.NewChecker(opts.Config)
			for i := range next {
				var traces []audit.Trace
				select {
				case traces = <-free:
				default:
				}
				results[i] <- checkUnit(ds, i, units[i], c, traces)
			}
		}()
	}
	done := make(chan struct{})
	go func() {
		defer close(next)
		for i := range units {
			select {
			case window <- struct{}{}:
			case <-done:
				return
			}
			select {
			case next <- i:
			case <-done:
				return
			}
		}
	}()
	defer func() {
		close(done)
		wg.Wait()
	}()

	var buf []finding.Finding
	for i := range units {
		res := <-results[i]
		<-window
		if res.err != nil {
			return nil, res.err
		}
		buf = append(buf[:0], res.findings...)
		check.observe(res.traces)
		buf = ledger.ObserveAll(res.traces, buf)
		buf = sum.merge(res.totals, res.traces, buf)
		totalsPool.Put(res.totals)
		select {
		case free <- res.traces[:0]:
		default:
		}
		sortFindings(buf)
		if err := emit(buf); err != nil {
			return nil, err
		}
		sum.Rounds += res.rounds
		if opts.Progress != nil {
			opts.Progress(res.rounds)
		}
		if opts.HeapProfile != nil && i == len(units)/2 {
			runtime.GC()
			if err := pprof.WriteHeapProfile(opts.HeapProfile); err != nil {
				return nil, fmt.Errorf("heap profile: %w", err)
			}
		}
	}
	for _, w := range ledger.Warnings() {
		sum.Warn(w)
	}
	if err := emit(sum.finish(opts.Currencies)); err != nil {
		return nil, err
	}
	if err := check.finish(); err != nil {
		return nil, err
	}
	return sum, nil
}

// checkUnit reads and checks one unit.
// traces is storage to reuse for its traces.
func checkUnit(ds Dataset, i int, u roundlog.Unit, c *audit.Checker, traces []audit.Trace) *unitResult {
	res := &unitResult{traces: traces[:0], totals: totalsPool.Get().(*unitTotals)}
	res.totals.reset()
	if u.Rounds > 0 && int64(cap(traces)) < u.Rounds {
		res.traces = make([]audit.Trace, 0, u.Rounds)
	}
	damage, err := ds.ReadUnit(i, func(rec *roundlog.Record) error {
		// A reused trace keeps its storage (Check resets it).
		if n := len(res.traces); n < cap(res.traces) {
			res.traces = res.traces[:n+1]
		} else {
			res.traces = append(res.traces, audit.Trace{})
		}
		t := &res.traces[len(res.traces)-1]
		from := len(res.findings)
		res.findings = c.Check(&rec.Round, audit.Source{File: rec.File, Row: rec.Row}, t, res.findings)
		t.OwnRoundID()
		res.rounds++
		res.findings = res.totals.add(&rec.Round, c.IfPlayed(), t, res.findings, from)
		return nil
	})
	for _, d := range damage {
		res.findings = append(res.findings, damageFinding(d))
	}
	res.err = err
	return res
}

// damageFinding turns a reader's damage report into a finding.
func damageFinding(d *roundlog.DamageError) finding.Finding {
	detail := "whole file: " + d.Reason
	if d.RowGroup >= 0 {
		detail = fmt.Sprintf("row group %d: %s", d.RowGroup, d.Reason)
	}
	return finding.Finding{
		Code: finding.InputDamaged, Severity: finding.SeverityOf(finding.InputDamaged),
		RoundID: d.RoundID, File: d.File, Row: d.Row, Field: d.Column,
		Expected: "a readable value", Actual: "damaged", Detail: detail,
	}
}
