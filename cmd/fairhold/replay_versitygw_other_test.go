//go:build !linux

package main

import "os/exec"

// setPdeathsig does nothing but on Linux: there, the server ends with the
// test's context only.
func setPdeathsig(cmd *exec.Cmd) {}
