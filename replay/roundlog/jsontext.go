package roundlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// encoding/json silently replaces two things by U+FFFD when it decodes a
// string: bytes that are not UTF-8, and a \u escape of a surrogate
// (U+D800..U+DFFF) that is not one half of an escaped pair. Hashing that
// replacement would verify a client seed the player never gave
// (docs/fairness.md section 4), so a JSON Lines line holding either is
// damage: the reader checks the line's raw bytes before it trusts what
// encoding/json made of them.

// rawTextError reports the first of those two in a JSON text b that
// encoding/json accepted, or "" when b has neither.
func rawTextError(b []byte) string {
	if !utf8.Valid(b) {
		at := 0
		for at < len(b) {
			r, n := utf8.DecodeRune(b[at:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		return fmt.Sprintf("a text that is not valid UTF-8 (byte 0x%02x): text is never repaired (docs/log-format.md)", b[at])
	}
	if u, ok := loneSurrogate(b); ok {
		return fmt.Sprintf(`a text with the escape \u%04x, an unpaired surrogate, which is not a Unicode character: text is never repaired (docs/log-format.md)`, u)
	}
	return ""
}

// loneSurrogate finds the first \u escape of b, a valid JSON text, that
// encodes a surrogate outside an escaped pair (a high surrogate
// U+D800..U+DBFF followed by the escape of a low one U+DC00..U+DFFF).
// In a valid JSON text every backslash is inside a string.
func loneSurrogate(b []byte) (uint16, bool) {
	for {
		i := bytes.IndexByte(b, '\\')
		if i < 0 || i+1 >= len(b) {
			return 0, false
		}
		if b[i+1] != 'u' {
			b = b[i+2:] // \" \\ \/ \b \f \n \r \t
			continue
		}
		u, ok := escapedUnit(b[i:])
		if !ok {
			return 0, false // not valid JSON: encoding/json reported it
		}
		b = b[i+6:]
		switch {
		case u < 0xd800 || u > 0xdfff:
		case u <= 0xdbff:
			lo, ok := escapedUnit(b)
			if !ok || lo < 0xdc00 || lo > 0xdfff {
				return u, true
			}
			b = b[6:]
		default:
			return u, true
		}
	}
}

// escapedUnit decodes the escape \uXXXX that b starts with.
func escapedUnit(b []byte) (uint16, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[2:6]), 16, 16)
	return uint16(v), err == nil
}

// rawTextPath finds where in the JSON value b (valid JSON holding one of
// the texts rawTextError reports) that text is: the member path, such as
// "fairness.client_seeds[0]" or "boxes[1].player_id", with the reason.
// A member name holding it is reported at its object's path, with
// "(a member name)" appended.
func rawTextPath(b []byte, path string) (string, string) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return path, ""
	}
	switch b[0] {
	case '{':
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if _, err := dec.Token(); err != nil {
			return path, ""
		}
		for dec.More() {
			start := dec.InputOffset()
			k, err := dec.Token()
			if err != nil {
				return path, ""
			}
			key, _ := k.(string)
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return path, ""
			}
			// The raw member name: from the previous offset to the colon.
			if reason := rawTextError(rawKey(b[start:dec.InputOffset()])); reason != "" {
				return join(path, "(a member name)"), reason
			}
			if p, reason := rawTextPath(v, join(path, key)); reason != "" {
				return p, reason
			}
		}
		return path, ""
	case '[':
		var elems []json.RawMessage
		if err := json.Unmarshal(b, &elems); err != nil {
			return path, ""
		}
		for i, e := range elems {
			if p, reason := rawTextPath(e, fmt.Sprintf("%s[%d]", path, i)); reason != "" {
				return p, reason
			}
		}
		return path, ""
	case '"':
		return path, rawTextError(b)
	}
	return path, ""
}

// rawKey returns the quoted member name that the raw bytes of a member
// (`,"name": value` or `"name": value`) start with.
func rawKey(m []byte) []byte {
	i := bytes.IndexByte(m, '"')
	if i < 0 {
		return nil
	}
	for j := i + 1; j < len(m); j++ {
		switch m[j] {
		case '\\':
			j++
		case '"':
			return m[i : j+1]
		}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
