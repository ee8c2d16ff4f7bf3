package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The members of version 2 of the predicate (docs/report-format.md
// section 5): what a certificate says of itself besides its requirements.

// Details are what [NewStatement] writes into a statement besides its
// subjects, requirements, tool and time. Every member may be left empty
// but the certificate id, which is then derived ([DeriveCertificateID]).
type Details struct {
	// CertificateID is the lab's id of the certificate: 1 to 128 ASCII
	// letters, digits and '.', '_', ':', '/', '-', starting with a letter
	// or a digit, and not starting with "fh-" (the derived ids' prefix).
	// "" derives one.
	CertificateID string
	Suite         *SuiteRef
	Lab           string
	Operator      string
	Jurisdiction  string
	Games         []GameProfile
	Period        *Period
	NotInSuite    *NotInSuite
	Limits        []string
}

// SuiteRef names the suite a certification ran (docs/suite-format.md).
type SuiteRef struct {
	// Name and Version are the suite's "name" and "version" ("" when the
	// suite states none).
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	// Digest holds exactly one entry, "sha256": the SHA-256 of the suite
	// file's bytes, or of the built-in suite's definition
	// (certify/suite/builtin/NAME.json, as `fairhold certify --suite NAME`
	// runs it).
	Digest map[string]string `json:"digest"`
	// Builtin is true for a suite built into fairhold.
	Builtin bool `json:"builtin,omitempty"`
	// Subject is the suite file's subject name, when the file is one of the
	// statement's subjects (a suite file always is).
	Subject string `json:"subject,omitempty"`
}

// SHA256 returns the suite's SHA-256 in hex.
func (s *SuiteRef) SHA256() string { return s.Digest[DigestAlgorithm] }

// GameProfile is a game certified and the rules profile it was certified
// under (docs/rules-profiles.md).
type GameProfile struct {
	Game           string `json:"game"`
	Profile        string `json:"profile"`         // the profile's name
	ProfileVersion int    `json:"profile_version"` // the profile's version
	// ProfileHash is the SHA-256 of the profile's canonical form, as
	// `fairhold profile show` prints it and round logs name it
	// (profile_hash).
	ProfileHash string `json:"profile_hash"`
	// ProfileSubject is the profile file's subject name, when the profile
	// is a file rather than a built-in one.
	ProfileSubject string `json:"profile_subject,omitempty"`
}

// Period is the time the certified round logs cover: the earliest and the
// latest round time of the rounds replayed, in UTC. Like every time of a
// log, it is the operator's word.
type Period struct {
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
}

// NotInSuite is what the built-in suite of the certified game has that a
// custom suite leaves out: its requirements whose check the suite does not
// run, and the published RTP claims (of the suite's profile) that the
// built-in suite decides and the suite does not. Parameters are not
// compared: a requirement with the built-in's check but other parameters
// (fewer decks, another alpha) counts as kept; the suite file, named by
// its digest, says which.
type NotInSuite struct {
	// Builtin is the built-in suite compared with.
	Builtin string `json:"builtin"`
	// Requirements and Claims are what it leaves out ([] when nothing).
	Requirements []OmittedRequirement `json:"requirements"`
	Claims       []OmittedClaim       `json:"claims"`
}

// OmittedRequirement is a requirement of the built-in suite that the suite
// run leaves out: its id, text and check there.
type OmittedRequirement struct {
	ID    string `json:"id"`
	Text  string `json:"text"`
	Check string `json:"check"`
}

// OmittedClaim is a published RTP claim of the profile that the built-in
// suite decides and the suite run does not.
type OmittedClaim struct {
	Name     string `json:"name"`     // the profile's rtp_claims[].name
	Strategy string `json:"strategy"` // the strategy it is published under
	// Requirement is the built-in suite's requirement that decides it.
	Requirement string `json:"requirement"`
}

// FindingSample is one finding code of a check's findings: how many there
// are and the ids of the first rounds they concern, in the canonical order
// of the findings (docs/findings.md: the log's order), each id once, at
// most [MaxSampleRoundIDs]. Findings about no round (a file that could not
// be read) count but name none.
type FindingSample struct {
	Code     string   `json:"code"`
	Count    int64    `json:"count"`
	RoundIDs []string `json:"round_ids"`
}

// MaxSampleRoundIDs is the number of round ids a [FindingSample] names at
// most.
const MaxSampleRoundIDs = 10

// CertificateIDPrefix starts every derived certificate id.
const CertificateIDPrefix = "fh-"

// DeriveCertificateID returns the certificate id derived from a version 2
// statement: "fh-" and the first 24 hex digits (96 bits) of the SHA-256 of
// the statement's encoding without its certificate_id member. The same
// statement gives the same id; any change of it, its signing time
// included, another.
func DeriveCertificateID(st *Statement) (string, error) {
	c := *st
	c.Predicate.CertificateID = ""
	body, err := marshalJSON(&c, "")
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(body)
	return CertificateIDPrefix + hex.EncodeToString(sum[:])[:24], nil
}

// ValidCertificateID reports whether id may be given as a certificate id
// ([Details.CertificateID]): the derived ids' prefix "fh-" is not allowed.
func ValidCertificateID(id string) bool {
	return validIDText(id) && !strings.HasPrefix(id, CertificateIDPrefix)
}

func validIDText(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case i > 0 && strings.IndexByte("._:/-", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// MaxNameLength is the length in bytes of a lab's, operator's or
// jurisdiction's name at most.
const MaxNameLength = 200

// CheckPartyName checks the name of a lab, operator or jurisdiction: UTF-8,
// not empty, at most [MaxNameLength] bytes, no control character, no
// white space at either end. The error says what is wrong.
func CheckPartyName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty")
	case !utf8.ValidString(s):
		return fmt.Errorf("not UTF-8")
	case len(s) > MaxNameLength:
		return fmt.Errorf("%d bytes, at most %d", len(s), MaxNameLength)
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("%q: white space at an end", s)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return fmt.Errorf("%q: a control character", s)
	}
	return nil
}

// checkText checks a text member (a limit, a suite's version): UTF-8, not
// empty, no control character.
func checkText(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty")
	case !utf8.ValidString(s):
		return fmt.Errorf("not UTF-8")
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return fmt.Errorf("%q: a control character", s)
	}
	return nil
}

