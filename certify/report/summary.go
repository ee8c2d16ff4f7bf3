package report

import (
	"fmt"
	"strings"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// RenderSummary returns summary.md: a short Markdown summary of a report
// for a pull request, a ticket or a mail. It gives the verdict in words,
// what the certificate names (its id, suite, lab, operator, jurisdiction,
// games and profiles, period), a table of the requirements (status, id,
// text, method, evidence summary), the round ids of each finding code,
// what the suite left out of the built-in one, the limits of the
// evidence, the signing time, the verified signers' key ids, the fairhold
// build, with env the SHA-256 of report.json, and the command that
// verifies the report. Texts of the report are escaped, so that none is
// read as Markdown or HTML.
//
// env is as for [RenderHTML]: the signed report.json the statement comes
// from ([ErrPayloadMismatch] when its payload is not st's encoding), or
// nil. The same statement and envelope give the same bytes.
func RenderSummary(st *Statement, env *dsse.Envelope, verified ...string) ([]byte, error) {
	return RenderSummaryWith(st, env, PageOptions{Verified: verified})
}

// RenderSummaryWith is [RenderSummary] with the options of the page.
func RenderSummaryWith(st *Statement, env *dsse.Envelope, o PageOptions) ([]byte, error) {
	f, err := facts(st, env, o)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# fairhold certification: %s\n\n", f.Verdict.Word)
	fmt.Fprintf(&b, "**%s %s.** %s\n\n", f.Verdict.Symbol, f.Verdict.Word, mdEscape(f.Verdict.Sentence))
	notStated := func(s string) string {
		if s == "" {
			return "not stated"
		}
		return mdEscape(s)
	}
	if f.Version == 1 {
		b.WriteString("A version 1 report: it names no certificate id, suite, lab, operator, jurisdiction, games or period.\n\n")
	} else {
		fmt.Fprintf(&b, "- **Certificate:** %s\n", mdEscape(f.CertificateID))
		if s := f.Suite; s != nil {
			fmt.Fprintf(&b, "- **Suite:** %s", mdEscape(s.Name))
			if s.Version != "" {
				fmt.Fprintf(&b, ", version %s", mdEscape(s.Version))
			}
			switch {
			case s.Builtin:
				b.WriteString(" (built into fairhold)")
			case s.Subject != "":
				fmt.Fprintf(&b, " (file %s)", mdEscape(s.Subject))
			}
			fmt.Fprintf(&b, ", SHA-256 `%s`\n", s.SHA256())
		} else {
			b.WriteString("- **Suite:** none (the statement was made outside a suite)\n")
		}
		fmt.Fprintf(&b, "- **Lab:** %s\n- **Operator:** %s\n- **Jurisdiction:** %s\n", notStated(f.Lab), notStated(f.Operator), notStated(f.Jurisdiction))
		if len(f.Games) == 0 {
			b.WriteString("- **Games:** not stated\n")
		}
		for _, g := range f.Games {
			fmt.Fprintf(&b, "- **Game:** %s, profile %s version %d", mdEscape(g.Game), mdEscape(g.Profile), g.ProfileVersion)
			if g.ProfileSubject != "" {
				fmt.Fprintf(&b, " (file %s)", mdEscape(g.ProfileSubject))
			}
			fmt.Fprintf(&b, ", SHA-256 `%s`\n", g.ProfileHash)
		}
		if f.PeriodFirst != "" {
			fmt.Fprintf(&b, "- **Period of the logs:** %s to %s (the earliest and latest round time logged)\n", f.PeriodFirst, f.PeriodLast)
		} else {
			b.WriteString("- **Period of the logs:** no round log replayed\n")
		}
		b.WriteString("\n")
	}
	if f.Total > 0 {
		b.WriteString("| Status | Requirement | Method | Evidence |\n|---|---|---|---|\n")
		for _, r := range st.Predicate.Requirements {
			w := wordsOfStatus(r.Status)
			fmt.Fprintf(&b, "| %s %s | `%s` %s | %s | %s |\n", w.Symbol, w.Word, r.ID, mdEscape(r.Text), mdEscape(r.Method), mdEscape(r.Evidence.Summary))
		}
		b.WriteString("\n")
	}
	var samples bool
	for _, r := range st.Predicate.Requirements {
		for _, s := range r.Evidence.FindingSamples {
			if !samples {
				b.WriteString("Findings by code, with the first rounds concerned in log order:\n\n")
				samples = true
			}
			fmt.Fprintf(&b, "- `%s` `%s` (%s): ", r.ID, s.Code, groupInt(s.Count))
			for i, id := range s.RoundIDs {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(mdEscape(id))
			}
			switch {
			case len(s.RoundIDs) == 0:
				b.WriteString("no round named (a file or part)")
			case s.Count > int64(len(s.RoundIDs)):
				b.WriteString(", …")
			}
			b.WriteString("\n")
		}
	}
	if samples {
		b.WriteString("\n")
	}
	if n := f.NotInSuite; n != nil {
		if len(n.Requirements)+len(n.Claims) == 0 {
			fmt.Fprintf(&b, "Not in this suite: nothing; it has every requirement and published claim of the built-in suite %s (checks are compared, not their parameters).\n\n", mdEscape(n.Builtin))
		} else {
			fmt.Fprintf(&b, "Not in this suite, compared with the built-in suite %s (not tested; checks are compared, not their parameters):\n\n", mdEscape(n.Builtin))
			for _, r := range n.Requirements {
				fmt.Fprintf(&b, "- not in this suite: `%s` %s (check %s)\n", r.ID, mdEscape(r.Text), mdEscape(r.Check))
			}
			for _, c := range n.Claims {
				fmt.Fprintf(&b, "- not in this suite: the published RTP claim %s (%s strategy), decided by `%s` in the built-in suite\n", mdEscape(c.Name), mdEscape(c.Strategy), c.Requirement)
			}
			b.WriteString("\n")
		}
	}
	if len(f.Limits) > 0 {
		b.WriteString("Limits of the evidence:\n\n")
		for _, l := range f.Limits {
			fmt.Fprintf(&b, "- %s\n", mdEscape(l))
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
	b.WriteString(". Verify it from the directory that holds report.json")
	if f.VerifyPlaceholder {
		b.WriteString(" (KEY.pub stands for each signer's public key file)")
	}
	fmt.Fprintf(&b, ":\n\n```sh\n%s\n```\n", f.VerifyCommand)
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
