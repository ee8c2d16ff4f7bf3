package report

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

//go:embed page.tmpl
var pageTemplate string

//go:embed page.css
var pageCSS string

var pageTmpl = template.Must(template.New("page").Parse(pageTemplate))

// pageCSP is the page's Content-Security-Policy: nothing may load or run
// but the page's own style sheet, named by its SHA-256. No script, image,
// font, frame or form; no connection.
var pageCSP = func() string {
	sum := sha256.Sum256([]byte(pageCSS))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
		"'; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'"
}()

// htmlPage is what page.tmpl writes.
type htmlPage struct {
	CSP          string
	CSS          template.CSS
	F            *pageFacts
	Requirements []requirementView
	Subjects     []subjectView
}

type requirementView struct {
	Anchor   string
	ID       string
	Text     string
	Method   string
	Status   statusWords
	Summary  string
	Subjects []subjectView
	Samples  []sampleView
	Result   string // the result as indented JSON
	Charts   []*chartView
}

// sampleView is a finding code's sample of round ids, as the pages show
// it.
type sampleView struct {
	Code     string
	Count    string // grouped digits
	RoundIDs []string
	More     bool // the code has findings beyond the ids named
}

func samplesOf(r Requirement) []sampleView {
	var out []sampleView
	for _, s := range r.Evidence.FindingSamples {
		out = append(out, sampleView{Code: s.Code, Count: groupInt(s.Count), RoundIDs: s.RoundIDs, More: s.Count > int64(len(s.RoundIDs))})
	}
	return out
}

type subjectView struct {
	Anchor string
	Name   string
	SHA256 string
}

// RenderHTML returns report.html: one self-contained page for people that
// shows the verdict first (in words, a symbol and colour), then what the
// certificate names (its id, suite, lab, operator, jurisdiction, games and
// profiles, the period of the logs, the verified signers' key ids, the
// signing time and the fairhold build), each requirement with its status,
// method, evidence summary, figures, the round ids of its findings and the
// artefacts it read, what the suite left out of the built-in one, the
// limits of the evidence, then the artefacts with their SHA-256 and how to
// verify the report.
//
// The figures are inline SVG drawn from each requirement's
// [Evidence.Charts], each with a title, an accessible name and its data
// as a table. The page loads nothing and runs nothing: its
// Content-Security-Policy forbids scripts and every load but its own
// style sheet. It prints (one requirement a page) and reads on a phone.
// Every text of the report is HTML-escaped (html/template).
//
// env is the signed report.json the statement comes from; its payload
// must be st's encoding ([ErrPayloadMismatch] otherwise). The page names
// its signers and the SHA-256 of report.json, so that a reader can match
// the page with the file. With a nil env the page says it is not signed.
//
// The same statement and envelope give the same bytes. Errors: st or env
// malformed ([*FormatError], naming the field), or a chart that cannot be
// drawn ([*FormatError] naming the chart: a kind that does not match its
// data, a p-value outside [0, 1], a heatmap whose counts do not match its
// labels).
func RenderHTML(st *Statement, env *dsse.Envelope, verified ...string) ([]byte, error) {
	return RenderHTMLWith(st, env, PageOptions{Verified: verified})
}

// RenderHTMLWith is [RenderHTML] with the options of the page: the key
// ids verified, and what the verify command it prints names.
func RenderHTMLWith(st *Statement, env *dsse.Envelope, o PageOptions) ([]byte, error) {
	f, err := facts(st, env, o)
	if err != nil {
		return nil, err
	}
	p := &htmlPage{CSP: pageCSP, CSS: template.CSS(pageCSS), F: f}
	subjects := make(map[string]subjectView, len(st.Subject))
	for i, s := range st.Subject {
		v := subjectView{Anchor: "s" + strconv.Itoa(i+1), Name: s.Name, SHA256: s.SHA256()}
		subjects[s.Name] = v
		p.Subjects = append(p.Subjects, v)
	}
	for i, r := range st.Predicate.Requirements {
		field := fmt.Sprintf("predicate.requirements[%d].evidence", i)
		v := requirementView{Anchor: "r" + strconv.Itoa(i+1), ID: r.ID, Text: r.Text, Method: r.Method, Status: wordsOfStatus(r.Status),
			Summary: r.Evidence.Summary, Samples: samplesOf(r)}
		for _, name := range r.Evidence.Subjects {
			v.Subjects = append(v.Subjects, subjects[name])
		}
		if len(r.Evidence.Result) > 0 {
			var b bytes.Buffer
			if err := json.Indent(&b, r.Evidence.Result, "", "  "); err != nil {
				return nil, malformed(field+".result", "not JSON: %v", err)
			}
			v.Result = b.String()
		}
		for j := range r.Evidence.Charts {
			c, err := newChartView(fmt.Sprintf("%s-c%d", v.Anchor, j+1), &r.Evidence.Charts[j])
			if err != nil {
				return nil, within(fmt.Sprintf("%s.charts[%d]", field, j), err)
			}
			v.Charts = append(v.Charts, c)
		}
		p.Requirements = append(p.Requirements, v)
	}
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, p); err != nil {
		return nil, fmt.Errorf("failed to render report.html: %w", err)
	}
	return b.Bytes(), nil
}
