package roundlog

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/round"
)

// Default sizes.
const (
	DefaultRowGroupRounds = 16384
	DefaultRowGroupRows   = 65536
	DefaultFileRounds     = 4 << 20
	DefaultFileRowGroups  = 256
)

// Options tune a [ParquetWriter]. Zero values take the defaults.
type Options struct {
	// RowGroupRounds is the number of rounds per row group; every table
	// of a part is flushed at the same round boundaries, so a writer holds
	// two row groups of rounds (and their child rows) in memory: the one
	// being filled and the one being encoded.
	RowGroupRounds int
	// RowGroupRows also ends a row group once a child table holds this
	// many rows for it (Double Hold'em hands have about 20 actions each):
	// a reader's memory follows the rows of a row group, not its rounds.
	RowGroupRows int
	// FileRounds is the number of rounds per part before a new part is
	// started.
	FileRounds int64
	// FileRowGroups also starts a new part once a part holds this many
	// row groups. A reader keeps the footer of the part it reads (about
	// 850 bytes of memory per column chunk with parquet-go), and a footer
	// grows with the row groups, so this bounds it whatever the rows per
	// round: Double Hold'em hands end row groups early on their actions.
	FileRowGroups int
	// FirstPart is the number of the first part written: a writer adding
	// parts to a dataset names them from part-NNNNN on.
	FirstPart int
}

func (o Options) withDefaults() Options {
	if o.RowGroupRounds <= 0 {
		o.RowGroupRounds = DefaultRowGroupRounds
	}
	if o.RowGroupRows <= 0 {
		o.RowGroupRows = DefaultRowGroupRows
	}
	if o.FileRounds <= 0 {
		o.FileRounds = DefaultFileRounds
	}
	if o.FileRowGroups <= 0 {
		o.FileRowGroups = DefaultFileRowGroups
	}
	return o
}

// ParquetWriter writes rounds as a Parquet dataset: a directory of parts,
// one folder per table, each part one file in each table's folder
// (rounds/part-00000.parquet, boxes/part-00000.parquet, ...; see
// [TablePath]). A child table's file (and folder) exists only when the
// part has rows for it. Every file is written under a temporary name and
// renamed once whole ([atomicfile]), so a killed writer leaves no torn
// part. The same rounds written with the same Options give byte-identical
// files.
type ParquetWriter struct {
	dir   string
	opts  Options
	part  int
	cur   *partWriter
	files []string
	parts []manifest.Part
	// The row buffers of the last part, kept for the next one so that a
	// part does not grow them again.
	free [2]rowBufs
}

// NewParquetWriter creates dir if needed and returns a writer into it.
func NewParquetWriter(dir string, opts Options) (*ParquetWriter, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("failed to create dataset directory: %w", err)
	}
	return &ParquetWriter{dir: dir, opts: opts.withDefaults(), part: max(opts.FirstPart, 0)}, nil
}

// Write appends one round. An error names the round and the field that
// cannot be stored.
func (w *ParquetWriter) Write(r *round.Round) error {
	if w.cur != nil && (w.cur.n >= w.opts.FileRounds || w.cur.groups >= w.opts.FileRowGroups) {
		if err := w.closePart(); err != nil {
			return err
		}
	}
	if w.cur == nil {
		w.cur = &partWriter{dir: w.dir, name: PartName(w.part), opts: w.opts, spare: w.free[1]}
		w.cur.setBufs(w.free[0])
		if w.cur.rounds == nil {
			w.cur.rounds = make([]roundRow, 0, w.opts.RowGroupRounds)
		}
		w.free = [2]rowBufs{}
		w.part++
	}
	if err := w.cur.flatten(r, w.cur.n); err != nil {
		return fmt.Errorf("round %q: %w", r.RoundID, err)
	}
	w.cur.n++
	c := w.cur
	row := &c.rounds[len(c.rounds)-1]
	c.stats.Add(row.RoundID, row.Time)
	if len(c.rounds) >= w.opts.RowGroupRounds ||
		max(len(c.boxes), len(c.seats), len(c.actions), len(c.pots)) >= w.opts.RowGroupRows {
		return c.flush()
	}
	return nil
}

// Files lists the files written so far, in order.
func (w *ParquetWriter) Files() []string { return w.files }

// Parts describes the parts written so far, as the dataset's manifest
// lists them (paths relative to the dataset directory): each file's rows,
// size and SHA-256, computed as the file was written, and each part's
// rounds, first and last round ids and time range.
func (w *ParquetWriter) Parts() []manifest.Part { return w.parts }

