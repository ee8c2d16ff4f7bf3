package report

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// A small text extractor for the PDFs Chromium (Skia) writes, for the
// tests: objects in plain "N 0 obj" form, content streams and font maps
// compressed with FlateDecode, text shown as hex glyph ids with Tj and TJ,
// each font's ToUnicode CMap mapping the glyph ids back to text. It
// returns each page's text, a line per text object (BT ... ET). It is not
// a PDF reader: anything else in the file is an error.

type pdfObject struct {
	dict   string
	stream []byte
}

var (
	pdfObjStart  = regexp.MustCompile(`(?m)^(\d+) 0 obj\s*`)
	pdfLength    = regexp.MustCompile(`/Length (\d+)`)
	pdfRef       = regexp.MustCompile(`/(\w+) (\d+) 0 R`)
	pdfFontDict  = regexp.MustCompile(`(?s)/Font <<(.*?)>>`)
	pdfContents  = regexp.MustCompile(`/Contents (\d+) 0 R`)
	pdfToUnicode = regexp.MustCompile(`/ToUnicode (\d+) 0 R`)
	pdfCMapHex   = regexp.MustCompile(`<([0-9A-Fa-f]+)>`)
	pdfToken     = regexp.MustCompile(`/(\w+) [\d.]+ Tf|<([0-9A-Fa-f]*)>|\bET\b`)
)

func pdfObjects(pdf []byte) (map[int]pdfObject, error) {
	objs := map[int]pdfObject{}
	for _, m := range pdfObjStart.FindAllSubmatchIndex(pdf, -1) {
		n, _ := strconv.Atoi(string(pdf[m[2]:m[3]]))
		rest := pdf[m[1]:]
		end := bytes.Index(rest, []byte("endobj"))
		if end < 0 {
			return nil, fmt.Errorf("object %d has no endobj", n)
		}
		body := rest[:end]
		o := pdfObject{dict: string(body)}
		if i := bytes.Index(body, []byte("stream")); i >= 0 && bytes.HasPrefix(body, []byte("<<")) {
			o.dict = string(body[:i])
			l := pdfLength.FindStringSubmatch(o.dict)
			if l == nil {
				return nil, fmt.Errorf("object %d: a stream without a direct /Length", n)
			}
			size, _ := strconv.Atoi(l[1])
			start := m[1] + i + len("stream")
			for pdf[start] == '\r' || pdf[start] == '\n' || pdf[start] == ' ' {
				start++
			}
			o.stream = pdf[start : start+size]
			if strings.Contains(o.dict, "/FlateDecode") {
				r, err := zlib.NewReader(bytes.NewReader(o.stream))
				if err != nil {
					return nil, fmt.Errorf("object %d: %w", n, err)
				}
				if o.stream, err = io.ReadAll(r); err != nil {
					return nil, fmt.Errorf("object %d: %w", n, err)
				}
			}
		}
		objs[n] = o
	}
	return objs, nil
}

// pdfCMap reads a ToUnicode CMap's bfchar and bfrange entries.
func pdfCMap(cmap []byte) map[string]string {
	out := map[string]string{}
	utf := func(h string) string {
		b, _ := hex.DecodeString(h)
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		}
		return string(utf16.Decode(u))
	}
	s := string(cmap)
	for _, sec := range regexp.MustCompile(`(?s)beginbfchar(.*?)endbfchar`).FindAllStringSubmatch(s, -1) {
		hs := pdfCMapHex.FindAllStringSubmatch(sec[1], -1)
		for i := 0; i+1 < len(hs); i += 2 {
			out[strings.ToUpper(hs[i][1])] = utf(hs[i+1][1])
		}
	}
	for _, sec := range regexp.MustCompile(`(?s)beginbfrange(.*?)endbfrange`).FindAllStringSubmatch(s, -1) {
		for _, line := range strings.Split(sec[1], "\n") {
			hs := pdfCMapHex.FindAllStringSubmatch(line, -1)
			if len(hs) < 3 {
				continue
			}
			lo, _ := strconv.ParseUint(hs[0][1], 16, 32)
			hi, _ := strconv.ParseUint(hs[1][1], 16, 32)
			width := len(hs[0][1])
			for c := lo; c <= hi; c++ {
				key := strings.ToUpper(fmt.Sprintf("%0*x", width, c))
				if strings.Contains(line, "[") {
					if k := int(c - lo); 2+k < len(hs) {
						out[key] = utf(hs[2+k][1])
					}
					continue
				}
				d := []rune(utf(hs[2][1]))
				if len(d) > 0 {
					d[len(d)-1] += rune(c - lo)
				}
				out[key] = string(d)
			}
		}
	}
	return out
}

// pdfPagesText returns the text of every page, in the order of the
// objects.
func pdfPagesText(pdf []byte) ([]string, error) {
	objs, err := pdfObjects(pdf)
	if err != nil {
		return nil, err
	}
	var nums []int
	for n, o := range objs {
		if strings.HasPrefix(o.dict, "<</Type /Page\n") {
			nums = append(nums, n)
		}
	}
	slices.Sort(nums)
	var pages []string
	for _, n := range nums {
		page := objs[n].dict
		cmaps := map[string]map[string]string{}
		if fd := pdfFontDict.FindStringSubmatch(page); fd != nil {
			for _, r := range pdfRef.FindAllStringSubmatch(fd[1], -1) {
				fn, _ := strconv.Atoi(r[2])
				tu := pdfToUnicode.FindStringSubmatch(objs[fn].dict)
				if tu == nil {
					return nil, fmt.Errorf("font %s (object %d) has no ToUnicode", r[1], fn)
				}
				cn, _ := strconv.Atoi(tu[1])
				cmaps[r[1]] = pdfCMap(objs[cn].stream)
			}
		}
		c := pdfContents.FindStringSubmatch(page)
		if c == nil {
			return nil, fmt.Errorf("page %d has no single /Contents", n)
		}
		cn, _ := strconv.Atoi(c[1])
		var b strings.Builder
		var cmap map[string]string
		for _, t := range pdfToken.FindAllStringSubmatch(string(objs[cn].stream), -1) {
			switch {
			case t[1] != "":
				cmap = cmaps[t[1]]
			case t[0] == "ET":
				b.WriteString("\n")
			case cmap != nil:
				h := strings.ToUpper(t[2])
				for i := 0; i+4 <= len(h); i += 4 {
					b.WriteString(cmap[h[i:i+4]])
				}
			}
		}
		pages = append(pages, b.String())
	}
	return pages, nil
}

// squash removes white space and spells out the ligatures the fonts
// draw (ﬁ, ﬂ, ...), for comparing text that a PDF may break into runs
// anywhere.
func squash(s string) string {
	s = strings.NewReplacer("ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl").Replace(s)
	return strings.Join(strings.Fields(s), "")
}
