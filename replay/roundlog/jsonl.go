package roundlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/source"
)

// JSON Lines form: one round.Round JSON object per line, in the encoding
// of encoding/json (the json tags of package round). An optional first
// line {"schema_version":"1.0"} declares the version; without it the
// current version is assumed.

// JSONLWriter writes rounds as JSON Lines.
type JSONLWriter struct {
	bw  *bufio.Writer
	enc *json.Encoder
}

// NewJSONLWriter writes the version header line and returns a writer.
func NewJSONLWriter(w io.Writer) (*JSONLWriter, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := fmt.Fprintf(bw, "{\"schema_version\":%q}\n", SchemaVersion); err != nil {
		return nil, err
	}
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &JSONLWriter{bw: bw, enc: enc}, nil
}

// Write appends one round as one line.
func (w *JSONLWriter) Write(r *round.Round) error {
	if err := w.enc.Encode(r); err != nil {
		return fmt.Errorf("round %q: failed to encode: %w", r.RoundID, err)
	}
	return nil
}

// Close flushes buffered lines; it does not close the underlying writer.
func (w *JSONLWriter) Close() error { return w.bw.Flush() }

type header struct {
	SchemaVersion string `json:"schema_version"`
	RoundID       string `json:"round_id"`
}

// readJSONL streams the JSON Lines file fn: every round to fn2, every
// damaged line to report, in line order. A line is held only while it is
// decoded, and a line longer than maxLineBytes is damage, read past
// without being held.
func readJSONL(src source.Source, fn string, fn2 func(*Record) error, report func(*DamageError)) error {
	f, err := src.Open(fn) // never a FIFO: reading one would block
	if err != nil {
		report(&DamageError{File: fn, RowGroup: -1, Row: -1, Reason: err.Error()})
		return nil
	}
	defer f.Close()
	// A line of maxLineBytes and its newline fit in the buffer.
	br := bufio.NewReaderSize(f, maxLineBytes+1)
	var rec Record
	rec.File = fn
	for line := int64(0); ; line++ {
		b, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			n := int64(len(b))
			for errors.Is(err, bufio.ErrBufferFull) {
				b, err = br.ReadSlice('\n')
				n += int64(len(b))
			}
			if len(b) > 0 && b[len(b)-1] == '\n' {
				n--
			}
			report(&DamageError{File: fn, RowGroup: 0, Row: line,
				Reason: fmt.Sprintf("a line of %d bytes; this reader takes lines of at most %d bytes", n, maxLineBytes)})
			if err != nil && !errors.Is(err, io.EOF) {
				report(&DamageError{File: fn, RowGroup: 0, Row: line, Reason: fmt.Sprintf("read failed: %v", err)})
			}
			if err != nil {
				return nil
			}
			continue
		}
		if len(b) == 0 && errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			report(&DamageError{File: fn, RowGroup: 0, Row: line, Reason: fmt.Sprintf("read failed: %v", err)})
			return nil
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		if line == 0 && bytes.Contains(b, []byte(`"schema_version"`)) {
			var h header
			if json.Unmarshal(b, &h) == nil && h.SchemaVersion != "" && h.RoundID == "" {
				if verr := checkVersion(fn, h.SchemaVersion); verr != nil {
					return verr
				}
				continue
			}
		}
		rec.Round = round.Round{}
		rec.Row = line
		if err := json.Unmarshal(b, &rec.Round); err != nil {
			d := &DamageError{File: fn, RowGroup: 0, Row: line, Reason: clip(fmt.Sprintf("not a round: %v", err))}
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				d.Column = clip(te.Field)
			}
			report(d)
			continue
		}
		if reason := rawTextError(b); reason != "" {
			col, why := rawTextPath(b, "")
			if why == "" {
				col, why = "", reason
			}
			id := rec.Round.RoundID
			if len(id) > maxFieldBytes || col == "round_id" {
				id = ""
			}
			report(&DamageError{File: fn, RowGroup: 0, Row: line, Column: clip(col), RoundID: id, Reason: why})
			continue
		}
		bad := checkSizes(&rec.Round, true)
		if bad.ok() {
			bad = validate(&rec.Round)
		}
		if !bad.ok() {
			col := bad.column
			if bad.child >= 0 {
				col = fmt.Sprintf("%s[%d]", col, bad.child)
			}
			id := rec.Round.RoundID
			if len(id) > maxFieldBytes {
				id = ""
			}
			report(&DamageError{File: fn, RowGroup: 0, Row: line, Column: col, RoundID: id, Reason: bad.reason})
			continue
		}
		if err := fn2(&rec); err != nil {
			return err
		}
	}
}