func (w *ParquetWriter) closePart() error {
	part, files, err := w.cur.close()
	if err == nil {
		w.files = append(w.files, files...)
		w.parts = append(w.parts, part)
		// close waited for the last encoding: both sets are free.
		w.free = [2]rowBufs{w.cur.bufs(), w.cur.spare}
	}
	w.cur = nil
	return err
}

// Close flushes the last row group and finishes every file. After an
// error the part being written is removed (its files were never renamed
// to their names); the parts finished before stay.
func (w *ParquetWriter) Close() error {
	if w.cur == nil {
		return nil
	}
	return w.closePart()
}

// Abort stops writing: the files of the part being written are removed,
// the parts finished before stay.
func (w *ParquetWriter) Abort() {
	if w.cur == nil {
		return
	}
	w.cur.wait()
	w.cur.abort()
	w.cur = nil
}

// PartName is the name of the part numbered i: "part-00000" for 0.
func PartName(i int) string { return fmt.Sprintf("part-%05d", i) }

// TablePath is the path of a part's file of table in the dataset dir, in
// the layout of one folder per table: TablePath("day", "boxes",
// "part-00000", "parquet") is day/boxes/part-00000.parquet.
func TablePath(dir, table, part, ext string) string {
	return filepath.Join(dir, table, part+"."+ext)
}

// PartStats are what a dataset's manifest says of a part's rounds, kept
// as they are written: how many, the first and last round ids, and the
// earliest and latest round times.
type PartStats struct {
	Rounds                    int64
	FirstRoundID, LastRoundID string
	MinTime, MaxTime          int64 // Unix microseconds; meaningful when Rounds > 0
}

// Add counts one round, its id and its time in Unix microseconds.
func (s *PartStats) Add(id string, us int64) {
	if s.Rounds == 0 {
		s.FirstRoundID, s.MinTime, s.MaxTime = id, us, us
	}
	s.Rounds++
	s.LastRoundID = id
	s.MinTime, s.MaxTime = min(s.MinTime, us), max(s.MaxTime, us)
}

// AddRound counts r; its time must be an RFC 3339 time.
func (s *PartStats) AddRound(r *round.Round) error {
	us, err := parseTime("time", r.Time)
	if err != nil {
		return fmt.Errorf("round %q: %w", r.RoundID, err)
	}
	s.Add(r.RoundID, us)
	return nil
}

// Part returns the manifest's entry of the part name with these stats
// and files.
func (s *PartStats) Part(name string, files []manifest.File) manifest.Part {
	p := manifest.Part{Name: name, Rounds: s.Rounds, Files: files}
	if s.Rounds > 0 {
		p.FirstRoundID, p.LastRoundID = s.FirstRoundID, s.LastRoundID
		p.MinTime, p.MaxTime = manifest.FormatTime(s.MinTime), manifest.FormatTime(s.MaxTime)
	}
	return p
}

// hashingFile is a file being written, its SHA-256 and size computed as
// it is written.
type hashingFile struct {
	f     *atomicfile.File
	h     hash.Hash
	bytes int64
}

func createHashing(path string) (*hashingFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("failed to create %s: %w", filepath.Dir(path), err)
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	return &hashingFile{f: f, h: sha256.New()}, nil
}

func (f *hashingFile) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	f.h.Write(p[:n])
	f.bytes += int64(n)
	return n, err
}

// entry is the manifest's entry of the file, relative to dir.
func (f *hashingFile) entry(dir, table string, rows int64) (manifest.File, error) {
	rel, err := filepath.Rel(dir, f.f.Name())
	if err != nil {
		return manifest.File{}, err
	}
	return manifest.File{Path: filepath.ToSlash(rel), Table: table, Rows: rows, Bytes: f.bytes, SHA256: hex.EncodeToString(f.h.Sum(nil))}, nil
}

// partWriter writes one part: the row group of every table being
// filled, and the one being encoded.
type partWriter struct {
	dir    string // the dataset's
	name   string // part-00000
	opts   Options
	n      int64 // rounds written to the part
	groups int   // row groups written to the part
	stats  PartStats
	// The buffers of the row group being encoded (free once pending has
	// answered), and the encoding in flight, nil when none.
	spare   rowBufs
	pending chan error
	rounds  []roundRow
	boxes   []boxRow
	seats   []seatRow
	actions []actionRow
	pots    []potRow

	tRounds  *table[roundRow]
	tBoxes   *table[boxRow]
	tSeats   *table[seatRow]
	tActions *table[actionRow]
	tPots    *table[potRow]
}

// table is one open file of a part.
type table[T any] struct {
	path string
	f    *hashingFile
	bw   *bufio.Writer
	w    *parquet.GenericWriter[T]
	rows int64
}

