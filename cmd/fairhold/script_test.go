package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"

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
// Runs that take minutes (a whole demo, the 7-card census) are behind the
// condition [long], true when FAIRHOLD_LONG_SCRIPTS=1.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: false,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": cmdExits,
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