// validateV1 checks that a version 1 predicate has none of version 2's
// members.
func (p *Predicate) validateV1() error {
	const why = "not a member of version 1 of the predicate (%s)"
	switch {
	case p.CertificateID != "":
		return malformed("predicate.certificate_id", why, PredicateTypeV1)
	case p.Suite != nil:
		return malformed("predicate.suite", why, PredicateTypeV1)
	case p.Lab != "":
		return malformed("predicate.lab", why, PredicateTypeV1)
	case p.Operator != "":
		return malformed("predicate.operator", why, PredicateTypeV1)
	case p.Jurisdiction != "":
		return malformed("predicate.jurisdiction", why, PredicateTypeV1)
	case p.Games != nil:
		return malformed("predicate.games", why, PredicateTypeV1)
	case p.Period != nil:
		return malformed("predicate.period", why, PredicateTypeV1)
	case p.NotInSuite != nil:
		return malformed("predicate.not_in_suite", why, PredicateTypeV1)
	case p.Limits != nil:
		return malformed("predicate.limits", why, PredicateTypeV1)
	}
	for i, r := range p.Requirements {
		f := fmt.Sprintf("predicate.requirements[%d]", i)
		if r.Method != "" {
			return malformed(f+".method", why, PredicateTypeV1)
		}
		if r.Evidence.FindingSamples != nil {
			return malformed(f+".evidence.finding_samples", why, PredicateTypeV1)
		}
	}
	return nil
}

