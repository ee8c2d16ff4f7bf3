package roundlog

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/fairhold/fairhold/replay/round"
)

// ReadUnit reads unit i and calls fn for each readable round, in row
// order. The Record and everything it points to, its strings included,
// are reused after fn returns: copy what must be kept (strings.Clone).
// Damage (unreadable row groups, rows with invalid values) is returned as
// DamageErrors alongside; the rounds of the rest of the unit are still
// passed to fn. The error is fn's error, which stops the read.
func (d *Dataset) ReadUnit(i int, fn func(*Record) error) ([]*DamageError, error) {
	var damage []*DamageError
	err := d.ReadUnitStream(i, fn, func(e *DamageError) { damage = append(damage, e) })
	return damage, err
}

// ReadUnitStream reads unit i as ReadUnit does, but hands each damage
// report to damage as soon as it is found, in input order among the
// rounds passed to fn, rather than returning them all at the end: a unit
// of millions of rounds (a JSON Lines file, a huge row group) is read in
// bounded memory even when most of it is damaged. The DamageError is the
// callee's to keep.
func (d *Dataset) ReadUnitStream(i int, fn func(*Record) error, damage func(*DamageError)) error {
	u := d.units[i]
	if u.Format == FormatJSONL {
		return readJSONL(d.src, u.File, fn, damage)
	}
	return d.parts[u.File].read(u, fn, damage)
}

// Scan reads every unit in order: the damage found by Open first, then
// each unit's. It is the simple sequential reader; parallel readers call
// ReadUnit per unit and merge in unit order.
func (d *Dataset) Scan(fn func(*Record) error) ([]*DamageError, error) {
	damage := slicesClone(d.damage)
	for i := range d.units {
		dmg, err := d.ReadUnit(i, fn)
		damage = append(damage, dmg...)
		if err != nil {
			return damage, err
		}
	}
	return damage, nil
}

func slicesClone[T any](s []T) []T { return append([]T(nil), s...) }

// readGroup decodes a whole row group into buf. Panics of the decoder on
// corrupt pages are turned into errors.
func readGroup[T any](rg parquet.RowGroup, buf []T) (out []T, err error) {
	defer recoverAs(&err, "corrupt row group")
	n := int(rg.NumRows())
	if cap(buf) < n {
		buf = make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	r := parquet.NewGenericRowGroupReader[T](rg)
	defer r.Close()
	got := 0
	for got < n {
		k, err := r.Read(buf[got:])
		got += k
		if err != nil {
			if errors.Is(err, io.EOF) && got == n {
				break
			}
			if errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("corrupt row group: %d rows, want %d", got, n)
			}
			return nil, fmt.Errorf("corrupt row group: %v", err)
		}
		if k == 0 {
			return nil, fmt.Errorf("corrupt row group: %d rows, want %d", got, n)
		}
	}
	return buf, nil
}

// nullRows finds rows holding null in a column the specification requires
// but the file declares optional (a hand-written file). It returns the
// first null per row, by row index within the row group.
func nullRows(rg parquet.RowGroup, table string, want *parquet.Schema) (out map[int64]string, err error) {
	defer recoverAs(&err, "corrupt page")
	for _, path := range want.Columns() {
		w, _ := want.Lookup(path...)
		if w.Node.Optional() || w.MaxRepetitionLevel > 0 {
			continue
		}
		g, ok := rg.Schema().Lookup(path...)
		if !ok || !g.Node.Optional() {
			continue
		}
		pages := rg.ColumnChunks()[g.ColumnIndex].Pages()
		var row int64
		vals := make([]parquet.Value, 1024)
		for {
			pg, err := pages.ReadPage()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				pages.Close()
				return nil, err
			}
			vr := pg.Values()
			for {
				n, err := vr.ReadValues(vals)
				for _, v := range vals[:n] {
					if v.IsNull() {
						if out == nil {
							out = map[int64]string{}
						}
						if _, dup := out[row]; !dup {
							out[row] = table + "." + path[0]
						}
					}
					row++
				}
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					parquet.Release(pg)
					pages.Close()
					return nil, err
				}
			}
			parquet.Release(pg)
		}
		pages.Close()
	}
	return out, nil
}

