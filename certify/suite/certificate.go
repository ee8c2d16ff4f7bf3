package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/replayer"
)

// What a certificate says of itself besides its requirements
// (docs/report-format.md section 5, version 2): the suite, the games and
// profiles, the period of the logs, what a custom suite leaves out of the
// built-in one, the method of each check and the limits of the evidence.

// Methods are the method or standard each check follows, in a few words:
// the "method" of its requirements in the report. They name documents of
// this repository and published standards, never a clause of a standard
// the check does not follow to the letter.
var Methods = map[string]string{
	CheckVectors:      "comparison of the engine's answers with fairhold's test vectors (vectors/README.md; docs/suite-format.md section 4)",
	CheckStatsScheme:  "fairhold's deck battery (docs/statistics.md): chi-square tests of cards by position and the battery's other tests under its multiple-testing policy, on decks the scheme deals from public test seeds",
	CheckStatsDecks:   "fairhold's deck battery (docs/statistics.md): chi-square tests of cards by position and the battery's other tests under its multiple-testing policy, on the operator's decks",
	CheckStatsLog:     "fairhold's log battery (docs/statistics.md): the cards every round deals before any decision",
	CheckNISTRaw:      "NIST SP 800-22 rev. 1a: its 15 tests and its second-level rules (proportion and uniformity of the P-values)",
	CheckMathClaims:   "exact enumeration of all 27,813,810,024,000 deals (docs/math.md)",
	CheckReplay:       "re-deal of every logged round from its seeds (docs/fairness.md) and re-settlement under the rules profile, with the checks across rounds and against the manifests (docs/findings.md)",
	CheckRTPObserved:  "exact expectation of each decision taken over its 1,070,190 completions; observed RTP of each bet type inside its interval, Bonferroni-corrected (docs/suite-format.md section 6)",
	CheckRTPDecisions: "exact expectation of each decision taken over its 1,070,190 completions; two-sided test of the summed deviations of the returns (docs/suite-format.md section 6)",
	CheckCommitments:  "each seed session's commitment looked up in the operator's C2SP tlog-tiles commitment log, its time of publication from C2SP tlog-cosignature witness cosignatures and RFC 3161 tokens (docs/commitment-log.md, docs/replay.md \"Commitment log\")",
}

// The limits of the evidence: plain sentences, each stated when the suite
// has a check it concerns (docs/threat-model.md section 4,
// docs/report-format.md section 10).
var (
	limitArtefacts = "The report certifies the artefacts it names, by their SHA-256, as they were given to the lab: not the operator's systems, nor its logs before or after them."
	limitsReplay   = []string{
		"Every time, seed and client seed in a round log is the operator's word: the replay holds the log to itself, its rules profile and its manifest, not to what the players saw.",
		"A server seed chosen after the client seed was seen passes every check of the log unless the commitments were published with a trusted timestamp or to a transparency log the operator does not control.",
		"From several commitments published in advance the operator can choose which one serves a session: the replay stops a seed serving twice, not that choice.",
		"Rounds dropped at the end of a session, or made up in sequence with the wallets chained again, are found only against the players' receipts or a manifest signed and published when the day closed.",
		"A consistent rewrite of the whole history, manifest included, is found only against manifests signed with a key published beforehand and published when written.",
		"A log names client seeds, not who chose them: a client seed the player never chose, or a rotation the player never asked for, is found only against the players' own records (ROTATION_RATE flags a table that rotates too often).",
		"Balances are chained per player id: money taken across a change of player id is found only by reconciling the operator's wallet ledger.",
	}
	limitCommitments  = "The commitment log shows when a commitment was public by the evidence of the witnesses and time-stamping authorities the suite trusts, compared with the session's first round's logged time: not when the player's client seed was taken, nor that the player saw the commitment (the players' receipts show that)."
	limitDoubleButton = "At Double Hold'em the button is as logged: the replay does not follow it from hand to hand."
	limitStatistics   = "A statistical test bounds the bias it would miss; a pass does not prove the output random, and at the 99% level about one test in a hundred fails by chance (docs/statistics.md)."
	limitSupplied     = "The decks and raw bytes tested are the ones the operator supplied: the report does not show that they came from the generator in service."
	limitVectors      = "The engine's answers are what the operator's engine gave for the exported inputs: they do not show that the same engine runs in service."
	limitMath         = "The published RTP claims are decided for the rules profile named, not for the game as it runs: the replay and the return checks hold the logs to that profile."
	limitReturns      = "The return checks take the logged decisions as given and condition on the cards dealt before them: cards dealt unevenly before a decision are for the deck and log batteries."
)

// limits returns the limits of the evidence of the suite's checks, in a
// fixed order.
func (s *Suite) limits() []string {
	has := func(checks ...string) bool {
		return slices.ContainsFunc(s.Requirements, func(r Requirement) bool { return slices.Contains(checks, r.Check) })
	}
	out := []string{limitArtefacts}
	if has(CheckReplay) {
		out = append(out, limitsReplay...)
		if s.Game == profile.GameDoubleHoldem {
			out = append(out, limitDoubleButton)
		}
	}
	if has(CheckCommitments) {
		out = append(out, limitCommitments)
	}
	if has(CheckStatsScheme, CheckStatsDecks, CheckStatsLog, CheckNISTRaw) {
		out = append(out, limitStatistics)
	}
	if has(CheckStatsDecks, CheckNISTRaw) {
		out = append(out, limitSupplied)
	}
	if has(CheckVectors) {
		out = append(out, limitVectors)
	}
	if has(CheckMathClaims) {
		out = append(out, limitMath)
	}
	if has(CheckRTPObserved, CheckRTPDecisions) {
		out = append(out, limitReturns)
	}
	return out
}

