//go:build heavy

package replayer

// heavyTests: built with -tags heavy (CI, .ci/run), the slow suites of
// this package run in full; heavy_off_test.go is the default build,
// where they run a sample (README, Tests).
const heavyTests = true
