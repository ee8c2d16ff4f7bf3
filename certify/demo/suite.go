package demo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/fairhold/fairhold/certify/suite"
)

// The requirements of the demo's suite. All but [ReqMainOptimal] are the
// built-in casino-holdem suite's, with its texts.
const (
	ReqVectors     = "vectors.engine-conformance"
	ReqSchemeDecks = "stats.scheme-decks"
	ReqLoggedCards = "stats.logged-cards"
	ReqMainOptimal = "math.main-optimal"
	ReqBasicClaims = "math.basic-claims"
	ReqReplay      = "replay.resettle"
	ReqObserved    = "rtp.observed"
	ReqDecisions   = "rtp.decisions"
)

// The built-in suite the demo's is drawn from, and what it leaves out.
const (
	BuiltinSuite = "casino-holdem"
	// ExcludedClaim is the claim left out: the AA Bonus under the optimal
	// strategy.
	ExcludedClaim = "aa-bonus-optimal"
	// MainOptimalClaim is the optimal-strategy claim the demo certifies.
	MainOptimalClaim = "main-optimal"

	builtinOptimalClaims = "math.optimal-claims"
	builtinOperatorDecks = "stats.operator-decks"
	builtinRawNIST       = "stats.raw-nist"
)

// mainOptimalText is the text of [ReqMainOptimal].
const mainOptimalText = "published RTP of the main game reproduced (optimal strategy); the AA Bonus claim under the optimal strategy is left out, as the rules do not give it (docs/math.md)"

// SuiteOptions size the demo's suite.
type SuiteOptions struct {
	// Operator is "clean" or "faulty": the suite is "demo-OPERATOR-operator".
	Operator string
	// Log and Answers are the round log and the engine's answer file,
	// relative to the suite file's directory, slash-separated.
	Log, Answers string
	// Decks is the size of the scheme's deck battery (at least 5,000).
	Decks uint64
	// NoMath leaves out the requirements that need the game's exact
	// solution: the claims and the two return checks.
	NoMath bool
}

// Suite returns the demo's suite file (docs/suite-format.md) for one
// operator: the built-in casino-holdem suite's requirements on the
// operator's round log and engine answers, with the scheme's battery on
// o.Decks decks, the optimal-strategy claims reduced to the main game's by
// name ([ReqMainOptimal]), and without the operator's decks and raw bytes
// requirements (a simulated operator has no RNG output of its own to
// collect).
func Suite(o SuiteOptions) ([]byte, error) {
	s, err := suite.Builtin(BuiltinSuite, ".")
	if err != nil {
		return nil, err
	}
	params := func(v any) json.RawMessage {
		b, _ := json.Marshal(v) // maps of strings and numbers always marshal
		return b
	}
	var reqs []suite.Requirement
	for _, r := range s.Requirements {
		switch r.ID {
		case builtinOperatorDecks, builtinRawNIST:
			continue
		case ReqSchemeDecks:
			r.Params = params(map[string]uint64{"decks": o.Decks})
			r.Text = "per-position chi-square at 99%, and the rest of the deck battery, on " + groupDigits(o.Decks) + " decks of the scheme"
		case builtinOptimalClaims:
			r.ID, r.Text = ReqMainOptimal, mainOptimalText
			r.Params = params(map[string][]string{"strategies": {"optimal"}, "claims": {MainOptimalClaim}})
		}
		if o.NoMath && (r.Check == suite.CheckMathClaims || r.Check == suite.CheckRTPObserved || r.Check == suite.CheckRTPDecisions) {
			continue
		}
		reqs = append(reqs, r)
	}
	want := []string{ReqVectors, ReqSchemeDecks, ReqLoggedCards, ReqMainOptimal, ReqBasicClaims, ReqReplay, ReqObserved, ReqDecisions}
	if o.NoMath {
		want = []string{ReqVectors, ReqSchemeDecks, ReqLoggedCards, ReqReplay}
	}
	var got []string
	for _, r := range reqs {
		got = append(got, r.ID)
	}
	if !slices.Equal(got, want) {
		return nil, fmt.Errorf("the built-in %s suite has changed: the demo's suite would hold %v, want %v", BuiltinSuite, got, want)
	}
	s.Name = "demo-" + o.Operator + "-operator"
	s.Description = "fairhold demo: the " + o.Operator + " operator (simulated) certified with the built-in " + BuiltinSuite +
		" suite's requirements on its round log and engine answers; the AA Bonus claim under the optimal strategy is left out, as the rules do not give the figure the profile publishes (docs/math.md)"
	// The certificate names the operator; no lab (the demo's key is no
	// lab's) and no jurisdiction.
	s.Operator = "the " + o.Operator + " operator (simulated)"
	s.Artefacts = suite.Artefacts{Logs: []string{o.Log}, Answers: o.Answers}
	s.Requirements = reqs
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	// The file must be a suite: parse it back.
	if _, err := suite.Parse(data, s.Name+".json", "."); err != nil {
		return nil, fmt.Errorf("the demo's suite does not parse: %w", err)
	}
	return append(data, '\n'), nil
}

// Exclusions returns what the demo's suite leaves out of the built-in
// one. computed is the AA Bonus RTP the rules give under the optimal
// strategy, in percent ("90.78"), or "" when this run did not compute it.
func Exclusions(claimed, computed string, noMath bool) []Exclusion {
	rules := "the rules give 90.78% (docs/math.md)"
	if computed != "" {
		rules = "the rules give " + computed + "% (computed by this run over every deal; docs/math.md)"
	}
	out := []Exclusion{
		{What: "claim " + ExcludedClaim, Why: "the profile publishes an AA Bonus RTP of " + claimed + "% under the optimal strategy; " + rules +
			", so every operator on this profile fails that claim whatever it does (the built-in suite's " + builtinOptimalClaims +
			"). The demo's suite decides the main game's claim by name instead (" + ReqMainOptimal + ")"},
		{What: builtinOperatorDecks + ", " + builtinRawNIST, Why: "a simulated operator has no RNG output of its own to hand over (the scheme's decks are tested: " + ReqSchemeDecks + ")"},
	}
	if noMath {
		out = append(out, Exclusion{What: "math.*, rtp.*", Why: "left out by --no-math (the exact mathematics)"})
	}
	return out
}

// groupDigits writes n with commas between groups of three digits.
func groupDigits(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
