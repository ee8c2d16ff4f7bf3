package replayer

// The dataset as a whole against its manifest (docs/log-format.md section
// 8): the parts the manifest lists are there, whole, and nothing else is.
//
// The comparison needs what the replay read of each part (its rounds,
// first and last round ids, time range), known only once the last unit is
// done, but its findings come first in the canonical order. So while a
// manifest is being checked, the replay's findings are held back (in
// memory, then in a temporary file that is removed at once) and written
// after the manifest's. An honest dataset holds nothing back. The files'
// SHA-256 are computed on a goroutine of their own while the units are
// read.

import (
	"bufio"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/internal/regularfile"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/source"
)

// DatasetManifest is the manifest of one path given to the replay.
type DatasetManifest struct {
	// Path is the path given: a dataset directory, whose manifest's
	// paths are relative to it, or a file.
	Path string
	// Loaded is the manifest read; nil when there is none or it is
	// invalid.
	Loaded *manifest.Loaded
	// Err says why the manifest is invalid ([finding.ManifestInvalid]):
	// unreadable, malformed, or, with a key, not signed by it.
	Err error
}

// LoadManifests reads the manifest of every directory of paths
// ([manifest.Load]); with key, each must be signed by it. A directory
// without a manifest, or a file given alone, has neither Loaded nor Err:
// the replay then warns that the dataset's completeness could not be
// checked (with a key, a missing manifest is invalid).
func LoadManifests(paths []string, key ed25519.PublicKey) []DatasetManifest {
	return LoadManifestsFrom(source.Local, paths, key)
}

// LoadManifestsFrom reads the manifests of paths in src, as
// [LoadManifests] does.
func LoadManifestsFrom(src source.Source, paths []string, key ed25519.PublicKey) []DatasetManifest {
	out := make([]DatasetManifest, 0, len(paths))
	for _, p := range paths {
		dm := DatasetManifest{Path: p}
		if st, err := src.Stat(p); err == nil && st.IsDir() {
			dm.Loaded, dm.Err = manifest.LoadFrom(src, p, key)
			if errors.Is(dm.Err, fs.ErrNotExist) {
				dm.Err = nil
				if key != nil {
					dm.Err = &manifest.InvalidError{File: source.Join(p, manifest.FileName), Reason: "no manifest (a key was given, so the dataset must have a signed manifest)", Err: dm.Err}
				}
			}
		}
		out = append(out, dm)
	}
	return out
}

// partSeen is what the replay read of one rounds file.
type partSeen struct {
	rounds           int64
	firstID, lastID  string
	minTime, maxTime int64
	timed            bool // minTime and maxTime are set
}

// fileHash is the SHA-256 and size of a listed file, or why it could not
// be read.
type fileHash struct {
	sum   string
	bytes int64
	err   error
}

// datasetCheck compares the dataset with the manifests of opts.Manifests.
type datasetCheck struct {
	ds        Dataset
	src       source.Source // where ds's files are
	manifests []DatasetManifest
	sum       *Summary
	out       func(*finding.Finding) error // the caller's Findings

	seen map[string]*partSeen // by rounds file
	cur  *partSeen
	curF string

	hashes map[string]fileHash // by path; filled by the hashing goroutine
	hashed chan struct{}
	stop   chan struct{}

	// A merge's check (shard.go) has the dataset's files and which listed
	// files exist from the parts, not from the file system.
	merged  bool
	files   []roundlog.DatasetFile
	present map[string]bool

	held spool
	// observed: seen is filled already (a merge's, from the parts).
	observed bool
}

