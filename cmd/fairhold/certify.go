package main

import (
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
CI) and summary.md.

Every --key signs (Ed25519 or ML-DSA-65 private keys from 'fairhold keys new').
--time sets the signing time (default now): the same inputs and --time give the
same files, byte for byte. Each file is written under a temporary name and
renamed; an existing report is replaced only with --force.

--json prints the predicate (the report layer's report.Predicate): every
requirement and its evidence, with the command's verdict (ok, failed or
partial) first and the report's own (pass, fail or incomplete) as
"report_verdict". A line per requirement decided goes to stderr, with --json
only with --progress.

Exit codes: 0 certified (verdict pass), 3 verdict fail or incomplete, 2 usage
or malformed input (the file and field are named), 1 I/O error.`,
		Example: `  fairhold certify suite.json --out cert/ --key lab.key --time 2026-03-01T12:00:00Z
  fairhold certify --suite casino-holdem --logs day1/ --answers answers.jsonl --decks-file decks.txt --out cert/ --key lab.key --key regulator.key`,
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
	if err := checkOutputDir("--out", o.out); err != nil {
		return err
	}
	reportPath := filepath.Join(o.out, "report.json")
	if !o.force {
		for _, name := range certifyFiles {
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
	st, err := report.NewStatement(res.Subjects, res.Requirements, report.BuildTool(version), signedAt)
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
	ids := make([]string, len(signers))
	for i, k := range signers {
		ids[i] = k.KeyID()
	}
	pages, err := reportPages(st, env, ids...)
	if err != nil {
		return err
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
	} else if err := printCertification(w, st, reportPath, len(env.Signatures)); err != nil {
		return err
	}
	if st.Predicate.Verdict != report.VerdictPass {
		return errVerificationFailed
	}
	return nil
}

// reportPages draws the report's pages from the statement and its
// envelope (certify/report): report.html, report.xml (JUnit) and
// summary.md, as 'fairhold report render' draws them.
func reportPages(st *report.Statement, env *dsse.Envelope, verified ...string) ([]certifyFile, error) {
	html, err := report.RenderHTML(st, env, verified...)
	if err != nil {
		return nil, err
	}
	junit, err := report.RenderJUnit(st)
	if err != nil {
		return nil, err
	}
	summary, err := report.RenderSummary(st, env, verified...)
	if err != nil {
		return nil, err
	}
	return []certifyFile{{reportHTMLName, html}, {reportJUnitName, junit}, {reportSummaryName, summary}}, nil
}

// certifyFile is one file certify writes into --out.
type certifyFile struct {
	name string
	data []byte
}

// certifyFiles are the names of the files certify writes.
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

// printCertification prints each requirement and the verdict.
func printCertification(w io.Writer, st *report.Statement, path string, sigs int) error {
	var b strings.Builder
	for _, r := range st.Predicate.Requirements {
		status := map[report.Status]string{report.Pass: "PASS", report.Fail: "FAIL", report.NotTested: "NOT TESTED"}[r.Status]
		fmt.Fprintf(&b, "%-10s %s: %s\n", status, r.ID, r.Text)
		if r.Evidence.Summary != "" {
			fmt.Fprintf(&b, "           %s\n", r.Evidence.Summary)
		}
	}
	fmt.Fprintf(&b, "\nverdict: %s (%d requirements, %d subjects, %d signatures)\nreport:  %s (signed), with %s, %s and %s beside it\n",
		strings.ToUpper(string(st.Predicate.Verdict)), len(st.Predicate.Requirements), len(st.Subject), sigs, path,
		reportHTMLName, reportJUnitName, reportSummaryName)
	_, err := io.WriteString(w, b.String())
	return err
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
