package roundlog

import (
	"math/rand/v2"
	"testing"
	"time"

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
	require.Equal(t, "9999-12-31T00:00:00Z", string(appendTime(nil, lastDay9999*microsPerDay)))
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

// TestAppendTimeMatchesPackageTime checks the formatter against package
// time's RFC 3339 (shortest fraction) over years 1 to 9999, before 1970
// included.
func TestAppendTimeMatchesPackageTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const lo, hi = -62135596800000000, 253402300799999999 // 0001-01-01 to 9999-12-31
	for range 200_000 {
		us := lo + rng.Int64N(hi-lo)
		if rng.IntN(2) == 0 {
			us -= us % 1_000_000 // whole seconds too
		}
		want := time.UnixMicro(us).UTC().Format(time.RFC3339Nano)
		require.Equal(t, want, string(appendTime(nil, us)), "us=%d", us)
	}
}
