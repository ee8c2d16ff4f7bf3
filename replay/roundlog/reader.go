package roundlog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/fairhold/fairhold/replay/internal/regularfile"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/source"
)

// Formats of a unit.
const (
	FormatParquet = "parquet"
	FormatJSONL   = "jsonl"
)

// Record is one round read from a log, with where it was.
type Record struct {
	Round    round.Round
	File     string // the rounds file or JSON Lines file
	RowGroup int    // row group index from 0 (0 for JSON Lines)
	Row      int64  // row index within the file from 0 (JSON Lines: line index)
}

// Unit is the unit of parallel reading: one row group of a part's rounds
// file (with the matching row groups of its child files), or one JSON
// Lines file. Units are listed in a fixed order (files sorted by path, row
// groups in order), so results merged in unit order are the same whatever
// the number of workers.
type Unit struct {
	File     string
	Format   string
	RowGroup int
	FirstRow int64 // row index of the unit's first round within File
	Rounds   int64 // rounds in the unit; -1 when unknown (JSON Lines)
}

// Dataset is an opened round log: Parquet parts and JSON Lines files.
// Its methods are safe for concurrent use.
//
// Open reads every Parquet file's footer once, to list the units and check
// the schema, and closes the file again. A part's files are opened when
// one of its units is read and closed when all its units have been read:
// a dataset of many files holds the footers and descriptors of the parts
// being read only, not of every part.
type Dataset struct {
	src      source.Source
	units    []Unit
	parts    map[string]*part // by rounds file
	damage   []*DamageError
	files    []DatasetFile
	warnings []string
}

// part is one Parquet part: what Open learnt of its files, and its files
// while units of it are being read.
type part struct {
	src         source.Source
	roundsFn    string
	roundGroups int
	children    [4]*child // boxes, seats, actions, pots

	mu    sync.Mutex
	files *partFiles // nil when closed
	users int        // reads in progress
	left  int        // units not read yet
}

// partFiles are a part's opened files.
type partFiles struct {
	rounds *parquet.File
	kids   [4]*parquet.File
	os     []source.File
}

func (pf *partFiles) close() error {
	var errs []error
	for _, f := range pf.os {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}

// child is a child table: its row groups by the first round row they hold.
type child struct {
	name  string
	path  string
	first []int64 // first round_row of each row group
	rows  []int64 // rows of each row group
}

// acquire opens the part's files if they are closed.
func (p *part) acquire() (*partFiles, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.files == nil {
		pf, err := p.open()
		if err != nil {
			return nil, err
		}
		p.files = pf
	}
	p.users++
	return p.files, nil
}

// release ends a read of one unit; the files are closed once every unit
// has been read and no read is in progress.
func (p *part) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.users--
	p.left--
	if p.users == 0 && p.left <= 0 && p.files != nil {
		p.files.close()
		p.files = nil
	}
}

// open opens the part's files again, and checks them as Open did and
// that they still have the row groups Open found.
func (p *part) open() (*partFiles, error) {
	pf := &partFiles{}
	openOne := func(fn, table string, want *parquet.Schema, groups int) (*parquet.File, error) {
		file, f, dmg, err := openParquet(p.src, fn, table, want)
		switch {
		case err != nil:
			return nil, fmt.Errorf("cannot open the file again: %v", err)
		case dmg != nil:
			return nil, fmt.Errorf("the file changed since it was opened: %s", dmg.Reason)
		}
		pf.os = append(pf.os, f)
		if n := len(file.RowGroups()); n != groups {
			return nil, fmt.Errorf("the file changed since it was opened: %d row groups, then %d", groups, n)
		}
		return file, nil
	}
	var err error
	if pf.rounds, err = openOne(p.roundsFn, TableRounds, schemaRounds, p.roundGroups); err != nil {
		pf.close()
		return nil, err
	}
	for i, c := range p.children {
		if c == nil {
			continue
		}
		if pf.kids[i], err = openOne(c.path, childTables[i], childSchemas[i], len(c.first)); err != nil {
			pf.close()
			return nil, fmt.Errorf("%s: %w", c.path, err)
		}
	}
	return pf, nil
}

