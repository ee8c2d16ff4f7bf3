package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"crypto/sha256"

	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

// extraRounds is how many rounds the part of part-extra holds at most.
const extraRounds = 200

// checkDatasetFaults checks that the dataset will have the parts the
// dataset faults need: part-missing, part-truncated and part-altered each
// take a part of their own.
func checkDatasetFaults(names []string, rounds, partRounds int64) error {
	need := 0
	for _, n := range names {
		if n != sim.FaultPartExtra {
			need++
		}
	}
	if have := (rounds + partRounds - 1) / partRounds; int64(need) > have {
		return usageErrorf("--faults %s: need %d parts, but %d rounds in parts of %d make %d: set --part-rounds",
			strings.Join(names, ","), need, rounds, partRounds, have)
	}
	return nil
}

// datasetFaulter applies dataset faults to a dataset whose manifest is
// written.
type datasetFaulter struct {
	dir    string
	format string // parquet or jsonl
	opts   roundlog.Options
	cfg    sim.Config // the simulation's, for part-extra's other table
	parts  []manifest.Part
	// removed are the ranges [from, to) of the indices of the simulated
	// rounds the faults removed.
	removed [][2]int64
}

// firstRound is the index of the first simulated round of part k.
func (d *datasetFaulter) firstRound(k int) int64 {
	var n int64
	for _, p := range d.parts[:k] {
		n += p.Rounds
	}
	return n
}

// apply applies the named faults: part-missing to the last part,
// part-truncated to the last part not deleted, part-altered to the first
// part neither deleted nor truncated, part-extra after the last part. It
// returns the findings a replay must report.
func (d *datasetFaulter) apply(names []string) ([]sim.DatasetInjection, error) {
	var inj []sim.DatasetInjection
	taken := make([]bool, len(d.parts))
	pick := func(last bool) int {
		for k := range d.parts {
			if last {
				k = len(d.parts) - 1 - k
			}
			if !taken[k] {
				taken[k] = true
				return k
			}
		}
		return -1
	}
	for _, name := range []string{sim.FaultPartMissing, sim.FaultPartTruncated, sim.FaultPartAltered, sim.FaultPartExtra} {
		if !slices.Contains(names, name) {
			continue
		}
		var got []sim.DatasetInjection
		var err error
		switch name {
		case sim.FaultPartMissing:
			got, err = d.missing(pick(true))
		case sim.FaultPartTruncated:
			got, err = d.truncated(pick(true))
		case sim.FaultPartAltered:
			got, err = d.altered(pick(false))
		case sim.FaultPartExtra:
			got, err = d.extra()
		}
		if err != nil {
			return nil, fmt.Errorf("fault %s: %w", name, err)
		}
		inj = append(inj, got...)
	}
	return inj, nil
}

// each lists one finding of code per file of part.
func each(p *manifest.Part, fault string, code finding.Code) []sim.DatasetInjection {
	var out []sim.DatasetInjection
	for _, f := range p.Files {
		out = append(out, sim.DatasetInjection{Fault: fault, Code: code, File: f.Path})
	}
	return out
}

func (d *datasetFaulter) path(rel string) string {
	return filepath.Join(d.dir, filepath.FromSlash(rel))
}

// missing deletes the files of part k.
func (d *datasetFaulter) missing(k int) ([]sim.DatasetInjection, error) {
	if k < 0 {
		return nil, errors.New("no part left to delete")
	}
	p := &d.parts[k]
	for _, f := range p.Files {
		if err := os.Remove(d.path(f.Path)); err != nil {
			return nil, err
		}
	}
	d.removed = append(d.removed, [2]int64{d.firstRound(k), d.firstRound(k) + p.Rounds})
	return each(p, sim.FaultPartMissing, finding.PartMissing), nil
}

// truncated re-writes part k with the first half of its rounds.
func (d *datasetFaulter) truncated(k int) ([]sim.DatasetInjection, error) {
	if k < 0 {
		return nil, errors.New("no part left to truncate")
	}
	p := &d.parts[k]
	if p.Rounds < 2 {
		return nil, fmt.Errorf("part %s has %d round: nothing to truncate", p.Name, p.Rounds)
	}
	rs, err := d.read(p)
	if err != nil {
		return nil, err
	}
	keep := (len(rs) + 1) / 2
	if err := d.rewrite(k, rs[:keep], d.opts.RowGroupRounds); err != nil {
		return nil, err
	}
	d.removed = append(d.removed, [2]int64{d.firstRound(k) + int64(keep), d.firstRound(k) + p.Rounds})
	return []sim.DatasetInjection{{Fault: sim.FaultPartTruncated, Code: finding.PartTruncated, File: p.Files[0].Path}}, nil
}

