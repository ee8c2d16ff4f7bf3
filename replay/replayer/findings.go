package replayer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/finding"
)

// FindingsFormat returns the findings file format of path by its
// extension: "parquet" or "jsonl".
func FindingsFormat(path string) (string, error) {
	switch {
	case strings.HasSuffix(path, ".parquet"):
		return "parquet", nil
	case strings.HasSuffix(path, ".jsonl"):
		return "jsonl", nil
	}
	return "", fmt.Errorf("findings file %q: want a name ending in .parquet or .jsonl", path)
}

// findingsRowGroup is the number of findings per Parquet row group.
const findingsRowGroup = 64 * 1024

// FindingsWriter writes findings to a Parquet or JSON Lines file. The
// file's bytes depend only on the findings written: a fixed CreatedBy, no
// timestamps.
type FindingsWriter struct {
	f   *atomicfile.File
	bw  *bufio.Writer
	pw  *parquet.GenericWriter[finding.Finding]
	enc *json.Encoder
	buf []finding.Finding
}

// CreateFindings creates the findings file path (.parquet or .jsonl). It
// is written under a temporary name and renamed to path by Close, so that
// path never holds a torn file; Abort removes it instead.
func CreateFindings(path string) (*FindingsWriter, error) {
	format, err := FindingsFormat(path)
	if err != nil {
		return nil, err
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("failed to create findings file: %w", err)
	}
	w := &FindingsWriter{f: f, bw: bufio.NewWriterSize(f, 1<<20)}
	if format == "parquet" {
		w.pw = parquet.NewGenericWriter[finding.Finding](w.bw,
			parquet.CreatedBy("fairhold replay", "1", ""),
			parquet.KeyValueMetadata("fairhold.table", "findings"),
			parquet.Compression(&snappy.Codec{}),
		)
	} else {
		w.enc = json.NewEncoder(w.bw)
	}
	return w, nil
}

// Write writes one finding.
func (w *FindingsWriter) Write(f *finding.Finding) error {
	if w.enc != nil {
		return w.enc.Encode(f)
	}
	w.buf = append(w.buf, *f)
	if len(w.buf) >= findingsRowGroup {
		return w.flush()
	}
	return nil
}

func (w *FindingsWriter) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	if _, err := w.pw.Write(w.buf); err != nil {
		return err
	}
	w.buf = w.buf[:0]
	return w.pw.Flush()
}

// Close finishes the file and renames it to its name; on error nothing is
// left at the name.
func (w *FindingsWriter) Close() error {
	var err error
	if w.pw != nil {
		if err = w.flush(); err == nil {
			err = w.pw.Close()
		}
	}
	if e := w.bw.Flush(); err == nil {
		err = e
	}
	if err != nil {
		w.f.Abort()
		return err
	}
	return w.f.Commit()
}

// Abort removes the file being written: nothing is left at its name.
func (w *FindingsWriter) Abort() { w.f.Abort() }
