// Package suite implements certification suites (docs/suite-format.md): a
// JSON file that names the game and rules profile under certification, the
// artefacts (round logs, the engine's answer file, decks, raw RNG bytes, a
// strategy file) and the requirements, each a stable id, its text in plain
// words and the check that decides it with its parameters.
//
// Start with [Load] (a suite file) or [Builtin] (the built-in suite of a
// game), then [Run]: it hashes every artefact into the statement's
// subjects and runs each requirement's check, which returns a
// [report.Requirement]: pass, fail or not-tested, with its evidence (a
// summary, the subjects read, the check's documented result and its
// figures). [report.NewStatement] and [report.Sign] make the signed
// report of it.
//
// # Checks
//
// Each check is a small function (the check_*.go files) that names its
// result type:
//
//   - "vectors": the engine's answer file against every test vector
//     ([conformance.AnswersReport]).
//   - "stats-scheme", "stats-decks", "stats-log": the deck battery on the
//     scheme's decks, on the operator's decks file, and the log battery on
//     the logged rounds' cards ([stats.Report]).
//   - "nist-raw": NIST SP 800-22 on the operator's raw bytes
//     ([nist.Report]).
//   - "math-claims": the profile's published RTP claims ([rtp.Math]).
//   - "replay": every logged round re-dealt and re-settled
//     ([replayer.Summary]).
//   - "rtp-observed", "rtp-decisions": the logged returns against the
//     exact expectation of each box's decision ([rtp.Report]).
//
// # Errors
//
// Malformed input (a suite, answer or decks file that does not parse, an
// artefact that is missing, a key of the wrong type) is an [*Error]
// naming the file and the field, wrapping [ErrInput]. Other errors are I/O
// failures.
package suite

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fairhold/fairhold/certify/conformance"
	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/replay/profile"
)

// Suite is a certification suite: what is certified and which checks run.
type Suite struct {
	// Name names the suite ("casino-holdem", "acme-live-table-2026").
	Name string `json:"name"`
	// Version is the suite's version as the lab numbers it ("" for
	// none).
	Version string `json:"version,omitempty"`
	// Description says what the suite certifies, for people.
	Description string `json:"description,omitempty"`
	// Lab, Operator and Jurisdiction are the testing laboratory, the
	// operator whose artefacts are certified and the jurisdiction the
	// certificate is for, as the report names them ("" when the suite does
	// not: `fairhold certify --lab`, `--operator`, `--jurisdiction` give
	// them then).
	Lab          string `json:"lab,omitempty"`
	Operator     string `json:"operator,omitempty"`
	Jurisdiction string `json:"jurisdiction,omitempty"`
	// Game is "casino-holdem", "live-casino-holdem" or "double-holdem".
	Game string `json:"game"`
	// Profile is the rules profile: a built-in name, or the path of a
	// profile file relative to the suite file.
	Profile string `json:"profile"`
	// Artefacts are the files certified.
	Artefacts Artefacts `json:"artefacts"`
	// Requirements are what is certified, in the report's order.
	Requirements []Requirement `json:"requirements"`

	file   string // the suite file, for errors ("builtin:NAME" for a built-in)
	dir    string // the directory the paths are relative to
	digest string // the SHA-256 of the suite file's bytes ([Suite.SHA256])
}

// Artefacts are the files a suite certifies. Every path is relative to
// the suite file's directory, slash-separated, without "." or ".."
// elements (the report names the files so).
type Artefacts struct {
	// Logs are round logs: dataset directories or single files (Parquet,
	// JSON Lines), as `fairhold replay` reads them.
	Logs []string `json:"logs,omitempty"`
	// Answers is the engine's answer file (JSON Lines).
	Answers string `json:"answers,omitempty"`
	// Decks is a decks file: the operator's shuffler output, one deck a
	// line.
	Decks string `json:"decks,omitempty"`
	// Raw is a file of the operator's raw RNG bytes.
	Raw string `json:"raw,omitempty"`
	// Strategy is a strategy file (`fairhold math --strategy-out`): the
	// strategy the players are declared to follow.
	Strategy string `json:"strategy,omitempty"`
}

// Requirement is one requirement of a suite.
type Requirement struct {
	// ID is a short stable name: lower-case letters and digits in groups
	// joined by single '-' or '.' ("replay.resettle").
	ID string `json:"id"`
	// Text is the requirement in plain words.
	Text string `json:"text"`
	// Check names the check that decides it (the package doc lists them).
	Check string `json:"check"`
	// Params are the check's parameters (docs/suite-format.md); absent
	// means the defaults.
	Params json.RawMessage `json:"params,omitempty"`

	params any // decoded, with defaults
}

// File returns the suite's file ("builtin:NAME" for a built-in suite).
func (s *Suite) File() string { return s.file }

// Dir returns the directory the suite's paths are relative to.
func (s *Suite) Dir() string { return s.dir }