// openParquetFile reads the footer of a Parquet file. A panic of
// parquet-go on a corrupt footer is an error.
func openParquetFile(f source.File) (pf *parquet.File, err error) {
	defer recoverAs(&err, "corrupt footer")
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkFooter(f, st.Size()); err != nil {
		return nil, err
	}
	return parquet.OpenFile(f, st.Size(), parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true), parquet.ReadBufferSize(1<<20))
}

var childTables = [4]string{TableBoxes, TableSeats, TableActions, TablePots}

// Open opens the logs at paths: dataset directories, Parquet rounds
// files, or JSON Lines files (*.jsonl).
//
// A dataset directory DIR has one folder per table (docs/log-format.md
// section 3.1): every DIR/rounds/NAME.parquet is the rounds file of the
// part NAME, whose child tables are DIR/boxes/NAME.parquet,
// DIR/seats/NAME.parquet, ... when present, and every DIR/rounds/NAME.jsonl
// is a JSON Lines log. The old flat layout, DIR/PREFIX.rounds.parquet
// beside DIR/PREFIX.boxes.parquet, ... and DIR/PREFIX.rounds.jsonl, is
// still read, with a warning ([Dataset.Warnings]). Names starting with a
// dot (such as the temporary files of a writer) and other files (such as
// the simulator's faults.jsonl or the manifest) are not logs. A directory
// named rounds may be given for its parent.
//
// Only regular files (or symbolic links to them) are read. A file named
// like a part that is a named pipe, a device, a directory, a dangling or
// looping link, or that cannot be opened or read at all (not Parquet,
// truncated, wrong schema, missing required column), and a child table's
// file without its rounds file, is listed by [Dataset.Damage]; the other
// parts are read. The error is reserved for paths that do not exist, an
// input without any log, and files of an unknown major schema version
// ([ErrUnsupportedVersion]).
func Open(paths ...string) (*Dataset, error) { return OpenFrom(source.Local, paths...) }

// OpenFrom opens the logs at paths as [Open] does, reading them from src
// (paths in src's syntax, such as s3://bucket/day for an object store).
func OpenFrom(src source.Source, paths ...string) (*Dataset, error) {
	l := listing{src: src}
	for _, p := range paths {
		st, err := src.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("failed to open round log: %w", err)
		}
		if !st.IsDir() {
			l.add(p, childrenOf(p))
			if strings.HasSuffix(p, flatRounds+".parquet") {
				l.warn(flatWarning(p))
			}
			continue
		}
		if err := l.listDir(p); err != nil {
			return nil, fmt.Errorf("failed to open round log: %w", err)
		}
	}
	slices.SortFunc(l.rounds, func(a, b roundsFile) int { return strings.Compare(a.path, b.path) })
	l.rounds = slices.CompactFunc(l.rounds, func(a, b roundsFile) bool { return a.path == b.path })
	if len(l.rounds) == 0 && len(l.orphans) == 0 && !l.manifest {
		return nil, fmt.Errorf("no round log files (rounds/*.parquet, rounds/*.jsonl, or the old layout's *.rounds.parquet, *.rounds.jsonl) in %s", strings.Join(paths, ", "))
	}
	d := &Dataset{src: src, parts: map[string]*part{}, warnings: l.warnings}
	have := map[string]bool{}
	for _, r := range l.rounds {
		have[r.path] = true
		if _, err := src.Check(r.path); err != nil {
			d.damage = append(d.damage, &DamageError{File: r.path, RowGroup: -1, Row: -1, Reason: notReadable(err)})
			d.files = append(d.files, DatasetFile{Path: r.path, Table: TableRounds, Rows: -1})
			d.addChildFiles(r)
			continue
		}
		var err error
		switch {
		case strings.HasSuffix(r.path, ".jsonl"):
			d.units = append(d.units, Unit{File: r.path, Format: FormatJSONL, Rounds: -1})
			d.files = append(d.files, DatasetFile{Path: r.path, Table: TableRounds, Rows: -1})
		case strings.HasSuffix(r.path, ".parquet"):
			err = d.openPart(r)
		default:
			err = fmt.Errorf("%s: not a round log file (want *.parquet or *.jsonl)", r.path)
		}
		if err != nil {
			d.Close()
			return nil, err
		}
	}
	slices.SortFunc(l.orphans, func(a, b orphan) int { return strings.Compare(a.Path, b.Path) })
	for _, o := range l.orphans {
		if have[o.roundsPath] {
			continue
		}
		d.files = append(d.files, o.DatasetFile)
		d.damage = append(d.damage, &DamageError{File: o.Path, RowGroup: -1, Row: -1,
			Reason: fmt.Sprintf("a %s file without its rounds file %s: the part's rounds are missing", o.Table, o.roundsPath)})
	}
	return d, nil
}