// newDatasetCheck starts the check of ds against opts.Manifests: it adds
// the warnings of what cannot be checked to sum, starts hashing the listed
// files, and returns the findings callback the replay is to use (which
// holds the replay's findings back while a manifest is checked).
func newDatasetCheck(ds Dataset, opts *Options, sum *Summary) *datasetCheck {
	c := &datasetCheck{ds: ds, src: datasetSource(ds), manifests: opts.Manifests, sum: sum, out: opts.Findings, seen: map[string]*partSeen{}}
	for _, w := range datasetWarnings(ds, c.manifests) {
		sum.Warn(w)
	}
	if !c.active() {
		return c
	}
	files := listedFiles(c.manifests, nil)
	c.hashes = make(map[string]fileHash, len(files))
	c.hashed, c.stop = make(chan struct{}), make(chan struct{})
	go c.hashFiles(files)
	return c
}

// datasetWarnings are the warnings of what cannot be checked: the
// dataset's own (an old layout), and its manifests'.
func datasetWarnings(ds Dataset, manifests []DatasetManifest) []string {
	var out []string
	if w, ok := ds.(interface{ Warnings() []string }); ok {
		out = append(out, w.Warnings()...)
	}
	for _, dm := range manifests {
		switch {
		case dm.Err != nil:
		case dm.Loaded == nil:
			what := "no " + manifest.FileName
			if st, err := datasetSource(ds).Stat(dm.Path); err == nil && !st.IsDir() {
				what = "a file given alone, not a dataset directory with a " + manifest.FileName
			}
			out = append(out, fmt.Sprintf("%s: %s: the dataset's completeness (parts missing, added, altered or truncated) could not be checked", dm.Path, what))
		case dm.Loaded.Signed && !dm.Loaded.Verified:
			out = append(out, fmt.Sprintf("%s: %s is signed, but no key was given to verify it (--manifest-key): the signature was not checked", dm.Path, manifest.FileName))
		case !dm.Loaded.Signed:
			out = append(out, fmt.Sprintf("%s: %s is not signed: it proves the dataset complete only as far as the manifest itself is trusted", dm.Path, manifest.FileName))
		}
	}
	return out
}

// listedFiles returns the paths of the files the valid manifests list:
// with keep, only those of the parts whose rounds file keep accepts.
func listedFiles(manifests []DatasetManifest, keep func(roundsFile string) bool) []string {
	var files []string
	for _, dm := range manifests {
		if dm.Err != nil || dm.Loaded == nil {
			continue
		}
		for _, p := range dm.Loaded.Manifest.Parts {
			if len(p.Files) == 0 || keep != nil && !keep(listedPath(dm.Path, p.Files[0].Path)) {
				continue
			}
			for _, f := range p.Files {
				files = append(files, listedPath(dm.Path, f.Path))
			}
		}
	}
	return files
}

// active reports whether there is a manifest to check (valid or not).
func (c *datasetCheck) active() bool {
	for _, dm := range c.manifests {
		if dm.Loaded != nil || dm.Err != nil {
			return true
		}
	}
	return false
}

// findings returns the callback the replay writes its findings to.
func (c *datasetCheck) findings() func(*finding.Finding) error {
	if c.out == nil || !c.active() {
		return c.out
	}
	return c.held.add
}

// listedPath is the path of a manifest's file in the dataset dir.
func listedPath(dir, rel string) string { return source.Join(dir, filepath.FromSlash(rel)) }

// datasetSource is where ds's files are read from (*roundlog.Dataset.Source);
// the local file system for a Dataset that does not say.
func datasetSource(ds Dataset) source.Source {
	if d, ok := ds.(interface{ Source() source.Source }); ok && d.Source() != nil {
		return d.Source()
	}
	return source.Local
}

// hashFiles computes the SHA-256 of each listed file, reading at most one
// byte more than the manifest lists (a larger file is altered whatever its
// hash).
func (c *datasetCheck) hashFiles(files []string) {
	defer close(c.hashed)
	sizes := map[string]int64{}
	for _, dm := range c.manifests {
		if dm.Loaded != nil {
			for _, p := range dm.Loaded.Manifest.Parts {
				for _, f := range p.Files {
					sizes[listedPath(dm.Path, f.Path)] = f.Bytes
				}
			}
		}
	}
	buf := make([]byte, 1<<20)
	for _, path := range files {
		select {
		case <-c.stop:
			return
		default:
		}
		c.hashes[path] = hashFile(c.src, path, sizes[path]+1, buf)
	}
}

