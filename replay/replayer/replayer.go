// Package replayer streams round logs through the checks of package audit:
// it is the engine of `fairhold replay`.
//
// [Run] opens the dataset with package roundlog and hands its units (one
// Parquet row group, or one JSON Lines file) to N workers. Each worker
// checks its unit's rounds with its own [audit.Checker] and keeps, per
// round, a small [audit.Trace]. The units' results are then taken in unit
// order (files sorted by path, row groups in order): the traces go through
// one [audit.Ledger] for the cross-round checks, the findings of each
// chunk of a unit (below) are sorted by [finding.Compare] and written out. The findings, their order
// and the summary (apart from the wall-clock seconds) are therefore the
// same bytes for any number of workers.
//
// Damaged input is reported, never skipped silently: a file, row group or
// row that cannot be read becomes an [finding.InputDamaged] finding naming
// the file, row group, row and column, and every readable round around it
// is still checked.
//
// A worker hands its unit's results over in chunks of at most chunkRounds
// rounds (fewer when they hold many boxes and seats or many findings),
// each through the unit's channel, and the main goroutine takes them in
// order: memory is bounded by the chunks in flight (at most 2 x workers +
// 2) and the reader's buffers per worker, whatever the size of a unit (a
// JSON Lines file of gigabytes is one unit), plus the Ledger's cross-round
// state. A unit's findings are sorted chunk by chunk; where a chunk ends
// depends only on the input, so the output is the same for any number of
// workers.
package replayer

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/commitments"
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
	// Progress, if not nil, is called with the number of rounds of each
	// chunk of a unit once the chunk is done (from one goroutine at a
	// time).
	Progress func(rounds int64)
	// HeapProfile, if not nil, receives a heap profile (runtime/pprof)
	// taken after a collection once half of the rounds are done (half of
	// the units when their rounds are not known: JSON Lines files): the
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
	// CommitLog, if not nil, is the operator's commitment log
	// ([commitments.Load]): every seed session is checked against it
	// (commitlog.go). Without it the summary lists the checks not made
	// (Summary.NotChecked). Not supported by a sharded replay.
	CommitLog *commitments.Log
}

// Chunk sizes: a worker hands over its unit's results once they hold
// chunkRounds rounds, chunkPlayers boxes and seats, chunkFindings findings
// (damage reports included) or chunkText bytes of text (the round ids the
// traces keep and the findings' texts), whichever comes first. They are
// variables so that tests can make units larger than a chunk.
var (
	chunkRounds   = 16384
	chunkPlayers  = 65536
	chunkFindings = 16384
	chunkText     = 4 << 20
)

// chunk is what a worker hands over for a run of one unit's rounds, in
// input order: their traces and findings (damage reports included). The
// unit's last chunk also carries the unit's totals and the read's error.
type chunk struct {
	traces   []audit.Trace
	findings []finding.Finding
	totals   *unitTotals
	rounds   int64
	players  int // boxes and seats of the chunk's rounds
	text     int // bytes of the traces' round ids and of the findings' texts
	last     bool
	err      error
	shard    *shardChunk       // a shard's part of the chunk, prepared by its worker (bounds.go)
	local    []finding.Finding // a merged chunk's findings of its shard's Ledger
	// A shard's digests of the rounds' client seeds (audit.ClientDigests):
	// round i's are digests[digestOffs[i]:digestOffs[i+1]].
	digests    [][16]byte
	digestOffs []int32
	// The first rounds of the commitments the unit shows for the first
	// time (commitlog.go), with a commitment log only.
	sessions []commitments.Session
}

// full reports whether the chunk is to be handed over before another
// round or damage report is added to it.
func (c *chunk) full() bool {
	return len(c.traces) >= chunkRounds || c.players >= chunkPlayers || len(c.findings) >= chunkFindings || c.text >= chunkText
}

// addFindings counts the texts of the findings from the chunk's from-th.
func (c *chunk) addFindings(from int) {
	for i := range c.findings[from:] {
		f := &c.findings[from+i]
		c.text += len(f.RoundID) + len(f.Field) + len(f.Expected) + len(f.Actual) + len(f.Detail)
	}
}

// errStopped stops a worker's read when the replay has ended early.
var errStopped = errors.New("replay stopped")

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

// streamer is a Dataset that hands over a unit's damage reports as it
// finds them, in input order among its rounds (*roundlog.Dataset does),
// rather than all at the end: a unit's findings then go out in bounded
// chunks too.
type streamer interface {
	ReadUnitStream(i int, fn func(*roundlog.Record) error, damage func(*roundlog.DamageError)) error
}

func replay(ds Dataset, opts Options) (*Summary, error) {
	return run(ds, opts, nil)
}

// collector is the main goroutine's side of a replay: it takes the units'
// chunks in unit order through the Ledger, the dataset check and the
// summary, and writes their findings out. A merge of shards' parts
// (Merge) drives one the same way.
type collector struct {
	sum    *Summary
	ledger *audit.Ledger
	check  *datasetCheck
	opts   *Options
	buf    []finding.Finding
	// A merge that completes the shards' boundary state (bounds.go) has
	// no Ledger: the chunks hold their shard's Ledger's findings.
	plan *boundaryPlan
	// The checker of the seed sessions against the commitment log (nil
	// without a usable one).
	commits *commitments.Checker
}