// The old flat layout's rounds files end in flatRounds + ".parquet" or
// ".jsonl".
const flatRounds = "." + TableRounds

func flatWarning(where string) string {
	return fmt.Sprintf("%s: the old flat layout (PREFIX.rounds.parquet beside PREFIX.boxes.parquet, ...), read as before; "+
		"write one folder per table (rounds/part-00000.parquet, boxes/part-00000.parquet, ...; docs/log-format.md section 3.1)", where)
}

// DatasetFile is a file of a dataset named like a part's file, readable
// or not, as [Open] found it.
type DatasetFile struct {
	Path  string // as Open found it: joined to the path it was given
	Table string
	Rows  int64 // rows of the table in the file per its footer; -1 when unknown (JSON Lines, damage)
}

// roundsFile is a rounds file found by Open and the way to its child
// tables' files: child(table) is the path of one, "" for none.
type roundsFile struct {
	path  string
	child func(table string) string
}

// orphan is a child table's file found in a directory, to be reported
// when its rounds file is not there.
type orphan struct {
	DatasetFile
	roundsPath string
}

// listing is what Open found in its paths.
type listing struct {
	src      source.Source
	rounds   []roundsFile
	orphans  []orphan
	warnings []string
	manifest bool // a directory holds a manifest
}

func (l *listing) add(path string, child func(string) string) {
	l.rounds = append(l.rounds, roundsFile{path: path, child: child})
}

func (l *listing) warn(w string) {
	if !slices.Contains(l.warnings, w) {
		l.warnings = append(l.warnings, w)
	}
}

// listDir lists the logs of the directory dir: its table folders, and
// the files of the old flat layout.
func (l *listing) listDir(dir string) error {
	ents, err := l.src.ReadDir(dir)
	if err != nil {
		return err
	}
	flat := false
	folder := false
	for _, e := range ents {
		n := e.Name()
		switch {
		case strings.HasPrefix(n, "."):
		case n == manifest.FileName:
			l.manifest = true
		case strings.HasSuffix(n, flatRounds+".parquet") || strings.HasSuffix(n, flatRounds+".jsonl"):
			p := source.Join(dir, n)
			l.add(p, childrenOf(p))
			flat = true
		case n == TableRounds:
			folder = true
		default:
			for _, t := range childTables {
				if prefix, ok := strings.CutSuffix(n, "."+t+".parquet"); ok {
					l.orphans = append(l.orphans, orphan{DatasetFile{Path: source.Join(dir, n), Table: t, Rows: -1}, source.Join(dir, prefix+flatRounds+".parquet")})
				}
			}
		}
	}
	if flat {
		l.warn(flatWarning(dir))
	}
	if folder {
		return l.listFolders(dir)
	}
	if !flat && source.Base(source.Clean(dir)) == TableRounds {
		return l.listFolders(source.Dir(source.Clean(dir)))
	}
	return nil
}

