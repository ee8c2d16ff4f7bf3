package report

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// The pages of a report (report.html, report.xml, summary.md) are drawn
// from its statement and, for the HTML page and the summary, from the
// envelope that signs it. They are for people and for CI: the signed
// report.json decides, and the pages say so. Each is a pure function of
// its inputs: the same statement and envelope give the same bytes.

// ErrPayloadMismatch is returned by [RenderHTML] and [RenderSummary] when
// the statement given is not the payload of the envelope given.
var ErrPayloadMismatch = errors.New("the statement is not the envelope's payload")

// UnverifiedStatement returns the statement of a report's envelope
// without verifying its signatures: for drawing the pages of a report
// whose keys are not at hand. A caller that has the keys calls [Verify],
// which returns the same statement once the signatures verify. The
// payload must be a valid statement in its one encoding
// ([ParseStatement]); errors are [*FormatError]s.
func UnverifiedStatement(env *dsse.Envelope) (*Statement, error) {
	body, _, err := decodeEnvelope(env)
	if err != nil {
		return nil, err
	}
	if env.PayloadType != PayloadType {
		return nil, malformed("payloadType", "%q, want %q", env.PayloadType, PayloadType)
	}
	st, err := ParseStatement(body)
	if err != nil {
		return nil, within("payload", err)
	}
	return st, nil
}

// pageFacts are what every page says about a report besides its
// requirements: the verdict in words, the counts of the statuses, the
// signing and the build.
type pageFacts struct {
	Verdict   verdictWords
	Pass      int
	Fail      int
	NotTested int
	Total     int
	Failed    []string // the ids of the failed requirements
	Untested  []string // the ids of the requirements not tested

	SignedAt string // "2026-03-01 12:00:00 UTC"
	Time     string // RFC 3339

	Tool     string // "fairhold 0.1.0"
	Revision string // the VCS revision, or ""
	Modified bool
	Go       string

	Signed     bool               // an envelope was given
	ReportSHA  string             // SHA-256 of report.json, when Signed
	Signatures []signatureSummary // the envelope's signatures verified, in its order (sorted by key id)
	// Unverified counts the envelope's signatures not verified when the
	// page was drawn (no key given for them): the page names no signer
	// for them, since anyone can write a key id.
	Unverified int

	// What the certificate says of itself (version 2 of the predicate;
	// empty for version 1).
	Version       int // the predicate's version, 1 or 2
	CertificateID string
	Suite         *SuiteRef
	Lab           string
	Operator      string
	Jurisdiction  string
	Games         []GameProfile
	PeriodFirst   string // RFC 3339, or "" without a period
	PeriodLast    string
	NotInSuite    *NotInSuite
	Limits        []string

	// VerifyCommand is the command line that verifies the report, run
	// from the directory that holds report.json ([PageOptions]).
	VerifyCommand string
	// VerifyPlaceholder: the command names a key file KEY.pub that
	// stands for the signers' public keys.
	VerifyPlaceholder bool
}

// PageOptions are what the pages say beyond report.json: which
// signatures were verified when they were drawn, and what the verify
// command they print names.
type PageOptions struct {
	// Verified are the key ids whose signatures were verified: only
	// these signers are named.
	Verified []string
	// KeyFiles gives, by key id, the name of a verified signer's public key
	// file as the printed verify command names it ("lab.pub"). A verified
	// signer without one, or no verified signer, is KEY.pub there.
	KeyFiles map[string]string
	// Subjects is the directory of the report's subjects relative to the
	// directory that holds report.json, slash-separated, as the printed
	// command's --subjects gives it; "" leaves --subjects out (the
	// subjects are beside report.json).
	Subjects string
}

// verifyPlaceholderKey stands for the signers' public keys in the verify
// command when their files are not known.
const verifyPlaceholderKey = "KEY.pub"

// verifyCommand returns the command line that verifies the report, from
// the directory that holds report.json, and whether it names the
// placeholder key file.
func (f *pageFacts) verifyCommand(o PageOptions) (string, bool) {
	args := []string{"fairhold", "report", "verify", "report.json"}
	placeholder := len(f.Signatures) == 0
	for _, s := range f.Signatures {
		if name := o.KeyFiles[s.KeyID]; name != "" {
			args = append(args, "--key", shellQuote(name))
		} else {
			placeholder = true
		}
	}
	if placeholder {
		args = append(args, "--key", verifyPlaceholderKey)
	}
	if o.Subjects != "" {
		args = append(args, "--subjects", shellQuote(o.Subjects))
	}
	return strings.Join(args, " "), placeholder
}

// VerifyCommand returns the command line the pages of st and env print
// to verify the report, from the directory that holds report.json, and
// whether it names the placeholder KEY.pub for a signer's public key
// ([PageOptions]).
func VerifyCommand(st *Statement, env *dsse.Envelope, o PageOptions) (string, bool, error) {
	f, err := facts(st, env, o)
	if err != nil {
		return "", false, err
	}
	return f.VerifyCommand, f.VerifyPlaceholder, nil
}

// ShellQuote quotes s for a POSIX shell when it needs it: in single
// quotes, each single quote in s closing the quotes, escaped with a
// backslash, and opening them again.
func ShellQuote(s string) string { return shellQuote(s) }

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/-+=:,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// signatureSummary is one signature of the envelope as a page shows it.
type signatureSummary struct {
	KeyID     string
	Algorithm string // from the signature's size: "Ed25519", "ML-DSA-65" or "unknown"
	Bytes     int
}

