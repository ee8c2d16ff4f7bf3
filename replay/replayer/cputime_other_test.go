//go:build !unix

package replayer

import "time"

// cpuTime is not measured here (cputime_unix_test.go).
func cpuTime() time.Duration { return 0 }
