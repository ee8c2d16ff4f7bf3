//go:build !heavy

package main

// heavyTests: in the default build (`go test ./...`), the slow suites of
// this package run a sample; `go test -tags heavy` runs them in full
// (heavy_on_test.go).
const heavyTests = false
