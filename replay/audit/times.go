package audit

import (
	"errors"
	"time"
)

// timeCache remembers the last times parsed for a seed: its commitment
// and reveal times repeat on every round of its session.
type timeCache struct {
	text [2][maxCachedTime]byte // the texts, in place: no allocation per new text
	n    [2]int8                // their lengths; 0 for an empty slot
	at   [2]int64
	next int
}

// maxCachedTime is the longest time text the cache keeps:
// "2006-01-02T15:04:05.999999999+07:00".
const maxCachedTime = 35

func (tc *timeCache) parse(s string) (int64, error) {
	for i := range tc.text {
		if n := int(tc.n[i]); n > 0 && string(tc.text[i][:n]) == s {
			return tc.at[i], nil
		}
	}
	at, err := parseTime(s)
	if err == nil && len(s) <= maxCachedTime {
		i := tc.next
		tc.n[i] = int8(copy(tc.text[i][:], s))
		tc.at[i] = at
		tc.next = (i + 1) % len(tc.text)
	}
	return at, err
}

var errNotRFC3339 = errors.New("not an RFC 3339 time")

// parseTime parses an RFC 3339 time into Unix microseconds. The form the
// logs use, "2006-01-02T15:04:05Z" with an optional fraction of up to 9
// digits, is parsed directly; anything else goes through time.Parse.
func parseTime(s string) (int64, error) {
	if us, ok := parseUTC(s); ok {
		return us, nil
	}
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, errNotRFC3339
	}
	return tm.UnixMicro(), nil
}

// parseUTC parses "YYYY-MM-DDTHH:MM:SS[.fffffffff]Z" exactly, or reports
// false. Fractions below a microsecond are truncated, as time.UnixMicro
// does.
func parseUTC(s string) (int64, bool) {
	if len(s) < 20 {
		return 0, false
	}
	days, ok1 := parseDate(s)
	us, ok2 := parseClock(s)
	if !ok1 || !ok2 {
		return 0, false
	}
	return days*microsPerDay + us, true
}

const microsPerDay = 24 * 60 * 60 * 1_000_000

// digits parses the w decimal digits of s from i.
func digits(s string, i, w int) (int, bool) {
	v := 0
	for k := i; k < i+w; k++ {
		c := s[k]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = 10*v + int(c-'0')
	}
	return v, true
}

// parseDate parses the date "YYYY-MM-DD" that starts s (at least 10
// bytes) into days from 1970-01-01.
func parseDate(s string) (int64, bool) {
	if s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	y, ok1 := digits(s, 0, 4)
	mo, ok2 := digits(s, 5, 2)
	d, ok3 := digits(s, 8, 2)
	if !(ok1 && ok2 && ok3) || y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y) {
		return 0, false
	}
	return daysFromCivil(y, mo, d), true
}

// parseClock parses what follows the date in s (at least 20 bytes),
// "THH:MM:SS[.fffffffff]Z", into microseconds from midnight.
func parseClock(s string) (int64, bool) {
	n := len(s)
	if s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[n-1] != 'Z' {
		return 0, false
	}
	h, ok1 := digits(s, 11, 2)
	mi, ok2 := digits(s, 14, 2)
	sec, ok3 := digits(s, 17, 2)
	if !(ok1 && ok2 && ok3) || h > 23 || mi > 59 || sec > 59 {
		return 0, false
	}
	us := 0
	switch {
	case n == 20:
	case s[19] == '.' && n > 21 && n <= 30:
		f, ok := digits(s, 20, n-21)
		if !ok {
			return 0, false
		}
		for k := n - 21; k < 6; k++ {
			f *= 10
		}
		for k := n - 21; k > 6; k-- {
			f /= 10
		}
		us = f
	default:
		return 0, false
	}
	return ((int64(h)*60+int64(mi))*60+int64(sec))*1_000_000 + int64(us), true
}

// dayCache keeps the date of the last round time parsed and its days: a
// log's rounds come day after day, so a round's date is parsed and
// checked once a day rather than once a round.
type dayCache struct {
	date [10]byte
	days int64
	ok   bool
}

// parse is parseTime(s), the date taken from the cache when it is the
// cached one.
func (dc *dayCache) parse(s string) (int64, error) {
	if len(s) >= 20 && dc.ok && string(dc.date[:]) == s[:10] {
		if us, ok := parseClock(s); ok {
			return dc.days*microsPerDay + us, nil
		}
		return parseTime(s)
	}
	if len(s) >= 20 {
		if days, ok := parseDate(s); ok {
			if us, ok := parseClock(s); ok {
				copy(dc.date[:], s)
				dc.days, dc.ok = days, true
				return days*microsPerDay + us, nil
			}
		}
	}
	return parseTime(s)
}

func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil returns the days from 1970-01-01 to y-m-d (proleptic
// Gregorian calendar), after Howard Hinnant's algorithm.
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400 // y >= 0 here
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era*146097+doe) - 719468
}
