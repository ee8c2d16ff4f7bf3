package audit

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestParseTime compares the direct parser with time.Parse on valid,
// edge and invalid times.
func TestParseTime(t *testing.T) {
	cases := []string{
		"1970-01-01T00:00:00Z", "2026-11-29T10:01:00Z", "2000-02-29T23:59:59Z", "1900-02-29T00:00:00Z",
		"2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
		"2026-11-29T24:00:00Z", "2026-11-29T10:60:00Z", "2026-11-29T10:00:60Z", "2026-11-29T10:01:00.5Z",
		"2026-11-29T10:01:00.123456Z", "2026-11-29T10:01:00.123456789Z", "2026-11-29T10:01:00.1234567891Z",
		"2026-11-29T10:01:00.Z", "2026-11-29T10:01:00+01:00", "2026-11-29 10:01:00Z", "2026-11-29T10:01:00",
		"", "x", "0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "0000-03-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "2026-1-29T10:01:00Z", "+026-11-29T10:01:00Z",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		tm := time.Unix(rng.Int64N(5e9), rng.Int64N(1e9)).UTC()
		cases = append(cases, tm.Format(time.RFC3339Nano), tm.Format(time.RFC3339))
	}
	for _, s := range cases {
		want, werr := time.Parse(time.RFC3339Nano, s)
		got, err := parseTime(s)
		if werr != nil {
			assert.Error(t, err, s)
			continue
		}
		if assert.NoError(t, err, s) {
			assert.Equal(t, want.UnixMicro(), got, s)
		}
	}
}

// TestDayCache: the round times parsed with the day cache are parseTime's,
// in any order: days repeating, changing, and times that do not parse
// between them (which leave the cache as it was).
func TestDayCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := time.Date(2026, 2, 27, 22, 0, 0, 0, time.UTC)
	var cases []string
	for range 3000 {
		tm := base.Add(time.Duration(rng.Int64N(5*24*3600)) * time.Second).Add(time.Duration(rng.Int64N(1e9)))
		switch rng.IntN(8) {
		case 0:
			cases = append(cases, tm.Format(time.RFC3339Nano))
		case 1:
			cases = append(cases, tm.Format("2006-01-02T15:04:05.000Z"))
		case 2:
			// The cached day with a clock that does not parse.
			s := tm.Format(time.RFC3339)
			cases = append(cases, s[:10]+[]string{"T25:00:00Z", "T10:00:00", "T10:00:00+01:00", "T10:00:00.Z", "x10:00:00Z", "T10:00:00.1234567890Z"}[rng.IntN(6)])
		case 3:
			// A day that does not exist, or is not a date.
			cases = append(cases, []string{"2026-02-29T10:00:00Z", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-03-xxT00:00:00Z", "", "2026-03-01"}[rng.IntN(6)])
		default:
			cases = append(cases, tm.Format(time.RFC3339))
		}
	}
	var dc dayCache
	for _, s := range cases {
		want, werr := parseTime(s)
		got, err := dc.parse(s)
		if werr != nil {
			assert.Error(t, err, s)
			continue
		}
		if assert.NoError(t, err, s) {
			assert.Equal(t, want, got, s)
		}
	}
	assert.True(t, dc.ok)
}