// listFolders lists the table folders of the dataset dir. A name in a
// table folder that is not a regular file is listed all the same: it is
// damage, never skipped.
func (l *listing) listFolders(dir string) error {
	names, err := partNames(l.src, source.Join(dir, TableRounds))
	if err != nil {
		return err
	}
	for _, n := range names {
		if strings.HasSuffix(n, ".parquet") || strings.HasSuffix(n, ".jsonl") {
			p := source.Join(dir, TableRounds, n)
			l.add(p, childrenOf(p))
		}
	}
	for _, t := range childTables {
		names, err := partNames(l.src, source.Join(dir, t))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return err
		}
		for _, n := range names {
			if strings.HasSuffix(n, ".parquet") {
				l.orphans = append(l.orphans, orphan{DatasetFile{Path: source.Join(dir, t, n), Table: t, Rows: -1}, source.Join(dir, TableRounds, n)})
			}
		}
	}
	return nil
}

// partNames lists the names in a table folder that do not start with a
// dot.
func partNames(src source.Source, folder string) ([]string, error) {
	ents, err := src.ReadDir(folder)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// childrenOf returns where the child tables' files of the rounds file
// path are: PREFIX.boxes.parquet beside PREFIX.rounds.parquet (the flat
// layout), DIR/boxes/NAME.parquet for DIR/rounds/NAME.parquet, and none
// for another name or a JSON Lines file.
func childrenOf(path string) func(string) string {
	if prefix, ok := strings.CutSuffix(path, flatRounds+".parquet"); ok {
		return func(t string) string { return prefix + "." + t + ".parquet" }
	}
	dir, name := source.Split(path)
	if strings.HasSuffix(name, ".parquet") && source.Base(source.Clean(dir)) == TableRounds {
		root := source.Dir(source.Clean(dir))
		return func(t string) string { return source.Join(root, t, name) }
	}
	return func(string) string { return "" }
}

// notReadable is the damage reason for a file that cannot be opened.
func notReadable(err error) string {
	var re *regularfile.Error
	if errors.As(err, &re) {
		return re.Reason
	}
	return fmt.Sprintf("cannot be opened: %v", err)
}

// addChildFiles lists the child files of a part whose rounds file cannot
// be read: they are files of the dataset.
func (d *Dataset) addChildFiles(r roundsFile) {
	for _, t := range childTables {
		if c := r.child(t); c != "" {
			if _, err := d.src.Lstat(c); err == nil {
				d.files = append(d.files, DatasetFile{Path: c, Table: t, Rows: -1})
			}
		}
	}
}

// Files lists every file of the dataset named like a part's file, in the
// order Open found them: each part's rounds file then its child files,
// readable or not, and the child files without a rounds file.
func (d *Dataset) Files() []DatasetFile { return d.files }

// Source is where the dataset's files are read from.
func (d *Dataset) Source() source.Source { return d.src }

// Warnings says what Open read but could not check as it should: the old
// flat layout.
func (d *Dataset) Warnings() []string { return d.warnings }

// Units lists the units to read, in order.
func (d *Dataset) Units() []Unit { return d.units }

// Damage lists the files that could not be read at all.
func (d *Dataset) Damage() []*DamageError { return d.damage }

// Rounds is the number of rounds in the Parquet units (JSON Lines files
// are not counted).
func (d *Dataset) Rounds() int64 {
	var n int64
	for _, u := range d.units {
		if u.Rounds > 0 {
			n += u.Rounds
		}
	}
	return n
}

// Close closes the files of the parts being read.
func (d *Dataset) Close() error {
	var errs []error
	for _, p := range d.parts {
		p.mu.Lock()
		if p.files != nil {
			errs = append(errs, p.files.close())
			p.files = nil
		}
		p.mu.Unlock()
	}
	return errors.Join(errs...)
}

// openError is a file that could not be opened.
type openError struct{ err error }

func (e *openError) Error() string { return e.err.Error() }
func (e *openError) Unwrap() error { return e.err }

// openDamage turns the error of openParquet for a file that cannot be
// opened into damage; other errors stay errors.
func openDamage(fn string, err error) (*DamageError, error) {
	var oe *openError
	if errors.As(err, &oe) {
		return &DamageError{File: fn, RowGroup: -1, Row: -1, Reason: notReadable(oe.err)}, nil
	}
	return nil, err
}

// openParquet opens fn and checks its version, table and schema. The
// caller closes the returned source.File. A file that cannot be opened (or
// is not a regular file) is an *openError.
func openParquet(src source.Source, fn, table string, want *parquet.Schema) (*parquet.File, source.File, *DamageError, error) {
	f, err := src.Open(fn)
	if err != nil {
		return nil, nil, nil, &openError{err}
	}
	pf, dmg, err := checkParquet(f, fn, table, want)
	if pf == nil {
		f.Close()
		return nil, nil, dmg, err
	}
	return pf, f, nil, nil
}

func checkParquet(f source.File, fn, table string, want *parquet.Schema) (*parquet.File, *DamageError, error) {
	pf, err := openParquetFile(f)
	if err != nil {
		return nil, &DamageError{File: fn, RowGroup: -1, Row: -1, Reason: fmt.Sprintf("not a readable Parquet file (truncated or corrupt footer): %v", err)}, nil
	}
	v, ok := pf.Lookup(MetaSchemaVersion)
	if !ok {
		return nil, &DamageError{File: fn, RowGroup: -1, Row: -1, Reason: fmt.Sprintf("wrong schema: no %s key-value metadata; not a fairhold round log", MetaSchemaVersion)}, nil
	}
	if err := checkVersion(fn, v); err != nil {
		return nil, nil, err
	}
	if t, _ := pf.Lookup(MetaTable); t != table {
		return nil, &DamageError{File: fn, RowGroup: -1, Row: -1, Reason: fmt.Sprintf("wrong schema: file holds table %q, want %q", t, table)}, nil
	}
	if dmg := checkSchema(fn, table, pf.Schema(), want); dmg != nil {
		return nil, dmg, nil
	}
	if g, col, err := checkChunkMeta(pf, table); err != nil {
		return nil, &DamageError{File: fn, RowGroup: g, Row: -1, Column: col, Reason: "corrupt footer: " + err.Error()}, nil
	}
	if dmg := checkReadable(fn, table, pf, want); dmg != nil { // colread.go
		return nil, dmg, nil
	}
	return pf, nil, nil
}

// checkSchema compares the file's columns with the expected ones: every
// required column must be there with its physical type; optional ones may
// be absent. A panic of parquet-go on a malformed schema is damage.
func checkSchema(fn, table string, got, want *parquet.Schema) (dmg *DamageError) {
	defer func() {
		if r := recover(); r != nil {
			dmg = &DamageError{File: fn, RowGroup: -1, Row: -1, Reason: fmt.Sprintf("wrong schema: %v", r)}
		}
	}()
	// Columns of the wrong type first: they say more than a missing one.
	for _, path := range want.Columns() {
		w, _ := want.Lookup(path...)
		g, ok := got.Lookup(path...)
		if !ok {
			continue
		}
		col := table + "." + path[0]
		if g.Node.Type().Kind() != w.Node.Type().Kind() {
			return &DamageError{File: fn, RowGroup: -1, Row: -1, Column: col,
				Reason: fmt.Sprintf("wrong schema: physical type %s, want %s", g.Node.Type().Kind(), w.Node.Type().Kind())}
		}
		if g.MaxRepetitionLevel != w.MaxRepetitionLevel {
			return &DamageError{File: fn, RowGroup: -1, Row: -1, Column: col, Reason: "wrong schema: repetition differs from the specification"}
		}
	}
	for _, path := range want.Columns() {
		w, _ := want.Lookup(path...)
		if _, ok := got.Lookup(path...); !ok && !w.Node.Optional() && w.MaxRepetitionLevel == 0 {
			return &DamageError{File: fn, RowGroup: -1, Row: -1, Column: table + "." + path[0], Reason: "wrong schema: required column missing"}
		}
	}
	return nil
}

var (
	schemaRounds  = parquet.SchemaOf(roundRow{})
	schemaBoxes   = parquet.SchemaOf(boxRow{})
	schemaSeats   = parquet.SchemaOf(seatRow{})
	schemaActions = parquet.SchemaOf(actionRow{})
	schemaPots    = parquet.SchemaOf(potRow{})
	childSchemas  = [4]*parquet.Schema{schemaBoxes, schemaSeats, schemaActions, schemaPots}
)

// openPart reads the footers of a part's files, lists its units and
// closes the files again.
func (d *Dataset) openPart(r roundsFile) error {
	fn := r.path
	rf, f, dmg, err := openParquet(d.src, fn, TableRounds, schemaRounds)
	if err != nil {
		if dmg, err = openDamage(fn, err); err != nil {
			return err
		}
	}
	if dmg != nil {
		d.damage = append(d.damage, dmg)
		d.files = append(d.files, DatasetFile{Path: fn, Table: TableRounds, Rows: -1})
		d.addChildFiles(r)
		return nil
	}
	defer f.Close()
	p := &part{src: d.src, roundsFn: fn, roundGroups: len(rf.RowGroups())}
	d.files = append(d.files, DatasetFile{Path: fn, Table: TableRounds, Rows: rf.NumRows()})
	for i, name := range childTables {
		cfn := r.child(name)
		if cfn == "" {
			continue
		}
		if _, err := d.src.Lstat(cfn); err != nil {
			continue
		}
		df := DatasetFile{Path: cfn, Table: name, Rows: -1}
		cf, f, dmg, err := openParquet(d.src, cfn, name, childSchemas[i])
		if err != nil {
			if dmg, err = openDamage(cfn, err); err != nil {
				return err
			}
		}
		if dmg != nil {
			// The rounds needing this table will be reported per row group.
			d.damage = append(d.damage, dmg)
			d.files = append(d.files, df)
			continue
		}
		c := &child{name: name, path: cfn}
		for j, rg := range cf.RowGroups() {
			first, err := firstRoundRow(cf, j, name)
			if err != nil {
				d.damage = append(d.damage, &DamageError{File: cfn, RowGroup: j, Row: -1, Column: name + ".round_row", Reason: fmt.Sprintf("corrupt row group: %v", err)})
				first = -1
			}
			c.first = append(c.first, first)
			c.rows = append(c.rows, rg.NumRows())
		}
		f.Close()
		df.Rows = cf.NumRows()
		d.files = append(d.files, df)
		p.children[i] = c
	}
	d.parts[fn] = p
	var row int64
	for j, rg := range rf.RowGroups() {
		d.units = append(d.units, Unit{File: fn, Format: FormatParquet, RowGroup: j, FirstRow: row, Rounds: rg.NumRows()})
		row += rg.NumRows()
		p.left++
	}
	return nil
}

// firstRoundRow reads the round_row of a child row group's first row. A
// panic of parquet-go on a corrupt page is an error.
func firstRoundRow(f *parquet.File, g int, table string) (first int64, err error) {
	defer recoverAs(&err, "corrupt page")
	rg := f.RowGroups()[g]
	if rg.NumRows() == 0 {
		return -1, nil
	}
	leaf, ok := rg.Schema().Lookup("round_row")
	if !ok {
		return 0, errors.New("no round_row column")
	}
	if err := checkColumn(f, g, leaf.ColumnIndex, table); err != nil {
		return 0, err
	}
	pages := rg.ColumnChunks()[leaf.ColumnIndex].Pages()
	defer pages.Close()
	pg, err := pages.ReadPage()
	if err != nil {
		return 0, err
	}
	defer parquet.Release(pg)
	var v [1]parquet.Value
	n, err := pg.Values().ReadValues(v[:])
	if n != 1 {
		if err == nil || err == io.EOF {
			err = errors.New("empty first page")
		}
		return 0, err
	}
	return v[0].Int64(), nil
}