// ErrInput is wrapped by every [*Error]: the input is malformed.
var ErrInput = errors.New("malformed input")

// Error is malformed input: the file, the field and what is wrong.
type Error struct {
	File  string // the file at fault
	Field string // the JSON path in it ("requirements[2].params.decks"), a line, or ""
	Err   error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns [ErrInput] and the underlying error.
func (e *Error) Unwrap() []error { return []error{ErrInput, e.Err} }

func inputErr(file, field, format string, args ...any) *Error {
	return &Error{File: file, Field: field, Err: fmt.Errorf(format, args...)}
}

// Load reads and parses a suite file. Its paths are relative to its
// directory.
func Load(file string) (*Suite, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, inputErr(file, "", "no such file")
		}
		return nil, fmt.Errorf("failed to read %s: %w", file, err)
	}
	return Parse(data, file, filepath.Dir(file))
}

// Parse parses a suite from data, naming file in its errors, with paths
// relative to dir. It decodes strictly (unknown members and trailing data
// are errors), checks every field and decodes every requirement's
// parameters; it does not look at the files.
func Parse(data []byte, file, dir string) (*Suite, error) {
	var top struct {
		Name         string            `json:"name"`
		Version      string            `json:"version"`
		Description  string            `json:"description"`
		Lab          string            `json:"lab"`
		Operator     string            `json:"operator"`
		Jurisdiction string            `json:"jurisdiction"`
		Game         string            `json:"game"`
		Profile      string            `json:"profile"`
		Artefacts    json.RawMessage   `json:"artefacts"`
		Requirements []json.RawMessage `json:"requirements"`
	}
	if err := decodeStrict(data, &top); err != nil {
		return nil, within(file, "", err)
	}
	s := &Suite{Name: top.Name, Description: top.Description, Game: top.Game, Profile: top.Profile, file: file, dir: dir,
		Version: top.Version, Lab: top.Lab, Operator: top.Operator, Jurisdiction: top.Jurisdiction, digest: digestOf(data)}
	for _, f := range []struct{ name, value string }{
		{"version", top.Version}, {"lab", top.Lab}, {"operator", top.Operator}, {"jurisdiction", top.Jurisdiction},
	} {
		if f.value == "" {
			continue
		}
		if err := report.CheckPartyName(f.value); err != nil {
			return nil, inputErr(file, f.name, "%v", err)
		}
	}
	switch {
	case s.Name == "":
		return nil, inputErr(file, "name", "missing")
	case !slices.Contains(layout.Games(), s.Game):
		return nil, inputErr(file, "game", "%q: want one of %s", s.Game, strings.Join(layout.Games(), ", "))
	case s.Profile == "":
		return nil, inputErr(file, "profile", "missing: a built-in name (%s) or a profile file", strings.Join(profile.Names(), ", "))
	}
	if !slices.Contains(profile.Names(), s.Profile) {
		if err := checkPath(s.Profile); err != nil {
			return nil, inputErr(file, "profile", "%v", err)
		}
	}
	if len(top.Artefacts) > 0 {
		if err := decodeStrict(top.Artefacts, &s.Artefacts); err != nil {
			return nil, within(file, "artefacts", err)
		}
	}
	if err := s.checkArtefacts(); err != nil {
		return nil, err
	}
	if top.Requirements == nil {
		return nil, inputErr(file, "requirements", "missing: a suite has at least one requirement")
	}
	ids := map[string]bool{}
	for i, raw := range top.Requirements {
		f := fmt.Sprintf("requirements[%d]", i)
		var r Requirement
		if err := decodeStrict(raw, &r); err != nil {
			return nil, within(file, f, err)
		}
		switch {
		case !report.ValidID(r.ID):
			return nil, inputErr(file, f+".id", "%q: want lower-case letters and digits in groups joined by '-' or '.'", r.ID)
		case ids[r.ID]:
			return nil, inputErr(file, f+".id", "%q repeats an earlier requirement", r.ID)
		case strings.TrimSpace(r.Text) == "":
			return nil, inputErr(file, f+".text", "missing: the requirement in plain words")
		}
		ids[r.ID] = true
		c, ok := checks[r.Check]
		if !ok {
			return nil, inputErr(file, f+".check", "%q: want one of %s", r.Check, strings.Join(CheckNames(), ", "))
		}
		if !slices.Contains(c.games, s.Game) {
			return nil, inputErr(file, f+".check", "%q does not apply to %s (it applies to %s)", r.Check, s.Game, strings.Join(c.games, ", "))
		}
		p, err := c.params(r.Params)
		if err != nil {
			return nil, within(file, f+".params", err)
		}
		r.params = p
		s.Requirements = append(s.Requirements, r)
	}
	if len(s.Requirements) == 0 {
		return nil, inputErr(file, "requirements", "empty: a suite has at least one requirement")
	}
	return s, nil
}