func openTable[T any](dir, part, name string) (*table[T], error) {
	path := TablePath(dir, name, part, "parquet")
	f, err := createHashing(path)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	var zero T
	opts := append([]parquet.WriterOption{
		parquet.NewSchema(name, parquet.SchemaOf(zero)),
		parquet.CreatedBy(createdByApp, createdByVersion, createdByBuild),
		parquet.KeyValueMetadata(MetaSchemaVersion, SchemaVersion),
		parquet.KeyValueMetadata(MetaTable, name),
		parquet.Compression(&fastSnappy{}),
		parquet.PageBufferSize(256 << 10),
		// The column index and the chunk statistics carry each page's
		// bounds; page headers need not repeat them.
		parquet.DataPageStatistics(false),
	}, skipBounds()...)
	w := parquet.NewGenericWriter[T](bw, opts...)
	return &table[T]{path: path, f: f, bw: bw, w: w}, nil
}

// put writes rows and ends the row group.
func putRows[T any](t **table[T], dir, part, name string, rows []T) error {
	if len(rows) == 0 {
		return nil
	}
	if *t == nil {
		nt, err := openTable[T](dir, part, name)
		if err != nil {
			return err
		}
		*t = nt
	}
	if _, err := (*t).w.Write(rows); err != nil {
		return fmt.Errorf("failed to write %s: %w", (*t).path, err)
	}
	(*t).rows += int64(len(rows))
	if err := (*t).w.Flush(); err != nil {
		return fmt.Errorf("failed to write %s: %w", (*t).path, err)
	}
	return nil
}

// close finishes the file and renames it to its name; on error, or when
// keep is false, it removes it.
func (t *table[T]) close(keep bool) error {
	if t == nil {
		return nil
	}
	if !keep {
		return t.f.f.Abort()
	}
	err := t.w.Close()
	if err == nil {
		err = t.bw.Flush()
	}
	if err == nil {
		err = t.f.f.Commit()
	}
	if err != nil {
		t.f.f.Abort()
		return fmt.Errorf("failed to finish %s: %w", t.path, err)
	}
	return nil
}

// entry is the manifest's entry of the table's file; ok is false when the
// part has no rows for the table.
func (t *table[T]) entry(dir, name string) (manifest.File, bool, error) {
	if t == nil {
		return manifest.File{}, false, nil
	}
	e, err := t.f.entry(dir, name, t.rows)
	return e, true, err
}

// rowBufs are the rows of one row group of every table.
type rowBufs struct {
	rounds  []roundRow
	boxes   []boxRow
	seats   []seatRow
	actions []actionRow
	pots    []potRow
}

// flush starts writing the buffered row group of every table, on a
// goroutine of its own, and gives the writer the other set of buffers for
// the next row group: the caller fills one row group while the last one
// is encoded. Row groups are written one at a time, in order, so the files
// are the same as when written synchronously. An error of the encoding is
// returned by the next flush or by close.
func (p *partWriter) flush() error {
	if err := p.wait(); err != nil {
		return err
	}
	if len(p.rounds) == 0 {
		return nil
	}
	b := p.bufs()
	// The next row group gets the other set, at least as large as this
	// one, so that neither set grows row by row more than once.
	n := &p.spare
	p.setBufs(rowBufs{atLeast(n.rounds, cap(b.rounds)), atLeast(n.boxes, cap(b.boxes)), atLeast(n.seats, cap(b.seats)),
		atLeast(n.actions, cap(b.actions)), atLeast(n.pots, cap(b.pots))})
	p.groups++
	done := make(chan error, 1)
	p.pending = done
	go func() {
		err := p.encode(&b)
		clear(b.rounds)
		clear(b.boxes)
		clear(b.seats)
		clear(b.actions)
		clear(b.pots)
		// Read by the next flush, after it has received from done.
		p.spare = rowBufs{b.rounds[:0], b.boxes[:0], b.seats[:0], b.actions[:0], b.pots[:0]}
		done <- err
	}()
	return nil
}

func (p *partWriter) bufs() rowBufs {
	return rowBufs{p.rounds, p.boxes, p.seats, p.actions, p.pots}
}

func (p *partWriter) setBufs(b rowBufs) {
	p.rounds, p.boxes, p.seats, p.actions, p.pots = b.rounds[:0], b.boxes[:0], b.seats[:0], b.actions[:0], b.pots[:0]
}

// atLeast returns s emptied, or a new empty slice of capacity c if s holds
// less.
func atLeast[T any](s []T, c int) []T {
	if cap(s) < c {
		return make([]T, 0, c)
	}
	return s[:0]
}