// altered re-writes part k with the same rounds and other bytes: in row
// groups of another size (Parquet), without its optional header line (JSON
// Lines).
func (d *datasetFaulter) altered(k int) ([]sim.DatasetInjection, error) {
	if k < 0 {
		return nil, errors.New("no part left to alter")
	}
	p := &d.parts[k]
	if d.format == "jsonl" {
		path := d.path(p.Files[0].Path)
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		_, rest, ok := bytes.Cut(b, []byte("\n"))
		if !ok || !bytes.HasPrefix(b, []byte(`{"schema_version"`)) {
			return nil, fmt.Errorf("%s: no header line", path)
		}
		if err := atomicfile.WriteFile(path, rest, 0o644); err != nil {
			return nil, err
		}
		return each(p, sim.FaultPartAltered, finding.PartAltered), nil
	}
	if p.Rounds < 2 {
		return nil, fmt.Errorf("part %s has %d round: one row group whatever its size", p.Name, p.Rounds)
	}
	rs, err := d.read(p)
	if err != nil {
		return nil, err
	}
	// Smaller row groups than the part's: each file gets other bytes.
	for size := max(1, int(min(int64(d.opts.RowGroupRounds), p.Rounds))/2); ; size = max(1, size/2) {
		if err := d.rewrite(k, rs, size); err != nil {
			return nil, err
		}
		if changed, err := d.changed(p); err != nil || changed || size == 1 {
			if err == nil && !changed {
				err = fmt.Errorf("part %s: re-writing did not change its bytes", p.Name)
			}
			if err != nil {
				return nil, err
			}
			return each(p, sim.FaultPartAltered, finding.PartAltered), nil
		}
	}
}

// changed reports whether every file of p differs from its manifest entry.
func (d *datasetFaulter) changed(p *manifest.Part) (bool, error) {
	for _, f := range p.Files {
		b, err := os.ReadFile(d.path(f.Path))
		if err != nil {
			return false, err
		}
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) == f.SHA256 {
			return false, nil
		}
	}
	return true, nil
}

// extra adds a part of rounds of another table and other players.
func (d *datasetFaulter) extra() ([]sim.DatasetInjection, error) {
	cfg := d.cfg
	cfg.Seed ^= 0x9e3779b97f4a7c15
	cfg.Rounds = min(cfg.Rounds, extraRounds)
	cfg.Faults, cfg.Optimal = nil, nil
	s, err := sim.New(cfg)
	if err != nil {
		return nil, err
	}
	var rs []*round.Round
	for !s.Done() {
		r, _, err := s.Next()
		if err != nil {
			return nil, err
		}
		rs = append(rs, otherTable(r))
	}
	w, err := d.writer(d.dir, len(d.parts), d.opts.RowGroupRounds)
	if err != nil {
		return nil, err
	}
	if err := writeAll(w, rs); err != nil {
		return nil, err
	}
	parts := w.Parts()
	if len(parts) != 1 {
		return nil, fmt.Errorf("wrote %d parts, want 1", len(parts))
	}
	return each(&parts[0], sim.FaultPartExtra, finding.PartExtra), nil
}

// otherTable makes r a round of another table and other players: x- before
// its round id, table id, player ids and wallet ids.
func otherTable(r *round.Round) *round.Round {
	r.RoundID, r.TableID = "x-"+r.RoundID, "x-"+r.TableID
	ws := make([]string, len(r.WalletIDs))
	for i, w := range r.WalletIDs {
		ws[i] = "x-" + w
	}
	if len(ws) > 0 {
		r.WalletIDs = ws
	}
	for i := range r.Boxes {
		r.Boxes[i].PlayerID = "x-" + r.Boxes[i].PlayerID
	}
	if r.Double != nil {
		for i := range r.Double.Seats {
			r.Double.Seats[i].PlayerID = "x-" + r.Double.Seats[i].PlayerID
		}
	}
	return r
}

// read reads the rounds of part p back, as copies.
func (d *datasetFaulter) read(p *manifest.Part) ([]*round.Round, error) {
	ds, err := roundlog.Open(d.path(p.Files[0].Path))
	if err != nil {
		return nil, err
	}
	defer ds.Close()
	var rs []*round.Round
	dmg, err := ds.Scan(func(rec *roundlog.Record) error {
		b, err := json.Marshal(&rec.Round) // a deep copy: the reader reuses its buffers
		if err != nil {
			return err
		}
		r := new(round.Round)
		if err := json.Unmarshal(b, r); err != nil {
			return err
		}
		rs = append(rs, r)
		return nil
	})
	if err == nil && len(dmg) > 0 {
		err = dmg[0]
	}
	return rs, err
}

// rewrite writes rs as part k in place of its files: in a temporary folder
// of the dataset first (named with a dot, which no reader takes for a
// part), then each file renamed over the part's; a file of the part that
// the rounds no longer need is removed.
func (d *datasetFaulter) rewrite(k int, rs []*round.Round, rowGroup int) error {
	tmp := filepath.Join(d.dir, ".fault-rewrite")
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	w, err := d.writer(tmp, k, rowGroup)
	if err != nil {
		return err
	}
	if err := writeAll(w, rs); err != nil {
		return err
	}
	written := map[string]bool{}
	for _, p := range w.Parts() {
		for _, f := range p.Files {
			written[f.Path] = true
			if err := os.MkdirAll(filepath.Dir(d.path(f.Path)), 0o755); err != nil {
				return err
			}
			if err := os.Rename(filepath.Join(tmp, filepath.FromSlash(f.Path)), d.path(f.Path)); err != nil {
				return err
			}
		}
	}
	for _, f := range d.parts[k].Files {
		if !written[f.Path] {
			if err := os.Remove(d.path(f.Path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// writer returns a writer of one part numbered k into dir.
func (d *datasetFaulter) writer(dir string, k, rowGroup int) (datasetWriter, error) {
	opts := roundlog.Options{RowGroupRounds: rowGroup, FileRounds: math.MaxInt64, FileRowGroups: math.MaxInt32, FirstPart: k}
	if d.format == "jsonl" {
		return roundlog.NewJSONLDatasetWriter(dir, opts), nil
	}
	return roundlog.NewParquetWriter(dir, opts)
}

func writeAll(w datasetWriter, rs []*round.Round) error {
	for _, r := range rs {
		if err := w.Write(r); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}
