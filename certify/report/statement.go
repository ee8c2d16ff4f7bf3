package report

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The identifiers of the format. They are names, not addresses: nothing
// is fetched from them.
const (
	// StatementType is the _type of an in-toto Statement v1.
	StatementType = "https://in-toto.io/Statement/v1"
	// PredicateType identifies this package's predicate, [Predicate], in
	// the version fairhold writes: version 2, which names the certificate,
	// its suite, lab, operator, jurisdiction, games, period, what the suite
	// left out and the limits of the evidence. A change that an old
	// verifier would misread gets a new version. The URI is an identifier;
	// no page needs to exist there.
	PredicateType = "https://fairhold.dev/certification/v2"
	// PredicateTypeV1 identifies version 1 of the predicate: the verdict,
	// the requirements, the tool and the time, nothing else. fairhold still
	// reads, verifies and draws version 1 reports; it writes version 2.
	PredicateTypeV1 = "https://fairhold.dev/certification/v1"
	// PayloadType is the DSSE payloadType of an in-toto statement.
	PayloadType = "application/vnd.in-toto+json"
	// DigestAlgorithm is the one digest of a subject: SHA-256, as 64
	// lower-case hex digits.
	DigestAlgorithm = "sha256"
)

// Statement is an in-toto Statement v1 (github.com/in-toto/attestation,
// spec/v1/statement.md) whose predicate is a fairhold certification.
type Statement struct {
	Type          string    `json:"_type"`         // StatementType
	Subject       []Subject `json:"subject"`       // the certified artefacts, sorted by name, at least one
	PredicateType string    `json:"predicateType"` // PredicateType
	Predicate     Predicate `json:"predicate"`
}

// Subject is one certified artefact: a file, named by its path relative to
// the report's subjects directory, and its SHA-256.
type Subject struct {
	// Name is a slash-separated relative path without "." or ".."
	// elements (io/fs.ValidPath), such as "logs/day1.parquet".
	Name string `json:"name"`
	// Digest holds exactly one entry, "sha256": 64 lower-case hex digits.
	Digest map[string]string `json:"digest"`
}

// SHA256 returns the subject's SHA-256 in hex.
func (s Subject) SHA256() string { return s.Digest[DigestAlgorithm] }

// Status is the outcome of one requirement.
type Status string

// The statuses of a requirement.
const (
	Pass      Status = "pass"       // the check ran and the requirement holds
	Fail      Status = "fail"       // the check ran and the requirement does not hold
	NotTested Status = "not-tested" // the check did not run; the evidence says why
)

// Verdict is the outcome of a certification: it follows from the
// requirements' statuses ([Decide]).
type Verdict string

// The verdicts.
const (
	VerdictPass       Verdict = "pass"       // every requirement passed (and there is at least one)
	VerdictFail       Verdict = "fail"       // at least one requirement failed
	VerdictIncomplete Verdict = "incomplete" // none failed, but some were not tested (or there are none)
)

// Decide returns the verdict of the requirements: fail if any failed, pass
// if there is at least one and all passed, incomplete otherwise.
func Decide(reqs []Requirement) Verdict {
	v := VerdictPass
	if len(reqs) == 0 {
		v = VerdictIncomplete
	}
	for _, r := range reqs {
		switch r.Status {
		case Fail:
			return VerdictFail
		case Pass:
		default:
			v = VerdictIncomplete
		}
	}
	return v
}

// Predicate is the certification: predicateType [PredicateType] (version
// 2), or [PredicateTypeV1], whose predicate has only the verdict, the
// requirements, the tool and the time (the other members absent, and no
// requirement's method or finding samples). docs/report-format.md section
// 5 is the normative description.
type Predicate struct {
	// Verdict is Decide(Requirements).
	Verdict Verdict `json:"verdict"`
	// CertificateID names the certificate: given by the lab, or derived
	// from the statement ([DeriveCertificateID], "fh-" and 24 hex digits).
	// Version 2: required.
	CertificateID string `json:"certificate_id,omitempty"`
	// Suite is the suite the certification ran, or nil for a statement
	// made outside a suite.
	Suite *SuiteRef `json:"suite,omitempty"`
	// Lab, Operator and Jurisdiction are the testing laboratory, the
	// operator (the lab's client) whose artefacts are certified, and the
	// jurisdiction the certificate is for, as the lab states them; "" when
	// not stated.
	Lab          string `json:"lab,omitempty"`
	Operator     string `json:"operator,omitempty"`
	Jurisdiction string `json:"jurisdiction,omitempty"`
	// Games are the games certified, each with its rules profile.
	Games []GameProfile `json:"games,omitempty"`
	// Period is the time the certified round logs cover, from the replay;
	// nil when no log was replayed.
	Period *Period `json:"period,omitempty"`
	// Requirements are the suite's requirements in the suite's order (an
	// empty list, not null, when there are none).
	Requirements []Requirement `json:"requirements"`
	// NotInSuite is what the built-in suite of the game has that the suite
	// run does not; nil for a built-in suite (or no suite).
	NotInSuite *NotInSuite `json:"not_in_suite,omitempty"`
	// Limits are the limits of the evidence, in plain sentences: what the
	// checks cannot see.
	Limits []string `json:"limits,omitempty"`
	// Tool is the fairhold build that ran the checks.
	Tool Tool `json:"tool"`
	// Time is when the report was signed, an input of the signer (the
	// --time flag), in UTC to the second: RFC 3339 "2026-01-02T15:04:05Z".
	Time time.Time `json:"time"`
}

