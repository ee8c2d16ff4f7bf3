package report

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The browser test opens report.html in headless Chromium, as a reader
// would from a disk, with the network cut off, and checks what a reader
// sees: the verdict, every chart drawn with a size, nothing loaded but the
// page, nothing refused by the page's Content-Security-Policy, no
// horizontal scrolling on a phone. It saves a screenshot.
//
// Without a Chromium binary, or with -short, the test is skipped, unless
// FAIRHOLD_BROWSER_TEST=require (as .ci/report-browser sets it): then a
// missing browser fails it. FAIRHOLD_CHROMIUM names the binary (default: chromium,
// chromium-browser, google-chrome on PATH). FAIRHOLD_SCREENSHOT_DIR names a
// directory to save screenshots in: report-full.png (the whole page) and
// report-screenshot.png (its top, down to the first figure: the one of
// docs/).

// chromiumPath returns the browser to drive, or "".
func chromiumPath() string {
	p, err := FindChromium("")
	if err != nil {
		return ""
	}
	return p
}

// needChromium returns the browser, or skips the test without one (fails
// it when FAIRHOLD_BROWSER_TEST=require, as in CI).
func needChromium(t *testing.T) string {
	t.Helper()
	required := os.Getenv("FAIRHOLD_BROWSER_TEST") == "require"
	if testing.Short() && !required {
		t.Skip("no browser in -short mode")
	}
	exe := chromiumPath()
	if exe == "" {
		if required {
			t.Fatal("no Chromium found (FAIRHOLD_BROWSER_TEST=require): install Debian's chromium, or set FAIRHOLD_CHROMIUM")
		}
		t.Skip("no Chromium found: install Debian's chromium (or set FAIRHOLD_CHROMIUM) to open report.html in a browser and print its PDF")
	}
	return exe
}

// browserOptions are the pages' options in the browser tests: as fairhold
// certify draws them, the signers' key files named.
func browserOptions(t *testing.T, env *dsse.Envelope) PageOptions {
	return PageOptions{Verified: keyIDs(env), Subjects: "..",
		KeyFiles: map[string]string{labKey(t).KeyID(): "lab.pub", regulatorKey(t).KeyID(): "regulator.pub"}}
}

