package roundlog

import (
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/parquet-go/parquet-go"
)

// A row group larger than sliceRounds rounds (a child table's, than
// sliceChildRows rows) is not decoded whole: it is read in slices of rows,
// every column's pages decoded as the slice reaches them and dropped once
// it has passed them, so that memory follows the slice and the pages, not
// the row group. The rounds table's slices end where a column's decoded
// batch ends (and after sliceRounds rounds); a child table's rows are made
// for the rounds of a chunk, across batches and pages.
//
// A file of the specification's schema is read column by column (a
// slicer); any other through parquet-go's generic reader, a slice of rows
// at a time, with the nulls of the columns the specification requires
// scanned alongside (a nullScan).

// reopenGroup reads f's footer again, with read buffers of
// sliceReadBuffer bytes, and returns its row group g: a sliced row group
// keeps every column's pages open at once. It checks that the footer is
// still the one Open read.
func reopenGroup(f *parquet.File, g int) (rg parquet.RowGroup, err error) {
	defer recoverAs(&err, "corrupt footer")
	f2, err := parquet.OpenFile(f, f.Size(), parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true), parquet.ReadBufferSize(sliceReadBuffer))
	if err != nil {
		return nil, fmt.Errorf("the footer could not be read again: %v", err)
	}
	a, b := f.Metadata(), f2.Metadata()
	if len(a.RowGroups) != len(b.RowGroups) || !reflect.DeepEqual(a.Schema, b.Schema) || !reflect.DeepEqual(a.RowGroups[g], b.RowGroups[g]) {
		return nil, errors.New("the file changed since it was opened")
	}
	return rowGroup(f2, g), nil
}

// onePage is a column chunk of one page: decodeColumn decodes it.
type onePage struct {
	parquet.ColumnChunk
	pg parquet.Page
}

func (c onePage) Pages() parquet.Pages { return &onePages{pg: c.pg} }

type onePages struct{ pg parquet.Page }

func (p *onePages) ReadPage() (parquet.Page, error) {
	pg := p.pg
	if pg == nil {
		return nil, io.EOF
	}
	p.pg = nil
	return pg, nil
}

func (p *onePages) SeekToRow(int64) error { return errors.New("onePages: no seeking") }

func (p *onePages) Close() error { return nil }

// colWindow is one column of a sliced row group: its pages, read one at
// a time, and decoded batch rows at a time as the rows reach them.
// parquet-go holds a page decoded (at most about 5 bytes a value for
// dictionary indexes or levels, or the page's own bytes); the decoded
// values are made for a batch of rows only.
type colWindow struct {
	leaf  parquet.LeafColumn
	chunk parquet.ColumnChunk
	pages parquet.Pages
	rows  int       // rows of the chunk
	batch int       // rows decoded at a time
	dc    dictCache // the chunk's dictionary, kept across its pages
	pg    parquet.Page
	p0    int     // pg holds rows [p0, p1)
	p1    int     //
	cur   *column // the decoded values of rows [r0, r1)
	r0    int
	r1    int
	held  []heldPage // decoded batches still in use, cur among them
	spare []*column
	view  column // rows [a, b) of cur, for the fill functions
}

// heldPage is a decoded batch and the row after its last.
type heldPage struct {
	col *column
	end int
}

// load decodes the batch that holds row; rows only go forward.
func (w *colWindow) load(row int) error {
	for row >= w.r1 {
		if w.r1 >= w.p1 {
			if err := w.nextPage(); err != nil {
				return err
			}
		}
		if err := w.decode(); err != nil {
			return err
		}
	}
	return nil
}

// nextPage reads the next page that holds rows.
func (w *colWindow) nextPage() error {
	if w.pg != nil {
		parquet.Release(w.pg)
		w.pg = nil
	}
	for {
		pg, err := w.pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%d rows in the column chunk, want %d", w.p1, w.rows)
		}
		if err != nil {
			return err
		}
		if w.leaf.MaxRepetitionLevel > 0 {
			if reps := pg.RepetitionLevels(); len(reps) > 0 && reps[0] != 0 {
				parquet.Release(pg)
				return fmt.Errorf("a page at row %d continues the row before it: a row group this large is read a page at a time, and takes pages that start a row (as data page v2 requires)", w.p1)
			}
		}
		n := int(pg.NumRows())
		if n == 0 {
			parquet.Release(pg)
			continue
		}
		if n < 0 || n > w.rows-w.p1 {
			parquet.Release(pg)
			return fmt.Errorf("the pages hold more than the %d rows of the row group", w.rows)
		}
		w.pg, w.p0, w.p1 = pg, w.p1, w.p1+n
		return nil
	}
}

