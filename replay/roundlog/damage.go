package roundlog

import (
	"errors"
	"fmt"
	"strings"
)

// DamageError reports input that could not be read: a file that is not a
// Parquet file or is truncated, a wrong schema, a missing column, a null in
// a required column, an invalid card, a negative or overflowing amount, a
// corrupt row group. The reader reports it and goes on with the rest.
type DamageError struct {
	File     string // the file holding the damaged value
	RowGroup int    // row group index from 0; -1 for the whole file
	Row      int64  // row index within the file from 0; -1 for a whole row group or file
	Column   string // "table.column", or "" when no single column is at fault
	RoundID  string // the round concerned, when known
	Reason   string
}

func (e *DamageError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.RowGroup >= 0 {
		fmt.Fprintf(&b, ": row group %d", e.RowGroup)
	}
	if e.Row >= 0 {
		fmt.Fprintf(&b, ": row %d", e.Row)
	}
	if e.Column != "" {
		fmt.Fprintf(&b, ": column %s", e.Column)
	}
	if e.RoundID != "" {
		fmt.Fprintf(&b, ": round %q", e.RoundID)
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	return b.String()
}

// ErrUnsupportedVersion is matched (errors.Is) by the error [Open]
// returns for a file whose schema major version this reader does not know.
var ErrUnsupportedVersion = errors.New("unsupported round log schema version")

// VersionError names the file and the version found.
type VersionError struct {
	File    string
	Version string
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("%s: round log schema version %q is not supported (this reader reads %d.x); upgrade fairhold", e.File, e.Version, SchemaMajor)
}

// Is makes errors.Is(err, ErrUnsupportedVersion) true.
func (e *VersionError) Is(target error) bool { return target == ErrUnsupportedVersion }

// checkVersion accepts "MAJOR.MINOR" with the known major.
func checkVersion(file, v string) error {
	major, _, _ := strings.Cut(v, ".")
	if major != fmt.Sprint(SchemaMajor) {
		return &VersionError{File: file, Version: v}
	}
	return nil
}

// recoverAs turns a panic of parquet-go on corrupt input into *err, as
// "what: value": a reader function defers recoverAs(&err, "corrupt page").
func recoverAs(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: %v", what, r)
	}
}