// childGroup is one child table's row group for one unit: its decoded
// columns, whose rows are made a chunk of rounds at a time (fill, see
// ahead), or, for a file whose schema is not exactly the specification's,
// its rows (all).
type childGroup[T any] struct {
	fill  func(off int, rows []T)
	all   []T
	src   rowSource[T] // a row group of more than sliceChildRows rows: its rows in order
	err   error        // src failed: the rows from g.bufAt+len(g.buf) cannot be read
	buf   []T          // rows made by ahead: the rows from bufAt
	bufAt int
	n     int // rows
	table string
	path  string
	group int
	base  int64 // row index of the first row within the child file
	nulls map[int64]string
	next  int
}

// close closes the sliced row group's pages.
func (g *childGroup[T]) close() {
	if g.src != nil {
		g.src.close()
		g.src = nil
	}
}

// failed reports a sliced row group that could not be read on.
func (g *childGroup[T]) failed() *DamageError {
	if g.err == nil {
		return nil
	}
	return &DamageError{File: g.path, RowGroup: g.group, Row: g.base + int64(g.bufAt+len(g.buf)), Reason: "corrupt row group: " + g.err.Error()}
}

// loadChild decodes the row group of child table idx that holds the need
// rows of unit u's rounds into g, which keeps its buffers from the last
// unit.
func loadChild[T any](p *part, files *partFiles, idx int, u Unit, need int64, cols map[string]*column, g *childGroup[T], bind func(map[string]*column) func(int, []T)) *DamageError {
	c := p.children[idx]
	name := childTables[idx]
	g.close()
	*g = childGroup[T]{all: g.all[:0], buf: g.buf[:0], table: name}
	if need == 0 {
		return nil
	}
	if c == nil {
		return &DamageError{File: p.roundsFn, RowGroup: u.RowGroup, Row: -1, Column: "rounds.n_" + name,
			Reason: fmt.Sprintf("%d %s rows needed but the %s file is missing or unreadable", need, name, name)}
	}
	j := -1
	var base int64
	for k, f := range c.first {
		if f >= u.FirstRow && f < u.FirstRow+u.Rounds {
			j = k
			break
		}
		base += c.rows[k]
	}
	if j < 0 {
		return &DamageError{File: c.path, RowGroup: -1, Row: -1, Column: name + ".round_row",
			Reason: fmt.Sprintf("no row group holds the %s of rounds %d..%d of %s", name, u.FirstRow, u.FirstRow+u.Rounds-1, p.roundsFn)}
	}
	rg := rowGroup(files.kids[idx], j) // its booleans decoded by booleans.go
	if rg.NumRows() != need {
		return &DamageError{File: c.path, RowGroup: j, Row: -1, Column: name + ".round_row",
			Reason: fmt.Sprintf("row group has %d rows, the rounds of row group %d of %s need %d", rg.NumRows(), u.RowGroup, p.roundsFn, need)}
	}
	if err := checkRowGroup(files.kids[idx], j, name); err != nil {
		return &DamageError{File: c.path, RowGroup: j, Row: -1, Reason: "corrupt row group: " + err.Error()}
	}
	if rg.NumRows() > int64(sliceChildRows) {
		src, err := openChildRows(files.kids[idx], j, name, childSchemas[idx], bind, &g.nulls)
		if err != nil {
			return &DamageError{File: c.path, RowGroup: j, Row: -1, Reason: "corrupt row group: " + err.Error()}
		}
		g.src, g.n, g.path, g.group, g.base = src, int(need), c.path, j, base
		return nil
	}
	fast, err := decodeFast(rg, childSchemas[idx], name, cols)
	if err == nil && !fast {
		g.all, err = readGroup(rg, g.all)
	}
	if err != nil {
		return &DamageError{File: c.path, RowGroup: j, Row: -1, Reason: err.Error()}
	}
	if fast {
		g.fill = bind(cols)
	}
	nulls, err := nullRows(rg, name, childSchemas[idx])
	if err != nil {
		return &DamageError{File: c.path, RowGroup: j, Row: -1, Reason: fmt.Sprintf("corrupt row group: %v", err)}
	}
	g.n, g.path, g.group, g.base, g.nulls = int(need), c.path, j, base, nulls
	return nil
}

