package report

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renderAll returns the three pages of st and env.
func renderAll(t testing.TB, st *Statement, env *dsse.Envelope) (html, junit, md []byte) {
	t.Helper()
	html, err := RenderHTML(st, env, keyIDs(env)...)
	require.NoError(t, err)
	junit, err = RenderJUnit(st)
	require.NoError(t, err)
	md, err = RenderSummary(st, env, keyIDs(env)...)
	require.NoError(t, err)
	return html, junit, md
}

// TestRenderGolden keeps the pages of the sample statement (every kind of
// chart, a failed and an untested requirement, two signers) byte for
// byte. Regenerate with -update, then look at the page in a browser.
func TestRenderGolden(t *testing.T) {
	st := sampleStatement(t)
	env, err := Sign(st, labKey(t), regulatorKey(t))
	require.NoError(t, err)
	// As fairhold certify draws them: the signers' public key files named
	// in the verify command, the artefacts one directory up.
	o := PageOptions{Verified: keyIDs(env), Subjects: "..",
		KeyFiles: map[string]string{labKey(t).KeyID(): "lab.pub", regulatorKey(t).KeyID(): "regulator.pub"}}
	html, err := RenderHTMLWith(st, env, o)
	require.NoError(t, err)
	junit, err := RenderJUnitWith(st, env, o)
	require.NoError(t, err)
	md, err := RenderSummaryWith(st, env, o)
	require.NoError(t, err)
	dir := filepath.Join("testdata", "render")
	for name, got := range map[string][]byte{"report.html": html, "report.xml": junit, "summary.md": md} {
		path := filepath.Join(dir, name)
		if *update {
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(path, got, 0o644))
			continue
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run go test -run TestRenderGolden -update")
		assert.True(t, bytes.Equal(want, got), "%s differs from the golden file; if intended, run go test -run TestRenderGolden -update", name)
	}
}

func TestRenderHTMLContent(t *testing.T) {
	st := sampleStatement(t)
	env, err := Sign(st, labKey(t), regulatorKey(t))
	require.NoError(t, err)
	html, err := RenderHTML(st, env, keyIDs(env)...)
	require.NoError(t, err)
	page := string(html)

	// The verdict comes first, in words, before any requirement.
	verdict := strings.Index(page, `id="verdict-word">Refused<`)
	require.Positive(t, verdict)
	assert.Less(t, verdict, strings.Index(page, `id="requirements"`))
	assert.Contains(t, page, "1 of 5 requirements failed: replay.resettle.")

	// Self-contained: no script, no external reference, a strict policy
	// that names the style sheet by its digest.
	assert.NotContains(t, strings.ToLower(page), "<script")
	assert.NotRegexp(t, `(?i)(src|href)="(https?:)?//`, page)
	assert.NotContains(t, page, "@import")
	assert.Contains(t, page, `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-`)
	assert.Contains(t, page, `<meta name="viewport" content="width=device-width, initial-scale=1">`)
	assert.Contains(t, page, "@media print")
	assert.Equal(t, 1, strings.Count(page, "<style>"))

	// Every chart is an SVG with a name, a title and its data table.
	assert.Equal(t, 4, strings.Count(page, "<svg class=\"chart\""))
	assert.Equal(t, 4, strings.Count(page, "<summary>Data table:"))
	for _, title := range []string{"Cards by position", "p-values of the deck battery", "Observed RTP, EUR main game", "Findings by code"} {
		assert.Contains(t, page, `aria-label="`+title+`"`)
		assert.Contains(t, page, `<title>`+title+`</title>`)
	}

	// The facts: subjects with their digests, signers, time, build.
	for _, s := range st.Subject {
		assert.Contains(t, page, s.SHA256())
	}
	for _, s := range env.Signatures {
		assert.Contains(t, page, s.KeyID)
	}
	assert.Contains(t, page, "ML-DSA-65 key")
	assert.Contains(t, page, "Ed25519 key")
	assert.Contains(t, page, `<time datetime="2026-03-01T12:00:00Z">2026-03-01 12:00:00 UTC</time>`)
	assert.Contains(t, page, testTool.Revision)
	data, err := MarshalEnvelope(env)
	require.NoError(t, err)
	assert.Contains(t, page, SubjectOf("report.json", data).SHA256(), "the page names the SHA-256 of report.json")

	// Amounts: EUR in euros, BTC in minor units (its decimals may have
	// been declared otherwise).
	assert.Contains(t, page, "3,100.00")
	assert.Contains(t, page, "−124.50")
	assert.Contains(t, page, "BTC (minor units)")
	assert.Contains(t, page, "−250,000")
}