// emit counts and writes findings in order.
func (c *collector) emit(fs []finding.Finding) error {
	for i := range fs {
		c.sum.count(&fs[i])
		if c.opts.Findings != nil {
			if err := c.opts.Findings(&fs[i]); err != nil {
				return fmt.Errorf("failed to write findings: %w", err)
			}
		}
	}
	return nil
}

// take takes one chunk, in input order.
func (c *collector) take(ck *chunk) error {
	c.buf = append(c.buf[:0], ck.findings...)
	c.check.observe(ck.traces)
	if c.commits != nil {
		for i := range ck.sessions {
			c.buf = c.commits.Session(&ck.sessions[i], c.buf)
		}
	}
	if c.ledger != nil {
		c.buf = c.ledger.ObserveAll(ck.traces, c.buf)
	}
	c.buf = c.sum.merge(ck.totals, ck.traces, c.buf)
	c.sum.observeTimes(ck.traces)
	sortFindings(c.buf)
	if err := c.emit(c.buf); err != nil {
		return err
	}
	c.sum.Rounds += ck.rounds
	return nil
}

// finish adds the Ledger's warnings, and writes the void tests' findings
// and the dataset check's.
func (c *collector) finish() error {
	var ws []string
	if c.ledger != nil {
		ws = c.ledger.Warnings()
		c.sum.playerCounts = c.ledger.PlayerRotations()
	} else {
		ws = c.plan.warnings
		c.sum.playerCounts = c.plan.players
	}
	for _, w := range ws {
		c.sum.Warn(w)
	}
	if err := c.emit(c.sum.finish(c.opts.Currencies)); err != nil {
		return err
	}
	if c.opts.CommitLog != nil {
		if err := c.emit(c.checkCommitments()); err != nil {
			return err
		}
	} else {
		c.sum.NotChecked = append(c.sum.NotChecked, NotCheckedWithoutLog...)
	}
	return c.check.finish()
}

