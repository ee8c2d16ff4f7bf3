package roundlog

import (
	"fmt"

	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/round"
)

// JSONLDatasetWriter writes rounds as a dataset in the JSON Lines form:
// DIR/rounds/part-00000.jsonl, ... ([TablePath]), a new part every
// Options.FileRounds rounds (the other Options do not apply), each file
// under a temporary name renamed once whole, and describes the parts as
// the manifest lists them.
type JSONLDatasetWriter struct {
	dir   string
	opts  Options
	part  int
	cur   *jsonlPart
	parts []manifest.Part
}

// jsonlPart is the part being written.
type jsonlPart struct {
	name  string
	f     *hashingFile
	w     *JSONLWriter
	stats PartStats
}

// NewJSONLDatasetWriter returns a writer into dir.
func NewJSONLDatasetWriter(dir string, opts Options) *JSONLDatasetWriter {
	return &JSONLDatasetWriter{dir: dir, opts: opts.withDefaults(), part: max(opts.FirstPart, 0)}
}

// Write appends one round.
func (w *JSONLDatasetWriter) Write(r *round.Round) error {
	if w.cur != nil && w.cur.stats.Rounds >= w.opts.FileRounds {
		if err := w.closePart(); err != nil {
			return err
		}
	}
	if w.cur == nil {
		name := PartName(w.part)
		f, err := createHashing(TablePath(w.dir, TableRounds, name, "jsonl"))
		if err != nil {
			return err
		}
		jw, err := NewJSONLWriter(f)
		if err != nil {
			f.f.Abort()
			return fmt.Errorf("failed to write %s: %w", f.f.Name(), err)
		}
		w.cur = &jsonlPart{name: name, f: f, w: jw}
		w.part++
	}
	if err := w.cur.stats.AddRound(r); err != nil {
		return err
	}
	return w.cur.w.Write(r)
}

func (w *JSONLDatasetWriter) closePart() error {
	p := w.cur
	w.cur = nil
	err := p.w.Close()
	if err == nil {
		err = p.f.f.Commit()
	}
	if err != nil {
		p.f.f.Abort()
		return fmt.Errorf("failed to write %s: %w", p.f.f.Name(), err)
	}
	e, err := p.f.entry(w.dir, TableRounds, p.stats.Rounds)
	if err != nil {
		return err
	}
	w.parts = append(w.parts, p.stats.Part(p.name, []manifest.File{e}))
	return nil
}

// Close finishes the last part.
func (w *JSONLDatasetWriter) Close() error {
	if w.cur == nil {
		return nil
	}
	return w.closePart()
}

// Abort removes the part being written; the parts finished before stay.
func (w *JSONLDatasetWriter) Abort() {
	if w.cur != nil {
		w.cur.f.f.Abort()
		w.cur = nil
	}
}

// Parts describes the parts written so far, as the manifest lists them.
func (w *JSONLDatasetWriter) Parts() []manifest.Part { return w.parts }
