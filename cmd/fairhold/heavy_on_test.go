//go:build heavy

package main

// heavyTests: built with -tags heavy, the slow suites of this package run
// in full; heavy_off_test.go is the default build, where they run a sample
// (README, Quickstart). CI (.ci/run, step "go test -tags heavy") runs the
// tests that read it by name: name a new one there.
const heavyTests = true
