package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// The JUnit XML of report.xml: the common subset that CI systems read
// (Jenkins, GitLab, GitHub actions' test reporters): one <testsuites>
// holding one <testsuite>, one <testcase> per requirement.
type junitSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Skipped  int        `xml:"skipped,attr"`
	Time     string     `xml:"time,attr"`
	Suite    junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure"`
	Skipped   *junitMessage `xml:"skipped"`
	SystemOut *junitText    `xml:"system-out"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

// RenderJUnit returns report.xml: the requirements as JUnit XML, for a
// lab's CI. The report is one <testsuite> (in a <testsuites>), each
// requirement one <testcase> whose classname is the requirement's id and
// whose name is its text: a failed requirement has a <failure> and one
// not tested a <skipped>, both with the evidence summary as message; the
// method and the finding samples are in the case's text. The suite's
// properties hold the verdict, what the certificate names (its id, suite,
// lab, operator, jurisdiction, games and profiles, period, what the suite
// left out, the limits of the evidence), the signing time, the fairhold
// build and every subject's digest; its timestamp is the signing time.
// Durations are not recorded (time="0"). It names no signer: see
// [RenderJUnitWith]. The same statement gives the same bytes; st must be
// valid ([*FormatError] otherwise).
func RenderJUnit(st *Statement) ([]byte, error) {
	return RenderJUnitWith(st, nil, PageOptions{})
}

// RenderJUnitWith is [RenderJUnit] that also names, as properties
// "signer", the signers of env whose key ids o.Verified holds (env as for
// [RenderHTML]; nil for none).
func RenderJUnitWith(st *Statement, env *dsse.Envelope, o PageOptions) ([]byte, error) {
	f, err := facts(st, env, o)
	if err != nil {
		return nil, err
	}
	p := st.Predicate
	suite := junitSuite{
		Name:      "fairhold certification",
		Tests:     f.Total,
		Failures:  f.Fail,
		Skipped:   f.NotTested,
		Time:      "0",
		Timestamp: p.Time.Format("2006-01-02T15:04:05"),
		Properties: []junitProperty{
			{"verdict", string(p.Verdict)},
		},
	}
	prop := func(name, value string) {
		if value != "" {
			suite.Properties = append(suite.Properties, junitProperty{name, value})
		}
	}
	prop("predicate.version", strconv.Itoa(f.Version))
	prop("certificate_id", p.CertificateID)
	if s := p.Suite; s != nil {
		prop("suite.name", s.Name)
		prop("suite.version", s.Version)
		prop("suite.sha256", s.SHA256())
		if s.Builtin {
			prop("suite.builtin", "true")
		}
		prop("suite.subject", s.Subject)
	}
	prop("lab", p.Lab)
	prop("operator", p.Operator)
	prop("jurisdiction", p.Jurisdiction)
	for _, g := range p.Games {
		prop("game."+g.Game, fmt.Sprintf("profile %s version %d sha256:%s", g.Profile, g.ProfileVersion, g.ProfileHash))
	}
	if f.PeriodFirst != "" {
		prop("period.first", f.PeriodFirst)
		prop("period.last", f.PeriodLast)
	}
	if n := p.NotInSuite; n != nil {
		prop("not_in_suite.builtin", n.Builtin)
		for _, r := range n.Requirements {
			prop("not_in_suite.requirement."+r.ID, r.Text)
		}
		for _, c := range n.Claims {
			prop("not_in_suite.claim."+c.Name, fmt.Sprintf("%s strategy, decided by %s in the built-in suite", c.Strategy, c.Requirement))
		}
	}
	for i, l := range p.Limits {
		prop(fmt.Sprintf("limit.%d", i+1), l)
	}
	prop("time", f.Time)
	for _, s := range f.Signatures {
		prop("signer", s.Algorithm+" "+s.KeyID)
	}
	prop("tool", f.Tool)
	prop("tool.revision", f.Revision)
	for _, s := range st.Subject {
		suite.Properties = append(suite.Properties, junitProperty{"subject." + s.Name, DigestAlgorithm + ":" + s.SHA256()})
	}
	for _, r := range p.Requirements {
		c := junitCase{Name: r.Text, ClassName: r.ID, Time: "0"}
		msg, out := r.Evidence.Summary, xmlText(caseOutput(r))
		switch r.Status {
		case Fail:
			if msg == "" {
				msg = "the requirement does not hold"
			}
			c.Failure = &junitMessage{Message: msg, Type: string(Fail), Text: out}
		case NotTested:
			if msg == "" {
				msg = "not tested"
			}
			c.Skipped = &junitMessage{Message: msg}
			c.SystemOut = &junitText{out}
		default:
			c.SystemOut = &junitText{out}
		}
		suite.Cases = append(suite.Cases, c)
	}
	doc := junitSuites{Name: suite.Name, Tests: suite.Tests, Failures: suite.Failures, Skipped: suite.Skipped, Time: "0", Suite: suite}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("failed to render report.xml: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// xmlText replaces the characters XML 1.0 does not allow (most control
// characters) by U+FFFD, for text written as CDATA, which encoding/xml
// writes as it is.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r >= 0xd800 && r <= 0xdfff, r == 0xfffe, r == 0xffff:
			return '\ufffd'
		}
		return r
	}, s)
}

// caseOutput is a requirement's evidence as plain text.
func caseOutput(r Requirement) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\nstatus: %s\n", r.ID, r.Text, r.Status)
	if r.Method != "" {
		fmt.Fprintf(&b, "method: %s\n", r.Method)
	}
	if r.Evidence.Summary != "" {
		fmt.Fprintf(&b, "evidence: %s\n", r.Evidence.Summary)
	}
	for _, s := range r.Evidence.FindingSamples {
		fmt.Fprintf(&b, "findings %s: %d; first rounds in log order: %s\n", s.Code, s.Count, strings.Join(s.RoundIDs, ", "))
	}
	if len(r.Evidence.Subjects) > 0 {
		fmt.Fprintf(&b, "artefacts read: %s\n", strings.Join(r.Evidence.Subjects, ", "))
	}
	if len(r.Evidence.Result) > 0 {
		fmt.Fprintf(&b, "result: %s\n", r.Evidence.Result)
	}
	return b.String()
}
