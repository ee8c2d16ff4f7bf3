package main

import (
	"os/exec"
	"syscall"
)

// setPdeathsig has the kernel kill cmd when the test process dies, so that
// a test killed (a timeout's panic, SIGKILL) leaves no server behind.
func setPdeathsig(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
