package report

import (
	"fmt"
	"strings"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// RenderSummary returns summary.md: a short Markdown summary of a report
// for a pull request, a ticket or a mail. It gives the verdict in words,
// a table of the requirements (status, id, text, evidence summary), the
// signing time, the signers' key ids, the fairhold build and, with env,
// the SHA-256 of report.json. Texts of the report are escaped, so that
// none is read as Markdown or HTML.
//
// env is as for [RenderHTML]: the signed report.json the statement comes
// from ([ErrPayloadMismatch] when its payload is not st's encoding), or
// nil. The same statement and envelope give the same bytes.
func RenderSummary(st *Statement, env *dsse.Envelope, verified ...string) ([]byte, error) {
	f, err := facts(st, env, verified...)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# fairhold certification: %s\n\n", f.Verdict.Word)
	fmt.Fprintf(&b, "**%s %s.** %s\n\n", f.Verdict.Symbol, f.Verdict.Word, mdEscape(f.Verdict.Sentence))
	if f.Total > 0 {
		b.WriteString("| Status | Requirement | Evidence |\n|---|---|---|\n")
		for _, r := range st.Predicate.Requirements {
			w := wordsOfStatus(r.Status)
			fmt.Fprintf(&b, "| %s %s | `%s` %s | %s |\n", w.Symbol, w.Word, r.ID, mdEscape(r.Text), mdEscape(r.Evidence.Summary))
		}
		b.WriteString("\n")
	}
	if f.Signed {
		fmt.Fprintf(&b, "Signed %s", f.SignedAt)
		for i, s := range f.Signatures {
			if i == 0 {
				b.WriteString(" by ")
			} else {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s key `%s`", s.Algorithm, s.KeyID)
		}
		if len(f.Signatures) > 0 {
			b.WriteString(" (verified)")
		}
		if f.Unverified > 0 {
			fmt.Fprintf(&b, "; %d %s not verified when this summary was drawn: verify report.json with the signers' public keys", f.Unverified, plural(f.Unverified, "signature", "signatures"))
		}
	} else {
		fmt.Fprintf(&b, "Dated %s; not signed: this summary was drawn from an unsigned statement", f.SignedAt)
	}
	fmt.Fprintf(&b, ". %s", mdEscape(f.Tool))
	if f.Revision != "" {
		fmt.Fprintf(&b, ", revision %s", mdEscape(f.Revision))
		if f.Modified {
			b.WriteString(" (modified)")
		}
	}
	b.WriteString(".\n")
	fmt.Fprintf(&b, "%d %s certified by SHA-256", len(st.Subject), plural(len(st.Subject), "artefact", "artefacts"))
	if f.Signed {
		fmt.Fprintf(&b, "; report.json has SHA-256 `%s`", f.ReportSHA)
	}
	b.WriteString(". Verify with `fairhold report verify report.json --key KEY.pub`.\n")
	return []byte(b.String()), nil
}

// mdEscape escapes a text that does not start a line, for a Markdown
// table cell or the middle of a paragraph: the characters Markdown (with
// GitHub's tables and strikethrough) reads there are backslash-escaped,
// those of HTML written as entities, and line breaks become spaces.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		case strings.ContainsRune(mdSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdSpecial are the characters mdEscape escapes with a backslash.
const mdSpecial = "\\`*_[]|~"