// hostile is text that would run, break out or inject if not escaped.
const hostile = `<script>alert("x")</script> & 'q' "dq" </style><img src=x onerror=alert(1)> ]]> <!-- | *b* [l](u) ` + "`c`\n# h\x01"

// hostileLine is hostile without its line break and control character,
// for the members that allow none.
var hostileLine = strings.NewReplacer("\n", " ", "\x01", "").Replace(hostile)

func hostileStatement(t testing.TB) *Statement {
	t.Helper()
	h := hostile
	reqs := []Requirement{
		{ID: "a.fail", Text: h, Status: Fail, Evidence: Evidence{Summary: h, Subjects: []string{`a<b>&"c'.txt`},
			Result: []byte(`{"note":"` + strings.ReplaceAll(strings.ReplaceAll(h, `"`, `\"`), "\n", `\n`)[:60] + `"}`),
			Charts: []Chart{
				{Kind: ChartHeatmap, Title: h, Heatmap: &Heatmap{Rows: []string{h, "b"}, Columns: []string{h}, Counts: [][]int64{{1}, {2}}, Expected: 1.5}},
				{Kind: ChartPValues, Title: h, PValues: []float64{0, 0.5, 1}},
				{Kind: ChartSeries, Title: h, Series: &Series{XLabel: h, YLabel: h, Target: 1, Points: []Point{{X: 1, Observed: 1, Low: 0, High: 2}}}},
				{Kind: ChartBars, Title: h, Bars: []Bar{{Label: h, Count: 3, Amount: map[string]int64{"EUR": 5}}}},
			}}},
		{ID: "b.not-tested", Text: h, Status: NotTested, Evidence: Evidence{Summary: h}},
	}
	reqs[0].Method = hostileLine
	reqs[0].Evidence.FindingSamples = []FindingSample{{Code: "PAYOUT_WRONG", Count: 2, RoundIDs: []string{h, "r|2"}}}
	tool := Tool{Name: "fairhold", Version: h, Revision: h, Go: h}
	d := Details{CertificateID: "T-1", Suite: &SuiteRef{Name: hostileLine, Version: hostileLine, Digest: SubjectOf("s", nil).Digest},
		Lab: hostileLine, Operator: hostileLine, Jurisdiction: hostileLine,
		Games:      []GameProfile{{Game: hostileLine, Profile: hostileLine, ProfileVersion: 1, ProfileHash: SubjectOf("p", nil).SHA256()}},
		NotInSuite: &NotInSuite{Builtin: hostileLine, Requirements: []OmittedRequirement{{ID: "x.y", Text: hostileLine, Check: hostileLine}}},
		Limits:     []string{hostileLine}}
	st, err := NewStatement([]Subject{SubjectOf(`a<b>&"c'.txt`, nil)}, reqs, tool, testTime, d)
	require.NoError(t, err)
	return st
}