// take returns the next n child rows, which must be the round's at
// roundRow with id roundID, or damage when they are not. The rows are
// valid until the next take.
func (g *childGroup[T]) take(n int32, roundRow int64, roundID string, keys func(*T) (int64, string)) ([]T, *DamageError) {
	if n < 0 || int(n) > g.n-g.next {
		return nil, &DamageError{File: g.path, RowGroup: g.group, Row: -1, RoundID: roundID, Reason: fmt.Sprintf("round needs %d more rows than the row group holds", n)}
	}
	if n == 0 {
		return nil, nil
	}
	start := g.next
	var rows []T
	if g.fill == nil && g.src == nil {
		rows = g.all[start : start+int(n)]
	} else {
		if start < g.bufAt || start+int(n) > g.bufAt+len(g.buf) {
			g.ahead(int(n))
			if g.err != nil {
				return nil, &DamageError{File: g.path, RowGroup: g.group, Row: g.base + int64(start), RoundID: roundID, Reason: "corrupt row group: " + g.err.Error()}
			}
		}
		rows = g.buf[start-g.bufAt : start-g.bufAt+int(n)]
	}
	g.next += int(n)
	for k := range rows {
		row, id := keys(&rows[k])
		if row != roundRow {
			return nil, &DamageError{File: g.path, RowGroup: g.group, Row: g.base + int64(start+k), Column: "round_row", RoundID: roundID,
				Reason: fmt.Sprintf("row belongs to round row %d, want %d", row, roundRow)}
		}
		if id != roundID {
			return nil, &DamageError{File: g.path, RowGroup: g.group, Row: g.base + int64(start+k), Column: "round_id", RoundID: roundID,
				Reason: fmt.Sprintf("row of round row %d names round %q, the round's id is %q", row, id, roundID)}
		}
		if col, ok := g.nulls[int64(start+k)]; ok {
			return nil, &DamageError{File: g.path, RowGroup: g.group, Row: g.base + int64(start+k), Column: col, RoundID: roundID, Reason: "null in a required column"}
		}
	}
	return rows, nil
}

func (g *childGroup[T]) rowAt(k int) int64 { return g.base + int64(k) }

// ahead makes the next n rows (at most the rest of the group) in one pass
// over the columns, for the takes that follow (readChunk calls it with the
// rows of a chunk of rounds; take, for a round outside them).
func (g *childGroup[T]) ahead(n int) {
	n = min(n, g.n-g.next)
	if g.src != nil {
		g.aheadSliced(n)
		return
	}
	if g.fill == nil || n <= 0 {
		return
	}
	if cap(g.buf) < n {
		g.buf = make([]T, n)
	}
	g.buf = g.buf[:n]
	g.fill(g.next, g.buf)
	g.bufAt = g.next
}

// aheadSliced is ahead for a sliced row group, whose rows are made in
// order only: the rows already made from g.next on are kept, and the
// source makes the others.
func (g *childGroup[T]) aheadSliced(n int) {
	if g.err != nil || n <= 0 {
		return
	}
	made := g.bufAt + len(g.buf) // the source's next row
	keep := 0
	if g.next < made {
		keep = made - g.next
		copy(g.buf, g.buf[g.next-g.bufAt:])
	}
	if keep >= n {
		g.buf, g.bufAt = g.buf[:keep], g.next
		return
	}
	if cap(g.buf) < n {
		buf := make([]T, n)
		copy(buf, g.buf[:keep])
		g.buf = buf
	}
	g.buf, g.bufAt = g.buf[:n], g.next
	g.src.release(g.next)
	if g.err = g.src.next(made, g.buf[keep:]); g.err != nil {
		g.buf = g.buf[:keep]
	}
}

// unitBufs are the decode buffers of one read, reused through a pool.
type unitBufs struct {
	rounds                       []roundRow // a chunk of rows
	all                          []roundRow // every row, from the generic reader
	boxes                        childGroup[boxRow]
	seats                        childGroup[seatRow]
	actions                      childGroup[actionRow]
	pots                         childGroup[potRow]
	rec                          Record
	cards                        []string
	tTime, tCommitted, tRevealed timeCache
	times                        arena // the time texts of the unit's rounds
	// The decoded columns of the rounds, boxes, seats, actions and pots
	// tables, reused from unit to unit.
	cols [5]map[string]*column
	// ascii: the unit's rounds, boxes and seats were decoded column by
	// column and their text columns hold ASCII only, so their free texts
	// need no UTF-8 check (checkSizes).
	ascii bool
}