// SHA256 returns the SHA-256 of the suite's definition in hex: of the
// suite file's bytes as [Parse] read them, or of the built-in suite's
// file; "" for a Suite not parsed from one. What changes after parsing
// ([Suite.SetArtefacts], [Suite.SetManifestKey], the fields) is not in
// it: the artefacts and a manifest key are subjects of the report.
func (s *Suite) SHA256() string { return s.digest }

func digestOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// details returns what the statement names besides the requirements.
// periods are the replay requirements' periods.
func (e *env) details(periods []*replayer.Period) (report.Details, error) {
	s := e.s
	d := report.Details{Lab: s.Lab, Operator: s.Operator, Jurisdiction: s.Jurisdiction, Limits: s.limits()}
	if s.digest != "" {
		// A suite made in Go, not parsed from a file, has no definition to
		// name.
		d.Suite = &report.SuiteRef{Name: s.Name, Version: s.Version, Digest: map[string]string{report.DigestAlgorithm: s.digest}, Builtin: isBuiltin(s)}
		if names := e.names["suite"]; len(names) == 1 {
			d.Suite.Subject = names[0]
		}
	}
	g := report.GameProfile{Game: s.Game, Profile: e.prof.Name, ProfileVersion: e.prof.Version, ProfileHash: e.prof.Hash()}
	if names := e.names["profile"]; len(names) == 1 {
		g.ProfileSubject = names[0]
	}
	d.Games = []report.GameProfile{g}
	for _, p := range periods {
		if p == nil {
			continue
		}
		first, err1 := time.Parse(time.RFC3339Nano, p.First)
		last, err2 := time.Parse(time.RFC3339Nano, p.Last)
		if err1 != nil || err2 != nil {
			return d, fmt.Errorf("the replay's period %q to %q: not RFC 3339", p.First, p.Last)
		}
		first, last = first.UTC(), last.UTC()
		if d.Period == nil {
			d.Period = &report.Period{First: first, Last: last}
			continue
		}
		if first.Before(d.Period.First) {
			d.Period.First = first
		}
		if last.After(d.Period.Last) {
			d.Period.Last = last
		}
	}
	n, err := s.notInSuite(e.prof)
	if err != nil {
		return d, err
	}
	d.NotInSuite = n
	return d, nil
}

// notInSuite compares a custom suite with the built-in suite of its game:
// the built-in requirements whose check the suite does not run, and the
// published claims of prof that the built-in suite decides and the suite
// does not. A built-in math-claims requirement counts as kept when the
// suite has a math-claims requirement that decides at least one of its
// claims (or it selects none of prof's). Parameters are not compared. Nil
// for a built-in suite.
func (s *Suite) notInSuite(prof *profile.Profile) (*report.NotInSuite, error) {
	if isBuiltin(s) {
		return nil, nil
	}
	b, err := Builtin(s.Game, s.dir)
	if err != nil {
		return nil, fmt.Errorf("the built-in suite of %s: %w", s.Game, err)
	}
	if err := b.decodeParams(); err != nil {
		return nil, err
	}
	checks := map[string]bool{}
	decided := map[string]bool{} // the claims the suite decides
	for _, r := range s.Requirements {
		checks[r.Check] = true
		if p, ok := r.params.(*MathParams); ok {
			for _, c := range selectedClaims(p, prof) {
				decided[c.Name] = true
			}
		}
	}
	out := &report.NotInSuite{Builtin: b.Name, Requirements: []report.OmittedRequirement{}, Claims: []report.OmittedClaim{}}
	listed := map[string]bool{}
	for _, r := range b.Requirements {
		kept := checks[r.Check]
		if p, ok := r.params.(*MathParams); ok {
			sel := selectedClaims(p, prof)
			some := len(sel) == 0
			for _, c := range sel {
				if decided[c.Name] {
					some = true
					continue
				}
				if !listed[c.Name] {
					listed[c.Name] = true
					out.Claims = append(out.Claims, report.OmittedClaim{Name: c.Name, Strategy: c.Strategy, Requirement: r.ID})
				}
			}
			kept = kept && some
		}
		if !kept {
			out.Requirements = append(out.Requirements, report.OmittedRequirement{ID: r.ID, Text: r.Text, Check: r.Check})
		}
	}
	return out, nil
}

// selectedClaims returns the claims of prof a math-claims requirement
// decides: those published under one of its strategies (all without) and
// named among its claims (all without).
func selectedClaims(p *MathParams, prof *profile.Profile) []profile.RTPClaim {
	var out []profile.RTPClaim
	for _, c := range prof.RTPClaims {
		if (p.Strategies == nil || slices.Contains(p.Strategies, c.Strategy)) && (p.Claims == nil || slices.Contains(p.Claims, c.Name)) {
			out = append(out, c)
		}
	}
	return out
}
