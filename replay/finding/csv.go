package finding

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/money"
)

// The CSV form of findings (docs/findings.md, "The CSV form"), for a
// spreadsheet: RFC 4180, UTF-8 without a byte-order mark, CRLF line
// ends, a header row of [CSVColumns] and one record per finding, every
// record with every column in that order.
//
// A cell is quoted (between double quotes, a double quote in it doubled)
// when it holds a comma, a double quote, a CR or an LF, and only then; CR
// and LF are kept as they are. A text that is not valid UTF-8 has each
// invalid byte replaced by U+FFFD, as the JSON Lines form does. The
// integer columns (row and the three amounts) are written in decimal,
// "-" before a negative one; an amount that is null is an empty cell.
//
// # Formulas
//
// A spreadsheet takes a cell that starts with =, +, - or @ (or TAB or CR)
// as a formula, and the texts of a finding come from the log, which the
// operator wrote. Every text cell (every column but row, expected_amount,
// actual_amount and difference, which hold integers the replay formed)
// that starts with one of those characters, with their full-width forms
// (U+FF1D, U+FF0B, U+FF0D, U+FF20), or with an apostrophe, gets an
// apostrophe (') before it, which a spreadsheet shows as text and does not
// evaluate: "=HYPERLINK(...)" is written '=HYPERLINK(...). To read a text
// cell back exactly, drop one leading apostrophe when there is one (a text
// that started with an apostrophe got a second one).

// CSVColumns are the columns of the CSV form, in their order.
var CSVColumns = []string{
	"code", "severity", "time", "table_id", "game", "round_id", "file", "row", "field",
	"player_id", "currency", "expected", "actual",
	"expected_amount", "actual_amount", "difference", "difference_formatted", "detail",
}

// CSVWriter writes findings in the CSV form. The bytes depend only on the
// findings and the currencies' decimals.
type CSVWriter struct {
	w          *bufio.Writer
	currencies *currency.Table
	started    bool
	col        int // the cells written of the record
	num        []byte
}

// NewCSVWriter returns a writer of findings to w in the CSV form.
// currencies gives the decimals of difference_formatted ([money.FormatIn];
// nil: the built-in ones).
func NewCSVWriter(w io.Writer, currencies *currency.Table) *CSVWriter {
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriterSize(w, 64<<10)
	}
	return &CSVWriter{w: bw, currencies: currencies}
}

// Write writes f's record (the header row first, on the first call).
func (c *CSVWriter) Write(f *Finding) error {
	c.header()
	c.text(string(f.Code))
	c.text(string(f.Severity))
	c.text(f.Time)
	c.text(f.TableID)
	c.text(f.Game)
	c.text(f.RoundID)
	c.text(f.File)
	c.int(&f.Row)
	c.text(f.Field)
	c.text(f.PlayerID)
	c.text(f.Currency)
	c.text(f.Expected)
	c.text(f.Actual)
	c.int(f.ExpectedAmount)
	c.int(f.ActualAmount)
	c.int(f.Difference)
	formatted := ""
	if f.Difference != nil {
		formatted = money.FormatIn(c.currencies, *f.Difference, f.Currency)
	}
	c.text(formatted)
	c.text(f.Detail)
	return c.end()
}

// Flush writes what is buffered, with the header row when no finding was
// written: a file of no findings is the header alone.
func (c *CSVWriter) Flush() error {
	c.header()
	return c.w.Flush()
}

func (c *CSVWriter) header() {
	if c.started {
		return
	}
	c.started = true
	for _, name := range CSVColumns {
		c.text(name)
	}
	c.end()
}

// end ends a record with CRLF. A write error of the record's cells is
// the buffered writer's, which keeps it: this write returns it.
func (c *CSVWriter) end() error {
	c.col = 0
	_, err := c.w.WriteString("\r\n")
	return err
}

// cell writes the comma before a cell other than a record's first.
func (c *CSVWriter) cell() {
	if c.col > 0 {
		c.w.WriteByte(',')
	}
	c.col++
}

func (c *CSVWriter) int(p *int64) {
	c.cell()
	if p != nil {
		c.num = strconv.AppendInt(c.num[:0], *p, 10)
		c.w.Write(c.num)
	}
}

func (c *CSVWriter) text(s string) {
	c.cell()
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if FormulaLike(s) {
		s = "'" + s
	}
	if !strings.ContainsAny(s, ",\"\r\n") {
		c.w.WriteString(s)
		return
	}
	c.w.WriteByte('"')
	c.w.WriteString(strings.ReplaceAll(s, `"`, `""`))
	c.w.WriteByte('"')
}

// FormulaLike reports whether a spreadsheet could take the text s as a
// formula (or s starts with an apostrophe): whether the CSV form writes
// it after an apostrophe.
func FormulaLike(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r', '\'':
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	switch r {
	case '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20': // full-width = + - @
		return true
	}
	return false
}
