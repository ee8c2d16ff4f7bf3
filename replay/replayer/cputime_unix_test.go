//go:build unix

package replayer

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used: on a
// shared machine a benchmark's CPU time per run varies far less than its
// wall time, which counts the time other processes held the cores.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