// decode decodes the next batch of the page's rows into a column of its
// own: the batches before it stay valid until released.
func (w *colWindow) decode() error {
	a, b := w.r1, min(w.r1+w.batch, w.p1)
	var c *column
	if k := len(w.spare); k > 0 {
		c, w.spare = w.spare[k-1], w.spare[:k-1]
	} else {
		c = &column{keepDict: true}
	}
	c.dc = w.dc
	// The slice holds references of its own, which decodeColumn releases.
	err := decodeColumn(onePage{ColumnChunk: w.chunk, pg: w.pg.Slice(int64(a-w.p0), int64(b-w.p0))}, w.leaf, b-a, c)
	w.dc = c.dc
	if err != nil {
		w.spare = append(w.spare, c)
		return err
	}
	w.held = append(w.held, heldPage{c, b})
	w.cur, w.r0, w.r1 = c, a, b
	return nil
}

// release lets the pages of rows before from be reused.
func (w *colWindow) release(from int) {
	k := 0
	for _, h := range w.held {
		if h.end <= from && h.col != w.cur {
			w.spare = append(w.spare, h.col)
			continue
		}
		w.held[k] = h
		k++
	}
	clear(w.held[k:])
	w.held = w.held[:k]
}

// setView points the view at rows [a, b), which cur holds.
func (w *colWindow) setView(a, b int) {
	i, j := a-w.r0, b-w.r0
	c, v := w.cur, &w.view
	if w.leaf.MaxRepetitionLevel > 0 {
		switch w.leaf.Node.Type().Kind() {
		case parquet.ByteArray:
			v.lstrs = c.lstrs[i:j]
		case parquet.Int32:
			v.li32 = c.li32[i:j]
		case parquet.Int64:
			v.li64 = c.li64[i:j]
		}
		return
	}
	switch w.leaf.Node.Type().Kind() {
	case parquet.ByteArray:
		v.strs = c.strs[i:j]
	case parquet.Int32:
		v.i32 = c.i32[i:j]
	case parquet.Int64:
		v.i64 = c.i64[i:j]
	case parquet.Boolean:
		v.bools = c.bools[i:j]
	}
}

// slicer reads a row group of the specification's schema (as sameSchema
// or the rounds' fast path accept it) in slices of rows.
type slicer struct {
	table string
	names []string
	wins  []colWindow
	views map[string]*column
}

// newSlicer opens every column of rg, to be decoded batch rows at a
// time.
func newSlicer(rg parquet.RowGroup, table string, batch int) (s *slicer, err error) {
	s = &slicer{table: table, views: map[string]*column{}}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	defer recoverAs(&err, "corrupt row group")
	sch := rg.Schema()
	ccs := rg.ColumnChunks()
	n := int(rg.NumRows())
	cols := sch.Columns()
	s.names = make([]string, len(cols))
	s.wins = make([]colWindow, len(cols))
	for i, path := range cols {
		leaf, _ := sch.Lookup(path...)
		w := &s.wins[i]
		w.leaf, w.chunk, w.rows = leaf, ccs[leaf.ColumnIndex], n
		s.names[i] = path[0]
		s.views[path[0]] = &w.view
		w.batch = batch
		w.pages = w.chunk.Pages()
	}
	return s, nil
}

// at decodes the pages that hold row a in every column and returns the
// end of the slice from a: at most end, and no further than any column's
// page.
func (s *slicer) at(a, end int) (b int, err error) {
	defer recoverAs(&err, "corrupt page")
	b = end
	for i := range s.wins {
		w := &s.wins[i]
		if err := w.load(a); err != nil {
			return 0, fmt.Errorf("column %s.%s: %v", s.table, s.names[i], err)
		}
		b = min(b, w.r1)
	}
	return b, nil
}

