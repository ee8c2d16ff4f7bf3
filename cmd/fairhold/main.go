// Command fairhold audits and certifies provably-fair casino Hold'em games.
//
// Exit codes: 0 ok or verified, 1 error, 2 usage (bad flags, arguments or
// malformed input), 3 verification failed or findings present.
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line args and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	stopProfile := addProfiling(root)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	code := exitCode(root.Execute(), stderr)
	if err := stopProfile(); err != nil && code == 0 {
		code = exitCode(err, stderr)
	}
	return code
}
