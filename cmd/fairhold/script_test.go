package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
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
//
// Runs that take minutes (a whole demo, the 7-card census) are behind the
// condition [long], true when FAIRHOLD_LONG_SCRIPTS=1.
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
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "long":
				return os.Getenv("FAIRHOLD_LONG_SCRIPTS") == "1", nil
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