// slice points the views at rows [a, b) (at returned b) and returns them.
func (s *slicer) slice(a, b int) map[string]*column {
	for i := range s.wins {
		s.wins[i].setView(a, b)
	}
	return s.views
}

// release lets every column reuse the pages of rows before from.
func (s *slicer) release(from int) {
	for i := range s.wins {
		s.wins[i].release(from)
	}
}

// finish checks, once every row has been read, that no column has more.
func (s *slicer) finish() (err error) {
	defer recoverAs(&err, "corrupt page")
	for i := range s.wins {
		w := &s.wins[i]
		if w.pages == nil {
			continue
		}
		if w.p1 < w.rows || w.r1 < w.p1 {
			return fmt.Errorf("column %s.%s: %d of its %d rows read", s.table, s.names[i], w.r1, w.rows)
		}
		for {
			pg, err := w.pages.ReadPage()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return fmt.Errorf("column %s.%s: %v", s.table, s.names[i], err)
			}
			n := pg.NumRows()
			parquet.Release(pg)
			if n > 0 {
				return fmt.Errorf("column %s.%s: the pages hold more than the %d rows of the row group", s.table, s.names[i], w.rows)
			}
		}
	}
	return nil
}

func (s *slicer) close() {
	for i := range s.wins {
		w := &s.wins[i]
		if w.pg != nil {
			parquet.Release(w.pg)
			w.pg = nil
		}
		if w.pages != nil {
			w.pages.Close()
		}
	}
}

// nullScan finds, a slice of rows at a time, the rows holding null in a
// column the specification requires but the file declares optional (as
// nullRows does for a whole row group).
type nullScan struct {
	cols []nullCol
	vals []parquet.Value
}

type nullCol struct {
	name  string // table.column
	pages parquet.Pages
	pg    parquet.Page
	vr    parquet.ValueReader
}

func newNullScan(rg parquet.RowGroup, table string, want *parquet.Schema) (s *nullScan, err error) {
	s = &nullScan{}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	defer recoverAs(&err, "corrupt row group")
	for _, path := range want.Columns() {
		w, _ := want.Lookup(path...)
		if w.Node.Optional() || w.MaxRepetitionLevel > 0 {
			continue
		}
		g, ok := rg.Schema().Lookup(path...)
		if !ok || !g.Node.Optional() {
			continue
		}
		s.cols = append(s.cols, nullCol{name: table + "." + path[0], pages: rg.ColumnChunks()[g.ColumnIndex].Pages()})
	}
	return s, nil
}

// scan reads the next k rows of each column, the rows from row first, and
// notes the first null of each row in out (by column order).
func (s *nullScan) scan(first, k int, out map[int64]string) (err error) {
	defer recoverAs(&err, "corrupt page")
	if len(s.cols) > 0 && s.vals == nil {
		s.vals = make([]parquet.Value, 1024)
	}
	for i := range s.cols {
		c := &s.cols[i]
		row := int64(first)
		for left := k; left > 0; {
			if c.vr == nil {
				pg, err := c.pages.ReadPage()
				if errors.Is(err, io.EOF) {
					return fmt.Errorf("column %s: fewer rows than the row group", c.name)
				}
				if err != nil {
					return fmt.Errorf("column %s: %v", c.name, err)
				}
				c.pg, c.vr = pg, pg.Values()
			}
			m, err := c.vr.ReadValues(s.vals[:min(left, len(s.vals))])
			for _, v := range s.vals[:m] {
				if v.IsNull() {
					if _, dup := out[row]; !dup {
						out[row] = c.name
					}
				}
				row++
			}
			left -= m
			switch {
			case errors.Is(err, io.EOF):
				parquet.Release(c.pg)
				c.pg, c.vr = nil, nil
			case err != nil:
				return fmt.Errorf("column %s: %v", c.name, err)
			case m == 0:
				return fmt.Errorf("column %s: a page gave no values", c.name)
			}
		}
	}
	return nil
}

