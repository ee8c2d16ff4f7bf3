// Package manifest implements the dataset manifest of round logs
// (docs/log-format.md, section 8): DIR/manifest.json lists every part of a
// dataset with, per table file, its path, SHA-256, size and rows, and per
// part its rounds, first and last round ids and time range; an optional
// detached Ed25519 signature, DIR/manifest.json.sig, signs its exact bytes.
// A replay compares the dataset with its manifest: a part missing, added,
// altered or truncated after the manifest was written is a finding.
//
// [Marshal] writes the canonical bytes, [Unmarshal] reads a manifest
// strictly (unknown or duplicate members, an unknown format version,
// trailing data and invalid values are errors), [Write] writes
// manifest.json (and its signature) atomically and [Load] reads them back,
// verifying the signature when given a key.
package manifest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"time"
)

// File names in the dataset directory.
const (
	FileName      = "manifest.json"
	SignatureName = "manifest.json.sig"
)

// Format and Version identify the manifest format. A reader rejects any
// other format or version: a new version may add or change members.
const (
	Format  = "fairhold-dataset-manifest"
	Version = 1
)

// Tables are the table names a file may hold, in the order a part lists
// its files.
var Tables = []string{"rounds", "boxes", "seats", "actions", "pots"}

// Manifest is the content of manifest.json.
type Manifest struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Currencies optionally declares the number of decimals of each
	// currency the dataset's amounts are in, {"BTC": 8, "EUR": 2}: an
	// amount is an integer count of 10^-decimals units (docs/log-format.md
	// section 1). nil when not declared.
	Currencies map[string]int `json:"currencies,omitempty"`
	// Parts lists every part of the dataset.
	Parts []Part `json:"parts"`
}

// Part is one part of a dataset: one file per table, joined by round.
type Part struct {
	// Name identifies the part ("part-00000"), unique in the manifest.
	Name string `json:"name"`
	// Rounds is the number of rounds (rows of its rounds file).
	Rounds int64 `json:"rounds"`
	// FirstRoundID and LastRoundID are the round ids of the rounds file's
	// first and last rows; empty when Rounds is 0.
	FirstRoundID string `json:"first_round_id"`
	LastRoundID  string `json:"last_round_id"`
	// MinTime and MaxTime are the earliest and the latest round time of
	// the part (RFC 3339, UTC); empty when Rounds is 0.
	MinTime string `json:"min_time"`
	MaxTime string `json:"max_time"`
	// Files lists the part's files: its rounds file first, then the child
	// tables it has rows for, in the order of [Tables].
	Files []File `json:"files"`
}