func TestRenderEscapesHostileText(t *testing.T) {
	st := hostileStatement(t)
	env, err := Sign(st, labKey(t))
	require.NoError(t, err)
	html, junit, md := renderAll(t, st, env)

	page := strings.ToLower(string(html))
	for _, bad := range []string{"<script", "<img", "</style><", "<!--", "onerror=alert(1)>"} {
		assert.False(t, strings.Contains(page, bad), "the page holds %q unescaped", bad)
	}
	assert.Equal(t, 1, strings.Count(page, "</style>"), "only the page's own style sheet ends")
	assert.True(t, strings.Contains(string(html), "<h3 id=\"r1-h\">&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;q&#39;"), "the text, escaped")
	// Attributes too: the chart's accessible name.
	assert.True(t, strings.Contains(string(html), `aria-label="&lt;script&gt;alert(&#34;x&#34;)`), "the chart's name, escaped")

	// The XML parses, and gives back the texts (less the control
	// character XML cannot hold).
	var doc junitSuites
	require.NoError(t, xml.Unmarshal(junit, &doc))
	require.Len(t, doc.Suite.Cases, 2)
	want := strings.ReplaceAll(hostile, "\x01", "\ufffd")
	assert.Equal(t, want, doc.Suite.Cases[0].Name)
	require.NotNil(t, doc.Suite.Cases[0].Failure)
	assert.Equal(t, want, doc.Suite.Cases[0].Failure.Message)
	assert.Contains(t, doc.Suite.Cases[0].Failure.Text, "]]>", "CDATA that holds ]]> is split, not broken")
	require.NotNil(t, doc.Suite.Cases[1].Skipped)

	// Markdown: no HTML, no table cell broken, no line started.
	assert.False(t, strings.Contains(string(md), "<"), "no HTML in the summary:\n%s", md)
	for _, l := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| Status") {
			assert.Equal(t, 5, len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(l, -1)), "four cells: %s", l)
		}
		assert.False(t, strings.HasPrefix(l, "# h"), "no heading started by a text")
	}
	assert.Contains(t, string(md), `&lt;script&gt;alert("x")&lt;/script&gt; &amp;`)
}

func TestRenderDeterministic(t *testing.T) {
	st := sampleStatement(t)
	env, err := Sign(st, labKey(t), regulatorKey(t))
	require.NoError(t, err)
	h1, x1, m1 := renderAll(t, st, env)
	for range 5 {
		// A statement parsed again, and maps (the bars' amounts) walked
		// in another order, give the same bytes.
		again, err := UnverifiedStatement(env)
		require.NoError(t, err)
		h2, x2, m2 := renderAll(t, again, env)
		assert.Equal(t, h1, h2)
		assert.Equal(t, x1, x2)
		assert.Equal(t, m1, m2)
	}
}

