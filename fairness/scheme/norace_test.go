//go:build !race

package scheme

const raceEnabled = false
