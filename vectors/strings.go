package vectors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Strings is a list of JSON strings that keeps what encoding/json would
// silently replace by U+FFFD: an escaped unpaired surrogate ("\ud800") is
// kept as its 3-byte generalised UTF-8 form (0xed 0xa0 0x80), and raw bytes
// that are not UTF-8 as they are, neither of which is valid UTF-8, so that
// a verifier rejects such a client seed instead of hashing a replacement
// character (docs/fairness.md, "Client input").
// Marshalling writes those bytes back as the same escapes, so a vector
// file survives a round trip byte for byte.
type Strings []string

// UnmarshalJSON decodes an array of strings (or null).
func (s *Strings) UnmarshalJSON(b []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return err
	}
	if raws == nil {
		*s = nil
		return nil
	}
	out := make(Strings, len(raws))
	for i, r := range raws {
		v, err := unquoteKeepSurrogates(r)
		if err != nil {
			return fmt.Errorf("string %d: %w", i+1, err)
		}
		out[i] = v
	}
	*s = out
	return nil
}

// unquoteKeepSurrogates decodes one JSON string literal.
func unquoteKeepSurrogates(r []byte) (string, error) {
	// Raw bytes that are not UTF-8 are kept too (encoding/json would
	// read them as U+FFFD): the manual path copies them as they are.
	if !bytes.Contains(r, []byte(`\u`)) && utf8.Valid(r) {
		var v string
		err := json.Unmarshal(r, &v)
		return v, err
	}
	if len(r) < 2 || r[0] != '"' || r[len(r)-1] != '"' {
		return "", fmt.Errorf("want a string")
	}
	in := r[1 : len(r)-1]
	var out []byte
	for i := 0; i < len(in); {
		c := in[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(in) {
			return "", fmt.Errorf("bad escape")
		}
		switch e := in[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			u, ok := hex4(in[i+2:])
			if !ok {
				return "", fmt.Errorf("bad \\u escape")
			}
			i += 6
			if utf16.IsSurrogate(rune(u)) && u < 0xdc00 && i+6 <= len(in) && in[i] == '\\' && in[i+1] == 'u' {
				if lo, ok := hex4(in[i+2:]); ok && lo >= 0xdc00 && lo <= 0xdfff {
					out = utf8.AppendRune(out, utf16.DecodeRune(rune(u), rune(lo)))
					i += 6
					continue
				}
			}
			if utf16.IsSurrogate(rune(u)) {
				// Generalised UTF-8 of the lone surrogate: invalid UTF-8.
				out = append(out, 0xe0|byte(u>>12), 0x80|byte(u>>6)&0x3f, 0x80|byte(u)&0x3f)
			} else {
				out = utf8.AppendRune(out, rune(u))
			}
			continue
		default:
			return "", fmt.Errorf("bad escape \\%c", e)
		}
		i += 2
	}
	return string(out), nil
}

func hex4(b []byte) (uint16, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 16)
	return uint16(v), err == nil
}

// MarshalJSON encodes the strings as encoding/json does (without HTML
// escaping), writing a kept lone surrogate back as its \u escape.
func (s Strings) MarshalJSON() ([]byte, error) {
	if s == nil {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, v := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		for len(v) > 0 {
			r, n := utf8.DecodeRuneInString(v)
			switch {
			case r == utf8.RuneError && n == 1 && len(v) >= 3 && v[0] == 0xed && v[1] >= 0xa0 && v[1] <= 0xbf && v[2] >= 0x80 && v[2] <= 0xbf:
				fmt.Fprintf(&b, `\u%04x`, 0xd000|uint16(v[1]&0x3f)<<6|uint16(v[2]&0x3f))
				n = 3
			case r == utf8.RuneError && n == 1:
				b.WriteString("\uFFFD") // as a character, so that a second round trip is exact
			default:
				q, _ := jsonString(v[:n])
				b.Write(q[1 : len(q)-1])
			}
			v = v[n:]
		}
		b.WriteByte('"')
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// jsonString encodes one valid string as encoding/json does, without HTML
// escaping.
func jsonString(s string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
