package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fairhold/fairhold/certify/demo"
	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/certify/rtp"
	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
)

type demoCertifyOptions struct {
	dir           string // the output directory: the suites' directory, the reports' subjects directory
	seed          string
	decks         uint64
	noMath        bool
	workers       int
	opPub         string          // the operator's public key, for the manifests
	clean, faulty string          // the Casino Hold'em logs certified
	have          map[string]bool // the logs simulated
}

// demoCertify certifies the clean and the faulty Casino Hold'em operators
// with the demo's suite and a demo key, judges each certification against
// the faults injected, and verifies each report.
func demoCertify(rep *demo.Report, add func(demo.Step), sub func(string, ...string) subResult, o demoCertifyOptions) {
	inputs := filepath.Join(o.dir, "vectors", "inputs")
	answers := filepath.Join(o.dir, "vectors", "answers.jsonl")
	keyPrefix := filepath.Join(o.dir, demoKeyName)

	// The engine's answers to the test vectors. Both simulated operators
	// run fairhold's engine: they answer with fairhold's own answers.
	args := []string{"vectors", "export", inputs}
	res := sub("exporting the test vectors' inputs", args...)
	add(demo.Step{Who: "lab", Command: strings.Join(args, " "), OK: res.code == exitOK,
		Detail: orExit(res, "the inputs of every test vector, without the expected results: what an operator's engine answers")})
	args = []string{"vectors", "answer", inputs, "--out", answers}
	res = sub("answering the test vectors", args...)
	add(demo.Step{Who: "operator", Command: strings.Join(args, " "), OK: res.code == exitOK,
		Detail: orExit(res, firstLine(res.stdout)+" (the simulated operators run fairhold's engine)")})
	haveAnswers := res.code == exitOK

	// The demo key.
	args = []string{"keys", "new", "--out", keyPrefix, "--json"}
	res = sub("generating the demo key", args...)
	var kf report.KeyFiles
	step := demo.Step{Who: "lab", Command: strings.Join(args, " ")}
	if err := json.Unmarshal([]byte(res.stdout), &kf); err != nil || res.code != exitOK {
		step.Detail = fmt.Sprintf("exit %d: %v %s", res.code, err, firstLine(res.stderr))
	} else {
		step.OK = true
		rep.Key = demo.Key{Algorithm: kf.Algorithm, KeyID: kf.KeyID, Private: kf.PrivateKey, Public: kf.PublicKey, Note: demo.DemoKeyNote}
		id := kf.KeyID
		if len(id) > 12 {
			id = id[:12] + "..."
		}
		step.Detail = fmt.Sprintf("%s key %s (keyid %s): a demo key, made now to sign the demo's reports; it is not a lab's key",
			kf.Algorithm, kf.PublicKey, id)
	}
	add(step)
	haveKey := step.OK

	var claimed, computed string
	if p, err := profile.Builtin(round.CasinoHoldem); err == nil {
		for _, c := range p.RTPClaims {
			if c.Name == demo.ExcludedClaim {
				claimed = c.Percent
			}
		}
	}
	for _, op := range []struct {
		name, log string
	}{{"clean", o.clean}, {"faulty", o.faulty}} {
		cert := demoCertifyOne(add, sub, o, op.name, op.log, answers, haveAnswers && haveKey && o.have[op.log])
		rep.Certificates = append(rep.Certificates, cert)
		if computed == "" && !o.noMath && cert.Verdict != "" {
			computed = demoBonusRTP(cert.Report)
		}
	}
	rep.Excluded = demo.Exclusions(claimed, computed, o.noMath)
}

