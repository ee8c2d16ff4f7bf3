package roundlog

import (
	"fmt"

	"github.com/fairhold/fairhold/replay/manifest"
	"github.com/fairhold/fairhold/replay/round"
)

// JSONLPartWriter writes one part of a dataset in the JSON Lines form,
// DIR/rounds/NAME.jsonl ([TablePath]), under a temporary name renamed
// once the file is whole, and describes it as the manifest lists it.
type JSONLPartWriter struct {
	dir, name string
	f         *hashingFile
	w         *JSONLWriter
	stats     PartStats
	parts     []manifest.Part
}

// NewJSONLPartWriter starts the part name (part-00000) of the dataset dir.
func NewJSONLPartWriter(dir, name string) (*JSONLPartWriter, error) {
	f, err := createHashing(TablePath(dir, TableRounds, name, "jsonl"))
	if err != nil {
		return nil, err
	}
	w, err := NewJSONLWriter(f)
	if err != nil {
		f.f.Abort()
		return nil, fmt.Errorf("failed to write %s: %w", f.f.Name(), err)
	}
	return &JSONLPartWriter{dir: dir, name: name, f: f, w: w}, nil
}

// Write appends one round.
func (w *JSONLPartWriter) Write(r *round.Round) error {
	if err := w.stats.AddRound(r); err != nil {
		return err
	}
	return w.w.Write(r)
}

// Close finishes the file and renames it to its name; on error it is
// removed.
func (w *JSONLPartWriter) Close() error {
	err := w.w.Close()
	if err == nil {
		err = w.f.f.Commit()
	}
	if err != nil {
		w.f.f.Abort()
		return fmt.Errorf("failed to write %s: %w", w.f.f.Name(), err)
	}
	e, err := w.f.entry(w.dir, TableRounds, w.stats.Rounds)
	if err != nil {
		return err
	}
	w.parts = []manifest.Part{w.stats.Part(w.name, []manifest.File{e})}
	return nil
}

// Abort removes the file.
func (w *JSONLPartWriter) Abort() { w.f.f.Abort() }

// Parts describes the part once closed, as the manifest lists it.
func (w *JSONLPartWriter) Parts() []manifest.Part { return w.parts }
