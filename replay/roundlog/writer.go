package roundlog

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

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
// each part one file per table (part-00000.rounds.parquet,
// part-00000.boxes.parquet, ...). A child table's file exists only when
// the part has rows for it. The same rounds written with the same Options
// give byte-identical files.
type ParquetWriter struct {
	dir   string
	opts  Options
	part  int
	cur   *partWriter
	files []string
	// The row buffers of the last part, kept for the next one so that a
	// part does not grow them again.
	free [2]rowBufs
}

// NewParquetWriter creates dir if needed and returns a writer into it.
func NewParquetWriter(dir string, opts Options) (*ParquetWriter, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("failed to create dataset directory: %w", err)
	}
	return &ParquetWriter{dir: dir, opts: opts.withDefaults()}, nil
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
		w.cur = &partWriter{prefix: filepath.Join(w.dir, fmt.Sprintf("part-%05d", w.part)), opts: w.opts, spare: w.free[1]}
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
	if len(c.rounds) >= w.opts.RowGroupRounds ||
		max(len(c.boxes), len(c.seats), len(c.actions), len(c.pots)) >= w.opts.RowGroupRows {
		return c.flush()
	}
	return nil
}

// Files lists the files written so far, in order.
func (w *ParquetWriter) Files() []string { return w.files }

func (w *ParquetWriter) closePart() error {
	files, err := w.cur.close()
	w.files = append(w.files, files...)
	if err == nil {
		// close waited for the last encoding: both sets are free.
		w.free = [2]rowBufs{w.cur.bufs(), w.cur.spare}
	}
	w.cur = nil
	return err
}

// Close flushes the last row group and finishes every file.
func (w *ParquetWriter) Close() error {
	if w.cur == nil {
		return nil
	}
	return w.closePart()
}

// partWriter writes one part: the row group of every table being
// filled, and the one being encoded.
type partWriter struct {
	prefix string
	opts   Options
	n      int64 // rounds written to the part
	groups int   // row groups written to the part
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
	f    *os.File
	bw   *bufio.Writer
	w    *parquet.GenericWriter[T]
}

func openTable[T any](prefix, name string) (*table[T], error) {
	path := prefix + "." + name + ".parquet"
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("failed to create %s: %w", path, err)
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
func putRows[T any](t **table[T], prefix, name string, rows []T) error {
	if len(rows) == 0 {
		return nil
	}
	if *t == nil {
		nt, err := openTable[T](prefix, name)
		if err != nil {
			return err
		}
		*t = nt
	}
	if _, err := (*t).w.Write(rows); err != nil {
		return fmt.Errorf("failed to write %s: %w", (*t).path, err)
	}
	if err := (*t).w.Flush(); err != nil {
		return fmt.Errorf("failed to write %s: %w", (*t).path, err)
	}
	return nil
}

func (t *table[T]) close() error {
	if t == nil {
		return nil
	}
	err := t.w.Close()
	if err == nil {
		err = t.bw.Flush()
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("failed to finish %s: %w", t.path, err)
	}
	return nil
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
		func() error { return putRows(&p.tRounds, p.prefix, TableRounds, b.rounds) },
		func() error { return putRows(&p.tBoxes, p.prefix, TableBoxes, b.boxes) },
		func() error { return putRows(&p.tSeats, p.prefix, TableSeats, b.seats) },
		func() error { return putRows(&p.tActions, p.prefix, TableActions, b.actions) },
		func() error { return putRows(&p.tPots, p.prefix, TablePots, b.pots) },
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

func (p *partWriter) close() ([]string, error) {
	err := p.flush()
	if werr := p.wait(); err == nil {
		err = werr
	}
	var files []string
	if p.tRounds != nil {
		files = append(files, p.tRounds.path)
	}
	for _, path := range []string{pathOf(p.tBoxes), pathOf(p.tSeats), pathOf(p.tActions), pathOf(p.tPots)} {
		if path != "" {
			files = append(files, path)
		}
	}
	return files, errors.Join(err, p.tRounds.close(), p.tBoxes.close(), p.tSeats.close(), p.tActions.close(), p.tPots.close())
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
	return append(opts, parquet.SkipPageBounds("client_seeds", "list", "element"))
}

// fastSnappy is the SNAPPY codec with the fast block encoder (parquet-go's
// codec uses the slower "better" one, which compressed our pages only a
// little more). Any snappy decoder reads its blocks.
type fastSnappy struct{ snappy.Codec }

func (*fastSnappy) Encode(dst, src []byte) ([]byte, error) {
	return s2.EncodeSnappy(dst[:cap(dst)], src), nil
}