func (s *nullScan) close() {
	for i := range s.cols {
		c := &s.cols[i]
		if c.pg != nil {
			parquet.Release(c.pg)
		}
		c.pages.Close()
	}
}

// readRows reads len(rows) rows from r into rows. A panic of the decoder
// on a corrupt page is an error.
func readRows[T any](r *parquet.GenericReader[T], rows []T) (err error) {
	defer recoverAs(&err, "corrupt page")
	clear(rows)
	got := 0
	for got < len(rows) {
		k, err := r.Read(rows[got:])
		got += k
		if got == len(rows) {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if err != nil || k == 0 {
			return fmt.Errorf("the row group ended after %d of its rows", got)
		}
	}
	return nil
}

// countChildren reads the n_boxes, n_seats, n_actions and n_pots columns
// of a rounds row group a page at a time: the rows each child table must
// hold for it. The damage is the first row (and, in the row, the first
// table) whose count is negative or over maxRoundChildRows, as the whole
// row group's reading reports it.
func countChildren(rg parquet.RowGroup, u Unit) (need [4]int64, dmg *DamageError, err error) {
	defer recoverAs(&err, "corrupt page")
	badRow, badN := int64(-1), int32(0)
	badI := -1
	vals := make([]parquet.Value, 4096)
	for i, name := range childTables {
		col := "n_" + name
		leaf, ok := rg.Schema().Lookup(col)
		if !ok {
			return need, nil, fmt.Errorf("no column rounds.%s", col)
		}
		pages := rg.ColumnChunks()[leaf.ColumnIndex].Pages()
		var row int64
		err := func() error {
			defer pages.Close()
			for {
				pg, err := pages.ReadPage()
				if errors.Is(err, io.EOF) {
					return nil
				}
				if err != nil {
					return err
				}
				vr := pg.Values()
				for {
					m, err := vr.ReadValues(vals)
					for _, v := range vals[:m] {
						c := v.Int32()
						if (c < 0 || int(c) > maxRoundChildRows) && (badRow < 0 || row < badRow) {
							badRow, badN, badI = row, c, i
						}
						need[i] += int64(max(c, 0))
						row++
					}
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						parquet.Release(pg)
						return err
					}
					if m == 0 {
						parquet.Release(pg)
						return errors.New("a page gave no values")
					}
				}
				parquet.Release(pg)
			}
		}()
		if err != nil {
			return need, nil, fmt.Errorf("column rounds.%s: %v", col, err)
		}
		if row != rg.NumRows() {
			return need, nil, fmt.Errorf("column rounds.%s: %d rows in the column chunk, want %d", col, row, rg.NumRows())
		}
	}
	if badI >= 0 {
		dmg = &DamageError{File: u.File, RowGroup: u.RowGroup, Row: u.FirstRow + badRow, Column: "rounds.n_" + childTables[badI], Reason: countReason(badN, childTables[badI])}
	}
	return need, dmg, nil
}

// countReason says why a round's count of child rows is refused.
func countReason(c int32, table string) string {
	if c < 0 {
		return fmt.Sprintf("negative count %d", c)
	}
	return fmt.Sprintf("%d %s rows for one round; this reader takes at most %d", c, table, maxRoundChildRows)
}

// roundSlices reads a rounds row group of more than sliceRounds rounds a
// slice at a time.
type roundSlices struct {
	n     int
	fast  *slicer                          // the specification's schema
	gen   *parquet.GenericReader[roundRow] // any other
	nulls *nullScan
	null  map[int64]string // the nulls of the current slice, by row in the row group
	all   []roundRow
}

// openRoundSlices opens row group g of f for reading in slices, and
// counts the rows its rounds need in each child table.
func openRoundSlices(f *parquet.File, g int, u Unit, fast bool) (s *roundSlices, need [4]int64, dmg *DamageError, err error) {
	rg, err := reopenGroup(f, g)
	if err != nil {
		return nil, need, nil, err
	}
	if need, dmg, err = countChildren(rg, u); err != nil || dmg != nil {
		return nil, need, dmg, err
	}
	s = &roundSlices{n: int(rg.NumRows())}
	if fast {
		s.fast, err = newSlicer(rg, TableRounds, sliceRounds)
		return s, need, nil, err
	}
	if s.nulls, err = newNullScan(rg, TableRounds, schemaRounds); err != nil {
		return nil, need, nil, err
	}
	s.gen = parquet.NewGenericRowGroupReader[roundRow](rg)
	s.null = map[int64]string{}
	return s, need, nil, nil
}

