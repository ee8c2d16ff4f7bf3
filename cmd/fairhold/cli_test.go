package main

// runCLI runs one fairhold command line in-process, with empty standard
// input, and returns what it printed and its exit code.
func runCLI(args ...string) (stdout, stderr string, code int) {
	r := runSub(args...)
	return r.stdout, r.stderr, r.code
}
