package replayer

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/finding"
)

// Formats of a findings file.
const (
	FormatParquet = "parquet"
	FormatJSONL   = "jsonl"
	FormatCSV     = "csv" // RFC 4180, for spreadsheets (finding.CSVWriter)
)

// FindingsFormats are the formats of a findings file, by the extension of
// its name.
var FindingsFormats = []string{FormatParquet, FormatJSONL, FormatCSV}

// ErrFindingsFormat is wrapped by the errors about a findings file's
// format: an unknown one, or a name that says another.
var ErrFindingsFormat = errors.New("findings file format")

// FindingsFormat returns the findings file format of path by its
// extension: "parquet", "jsonl" or "csv".
func FindingsFormat(path string) (string, error) {
	return FindingsFormatOf(path, "")
}

// FindingsFormatOf returns the format of the findings file path: format
// when it is not empty (the format of `--findings-format`), else the one
// path's extension names. A format path's extension contradicts (csv for
// findings.parquet) is an error: the file would be read as what its name
// says.
func FindingsFormatOf(path, format string) (string, error) {
	byName := ""
	for _, f := range FindingsFormats {
		if strings.HasSuffix(path, "."+f) {
			byName = f
		}
	}
	switch {
	case format == "" && byName == "":
		return "", fmt.Errorf("%w: %q: want a name ending in .parquet, .jsonl or .csv, or a format (parquet, jsonl or csv)", ErrFindingsFormat, path)
	case format == "":
		return byName, nil
	case !slices.Contains(FindingsFormats, format):
		return "", fmt.Errorf("%w %q: want parquet, jsonl or csv", ErrFindingsFormat, format)
	case byName != "" && byName != format:
		return "", fmt.Errorf("%w %s: the name %q says %s", ErrFindingsFormat, format, path, byName)
	}
	return format, nil
}

// FindingsOptions are the options of [CreateFindingsWith].
type FindingsOptions struct {
	// Format is the file's format (FormatParquet, ...); "" for the one its
	// name's extension says ([FindingsFormatOf]).
	Format string
	// Currencies gives the decimals of the CSV form's formatted amounts;
	// nil: the built-in currencies. Use the replay's table (its
	// --currency declarations).
	Currencies *currency.Table
}

// findingsRowGroup is the number of findings per Parquet row group.
const findingsRowGroup = 64 * 1024

// FindingsWriter writes findings to a Parquet, JSON Lines or CSV file.
// The file's bytes depend only on the findings written (and, for CSV,
// the currencies' decimals): a fixed CreatedBy, no timestamps.
type FindingsWriter struct {
	f   *atomicfile.File
	bw  *bufio.Writer
	pw  *parquet.GenericWriter[finding.Finding]
	enc *json.Encoder
	csv *finding.CSVWriter
	buf []finding.Finding
}

// CreateFindings creates the findings file path in the format its name
// says (.parquet, .jsonl or .csv); see [CreateFindingsWith].
func CreateFindings(path string) (*FindingsWriter, error) {
	return CreateFindingsWith(path, FindingsOptions{})
}

// CreateFindingsWith creates the findings file path. It is written under
// a temporary name and renamed to path by Close, so that path never holds
// a torn file; Abort removes it instead.
func CreateFindingsWith(path string, o FindingsOptions) (*FindingsWriter, error) {
	format, err := FindingsFormatOf(path, o.Format)
	if err != nil {
		return nil, err
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("failed to create findings file: %w", err)
	}
	w := &FindingsWriter{f: f, bw: bufio.NewWriterSize(f, 1<<20)}
	switch format {
	case FormatParquet:
		w.pw = parquet.NewGenericWriter[finding.Finding](w.bw,
			parquet.CreatedBy("fairhold replay", "1", ""),
			parquet.KeyValueMetadata("fairhold.table", "findings"),
			parquet.Compression(&snappy.Codec{}),
		)
	case FormatCSV:
		w.csv = finding.NewCSVWriter(w.bw, o.Currencies)
	default:
		w.enc = json.NewEncoder(w.bw)
	}
	return w, nil
}

// Write writes one finding.
func (w *FindingsWriter) Write(f *finding.Finding) error {
	if w.enc != nil {
		return w.enc.Encode(f)
	}
	if w.csv != nil {
		return w.csv.Write(f)
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
	if w.csv != nil {
		err = w.csv.Flush() // the header row, when no finding was written
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
