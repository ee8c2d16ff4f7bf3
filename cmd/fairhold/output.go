package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// The verdicts of the commands' JSON results, under the top-level key
// "verdict" of every result (docs/report-format.md, section 12).
const (
	verdictOK       = "ok"       // computed, nothing to verify; or a check that passed
	verdictVerified = "verified" // a verification that succeeded
	verdictPartial  = "partial"  // a verification that covered only part of its claim
	verdictFailed   = "failed"   // a verification or check that failed (exit 3)
	verdictFindings = "findings" // a replay that found problems (exit 3)
	verdictError    = "error"    // the command could not run (exit 1 or 2)
)

// verdicts lists the values a result's "verdict" may take.
var verdicts = []string{verdictOK, verdictVerified, verdictPartial, verdictFailed, verdictFindings, verdictError}

func isVerdict(s string) bool {
	for _, v := range verdicts {
		if s == v {
			return true
		}
	}
	return false
}

// writeJSON writes the result v of a command that has no verdict of its
// own: writeResult with verdict ok (or v's own verdict). A v that is not
// a JSON object is written as it is, indented. Commands with a verdict
// call writeResult.
func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(b) > 0 && b[0] == '{' {
		return writeResult(w, verdictOK, v)
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, b, "", "  "); err != nil {
		return err
	}
	ind.WriteByte('\n')
	_, err = w.Write(ind.Bytes())
	return err
}

// writeResult writes a command's JSON result: the JSON object of v with
// the key "verdict" first, then v's own keys in v's order. When v has a
// "verdict" of its own that is one of the verdicts, it is kept as it is;
// any other "verdict" of v (a certification report's pass, fail or
// incomplete) is moved to "report_verdict".
func writeResult(w io.Writer, verdict string, v any) error {
	if !isVerdict(verdict) {
		return fmt.Errorf("internal error: verdict %q", verdict)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	keys, vals, err := objectMembers(b)
	if err != nil {
		return fmt.Errorf("internal error: a result is not a JSON object: %w", err)
	}
	var out bytes.Buffer
	out.WriteByte('{')
	member := func(k string, v []byte) {
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		out.Write(kb)
		out.WriteByte(':')
		out.Write(v)
	}
	own := -1
	for i, k := range keys {
		if k == "verdict" {
			own = i
		}
	}
	var ownVerdict string
	if own >= 0 {
		_ = json.Unmarshal(vals[own], &ownVerdict)
	}
	if own >= 0 && isVerdict(ownVerdict) {
		member("verdict", vals[own])
	} else {
		vb, _ := json.Marshal(verdict)
		member("verdict", vb)
		if own >= 0 {
			member("report_verdict", vals[own])
		}
	}
	for i, k := range keys {
		if i != own {
			member(k, vals[i])
		}
	}
	out.WriteByte('}')
	var ind bytes.Buffer
	if err := json.Indent(&ind, out.Bytes(), "", "  "); err != nil {
		return err
	}
	ind.WriteByte('\n')
	_, err = w.Write(ind.Bytes())
	return err
}

// objectMembers splits the JSON object b into its keys and raw values, in
// order.
func objectMembers(b []byte) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("got %v, want an object", tok)
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, vals = append(keys, k), append(vals, v)
	}
	return keys, vals, nil
}

// verdictOf is verdictFailed when !ok, otherwise success.
func verdictOf(ok bool, success string) string {
	if ok {
		return success
	}
	return verdictFailed
}
