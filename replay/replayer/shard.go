package replayer

// Sharded replay (docs/sharding.md). A shard checks the rounds of the
// rounds files assigned to it (Assign) exactly as an unsharded replay's
// workers do, and writes, instead of feeding the Ledger, every chunk the
// main goroutine would have taken (the traces, encoded by
// audit.TraceEncoder, the per-round findings, the totals) to its part
// file, with the digests of the dataset's files it owns. Merge takes the
// parts' chunks in the dataset's unit order through the one collector an
// unsharded replay uses: the Ledger, the dataset check and the summary see
// the same chunks in the same order, so the findings and the summary are
// the same bytes whatever the number of shards.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"math/big"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/internal/regularfile"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/wire"
)

// PartFormat and PartVersion identify a part file.
const (
	PartFormat  = "fairhold-replay-part"
	PartVersion = 4
	partMagic   = "FHPART1\n"
)

// ShardSpec is shard Index of Count (0 <= Index < Count).
type ShardSpec struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

func (s ShardSpec) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ShardIndexVars are the environment variables a scheduler gives an array
// task's index in, in the order they are looked up: Kubernetes Indexed
// Jobs, AWS Batch array jobs, Slurm job arrays.
var ShardIndexVars = []string{"JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "SLURM_ARRAY_TASK_ID"}

// MaxShards bounds the number of shards.
const MaxShards = 100000

// ParseShard reads "I/N", or "auto/N" with the index from the first of
// [ShardIndexVars] that getenv gives (Slurm's less SLURM_ARRAY_TASK_MIN,
// when set, so that an array 1-N is shards 0..N-1). Anything but two
// decimal integers, or auto and one, separated by one "/" is refused as
// such before either number is checked against its range.
func ParseShard(s string, getenv func(string) string) (ShardSpec, error) {
	i, n, ok := strings.Cut(s, "/")
	count, okN := shardInt(n)
	index, okI := shardInt(i)
	if !ok || !okN || !okI && i != "auto" {
		return ShardSpec{}, fmt.Errorf("want I/N or auto/N with integers, got %q", s)
	}
	if count < 1 || count > MaxShards {
		return ShardSpec{}, fmt.Errorf("%q: the number of shards must be 1..%d", s, MaxShards)
	}
	if i == "auto" {
		return ShardFromEnv(count, getenv)
	}
	if index < 0 || index >= count {
		return ShardSpec{}, fmt.Errorf("%q: the shard index must be 0..%d", s, count-1)
	}
	return ShardSpec{index, count}, nil
}

// shardInt parses a decimal integer of a shard spec; ok is false when s is
// not one. An integer too large for an int is one, clamped (and then out
// of the shards' range).
func shardInt(s string) (n int, ok bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil || errors.Is(err, strconv.ErrRange)
}

// ShardFromEnv returns shard I of count, I from the environment (see
// [ParseShard]).
func ShardFromEnv(count int, getenv func(string) string) (ShardSpec, error) {
	if count < 1 || count > MaxShards {
		return ShardSpec{}, fmt.Errorf("the number of shards must be 1..%d, not %d", MaxShards, count)
	}
	for _, v := range ShardIndexVars {
		x := getenv(v)
		if x == "" {
			continue
		}
		index, err := strconv.Atoi(x)
		if err != nil {
			return ShardSpec{}, fmt.Errorf("%s=%q: not a shard index", v, x)
		}
		if v == "SLURM_ARRAY_TASK_ID" {
			if m := getenv("SLURM_ARRAY_TASK_MIN"); m != "" {
				lo, err := strconv.Atoi(m)
				if err != nil {
					return ShardSpec{}, fmt.Errorf("SLURM_ARRAY_TASK_MIN=%q: not a number", m)
				}
				index -= lo
			}
		}
		if index < 0 || index >= count {
			return ShardSpec{}, fmt.Errorf("%s=%s: the shard index must be 0..%d", v, x, count-1)
		}
		return ShardSpec{index, count}, nil
	}
	return ShardSpec{}, fmt.Errorf("no shard index in the environment (%s)", strings.Join(ShardIndexVars, ", "))
}

// Assigned is a rounds file and its shard.
type Assigned struct {
	Path   string `json:"path"`
	Rounds int64  `json:"rounds"`
	Shard  int    `json:"shard"`
}

// Assign assigns the dataset's rounds files to n shards, in contiguous
// ranges of the input order, so that each shard replays one segment of
// the input (docs/sharding.md): every rounds file a valid manifest lists,
// weighed by the rounds the manifest lists, and every other rounds file
// of the dataset (an extra part, or a dataset without a manifest: by the
// rows its footer gives), each weighing at least 1 (a JSON Lines file
// without a manifest, whose rounds are not known before it is read, weighs
// 1). In input order (the order of their first units; files without a
// unit last, by path), a file whose weight's middle falls at w of the
// total W goes to shard floor(w x n / W): the heaviest shard has at most
// W/n rounds plus one file's. The result, sorted by path, depends only on
// the manifests and the names and footers of the dataset's rounds files,
// which every shard sees alike.
func Assign(ds Dataset, manifests []DatasetManifest, n int) []Assigned {
	weight := map[string]int64{}
	for _, dm := range manifests {
		if dm.Err != nil || dm.Loaded == nil {
			continue
		}
		for _, p := range dm.Loaded.Manifest.Parts {
			if len(p.Files) > 0 {
				weight[listedPath(dm.Path, p.Files[0].Path)] = max(p.Rounds, 1)
			}
		}
	}
	for _, f := range datasetFiles(ds) {
		if _, ok := weight[f.Path]; !ok && f.Table == roundlog.TableRounds {
			weight[f.Path] = max(f.Rows, 1)
		}
	}
	first := map[string]int{}
	for i, u := range ds.Units() {
		if _, ok := weight[u.File]; !ok {
			weight[u.File] = max(u.Rounds, 1)
		}
		if _, ok := first[u.File]; !ok {
			first[u.File] = i
		}
	}
	out := make([]Assigned, 0, len(weight))
	for p, w := range weight {
		out = append(out, Assigned{Path: p, Rounds: w})
	}
	slices.SortFunc(out, func(a, b Assigned) int {
		ia, oka := first[a.Path]
		ib, okb := first[b.Path]
		switch {
		case oka && okb:
			return ia - ib
		case oka != okb:
			if oka {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Path, b.Path)
	})
	// The weights are the manifests' (or footers') word: any int64 from 1
	// up, whose sum may pass 2^63. The arithmetic is exact whatever they
	// are (a sum of exactly 2^63 wrapped to a division by zero and killed
	// every shard; a larger one made the ranges overlap).
	total := new(big.Int)
	var w big.Int
	for i := range out {
		total.Add(total, w.SetInt64(out[i].Rounds))
	}
	total.Lsh(total, 1) // twice the total, as the middles are doubled
	at := new(big.Int)  // the rounds before the file, doubled
	var mid, q big.Int
	shards := big.NewInt(int64(n))
	for i := range out {
		w.SetInt64(out[i].Rounds)
		mid.Add(at, &w) // twice the file's middle, below twice the total
		q.Mul(&mid, shards)
		q.Quo(&q, total)
		out[i].Shard = min(n-1, int(q.Int64()))
		at.Add(at, &w)
		at.Add(at, &w)
	}
	slices.SortFunc(out, func(a, b Assigned) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// PartMeta is what the caller records in a part about the run.
type PartMeta struct {
	Tool   string   // the tool's version
	Inputs []string // the paths replayed, as given
	// Config describes the options that change the checks' results (the
	// rules profile given, the currencies declared): parts merge only
	// when theirs are equal.
	Config string
	// Currencies are the declarations of --currency, CODE:DECIMALS.
	Currencies []string
}

// PartHeader is the header of a part file.
type PartHeader struct {
	Format         string         `json:"format"`
	Version        int            `json:"version"`
	Tool           string         `json:"tool"`
	Shard          ShardSpec      `json:"shard"`
	Inputs         []string       `json:"inputs"`
	Config         string         `json:"config"`
	Currencies     []string       `json:"currencies"`
	Manifests      []PartManifest `json:"manifests"`
	ManifestSHA256 string         `json:"manifest_sha256"`
	Dataset        PartDataset    `json:"dataset"`
	DatasetSHA256  string         `json:"dataset_sha256"`
	Assignment     []Assigned     `json:"assignment"`
	AssignSHA256   string         `json:"assignment_sha256"`
}

// PartManifest is a manifest of an input path as the shard read it.
type PartManifest struct {
	Path     string           `json:"path"`
	SHA256   string           `json:"sha256,omitempty"` // of manifest.json's bytes
	Bytes    []byte           `json:"bytes,omitempty"`  // manifest.json
	Signed   bool             `json:"signed,omitempty"`
	Verified bool             `json:"verified,omitempty"`
	Invalid  *finding.Finding `json:"invalid,omitempty"` // MANIFEST_INVALID
}

// PartDataset is the dataset as every shard opens it.
type PartDataset struct {
	Units    []PartUnit        `json:"units"`
	Files    []PartFile        `json:"files"`
	Damage   []finding.Finding `json:"damage"`
	Warnings []string          `json:"warnings"`
}

// PartUnit is a unit of the dataset (roundlog.Unit).
type PartUnit struct {
	File     string `json:"file"`
	Format   string `json:"format"`
	RowGroup int    `json:"row_group"`
	FirstRow int64  `json:"first_row"`
	Rounds   int64  `json:"rounds"`
}

// PartFile is a file of the dataset (roundlog.DatasetFile).
type PartFile struct {
	Path  string `json:"path"`
	Table string `json:"table"`
	Rows  int64  `json:"rows"`
}

// PartFooter is what a shard knows once it is done.
type PartFooter struct {
	Units  []int      `json:"units"` // the units read, by index in the dataset's units
	Rounds int64      `json:"rounds"`
	Chunks int64      `json:"chunks"`
	Read   []ReadFile `json:"read"`
	// Unlisted are the shard's rounds files that no manifest lists (a
	// dataset without a manifest, an extra part), hashed for the record.
	Unlisted []ReadFile `json:"unlisted"`
	// Bounds is the offset of the 'B' record (the shard's boundary
	// state), after the last chunk record.
	Bounds int64 `json:"bounds"`
	// Traces describes the part's traces file (PART.traces): its size and
	// SHA-256. The merge reads it only to replay the traces.
	Traces TracesFile `json:"traces"`
}

// TracesFile is a part's traces file, as its part records it.
type TracesFile struct {
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// TracesSuffix names a part's traces file: the part's name followed by it.
const TracesSuffix = ".traces"

// tracesMagic begins a traces file.
const tracesMagic = "FHTRACE1\n"

// ReadFile is a file a manifest lists in a part the shard owns, as the
// shard found it.
type ReadFile struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	SHA256 string `json:"sha256,omitempty"`
	Bytes  int64  `json:"bytes"`
	Error  string `json:"error,omitempty"`
}

func digestJSON(v any) string {
	b, _ := json.Marshal(v)
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// partHeader describes the dataset for shard spec.
func partHeader(ds Dataset, manifests []DatasetManifest, spec ShardSpec, meta PartMeta) (*PartHeader, []int, []Assigned) {
	h := &PartHeader{Format: PartFormat, Version: PartVersion, Tool: meta.Tool, Shard: spec, Inputs: meta.Inputs,
		Config: meta.Config, Currencies: meta.Currencies}
	for _, dm := range manifests {
		pm := PartManifest{Path: dm.Path}
		if dm.Loaded != nil {
			s := sha256.Sum256(dm.Loaded.Bytes)
			pm.SHA256, pm.Bytes, pm.Signed, pm.Verified = hex.EncodeToString(s[:]), dm.Loaded.Bytes, dm.Loaded.Signed, dm.Loaded.Verified
		}
		if dm.Err != nil {
			f := invalidFinding(dm)
			pm.Invalid = &f
		}
		h.Manifests = append(h.Manifests, pm)
	}
	type mdig struct {
		Path, SHA256 string
		Invalid      *finding.Finding
	}
	var md []mdig
	for _, pm := range h.Manifests {
		md = append(md, mdig{pm.Path, pm.SHA256, pm.Invalid})
	}
	h.ManifestSHA256 = digestJSON(md)
	for _, u := range ds.Units() {
		h.Dataset.Units = append(h.Dataset.Units, PartUnit{u.File, u.Format, u.RowGroup, u.FirstRow, u.Rounds})
	}
	for _, f := range datasetFiles(ds) {
		h.Dataset.Files = append(h.Dataset.Files, PartFile{f.Path, f.Table, f.Rows})
	}
	for _, d := range ds.Damage() {
		h.Dataset.Damage = append(h.Dataset.Damage, damageFinding(d))
	}
	sortFindings(h.Dataset.Damage)
	h.Dataset.Warnings = datasetWarnings(ds, manifests)
	h.DatasetSHA256 = digestJSON(h.Dataset)
	h.Assignment = Assign(ds, manifests, spec.Count)
	h.AssignSHA256 = digestJSON(h.Assignment)
	owners, assignment := h.owners(), h.Assignment
	if spec.Index != 0 {
		// The listing, the assignment and the manifests' bytes are the
		// same for every shard: shard 0's part carries them, the others
		// their digests.
		h.Dataset, h.Assignment = PartDataset{}, nil
		for i := range h.Manifests {
			h.Manifests[i].Bytes = nil
		}
	}
	return h, owners, assignment
}

// checkListing checks that shard 0's header holds what its digests say.
func (h *PartHeader) checkListing() error {
	if digestJSON(h.Dataset) != h.DatasetSHA256 || digestJSON(h.Assignment) != h.AssignSHA256 {
		return errors.New("altered: its dataset listing or assignment does not match its digest")
	}
	type mdig struct {
		Path, SHA256 string
		Invalid      *finding.Finding
	}
	var md []mdig
	for _, pm := range h.Manifests {
		if pm.Bytes != nil {
			s := sha256.Sum256(pm.Bytes)
			if hex.EncodeToString(s[:]) != pm.SHA256 {
				return errors.New("altered: a manifest's bytes do not match their digest")
			}
		}
		md = append(md, mdig{pm.Path, pm.SHA256, pm.Invalid})
	}
	if digestJSON(md) != h.ManifestSHA256 {
		return errors.New("altered: its manifests do not match their digest")
	}
	return nil
}

// owners returns each unit's shard.
func (h *PartHeader) owners() []int {
	shard := map[string]int{}
	for _, a := range h.Assignment {
		shard[a.Path] = a.Shard
	}
	out := make([]int, len(h.Dataset.Units))
	for i, u := range h.Dataset.Units {
		out[i] = shard[u.File]
	}
	return out
}

// shardWriter writes a shard's part.
type shardWriter struct {
	spec   ShardSpec
	owner  []int
	w      *bufio.Writer
	h      hash.Hash
	rec    []byte
	footer PartFooter
	bounds *shardBounds
	local  []finding.Finding // the shard's Ledger's findings of the chunk
	off    int64             // bytes written
	// The traces file: its writer, its hash and its bytes written.
	tw   *bufio.Writer
	th   hash.Hash
	toff int64
}

// rawTraces writes b, whose SHA-256 is sum, to the traces file. The file's
// digest is the SHA-256 of its blobs' SHA-256s (docs/sharding.md), so that
// the workers hash the blobs.
func (sw *shardWriter) rawTraces(b, sum []byte) error {
	sw.toff += int64(len(b))
	sw.th.Write(sum)
	_, err := sw.tw.Write(b)
	return err
}

func (sw *shardWriter) mine(i int) bool { return sw.owner[i] == sw.spec.Index }

func (sw *shardWriter) raw(b []byte) error {
	sw.off += int64(len(b))
	sw.h.Write(b)
	_, err := sw.w.Write(b)
	return err
}

// write writes a chunk of unit i, observed by the shard's Ledger.
func (sw *shardWriter) write(i int, ck *chunk) error {
	sw.local = sw.bounds.observe(ck, sw.footer.Chunks, sw.local[:0])
	sc := ck.shard
	b := sw.rec[:0]
	b = wire.AppendUv(b, uint64(i))
	b = wire.AppendUv(b, uint64(ck.rounds))
	last := byte(0)
	if ck.last {
		last = 1
	}
	b = append(b, last)
	b = wire.AppendUv(b, uint64(len(ck.traces)))
	// The traces and each round's amounts go to the traces file; the
	// record says where.
	b = wire.AppendUv(b, uint64(sw.toff))
	b = wire.AppendUv(b, uint64(len(sc.blob)))
	if err := sw.rawTraces(sc.blob, sc.blobSum[:]); err != nil {
		return err
	}
	b = append(b, sc.rec...)
	b = appendFindings(b, sw.local)
	sw.rec = b
	var head [1 + binary.MaxVarintLen64]byte
	head[0] = 'C'
	n := binary.PutUvarint(head[1:], uint64(len(b)))
	if err := sw.raw(head[:1+n]); err != nil {
		return err
	}
	if err := sw.raw(b); err != nil {
		return err
	}
	if len(sw.footer.Units) == 0 || sw.footer.Units[len(sw.footer.Units)-1] != i {
		sw.footer.Units = append(sw.footer.Units, i)
	}
	sw.footer.Chunks++
	sw.footer.Rounds += ck.rounds
	return nil
}

// ShardResult is what a shard did.
type ShardResult struct {
	Shard   ShardSpec
	Units   int
	Rounds  int64
	Seconds float64
}

// ReplayShard replays shard spec of ds and writes its part to out (see
// docs/sharding.md). opts.Manifests must be the dataset's manifests
// ([LoadManifests]), as for [Replay]: the assignment weighs the parts by
// them and the shard hashes the files they list. opts.Findings is not
// used: the findings are the merge's.
func ReplayShard(ds Dataset, opts Options, spec ShardSpec, meta PartMeta, out, traces io.Writer) (*ShardResult, error) {
	start := time.Now()
	if spec.Count < 1 || spec.Index < 0 || spec.Index >= spec.Count {
		return nil, fmt.Errorf("shard %s: want an index in 0..count-1", spec)
	}
	hd, owners, assignment := partHeader(ds, opts.Manifests, spec, meta)
	sw := &shardWriter{spec: spec, owner: owners, w: bufio.NewWriterSize(out, 1<<20), h: sha256.New(),
		tw: bufio.NewWriterSize(traces, 1<<20), th: sha256.New()}
	if err := sw.rawTraces([]byte(tracesMagic), []byte(tracesMagic)); err != nil {
		return nil, fmt.Errorf("failed to write the traces: %w", err)
	}
	sw.footer.Units = []int{}
	mine := map[string]bool{}
	for _, a := range assignment {
		if a.Shard == spec.Index {
			mine[a.Path] = true
		}
	}
	// The listed files of the shard's parts are hashed on a goroutine of
	// their own while the rounds are checked.
	files := listedFiles(opts.Manifests, func(p string) bool { return mine[p] })
	sizes := map[string]int64{}
	for _, dm := range opts.Manifests {
		if dm.Err == nil && dm.Loaded != nil {
			for _, p := range dm.Loaded.Manifest.Parts {
				for _, f := range p.Files {
					sizes[listedPath(dm.Path, f.Path)] = f.Bytes
				}
			}
		}
	}
	// The shard's rounds files that no manifest lists are hashed too, for
	// the record (whole: there is no listed size to stop at).
	listedSet := map[string]bool{}
	for _, f := range files {
		listedSet[f] = true
	}
	var unlisted []string
	for _, a := range assignment {
		if a.Shard == spec.Index && !listedSet[a.Path] {
			unlisted = append(unlisted, a.Path)
		}
	}
	read := make([]ReadFile, len(files)+len(unlisted))
	src := datasetSource(ds)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		buf := make([]byte, 1<<20)
		for k, path := range append(slices.Clone(files), unlisted...) {
			rf := ReadFile{Path: path}
			if _, err := src.Lstat(path); err == nil || !errors.Is(err, os.ErrNotExist) {
				rf.Exists = true
				limit := int64(math.MaxInt64)
				if k < len(files) {
					limit = sizes[path] + 1
				}
				fh := hashFile(src, path, limit, buf)
				rf.SHA256, rf.Bytes = fh.sum, fh.bytes
				if fh.err != nil {
					var re *regularfile.Error
					rf.Error = fh.err.Error()
					if errors.As(fh.err, &re) {
						rf.Error = re.Reason
					}
				}
			}
			read[k] = rf
		}
	}()
	hb, err := json.Marshal(hd)
	if err != nil {
		wg.Wait()
		return nil, err
	}
	var lb [binary.MaxVarintLen64]byte
	err = sw.raw([]byte(partMagic))
	if err == nil {
		err = sw.raw(lb[:binary.PutUvarint(lb[:], uint64(len(hb)))])
	}
	if err == nil {
		err = sw.raw(hb)
	}
	if err != nil {
		wg.Wait()
		return nil, fmt.Errorf("failed to write the part: %w", err)
	}
	sum, err := run(ds, opts, sw)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	sw.footer.Read, sw.footer.Unlisted = read[:len(files)], read[len(files):]
	if err := sw.tw.Flush(); err != nil {
		return nil, fmt.Errorf("failed to write the traces: %w", err)
	}
	sw.footer.Traces = TracesFile{Bytes: sw.toff, SHA256: hex.EncodeToString(sw.th.Sum(nil))}
	sw.footer.Bounds = sw.off
	bb := sw.bounds.encode()
	var head [1 + binary.MaxVarintLen64]byte
	head[0] = 'B'
	if err := sw.raw(head[:1+binary.PutUvarint(head[1:], uint64(len(bb)))]); err != nil {
		return nil, fmt.Errorf("failed to write the part: %w", err)
	}
	if err := sw.raw(bb); err != nil {
		return nil, fmt.Errorf("failed to write the part: %w", err)
	}
	fb, err := json.Marshal(sw.footer)
	if err != nil {
		return nil, err
	}
	var tail [8]byte
	binary.LittleEndian.PutUint64(tail[:], uint64(len(fb)))
	for _, b := range [][]byte{{'E'}, fb, tail[:]} {
		if err := sw.raw(b); err != nil {
			return nil, fmt.Errorf("failed to write the part: %w", err)
		}
	}
	if _, err := sw.w.Write(sw.h.Sum(nil)); err != nil {
		return nil, fmt.Errorf("failed to write the part: %w", err)
	}
	if err := sw.w.Flush(); err != nil {
		return nil, fmt.Errorf("failed to write the part: %w", err)
	}
	return &ShardResult{Shard: spec, Units: len(sw.footer.Units), Rounds: sum.Rounds, Seconds: time.Since(start).Seconds()}, nil
}

// Encoding of findings and totals in a chunk record.

func appendFindings(b []byte, fs []finding.Finding) []byte {
	b = wire.AppendUv(b, uint64(len(fs)))
	for i := range fs {
		f := &fs[i]
		for _, s := range [...]string{string(f.Code), string(f.Severity), f.RoundID, f.File, f.Field, f.Expected, f.Actual, f.Detail, f.PlayerID, f.Currency,
			f.Time, f.TableID, f.Game} {
			b = wire.AppendText(b, s)
		}
		b = wire.AppendSv(b, f.Row)
		for _, p := range [...]*int64{f.ExpectedAmount, f.ActualAmount, f.Difference} {
			if p == nil {
				b = append(b, 0)
				continue
			}
			b = append(b, 1)
			b = wire.AppendSv(b, *p)
		}
	}
	return b
}

func appendTotals(b []byte, u *unitTotals) []byte {
	sv := func(x int64) { b = wire.AppendSv(b, x) }
	uv := func(x uint64) { b = wire.AppendUv(b, x) }
	flag := func(x bool) {
		if x {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	sv(u.leftOut)
	uv(uint64(len(u.keys)))
	for k := range u.keys {
		b = wire.AppendText(b, u.keys[k].game)
		b = wire.AppendText(b, u.keys[k].currency)
		s := &u.sums[k]
		sv(s.rounds)
		for i := range numBets {
			sv(s.wagered[i])
			sv(s.returned[i])
		}
		flag(s.overflow)
	}
	uv(uint64(len(u.tables)))
	for i := range u.tables {
		t := &u.tables[i]
		b = wire.AppendText(b, t.key.game)
		b = wire.AppendText(b, t.key.table)
		sv(t.rounds)
		sv(t.played)
		sv(t.uncommitted)
		sv(t.rotations)
		for _, n := range t.playedWins {
			sv(n)
		}
		uv(uint64(len(t.tails)))
		for _, tl := range t.tails {
			uv(uint64(tl.key))
			uv(uint64(tl.stake))
			for _, n := range tl.h {
				uv(uint64(n))
			}
		}
	}
	uv(uint64(len(u.voids)))
	for i := range u.voids {
		v := &u.voids[i]
		uv(uint64(v.i))
		uv(uint64(v.table))
		uv(uint64(v.key))
		b = wire.AppendText(b, v.reason)
		flag(v.ifPlayed.Settled)
		sv(v.ifPlayed.Wagered)
		sv(v.ifPlayed.Returned)
		sv(v.ifPlayed.Base)
		sv(v.ifPlayed.Worst)
	}
	return b
}

// appendMoney appends each round's amounts of u.
func appendMoney(b []byte, u *unitTotals) []byte {
	b = wire.AppendUv(b, uint64(len(u.money)))
	for i := range u.money {
		m := &u.money[i]
		b = wire.AppendUv(b, uint64(m.key))
		if m.leftOut {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		for j := range numBets {
			b = wire.AppendSv(b, m.wagered[j])
			b = wire.AppendSv(b, m.returned[j])
		}
	}
	return b
}

// errChunkRecord reports a chunk record that cannot be decoded.
var errChunkRecord = errors.New("malformed chunk record")

// recReader decodes a chunk record.
type recReader struct{ wire.Reader }

func newRecReader(b []byte) recReader { return recReader{wire.NewReader(b, errChunkRecord)} }

func (r *recReader) str() string { return r.Text() }

func (r *recReader) byte1() byte {
	b := r.Bytes(1)
	if len(b) != 1 {
		return 0
	}
	return b[0]
}

// count reads a count of items of at least one byte each.
func (r *recReader) count() int {
	n := r.Uv()
	if n > uint64(r.Len()) {
		r.Fail()
		return 0
	}
	return int(n)
}

func (r *recReader) findings(out []finding.Finding) []finding.Finding {
	n := r.count()
	for range n {
		var s [13]string
		for i := range s {
			s[i] = r.str()
		}
		f := finding.Finding{Code: finding.Code(s[0]), Severity: finding.Severity(s[1]), RoundID: s[2], File: s[3], Field: s[4],
			Expected: s[5], Actual: s[6], Detail: s[7], PlayerID: s[8], Currency: s[9], Time: s[10], TableID: s[11], Game: s[12]}
		f.Row = r.Sv()
		for _, p := range [...]**int64{&f.ExpectedAmount, &f.ActualAmount, &f.Difference} {
			if r.byte1() == 1 {
				v := r.Sv()
				*p = &v
			}
		}
		out = append(out, f)
		if r.Err() != nil {
			break
		}
	}
	return out
}

func (r *recReader) totals(u *unitTotals, rounds int) {
	u.reset()
	u.leftOut = r.Sv()
	n := r.count()
	for range n {
		k := moneyKey{r.str(), r.str()}
		var s moneySums
		s.rounds = r.Sv()
		for i := range numBets {
			s.wagered[i] = r.Sv()
			s.returned[i] = r.Sv()
		}
		s.overflow = r.byte1() == 1
		u.keys = append(u.keys, k)
		u.sums = append(u.sums, s)
	}
	n = r.count()
	for range n {
		t := unitTable{key: tableKey{r.str(), r.str()}}
		t.rounds, t.played, t.uncommitted, t.rotations = r.Sv(), r.Sv(), r.Sv(), r.Sv()
		for i := range t.playedWins {
			t.playedWins[i] = r.Sv()
		}
		nt := r.count()
		for range nt {
			tl := unitTail{key: int32(r.Uv()), stake: uint8(r.Uv())}
			for b := range tl.h {
				tl.h[b] = int64(r.Uv())
			}
			if tl.key < 0 || int(tl.key) >= len(u.keys) {
				r.Fail()
				break
			}
			t.tails = append(t.tails, tl)
		}
		u.tables = append(u.tables, t)
	}
	n = r.count()
	for range n {
		v := voidRound{i: int(r.Uv()), table: int32(r.Uv()), key: int32(r.Uv()), reason: r.str()}
		v.ifPlayed.Settled = r.byte1() == 1
		v.ifPlayed.Wagered, v.ifPlayed.Returned, v.ifPlayed.Base, v.ifPlayed.Worst = r.Sv(), r.Sv(), r.Sv(), r.Sv()
		if v.i >= rounds || int(v.table) >= len(u.tables) || v.table < 0 || int(v.key) >= len(u.keys) || v.key < 0 {
			r.Fail()
		}
		u.voids = append(u.voids, v)
	}
}

// money reads each round's amounts into u, whose keys are read.
func (r *recReader) money(u *unitTotals) {
	n := r.count()
	for range n {
		var m roundMoney
		m.key = int32(r.Uv())
		m.leftOut = r.byte1() == 1
		for j := range numBets {
			m.wagered[j] = r.Sv()
			m.returned[j] = r.Sv()
		}
		if int(m.key) >= len(u.keys) {
			r.Fail()
		}
		u.money = append(u.money, m)
	}
}

// Merging parts.

// PartError reports a file that is not a readable part: not a part, a
// part of another format version, or one whose bytes do not match its
// digest (truncated or altered).
type PartError struct {
	Path   string
	Reason string
}

func (e *PartError) Error() string { return e.Path + ": " + e.Reason }

// CoverageError reports parts that do not cover the dataset exactly
// once: a shard missing or given twice, a part of another dataset or
// manifest, or of another run (tool version, options, dataset state).
// Each problem names its part.
type CoverageError struct{ Problems []string }

func (e *CoverageError) Error() string {
	return "the parts do not cover the dataset exactly once:\n  " + strings.Join(e.Problems, "\n  ")
}

// partReader reads a part's chunk records, in order, checking its digest.
type partReader struct {
	path   string
	header *PartHeader
	footer PartFooter
	tail   []byte // 'E', the footer and its length: hashed last
	digest []byte
	start  int64 // the first record's offset
	end    int64 // the offset of 'E'
	off    int64 // the next record's offset
	h      hash.Hash
	f      *os.File
	br     *bufio.Reader
	bounds *shardBounds // the 'B' record

	// The traces file, read only when the merge replays the traces.
	tf   *os.File
	tbr  *bufio.Reader
	th   hash.Hash
	toff int64
}

// tracesPath is the path of the part's traces file.
func (p *partReader) tracesPath() string { return p.path + TracesSuffix }

// blob reads the traces file's n bytes at off (the next ones) into buf.
func (p *partReader) blob(off, n uint64, buf []byte) ([]byte, error) {
	tp := p.tracesPath()
	bad := func(reason string) error { return &PartError{tp, reason} }
	if p.tf == nil {
		f, err := regularfile.Open(tp)
		if err != nil {
			return nil, err
		}
		p.tf, p.tbr = f, bufio.NewReaderSize(f, 256<<10)
		if p.th == nil {
			p.th = sha256.New()
			magic := make([]byte, len(tracesMagic))
			if _, err := io.ReadFull(p.tbr, magic); err != nil || string(magic) != tracesMagic {
				return nil, bad("not a fairhold traces file")
			}
			p.th.Write(magic) // the magic, then each blob's SHA-256 (shardWriter.rawTraces)
			p.toff = int64(len(magic))
		} else if _, err := f.Seek(p.toff, io.SeekStart); err != nil {
			return nil, err
		} else {
			p.tbr.Reset(f)
		}
	}
	if off != uint64(p.toff) || n > uint64(p.footer.Traces.Bytes-p.toff) {
		return nil, bad(fmt.Sprintf("altered: traces at %d, %d bytes, where its part's next are at %d", off, n, p.toff))
	}
	buf = slices.Grow(buf[:0], int(n))[:n]
	if _, err := io.ReadFull(p.tbr, buf); err != nil {
		return nil, bad("truncated: " + err.Error())
	}
	sum := sha256.Sum256(buf)
	p.th.Write(sum[:])
	p.toff += int64(n)
	return buf, nil
}

// finishTraces checks the traces file's digest once its traces are read.
func (p *partReader) finishTraces() error {
	if p.th == nil {
		return nil
	}
	if p.tf != nil {
		p.tf.Close()
		p.tf, p.tbr = nil, nil
	}
	if p.toff != p.footer.Traces.Bytes || hex.EncodeToString(p.th.Sum(nil)) != p.footer.Traces.SHA256 {
		return &PartError{p.tracesPath(), "altered or truncated: its SHA-256 does not match its part's record"}
	}
	return nil
}

// PartSet is a set of parts to merge, opened by [OpenParts].
type PartSet struct {
	parts  []*partReader
	header *PartHeader
	keep   bool // keep the parts' files open between units
	// Fallback says, after Merge, why the merge replayed the traces
	// rather than complete the shards' boundary state; "" when it did not.
	Fallback string
	// ReplayTraces makes Merge replay the traces even where it could
	// complete the boundary state (a check of the one against the other).
	ReplayTraces bool
}

// Header returns the parts' common header (the first part's).
func (ps *PartSet) Header() *PartHeader { return ps.header }

// Close closes the parts' files.
func (ps *PartSet) Close() {
	for _, p := range ps.parts {
		p.close()
	}
}

func (p *partReader) close() {
	if p.f != nil {
		p.f.Close()
		p.f, p.br = nil, nil
	}
	if p.tf != nil {
		p.tf.Close()
		p.tf, p.tbr = nil, nil
	}
}

// openPart reads a part's header and footer. The error is an
// *os.PathError when the file cannot be opened or read, a *PartError when
// it is not a valid part.
func openPart(path string) (*partReader, error) {
	f, err := regularfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	bad := func(format string, a ...any) error { return &PartError{path, fmt.Sprintf(format, a...)} }
	size := st.Size()
	br := bufio.NewReader(f)
	magic := make([]byte, len(partMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != partMagic {
		return nil, bad("not a fairhold replay part (no %q header)", strings.TrimSpace(partMagic))
	}
	n, err := binary.ReadUvarint(br)
	if err != nil || n > 1<<30 || int64(n) > size {
		return nil, bad("malformed header length")
	}
	hb := make([]byte, n)
	if _, err := io.ReadFull(br, hb); err != nil {
		return nil, bad("truncated header")
	}
	var hd PartHeader
	dec := json.NewDecoder(bytes.NewReader(hb))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&hd); err != nil {
		return nil, bad("malformed header: %v", err)
	}
	if hd.Format != PartFormat || hd.Version != PartVersion {
		return nil, bad("format %q version %d, want %q version %d", hd.Format, hd.Version, PartFormat, PartVersion)
	}
	var lb [binary.MaxVarintLen64]byte
	start := int64(len(partMagic) + binary.PutUvarint(lb[:], n) + len(hb))
	if size < start+1+8+32 {
		return nil, bad("truncated: no footer")
	}
	var tailLen [40]byte
	if _, err := f.ReadAt(tailLen[:], size-40); err != nil {
		return nil, err
	}
	flen := binary.LittleEndian.Uint64(tailLen[:8])
	if flen > uint64(size-start-41) {
		return nil, bad("truncated or altered: malformed footer length")
	}
	end := size - 41 - int64(flen)
	tail := make([]byte, 1+flen+8)
	if _, err := f.ReadAt(tail, end); err != nil {
		return nil, err
	}
	if tail[0] != 'E' {
		return nil, bad("truncated or altered: no footer mark")
	}
	// The whole part is checked against its digest before anything is
	// taken from it (a part is small: its traces are in its traces file).
	wh := sha256.New()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if _, err := io.CopyN(wh, f, size-32); err != nil {
		return nil, err
	}
	if !bytes.Equal(wh.Sum(nil), tailLen[8:]) {
		return nil, bad("altered or truncated: its SHA-256 does not match its bytes")
	}
	p := &partReader{path: path, header: &hd, tail: tail, digest: bytes.Clone(tailLen[8:]), start: start, end: end, off: start, h: sha256.New()}
	fdec := json.NewDecoder(bytes.NewReader(tail[1 : 1+flen]))
	fdec.DisallowUnknownFields()
	if err := fdec.Decode(&p.footer); err != nil {
		return nil, bad("malformed footer: %v", err)
	}
	// The 'B' record lies between the last chunk record and the footer.
	if b := p.footer.Bounds; b < start || b >= end || end-b > 1<<34 {
		return nil, bad("truncated or altered: malformed boundary record offset")
	}
	brec := make([]byte, end-p.footer.Bounds)
	if _, err := f.ReadAt(brec, p.footer.Bounds); err != nil {
		return nil, err
	}
	bn, k := binary.Uvarint(brec[1:])
	if brec[0] != 'B' || k <= 0 || uint64(len(brec)-1-k) != bn {
		return nil, bad("truncated or altered: malformed boundary record")
	}
	if p.bounds, err = decodeBounds(brec[1+k:]); err != nil {
		return nil, bad("altered: %v", err)
	}
	p.end, p.tail = p.footer.Bounds, append(brec, tail...)
	p.h.Write(magic)
	p.h.Write(lb[:binary.PutUvarint(lb[:], n)])
	p.h.Write(hb)
	return p, nil
}

// MergeCheck is what OpenParts checks the parts against, besides each
// other.
type MergeCheck struct {
	// ManifestSHA256, when not empty, is the SHA-256 of the dataset's
	// manifest.json now: a part that read another is stale.
	ManifestSHA256 string
}

// OpenParts opens the parts at paths and checks that they cover one
// dataset exactly once: one part per shard of the same count, all of the
// same dataset (manifest and files), tool version and options, each
// having read exactly its shard's units and hashed its shard's listed
// files. The error is an *os.PathError for a part that cannot be read, a
// *PartError for a file that is not a valid part, a *CoverageError
// otherwise.
func OpenParts(paths []string, chk MergeCheck) (*PartSet, error) {
	if len(paths) == 0 {
		return nil, &CoverageError{[]string{"no parts"}}
	}
	ps := &PartSet{keep: len(paths) <= 64}
	for _, path := range paths {
		p, err := openPart(path)
		if err != nil {
			ps.Close()
			return nil, err
		}
		ps.parts = append(ps.parts, p)
	}
	var problems []string
	// The reference is the run most parts belong to (the first part's
	// among equals).
	type runKey struct {
		manifest, dataset, assign, tool, config string
		count                                   int
	}
	key := func(h *PartHeader) runKey {
		return runKey{h.ManifestSHA256, h.DatasetSHA256, h.AssignSHA256, h.Tool, h.Config + "\x00" + strings.Join(h.Currencies, ","), h.Shard.Count}
	}
	votes := map[runKey]int{}
	for _, p := range ps.parts {
		votes[key(p.header)]++
	}
	ref := key(ps.parts[0].header)
	for _, p := range ps.parts {
		if k := key(p.header); votes[k] > votes[ref] {
			ref = k
		}
	}
	var good []*partReader
	for _, p := range ps.parts {
		h := p.header
		k := key(h)
		switch {
		case k.manifest != ref.manifest:
			problems = append(problems, fmt.Sprintf("%s: foreign or stale: shard %s of a dataset whose manifests have digest %s, the other parts' %s", p.path, h.Shard, short16(k.manifest), short16(ref.manifest)))
		case chk.ManifestSHA256 != "" && !manifestIs(h, chk.ManifestSHA256):
			problems = append(problems, fmt.Sprintf("%s: stale: shard %s read a manifest.json other than the one given (%s)", p.path, h.Shard, short16(chk.ManifestSHA256)))
		case k.dataset != ref.dataset:
			problems = append(problems, fmt.Sprintf("%s: stale or foreign: shard %s found other files in the dataset (digest %s, the other parts' %s)", p.path, h.Shard, short16(k.dataset), short16(ref.dataset)))
		case k.count != ref.count:
			problems = append(problems, fmt.Sprintf("%s: shard %s of another split: the other parts are of %d shards", p.path, h.Shard, ref.count))
		case k.tool != ref.tool:
			problems = append(problems, fmt.Sprintf("%s: stale: shard %s written by fairhold %s, the other parts by %s", p.path, h.Shard, k.tool, ref.tool))
		case k.config != ref.config:
			problems = append(problems, fmt.Sprintf("%s: shard %s replayed with other options (%q, currencies %v)", p.path, h.Shard, h.Config, h.Currencies))
		case k.assign != ref.assign:
			problems = append(problems, fmt.Sprintf("%s: shard %s assigns the rounds files otherwise", p.path, h.Shard))
		default:
			good = append(good, p)
		}
	}
	if ref.manifest != "" && chk.ManifestSHA256 != "" && len(good) == 0 {
		problems = append(problems, "no part read the manifest given")
	}
	byIndex := map[int][]*partReader{}
	for _, p := range good {
		byIndex[p.header.Shard.Index] = append(byIndex[p.header.Shard.Index], p)
	}
	// Shard 0's part holds the dataset's listing and assignment.
	var hd *PartHeader
	for _, p := range good {
		if p.header.Shard.Index == 0 && len(byIndex[0]) == 1 {
			if err := p.header.checkListing(); err != nil {
				ps.Close()
				return nil, &PartError{p.path, err.Error()}
			}
			hd = p.header
		}
	}
	for i := 0; i < ref.count; i++ {
		have := byIndex[i]
		switch {
		case len(have) == 0:
			var files []string
			if hd != nil {
				for _, a := range hd.Assignment {
					if a.Shard == i {
						files = append(files, a.Path)
					}
				}
			}
			what := "its rounds files are listed in shard 0's part"
			if len(files) == 0 && hd != nil {
				what = "no rounds files"
			}
			if len(files) > 0 {
				what = "rounds files " + strings.Join(files, ", ")
				if len(files) > 5 {
					what = fmt.Sprintf("rounds files %s and %d more", strings.Join(files[:5], ", "), len(files)-5)
				}
			}
			problems = append(problems, fmt.Sprintf("missing: no part for shard %d/%d (%s)", i, ref.count, what))
		case len(have) > 1:
			var names []string
			for _, p := range have {
				names = append(names, p.path)
			}
			problems = append(problems, fmt.Sprintf("duplicated: shard %d/%d is in %s", i, ref.count, strings.Join(names, " and ")))
		}
	}
	if hd != nil && len(problems) == 0 {
		owner := hd.owners()
		shardOf := map[string]int{}
		for _, a := range hd.Assignment {
			shardOf[a.Path] = a.Shard
		}
		// The listed files of each shard's parts, in the manifests' order.
		listed := map[int][]string{}
		for _, dm := range partManifests(hd) {
			if dm.Err != nil || dm.Loaded == nil {
				continue
			}
			for _, mp := range dm.Loaded.Manifest.Parts {
				if len(mp.Files) == 0 {
					continue
				}
				if sh, ok := shardOf[listedPath(dm.Path, mp.Files[0].Path)]; ok {
					for _, f := range mp.Files {
						listed[sh] = append(listed[sh], listedPath(dm.Path, f.Path))
					}
				}
			}
		}
		for _, p := range good {
			idx := p.header.Shard.Index
			var want []int
			for u, s := range owner {
				if s == idx {
					want = append(want, u)
				}
			}
			if !slices.Equal(want, p.footer.Units) {
				problems = append(problems, fmt.Sprintf("%s: shard %s read units %s, its shard's are %s", p.path, p.header.Shard, unitList(p.footer.Units), unitList(want)))
			}
			files := listed[idx]
			var got []string
			for _, r := range p.footer.Read {
				got = append(got, r.Path)
			}
			if !slices.Equal(files, got) {
				problems = append(problems, fmt.Sprintf("%s: shard %s hashed %d listed files, its shard's parts list %d", p.path, p.header.Shard, len(got), len(files)))
			}
		}
	}
	if len(problems) > 0 {
		ps.Close()
		return nil, &CoverageError{problems}
	}
	// The parts by shard index.
	slices.SortFunc(good, func(a, b *partReader) int { return a.header.Shard.Index - b.header.Shard.Index })
	ps.parts, ps.header = good, hd
	return ps, nil
}

func manifestIs(h *PartHeader, sha string) bool {
	for _, m := range h.Manifests {
		if m.SHA256 == sha {
			return true
		}
	}
	return false
}

func short16(s string) string {
	if len(s) > 16 {
		return s[:16]
	}
	if s == "" {
		return "(none)"
	}
	return s
}

func unitList(us []int) string {
	if len(us) > 8 {
		return fmt.Sprintf("%v ... (%d)", us[:8], len(us))
	}
	return fmt.Sprint(us)
}

// partManifests rebuilds the manifests the shards read.
func partManifests(h *PartHeader) []DatasetManifest {
	out := make([]DatasetManifest, 0, len(h.Manifests))
	for _, pm := range h.Manifests {
		dm := DatasetManifest{Path: pm.Path}
		if pm.Bytes != nil {
			if m, err := manifest.Unmarshal(pm.Bytes); err == nil {
				dm.Loaded = &manifest.Loaded{Manifest: m, Bytes: pm.Bytes, Signed: pm.Signed, Verified: pm.Verified}
			}
		}
		if f := pm.Invalid; f != nil {
			ie := &manifest.InvalidError{File: f.File, Reason: f.Actual}
			if f.Field == manifest.SignatureName {
				ie.Err = manifest.ErrSignature
			}
			dm.Err, dm.Loaded = ie, nil
		}
		out = append(out, dm)
	}
	return out
}

// Rounds returns the rounds the parts read.
func (ps *PartSet) Rounds() int64 {
	var n int64
	for _, p := range ps.parts {
		n += p.footer.Rounds
	}
	return n
}

// record reads the part's next chunk record into buf.
func (p *partReader) record(buf []byte) ([]byte, error) {
	if p.f == nil {
		f, err := regularfile.Open(p.path)
		if err != nil {
			return nil, err
		}
		if _, err := f.Seek(p.off, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
		p.f, p.br = f, bufio.NewReaderSize(f, 256<<10)
	}
	bad := func(reason string) error { return &PartError{p.path, reason} }
	if p.off >= p.end {
		return nil, bad("truncated or altered: a unit's records end early")
	}
	tag, err := p.br.ReadByte()
	if err != nil {
		return nil, bad("truncated: " + err.Error())
	}
	n, err := binary.ReadUvarint(p.br)
	if tag != 'C' || err != nil || n > uint64(p.end-p.off) {
		return nil, bad("altered: malformed chunk record")
	}
	buf = slices.Grow(buf[:0], int(n))[:n]
	if _, err := io.ReadFull(p.br, buf); err != nil {
		return nil, bad("truncated: " + err.Error())
	}
	var lb [binary.MaxVarintLen64]byte
	p.h.Write([]byte{tag})
	hl := binary.PutUvarint(lb[:], n)
	p.h.Write(lb[:hl])
	p.h.Write(buf)
	p.off += int64(1+hl) + int64(n)
	if p.off > p.end {
		return nil, bad("altered: a record runs into the footer")
	}
	return buf, nil
}

// finish checks the part's digest once its records are read.
func (p *partReader) finish() error {
	if p.off != p.end {
		return &PartError{p.path, "altered: records after the shard's last unit"}
	}
	p.h.Write(p.tail)
	if !bytes.Equal(p.h.Sum(nil), p.digest) {
		return &PartError{p.path, "altered or truncated: its SHA-256 does not match its bytes"}
	}
	return nil
}

// Merge replays the parts' chunks through the checks that span rounds
// and returns the summary, as Replay would for the dataset; the findings
// go to opts.Findings in the same order. opts.Manifests, Workers and
// HeapProfile are not used: what the manifests and the files were is in
// the parts.
func (ps *PartSet) Merge(opts Options) (*Summary, error) {
	start := time.Now()
	defer ps.Close()
	hd := ps.header
	sum := newSummary()
	ledger := audit.NewLedger()
	var total int64
	for _, u := range hd.Dataset.Units {
		total += max(u.Rounds, 0)
	}
	ledger.Reserve(total)
	opts.Manifests = partManifests(hd)
	check := &datasetCheck{manifests: opts.Manifests, sum: sum, out: opts.Findings, seen: map[string]*partSeen{}, merged: true, present: map[string]bool{}}
	for _, w := range hd.Dataset.Warnings {
		sum.Warn(w)
	}
	for _, f := range hd.Dataset.Files {
		check.files = append(check.files, roundlog.DatasetFile{Path: f.Path, Table: f.Table, Rows: f.Rows})
	}
	if check.active() {
		check.hashes = map[string]fileHash{}
		check.hashed = make(chan struct{})
		close(check.hashed)
		for _, p := range ps.parts {
			for _, r := range p.footer.Read {
				check.present[r.Path] = r.Exists
				fh := fileHash{sum: r.SHA256, bytes: r.Bytes}
				if r.Error != "" {
					fh.err = errors.New(r.Error)
				}
				check.hashes[r.Path] = fh
			}
		}
	}
	defer check.close()
	opts.Findings = check.findings()
	owner := hd.owners()
	byShard := make([]*partReader, hd.Shard.Count)
	bs := make([]*shardBounds, hd.Shard.Count)
	for _, p := range ps.parts {
		byShard[p.header.Shard.Index] = p
		bs[p.header.Shard.Index] = p.bounds
	}
	// What each rounds file held, for the manifest's check, is in the
	// parts' boundary records.
	check.observed = true
	for _, b := range bs {
		for _, f := range b.files {
			check.seen[f] = b.seen[f]
			// The period too: a merge that does not replay the traces
			// sees their times only here.
			if s := b.seen[f]; s != nil && s.timed {
				sum.widenPeriod(s.minTime, s.maxTime)
			}
		}
	}
	plan := planBoundary(bs)
	if ps.ReplayTraces && plan.fallback == "" {
		plan = &boundaryPlan{fallback: "asked for (--replay-traces)"}
	}
	ps.Fallback = plan.fallback
	col := &collector{sum: sum, ledger: ledger, check: check, opts: &opts}
	if plan.fallback == "" {
		col.ledger, col.plan = nil, plan
	}
	if err := col.emit(slices.Clone(hd.Dataset.Damage)); err != nil {
		return nil, err
	}
	// A reader goroutine reads the records in unit order, decoders decode
	// them in parallel, and this goroutine takes the chunks in order.
	workers := max(1, min(runtime.GOMAXPROCS(0), 4))
	jobs := make(chan *mergeJob)
	order := make(chan *mergeJob, 2*workers)
	freeBufs := make(chan []byte, 2*workers+2)
	freeChunks := make(chan *chunk, 2*workers+2)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() {
		close(stop)
		wg.Wait()
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dec audit.TraceDecoder
			for j := range jobs {
				j.decode(&dec)
				close(j.done)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(order)
		defer close(jobs)
		var prev *partReader
		seq := make([]int64, len(byShard)) // each part's next chunk
		for i := range hd.Dataset.Units {
			p := byShard[owner[i]]
			if prev != nil && prev != p && !ps.keep {
				prev.close()
			}
			prev = p
			for {
				var buf []byte
				select {
				case buf = <-freeBufs:
				default:
				}
				j := &mergeJob{p: p, unit: i, done: make(chan struct{}), shard: owner[i], seq: seq[owner[i]]}
				seq[owner[i]]++
				j.buf, j.err = p.record(buf)
				last := false
				var off, n uint64
				if j.err == nil {
					last, off, n, j.err = j.head()
				}
				if j.err == nil && plan.fallback != "" {
					var tb []byte
					select {
					case tb = <-freeBufs:
					default:
					}
					j.traces, j.err = p.blob(off, n, tb)
				}
				if j.err != nil {
					close(j.done)
					select {
					case order <- j:
					case <-stop:
					}
					return
				}
				select {
				case j.ck = <-freeChunks:
				default:
					j.ck = &chunk{totals: &unitTotals{}}
				}
				select {
				case order <- j:
				case <-stop:
					return
				}
				select {
				case jobs <- j:
				case <-stop:
					return
				}
				if last {
					break
				}
			}
		}
	}()
	for j := range order {
		<-j.done
		if j.err != nil {
			return nil, j.err
		}
		if plan.fallback == "" {
			j.ck.findings = append(append(j.ck.findings, j.ck.local...), plan.add[j.shard][j.seq]...)
		}
		if err := col.take(j.ck); err != nil {
			return nil, err
		}
		if opts.Progress != nil {
			opts.Progress(j.ck.rounds)
		}
		select {
		case freeChunks <- j.ck:
		default:
		}
		for _, b := range [][]byte{j.buf, j.traces} {
			if b != nil {
				select {
				case freeBufs <- b:
				default:
				}
			}
		}
	}
	for _, p := range ps.parts {
		p.close()
		if err := p.finish(); err != nil {
			return nil, err
		}
		if err := p.finishTraces(); err != nil {
			return nil, err
		}
	}
	if err := col.finish(); err != nil {
		return nil, err
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

// mergeJob is a chunk record of a part, read in unit order and decoded by
// one of the merge's decoders.
type mergeJob struct {
	p      *partReader
	unit   int
	traces []byte // the chunk's traces and amounts, when the merge replays the traces
	// The chunk's shard, and its index among the shard's chunks.
	shard int
	seq   int64
	buf   []byte
	ck    *chunk
	err   error
	done  chan struct{}
}

// head reads the record's unit and last flag, checking the unit is the
// one due.
func (j *mergeJob) head() (last bool, off, n uint64, err error) {
	r := newRecReader(j.buf)
	unit := r.Uv()
	r.Uv()
	last = r.byte1() == 1
	r.Uv()
	off, n = r.Uv(), r.Uv()
	if r.Err() == nil && unit != uint64(j.unit) {
		return false, 0, 0, &PartError{j.p.path, fmt.Sprintf("altered: a record of unit %d where unit %d was due", unit, j.unit)}
	}
	if err := r.Err(); err != nil {
		return false, 0, 0, &PartError{j.p.path, fmt.Sprintf("unit %d: %v", j.unit, err)}
	}
	return last, off, n, nil
}

// decode decodes the record into j.ck.
func (j *mergeJob) decode(dec *audit.TraceDecoder) {
	r := newRecReader(j.buf)
	ck := j.ck
	r.Uv()
	ck.rounds = int64(r.Uv())
	ck.last = r.byte1() == 1
	nt64 := r.Uv()
	r.Uv()
	r.Uv()
	if nt64 > 1<<20 {
		r.Fail() // a chunk holds at most chunkRounds
	}
	nt := int(min(nt64, 1<<20))
	ck.traces = ck.traces[:0]
	ck.findings = r.findings(ck.findings[:0])
	r.totals(ck.totals, nt)
	ck.local = r.findings(ck.local[:0])
	if r.Err() == nil && r.Len() != 0 {
		r.Fail()
	}
	if err := r.Err(); err != nil {
		j.err = &PartError{j.p.path, fmt.Sprintf("unit %d: %v", j.unit, err)}
		return
	}
	if j.traces == nil {
		return // the merge completes the boundary state: no trace is needed
	}
	// The traces file's blob: the traces, then each round's amounts.
	tr := newRecReader(j.traces)
	enc := tr.Bytes(tr.Uv())
	if tr.Err() == nil {
		var err error
		if ck.traces, err = dec.Decode(enc, nt, ck.traces); err != nil {
			j.err = &PartError{j.p.tracesPath(), fmt.Sprintf("unit %d: %v", j.unit, err)}
			return
		}
	}
	tr.money(ck.totals)
	if tr.Err() == nil && tr.Len() != 0 {
		tr.Fail()
	}
	err := tr.Err()
	if err == nil && len(ck.totals.money) != len(ck.traces) {
		err = errors.New("amounts of another number of rounds than the traces")
	}
	if err != nil {
		j.err = &PartError{j.p.tracesPath(), fmt.Sprintf("unit %d: %v", j.unit, err)}
	}
}
