//go:build unix

package regularfile

import (
	"errors"
	"syscall"
)

// openFlags: a FIFO opened with O_NONBLOCK does not wait for a writer.
const openFlags = syscall.O_NONBLOCK

func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }
