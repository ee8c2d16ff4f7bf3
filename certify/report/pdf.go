package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"time"
)

// The PDF of a report, for filing: report.html printed by headless
// Chromium (its print style sheet: one requirement a page, charts whole,
// folded tables left out). Chromium draws the page exactly as a reader's
// browser does, charts included; no pure-Go library renders HTML and SVG,
// and drawing the report a second time with a PDF library would make a
// second layout to keep in step with the page.

// ErrNoChromium is returned by [FindChromium] when no Chromium binary is
// found.
var ErrNoChromium = errors.New("no Chromium found: install Chromium (Debian: apt-get install chromium) or name its binary with --chromium or FAIRHOLD_CHROMIUM")

// FindChromium returns the Chromium (or Chrome) binary to print with:
// path when not empty, else $FAIRHOLD_CHROMIUM, else the first of
// chromium, chromium-browser, google-chrome and google-chrome-stable on
// $PATH; [ErrNoChromium] when there is none.
func FindChromium(path string) (string, error) {
	if path == "" {
		path = os.Getenv("FAIRHOLD_CHROMIUM")
	}
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("%w (%s: %v)", ErrNoChromium, path, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// pdfDate matches the dates of the PDF's document information that
// Chromium (Skia) writes: D:YYYYMMDDHHmmSS and a time zone of the same
// length, +HH'mm'.
var pdfDate = regexp.MustCompile(`/(CreationDate|ModDate) \(D:\d{14}[+-]\d\d'\d\d'\)`)

// PrintPDF prints page, a report.html, to PDF with the Chromium binary
// chromium (see [FindChromium]), headless, with the network cut off
// (every host name resolves to nothing, every request goes to a closed
// proxy port) and a fresh profile in a temporary directory. The page's
// own policy already forbids every load and script. The PDF's creation
// and modification dates are set to at (the report's signing time), in
// place, so that the same page, Chromium build and fonts give the same
// bytes. ctx bounds the run (Chromium takes about a second).
func PrintPDF(ctx context.Context, chromium string, page []byte, at time.Time) ([]byte, error) {
	dir, err := os.MkdirTemp("", "fairhold-pdf-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	html := filepath.Join(dir, "report.html")
	if err := os.WriteFile(html, page, 0o600); err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "report.pdf")
	args := []string{
		"--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--disable-sync", "--disable-background-networking",
		"--disable-component-update", "--disable-default-apps", "--mute-audio",
		"--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9", "--disable-quic",
		"--user-data-dir=" + filepath.Join(dir, "profile"),
		"--no-pdf-header-footer", "--print-to-pdf=" + out,
	}
	if os.Geteuid() == 0 {
		// Chromium's sandbox does not run as root; the page runs no script
		// (its Content-Security-Policy) and loads nothing.
		args = append(args, "--no-sandbox")
	}
	args = append(args, (&url.URL{Scheme: "file", Path: filepath.ToSlash(html)}).String())
	cmd := exec.CommandContext(ctx, chromium, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s failed to print the report: %w%s", chromium, err, lastLines(stderr.Bytes(), 5))
	}
	pdf, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("%s wrote no PDF: %w%s", chromium, err, lastLines(stderr.Bytes(), 5))
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		return nil, fmt.Errorf("%s wrote %d bytes that are not a PDF", chromium, len(pdf))
	}
	stamp := []byte("D:" + at.UTC().Format("20060102150405") + "+00'00'")
	pdf = pdfDate.ReplaceAllFunc(pdf, func(m []byte) []byte {
		i := bytes.Index(m, []byte("(")) + 1
		return append(append(append([]byte{}, m[:i]...), stamp...), ')')
	})
	return pdf, nil
}

// lastLines returns the last n lines of b, indented, after a colon, or ""
// for none.
func lastLines(b []byte, n int) string {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	if len(lines) == 0 || len(lines[0]) == 0 {
		return ""
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return ":\n  " + string(bytes.Join(lines, []byte("\n  ")))
}