var bufPool = make(chan *unitBufs, 8)

func getBufs() *unitBufs {
	select {
	case b := <-bufPool:
		return b
	default:
		b := &unitBufs{}
		for i := range b.cols {
			b.cols[i] = map[string]*column{}
		}
		return b
	}
}

func putBufs(b *unitBufs) {
	select {
	case bufPool <- b:
	default:
	}
}

func (p *part) read(u Unit, fn func(*Record) error, sink func(*DamageError)) (err error) {
	report := func(d *DamageError) {
		// Damage outlives the unit's buffers.
		d.RoundID = strings.Clone(d.RoundID)
		sink(d)
	}
	groupDamage := func(reason string) *DamageError {
		return &DamageError{File: u.File, RowGroup: u.RowGroup, Row: -1, Reason: reason}
	}
	files, err := p.acquire()
	if err != nil {
		report(groupDamage(err.Error()))
		return nil
	}
	defer p.release()
	rg := rowGroup(files.rounds, u.RowGroup) // its booleans decoded by booleans.go
	b := getBufs()
	defer putBufs(b)
	b.resetTimes()
	// The rounds table is decoded column by column (or, for a file whose
	// schema is not exactly the specification's, row by row into all),
	// and its rows are made a chunk at a time, so that they are still in
	// the cache when assembled and checked. A row group of more than
	// sliceRounds rounds is read in slices (slice.go).
	if err := checkRowGroup(files.rounds, u.RowGroup, TableRounds); err != nil {
		report(groupDamage("corrupt row group: " + err.Error()))
		return nil
	}
	n := int(rg.NumRows())
	cols := b.cols[0]
	fast := fastRounds(rg.Schema())
	var all []roundRow
	var nulls map[int64]string
	var need [4]int64
	var sl *roundSlices
	if n > sliceRounds {
		var dmg *DamageError
		sl, need, dmg, err = openRoundSlices(files.rounds, u.RowGroup, u, fast)
		if err != nil {
			report(groupDamage("corrupt row group: " + err.Error()))
			return nil
		}
		if dmg != nil {
			report(dmg)
			return nil
		}
		defer sl.close()
	} else {
		if fast {
			err = decodeRoundColumns(rg, cols)
		} else {
			all, err = readGroup(rg, b.all)
			b.all = all
		}
		if err != nil {
			report(groupDamage(err.Error()))
			return nil
		}
		nulls, err = nullRows(rg, TableRounds, schemaRounds)
		if err != nil {
			report(groupDamage(fmt.Sprintf("corrupt row group: %v", err)))
			return nil
		}
		var nb, ns, na, np []int32
		var ids []string
		if fast {
			nb, ns, na, np, ids = cols["n_boxes"].i32, cols["n_seats"].i32, cols["n_actions"].i32, cols["n_pots"].i32, cols["round_id"].strs
		}
		for k := range n {
			var counts [4]int32
			var id string
			if fast {
				counts, id = [4]int32{nb[k], ns[k], na[k], np[k]}, ids[k]
			} else {
				r := &all[k]
				counts, id = [4]int32{r.NBoxes, r.NSeats, r.NActions, r.NPots}, r.RoundID
			}
			for i, c := range counts {
				if c < 0 || int(c) > maxRoundChildRows {
					if len(id) > maxFieldBytes {
						id = ""
					}
					report(&DamageError{File: u.File, RowGroup: u.RowGroup, Row: u.FirstRow + int64(k), Column: "rounds.n_" + childTables[i], RoundID: id, Reason: countReason(c, childTables[i])})
					return nil
				}
				need[i] += int64(c)
			}
		}
	}
	defer b.boxes.close()
	defer b.seats.close()
	defer b.actions.close()
	defer b.pots.close()
	if dmg := loadChild(p, files, 0, u, need[0], b.cols[1], &b.boxes, bindBoxes); dmg != nil {
		report(groupDamage("rounds not read: their boxes are damaged"))
		report(dmg)
		return nil
	}
	if dmg := loadChild(p, files, 1, u, need[1], b.cols[2], &b.seats, bindSeats); dmg != nil {
		report(groupDamage("rounds not read: their seats are damaged"))
		report(dmg)
		return nil
	}
	if dmg := loadChild(p, files, 2, u, need[2], b.cols[3], &b.actions, bindActions); dmg != nil {
		report(groupDamage("rounds not read: their actions are damaged"))
		report(dmg)
		return nil
	}
	if dmg := loadChild(p, files, 3, u, need[3], b.cols[4], &b.pots, bindPots); dmg != nil {
		report(groupDamage("rounds not read: their pots are damaged"))
		report(dmg)
		return nil
	}

	b.ascii = sl == nil && fast && asciiColumns(cols) &&
		(need[0] == 0 || b.boxes.fill != nil && asciiColumns(b.cols[1])) &&
		(need[1] == 0 || b.seats.fill != nil && asciiColumns(b.cols[2]))
	boxes, seats, actions, pots := &b.boxes, &b.seats, &b.actions, &b.pots
	// The rounds are read a slice at a time: the whole row group, or a
	// slice of a sliced one (whose columns or rows start at the slice).
	for a := 0; a < n; {
		end, base := n, 0
		view := cols
		if sl != nil {
			end, view, all, nulls, err = sl.next(a)
			if err != nil {
				report(&DamageError{File: u.File, RowGroup: u.RowGroup, Row: -1,
					Reason: fmt.Sprintf("corrupt row group: rounds from row %d on not read: %v", u.FirstRow+int64(a), err)})
				return nil
			}
			base = a
			b.resetTimes()
		}
		for off := a; off < end; off += roundChunk {
			m := min(roundChunk, end-off)
			var rows []roundRow
			if fast {
				if cap(b.rounds) < m {
					b.rounds = make([]roundRow, roundChunk)
				}
				rows = b.rounds[:m]
				fillRounds(view, off-base, rows)
			} else {
				rows = all[off-base : off-base+m]
			}
			if stop, err := p.readChunk(u, b, off, rows, nulls, boxes, seats, actions, pots, report, fn); err != nil || stop {
				return err
			}
		}
		a = end
	}
	if sl != nil {
		if err := sl.finish(); err != nil {
			report(groupDamage("corrupt row group: " + err.Error()))
		}
	}
	return nil
}