// wait waits for the row group being encoded, if any, and returns its
// error.
func (p *partWriter) wait() error {
	if p.pending == nil {
		return nil
	}
	err := <-p.pending
	p.pending = nil
	return err
}

// encode writes one row group of every table, the tables concurrently.
func (p *partWriter) encode(b *rowBufs) error {
	var errs [5]error
	var wg sync.WaitGroup
	for i, put := range [5]func() error{
		func() error { return putRows(&p.tRounds, p.dir, p.name, TableRounds, b.rounds) },
		func() error { return putRows(&p.tBoxes, p.dir, p.name, TableBoxes, b.boxes) },
		func() error { return putRows(&p.tSeats, p.dir, p.name, TableSeats, b.seats) },
		func() error { return putRows(&p.tActions, p.dir, p.name, TableActions, b.actions) },
		func() error { return putRows(&p.tPots, p.dir, p.name, TablePots, b.pots) },
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = put()
		}()
	}
	wg.Wait()
	return errors.Join(errs[:]...)
}

// close finishes the part's files: on success every file is at its name,
// on error none is.
func (p *partWriter) close() (manifest.Part, []string, error) {
	err := p.flush()
	if werr := p.wait(); err == nil {
		err = werr
	}
	if err != nil {
		p.abort()
		return manifest.Part{}, nil, err
	}
	// The rounds file last: a part whose rounds file is there is whole.
	err = errors.Join(p.tBoxes.close(true), p.tSeats.close(true), p.tActions.close(true), p.tPots.close(true))
	if err == nil {
		err = p.tRounds.close(true)
	} else {
		p.tRounds.close(false)
	}
	if err != nil {
		return manifest.Part{}, nil, err
	}
	var files []string
	var entries []manifest.File
	add := func(path string, e manifest.File, ok bool, eerr error) {
		if ok {
			files, entries = append(files, path), append(entries, e)
		}
		err = errors.Join(err, eerr)
	}
	e, ok, eerr := p.tRounds.entry(p.dir, TableRounds)
	add(pathOf(p.tRounds), e, ok, eerr)
	e, ok, eerr = p.tBoxes.entry(p.dir, TableBoxes)
	add(pathOf(p.tBoxes), e, ok, eerr)
	e, ok, eerr = p.tSeats.entry(p.dir, TableSeats)
	add(pathOf(p.tSeats), e, ok, eerr)
	e, ok, eerr = p.tActions.entry(p.dir, TableActions)
	add(pathOf(p.tActions), e, ok, eerr)
	e, ok, eerr = p.tPots.entry(p.dir, TablePots)
	add(pathOf(p.tPots), e, ok, eerr)
	if err != nil {
		return manifest.Part{}, nil, err
	}
	return p.stats.Part(p.name, entries), files, nil
}

// abort removes the part's files; the caller has waited for the encoding
// in flight.
func (p *partWriter) abort() {
	p.tRounds.close(false)
	p.tBoxes.close(false)
	p.tSeats.close(false)
	p.tActions.close(false)
	p.tPots.close(false)
}

func pathOf[T any](t *table[T]) string {
	if t == nil {
		return ""
	}
	return t.path
}

// skipBounds leaves out the min/max bounds of the columns where they
// filter nothing: seeds, commitments, signatures (random hex), cards, and
// the enumerated texts of a box's decision and an action's street and
// kind. Computing them was about a tenth of the simulator's time (the
// enumerated texts: 4 to 14% of writing Double Hold'em hands,
// BenchmarkWriteParquetDouble).
func skipBounds() []parquet.WriterOption {
	var opts []parquet.WriterOption
	for _, c := range []string{"commitment", "server_seed", "beacon_signature", "beacon_previous_signature", "profile_hash",
		"dealer_1", "dealer_2", "board_1", "board_2", "board_3", "board_4", "board_5",
		"card_1", "card_2", "card_3", "bonus_card", "street", "kind", "decision"} {
		opts = append(opts, parquet.SkipPageBounds(c))
	}
	return append(opts, parquet.SkipPageBounds("client_seeds", "list", "element"), parquet.SkipPageBounds("wallet_ids", "list", "element"))
}

// fastSnappy is the SNAPPY codec with the fast block encoder (parquet-go's
// codec uses the slower "better" one, which compressed our pages only a
// little more). Any snappy decoder reads its blocks.
type fastSnappy struct{ snappy.Codec }

func (*fastSnappy) Encode(dst, src []byte) ([]byte, error) {
	return s2.EncodeSnappy(dst[:cap(dst)], src), nil
}
