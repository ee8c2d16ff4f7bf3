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
	n := len(s)
	if n < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[n-1] != 'Z' {
		return 0, false
	}
	num := func(i, w int) (int, bool) {
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
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 2)
	d, ok3 := num(8, 2)
	h, ok4 := num(11, 2)
	mi, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y) || h > 23 || mi > 59 || sec > 59 {
		return 0, false
	}
	us := 0
	switch {
	case n == 20:
	case s[19] == '.' && n > 21 && n <= 30:
		f, ok := num(20, n-21)
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
	days := daysFromCivil(y, mo, d)
	return ((days*24+int64(h))*60+int64(mi))*60*1_000_000 + int64(sec)*1_000_000 + int64(us), true
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
