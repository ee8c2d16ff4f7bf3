package roundlog

import "time"

// Times are stored as UTC microseconds (TIMESTAMP(MICROS, UTC)) and read
// back as RFC 3339 in UTC with the shortest fraction ("Z" suffix). The
// fast paths below handle that form; anything else goes through package
// time.

// parseFast parses "YYYY-MM-DDTHH:MM:SS[.fraction]Z".
func parseFast(s string) (int64, bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[len(s)-1] != 'Z' {
		return 0, false
	}
	num := func(a, b int) (int, bool) {
		v := 0
		for i := a; i < b; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 7)
	d, ok3 := num(8, 10)
	h, ok4 := num(11, 13)
	mi, ok5 := num(14, 16)
	sec, ok6 := num(17, 19)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59 {
		return 0, false
	}
	us := 0
	if len(s) > 20 {
		if s[19] != '.' || len(s) > 27 || len(s) < 22 {
			return 0, false
		}
		f, ok := num(20, len(s)-1)
		if !ok {
			return 0, false
		}
		for range 6 - (len(s) - 21) {
			f *= 10
		}
		us = f
	} else if s[19] != 'Z' {
		return 0, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC)
	if t.Day() != d {
		return 0, false // e.g. February 30th
	}
	return t.Unix()*1_000_000 + int64(us), true
}

// appendTime appends the RFC 3339 UTC text of us microseconds.
func appendTime(b []byte, us int64) []byte {
	t := time.UnixMicro(us).UTC()
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return t.AppendFormat(b, time.RFC3339Nano)
	}
	b = append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+mo/10), byte('0'+mo%10), '-', byte('0'+d/10), byte('0'+d%10), 'T')
	// The microseconds into the day, counted from the day's midnight (a
	// time before 1970 has a negative us).
	rem := us % microsPerDay
	if rem < 0 {
		rem += microsPerDay
	}
	return appendClock(b, rem)
}

// timeCache remembers the last formatted time of a column: the commitment
// and reveal times repeat over a seed session. The texts are in an arena
// (valid until its reset, which must be followed by the cache's).
type timeCache struct {
	us int64
	s  string

	// The date part ("YYYY-MM-DDT") of the day last formatted.
	day    int64
	date   [11]byte
	dateOK bool
}

func (c *timeCache) reset() { c.us, c.s = 0, "" }

const microsPerDay = 86_400_000_000

// lastDay9999 is 9999-12-31 in days since 1970-01-01: the last day whose
// year has four digits.
const lastDay9999 = 2_932_896

func (c *timeCache) format(a *arena, us int64) string {
	if us == 0 {
		return ""
	}
	if us == c.us && c.s != "" {
		return c.s
	}
	a.reserve(32)
	start := len(a.buf)
	day, rem := us/microsPerDay, us%microsPerDay
	if us < 0 || day > lastDay9999 { // before 1970 or after 9999: the general path
		a.buf = appendTime(a.buf, us)
	} else {
		if !c.dateOK || c.day != day {
			copy(c.date[:], appendTime(nil, day*microsPerDay)[:11])
			c.day, c.dateOK = day, true
		}
		a.buf = appendClock(append(a.buf, c.date[:]...), rem)
	}
	c.us, c.s = us, a.str(start, len(a.buf))
	return c.s
}

// appendClock appends "HH:MM:SS[.fraction]Z" for rem microseconds into a
// day, with the shortest fraction, as appendTime does.
func appendClock(b []byte, rem int64) []byte {
	sec := rem / 1_000_000
	h, mi, s := sec/3600, sec/60%60, sec%60
	b = append(b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':', byte('0'+s/10), byte('0'+s%10))
	if f := rem % 1_000_000; f != 0 {
		var digits [6]byte
		for i := 5; i >= 0; i-- {
			digits[i] = byte('0' + f%10)
			f /= 10
		}
		n := 6
		for n > 0 && digits[n-1] == '0' {
			n--
		}
		b = append(b, '.')
		b = append(b, digits[:n]...)
	}
	return append(b, 'Z')
}