// run replays ds; with sw, only the units of sw's shard, whose chunks go to
// sw's part file instead of the Ledger (see shard.go).
func run(ds Dataset, opts Options, sw *shardWriter) (*Summary, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	units := ds.Units()
	order := make([]int, 0, len(units))
	for i := range units {
		if sw == nil || sw.mine(i) {
			order = append(order, i)
		}
	}
	sum := newSummary()
	ledger := audit.NewLedger()
	var total int64
	for _, i := range order {
		total += max(units[i].Rounds, 0)
	}
	var check *datasetCheck
	if sw == nil {
		ledger.Reserve(total)
		check = newDatasetCheck(ds, &opts, sum)
		defer check.close()
		opts.Findings = check.findings()
	}
	col := &collector{sum: sum, ledger: ledger, check: check, opts: &opts}
	if lg := opts.CommitLog; lg != nil && lg.Usable && sw == nil {
		col.commits = lg.NewChecker()
	}
	if sw != nil {
		sw.bounds = newShardBounds()
	}
	if sw == nil {
		// Files that could not be opened at all come first.
		var pre []finding.Finding
		for _, d := range ds.Damage() {
			pre = append(pre, damageFinding(d))
		}
		sortFindings(pre)
		if err := col.emit(pre); err != nil {
			return nil, err
		}
	}

	// Workers take unit indices in order; results are collected in order
	// through one channel per unit, a chunk at a time, with at most
	// workers+1 units in flight.
	results := make([]chan *chunk, len(units))
	for _, i := range order {
		results[i] = make(chan *chunk, 1)
	}
	next := make(chan int)
	window := make(chan struct{}, workers+1)
	// The traces' storage goes back to the workers once the Ledger has
	// seen them: a steady replay allocates none. At most 2 x workers + 2
	// chunks are in flight: one being filled per worker, one waiting per
	// unit in flight, one with the Ledger.
	free := make(chan []audit.Trace, 2*workers+4)
	// The chunks' totals (about 90 bytes a round) go round the same way,
	// kept across collections (a sync.Pool drops them).
	freeTotals := make(chan *unitTotals, 2*workers+4)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := audit.NewChecker(opts.Config)
			var enc *audit.TraceEncoder
			if sw != nil {
				enc = &audit.TraceEncoder{}
			}
			var notes *sessionNotes
			if opts.CommitLog != nil && sw == nil {
				notes = &sessionNotes{}
			}
			for i := range next {
				checkUnit(ds, i, units[i], c, enc, notes, results[i], free, freeTotals, done)
			}
		}()
	}
	go func() {
		defer close(next)
		for _, i := range order {
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

	profiled := opts.HeapProfile == nil
	heapProfile := func() error {
		profiled = true
		runtime.GC()
		if err := pprof.WriteHeapProfile(opts.HeapProfile); err != nil {
			return fmt.Errorf("heap profile: %w", err)
		}
		return nil
	}
	for k, i := range order {
		if sw != nil && (k == 0 || order[k-1] != i-1) {
			// A segment of the shard's input starts (bounds.go).
			sw.bounds.startSegment(i)
		}
		for {
			ck := <-results[i]
			if ck.err != nil {
				return nil, ck.err
			}
			if sw != nil {
				if err := sw.write(i, ck); err != nil {
					return nil, err
				}
				sum.Rounds += ck.rounds
			} else if err := col.take(ck); err != nil {
				return nil, err
			}
			select {
			case freeTotals <- ck.totals:
			default:
			}
			select {
			case free <- ck.traces[:0]:
			default:
			}
			if opts.Progress != nil {
				opts.Progress(ck.rounds)
			}
			if !profiled && total > 0 && 2*sum.Rounds >= total {
				if err := heapProfile(); err != nil {
					return nil, err
				}
			}
			if ck.last {
				break
			}
		}
		<-window
		if !profiled && total == 0 && k == len(order)/2 {
			if err := heapProfile(); err != nil {
				return nil, err
			}
		}
	}
	if sw != nil {
		sw.bounds.finish()
		return sum, nil
	}
	if err := col.finish(); err != nil {
		return nil, err
	}
	return sum, nil
}

// checkUnit reads and checks unit i and sends its results to out in
// chunks, the last one marked. Trace storage is taken from free when there
// is some. It returns early, without sending the rest, once done is
// closed.
func checkUnit(ds Dataset, i int, u roundlog.Unit, c *audit.Checker, enc *audit.TraceEncoder, notes *sessionNotes, out chan<- *chunk, free chan []audit.Trace, freeTotals chan *unitTotals, done <-chan struct{}) {
	left := u.Rounds // rounds not yet in a chunk, when known
	newChunk := func() *chunk {
		ck := &chunk{}
		select {
		case ck.totals = <-freeTotals:
			ck.totals.reset()
		default:
			ck.totals = &unitTotals{}
			ck.totals.reset()
			if left > 0 {
				// Sized once rather than grown by doubling.
				ck.totals.money = make([]roundMoney, 0, min(left, int64(chunkRounds)))
			}
		}
		select {
		case ck.traces = <-free:
		default:
			if left > 0 {
				ck.traces = make([]audit.Trace, 0, min(left, int64(chunkRounds)))
			}
		}
		return ck
	}
	ck := newChunk()
	var digests audit.ClientDigests // a shard's (enc != nil)
	send := func(ck *chunk) bool {
		if enc != nil {
			ck.prepare(enc.Bytes())
			enc.Reset()
		}
		select {
		case out <- ck:
			return true
		case <-done:
			return false
		}
	}
	// flush hands over the chunk if it is full, and starts the next one.
	flush := func() error {
		if !ck.full() {
			return nil
		}
		if !send(ck) {
			return errStopped
		}
		left -= ck.rounds
		ck = newChunk()
		return nil
	}
	onRound := func(rec *roundlog.Record) error {
		if err := flush(); err != nil {
			return err
		}
		// A reused trace keeps its storage (Check resets it).
		if n := len(ck.traces); n < cap(ck.traces) {
			ck.traces = ck.traces[:n+1]
		} else {
			ck.traces = append(ck.traces, audit.Trace{})
		}
		t := &ck.traces[len(ck.traces)-1]
		nf := len(ck.findings)
		ck.findings = c.Check(&rec.Round, audit.Source{File: rec.File, Row: rec.Row}, t, ck.findings)
		t.OwnRoundID()
		if notes != nil {
			notes.note(i, &rec.Round, t, rec, ck)
		}
		ck.findings = ck.totals.add(&rec.Round, c.IfPlayed(), t, ck.findings, nf)
		if enc != nil {
			enc.Add(&rec.Round, t)
			if len(ck.digestOffs) == 0 {
				ck.digestOffs = append(ck.digestOffs, 0)
			}
			ck.digests = digests.Append(ck.digests, &rec.Round, t)
			ck.digestOffs = append(ck.digestOffs, int32(len(ck.digests)))
		}
		if len(ck.findings) > nf {
			ck.addFindings(nf)
		}
		ck.text += len(t.RoundID)
		ck.rounds++
		ck.players += len(rec.Round.Boxes)
		if rec.Round.Double != nil {
			ck.players += len(rec.Round.Double.Seats)
		}
		return nil
	}
	var err error
	if s, ok := ds.(streamer); ok {
		stopped := false
		err = s.ReadUnitStream(i, onRound, func(d *roundlog.DamageError) {
			if stopped || flush() != nil {
				stopped = true
				return
			}
			ck.findings = append(ck.findings, damageFinding(d))
			ck.addFindings(len(ck.findings) - 1)
		})
		if err == nil && stopped {
			err = errStopped
		}
	} else {
		var damage []*roundlog.DamageError
		damage, err = ds.ReadUnit(i, onRound)
		for _, d := range damage {
			if err == nil {
				err = flush()
			}
			ck.findings = append(ck.findings, damageFinding(d))
			ck.addFindings(len(ck.findings) - 1)
		}
	}
	if errors.Is(err, errStopped) {
		return
	}
	ck.last, ck.err = true, err
	send(ck)
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