// checkArtefacts checks the form of the artefacts' paths.
func (s *Suite) checkArtefacts() error {
	a := &s.Artefacts
	for i, l := range a.Logs {
		if err := checkPath(l); err != nil {
			return inputErr(s.file, fmt.Sprintf("artefacts.logs[%d]", i), "%v", err)
		}
	}
	for _, f := range []struct{ name, path string }{
		{"answers", a.Answers}, {"decks", a.Decks}, {"raw", a.Raw}, {"strategy", a.Strategy},
	} {
		if f.path == "" {
			continue
		}
		if err := checkPath(f.path); err != nil {
			return inputErr(s.file, "artefacts."+f.name, "%v", err)
		}
	}
	return nil
}

// checkPath checks an artefact's path: relative to the suite,
// slash-separated, inside its directory.
func checkPath(p string) error {
	if p == "." || !fsValidPath(p) || strings.Contains(p, `\`) {
		return fmt.Errorf("%q: want a slash-separated path relative to the suite file, without '.', '..' or empty elements", p)
	}
	return nil
}

func fsValidPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") {
		return false
	}
	for _, e := range strings.Split(p, "/") {
		if e == "" || e == "." || e == ".." {
			return false
		}
	}
	return path.Clean(p) == p
}

// decodeStrict decodes one JSON value into v: unknown members and
// trailing data are errors.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// within turns a JSON decoding error into an [*Error] naming the field
// under prefix.
func within(file, prefix string, err error) *Error {
	join := func(f string) string {
		switch {
		case prefix == "":
			return f
		case f == "":
			return prefix
		}
		return prefix + "." + f
	}
	var typ *json.UnmarshalTypeError
	var syn *json.SyntaxError
	var fe *Error
	switch {
	case errors.As(err, &fe):
		return &Error{File: file, Field: join(fe.Field), Err: fe.Err}
	case errors.As(err, &typ):
		return &Error{File: file, Field: join(typ.Field), Err: fmt.Errorf("JSON %s, want %s", typ.Value, conformance.JSONKind(typ.Type))}
	case errors.As(err, &syn):
		return &Error{File: file, Field: prefix, Err: fmt.Errorf("not JSON at byte %d: %v", syn.Offset, syn)}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return &Error{File: file, Field: prefix, Err: errors.New("truncated JSON")}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return &Error{File: file, Field: join(name), Err: errors.New("unknown member")}
	}
	return &Error{File: file, Field: prefix, Err: err}
}

//go:embed builtin/*.json
var builtinFS embed.FS

// Names returns the names of the built-in suites, sorted.
func Names() []string {
	ents, _ := builtinFS.ReadDir("builtin")
	out := make([]string, 0, len(ents))
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".json"))
	}
	slices.Sort(out)
	return out
}

// BuiltinJSON returns the file of the built-in suite name.
func BuiltinJSON(name string) ([]byte, error) {
	if !slices.Contains(Names(), name) {
		return nil, fmt.Errorf("no built-in suite %q (built in: %s)", name, strings.Join(Names(), ", "))
	}
	return builtinFS.ReadFile("builtin/" + name + ".json")
}

// Builtin returns the built-in suite name, for the game of that name. It
// names no artefacts: give them with [Suite.SetArtefacts], relative to
// dir. Its requirements whose artefacts are missing are not tested.
func Builtin(name, dir string) (*Suite, error) {
	data, err := BuiltinJSON(name)
	if err != nil {
		return nil, err
	}
	return Parse(data, "builtin:"+name, dir)
}

// SetArtefacts replaces the suite's artefacts (the flags of a built-in
// suite); the paths are checked as a suite file's.
func (s *Suite) SetArtefacts(a Artefacts) error {
	s.Artefacts = a
	return s.checkArtefacts()
}

// SetManifestKey makes every replay requirement check the logs' manifests
// against the Ed25519 public key at path, as its manifest_key parameter
// does: the operator's published key, given when the suite is run
// (`fairhold certify --manifest-key`). The key is a subject of the report
// like the artefacts, so it must lie under the suite's directory.
func (s *Suite) SetManifestKey(path string) error {
	dir, err := filepath.Abs(s.dir)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%w: manifest key %s: not under the suite's directory %s (the report names its subjects relative to it)", ErrInput, path, dir)
	}
	for i := range s.Requirements {
		r := &s.Requirements[i]
		if r.Check == CheckReplay && r.params == nil {
			p, err := checks[CheckReplay].params(r.Params)
			if err != nil {
				return fmt.Errorf("%w: requirements[%d].params: %v", ErrInput, i, err)
			}
			r.params = p
		}
		if p, ok := r.params.(*ReplayParams); ok {
			p.ManifestKey = filepath.ToSlash(rel)
		}
	}
	return nil
}
