//go:build race

package scheme

// raceEnabled is true under the race detector, whose instrumentation
// allocates: allocation counts are not asserted then.
const raceEnabled = true
