package roundlog

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTimeCacheMatchesAppendTime checks the per-day fast path against the
// general formatter, across days, fractions and the range limits.
func TestTimeCacheMatchesAppendTime(t *testing.T) {
	var c timeCache
	var a arena
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(us int64) {
		require.Equal(t, string(appendTime(nil, us)), c.format(&a, us), "us=%d", us)
	}
	for _, us := range []int64{1, -1, 999_999, 1_000_000, microsPerDay - 1, microsPerDay, 253402300799999999, 253402300800000000, -62135596800000000} {
		check(us)
	}
	base := int64(1_780_000_000_000_000)
	for range 100_000 {
		switch rng.IntN(3) {
		case 0:
			base += rng.Int64N(10_000_000)
		case 1:
			base += rng.Int64N(3 * microsPerDay)
		default:
			base = rng.Int64N(253402300799999999)
		}
		check(base)
		check(base - base%1000)
		check(base - base%1_000_000)
	}
}