// File is one table file of a part.
type File struct {
	// Path is the file's path relative to the dataset directory, with
	// "/" separators ("rounds/part-00000.parquet").
	Path  string `json:"path"`
	Table string `json:"table"`
	// Rows is the number of rows of the table in the file (rounds: one per
	// round; a JSON Lines file: its round lines).
	Rows int64 `json:"rows"`
	// Bytes is the size of the file and SHA256 the lower-case hex SHA-256
	// of its bytes.
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// New returns an empty manifest of the current format and version.
func New() *Manifest { return &Manifest{Format: Format, Version: Version, Parts: []Part{}} }

// Marshal returns the canonical bytes of m: JSON with the members in the
// order of the types above, indented by two spaces, currencies sorted by
// code, no HTML escaping, and a final newline. It validates m first.
func Marshal(m *Manifest) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Unmarshal reads a manifest strictly: b must be one JSON object with
// exactly the members of the format (case-sensitive; no unknown, missing
// or duplicate member), of the known format and version, followed by
// nothing but white space, and valid ([Manifest.Validate]).
func Unmarshal(b []byte) (*Manifest, error) {
	if err := checkMembers(b); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("malformed manifest: %w", err)
	}
	if m.Format != Format {
		return nil, fmt.Errorf("format %q: want %q", m.Format, Format)
	}
	if m.Version != Version {
		return nil, fmt.Errorf("manifest version %d is not supported (this reader reads version %d)", m.Version, Version)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Validate checks the values of m: part names unique and not empty; every
// path a clean relative path with "/" separators, listed once; one rounds
// file per part, first, and at most one file per table, in table order;
// rows, bytes and rounds not negative and the rounds equal to the rounds
// file's rows; SHA-256 as 64 lower-case hex digits; round ids and times
// given exactly when the part has rounds, times in RFC 3339 UTC with the
// earliest not after the latest; a part's rounds at most its files' bytes
// over [MinRoundBytes], and the parts' rounds adding up to at most 2^63-1;
// currency codes of 3 to 12 capital
// letters or digits with 0 to 18 decimals.
func (m *Manifest) Validate() error {
	if m.Format != Format || m.Version != Version {
		return fmt.Errorf("format %q version %d: want %q version %d", m.Format, m.Version, Format, Version)
	}
	if m.Parts == nil {
		return errors.New("parts: missing (an empty dataset lists [])")
	}
	for code, d := range m.Currencies {
		if !validCurrency(code) {
			return fmt.Errorf("currencies: %q: want a code of 3 to 12 capital letters or digits", code)
		}
		if d < 0 || d > 18 {
			return fmt.Errorf("currencies.%s: %d decimals: want 0 to 18", code, d)
		}
	}
	names := map[string]bool{}
	paths := map[string]bool{}
	var rounds int64
	for i := range m.Parts {
		if err := m.Parts[i].validate(names, paths); err != nil {
			return fmt.Errorf("parts[%d]: %w", i, err)
		}
		if m.Parts[i].Rounds > math.MaxInt64-rounds {
			return fmt.Errorf("parts[%d].rounds %d: the parts' rounds add up past 2^63-1 (%d before it)", i, m.Parts[i].Rounds, rounds)
		}
		rounds += m.Parts[i].Rounds
	}
	return nil
}

// MinRoundBytes is the fewest bytes a part's files take per round: a
// round carries its cards, which are random (at least 2 hole cards and
// the dealer's or a second player's), so no encoding or compression
// writes them in less than a byte a round; a real log takes tens of
// bytes. A manifest listing more rounds for a part is not plausible
// ([Manifest.Validate]): counts that no file could hold would weigh the
// shards' assignment (docs/sharding.md) with the operator's word alone.
const MinRoundBytes = 1

func (p *Part) validate(names, paths map[string]bool) error {
	if p.Name == "" {
		return errors.New("name: empty")
	}
	if names[p.Name] {
		return fmt.Errorf("name %q: listed twice", p.Name)
	}
	names[p.Name] = true
	if p.Rounds < 0 {
		return fmt.Errorf("rounds: %d", p.Rounds)
	}
	if len(p.Files) == 0 || p.Files[0].Table != "rounds" {
		return errors.New("files: the rounds file must come first")
	}
	last := -1
	for j, f := range p.Files {
		k := slices.Index(Tables, f.Table)
		switch {
		case k < 0:
			return fmt.Errorf("files[%d].table %q: want one of %s", j, f.Table, strings.Join(Tables, ", "))
		case k <= last:
			return fmt.Errorf("files[%d].table %q: tables listed twice or out of order (%s)", j, f.Table, strings.Join(Tables, ", "))
		case !validPath(f.Path):
			return fmt.Errorf("files[%d].path %q: want a clean relative path with / separators", j, f.Path)
		case paths[f.Path]:
			return fmt.Errorf("files[%d].path %q: listed twice", j, f.Path)
		case f.Rows < 0 || f.Bytes < 0:
			return fmt.Errorf("files[%d]: negative rows or bytes", j)
		case !validSHA256(f.SHA256):
			return fmt.Errorf("files[%d].sha256 %q: want 64 lower-case hex digits", j, f.SHA256)
		}
		last = k
		paths[f.Path] = true
	}
	if p.Files[0].Rows != p.Rounds {
		return fmt.Errorf("rounds %d: the rounds file has %d rows", p.Rounds, p.Files[0].Rows)
	}
	var size int64 // the files' bytes, at most 2^63-1
	for _, f := range p.Files {
		size = min(size, math.MaxInt64-f.Bytes) + f.Bytes
	}
	if p.Rounds > size/MinRoundBytes {
		return fmt.Errorf("rounds %d: not plausible for the part's files of %d bytes in all (a round takes at least %d byte)", p.Rounds, size, MinRoundBytes)
	}
	if p.Rounds == 0 {
		if p.FirstRoundID != "" || p.LastRoundID != "" || p.MinTime != "" || p.MaxTime != "" {
			return errors.New("a part without rounds has no round ids or times")
		}
		return nil
	}
	if p.FirstRoundID == "" || p.LastRoundID == "" {
		return errors.New("first_round_id, last_round_id: empty")
	}
	lo, err := ParseTime(p.MinTime)
	if err != nil {
		return fmt.Errorf("min_time: %w", err)
	}
	hi, err := ParseTime(p.MaxTime)
	if err != nil {
		return fmt.Errorf("max_time: %w", err)
	}
	if lo > hi {
		return fmt.Errorf("min_time %s is after max_time %s", p.MinTime, p.MaxTime)
	}
	return nil
}

// ParseTime reads an RFC 3339 time in UTC ("Z") as Unix microseconds.
func ParseTime(s string) (int64, error) {
	if !strings.HasSuffix(s, "Z") {
		return 0, fmt.Errorf("%q: want an RFC 3339 time in UTC, ending in Z", s)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, fmt.Errorf("%q: want an RFC 3339 time in UTC", s)
	}
	return t.UnixMicro(), nil
}

// FormatTime writes Unix microseconds in the form of the round logs: RFC
// 3339 UTC with the shortest fraction that keeps the microseconds.
func FormatTime(us int64) string {
	return time.UnixMicro(us).UTC().Format(time.RFC3339Nano)
}

func validPath(p string) bool {
	return p != "." && fs.ValidPath(p) && !strings.ContainsAny(p, "\\:\x00")
}

func validSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

func validCurrency(s string) bool {
	if len(s) < 3 || len(s) > 12 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Part finds the part named name.
func (m *Manifest) Part(name string) (*Part, bool) {
	for i := range m.Parts {
		if m.Parts[i].Name == name {
			return &m.Parts[i], true
		}
	}
	return nil, false
}
