package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/fairhold/fairhold/certify/report"
)

// TestMain lets the testscript suite run fairhold as a command: the test
// binary, copied under the name fairhold into the scripts' $PATH, runs the
// command line instead of the tests.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"fairhold": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar: one script per command, with
// its success, its usage errors, its malformed input and its verification
// failure, each with its exit code checked by
//
//	exits CODE fairhold ARGS...
//
// which runs the command like exec (stdout and stderr are then asserted
// with the stdout and stderr commands) and fails unless it exits CODE.
//
// Other commands for the scripts:
//
//	cmpexcept REGEXP FILE1 FILE2   compare two files byte for byte, less
//	                               the lines matching REGEXP (a summary's
//	                               "seconds")
//	decodelink FILE                decode the #r= fragment of the link in
//	                               stdout (base64url JSON), alone or in a
//	                               --json result, into FILE
//	freeport VAR                   set $VAR to a free TCP port of 127.0.0.1
//	httpget URL FILE               GET URL (retrying for 10 s while nothing
//	                               listens) and write its status line,
//	                               headers and body to FILE
//	replace FILE OLD NEW           replace the first OLD in FILE by NEW
//	                               (an edit of a report, to tamper with it)
//	runprinted CODE FILE           run, as exits does, the verify command
//	                               FILE prints: summary.md's sh block, or
//	                               report.html's <pre id="verify-command">,
//	                               split into words as a POSIX shell does
//	                               (single quotes), from the current
//	                               directory
//
// Runs that take minutes (a whole demo, the 7-card census) are behind the
// condition [long], true when FAIRHOLD_LONG_SCRIPTS=1. The condition
// [chromium] is true when a Chromium binary is found (report.FindChromium:
// $FAIRHOLD_CHROMIUM, which the scripts inherit, or one on $PATH); with
// FAIRHOLD_BROWSER_TEST=require (CI's .ci/report-browser) a missing one
// fails the script instead of skipping its browser part.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: false,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":      cmdExits,
			"cmpexcept":  cmdCmpExcept,
			"decodelink": cmdDecodeLink,
			"freeport":   cmdFreePort,
			"httpget":    cmdHTTPGet,
			"runprinted": cmdRunPrinted,
			"replace":    cmdReplace,
		},
		Setup: func(env *testscript.Env) error {
			if p := os.Getenv("FAIRHOLD_CHROMIUM"); p != "" {
				env.Setenv("FAIRHOLD_CHROMIUM", p)
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "long":
				return os.Getenv("FAIRHOLD_LONG_SCRIPTS") == "1", nil
			case "chromium":
				_, err := report.FindChromium("")
				if err != nil && os.Getenv("FAIRHOLD_BROWSER_TEST") == "require" {
					return false, fmt.Errorf("FAIRHOLD_BROWSER_TEST=require: %w", err)
				}
				return err == nil, nil
			}
			return false, errors.New("unknown condition " + cond)
		},
	})
}

// cmdExits runs a command and checks its exit code.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exits")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits CODE COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// cmdCmpExcept compares two files less the lines matching a regexp.
func cmdCmpExcept(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: cmpexcept REGEXP FILE1 FILE2")
	}
	re, err := regexp.Compile(args[0])
	ts.Check(err)
	drop := func(name string) (string, int) {
		var b strings.Builder
		n := 0
		for _, line := range strings.SplitAfter(ts.ReadFile(name), "\n") {
			if re.MatchString(strings.TrimSuffix(line, "\n")) {
				n++
				continue
			}
			b.WriteString(line)
		}
		return b.String(), n
	}
	a, na := drop(args[1])
	b, nb := drop(args[2])
	if na != nb {
		ts.Fatalf("%s has %d lines matching %s, %s has %d", args[1], na, args[0], args[2], nb)
	}
	if (a == b) == neg {
		if neg {
			ts.Fatalf("%s and %s do not differ but for %s", args[1], args[2], args[0])
		}
		ts.Logf("%s:\n%s\n%s:\n%s", args[1], a, args[2], b)
		ts.Fatalf("%s and %s differ (lines matching %s apart)", args[1], args[2], args[0])
	}
}

// cmdDecodeLink decodes the fragment of the verifier-page link in stdout.
func cmdDecodeLink(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: decodelink FILE")
	}
	out := ts.ReadFile("stdout")
	_, frag, ok := strings.Cut(out, "#r=")
	if !ok {
		ts.Fatalf("decodelink: no #r= in stdout")
	}
	if end := strings.IndexFunc(frag, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_')
	}); end >= 0 {
		frag = frag[:end]
	}
	b, err := base64.RawURLEncoding.DecodeString(frag)
	if err != nil {
		ts.Fatalf("decodelink: %v", err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), append(b, '\n'), 0o666))
}

// cmdFreePort sets a variable to a TCP port of 127.0.0.1 free a moment
// ago (a fixed port would collide with another run of the suite).
func cmdFreePort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ts.Check(ln.Close())
	ts.Setenv(args[0], strconv.Itoa(port))
}

// cmdHTTPGet fetches a URL, waiting for a server started in the background.
func cmdHTTPGet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: httpget URL FILE")
	}
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{DisableCompression: true, DisableKeepAlives: true},
	}
	deadline := time.Now().Add(10 * time.Second)
	var resp *http.Response
	for {
		var err error
		resp, err = client.Get(args[0])
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			ts.Fatalf("httpget: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s\n", resp.Proto, resp.Status)
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range resp.Header[k] {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	b.WriteString("\n")
	_, err := b.ReadFrom(resp.Body)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), b.Bytes(), 0o666))
}

// cmdRunPrinted runs the verify command a page prints, word for word.
func cmdRunPrinted(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: runprinted CODE FILE")
	}
	page := ts.ReadFile(args[1])
	var line string
	if strings.HasSuffix(args[1], ".html") {
		m := regexp.MustCompile(`<pre id="verify-command">([^<]*)</pre>`).FindStringSubmatch(page)
		if m == nil {
			ts.Fatalf("runprinted: %s prints no verify command", args[1])
		}
		line = html.UnescapeString(m[1])
	} else {
		_, after, ok := strings.Cut(page, "```sh\n")
		if !ok {
			ts.Fatalf("runprinted: %s has no sh block", args[1])
		}
		line, _, _ = strings.Cut(after, "\n")
	}
	words, err := shellWords(line)
	if err != nil {
		ts.Fatalf("runprinted: %q: %v", line, err)
	}
	if len(words) < 3 || words[0] != "fairhold" || words[1] != "report" || words[2] != "verify" {
		ts.Fatalf("runprinted: %q is not a fairhold report verify command", line)
	}
	ts.Logf("runprinted: %s", line)
	cmdExits(ts, false, append([]string{args[0]}, words...))
}

// shellWords splits a command line as a POSIX shell does, for the
// quoting the pages use: words separated by spaces, single-quoted parts
// and backslash escapes outside quotes.
func shellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			w.WriteByte(c)
		case c == '\'':
			quoted, in = true, true
		case c == '\\' && i+1 < len(line):
			i++
			w.WriteByte(line[i])
			in = true
		case c == ' ':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		case strings.IndexByte("\"$`;&|<>()*?", c) >= 0:
			return nil, fmt.Errorf("%q at byte %d: not a plain command", c, i)
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if quoted {
		return nil, errors.New("unterminated quote")
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

// cmdReplace replaces the first occurrence of a text in a file.
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	data := ts.ReadFile(args[0])
	if !strings.Contains(data, args[1]) {
		ts.Fatalf("replace: %s holds no %q", args[0], args[1])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Replace(data, args[1], args[2], 1)), 0o666))
}