// verdictWords is a verdict as people read it.
type verdictWords struct {
	Class    string // CSS class: "pass", "fail", "incomplete"
	Word     string // "Certified", "Refused", "Incomplete"
	Symbol   string // a glyph that says it without colour
	Sentence string // one sentence on why
}

// statusWords is a requirement's status as people read it.
type statusWords struct {
	Class  string // CSS class: "pass", "fail", "not-tested"
	Word   string // "Passed", "Failed", "Not tested"
	Symbol string
}

func wordsOfStatus(s Status) statusWords {
	switch s {
	case Pass:
		return statusWords{"pass", "Passed", "✓"}
	case Fail:
		return statusWords{"fail", "Failed", "✗"}
	}
	return statusWords{"not-tested", "Not tested", "–"}
}

// facts checks st (and env, when given) and returns what the pages say
// about them. st must be valid; env, when not nil, must be a well-formed
// envelope whose payload is st's encoding.
func facts(st *Statement, env *dsse.Envelope, o PageOptions) (*pageFacts, error) {
	if st == nil {
		return nil, errors.New("no statement to render")
	}
	if err := st.Validate(); err != nil {
		return nil, err
	}
	p := st.Predicate
	f := &pageFacts{
		Total:    len(p.Requirements),
		SignedAt: p.Time.Format("2006-01-02 15:04:05") + " UTC",
		Time:     p.Time.Format(time.RFC3339),
		Tool:     p.Tool.Name + " " + p.Tool.Version,
		Revision: p.Tool.Revision,
		Modified: p.Tool.Modified,
		Go:       p.Tool.Go,

		Version:       2,
		CertificateID: p.CertificateID,
		Suite:         p.Suite,
		Lab:           p.Lab,
		Operator:      p.Operator,
		Jurisdiction:  p.Jurisdiction,
		Games:         p.Games,
		NotInSuite:    p.NotInSuite,
		Limits:        p.Limits,
	}
	if st.PredicateType == PredicateTypeV1 {
		f.Version = 1
	}
	if p.Period != nil {
		f.PeriodFirst, f.PeriodLast = p.Period.First.Format(time.RFC3339Nano), p.Period.Last.Format(time.RFC3339Nano)
	}
	for _, r := range p.Requirements {
		switch r.Status {
		case Pass:
			f.Pass++
		case Fail:
			f.Fail++
			f.Failed = append(f.Failed, r.ID)
		default:
			f.NotTested++
			f.Untested = append(f.Untested, r.ID)
		}
	}
	f.Verdict = f.verdictWords(p.Verdict)
	if env != nil {
		if err := f.signing(st, env, o.Verified); err != nil {
			return nil, err
		}
	}
	f.VerifyCommand, f.VerifyPlaceholder = f.verifyCommand(o)
	return f, nil
}

func (f *pageFacts) verdictWords(v Verdict) verdictWords {
	switch v {
	case VerdictPass:
		s := "The one requirement passed."
		if f.Total > 1 {
			s = fmt.Sprintf("All %d requirements passed.", f.Total)
		}
		return verdictWords{"pass", "Certified", "✓", s}
	case VerdictFail:
		return verdictWords{"fail", "Refused", "✗",
			fmt.Sprintf("%d of %d %s failed: %s.", f.Fail, f.Total, plural(f.Total, "requirement", "requirements"), strings.Join(f.Failed, ", "))}
	}
	if f.Total == 0 {
		return verdictWords{"incomplete", "Incomplete", "?", "The report has no requirement."}
	}
	return verdictWords{"incomplete", "Incomplete", "?",
		fmt.Sprintf("No requirement failed, but %d of %d %s not tested: %s.", f.NotTested, f.Total,
			plural(f.NotTested, "was", "were"), strings.Join(f.Untested, ", "))}
}

// signing fills the facts of the envelope: its signatures and the SHA-256
// of report.json, the envelope's one encoding.
func (f *pageFacts) signing(st *Statement, env *dsse.Envelope, verified []string) error {
	body, sigs, err := decodeEnvelope(env)
	if err != nil {
		return err
	}
	want, err := st.Marshal()
	if err != nil {
		return err
	}
	if env.PayloadType != PayloadType || !bytes.Equal(body, want) {
		return ErrPayloadMismatch
	}
	data, err := MarshalEnvelope(env)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	f.Signed, f.ReportSHA = true, hex.EncodeToString(sum[:])
	f.Signatures = make([]signatureSummary, 0, len(sigs))
	for i, s := range sigs {
		if !slices.Contains(verified, env.Signatures[i].KeyID) {
			f.Unverified++
			continue
		}
		alg := "unknown"
		switch len(s) {
		case ed25519.SignatureSize:
			alg = "Ed25519"
		case mldsa65.SignatureSize:
			alg = "ML-DSA-65"
		}
		f.Signatures = append(f.Signatures, signatureSummary{KeyID: env.Signatures[i].KeyID, Algorithm: alg, Bytes: len(s)})
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// groupInt writes n with a comma between groups of three digits.
func groupInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteString("−")
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// fixed writes v with the given decimals, a true minus sign and no
// negative zero: the one text of a display value.
func fixed(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	if strings.HasPrefix(s, "-") {
		return "−" + s[1:]
	}
	return s
}

// coord writes a coordinate of a chart: one decimal, plain ASCII.
func coord(v float64) string {
	v = math.Round(v*10) / 10
	if v == 0 {
		v = 0 // no "-0.0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// short returns s cut to n runes, with an ellipsis when cut.
func short(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