// chartBox is what the page reports of one drawn chart.
type chartBox struct {
	ID     string  `json:"id"`
	Label  string  `json:"label"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Shapes int     `json:"shapes"`
}

func TestHTMLInChromium(t *testing.T) {
	exe := needChromium(t)
	st := sampleStatement(t)
	env, err := Sign(st, labKey(t), regulatorKey(t))
	require.NoError(t, err)
	html, err := RenderHTMLWith(st, env, browserOptions(t, env))
	require.NoError(t, err)
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	require.NoError(t, os.WriteFile(file, html, 0o644))
	pageURL := (&url.URL{Scheme: "file", Path: file}).String()
	wantCharts := 0
	for _, r := range st.Predicate.Requirements {
		wantCharts += len(r.Evidence.Charts)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		chromedp.WindowSize(1100, 900),
		// No network: every host resolves to nothing and every proxied
		// request goes to a closed port, besides what the page's CSP says.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND"),
		chromedp.ProxyServer("127.0.0.1:9"),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("hide-scrollbars", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()

	var mu sync.Mutex
	var requests, problems []string
	blocked := map[network.RequestID]network.BlockedReason{}
	urls := map[network.RequestID]string{}
	require.NoError(t, chromedp.Listen(bctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, ev.Request.URL)
			urls[ev.RequestID] = ev.Request.URL
		case *network.EventLoadingFailed:
			blocked[ev.RequestID] = ev.BlockedReason
		case *log.EventEntryAdded:
			problems = append(problems, string(ev.Entry.Level)+" "+string(ev.Entry.Source)+": "+ev.Entry.Text)
		}
	}))
	require.NoError(t, chromedp.Do(bctx, chromedp.Navigate(pageURL), chromedp.WaitReady(chromedp.CSS("#verdict-word"))))

	verdict, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#verdict-word').innerText`))
	require.NoError(t, err)
	assert.Equal(t, "Refused", verdict)
	why, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#verdict .why').innerText`))
	require.NoError(t, err)
	assert.Contains(t, why, "replay.resettle")

	// What the certificate names, as a reader sees it: the header's
	// facts, what the suite left out, the limits, the round ids of the
	// findings and the verify command.
	p := st.Predicate
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector(`+strconv.Quote(sel)+`).innerText`))
		require.NoError(t, err, sel)
		return s
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
		require.NoError(t, err, sel)
		return n
	}
	assert.Equal(t, p.CertificateID, text("#f-certificate"))
	assert.Contains(t, text(".masthead .when"), p.CertificateID)
	assert.Contains(t, text("#f-suite"), p.Suite.Name+", version "+p.Suite.Version)
	assert.Contains(t, text("#f-suite"), p.Suite.SHA256())
	assert.Equal(t, p.Lab, text("#f-lab"))
	assert.Equal(t, p.Operator, text("#f-operator"))
	assert.Equal(t, p.Jurisdiction, text("#f-jurisdiction"))
	assert.Contains(t, text("#f-games"), "casino-holdem: profile casino-holdem version 1")
	assert.Contains(t, text("#f-games"), p.Games[0].ProfileHash)
	assert.Contains(t, text("#f-period"), "2026-02-01T00:00:00Z to 2026-02-28T23:59:59.5Z")
	for _, s := range env.Signatures {
		assert.Contains(t, text("#f-signers"), s.KeyID)
	}
	assert.Equal(t, len(p.NotInSuite.Requirements)+len(p.NotInSuite.Claims), count("#not-in-suite li"))
	assert.Contains(t, text("#not-in-suite"), "not in this suite: stats.raw-nist")
	assert.Equal(t, len(p.Limits), count("#limits li"))
	assert.Equal(t, 3, count("table.samples tbody tr"), "a row per finding code")
	assert.Contains(t, text("table.samples"), "rng-1-000017, rng-1-000452, rng-2-000031, rng-2-001207")
	methods := 0
	for _, r := range p.Requirements {
		if r.Method != "" {
			methods++
		}
	}
	assert.Equal(t, methods, count("section.requirement p.method"), "the method of each requirement that states one")
	assert.Equal(t, methods, count(".overview .method"))
	assert.Equal(t, "fairhold report verify report.json --key regulator.pub --key lab.pub --subjects ..", text("#verify-command"))

	// The verdict is the first thing the page shows: nothing but the
	// masthead above it.
	verdictTop, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`document.querySelector('#verdict').getBoundingClientRect().top`))
	require.NoError(t, err)
	assert.Less(t, verdictTop, 200.0, "the verdict is at the top of the page")

	// The style sheet passed the CSP (it is what draws the verdict's band).
	border, err := chromedp.Run(bctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector('#verdict')).borderLeftWidth`))
	require.NoError(t, err)
	assert.Equal(t, "10px", border, "the page's style sheet applies")

	const chartsJS = `Array.from(document.querySelectorAll('svg.chart')).map(s => {
		const r = s.getBoundingClientRect();
		return {id: s.closest('figure').id, label: s.getAttribute('aria-label') || '', width: r.width, height: r.height,
			shapes: s.querySelectorAll('rect, path, polyline, line, circle').length};
	})`
	charts, err := chromedp.Run(bctx, chromedp.Evaluate[[]chartBox](chartsJS))
	require.NoError(t, err)
	require.Len(t, charts, wantCharts, "one drawn chart per chart of the statement")
	for _, c := range charts {
		assert.Greater(t, c.Width, 100.0, "chart %s has a width", c.ID)
		assert.Greater(t, c.Height, 50.0, "chart %s has a height", c.ID)
		assert.Greater(t, c.Shapes, 3, "chart %s draws something", c.ID)
		assert.NotEmpty(t, c.Label, "chart %s has an accessible name", c.ID)
	}
	tables, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll('figure details table').length`))
	require.NoError(t, err)
	assert.Equal(t, wantCharts, tables, "every chart has its data table")

	full, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	require.Greater(t, len(full), 1000)
	// The top of the page, down to its first figure, for the docs.
	bottom, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`document.querySelector('figure').getBoundingClientRect().bottom + window.scrollY + 16`))
	require.NoError(t, err)
	top, err := chromedp.Call(bctx, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Clip:                  &page.Viewport{Width: 1100, Height: bottom, Scale: 1},
		CaptureBeyondViewport: new(true),
	})
	require.NoError(t, err)
	if dir := os.Getenv("FAIRHOLD_SCREENSHOT_DIR"); dir != "" {
		for name, png := range map[string][]byte{"report-full.png": full, "report-screenshot.png": top.Data} {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
			t.Logf("screenshot: %s (%d bytes)", filepath.Join(dir, name), len(png))
		}
	}

	// On a phone's width the page does not scroll sideways, and the
	// charts still have a size.
	require.NoError(t, chromedp.Do(bctx, chromedp.EmulateViewport(390, 844)))
	overflow, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth - document.documentElement.clientWidth`))
	require.NoError(t, err)
	assert.LessOrEqual(t, overflow, 0.0, "no horizontal scrolling at 390 px")
	charts, err = chromedp.Run(bctx, chromedp.Evaluate[[]chartBox](chartsJS))
	require.NoError(t, err)
	for _, c := range charts {
		assert.Greater(t, c.Width, 100.0, "chart %s has a width on a phone", c.ID)
		assert.Greater(t, c.Height, 30.0, "chart %s has a height on a phone", c.ID)
	}

	mu.Lock()
	require.NotEmpty(t, requests, "the browser reported the page's request")
	for _, u := range requests {
		assert.Equal(t, pageURL, u, "the page loads nothing but itself")
	}
	for _, p := range problems {
		if strings.Contains(p, "Content Security Policy") || strings.HasPrefix(p, "error") {
			t.Errorf("browser log: %s", p)
		}
	}
	requests, problems = nil, nil
	clear(urls)
	mu.Unlock()

	// The policy holds: a script and a remote image slipped into the page
	// neither run nor load, and the browser says why.
	tampered := strings.Replace(string(html), "<main>",
		`<main><script>document.title = "script ran"</script><img src="https://example.com/pixel.png" alt="">`, 1)
	file2 := filepath.Join(dir, "tampered.html")
	require.NoError(t, os.WriteFile(file2, []byte(tampered), 0o644))
	require.NoError(t, chromedp.Do(bctx, chromedp.Navigate((&url.URL{Scheme: "file", Path: file2}).String()),
		chromedp.WaitReady(chromedp.CSS("#verdict-word"))))
	title, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.title`))
	require.NoError(t, err)
	assert.NotEqual(t, "script ran", title, "the CSP forbids scripts")
	mu.Lock()
	defer mu.Unlock()
	remote := 0
	for id, u := range urls {
		if strings.Contains(u, "example.com") {
			remote++
			assert.Equal(t, network.BlockedReasonCsp, blocked[id], "the CSP blocks the remote image")
		}
	}
	assert.Equal(t, 1, remote, "the browser reported the remote image")
	assert.Contains(t, strings.Join(problems, "\n"), "Content Security Policy", "the browser reports the refused script and image")
}

// TestPDFInChromium prints the sample report to PDF as `fairhold report
// pdf` does and reads it back: a PDF, whose document title and page text
// name the certificate, the suite, the lab, the operator, the
// jurisdiction and the period, with the requirements and the verify
// command; the same page gives the same bytes.
func TestPDFInChromium(t *testing.T) {
	exe := needChromium(t)
	st := sampleStatement(t)
	env, err := Sign(st, labKey(t), regulatorKey(t))
	require.NoError(t, err)
	html, err := RenderHTMLWith(st, env, browserOptions(t, env))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	pdf, err := PrintPDF(ctx, exe, html, st.Predicate.Time)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(pdf, []byte("%PDF-")), "a PDF")
	if dir := os.Getenv("FAIRHOLD_SCREENSHOT_DIR"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "report.pdf"), pdf, 0o644))
	}

	// The document information: the page's title, the signing time.
	p := st.Predicate
	assert.Contains(t, string(pdf), "/Title (Refused: certificate "+p.CertificateID+" for "+p.Operator+" by "+p.Lab+", fairhold certification report")
	assert.Contains(t, string(pdf), "/CreationDate (D:20260301120000+00'00')")
	assert.Contains(t, string(pdf), "/ModDate (D:20260301120000+00'00')")

	// The text of the pages.
	pages, err := pdfPagesText(pdf)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(pages), 1+len(p.Requirements), "the header, then a page per requirement")
	all := squash(strings.Join(pages, "\n"))
	first := squash(pages[0])
	for _, want := range []string{"Refused", "Certificate" + p.CertificateID, "Suite" + p.Suite.Name + ",version" + p.Suite.Version,
		"Lab" + p.Lab, "Operator" + p.Operator, "Jurisdiction" + p.Jurisdiction, "casino-holdem:profilecasino-holdemversion1",
		"2026-02-01T00:00:00Zto2026-02-28T23:59:59.5Z"} {
		assert.True(t, strings.Contains(first, squash(want)), "the first page names %q", want)
	}
	for _, r := range p.Requirements {
		assert.True(t, strings.Contains(all, squash(r.Text)), "the PDF names the requirement %q", r.Text)
	}
	for _, want := range []string{"Notinthissuite", "notinthissuite:stats.raw-nist", "Limitsoftheevidence", squash(p.Limits[0]),
		"rng-1-000017,rng-1-000452,rng-2-000031,rng-2-001207", "fairholdreportverifyreport.json--keyregulator.pub--keylab.pub--subjects.."} {
		assert.True(t, strings.Contains(all, want), "the PDF holds %q", want)
	}

	// Deterministic: the same page prints to the same bytes.
	again, err := PrintPDF(ctx, exe, html, st.Predicate.Time)
	require.NoError(t, err)
	if !bytes.Equal(pdf, again) {
		// Say where they differ, and keep both for a look.
		i := 0
		for i < len(pdf) && i < len(again) && pdf[i] == again[i] {
			i++
		}
		if dir := os.Getenv("FAIRHOLD_SCREENSHOT_DIR"); dir != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "report-again.pdf"), again, 0o644))
		}
		t.Errorf("the same page gave two PDFs (%d and %d bytes), first difference at byte %d: %q against %q",
			len(pdf), len(again), i, around(pdf, i), around(again, i))
	}
}

// around returns up to 48 bytes of b from 16 before i.
func around(b []byte, i int) []byte {
	from, to := max(i-16, 0), min(i+32, len(b))
	if from > to {
		return nil
	}
	return b[from:to]
}