// Requirement is one requirement of a suite, in plain words, and the
// outcome of the check that decides it.
type Requirement struct {
	// ID is a short stable name: lower-case letters and digits in groups
	// joined by single '-' or '.', such as "vectors.engine-conformance".
	ID string `json:"id"`
	// Text is the requirement in plain words ("every logged round
	// re-settles"). Clause numbers of standards are not invented.
	Text string `json:"text"`
	// Method is the method or standard the check follows, in a few words
	// ("NIST SP 800-22 rev. 1a, ..."); version 2, "" when not stated.
	Method   string   `json:"method,omitempty"`
	Status   Status   `json:"status"`
	Evidence Evidence `json:"evidence"`
}

// Evidence is what a requirement's status rests on.
type Evidence struct {
	// Summary is one line for people: what was measured, or why the
	// requirement was not tested.
	Summary string `json:"summary,omitempty"`
	// Subjects names the subjects the check read, sorted; each is the Name
	// of one of the statement's subjects.
	Subjects []string `json:"subjects,omitempty"`
	// Result is the check's own result in the compact JSON of its
	// documented type (for example a replay summary), or empty.
	Result json.RawMessage `json:"result,omitempty"`
	// FindingSamples are, for a check that reports findings (the replay),
	// each finding code with its count and the first round ids in log
	// order; version 2, sorted by code.
	FindingSamples []FindingSample `json:"finding_samples,omitempty"`
	// Charts are the figures of the requirement (charts.go), or none.
	Charts []Chart `json:"charts,omitempty"`
}

// Tool is the fairhold build that produced a report.
type Tool struct {
	Name     string `json:"name"`               // "fairhold"
	Version  string `json:"version"`            // the release version, or the module version of the build
	Revision string `json:"revision,omitempty"` // the VCS revision built, when the build recorded it
	Modified bool   `json:"modified,omitempty"` // the revision had uncommitted changes
	Go       string `json:"go,omitempty"`       // the Go toolchain, e.g. "go1.26.8"
}

// BuildTool describes the running fairhold build from its build
// information (runtime/debug): version, or the main module's version when
// version is empty; the VCS revision and whether the tree was modified
// (empty and false when built with -buildvcs=false); the Go version.
func BuildTool(version string) Tool {
	t := Tool{Name: "fairhold", Version: version}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		if t.Version == "" {
			t.Version = "unknown"
		}
		return t
	}
	if t.Version == "" {
		t.Version = bi.Main.Version
	}
	if t.Version == "" {
		t.Version = "unknown"
	}
	t.Go = bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			t.Revision = s.Value
		case "vcs.modified":
			t.Modified = s.Value == "true"
		}
	}
	return t
}

