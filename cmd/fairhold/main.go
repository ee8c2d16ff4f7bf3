// Command fairhold audits and certifies provably-fair casino Hold'em games.
//
// Exit codes: 0 ok or verified, 1 error (a missing or unreadable input
// file, an output that cannot be written), 2 usage (bad flags, arguments
// or malformed input), 3 verification failed or findings present.
package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"slices"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line args and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	stopProfile := addProfiling(root)
	out := &countingWriter{w: stdout}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	var msg bytes.Buffer
	code := exitCode(err, &msg)
	_, _ = stderr.Write(msg.Bytes())
	if err2 := stopProfile(); err2 != nil && code == 0 {
		err = err2
		msg.Reset()
		code = exitCode(err, &msg)
		_, _ = stderr.Write(msg.Bytes())
	}
	if code != exitOK && out.n == 0 && wantsJSON(cmd, args) {
		// A JSON reader gets a result even when the command could not run
		// (exit 1 or 2), or failed without a result of its own (exit 3).
		verdict := verdictError
		if code == exitVerified {
			verdict = verdictFailed
		}
		_ = writeResult(stdout, verdict, errorResult{Error: errorMessage(err), ExitCode: code})
	}
	return code
}

// errorResult is the JSON result of a command that could not run (exit 1
// or 2), or that failed (exit 3) without printing a result, under --json.
type errorResult struct {
	Error    string `json:"error,omitempty"`
	ExitCode int    `json:"exit_code"`
}

func errorMessage(err error) string {
	var e *exitErr
	if errors.As(err, &e) {
		if e.err == nil {
			return ""
		}
		return e.err.Error()
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// wantsJSON reports whether the command line asked for JSON output.
func wantsJSON(cmd *cobra.Command, args []string) bool {
	if cmd != nil {
		if f := cmd.Flags().Lookup("json"); f != nil && f.Changed {
			return f.Value.String() == "true"
		}
	}
	return slices.Contains(args, "--json") || slices.Contains(args, "--json=true")
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