// asciiColumns reports whether the decoded text columns cols hold ASCII
// only (column.nonASCII).
func asciiColumns(cols map[string]*column) bool {
	for _, c := range cols {
		if c.nonASCII {
			return false
		}
	}
	return true
}

// failedTable names the first child table that could not be read on.
func failedTable(boxes *childGroup[boxRow], seats *childGroup[seatRow], actions *childGroup[actionRow], pots *childGroup[potRow]) string {
	switch {
	case boxes.err != nil:
		return boxes.table
	case seats.err != nil:
		return seats.table
	case actions.err != nil:
		return actions.table
	}
	return pots.table
}

// resetTimes forgets the time texts of the rounds read so far.
func (b *unitBufs) resetTimes() {
	b.times.reset()
	b.tTime.reset()
	b.tCommitted.reset()
	b.tRevealed.reset()
}

// roundChunk is how many rounds rows are made at a time.
const roundChunk = 256

// readChunk assembles, validates and hands fn the rounds rows, which are
// the row group's rows off, off+1, ... It reports whether a child table
// could not be read on (the rest of the row group is then not read).
func (p *part) readChunk(u Unit, b *unitBufs, off int, rows []roundRow, nulls map[int64]string,
	boxes *childGroup[boxRow], seats *childGroup[seatRow], actions *childGroup[actionRow], pots *childGroup[potRow],
	report func(*DamageError), fn func(*Record) error) (bool, error) {
	rec := &b.rec
	var need [4]int
	for j := range rows {
		rr := &rows[j]
		for i, c := range [4]int32{rr.NBoxes, rr.NSeats, rr.NActions, rr.NPots} {
			need[i] += max(int(c), 0)
		}
	}
	// A sliced child row group makes at most sliceChildRows rows ahead
	// (a round needing more makes its own when taken).
	boxes.ahead(min(need[0], sliceChildRows))
	seats.ahead(min(need[1], sliceChildRows))
	actions.ahead(min(need[2], sliceChildRows))
	pots.ahead(min(need[3], sliceChildRows))
	stopped := func(row int64) bool {
		if boxes.err == nil && seats.err == nil && actions.err == nil && pots.err == nil {
			return false
		}
		d := firstDamage(boxes.failed(), seats.failed(), actions.failed(), pots.failed())
		report(&DamageError{File: u.File, RowGroup: u.RowGroup, Row: -1,
			Reason: fmt.Sprintf("rounds from row %d on not read: their %s are damaged", row, failedTable(boxes, seats, actions, pots))})
		report(d)
		return true
	}
	if stopped(u.FirstRow + int64(off)) {
		return true, nil
	}
	for j := range rows {
		k := off + j
		rr := &rows[j]
		row := u.FirstRow + int64(k)
		bStart, sStart, aStart, pStart := boxes.next, seats.next, actions.next, pots.next
		bx, d1 := boxes.take(rr.NBoxes, row, rr.RoundID, func(r *boxRow) (int64, string) { return r.RoundRow, r.RoundID })
		st, d2 := seats.take(rr.NSeats, row, rr.RoundID, func(r *seatRow) (int64, string) { return r.RoundRow, r.RoundID })
		ac, d3 := actions.take(rr.NActions, row, rr.RoundID, func(r *actionRow) (int64, string) { return r.RoundRow, r.RoundID })
		pt, d4 := pots.take(rr.NPots, row, rr.RoundID, func(r *potRow) (int64, string) { return r.RoundRow, r.RoundID })
		if stopped(row) {
			return true, nil
		}
		if d := firstDamage(d1, d2, d3, d4); d != nil {
			report(d)
			continue
		}
		if col, ok := nulls[int64(k)]; ok {
			report(&DamageError{File: u.File, RowGroup: u.RowGroup, Row: row, Column: col, RoundID: rr.RoundID, Reason: "null in a required column"})
			continue
		}
		b.assemble(rr, bx, st, ac, pt)
		rec.File, rec.RowGroup, rec.Row = u.File, u.RowGroup, row
		bad := checkSizes(&rec.Round, !b.ascii)
		if bad.ok() {
			bad = validate(&rec.Round)
		}
		if !bad.ok() {
			id := rr.RoundID
			if len(id) > maxFieldBytes {
				id = ""
			}
			dmg := &DamageError{File: u.File, RowGroup: u.RowGroup, Row: row, Column: bad.column, RoundID: id, Reason: bad.reason}
			if bad.child >= 0 {
				switch bad.column[:len(bad.column)-len(afterDot(bad.column))-1] {
				case TableBoxes:
					dmg.File, dmg.RowGroup, dmg.Row = p.children[0].path, boxes.group, boxes.rowAt(bStart+bad.child)
				case TableSeats:
					dmg.File, dmg.RowGroup, dmg.Row = p.children[1].path, seats.group, seats.rowAt(sStart+bad.child)
				case TableActions:
					dmg.File, dmg.RowGroup, dmg.Row = p.children[2].path, actions.group, actions.rowAt(aStart+bad.child)
				case TablePots:
					dmg.File, dmg.RowGroup, dmg.Row = p.children[3].path, pots.group, pots.rowAt(pStart+bad.child)
				}
			}
			report(dmg)
			continue
		}
		if err := fn(rec); err != nil {
			return true, err
		}
	}
	return false, nil
}