// NewStatement returns the statement of a certification, in version 2
// of the predicate: subjects are sorted by name, each requirement's
// evidence subjects and finding samples sorted, the verdict decided, the
// times kept in UTC (the signing time to the second), the certificate id
// derived when d gives none ([DeriveCertificateID]). The arguments are not
// modified. The error is a [*FormatError] naming the first invalid field.
func NewStatement(subjects []Subject, reqs []Requirement, tool Tool, signedAt time.Time, d Details) (*Statement, error) {
	st := &Statement{
		Type:          StatementType,
		Subject:       make([]Subject, len(subjects)),
		PredicateType: PredicateType,
		Predicate: Predicate{
			CertificateID: d.CertificateID,
			Lab:           d.Lab,
			Operator:      d.Operator,
			Jurisdiction:  d.Jurisdiction,
			Games:         slices.Clone(d.Games),
			Requirements:  make([]Requirement, len(reqs)),
			Limits:        slices.Clone(d.Limits),
			Tool:          tool,
			Time:          signedAt.UTC().Truncate(time.Second),
		},
	}
	if d.Suite != nil {
		s := *d.Suite
		s.Digest = maps.Clone(s.Digest)
		st.Predicate.Suite = &s
	}
	if d.Period != nil {
		st.Predicate.Period = &Period{First: d.Period.First.UTC(), Last: d.Period.Last.UTC()}
	}
	if n := d.NotInSuite; n != nil {
		st.Predicate.NotInSuite = &NotInSuite{Builtin: n.Builtin,
			Requirements: append([]OmittedRequirement{}, n.Requirements...), Claims: append([]OmittedClaim{}, n.Claims...)}
	}
	for i, s := range subjects {
		st.Subject[i] = Subject{Name: s.Name, Digest: make(map[string]string, len(s.Digest))}
		for k, v := range s.Digest {
			st.Subject[i].Digest[k] = v
		}
	}
	slices.SortFunc(st.Subject, func(a, b Subject) int { return strings.Compare(a.Name, b.Name) })
	for i, r := range reqs {
		r.Evidence.Subjects = slices.Clone(r.Evidence.Subjects)
		slices.Sort(r.Evidence.Subjects)
		if len(r.Evidence.Result) > 0 {
			var b bytes.Buffer
			if err := json.Compact(&b, r.Evidence.Result); err != nil {
				return nil, malformed(fmt.Sprintf("predicate.requirements[%d].evidence.result", i), "not JSON: %v", err)
			}
			r.Evidence.Result = b.Bytes()
		}
		if r.Evidence.FindingSamples != nil {
			samples := make([]FindingSample, len(r.Evidence.FindingSamples))
			for j, f := range r.Evidence.FindingSamples {
				f.RoundIDs = append([]string{}, f.RoundIDs...)
				samples[j] = f
			}
			slices.SortStableFunc(samples, func(a, b FindingSample) int { return strings.Compare(a.Code, b.Code) })
			r.Evidence.FindingSamples = samples
		}
		st.Predicate.Requirements[i] = r
	}
	st.Predicate.Verdict = Decide(st.Predicate.Requirements)
	if st.Predicate.CertificateID == "" {
		id, err := DeriveCertificateID(st)
		if err != nil {
			return nil, err
		}
		st.Predicate.CertificateID = id
	}
	if err := st.Validate(); err != nil {
		return nil, err
	}
	return st, nil
}

// Validate checks the statement against the format: the type identifiers,
// at least one subject, subjects sorted by name without repeats, valid
// names and digests, requirement ids unique and well formed, statuses
// known, evidence subjects among the subjects, the verdict decided by the
// statuses, the time in UTC to the second. The error is a [*FormatError]
// naming the first invalid field.
func (st *Statement) Validate() error {
	if st.Type != StatementType {
		return malformed("_type", "%q, want %q", st.Type, StatementType)
	}
	if st.PredicateType != PredicateType && st.PredicateType != PredicateTypeV1 {
		return malformed("predicateType", "%q, want %q (or version 1, %q)", st.PredicateType, PredicateType, PredicateTypeV1)
	}
	if len(st.Subject) == 0 {
		return malformed("subject", "no subject; a statement certifies at least one artefact")
	}
	names := make(map[string]bool, len(st.Subject))
	for i, s := range st.Subject {
		f := fmt.Sprintf("subject[%d]", i)
		if err := checkName(s.Name); err != nil {
			return malformed(f+".name", "%v", err)
		}
		if i > 0 && s.Name <= st.Subject[i-1].Name {
			return malformed(f+".name", "%q is not after %q: subjects are sorted by name, without repeats", s.Name, st.Subject[i-1].Name)
		}
		names[s.Name] = true
		if len(s.Digest) != 1 || !isHex(s.Digest[DigestAlgorithm], 64) {
			return malformed(f+".digest", "want exactly {%q: 64 lower-case hex digits}", DigestAlgorithm)
		}
	}
	if err := st.Predicate.validate(names); err != nil {
		return err
	}
	if st.PredicateType == PredicateTypeV1 {
		return st.Predicate.validateV1()
	}
	return st.validateV2()
}