// validateV2 checks the members of version 2 of the predicate.
func (st *Statement) validateV2() error {
	p := &st.Predicate
	switch id := p.CertificateID; {
	case id == "":
		return malformed("predicate.certificate_id", "missing: version 2 names its certificate")
	case !validIDText(id):
		return malformed("predicate.certificate_id", "%q: want 1 to 128 ASCII letters, digits and '.', '_', ':', '/', '-', starting with a letter or digit", id)
	case strings.HasPrefix(id, CertificateIDPrefix):
		want, err := DeriveCertificateID(st)
		if err != nil {
			return malformed("predicate.certificate_id", "%v", err)
		}
		if id != want {
			return malformed("predicate.certificate_id", "%q is not the id derived from the statement (%s): an id starting with %q is derived, never given", id, want, CertificateIDPrefix)
		}
	}
	subjects := make(map[string]string, len(st.Subject))
	for _, s := range st.Subject {
		subjects[s.Name] = s.SHA256()
	}
	if s := p.Suite; s != nil {
		switch {
		case checkText(s.Name) != nil:
			return malformed("predicate.suite.name", "want the suite's name (UTF-8, no control character)")
		case s.Version != "" && checkText(s.Version) != nil:
			return malformed("predicate.suite.version", "want the suite's version (UTF-8, no control character)")
		case len(s.Digest) != 1 || !isHex(s.Digest[DigestAlgorithm], 64):
			return malformed("predicate.suite.digest", "want exactly {%q: 64 lower-case hex digits}", DigestAlgorithm)
		case s.Builtin && s.Subject != "":
			return malformed("predicate.suite.subject", "a built-in suite is no file, so no subject")
		case s.Subject != "" && subjects[s.Subject] == "":
			return malformed("predicate.suite.subject", "%q is not a subject of the statement", s.Subject)
		case s.Subject != "" && subjects[s.Subject] != s.SHA256():
			return malformed("predicate.suite.digest", "%s, but subject %q has %s", s.SHA256(), s.Subject, subjects[s.Subject])
		}
	}
	for _, f := range []struct{ name, value string }{{"lab", p.Lab}, {"operator", p.Operator}, {"jurisdiction", p.Jurisdiction}} {
		if f.value == "" {
			continue
		}
		if err := CheckPartyName(f.value); err != nil {
			return malformed("predicate."+f.name, "%v", err)
		}
	}
	if p.Games != nil && len(p.Games) == 0 {
		return malformed("predicate.games", "empty; leave it out when no game is named")
	}
	for i, g := range p.Games {
		f := fmt.Sprintf("predicate.games[%d]", i)
		switch {
		case checkText(g.Game) != nil:
			return malformed(f+".game", "want the game's name")
		case checkText(g.Profile) != nil:
			return malformed(f+".profile", "want the profile's name")
		case g.ProfileVersion < 1:
			return malformed(f+".profile_version", "%d: want the profile's version, 1 or more", g.ProfileVersion)
		case !isHex(g.ProfileHash, 64):
			return malformed(f+".profile_hash", "want 64 lower-case hex digits")
		case g.ProfileSubject != "" && subjects[g.ProfileSubject] == "":
			return malformed(f+".profile_subject", "%q is not a subject of the statement", g.ProfileSubject)
		}
	}
	if pd := p.Period; pd != nil {
		for _, t := range []struct {
			name string
			t    time.Time
		}{{"first", pd.First}, {"last", pd.Last}} {
			if t.t.IsZero() || t.t.Location() != time.UTC || t.t.Year() > 9999 || t.t.Nanosecond()%1000 != 0 {
				return malformed("predicate.period."+t.name, "%s: want a time in UTC to the microsecond", t.t.Format(time.RFC3339Nano))
			}
		}
		if pd.Last.Before(pd.First) {
			return malformed("predicate.period", "last %s is before first %s", pd.Last.Format(time.RFC3339Nano), pd.First.Format(time.RFC3339Nano))
		}
	}
	for i, r := range p.Requirements {
		f := fmt.Sprintf("predicate.requirements[%d]", i)
		if r.Method != "" && checkText(r.Method) != nil {
			return malformed(f+".method", "want the method in words (UTF-8, no control character)")
		}
		if err := checkSamples(f+".evidence.finding_samples", r.Evidence.FindingSamples); err != nil {
			return err
		}
	}
	if n := p.NotInSuite; n != nil {
		switch {
		case checkText(n.Builtin) != nil:
			return malformed("predicate.not_in_suite.builtin", "want the built-in suite's name")
		case n.Requirements == nil:
			return malformed("predicate.not_in_suite.requirements", "null; want a list, [] when empty")
		case n.Claims == nil:
			return malformed("predicate.not_in_suite.claims", "null; want a list, [] when empty")
		case p.Suite != nil && p.Suite.Builtin:
			return malformed("predicate.not_in_suite", "the suite is built in: nothing of it is left out")
		}
		for i, r := range n.Requirements {
			f := fmt.Sprintf("predicate.not_in_suite.requirements[%d]", i)
			if !ValidID(r.ID) || checkText(r.Text) != nil || checkText(r.Check) != nil {
				return malformed(f, "want the requirement's id, text and check")
			}
		}
		for i, c := range n.Claims {
			f := fmt.Sprintf("predicate.not_in_suite.claims[%d]", i)
			if checkText(c.Name) != nil || checkText(c.Strategy) != nil || !ValidID(c.Requirement) {
				return malformed(f, "want the claim's name, strategy and the requirement that decides it")
			}
		}
	}
	if p.Limits != nil && len(p.Limits) == 0 {
		return malformed("predicate.limits", "empty; leave it out when none is stated")
	}
	for i, l := range p.Limits {
		if err := checkText(l); err != nil {
			return malformed(fmt.Sprintf("predicate.limits[%d]", i), "%v", err)
		}
	}
	return nil
}

// checkSamples checks a requirement's finding samples: sorted by code
// without repeats, each code upper-case letters, digits and '_', a count
// of at least 1 and at least its round ids, at most MaxSampleRoundIDs
// distinct non-empty ids.
func checkSamples(field string, samples []FindingSample) error {
	if samples != nil && len(samples) == 0 {
		return malformed(field, "empty; leave it out when there is no finding")
	}
	for i, s := range samples {
		f := fmt.Sprintf("%s[%d]", field, i)
		if s.Code == "" || strings.TrimFunc(s.Code, func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' }) != "" {
			return malformed(f+".code", "%q: want a finding code (upper-case letters, digits, '_')", s.Code)
		}
		if i > 0 && s.Code <= samples[i-1].Code {
			return malformed(f+".code", "%q: sorted by code, without repeats", s.Code)
		}
		switch {
		case s.RoundIDs == nil:
			return malformed(f+".round_ids", "null; want a list, [] when the findings name no round")
		case len(s.RoundIDs) > MaxSampleRoundIDs:
			return malformed(f+".round_ids", "%d ids, at most %d", len(s.RoundIDs), MaxSampleRoundIDs)
		case s.Count < int64(max(1, len(s.RoundIDs))):
			return malformed(f+".count", "%d: want at least 1 and at least the round ids named", s.Count)
		}
		for j, id := range s.RoundIDs {
			if id == "" || !utf8.ValidString(id) || slices.Contains(s.RoundIDs[:j], id) {
				return malformed(fmt.Sprintf("%s.round_ids[%d]", f, j), "want a round id (UTF-8), each once")
			}
		}
	}
	return nil
}