// next reads the slice from row a: it returns the slice's end and either
// the columns (fast: the slice's rows from index 0) or the rows, and the
// rows (by index in the row group) holding a null in a required column.
func (s *roundSlices) next(a int) (end int, cols map[string]*column, rows []roundRow, nulls map[int64]string, err error) {
	end = min(a+sliceRounds, s.n)
	if s.fast != nil {
		s.fast.release(a)
		if end, err = s.fast.at(a, end); err != nil {
			return 0, nil, nil, nil, err
		}
		return end, s.fast.slice(a, end), nil, nil, nil
	}
	if cap(s.all) < end-a {
		s.all = make([]roundRow, sliceRounds)
	}
	rows = s.all[:end-a]
	if err := readRows(s.gen, rows); err != nil {
		return 0, nil, nil, nil, err
	}
	clear(s.null)
	if err := s.nulls.scan(a, end-a, s.null); err != nil {
		return 0, nil, nil, nil, err
	}
	return end, nil, rows, s.null, nil
}

// finish checks that no column holds more rows than the row group.
func (s *roundSlices) finish() error {
	if s.fast != nil {
		return s.fast.finish()
	}
	return nil
}

func (s *roundSlices) close() {
	if s.fast != nil {
		s.fast.close()
	}
	if s.gen != nil {
		s.gen.Close()
	}
	if s.nulls != nil {
		s.nulls.close()
	}
}

// rowSource makes the rows of a child table's sliced row group, in order.
type rowSource[T any] interface {
	// release says that the rows before from are no longer used.
	release(from int)
	// next makes the next len(rows) rows, the first of which is row from
	// of the row group.
	next(from int, rows []T) error
	close()
}

// openChildRows opens row group g of a child file for reading in slices.
// For a file of another schema than want, nulls receives the rows
// holding a null in a required column as they are read.
func openChildRows[T any](f *parquet.File, g int, table string, want *parquet.Schema, bind func(map[string]*column) func(int, []T), nulls *map[int64]string) (rowSource[T], error) {
	rg, err := reopenGroup(f, g)
	if err != nil {
		return nil, err
	}
	if sameSchema(rg.Schema(), want) {
		s, err := newSlicer(rg, table, sliceRounds)
		if err != nil {
			return nil, err
		}
		return &fastRows[T]{s: s, bind: bind}, nil
	}
	ns, err := newNullScan(rg, table, want)
	if err != nil {
		return nil, err
	}
	*nulls = map[int64]string{}
	return &genericRows[T]{r: parquet.NewGenericRowGroupReader[T](rg), nulls: ns, null: *nulls}, nil
}

// fastRows makes rows from a slicer's columns.
type fastRows[T any] struct {
	s    *slicer
	bind func(map[string]*column) func(int, []T)
}

func (f *fastRows[T]) release(from int) { f.s.release(from) }

func (f *fastRows[T]) next(from int, rows []T) error {
	for done := 0; done < len(rows); {
		a := from + done
		b, err := f.s.at(a, from+len(rows))
		if err != nil {
			return err
		}
		f.bind(f.s.slice(a, b))(0, rows[done:done+b-a])
		done += b - a
	}
	return nil
}

func (f *fastRows[T]) close() { f.s.close() }

// genericRows reads rows with parquet-go's generic reader.
type genericRows[T any] struct {
	r     *parquet.GenericReader[T]
	nulls *nullScan
	null  map[int64]string
}

func (g *genericRows[T]) release(from int) {
	for row := range g.null {
		if row < int64(from) {
			delete(g.null, row)
		}
	}
}

func (g *genericRows[T]) next(from int, rows []T) error {
	if err := readRows(g.r, rows); err != nil {
		return err
	}
	return g.nulls.scan(from, len(rows), g.null)
}

func (g *genericRows[T]) close() {
	g.r.Close()
	g.nulls.close()
}