func (p *Predicate) validate(subjects map[string]bool) error {
	if p.Requirements == nil {
		return malformed("predicate.requirements", "null; want a list, [] when empty")
	}
	ids := make(map[string]bool, len(p.Requirements))
	for i, r := range p.Requirements {
		f := fmt.Sprintf("predicate.requirements[%d]", i)
		if !ValidID(r.ID) {
			return malformed(f+".id", "%q: want lower-case letters and digits in groups joined by '-' or '.'", r.ID)
		}
		if ids[r.ID] {
			return malformed(f+".id", "%q repeats an earlier requirement", r.ID)
		}
		ids[r.ID] = true
		if r.Text == "" || !utf8.ValidString(r.Text) {
			return malformed(f+".text", "want the requirement in words (UTF-8)")
		}
		switch r.Status {
		case Pass, Fail, NotTested:
		default:
			return malformed(f+".status", "%q, want %q, %q or %q", r.Status, Pass, Fail, NotTested)
		}
		if !utf8.ValidString(r.Evidence.Summary) {
			return malformed(f+".evidence.summary", "not UTF-8")
		}
		for j, s := range r.Evidence.Subjects {
			if !subjects[s] {
				return malformed(fmt.Sprintf("%s.evidence.subjects[%d]", f, j), "%q is not a subject of the statement", s)
			}
			if j > 0 && s <= r.Evidence.Subjects[j-1] {
				return malformed(fmt.Sprintf("%s.evidence.subjects[%d]", f, j), "%q: sorted, without repeats", s)
			}
		}
		if len(r.Evidence.Result) > 0 && !json.Valid(r.Evidence.Result) {
			return malformed(f+".evidence.result", "not JSON")
		}
	}
	if want := Decide(p.Requirements); p.Verdict != want {
		return malformed("predicate.verdict", "%q, but the requirements' statuses give %q", p.Verdict, want)
	}
	t := p.Tool
	if t.Name == "" || t.Version == "" || !utf8.ValidString(t.Name+t.Version+t.Revision+t.Go) {
		return malformed("predicate.tool", "want a name and a version (UTF-8)")
	}
	if p.Time.IsZero() || p.Time.Location() != time.UTC || p.Time.Nanosecond() != 0 || p.Time.Year() > 9999 {
		return malformed("predicate.time", "%s: want UTC to the second, such as 2026-01-02T15:04:05Z", p.Time.Format(time.RFC3339Nano))
	}
	return nil
}

// checkName checks a subject name: a valid io/fs path that is a file's.
func checkName(name string) error {
	switch {
	case !utf8.ValidString(name):
		return errors.New("not UTF-8")
	case name == "." || !fs.ValidPath(name) || strings.ContainsAny(name, `\`+"\x00"):
		return fmt.Errorf("%q: want a slash-separated relative path without '.', '..', '\\' or empty elements", name)
	}
	return nil
}

// ValidID reports whether s is a requirement id (Requirement.ID): groups of
// lower-case letters and digits joined by single '-' or '.', at most 128
// bytes.
func ValidID(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	prevSep := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			prevSep = false
		case c == '-' || c == '.':
			if prevSep {
				return false
			}
			prevSep = true
		default:
			return false
		}
	}
	return !prevSep
}

// isHex reports whether s is n lower-case hex digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// Marshal returns the statement's one encoding, the payload that is
// signed: compact JSON in the field order of the Go types, map keys sorted,
// no HTML escaping, no trailing newline. It validates the statement first.
func (st *Statement) Marshal() ([]byte, error) {
	if err := st.Validate(); err != nil {
		return nil, err
	}
	return marshalJSON(st, "")
}

// ParseStatement parses a statement: exactly the bytes [Statement.Marshal]
// returns for it, which must be valid. Errors are [*FormatError]s.
func ParseStatement(data []byte) (*Statement, error) {
	var st Statement
	if err := decodeJSON(data, &st); err != nil {
		return nil, err
	}
	if err := st.Validate(); err != nil {
		return nil, err
	}
	canon, err := marshalJSON(&st, "")
	if err != nil {
		return nil, malformed("", "%v", err)
	}
	if err := checkCanonical(data, canon); err != nil {
		return nil, err
	}
	return &st, nil
}

// marshalJSON encodes v without HTML escaping: compact and without a
// trailing newline when indent is "", else indented and ended by a newline.
func marshalJSON(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := b.Bytes()
	if indent == "" {
		out = bytes.TrimSuffix(out, []byte("\n"))
	}
	return out, nil
}

// decodeJSON decodes one JSON value into v, rejecting unknown fields. JSON
// errors become [*FormatError]s naming the field or the byte offset.
func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return malformed("", "empty: want a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &FormatError{Offset: int64(len(data)), Err: errors.New("truncated JSON")}
	case errors.As(err, &syn):
		return &FormatError{Offset: syn.Offset, Err: fmt.Errorf("malformed JSON: %v", syn)}
	case errors.As(err, &typ):
		return &FormatError{Field: typ.Field, Offset: typ.Offset, Err: fmt.Errorf("JSON %s, want %s", typ.Value, typ.Type)}
	}
	return malformed("", "%v", err)
}

// checkCanonical compares data with its canonical encoding.
func checkCanonical(data, canon []byte) error {
	if bytes.Equal(data, canon) {
		return nil
	}
	i := 0
	for i < len(data) && i < len(canon) && data[i] == canon[i] {
		i++
	}
	return &FormatError{Offset: int64(i), Err: fmt.Errorf("%w: the bytes differ from the form fairhold writes, so the file was edited or not written by fairhold", ErrNotCanonical)}
}
