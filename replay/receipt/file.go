package receipt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// A receipts file (docs/receipts.md section 5) is JSON Lines: every line
// is one JSON string, the bytes of one signed receipt (a signed note).

// Ext is the extension of a receipts file in a directory.
const Ext = ".jsonl"

// maxLine bounds a line of a receipts file: a signed receipt escaped as
// JSON (each LF written \n, the em dash at most \u2014).
const maxLine = 2*maxNote + 64

// Signed is a receipt read from a file, with where it was.
type Signed struct {
	File string
	Line int // line index from 0
	*Receipt
	body string // the canonical body read; "" when not read from a file
}

// LineError is a receipt that could not be read or whose signature does
// not verify: it names the file and line. Err matches [ErrSignature] or
// [ErrNotCanonical].
type LineError struct {
	File string
	Line int // from 0
	Err  error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("%s line %d: %v", e.File, e.Line+1, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// EncodeLine returns the receipts-file line of a signed receipt: the note
// as a JSON string, with its LF.
func EncodeLine(note []byte) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(string(note)) // a string always encodes
	return b.Bytes()
}

// ReadFile reads every receipt of one receipts file and verifies it with
// v. The first receipt that cannot be read or does not verify stops the
// reading with a *LineError; an I/O error is returned as it is.
func ReadFile(path string, v *Verifier) ([]Signed, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	return Read(f, path, v)
}

// Read reads a receipts file's content from rd (named name in errors).
func Read(rd io.Reader, name string, v *Verifier) ([]Signed, error) {
	br := bufio.NewReaderSize(rd, 64<<10)
	var out []Signed
	for line := 0; ; line++ {
		b, err := readLine(br)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			if errors.Is(err, errLongLine) {
				return nil, &LineError{File: name, Line: line, Err: fmt.Errorf("%w: %v", ErrNotCanonical, err)}
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var note string
		if err := strictString(b, &note); err != nil {
			return nil, &LineError{File: name, Line: line, Err: fmt.Errorf("%w: %v", ErrNotCanonical, err)}
		}
		r, body, err := v.open([]byte(note))
		if err != nil {
			return nil, &LineError{File: name, Line: line, Err: err}
		}
		out = append(out, Signed{File: name, Line: line, Receipt: r, body: body})
	}
}

var errLongLine = fmt.Errorf("a line of more than %d bytes", maxLine)

// readLine returns the next line without its LF; io.EOF at the end.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxLine+1 {
			return nil, errLongLine
		}
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(buf) > 0:
			return buf, nil
		default:
			return nil, err
		}
	}
}

// strictString decodes b, which must be exactly one JSON string and
// nothing else, into s. A string holding an unpaired surrogate escape is
// refused, never repaired (docs/log-format.md section 2).
func strictString(b []byte, s *string) error {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '"' {
		return errors.New("not a JSON string; want one signed receipt as a JSON string per line")
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	if err := dec.Decode(s); err != nil {
		return fmt.Errorf("not a JSON string: %v", err)
	}
	if dec.InputOffset() != int64(len(t)) {
		return errors.New("data after the JSON string")
	}
	// A decoder turns an unpaired surrogate escape into U+FFFD; a
	// receipt never holds one (its body is ASCII), so it is refused,
	// never repaired.
	if strings.ContainsRune(*s, utf8.RuneError) {
		return errors.New("U+FFFD or an unpaired surrogate escape; a signed receipt is ASCII and em dashes")
	}
	return nil
}

// Files lists the receipts files of paths: a directory gives its regular
// files named *.jsonl (not its subdirectories), in byte order of their
// names; a file is taken as it is.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, e := range ents {
			n := e.Name()
			if strings.HasPrefix(n, ".") || !strings.HasSuffix(n, Ext) || e.IsDir() {
				continue
			}
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			out = append(out, filepath.Join(p, n))
		}
	}
	return out, nil
}

// FileName is the name of a player's receipts file in a directory written
// by `fairhold receipts issue`: the player id with every byte other than
// A-Z a-z 0-9 - _ escaped as %XX, then .jsonl (a leading dot is escaped
// too).
func FileName(player string) string {
	var b strings.Builder
	for i := 0; i < len(player); i++ {
		c := player[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
			b.WriteByte(c)
		case c == '.' && i > 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String() + Ext
}