func TestRenderJUnitParses(t *testing.T) {
	st := sampleStatement(t)
	data, err := RenderJUnit(st)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(data, []byte(xml.Header)))

	// A reader's own types: the JUnit fields CI systems read.
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []struct {
			Name      string `xml:"name,attr"`
			Tests     int    `xml:"tests,attr"`
			Failures  int    `xml:"failures,attr"`
			Skipped   int    `xml:"skipped,attr"`
			Timestamp string `xml:"timestamp,attr"`
			Props     []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Cases []struct {
				Name      string `xml:"name,attr"`
				ClassName string `xml:"classname,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
				Skipped *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	require.NoError(t, dec.Decode(&doc))
	require.Len(t, doc.Suites, 1, "one testsuite per report")
	s := doc.Suites[0]
	assert.Equal(t, 5, s.Tests)
	assert.Equal(t, 1, s.Failures)
	assert.Equal(t, 1, s.Skipped)
	assert.Equal(t, "2026-03-01T12:00:00", s.Timestamp)
	require.Len(t, s.Cases, 5)
	for i, r := range st.Predicate.Requirements {
		c := s.Cases[i]
		assert.Equal(t, r.ID, c.ClassName)
		assert.Equal(t, r.Text, c.Name)
		assert.Equal(t, r.Status == Fail, c.Failure != nil, r.ID)
		assert.Equal(t, r.Status == NotTested, c.Skipped != nil, r.ID)
	}
	assert.Equal(t, "1,000,000 rounds, 37 findings of 3 codes", s.Cases[3].Failure.Message)
	assert.Equal(t, "no decks file supplied", s.Cases[4].Skipped.Message)
	props := map[string]string{}
	for _, p := range s.Props {
		props[p.Name] = p.Value
	}
	assert.Equal(t, "fail", props["verdict"])
	assert.Equal(t, "sha256:"+st.Subject[1].SHA256(), props["subject.profile.json"])
}

func TestRenderSummary(t *testing.T) {
	st := sampleStatement(t)
	env, err := Sign(st, labKey(t), regulatorKey(t))
	require.NoError(t, err)
	md, err := RenderSummary(st, env, keyIDs(env)...)
	require.NoError(t, err)
	lines := strings.Split(string(md), "\n")
	assert.Equal(t, "# fairhold certification: Refused", lines[0])
	assert.Contains(t, string(md), "| ✗ Failed | `replay.resettle` every logged round re-settles |")
	assert.Contains(t, string(md), "| – Not tested | `stats.operator-decks`")
	assert.Contains(t, string(md), env.Signatures[0].KeyID)

	unsigned, err := RenderSummary(st, nil)
	require.NoError(t, err)
	assert.Contains(t, string(unsigned), "unsigned statement")
}

// TestRenderWithoutCharts: a statement with no chart, or no requirement
// at all, renders, with every verdict.
func TestRenderWithoutCharts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		reqs    []Requirement
		verdict string
	}{
		{"pass", []Requirement{{ID: "a", Text: "a holds", Status: Pass}}, "Certified"},
		{"incomplete", []Requirement{{ID: "a", Text: "a holds", Status: Pass}, {ID: "b", Text: "b holds", Status: NotTested}}, "Incomplete"},
		{"none", []Requirement{}, "Incomplete"},
		{"fail", []Requirement{{ID: "a", Text: "a holds", Status: Fail}}, "Refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := NewStatement([]Subject{SubjectOf("f", []byte("x"))}, tc.reqs, testTool, testTime, Details{})
			require.NoError(t, err)
			html, junit, md := renderAll(t, st, nil)
			assert.Contains(t, string(html), `id="verdict-word">`+tc.verdict+`<`)
			assert.NotContains(t, string(html), "<svg")
			assert.Contains(t, string(html), "<strong>Not signed</strong>")
			assert.Contains(t, string(html), ` · Dated 2026-03-01 12:00:00 UTC</p>`)
			assert.NotContains(t, string(md), "Signed")
			assert.Contains(t, string(md), tc.verdict)
			require.NoError(t, xml.Unmarshal(junit, new(junitSuites)))
		})
	}
	// The tests' statement, signed, has results but no chart.
	st := testStatement(t)
	env, err := Sign(st, labKey(t))
	require.NoError(t, err)
	html, _, _ := renderAll(t, st, env)
	assert.Contains(t, string(html), "&#34;rounds&#34;: 2,", "the result, indented")
	assert.Contains(t, string(html), "98.7% &lt;= claimed &amp; computed")
}

func TestRenderErrors(t *testing.T) {
	_, err := RenderHTML(nil, nil)
	require.Error(t, err)
	_, err = RenderJUnit(nil)
	require.Error(t, err)

	st := sampleStatement(t)
	other, err := Sign(testStatement(t), labKey(t))
	require.NoError(t, err)
	_, err = RenderHTML(st, other)
	assert.ErrorIs(t, err, ErrPayloadMismatch)
	_, err = RenderSummary(st, other)
	assert.ErrorIs(t, err, ErrPayloadMismatch)
	_, err = RenderHTML(st, &dsse.Envelope{})
	assert.ErrorIs(t, err, ErrMalformed)

	invalid := *st
	invalid.Predicate.Verdict = VerdictPass
	_, err = RenderHTML(&invalid, nil)
	assert.ErrorIs(t, err, ErrMalformed)
}

// TestRenderBadCharts: a chart that cannot be drawn is an error naming
// it, never a panic or a wrong figure.
func TestRenderBadCharts(t *testing.T) {
	hm := func(mod func(h *Heatmap)) Chart {
		h := &Heatmap{Rows: []string{"a", "b"}, Columns: []string{"x"}, Counts: [][]int64{{1}, {2}}, Expected: 1}
		mod(h)
		return Chart{Kind: ChartHeatmap, Heatmap: h}
	}
	series := func(ps ...Point) Chart { return Chart{Kind: ChartSeries, Series: &Series{Points: ps}} }
	for _, tc := range []struct {
		name  string
		chart Chart
		field string
	}{
		{"no data", Chart{Kind: ChartBars}, "charts[0]"},
		{"two data", Chart{Kind: ChartBars, Bars: []Bar{{Label: "a"}}, PValues: []float64{0.5}}, "charts[0]"},
		{"kind mismatch", Chart{Kind: ChartSeries, PValues: []float64{0.5}}, "charts[0].series"},
		{"unknown kind", Chart{Kind: "pie", PValues: []float64{0.5}}, "charts[0].kind"},
		{"p-value above 1", Chart{Kind: ChartPValues, PValues: []float64{0.5, 1.5}}, "charts[0].p_values[1]"},
		{"p-value NaN", Chart{Kind: ChartPValues, PValues: []float64{math.NaN()}}, "charts[0].p_values[0]"},
		{"heatmap ragged", hm(func(h *Heatmap) { h.Counts[1] = []int64{1, 2} }), "charts[0].heatmap.counts[1]"},
		{"heatmap rows", hm(func(h *Heatmap) { h.Counts = h.Counts[:1] }), "charts[0].heatmap.counts"},
		{"heatmap negative", hm(func(h *Heatmap) { h.Counts[0][0] = -1 }), "charts[0].heatmap.counts[0][0]"},
		{"heatmap expected", hm(func(h *Heatmap) { h.Expected = math.Inf(1) }), "charts[0].heatmap.expected"},
		{"heatmap empty", hm(func(h *Heatmap) { h.Columns = nil }), "charts[0].heatmap"},
		{"heatmap too large", hm(func(h *Heatmap) { h.Rows = make([]string, 300); h.Columns = make([]string, 300) }), "charts[0].heatmap"},
		{"series empty", series(), "charts[0].series.points"},
		{"series x repeats", series(Point{X: 2}, Point{X: 2}), "charts[0].series.points[1].x"},
		{"series band", series(Point{X: 1, Low: 2, High: 1}), "charts[0].series.points[0]"},
		{"series NaN", series(Point{X: 1, Observed: math.NaN()}), "charts[0].series.points[0]"},
		{"bar negative", Chart{Kind: ChartBars, Bars: []Bar{{Label: "a", Count: -1}}}, "charts[0].bars[0].count"},
		{"bar currency", Chart{Kind: ChartBars, Bars: []Bar{{Label: "a", Amount: map[string]int64{"<b>": 1}}}}, "charts[0].bars[0].amount"},
		{"bar amount", Chart{Kind: ChartBars, Bars: []Bar{{Label: "a", Amount: map[string]int64{"EUR": math.MinInt64}}}}, "charts[0].bars[0].amount.EUR"},
		{"title", Chart{Kind: ChartPValues, Title: "\xff", PValues: []float64{0.5}}, "charts[0].title"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &Statement{Type: StatementType, PredicateType: PredicateType, Subject: []Subject{SubjectOf("f", nil)},
				Predicate: Predicate{Verdict: VerdictPass, CertificateID: "T-1", Tool: testTool, Time: testTime,
					Requirements: []Requirement{{ID: "a", Text: "a", Status: Pass, Evidence: Evidence{Charts: []Chart{tc.chart}}}}}}
			_, err := RenderHTML(st, nil)
			require.ErrorIs(t, err, ErrMalformed)
			var fe *FormatError
			require.True(t, errors.As(err, &fe))
			assert.Equal(t, "predicate.requirements[0].evidence."+tc.field, fe.Field, "%v", err)
		})
	}
}

// TestRenderEdgeCharts: extreme but valid data draws without error.
func TestRenderEdgeCharts(t *testing.T) {
	charts := []Chart{
		{Kind: ChartHeatmap, Heatmap: &Heatmap{Rows: []string{""}, Columns: []string{""}, Counts: [][]int64{{0}}}},
		{Kind: ChartHeatmap, Heatmap: &Heatmap{Rows: []string{"a"}, Columns: []string{"b", "c"}, Counts: [][]int64{{math.MaxInt64, 0}}, Expected: 1e300}},
		{Kind: ChartPValues, PValues: []float64{1}},
		{Kind: ChartSeries, Series: &Series{Points: []Point{{X: -5, Observed: 3, Low: 3, High: 3}}}},
		{Kind: ChartSeries, Series: &Series{Target: -1e300, Points: []Point{{X: math.MinInt64, Observed: 1e300, Low: -1e300, High: 1e300}, {X: math.MaxInt64}}}},
		{Kind: ChartSeries, Series: &Series{Points: []Point{{X: 1}, {X: 1000}, {X: 1e6}}}},
		{Kind: ChartBars, Bars: []Bar{{Label: strings.Repeat("long ", 100), Count: math.MaxInt64, Amount: map[string]int64{"EUR": math.MaxInt64, "JPY": -1, "ETH": math.MinInt64 + 1}}, {Label: "", Count: 0}}},
		{Kind: ChartBars, Bars: []Bar{{Label: "zero", Amount: map[string]int64{"EUR": 0}}}},
	}
	for i, c := range charts {
		st := &Statement{Type: StatementType, PredicateType: PredicateType, Subject: []Subject{SubjectOf("f", nil)},
			Predicate: Predicate{Verdict: VerdictPass, CertificateID: "T-1", Tool: testTool, Time: testTime,
				Requirements: []Requirement{{ID: "a", Text: "a", Status: Pass, Evidence: Evidence{Charts: []Chart{c}}}}}}
		html, err := RenderHTML(st, nil)
		require.NoError(t, err, "chart %d", i)
		assert.NotContains(t, string(html), "NaN", "chart %d", i)
	}
}

// FuzzRenderChart: any chart renders or is refused with an error, and
// never panics. The fuzzer's bytes are the chart's numbers (8 bytes each,
// as int64 or float64 bits), so that most inputs reach the drawing.
func FuzzRenderChart(f *testing.F) {
	f.Add(uint8(0), "card", 1.5, []byte("0123456789abcdef0123456789abcdef"))
	f.Add(uint8(1), "", 0.0, []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0xe0, 0x3f})
	f.Add(uint8(2), "rounds", 0.97, bytes.Repeat([]byte{1, 0, 0, 0, 0, 0, 0xf0, 0x3f}, 12))
	f.Add(uint8(3), "EUR", 0.0, bytes.Repeat([]byte{0xff, 0, 0, 0, 0, 0, 0, 0x80}, 6))
	f.Fuzz(func(t *testing.T, kind uint8, label string, target float64, raw []byte) {
		var nums []uint64
		for len(raw) >= 8 && len(nums) < 256 {
			nums = append(nums, binary.LittleEndian.Uint64(raw))
			raw = raw[8:]
		}
		num := func(i int) uint64 {
			if len(nums) == 0 {
				return 0
			}
			return nums[i%len(nums)]
		}
		var c Chart
		switch kind % 4 {
		case 0:
			nr, nc := 1+int(num(0)%6), 1+int(num(1)%6)
			h := &Heatmap{Expected: target}
			for i := range nr {
				h.Rows = append(h.Rows, label+strconv.Itoa(i))
				row := make([]int64, nc)
				for j := range row {
					row[j] = int64(num(2 + i*nc + j))
				}
				h.Counts = append(h.Counts, row)
			}
			for j := range nc {
				h.Columns = append(h.Columns, label+strconv.Itoa(j))
			}
			c = Chart{Kind: ChartHeatmap, Heatmap: h}
		case 1:
			c = Chart{Kind: ChartPValues, Title: label}
			for _, n := range nums {
				c.PValues = append(c.PValues, math.Float64frombits(n))
			}
		case 2:
			s := &Series{XLabel: label, Target: target}
			for i := 0; i+3 < len(nums); i += 4 {
				s.Points = append(s.Points, Point{X: int64(nums[i]), Observed: math.Float64frombits(nums[i+1]),
					Low: math.Float64frombits(nums[i+2]), High: math.Float64frombits(nums[i+3])})
			}
			c = Chart{Kind: ChartSeries, Series: s}
		case 3:
			for i := 0; i+1 < len(nums); i += 2 {
				c.Bars = append(c.Bars, Bar{Label: label, Count: int64(nums[i]), Amount: map[string]int64{"EUR": int64(nums[i+1]), "XBT": -int64(nums[i+1] / 3)}})
			}
			c.Kind = ChartBars
		}
		st := &Statement{Type: StatementType, PredicateType: PredicateType, Subject: []Subject{SubjectOf("f", nil)},
			Predicate: Predicate{Verdict: VerdictPass, CertificateID: "T-1", Tool: testTool, Time: testTime,
				Requirements: []Requirement{{ID: "a", Text: "a", Status: Pass, Evidence: Evidence{Charts: []Chart{c}}}}}}
		html, err := RenderHTML(st, nil)
		if err != nil {
			require.ErrorIs(t, err, ErrMalformed)
			return
		}
		assert.True(t, bytes.Contains(html, []byte("<svg class=\"chart\"")))
	})
}

func BenchmarkRenderHTML(b *testing.B) {
	st := realisticStatement(b)
	env, err := Sign(st, labKey(b))
	require.NoError(b, err)
	b.ReportAllocs()
	var n int
	for b.Loop() {
		html, err := RenderHTML(st, env)
		if err != nil {
			b.Fatal(err)
		}
		n = len(html)
	}
	b.ReportMetric(float64(n), "bytes/page")
}

// BenchmarkReportWrite is the whole of a report's making after the checks:
// sign with an Ed25519 and an ML-DSA-65 key, render the three pages and
// write the four files. The budget is one second.
func BenchmarkReportWrite(b *testing.B) {
	st := realisticStatement(b)
	lab, reg := labKey(b), regulatorKey(b)
	dir := b.TempDir()
	for b.Loop() {
		env, err := Sign(st, lab, reg)
		if err != nil {
			b.Fatal(err)
		}
		data, err := MarshalEnvelope(env)
		if err != nil {
			b.Fatal(err)
		}
		html, err := RenderHTML(st, env)
		if err != nil {
			b.Fatal(err)
		}
		junit, err := RenderJUnit(st)
		if err != nil {
			b.Fatal(err)
		}
		md, err := RenderSummary(st, env)
		if err != nil {
			b.Fatal(err)
		}
		for name, content := range map[string][]byte{"report.json": data, "report.html": html, "report.xml": junit, "summary.md": md} {
			if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// keyIDs are the key ids of env's signatures: the pages of a report whose
// signatures were verified (as certify draws them).
func keyIDs(env *dsse.Envelope) []string {
	var out []string
	if env == nil {
		return nil
	}
	for _, s := range env.Signatures {
		out = append(out, s.KeyID)
	}
	return out
}

// TestRenderUnverifiedSigners: the pages name only the signers whose
// signatures were verified; the others are counted, never named (issue
// 24, hole 13).
func TestRenderUnverifiedSigners(t *testing.T) {
	st := sampleStatement(t)
	env, err := Sign(st, labKey(t), regulatorKey(t))
	require.NoError(t, err)
	for _, verified := range [][]string{nil, keyIDs(env)[:1]} {
		html, err := RenderHTML(st, env, verified...)
		require.NoError(t, err)
		md, err := RenderSummary(st, env, verified...)
		require.NoError(t, err)
		for _, s := range env.Signatures {
			named := slices.Contains(verified, s.KeyID)
			assert.Equal(t, named, strings.Contains(string(html), s.KeyID), "html names %s", s.KeyID)
			assert.Equal(t, named, strings.Contains(string(md), s.KeyID), "summary names %s", s.KeyID)
		}
		want := fmt.Sprintf("%d signature(s) not verified", len(env.Signatures)-len(verified))
		assert.Contains(t, string(html), want)
	}
}

// TestEnvelopeOneSignaturePerKey: a signature listed twice, or out of key
// id order, is not the one form of a report (issue 24, hole 13).
func TestEnvelopeOneSignaturePerKey(t *testing.T) {
	st := sampleStatement(t)
	env, err := Sign(st, labKey(t), regulatorKey(t))
	require.NoError(t, err)
	lab := labKey(t).Public()
	_, err = Verify(env, lab)
	require.NoError(t, err)
	twice := *env
	twice.Signatures = append(slices.Clone(env.Signatures), env.Signatures[len(env.Signatures)-1])
	_, err = Verify(&twice, lab)
	assert.ErrorIs(t, err, ErrMalformed)
	swapped := *env
	swapped.Signatures = []dsse.Signature{env.Signatures[1], env.Signatures[0]}
	_, err = Verify(&swapped, lab)
	assert.ErrorIs(t, err, ErrMalformed)
}
