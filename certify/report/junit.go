package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
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
// not tested a <skipped>, both with the evidence summary as message. The
// suite's properties hold the verdict, the signing time and the fairhold
// build; its timestamp is the signing time. Durations are not recorded
// (time="0"). The same statement gives the same bytes; st must be valid
// ([*FormatError] otherwise).
func RenderJUnit(st *Statement) ([]byte, error) {
	f, err := facts(st, nil)
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
			{"time", f.Time},
			{"tool", f.Tool},
		},
	}
	if f.Revision != "" {
		suite.Properties = append(suite.Properties, junitProperty{"tool.revision", f.Revision})
	}
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
	if r.Evidence.Summary != "" {
		fmt.Fprintf(&b, "evidence: %s\n", r.Evidence.Summary)
	}
	if len(r.Evidence.Subjects) > 0 {
		fmt.Fprintf(&b, "artefacts read: %s\n", strings.Join(r.Evidence.Subjects, ", "))
	}
	if len(r.Evidence.Result) > 0 {
		fmt.Fprintf(&b, "result: %s\n", r.Evidence.Result)
	}
	return b.String()
}
