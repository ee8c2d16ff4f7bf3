package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// Exit codes of the fairhold command.
const (
	exitOK       = 0
	exitError    = 1
	exitUsage    = 2
	exitVerified = 3 // verification failed or findings present
)

// exitErr carries the exit code an error maps to.
type exitErr struct {
	code int
	err  error // nil: exit with code, print nothing more
}

func (e *exitErr) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitErr) Unwrap() error { return e.err }

// usageError marks err as a usage error (exit 2): bad flags, arguments or
// malformed input.
func usageError(err error) error {
	if err == nil {
		return nil
	}
	return &exitErr{code: exitUsage, err: err}
}

// usageErrorf formats a usage error (exit 2).
func usageErrorf(format string, args ...any) error {
	return usageError(fmt.Errorf(format, args...))
}

// errVerificationFailed ends a command with exit code 3 after it has printed
// its own report of what failed.
var errVerificationFailed = &exitErr{code: exitVerified}

// verificationFailed ends a command with exit code 3, printing err: what
// failed to verify, when the command printed nothing of its own.
func verificationFailed(err error) error { return &exitErr{code: exitVerified, err: err} }

// exitCode prints err (if any) to stderr and returns the exit code.
//
// A file that does not exist or cannot be opened for lack of permission is
// an error of the environment, exit 1, in every command, even where the
// command reports it as a usage error: the rule is enforced here, once.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var e *exitErr
	if errors.As(err, &e) {
		if e.err != nil {
			fmt.Fprintln(stderr, "fairhold:", e.err)
		}
		if e.code == exitUsage && isMissingFile(e.err) {
			return exitError
		}
		return e.code
	}
	fmt.Fprintln(stderr, "fairhold:", err)
	if isCobraUsage(err) {
		return exitUsage
	}
	return exitError
}

// isMissingFile reports whether err is about a file that does not exist or
// may not be opened.
func isMissingFile(err error) bool {
	return err != nil && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission))
}

// isCobraUsage recognises the errors cobra returns itself for an unknown
// command or a wrong number of arguments, which it does not type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag",
		"accepts ", "requires at least", "requires at most", "invalid argument",
		"flag needs an argument", "required flag"} {
		if strings.HasPrefix(msg, p) || strings.Contains(msg, "required flag(s)") {
			return true
		}
	}
	return false
}
