//go:build race

package roundlog

// raceEnabled is true under the race detector, whose instrumentation
// allocates: allocation bounds are looser then.
const raceEnabled = true
