package main

import (
	"fmt"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/replay/atomicfile"
)

// addProfiling gives root the --cpuprofile flag: a CPU profile of the
// command for performance work (go tool pprof; docs/replay.md). The
// returned stop ends the profile once the command is done, whatever its
// exit code.
func addProfiling(root *cobra.Command) (stop func() error) {
	var path string
	var f *atomicfile.File
	root.PersistentFlags().StringVar(&path, "cpuprofile", "", "write a CPU profile of the command to `FILE` (go tool pprof)")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if path == "" {
			return nil
		}
		var err error
		if f, err = atomicfile.Create(path); err != nil {
			return usageError(fmt.Errorf("--cpuprofile: %w", err))
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Abort()
			f = nil
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}
	return func() error {
		if f == nil {
			return nil
		}
		pprof.StopCPUProfile()
		if err := f.Commit(); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}
}