func hashFile(src source.Source, path string, limit int64, buf []byte) fileHash {
	f, err := src.Open(path)
	if err != nil {
		return fileHash{err: err}
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.CopyBuffer(h, io.LimitReader(f, limit), buf)
	if err != nil {
		return fileHash{err: err}
	}
	return fileHash{sum: hex.EncodeToString(h.Sum(nil)), bytes: n}
}

// observe notes what the replay read: the traces of a unit (or part of
// one), in input order.
func (c *datasetCheck) observe(traces []audit.Trace) {
	if c.hashes == nil || c.observed {
		return
	}
	for i := range traces {
		t := &traces[i]
		if t.Src.File != c.curF || c.cur == nil {
			c.curF = t.Src.File
			if c.cur = c.seen[t.Src.File]; c.cur == nil {
				c.cur = &partSeen{}
				c.seen[strings.Clone(t.Src.File)] = c.cur
			}
		}
		s := c.cur
		if s.rounds == 0 {
			s.firstID = strings.Clone(t.RoundID)
		}
		s.rounds++
		if t.TimeOK {
			if !s.timed {
				s.minTime, s.maxTime, s.timed = t.Time, t.Time, true
			}
			s.minTime, s.maxTime = min(s.minTime, t.Time), max(s.maxTime, t.Time)
		}
		// The last id is kept once per run of one file's traces.
		if i == len(traces)-1 || traces[i+1].Src.File != t.Src.File {
			s.lastID = strings.Clone(t.RoundID)
		}
	}
}

// finish writes the manifests' findings, then the replay's findings held
// back.
func (c *datasetCheck) finish() error {
	if !c.active() {
		return nil
	}
	<-c.hashed
	fs := c.compare()
	sortFindings(fs)
	for i := range fs {
		c.sum.count(&fs[i])
		if c.out != nil {
			if err := c.out(&fs[i]); err != nil {
				return fmt.Errorf("failed to write findings: %w", err)
			}
		}
	}
	if c.out == nil {
		return nil
	}
	return c.held.drain(c.out)
}

// close stops the hashing and removes the findings held back.
func (c *datasetCheck) close() {
	if c.stop != nil {
		select {
		case <-c.stop:
		default:
			close(c.stop)
		}
		<-c.hashed
	}
	c.held.close()
}

// compare returns the findings of every manifest.
func (c *datasetCheck) compare() []finding.Finding {
	var out []finding.Finding
	files := c.files
	if !c.merged {
		files = datasetFiles(c.ds)
	}
	rows := map[string]int64{} // the footers' rows of the dataset's files
	for _, f := range files {
		rows[f.Path] = f.Rows
	}
	for _, dm := range c.manifests {
		if dm.Err != nil {
			out = append(out, invalidFinding(dm))
			continue
		}
		if dm.Loaded == nil {
			continue
		}
		listed := map[string]bool{}
		for i := range dm.Loaded.Manifest.Parts {
			out = c.comparePart(out, dm.Path, i, &dm.Loaded.Manifest.Parts[i], rows, listed)
		}
		for _, f := range files {
			if listed[f.Path] || !within(dm.Path, f.Path) {
				continue
			}
			rel, _ := source.Rel(dm.Path, f.Path)
			actual := filepath.ToSlash(rel)
			if f.Rows >= 0 {
				actual += fmt.Sprintf(" (%d rows)", f.Rows)
			}
			out = append(out, manifestFinding(finding.PartExtra, f.Path, "manifest.parts",
				"only the files the manifest lists", actual, "a "+f.Table+" file the manifest does not list"))
		}
	}
	return out
}

// comparePart checks one listed part: its files there (PART_MISSING), what
// the replay read of it as listed (PART_TRUNCATED), and otherwise each
// file's bytes as listed (PART_ALTERED).
func (c *datasetCheck) comparePart(out []finding.Finding, dir string, i int, p *manifest.Part, rows map[string]int64, listed map[string]bool) []finding.Finding {
	present := make([]bool, len(p.Files))
	for j, f := range p.Files {
		path := listedPath(dir, f.Path)
		listed[path] = true
		if !c.exists(path) {
			out = append(out, manifestFinding(finding.PartMissing, path, fmt.Sprintf("manifest.parts[%d].files[%d]", i, j),
				fmt.Sprintf("%s (%d rows, %d bytes)", f.Path, f.Rows, f.Bytes), "absent", "part "+p.Name))
			continue
		}
		present[j] = true
	}
	if !present[0] {
		return out // the part's rounds are missing: said above
	}
	roundsPath := listedPath(dir, p.Files[0].Path)
	if diff := c.truncation(roundsPath, dir, p, present, rows); diff != "" {
		s := c.seen[roundsPath]
		if s == nil {
			s = &partSeen{}
		}
		return append(out, manifestFinding(finding.PartTruncated, roundsPath, fmt.Sprintf("manifest.parts[%d]", i),
			describeListed(p), describeSeen(s), "part "+p.Name+": "+diff))
	}
	for j, f := range p.Files {
		if !present[j] {
			continue
		}
		path := listedPath(dir, f.Path)
		h := c.hashes[path]
		want := fmt.Sprintf("%s (%d bytes)", f.SHA256, f.Bytes)
		switch {
		case h.err != nil:
			var re *regularfile.Error
			reason := h.err.Error()
			if errors.As(h.err, &re) {
				reason = re.Reason
			}
			out = append(out, manifestFinding(finding.PartAltered, path, fmt.Sprintf("manifest.parts[%d].files[%d].sha256", i, j), want, reason, "part "+p.Name))
		case h.sum != f.SHA256 || h.bytes != f.Bytes:
			got := fmt.Sprintf("%s (%d bytes)", h.sum, h.bytes)
			if h.bytes > f.Bytes {
				got = fmt.Sprintf("more than %d bytes", f.Bytes)
			}
			out = append(out, manifestFinding(finding.PartAltered, path, fmt.Sprintf("manifest.parts[%d].files[%d].sha256", i, j), want, got, "part "+p.Name))
		}
	}
	return out
}

// exists reports whether a listed file is there.
func (c *datasetCheck) exists(path string) bool {
	if c.merged {
		return c.present[path]
	}
	_, err := c.src.Lstat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// truncation says how what the replay read of a part differs from what
// the manifest lists, "" when it does not.
func (c *datasetCheck) truncation(roundsPath, dir string, p *manifest.Part, present []bool, rows map[string]int64) string {
	s := c.seen[roundsPath]
	if s == nil {
		s = &partSeen{}
	}
	var diffs []string
	if s.rounds != p.Rounds {
		diffs = append(diffs, fmt.Sprintf("%d rounds read, %d listed", s.rounds, p.Rounds))
	}
	if p.Rounds > 0 && s.rounds > 0 {
		if s.firstID != p.FirstRoundID {
			diffs = append(diffs, "another first round")
		}
		if s.lastID != p.LastRoundID {
			diffs = append(diffs, "another last round")
		}
		lo, _ := manifest.ParseTime(p.MinTime)
		hi, _ := manifest.ParseTime(p.MaxTime)
		if !s.timed || s.minTime != lo || s.maxTime != hi {
			diffs = append(diffs, "another time range")
		}
	}
	for j, f := range p.Files[1:] {
		if n, ok := rows[listedPath(dir, f.Path)]; ok && present[j+1] && n >= 0 && n != f.Rows {
			diffs = append(diffs, fmt.Sprintf("%d %s rows, %d listed", n, f.Table, f.Rows))
		}
	}
	return strings.Join(diffs, "; ")
}

func describeListed(p *manifest.Part) string {
	if p.Rounds == 0 {
		return "0 rounds"
	}
	return fmt.Sprintf("%d rounds, %s to %s, %s to %s", p.Rounds, p.FirstRoundID, p.LastRoundID, p.MinTime, p.MaxTime)
}

func describeSeen(s *partSeen) string {
	if s.rounds == 0 {
		return "0 rounds"
	}
	times := "no valid time"
	if s.timed {
		times = manifest.FormatTime(s.minTime) + " to " + manifest.FormatTime(s.maxTime)
	}
	return fmt.Sprintf("%d rounds, %s to %s, %s", s.rounds, s.firstID, s.lastID, times)
}

// datasetFiles lists the files of ds named like a part's
// (*roundlog.Dataset.Files); none for a Dataset that does not say.
func datasetFiles(ds Dataset) []roundlog.DatasetFile {
	if d, ok := ds.(interface{ Files() []roundlog.DatasetFile }); ok {
		return d.Files()
	}
	return nil
}

// within reports whether path is in the directory dir.
func within(dir, path string) bool {
	rel, err := source.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func invalidFinding(dm DatasetManifest) finding.Finding {
	file, reason := source.Join(dm.Path, manifest.FileName), dm.Err.Error()
	var ie *manifest.InvalidError
	if errors.As(dm.Err, &ie) {
		file, reason = ie.File, ie.Reason
	}
	field, want := manifest.FileName, "a valid manifest (docs/log-format.md section 8)"
	if source.Base(file) == manifest.SignatureName || errors.Is(dm.Err, manifest.ErrSignature) {
		field, want = manifest.SignatureName, "a signature of manifest.json by the key given"
	}
	return manifestFinding(finding.ManifestInvalid, file, field, want, reason, "")
}

func manifestFinding(code finding.Code, file, field, expected, actual, detail string) finding.Finding {
	return finding.Finding{Code: code, Severity: finding.SeverityOf(code), File: file, Row: -1, Field: field,
		Expected: expected, Actual: actual, Detail: detail}
}

// spoolMemory is how many findings are held back in memory before the
// others go to a temporary file.
var spoolMemory = 1 << 16

// spool holds findings back, in order: the first spoolMemory in memory,
// the others in a temporary file removed as soon as it is created (or
// when the spool is closed, where a file cannot be removed while open).
type spool struct {
	mem  []finding.Finding
	f    *os.File
	bw   *bufio.Writer
	enc  *gob.Encoder
	n    int
	gone bool // the file is already removed
}

func (s *spool) add(f *finding.Finding) error {
	if len(s.mem) < spoolMemory {
		s.mem = append(s.mem, *f)
		return nil
	}
	if s.f == nil {
		tf, err := os.CreateTemp("", "fairhold-findings-*.gob")
		if err != nil {
			return err
		}
		s.f, s.bw = tf, bufio.NewWriterSize(tf, 1<<20)
		s.enc = gob.NewEncoder(s.bw)
		s.gone = os.Remove(tf.Name()) == nil
	}
	s.n++
	return s.enc.Encode(f)
}

// drain writes the findings held back to out, in order.
func (s *spool) drain(out func(*finding.Finding) error) error {
	for i := range s.mem {
		if err := out(&s.mem[i]); err != nil {
			return fmt.Errorf("failed to write findings: %w", err)
		}
	}
	s.mem = nil
	if s.f == nil {
		return nil
	}
	if err := s.bw.Flush(); err != nil {
		return fmt.Errorf("failed to hold findings back: %w", err)
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	dec := gob.NewDecoder(bufio.NewReaderSize(s.f, 1<<20))
	for range s.n {
		var f finding.Finding
		if err := dec.Decode(&f); err != nil {
			return fmt.Errorf("failed to read the findings held back: %w", err)
		}
		if err := out(&f); err != nil {
			return fmt.Errorf("failed to write findings: %w", err)
		}
	}
	return nil
}

func (s *spool) close() {
	if s.f != nil {
		s.f.Close()
		if !s.gone {
			os.Remove(s.f.Name())
		}
		s.f = nil
	}
}