// demoCertifyOne writes the demo's suite for one operator, certifies it,
// judges the certification and verifies the report.
func demoCertifyOne(add func(demo.Step), sub func(string, ...string) subResult, o demoCertifyOptions, name, log, answers string, ready bool) demo.Certificate {
	suiteFile := filepath.Join(o.dir, name+"-operator.json")
	out := filepath.Join(o.dir, name+"-operator")
	cert := demo.Certificate{Operator: name, Log: log, Suite: suiteFile,
		Report: filepath.Join(out, "report.json"), HTML: filepath.Join(out, reportHTMLName), Injected: []finding.Code{}}
	fail := func(cmd, detail string) demo.Certificate {
		cert.Problems = append(cert.Problems, detail)
		add(demo.Step{Who: "lab", Command: cmd, Detail: detail})
		return cert
	}
	if !ready {
		return fail("certify "+suiteFile, "not run: the log, the answers or the key is missing (an earlier step failed)")
	}
	injected, err := demoInjectedCodes(filepath.Join(log, faultsManifest))
	if err != nil {
		return fail("certify "+suiteFile, err.Error())
	}
	cert.Injected = injected
	rel := func(p string) string {
		r, err := filepath.Rel(o.dir, p)
		if err != nil {
			return filepath.ToSlash(p)
		}
		return filepath.ToSlash(r)
	}
	data, err := demo.Suite(demo.SuiteOptions{Operator: name, Log: rel(log), Answers: rel(answers), Decks: o.decks, NoMath: o.noMath})
	if err == nil {
		err = atomicfile.Write(suiteFile, data, 0o644, true)
	}
	if err != nil {
		return fail("certify "+suiteFile, err.Error())
	}

	args := []string{"certify", suiteFile, "--out", out, "--key", filepath.Join(o.dir, demoKeyName+".key"), "--manifest-key", o.opPub, "--json"}
	if o.workers > 0 {
		args = append(args, "--workers", strconv.Itoa(o.workers))
	}
	what := "certifying the " + name + " operator"
	if !o.noMath {
		what += " (the exact solution of Casino Hold'em over every deal takes about 20 s, once)"
	}
	res := sub(what, args...)
	// certify --json prints the predicate with the command's verdict; the
	// report's own is under "report_verdict".
	var printed struct {
		report.Predicate
		ReportVerdict report.Verdict `json:"report_verdict"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &printed); err != nil {
		return fail(strings.Join(args, " "), fmt.Sprintf("exit %d: %v %s", res.code, err, firstLine(res.stderr)))
	}
	p := printed.Predicate
	p.Verdict = printed.ReportVerdict
	cert.Judgement = demo.Judge(p, injected)
	wantCode := exitOK
	if cert.Expected != report.VerdictPass {
		wantCode = exitVerified
	}
	if res.code != wantCode {
		cert.Problems = append(cert.Problems, fmt.Sprintf("certify exited %d, want %d", res.code, wantCode))
		cert.OK = false
	}
	step := demo.Step{Who: "lab", Command: strings.Join(args, " "), OK: cert.OK}
	passed := cert.Requirements - len(cert.Failing) - len(cert.NotTested)
	switch {
	case !cert.OK:
		step.Detail = fmt.Sprintf("verdict %s, expected %s: %s", cert.Verdict, cert.Expected, strings.Join(cert.Problems, "; "))
	case cert.Expected == report.VerdictPass:
		step.Detail = fmt.Sprintf("verdict pass: %d of %d requirements passed; report signed with the demo key", passed, cert.Requirements)
	default:
		step.Detail = fmt.Sprintf("verdict fail: %s failed, each for injected faults; the replay found exactly the %d injected finding codes",
			strings.Join(cert.Failing, ", "), len(cert.Injected))
	}
	add(step)

	args = []string{"report", "verify", cert.Report, "--key", filepath.Join(o.dir, demoKeyName+".pub"), "--subjects", o.dir}
	res = sub("verifying the "+name+" operator's report", args...)
	// An authentic refusal is verified and not accepted: exit 3.
	want := exitOK
	if cert.Verdict != report.VerdictPass {
		want = exitVerified
	}
	step = demo.Step{Who: "regulator", Command: strings.Join(args, " "), OK: res.code == want && strings.Contains(res.stdout, "verified")}
	if step.OK {
		step.Detail = fmt.Sprintf("the demo key's signature verifies and every certified file matches its SHA-256; %s (exit %d)", lastLineWith(res.stdout, "report verdict:"), res.code)
	} else {
		step.Detail = fmt.Sprintf("exit %d: %s%s", res.code, firstLine(res.stdout), firstLine(res.stderr))
		cert.Problems = append(cert.Problems, "report verify: "+step.Detail)
		cert.OK = false
	}
	add(step)
	return cert
}

// demoInjectedCodes returns the finding codes of a simulation's faults.jsonl,
// sorted, each once.
func demoInjectedCodes(path string) ([]finding.Code, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("failed to open %s: %w", path, err)
	}
	defer f.Close()
	set := map[finding.Code]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var inj sim.Injection
		if err := json.Unmarshal(sc.Bytes(), &inj); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		set[inj.Code] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	out := make([]finding.Code, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	slices.Sort(out)
	return out, nil
}

// demoBonusRTP returns the AA Bonus RTP under the optimal strategy, in
// percent to two decimals, from the main-optimal claim's result in a
// report the demo just wrote; "" when it cannot.
func demoBonusRTP(reportPath string) string {
	data, err := os.ReadFile(reportPath)
	if err != nil {
		return ""
	}
	env, err := report.ParseEnvelope(data)
	if err != nil {
		return ""
	}
	st, err := report.UnverifiedStatement(env)
	if err != nil {
		return ""
	}
	for _, r := range st.Predicate.Requirements {
		if r.ID != demo.ReqMainOptimal {
			continue
		}
		var m rtp.Math
		if json.Unmarshal(r.Evidence.Result, &m) != nil {
			return ""
		}
		q, ok := new(big.Rat).SetString(m.BonusRTPOptimal)
		if !ok {
			return ""
		}
		return q.Mul(q, big.NewRat(100, 1)).FloatString(2)
	}
	return ""
}

func orExit(res subResult, detail string) string {
	if res.code != exitOK {
		return fmt.Sprintf("exit %d: %s", res.code, firstLine(res.stderr))
	}
	return detail
}

// lastLineWith returns the last line of s that starts with prefix.
func lastLineWith(s, prefix string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], prefix) {
			return lines[i]
		}
	}
	return ""
}

// printDemoVerdict prints the one-screen verdict that ends the demo.
func printDemoVerdict(w io.Writer, rep *demo.Report) error {
	var b strings.Builder
	nreq := 0
	for _, c := range rep.Certificates {
		nreq = max(nreq, c.Requirements)
	}
	fmt.Fprintf(&b, "\nCertification of two Casino Hold'em operators, with the same suite (%d requirements)\n", nreq)
	if rep.Key.Public != "" {
		fmt.Fprintf(&b, "signed with a DEMO key made by this run (%s, %s): it shows the mechanism, it is not a lab's key\n",
			rep.Key.Algorithm, rep.Key.Public)
	}
	for _, c := range rep.Certificates {
		b.WriteString("\n")
		word := map[report.Verdict]string{report.VerdictPass: "CERTIFIED", report.VerdictFail: "REFUSED", report.VerdictIncomplete: "NOT CERTIFIED (incomplete)"}[c.Verdict]
		if word == "" {
			word = "NOT CERTIFIED (no report)"
		}
		expect := "as expected"
		if !c.OK {
			expect = "NOT AS EXPECTED"
		}
		head := fmt.Sprintf("  %-16s ", c.Operator+" operator")
		switch {
		case c.Verdict == report.VerdictPass:
			writeWrapped(&b, head, fmt.Sprintf("%s, %s: every requirement passed (%s)", word, expect, strings.Join(c.Passed, ", ")), 104)
		case c.Verdict == report.VerdictFail && c.OK:
			writeWrapped(&b, head, fmt.Sprintf("%s, %s: failed %s, for exactly its injected faults:", word, expect, strings.Join(c.Failing, ", ")), 104)
		default:
			writeWrapped(&b, head, word+", "+expect, 104)
		}
		for _, cause := range c.Causes {
			var text string
			if cause.Requirement == demo.ReqReplay {
				text = fmt.Sprintf("found %d finding codes, exactly the codes of the faults injected: %s", len(c.Findings), codeList(c.Findings))
			} else {
				text = failuresText(cause.Failed)
				if !cause.Certain {
					text += " (a shift these faults make; the test sees it at this many rounds)"
				}
			}
			writeWrapped(&b, fmt.Sprintf("    %-20s", cause.Requirement), text, 104)
		}
		for _, p := range c.Problems {
			writeWrapped(&b, fmt.Sprintf("    %-20s", "problem:"), p, 104)
		}
	}
	if len(rep.Excluded) > 0 {
		b.WriteString("\nNot in the demo's suite (the built-in casino-holdem suite otherwise):\n")
		for _, e := range rep.Excluded {
			writeWrapped(&b, "  - ", e.What+": "+e.Why, 104)
		}
	}
	if len(rep.Certificates) > 0 && rep.Key.Public != "" {
		fmt.Fprintf(&b, "\nVerify a report: fairhold report verify %s --key %s --subjects %s\n",
			rep.Certificates[0].Report, rep.Key.Public, rep.Out)
	}
	verdict := "every step gave the expected result"
	if !rep.OK {
		verdict = "some steps did NOT give the expected result (FAIL above)"
	}
	fmt.Fprintf(&b, "\ndemo: %s; outputs in %s\n", verdict, rep.Out)
	for _, c := range rep.Certificates {
		if c.Verdict != "" {
			fmt.Fprintf(&b, "HTML report, %s operator: %s\n", c.Operator, c.HTML)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// failuresText lists what failed, each run of parts with the same
// explaining codes followed by them: "validity <- CARD_DUPLICATE;
// collisions/deals, collisions/seeds <- NONCE_REUSED".
func failuresText(fs []demo.Failure) string {
	var parts []string
	for i := 0; i < len(fs); {
		j := i + 1
		for j < len(fs) && slices.Equal(fs[j].Codes, fs[i].Codes) {
			j++
		}
		var what []string
		for _, f := range fs[i:j] {
			what = append(what, f.What)
		}
		parts = append(parts, strings.Join(what, ", ")+" <- "+codeList(fs[i].Codes))
		i = j
	}
	return strings.Join(parts, "; ")
}

func codeList(cs []finding.Code) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

// writeWrapped writes text after prefix, wrapped at width columns, the
// continuation lines indented as far as the prefix.
func writeWrapped(b *strings.Builder, prefix, text string, width int) {
	indent := strings.Repeat(" ", len(prefix))
	line := prefix
	for i, word := range strings.Fields(text) {
		if i > 0 && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent + word
			continue
		}
		if i > 0 {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
}
