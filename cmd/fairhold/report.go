package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/replay/atomicfile"
)

func newReportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Signed certification reports",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newReportVerifyCmd(), newReportRenderCmd(), newReportPDFCmd(), newReportSignCmd())
	return cmd
}

type reportVerifyOptions struct {
	keys          []string
	subjects      string
	signatureOnly bool
	asJSON        bool
}

func newReportVerifyCmd() *cobra.Command {
	var o reportVerifyOptions
	cmd := &cobra.Command{
		Use:   "verify REPORT --key PUB [--key PUB ...]",
		Short: "Verify a report's signatures and the digests of its artefacts",
		Long: `Verify a signed certification report, report.json (docs/report-format.md): a DSSE
envelope holding an in-toto statement.

Every key given with --key must have signed the report, and each signature
under its key id must verify. Signatures by other keys are listed but not
required. Then every subject of the report (each certified artefact) must be
a file under --subjects (default: the report's directory) whose SHA-256 is the
report's; when artefacts are missing there, the error says to name their
directory with --subjects DIR. The file must be exactly as fairhold wrote it:
any edit of report.json, even of white space, is rejected (exit 3).

report.html and summary.md print the command that verifies the report from
the directory that holds report.json, with the signers' key files and the
artefacts' directory as fairhold certify knew them.

The verdict printed is the report's own (pass, fail or incomplete). Verifying
the signature and accepting the verdict are two questions: exit 0 says the
report is authentic, its artefacts are at hand, and the certification passed;
a refused or incomplete certificate exits 3 unless --signature-only asks about
the signatures and artefacts alone.

Exit codes: 0 verified (and, without --signature-only, a pass), 3 a signature
or a subject failed (each is named), the report file is edited, truncated or
not a report, or its verdict is not pass; 2 usage (a key of the wrong type:
the file is named), 1 an I/O error.`,
		Example: `  fairhold report verify out/cert/report.json --key lab.pub
  fairhold report verify report.json --key lab.pub --key regulator.pub --subjects logs/ --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReportVerify(cmd, args[0], o) },
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.keys, "key", nil, "a public key (.pub) that must have signed; repeat for several")
	f.StringVar(&o.subjects, "subjects", "", "the directory of the report's subjects (default: the report's directory)")
	f.BoolVar(&o.signatureOnly, "signature-only", false, "check the signatures and artefacts only: exit 0 for an authentic report whatever its verdict")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("key")
	return cmd
}

// reportInputError makes a malformed file a usage error naming the file.
func reportInputError(file string, err error) error {
	if errors.Is(err, report.ErrMalformed) {
		return usageErrorf("%s: %v", file, err)
	}
	return err
}

// readReport reads the public keys at keyPaths and the signed report at
// path; a malformed file is a usage error naming it.
func readReport(path string, keyPaths []string) ([]*report.PublicKey, *dsse.Envelope, error) {
	keys := make([]*report.PublicKey, len(keyPaths))
	for i, p := range keyPaths {
		k, err := report.ReadPublicKey(p)
		if err != nil {
			return nil, nil, reportInputError(p, err)
		}
		keys[i] = k
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	env, err := report.ParseEnvelope(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %w", errReportMalformed, path, err)
	}
	return keys, env, nil
}

func runReportVerify(cmd *cobra.Command, path string, o reportVerifyOptions) error {
	keys, env, err := readReport(path, o.keys)
	if errors.Is(err, errReportMalformed) {
		// An edited or truncated report is one that does not verify.
		return verificationFailed(err)
	}
	if err != nil {
		return err
	}
	v, err := report.Verify(env, keys...)
	switch {
	case errors.Is(err, report.ErrSignature):
		return printVerification(cmd.OutOrStdout(), v, o.asJSON, true)
	case errors.Is(err, report.ErrDuplicateKey):
		return usageErrorf("--key: %v", err)
	case errors.Is(err, report.ErrMalformed):
		return verificationFailed(fmt.Errorf("%s: %w", path, err))
	case err != nil:
		return err
	}
	dir := o.subjects
	if dir == "" {
		dir = filepath.Dir(path)
	}
	if fi, err := os.Stat(dir); err != nil {
		return fmt.Errorf("failed to read the subjects directory: %w", err)
	} else if !fi.IsDir() {
		return usageErrorf("--subjects: %s is not a directory", dir)
	}
	if err := v.CheckSubjects(os.DirFS(dir)); err != nil && !errors.Is(err, report.ErrSubject) {
		return err
	}
	err = printVerification(cmd.OutOrStdout(), v, o.asJSON, o.signatureOnly)
	if hint := subjectsHint(v, dir, o.subjects != ""); hint != "" && err != nil {
		return verificationFailed(errors.New(hint))
	}
	return err
}

// subjectsHint says, when artefacts of the report are missing under dir,
// how many, and that --subjects names their directory; "" when none is
// missing.
func subjectsHint(v *report.Verification, dir string, given bool) string {
	missing := 0
	for _, s := range v.Subjects {
		if s.Status == report.SubjectMissing {
			missing++
		}
	}
	if missing == 0 {
		return ""
	}
	where := dir + " (the report's directory; --subjects was not given)"
	if given {
		where = dir + " (--subjects)"
	}
	if missing == len(v.Subjects) {
		return fmt.Sprintf("no artefact of the report is under %s: give the directory that holds them with --subjects DIR (the report names them relative to it)", where)
	}
	return fmt.Sprintf("%d of the report's %d artefacts are missing under %s: is --subjects DIR the directory that holds them? (the report names them relative to it)", missing, len(v.Subjects), where)
}

// errReportMalformed marks a report file that could not be parsed.
var errReportMalformed = errors.New("malformed report")

// printVerification prints v and returns errVerificationFailed unless it
// verified and, unless signatureOnly, the report's verdict is pass: a
// refused or incomplete certificate is authentic, and still not one to
// accept.
func printVerification(w io.Writer, v *report.Verification, asJSON, signatureOnly bool) error {
	accepted := v.Verified && (signatureOnly || v.Verdict == report.VerdictPass)
	if asJSON {
		if err := writeResult(w, verdictOf(accepted, verdictVerified), v); err != nil {
			return err
		}
	} else {
		var b strings.Builder
		for _, k := range v.Keys {
			status, why := "ok", ""
			switch k.Status {
			case report.KeyMissing:
				status, why = "MISSING", ": no signature by this key"
			case report.KeyInvalid:
				status, why = "INVALID", ": its signature does not verify"
			}
			fmt.Fprintf(&b, "key        %-9s %-9s %s", status, k.Algorithm, k.KeyID)
			if k.Key != "" {
				fmt.Fprintf(&b, "  %s", k.Key)
			}
			b.WriteString(why + "\n")
		}
		for _, s := range v.Signatures {
			if s.Status == report.SignatureUnknownKey {
				fmt.Fprintf(&b, "signature  unknown             %s  not checked: no --key for it\n", s.KeyID)
			}
		}
		for _, s := range v.Subjects {
			switch s.Status {
			case report.SubjectOK:
				fmt.Fprintf(&b, "subject    ok        %s\n", s.Name)
			case report.SubjectMissing:
				fmt.Fprintf(&b, "subject    MISSING   %s: expected sha256 %s\n", s.Name, s.Expected)
			default:
				fmt.Fprintf(&b, "subject    DIFFERS   %s: expected sha256 %s, actual %s\n", s.Name, s.Expected, s.Actual)
			}
		}
		if v.Statement != nil {
			n := map[report.Status]int{}
			for _, r := range v.Statement.Predicate.Requirements {
				n[r.Status]++
			}
			fmt.Fprintf(&b, "report verdict: %s (%d requirements: %d pass, %d fail, %d not tested; signed %s by fairhold %s)\n",
				v.Verdict, len(v.Statement.Predicate.Requirements), n[report.Pass], n[report.Fail], n[report.NotTested],
				v.Statement.Predicate.Time.Format(time.RFC3339), v.Statement.Predicate.Tool.Version)
		}
		switch {
		case !v.Verified:
			b.WriteString("NOT verified\n")
		case accepted:
			b.WriteString("verified\n")
		default:
			fmt.Fprintf(&b, "verified, but the certificate is not a pass (report verdict %s): not accepted (--signature-only checks the signatures and artefacts alone)\n", v.Verdict)
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	if !accepted {
		return errVerificationFailed
	}
	return nil
}

type reportRenderOptions struct {
	out      string
	keys     []string
	subjects string
	force    bool
	asJSON   bool
}

// reportRenderResult is the JSON of report render --json.
type reportRenderResult struct {
	Out                string         `json:"out"`
	Pages              []string       `json:"pages"`
	ReportVerdict      report.Verdict `json:"report_verdict"`
	SignaturesVerified bool           `json:"signatures_verified"`
}

// The pages report render writes, as fairhold certify writes them beside
// report.json.
const (
	reportHTMLName    = "report.html"
	reportJUnitName   = "report.xml"
	reportSummaryName = "summary.md"
	reportPDFName     = "report.pdf" // fairhold report pdf, fairhold certify --pdf
)

func newReportRenderCmd() *cobra.Command {
	var o reportRenderOptions
	cmd := &cobra.Command{
		Use:   "render REPORT [--out DIR] [--key PUB ...]",
		Short: "Draw a report's pages: report.html, report.xml (JUnit), summary.md",
		Long: `Draw the pages of a signed certification report, report.json, as fairhold
certify draws them: report.html (one self-contained page for people, with the
verdict, each requirement, its evidence and charts), report.xml (JUnit XML for
CI) and summary.md (a short Markdown summary). They are written to --out
(default: the report's directory), each whole or not at all; existing pages
are replaced only with --force.

Without --key the report's signatures are NOT verified: the pages show what
report.json says, whoever wrote it, and name no signer. The page names the
SHA-256 of report.json so that a reader can match it with the file, and prints
the command that verifies it. With --key, every key given must have signed the
report, as with report verify (the artefacts' digests are not checked here); a
report that does not verify is not drawn. The printed command names the key
files given and --subjects DIR, both relative to the report's directory.

Exit codes: 0 written, 3 a required signature failed, 2 malformed input (an
edited or truncated report, a key of the wrong type, a page that exists
without --force), 1 an I/O error.`,
		Example: `  fairhold report render out/cert/report.json
  fairhold report render report.json --key lab.pub --out pages/ --force`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReportRender(cmd, args[0], o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "the directory to write the pages to (default: the report's directory)")
	f.StringArrayVar(&o.keys, "key", nil, "a public key (.pub) that must have signed; repeat for several (default: no verification)")
	f.StringVar(&o.subjects, "subjects", "", "the directory of the report's artefacts, for the verify command the pages print (default: the report's directory)")
	f.BoolVar(&o.force, "force", false, "replace existing pages")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	return cmd
}

// pagesInput is a report read for drawing its pages.
type pagesInput struct {
	st       *report.Statement
	env      *dsse.Envelope
	opts     report.PageOptions
	verified string // "signatures verified" or "signatures not verified"
}

// readForPages reads the report at path for its pages: with keys, its
// signatures must verify (a failure is printed and returned as exit 3);
// the pages' verify command names the key files and the subjects'
// directory relative to the report's directory. Malformed input is a
// usage error naming the file.
func readForPages(cmd *cobra.Command, path string, keyPaths []string, subjects string, asJSON bool) (*pagesInput, error) {
	keys, env, err := readReport(path, keyPaths)
	if errors.Is(err, errReportMalformed) {
		return nil, usageError(err)
	}
	if err != nil {
		return nil, err
	}
	in := &pagesInput{env: env, verified: "signatures not verified", opts: report.PageOptions{KeyFiles: map[string]string{}}}
	dir := filepath.Dir(path)
	if len(keys) > 0 {
		v, err := report.Verify(env, keys...)
		switch {
		case errors.Is(err, report.ErrSignature):
			return nil, printVerification(cmd.OutOrStdout(), v, asJSON, true)
		case errors.Is(err, report.ErrDuplicateKey):
			return nil, usageErrorf("--key: %v", err)
		case err != nil:
			return nil, reportInputError(path, err)
		}
		in.st, in.verified = v.Statement, "signatures verified"
		for i, k := range v.Keys {
			in.opts.Verified = append(in.opts.Verified, k.KeyID)
			if rel, ok := relativeTo(dir, keyPaths[i]); ok {
				in.opts.KeyFiles[k.KeyID] = rel
			}
		}
	} else if in.st, err = report.UnverifiedStatement(env); err != nil {
		return nil, reportInputError(path, err)
	}
	if subjects != "" {
		if fi, err := os.Stat(subjects); err != nil {
			return nil, fmt.Errorf("--subjects: %w", err)
		} else if !fi.IsDir() {
			return nil, usageErrorf("--subjects: %s is not a directory", subjects)
		}
		if rel, ok := relativeTo(dir, subjects); ok && rel != "." {
			in.opts.Subjects = rel
		}
	}
	return in, nil
}

func runReportRender(cmd *cobra.Command, path string, o reportRenderOptions) error {
	in, err := readForPages(cmd, path, o.keys, o.subjects, o.asJSON)
	if err != nil {
		return err
	}
	st, env, verified := in.st, in.env, in.verified
	html, err := report.RenderHTMLWith(st, env, in.opts)
	if err != nil {
		return reportInputError(path, err)
	}
	junit, err := report.RenderJUnitWith(st, env, in.opts)
	if err != nil {
		return reportInputError(path, err)
	}
	summary, err := report.RenderSummaryWith(st, env, in.opts)
	if err != nil {
		return reportInputError(path, err)
	}
	dir := o.out
	if dir == "" {
		dir = filepath.Dir(path)
	}
	if fi, err := os.Stat(dir); err != nil {
		return fmt.Errorf("failed to read the output directory: %w", err)
	} else if !fi.IsDir() {
		return usageErrorf("--out: %s is not a directory", dir)
	}
	pages := []struct {
		name string
		data []byte
	}{{reportHTMLName, html}, {reportJUnitName, junit}, {reportSummaryName, summary}}
	if !o.force {
		for _, p := range pages {
			if _, err := os.Lstat(filepath.Join(dir, p.name)); err == nil {
				return usageErrorf("--out: %s exists; refusing to overwrite (--force to replace the pages)", filepath.Join(dir, p.name))
			}
		}
	}
	for _, p := range pages {
		if err := atomicfile.Write(filepath.Join(dir, p.name), p.data, 0o644, o.force); errors.Is(err, fs.ErrExist) {
			return usageErrorf("--out: %v; refusing to overwrite (--force to replace the pages)", err)
		} else if err != nil {
			return err
		}
	}
	if o.asJSON {
		return writeResult(cmd.OutOrStdout(), verdictOK, reportRenderResult{
			Out: dir, Pages: []string{reportHTMLName, reportJUnitName, reportSummaryName},
			ReportVerdict: st.Predicate.Verdict, SignaturesVerified: len(o.keys) > 0,
		})
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "pages written to %s: %s, %s, %s (verdict %s; %s)\n",
		dir, reportHTMLName, reportJUnitName, reportSummaryName, st.Predicate.Verdict, verified)
	return err
}

type reportSignOptions struct {
	keys         []string
	out          string
	subjects     string
	at           string
	requirements []string
	force        bool
	asJSON       bool
}

// reportSignResult is the JSON of report sign --json.
type reportSignResult struct {
	Out           string         `json:"out"`
	Subjects      int            `json:"subjects"`
	Signatures    int            `json:"signatures"`
	ReportVerdict report.Verdict `json:"report_verdict"`
}

// newReportSignCmd is a hidden command that signs a minimal report of
// files, for tests and the Python example of docs/report-format.md. The
// certify command makes real reports through the same package.
func newReportSignCmd() *cobra.Command {
	var o reportSignOptions
	cmd := &cobra.Command{
		Use:    "sign --key KEY --out REPORT [--requirement ID:STATUS:TEXT ...] SUBJECT...",
		Short:  "Sign a minimal report of files (for tests and examples)",
		Hidden: true,
		Long: `Sign a report whose subjects are the files named (slash-separated paths relative
to --subjects, default: the directory of --out) and whose requirements are
given with --requirement ID:STATUS:TEXT (STATUS pass, fail or not-tested). For
tests and the examples of docs/report-format.md.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReportSign(cmd, args, o) },
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.keys, "key", nil, "a private key (.key) that signs; repeat for several")
	f.StringVar(&o.out, "out", "", "write the report to FILE")
	f.StringVar(&o.subjects, "subjects", "", "the directory of the subjects (default: the directory of --out)")
	f.StringVar(&o.at, "time", "", "the signing time, RFC 3339 (default: now)")
	f.StringArrayVar(&o.requirements, "requirement", nil, "a requirement ID:STATUS:TEXT; repeat for several")
	f.BoolVar(&o.force, "force", false, "overwrite an existing report")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("key")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

func runReportSign(cmd *cobra.Command, names []string, o reportSignOptions) error {
	signedAt := time.Now()
	if o.at != "" {
		var err error
		if signedAt, err = time.Parse(time.RFC3339, o.at); err != nil {
			return usageErrorf("--time: want an RFC 3339 time such as 2026-01-02T15:04:05Z")
		}
	}
	signers := make([]report.Signer, len(o.keys))
	for i, p := range o.keys {
		k, err := report.ReadPrivateKey(p)
		if err != nil {
			return reportInputError(p, err)
		}
		signers[i] = k
	}
	var reqs []report.Requirement
	for _, r := range o.requirements {
		parts := strings.SplitN(r, ":", 3)
		if len(parts) != 3 {
			return usageErrorf("--requirement %q: want ID:STATUS:TEXT", r)
		}
		reqs = append(reqs, report.Requirement{ID: parts[0], Status: report.Status(parts[1]), Text: parts[2]})
	}
	dir := o.subjects
	if dir == "" {
		dir = filepath.Dir(o.out)
	}
	fsys := os.DirFS(dir)
	subjects := make([]report.Subject, len(names))
	for i, name := range names {
		s, err := report.FileSubject(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			return usageErrorf("subject %s: no such file in %s", name, dir)
		}
		if err != nil {
			return fmt.Errorf("subject %s: %w", name, err)
		}
		subjects[i] = s
	}
	st, err := report.NewStatement(subjects, reqs, report.BuildTool(version), signedAt, report.Details{})
	if err != nil {
		return usageErrorf("%v", err)
	}
	env, err := report.Sign(st, signers...)
	if errors.Is(err, report.ErrDuplicateKey) {
		return usageErrorf("--key: %v", err)
	}
	if err != nil {
		return err
	}
	data, err := report.MarshalEnvelope(env)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(o.out, data, 0o644, o.force); errors.Is(err, fs.ErrExist) {
		return usageErrorf("--out: %v; refusing to overwrite (--force to replace it)", err)
	} else if err != nil {
		return err
	}
	if o.asJSON {
		return writeResult(cmd.OutOrStdout(), verdictOK, reportSignResult{
			Out: o.out, Subjects: len(st.Subject), Signatures: len(env.Signatures), ReportVerdict: st.Predicate.Verdict,
		})
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "report written: %s (%d subjects, %d signatures, verdict %s)\n",
		o.out, len(st.Subject), len(env.Signatures), st.Predicate.Verdict)
	return err
}

type reportPDFOptions struct {
	out      string
	keys     []string
	subjects string
	chromium string
	force    bool
	asJSON   bool
}

// reportPDFResult is the JSON of report pdf --json.
type reportPDFResult struct {
	Out                string         `json:"out"`
	Bytes              int            `json:"bytes"`
	CertificateID      string         `json:"certificate_id,omitempty"`
	ReportVerdict      report.Verdict `json:"report_verdict"`
	SignaturesVerified bool           `json:"signatures_verified"`
}

func newReportPDFCmd() *cobra.Command {
	var o reportPDFOptions
	cmd := &cobra.Command{
		Use:   "pdf REPORT [--out FILE] [--key PUB ...] [--subjects DIR] [--chromium PATH]",
		Short: "Print a report's page to PDF, for filing",
		Long: `Print the page of a signed certification report, report.html as 'fairhold
report render' draws it, to PDF with headless Chromium: A4, one requirement a
page, the charts whole, the folded data tables left out. Chromium runs with the
network cut off and a fresh profile; the page itself runs no script and loads
nothing. The PDF's document title names the verdict, the certificate, the
operator and the lab, and its dates are the report's signing time, so that the
same report, Chromium build and fonts give the same file.

It is written to --out (default: report.pdf beside the report), whole or not at
all; an existing file is replaced only with --force. Like the other pages it is
not signed: report.json is the report. --key and --subjects are as for report
render: without --key the signatures are not verified and the page names no
signer.

Chromium is --chromium, or $FAIRHOLD_CHROMIUM, or the first of chromium,
chromium-browser, google-chrome and google-chrome-stable on $PATH (Debian:
apt-get install chromium).

Exit codes: 0 written, 3 a required signature failed, 2 malformed input (an
edited or truncated report, a key of the wrong type, a file that exists without
--force), 1 an I/O error or no Chromium (or Chromium failed).`,
		Example: `  fairhold report pdf out/cert/report.json --key lab.pub
  fairhold report pdf report.json --out filing/ACME-2026-03.pdf --chromium /usr/bin/chromium`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReportPDF(cmd, args[0], o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "the PDF file to write (default: report.pdf beside the report)")
	f.StringArrayVar(&o.keys, "key", nil, "a public key (.pub) that must have signed; repeat for several (default: no verification)")
	f.StringVar(&o.subjects, "subjects", "", "the directory of the report's artefacts, for the verify command the page prints (default: the report's directory)")
	f.StringVar(&o.chromium, "chromium", "", "the Chromium binary (default: $FAIRHOLD_CHROMIUM, or chromium, chromium-browser, google-chrome on $PATH)")
	f.BoolVar(&o.force, "force", false, "replace an existing PDF")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	return cmd
}

func runReportPDF(cmd *cobra.Command, path string, o reportPDFOptions) error {
	out := o.out
	if out == "" {
		out = filepath.Join(filepath.Dir(path), reportPDFName)
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return usageErrorf("--out: %s is a directory; name the PDF file", out)
	}
	if _, err := os.Lstat(out); err == nil && !o.force {
		return usageErrorf("--out: %s exists; refusing to overwrite (--force to replace it)", out)
	}
	chromium, err := report.FindChromium(o.chromium)
	if err != nil {
		return err
	}
	in, err := readForPages(cmd, path, o.keys, o.subjects, o.asJSON)
	if err != nil {
		return err
	}
	html, err := report.RenderHTMLWith(in.st, in.env, in.opts)
	if err != nil {
		return reportInputError(path, err)
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), pdfTimeout)
	defer cancel()
	pdf, err := report.PrintPDF(ctx, chromium, html, in.st.Predicate.Time)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(out, pdf, 0o644, o.force); errors.Is(err, fs.ErrExist) {
		return usageErrorf("--out: %v; refusing to overwrite (--force to replace it)", err)
	} else if err != nil {
		return err
	}
	if o.asJSON {
		return writeResult(cmd.OutOrStdout(), verdictOK, reportPDFResult{
			Out: out, Bytes: len(pdf), CertificateID: in.st.Predicate.CertificateID,
			ReportVerdict: in.st.Predicate.Verdict, SignaturesVerified: len(o.keys) > 0,
		})
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "PDF written: %s (%d bytes; certificate %s, verdict %s; %s)\n",
		out, len(pdf), orNone(in.st.Predicate.CertificateID), in.st.Predicate.Verdict, in.verified)
	return err
}

// orNone is s, or "none" when empty (a version 1 report names no
// certificate).
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
