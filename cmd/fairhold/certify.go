package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/spf13/cobra"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/certify/suite"
	"github.com/fairhold/fairhold/replay/atomicfile"
)

type certifyOptions struct {
	suite   string
	out     string
	keys    []string
	at      string
	workers int
	force   bool
	asJSON  bool
	// The artefacts of a built-in suite.
	logs     []string
	answers  string
	decks    string
	raw      string
	strategy string
	// The operator's published key, for the manifests of the logs.
	manifestKey string
	// What the certificate names besides the suite's results.
	lab, operator, jurisdiction string
	certificateID               string
	// The PDF for filing.
	pdf      bool
	chromium string
}

func newCertifyCmd() *cobra.Command {
	var o certifyOptions
	cmd := &cobra.Command{
		Use:   "certify [SUITE.json] --out DIR --key KEY [--key KEY ...]",
		Short: "Run a certification suite and write the signed report",
		Long: `Run a certification suite (docs/suite-format.md) and write DIR/report.json, the
signed report (docs/report-format.md): a DSSE envelope of an in-toto statement
whose subjects are every certified artefact by SHA-256 and whose predicate holds
each requirement with its status (pass, fail, not-tested) and its evidence.

The suite is a file, SUITE.json, whose paths are relative to it; or a built-in
suite, --suite NAME (` + strings.Join(suite.Names(), ", ") + `), whose artefacts are
given with --logs, --answers, --decks-file, --raw and --strategy, relative to
the current directory. Either way the artefacts must lie under that directory:
the report names them relative to it, and 'fairhold report verify
DIR/report.json --subjects THAT_DIR' checks them. A requirement whose artefact
is not given is not tested.

Beside report.json it writes the report's pages, as 'fairhold report render'
draws them: report.html (for people, with the charts), report.xml (JUnit, for
CI) and summary.md; with --pdf also report.pdf, report.html printed by headless
Chromium for filing ('fairhold report pdf').

The certificate names the suite (its name, version and SHA-256), the games and
rules profiles (with their SHA-256), the period the replayed logs cover, the
method of each requirement, the round ids of each finding code, what a custom
suite leaves out of the built-in suite of its game, and the limits of the
evidence. It names the lab, the operator (the lab's client) and the
jurisdiction as the suite file's "lab", "operator" and "jurisdiction" give
them, or --lab, --operator and --jurisdiction (a flag that contradicts the
suite file is a usage error). Its id is --certificate-id, the lab's own
numbering, or else derived from the statement: "fh-" and 24 hex digits of its
SHA-256 (docs/report-format.md).

The pages print the command that verifies the report from --out, naming the
signers' public keys (KEY.key's KEY.pub when it lies beside it) and the
artefacts' directory relative to --out.

Every --key signs (Ed25519 or ML-DSA-65 private keys from 'fairhold keys new').
--time sets the signing time (default now): the same inputs and --time give the
same files, byte for byte. Each file is written under a temporary name and
renamed; an existing report is replaced only with --force.

--json prints the predicate (the report layer's report.Predicate): every
requirement and its evidence, with the command's verdict (ok, failed or
partial) first and the report's own (pass, fail or incomplete) as
"report_verdict". A line per requirement decided goes to stderr, and every 5
seconds while a long check runs (the replay's rounds, the exact solution's
flop classes) a line of its progress, terminal or not; with --json only with
--progress. Every artefact is read (the logs opened) before the first check
runs, so a malformed one fails at once.

Exit codes: 0 certified (verdict pass), 3 verdict fail or incomplete, 2 usage
or malformed input (the file and field are named), 1 I/O error.`,
		Example: `  fairhold certify suite.json --out cert/ --key lab.key --time 2026-03-01T12:00:00Z
  fairhold certify --suite casino-holdem --logs day1/ --answers answers.jsonl --decks-file decks.txt --out cert/ --key lab.key --key regulator.key
  fairhold certify --suite casino-holdem --logs day1/ --out cert/ --key lab.key --lab "Example Testing Ltd" --operator "ACME Gaming" --jurisdiction Malta --certificate-id LAB-2026-0042 --pdf`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runCertify(cmd, args, &o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.suite, "suite", "", "a built-in suite instead of a file: "+strings.Join(suite.Names(), ", "))
	f.StringVar(&o.out, "out", "", "write report.json (and the report's other files) to this directory")
	f.StringArrayVar(&o.keys, "key", nil, "a private key (.key) that signs the report; repeat for several")
	f.StringVar(&o.at, "time", "", "the signing time, RFC 3339 (default: now)")
	f.IntVar(&o.workers, "workers", 0, "worker goroutines (default: all cores); the report does not depend on it")
	f.BoolVar(&o.force, "force", false, "replace an existing report")
	f.BoolVar(&o.asJSON, "json", false, "print the predicate as JSON")
	f.StringArrayVar(&o.logs, "logs", nil, "--suite: a round log (dataset directory or file); repeat for several")
	f.StringVar(&o.answers, "answers", "", "--suite: the engine's answer file (docs/suite-format.md)")
	f.StringVar(&o.decks, "decks-file", "", "--suite: the operator's decks, one deck a line")
	f.StringVar(&o.raw, "raw", "", "--suite: the operator's raw RNG bytes, for NIST SP 800-22")
	f.StringVar(&o.strategy, "strategy", "", "--suite: the declared strategy file ('fairhold math --strategy-out')")
	f.StringVar(&o.manifestKey, "manifest-key", "", "the operator's published Ed25519 public key (PEM): every replay requirement checks the logs' manifests against it")
	f.StringVar(&o.lab, "lab", "", "the testing laboratory the certificate names (default: the suite file's \"lab\")")
	f.StringVar(&o.operator, "operator", "", "the operator (the lab's client) whose artefacts are certified (default: the suite file's \"operator\")")
	f.StringVar(&o.jurisdiction, "jurisdiction", "", "the jurisdiction the certificate is for (default: the suite file's \"jurisdiction\")")
	f.StringVar(&o.certificateID, "certificate-id", "", "the certificate's id, the lab's numbering: letters, digits and . _ : / - (default: derived from the statement, fh-...)")
	f.BoolVar(&o.pdf, "pdf", false, "also write report.pdf, report.html printed by headless Chromium")
	f.StringVar(&o.chromium, "chromium", "", "--pdf: the Chromium binary (default: $FAIRHOLD_CHROMIUM, or chromium, chromium-browser, google-chrome on $PATH)")
	_ = cmd.MarkFlagRequired("out")
	_ = cmd.MarkFlagRequired("key")
	return cmd
}

func runCertify(cmd *cobra.Command, args []string, o *certifyOptions) error {
	s, err := loadCertifySuite(cmd, args, o)
	if err != nil {
		return err
	}
	signedAt := time.Now()
	if o.at != "" {
		if signedAt, err = time.Parse(time.RFC3339, o.at); err != nil {
			return usageErrorf("--time %q: want an RFC 3339 time such as 2026-01-02T15:04:05Z", o.at)
		}
	}
	if o.workers < 0 {
		return usageErrorf("--workers %d: want 0 (all cores) or more", o.workers)
	}
	signers := make([]report.Signer, len(o.keys))
	for i, p := range o.keys {
		k, err := report.ReadPrivateKey(p)
		if err != nil {
			return reportInputError(p, err)
		}
		signers[i] = k
	}
	if o.certificateID != "" && !report.ValidCertificateID(o.certificateID) {
		return usageErrorf("--certificate-id %q: want 1 to 128 ASCII letters, digits and '.', '_', ':', '/', '-', starting with a letter or digit, not starting with %q (the derived ids' prefix)", o.certificateID, report.CertificateIDPrefix)
	}
	for _, f := range []struct{ flag, value string }{{"--lab", o.lab}, {"--operator", o.operator}, {"--jurisdiction", o.jurisdiction}} {
		if f.value == "" {
			continue
		}
		if err := report.CheckPartyName(f.value); err != nil {
			return usageErrorf("%s: %v", f.flag, err)
		}
	}
	for _, f := range []struct{ flag, member, flagValue, suiteValue string }{
		{"--lab", "lab", o.lab, s.Lab}, {"--operator", "operator", o.operator, s.Operator}, {"--jurisdiction", "jurisdiction", o.jurisdiction, s.Jurisdiction},
	} {
		if f.flagValue != "" && f.suiteValue != "" && f.flagValue != f.suiteValue {
			return usageErrorf("%s %q: the suite file names %s %q; give one or the other", f.flag, f.flagValue, f.member, f.suiteValue)
		}
	}
	var chromium string
	if o.pdf {
		// Found before the checks run: a missing browser fails first.
		if chromium, err = report.FindChromium(o.chromium); err != nil {
			return fmt.Errorf("--pdf: %w", err)
		}
	} else if cmd.Flags().Changed("chromium") {
		return usageErrorf("--chromium: it goes with --pdf")
	}
	if err := checkOutputDir("--out", o.out); err != nil {
		return err
	}
	reportPath := filepath.Join(o.out, "report.json")
	files := certifyFiles
	if o.pdf {
		files = append(slices.Clone(files), reportPDFName)
	}
	if !o.force {
		for _, name := range files {
			if p := filepath.Join(o.out, name); fileExists(p) {
				return usageErrorf("--out: %s exists; refusing to overwrite (--force to replace the report)", p)
			}
		}
	}

	// One line per requirement decided on stderr; in JSON mode only with
	// --progress.
	var log io.Writer = cmd.ErrOrStderr()
	if o.asJSON && progressModeOf(cmd) == progressOff || cmd.Flags().Changed("progress") && progressModeOf(cmd) == progressOff {
		log = nil
	}
	res, err := suite.Run(cmd.Context(), s, suite.Options{Workers: o.workers, Log: log})
	if err != nil {
		if errors.Is(err, suite.ErrInput) {
			return usageError(err)
		}
		return err
	}
	details := res.Details
	details.CertificateID = o.certificateID
	if o.lab != "" {
		details.Lab = o.lab
	}
	if o.operator != "" {
		details.Operator = o.operator
	}
	if o.jurisdiction != "" {
		details.Jurisdiction = o.jurisdiction
	}
	st, err := report.NewStatement(res.Subjects, res.Requirements, report.BuildTool(version), signedAt, details)
	if err != nil {
		return err
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
	po, err := certifyPageOptions(o, s, signers)
	if err != nil {
		return err
	}
	pages, err := reportPages(st, env, po)
	if err != nil {
		return err
	}
	if o.pdf {
		ctx, cancel := context.WithTimeout(cmd.Context(), pdfTimeout)
		pdf, err := report.PrintPDF(ctx, chromium, pages[0].data, st.Predicate.Time)
		cancel()
		if err != nil {
			return fmt.Errorf("--pdf: %w", err)
		}
		pages = append(pages, certifyFile{reportPDFName, pdf})
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("failed to create %s: %w", o.out, err)
	}
	// Each file whole or not at all; report.json, the one that decides,
	// first.
	for _, f := range append([]certifyFile{{"report.json", data}}, pages...) {
		if err := atomicfile.Write(filepath.Join(o.out, f.name), f.data, 0o644, o.force); errors.Is(err, fs.ErrExist) {
			return usageErrorf("--out: %v; refusing to overwrite (--force to replace the report)", err)
		} else if err != nil {
			return err
		}
	}

	w := cmd.OutOrStdout()
	if o.asJSON {
		if err := writeResult(w, certifyVerdict(st.Predicate.Verdict), st.Predicate); err != nil {
			return err
		}
	} else if err := printCertification(w, st, env, reportPath, pages, po); err != nil {
		return err
	}
	if st.Predicate.Verdict != report.VerdictPass {
		return errVerificationFailed
	}
	return nil
}

// reportPages draws the report's pages from the statement and its
// envelope (certify/report): report.html, report.xml (JUnit) and
// summary.md, in that order, as 'fairhold report render' draws them.
func reportPages(st *report.Statement, env *dsse.Envelope, o report.PageOptions) ([]certifyFile, error) {
	html, err := report.RenderHTMLWith(st, env, o)
	if err != nil {
		return nil, err
	}
	junit, err := report.RenderJUnitWith(st, env, o)
	if err != nil {
		return nil, err
	}
	summary, err := report.RenderSummaryWith(st, env, o)
	if err != nil {
		return nil, err
	}
	return []certifyFile{{reportHTMLName, html}, {reportJUnitName, junit}, {reportSummaryName, summary}}, nil
}

// pdfTimeout bounds Chromium's printing of a report.
const pdfTimeout = 2 * time.Minute

// certifyPageOptions are the pages' options of a report certify writes:
// every signer verified (it signed just now), each signer's public key
// file named when KEY.pub lies beside KEY.key and is its public key, and
// the suite's directory as the subjects' directory, both relative to
// --out, where the printed command runs.
func certifyPageOptions(o *certifyOptions, s *suite.Suite, signers []report.Signer) (report.PageOptions, error) {
	po := report.PageOptions{KeyFiles: map[string]string{}}
	for i, k := range signers {
		po.Verified = append(po.Verified, k.KeyID())
		if pub, ok := strings.CutSuffix(o.keys[i], ".key"); ok {
			pub += ".pub"
			if pk, err := report.ReadPublicKey(pub); err == nil && pk.KeyID() == k.KeyID() {
				if rel, ok := relativeTo(o.out, pub); ok {
					po.KeyFiles[k.KeyID()] = rel
				}
			}
		}
	}
	if rel, ok := relativeTo(o.out, s.Dir()); ok && rel != "." {
		po.Subjects = rel
	} else if !ok {
		abs, err := filepath.Abs(s.Dir())
		if err != nil {
			return po, err
		}
		po.Subjects = filepath.ToSlash(abs)
	}
	return po, nil
}

// relativeTo returns target relative to the directory dir,
// slash-separated.
func relativeTo(dir, target string) (string, bool) {
	d, err1 := filepath.Abs(dir)
	t, err2 := filepath.Abs(target)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(d, t)
	if err != nil {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// certifyFile is one file certify writes into --out.
type certifyFile struct {
	name string
	data []byte
}

// certifyFiles are the names of the files certify writes (and
// reportPDFName with --pdf).
var certifyFiles = []string{"report.json", reportHTMLName, reportJUnitName, reportSummaryName}

// loadCertifySuite returns the suite of the file argument or of --suite
// with the artefact flags.
func loadCertifySuite(cmd *cobra.Command, args []string, o *certifyOptions) (*suite.Suite, error) {
	artefactFlags := []string{"logs", "answers", "decks-file", "raw", "strategy"}
	switch {
	case len(args) == 1 && o.suite != "":
		return nil, usageErrorf("give a suite file or --suite, not both")
	case len(args) == 1:
		for _, f := range artefactFlags {
			if cmd.Flags().Changed(f) {
				return nil, usageErrorf("--%s: the suite file names its artefacts; the artefact flags go with --suite", f)
			}
		}
		if _, err := os.Stat(args[0]); err != nil {
			return nil, fmt.Errorf("suite: %w", err)
		}
		s, err := suite.Load(args[0])
		if errors.Is(err, suite.ErrInput) {
			return nil, usageError(err)
		}
		if err != nil {
			return nil, err
		}
		return s, setManifestKey(s, o)
	case o.suite == "":
		return nil, usageErrorf("give a suite file, or --suite with one of %s", strings.Join(suite.Names(), ", "))
	}
	s, err := suite.Builtin(o.suite, ".")
	if err != nil {
		return nil, usageError(fmt.Errorf("--suite: %w", err))
	}
	var a suite.Artefacts
	for _, l := range o.logs {
		p, err := localPath("--logs", l)
		if err != nil {
			return nil, err
		}
		if err := inputExists("--logs", l); err != nil {
			return nil, err
		}
		a.Logs = append(a.Logs, p)
	}
	for _, f := range []struct {
		flag, value string
		dst         *string
	}{
		{"--answers", o.answers, &a.Answers}, {"--decks-file", o.decks, &a.Decks},
		{"--raw", o.raw, &a.Raw}, {"--strategy", o.strategy, &a.Strategy},
	} {
		if f.value == "" {
			continue
		}
		p, err := localPath(f.flag, f.value)
		if err != nil {
			return nil, err
		}
		if err := inputExists(f.flag, f.value); err != nil {
			return nil, err
		}
		*f.dst = p
	}
	if err := s.SetArtefacts(a); err != nil {
		return nil, usageError(err)
	}
	return s, setManifestKey(s, o)
}

// setManifestKey gives the suite's replay requirements --manifest-key,
// relative to the suite's directory (the current one for --suite).
func setManifestKey(s *suite.Suite, o *certifyOptions) error {
	if o.manifestKey == "" {
		return nil
	}
	if err := inputExists("--manifest-key", o.manifestKey); err != nil {
		return err
	}
	if err := s.SetManifestKey(o.manifestKey); err != nil {
		return usageError(fmt.Errorf("--manifest-key: %w", err))
	}
	return nil
}

// localPath returns p relative to the current directory, slash-separated,
// or a usage error when it lies outside it.
// inputExists fails with an error of the environment (exit 1) when the
// input file or directory p, given with flag, cannot be found.
func inputExists(flag, p string) error {
	if _, err := os.Stat(p); err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	return nil
}

func localPath(flag, p string) (string, error) {
	rel := filepath.Clean(p)
	if filepath.IsAbs(rel) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		if rel, err = filepath.Rel(wd, rel); err != nil {
			return "", usageErrorf("%s %s: %v", flag, p, err)
		}
	}
	if !filepath.IsLocal(rel) {
		return "", usageErrorf("%s %s: outside the current directory; run fairhold from a directory that holds every artefact (the report names them relative to it)", flag, p)
	}
	return filepath.ToSlash(rel), nil
}

// printCertification prints each requirement, the verdict, the
// certificate's id and how to verify the report.
func printCertification(w io.Writer, st *report.Statement, env *dsse.Envelope, path string, pages []certifyFile, po report.PageOptions) error {
	var b strings.Builder
	for _, r := range st.Predicate.Requirements {
		status := map[report.Status]string{report.Pass: "PASS", report.Fail: "FAIL", report.NotTested: "NOT TESTED"}[r.Status]
		fmt.Fprintf(&b, "%-10s %s: %s\n", status, r.ID, r.Text)
		if r.Evidence.Summary != "" {
			fmt.Fprintf(&b, "           %s\n", r.Evidence.Summary)
		}
	}
	names := make([]string, len(pages))
	for i, p := range pages {
		names[i] = p.name
	}
	fmt.Fprintf(&b, "\nverdict:     %s (%d requirements, %d subjects, %d signatures)\ncertificate: %s\nreport:      %s (signed), with %s beside it\n",
		strings.ToUpper(string(st.Predicate.Verdict)), len(st.Predicate.Requirements), len(st.Subject), len(env.Signatures),
		st.Predicate.CertificateID, path, englishList(names))
	cmdline, _, err := report.VerifyCommand(st, env, po)
	if err != nil {
		return err
	}
	fmt.Fprintf(&b, "verify:      (cd %s && %s)\n", report.ShellQuote(filepath.ToSlash(filepath.Dir(path))), cmdline)
	_, err = io.WriteString(w, b.String())
	return err
}

// englishList joins names as "a, b and c".
func englishList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// certifyVerdict is the command's verdict for a report's: pass is ok, fail
// failed, incomplete partial. The report's own is printed as
// "report_verdict".
func certifyVerdict(v report.Verdict) string {
	switch v {
	case report.VerdictPass:
		return verdictOK
	case report.VerdictIncomplete:
		return verdictPartial
	}
	return verdictFailed
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