func afterDot(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return s[i+1:]
		}
	}
	return s
}

func firstDamage(ds ...*DamageError) *DamageError {
	for _, d := range ds {
		if d != nil {
			return d
		}
	}
	return nil
}

// cardsOf appends the non-empty cards to the slab and returns them.
func (b *unitBufs) cardsOf(cs ...string) []string {
	start := len(b.cards)
	for _, c := range cs {
		if c != "" {
			b.cards = append(b.cards, c)
		}
	}
	return b.cards[start:len(b.cards):len(b.cards)]
}

// assemble fills b.rec.Round from the decoded rows, reusing its slices.
func (b *unitBufs) assemble(rr *roundRow, bx []boxRow, st []seatRow, ac []actionRow, pt []potRow) {
	r := &b.rec.Round
	boxesBuf := r.Boxes[:0]
	dh := r.Double
	b.cards = b.cards[:0]
	*r = round.Round{
		RoundID: rr.RoundID, Game: rr.Game, TableID: rr.TableID, TableSeq: uint64(rr.TableSeq), Time: b.tTime.format(&b.times, rr.Time), Currency: rr.Currency,
		Profile: rr.Profile, ProfileHash: rr.ProfileHash,
		Fairness: round.Fairness{
			Scheme: rr.Scheme, Commitment: rr.Commitment, CommittedAt: b.tCommitted.format(&b.times, rr.CommittedAt),
			ServerSeed: rr.ServerSeed, RevealedAt: b.tRevealed.format(&b.times, rr.RevealedAt), ChainIndex: uint64(rr.ChainIndex),
			ClientSeeds: rr.ClientSeeds, Nonce: uint64(rr.Nonce), ClientSeedRotated: rr.ClientSeedRotated,
			BeaconChain: rr.BeaconChain, BeaconRound: uint64(rr.BeaconRound),
			BeaconSignature: rr.BeaconSignature, BeaconPreviousSignature: rr.BeaconPreviousSignature,
		},
		Void: rr.Void, VoidReason: rr.VoidReason,
	}
	if len(rr.WalletIDs) > 0 {
		r.WalletIDs = rr.WalletIDs
	}
	if r.Fairness.ClientSeeds == nil {
		r.Fairness.ClientSeeds = []string{}
	}
	if rr.Dealer1 != "" || rr.Dealer2 != "" {
		r.Dealer = b.cardsOf(rr.Dealer1, rr.Dealer2)
	}
	r.Board = b.cardsOf(rr.Board1, rr.Board2, rr.Board3, rr.Board4, rr.Board5)
	if len(bx) > 0 {
		r.Boxes = boxesBuf
		for k := range bx {
			x := &bx[k]
			r.Boxes = append(r.Boxes, round.Box{
				Box: int(x.Box), PlayerID: x.PlayerID, Cards: b.cardsOf(x.Card1, x.Card2),
				AnteRequested: x.AnteRequested, Ante: x.Ante, BonusRequested: x.BonusRequested, Bonus: x.Bonus,
				Decision: x.Decision, Call: x.Call,
				AnteReturn: x.AnteReturn, CallReturn: x.CallReturn, BonusReturn: x.BonusReturn,
				BalanceBefore: x.BalanceBefore, BalanceAfter: x.BalanceAfter,
			})
		}
	}
	if rr.Game != round.DoubleHoldem && len(st) == 0 && len(ac) == 0 && len(pt) == 0 {
		return
	}
	if dh == nil {
		dh = &round.DoubleHand{}
	}
	*dh = round.DoubleHand{
		Button: int(rr.Button), SmallBlind: rr.SmallBlind, BigBlind: rr.BigBlind, Rake: rr.Rake,
		Seats: dh.Seats[:0], Actions: dh.Actions[:0], Pots: dh.Pots[:0],
	}
	for k := range st {
		s := &st[k]
		dh.Seats = append(dh.Seats, round.Seat{
			Seat: int(s.Seat), PlayerID: s.PlayerID, Cards: b.cardsOf(s.Card1, s.Card2, s.Card3),
			BonusCard: s.BonusCard, BonusAuto: s.BonusAuto, StackBefore: s.StackBefore, StackAfter: s.StackAfter,
		})
	}
	for k := range ac {
		a := &ac[k]
		dh.Actions = append(dh.Actions, round.Action{Seat: int(a.Seat), Street: a.Street, Kind: a.Kind, Amount: a.Amount, AllIn: a.AllIn})
	}
	for k := range pt {
		p := &pt[k]
		shares := p.Shares
		if shares == nil {
			shares = []int64{}
		}
		dh.Pots = append(dh.Pots, round.Pot{Amount: p.Amount, Eligible: ints(p.Eligible), Winners: ints(p.Winners), Shares: shares})
	}
	if dh.Seats == nil {
		dh.Seats = []round.Seat{}
	}
	if dh.Actions == nil {
		dh.Actions = []round.Action{}
	}
	if dh.Pots == nil {
		dh.Pots = []round.Pot{}
	}
	r.Double = dh
}
