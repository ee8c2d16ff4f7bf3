package suite

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/fairhold/fairhold/certify/nist"
	"github.com/fairhold/fairhold/certify/rtp"
	"github.com/fairhold/fairhold/certify/stats"
	"github.com/fairhold/fairhold/certify/strategy"
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/currency"
)

// The checks a requirement can name.
const (
	CheckVectors      = "vectors"
	CheckStatsScheme  = "stats-scheme"
	CheckStatsDecks   = "stats-decks"
	CheckStatsLog     = "stats-log"
	CheckNISTRaw      = "nist-raw"
	CheckMathClaims   = "math-claims"
	CheckReplay       = "replay"
	CheckRTPObserved  = "rtp-observed"
	CheckRTPDecisions = "rtp-decisions"
	CheckCommitments  = "commitments"
)

// Default parameters.
const (
	DefaultAlpha        = 0.01
	DefaultSchemeDecks  = 1_000_000
	DefaultNISTBits     = 1_000_000
	MaxNISTSequences    = 1000
	defaultSchemeSeed   = 1
	defaultSchemeScheme = scheme.FairholdV1Name
)

// AlphaParams are the parameters of the checks that only take a level:
// stats-decks, stats-log, rtp-observed and rtp-decisions.
type AlphaParams struct {
	// Alpha is the family-wise significance level, in (0, 1); default
	// 0.01.
	Alpha float64 `json:"alpha"`
}

// SchemeParams are the parameters of stats-scheme.
type SchemeParams struct {
	// Scheme deals the decks; default "fairhold/v1".
	Scheme string `json:"scheme"`
	// Decks is the number of decks, 5,000 to 4,294,967,295; default
	// 1,000,000.
	Decks uint64 `json:"decks"`
	// Seed derives the public test seeds; default 1.
	Seed  uint64  `json:"seed"`
	Alpha float64 `json:"alpha"`
}

// NISTParams are the parameters of nist-raw.
type NISTParams struct {
	// Bits per sequence, a multiple of 8 of at least 387,840; default
	// 1,000,000.
	Bits int `json:"bits"`
	// Sequences to test; 0 (the default) tests as many as the file holds,
	// at most 1,000.
	Sequences int     `json:"sequences"`
	Alpha     float64 `json:"alpha"`
}

// MathParams are the parameters of math-claims.
type MathParams struct {
	// Strategies selects the claims decided by the strategy they are
	// published under ("optimal", "basic", "side-bet-optimal"); default
	// all.
	Strategies []string `json:"strategies"`
	// Claims selects the claims decided by name (the profile's
	// rtp_claims[].name); default all. With Strategies, a claim must be
	// selected by both.
	Claims []string `json:"claims"`
	// BasicStrategy declares the basic strategy the "basic" claims (and
	// the main game's "side-bet-optimal" one) are published under: a
	// built-in strategy name (`fairhold math --strategy`) or a rules file
	// relative to the suite (docs/math.md). None by default: those claims
	// are then not decided.
	BasicStrategy string `json:"basic_strategy"`
}

// ReplayParams are the parameters of replay.
type ReplayParams struct {
	// Currencies declares currencies' decimals, as `fairhold replay
	// --currency CODE:DECIMALS` does ({"ETH": 18}).
	Currencies map[string]int `json:"currencies"`
	// ManifestKey is the Ed25519 public key (PEM) the logs' manifests must
	// be signed with, relative to the suite file; none by default.
	ManifestKey string `json:"manifest_key"`
}

// CommitmentsParams are the parameters of commitments. Paths are
// relative to the suite file.
type CommitmentsParams struct {
	// Currencies declares currencies' decimals, as for replay.
	Currencies map[string]int `json:"currencies"`
	// Log is the operator's commitment log, a directory
	// (docs/commitment-log.md); none: the requirement is not tested.
	Log string `json:"commitment_log"`
	// LogKey is the log's Ed25519 public key (PEM); required with Log.
	LogKey string `json:"log_key"`
	// Origin is the log's origin; default: the checkpoint's.
	Origin string `json:"log_origin"`
	// Operator, when set, is the operator id every entry used must name.
	Operator string `json:"log_operator"`
	// WitnessKeys are files each holding a trusted witness's C2SP verifier
	// key; WitnessQuorum the cosignatures a checkpoint needs (default 1).
	WitnessKeys   []string `json:"witness_keys"`
	WitnessQuorum int      `json:"witness_quorum"`
	// TSACerts are PEM files of trusted RFC 3161 authorities' roots.
	TSACerts []string `json:"tsa_certs"`
	// Kept are checkpoints of the log kept earlier: the log must be
	// consistent with each.
	Kept []string `json:"kept_checkpoints"`
}

// NoParams are the parameters of vectors: none.
type NoParams struct{}

var (
	casinoGames = []string{layout.CasinoHoldem, layout.LiveCasinoHoldem}
	allGames    = layout.Games()
)

// check is one check: the games it applies to, its parameters' decoder
// and the function that runs it.
type check struct {
	games  []string
	params func(json.RawMessage) (any, error)
	run    func(e *env, r *Requirement) (result, error)
}

// checks are the checks by name.
var checks = map[string]check{
	CheckVectors:      {allGames, decodeParams(func() *NoParams { return &NoParams{} }, nil), checkVectors},
	CheckStatsScheme:  {allGames, decodeParams(defaultScheme, validScheme), checkStatsScheme},
	CheckStatsDecks:   {allGames, decodeParams(defaultAlpha, validAlpha), checkStatsDecks},
	CheckStatsLog:     {casinoGames, decodeParams(defaultAlpha, validAlpha), checkStatsLog},
	CheckNISTRaw:      {allGames, decodeParams(defaultNIST, validNIST), checkNISTRaw},
	CheckMathClaims:   {casinoGames, decodeParams(func() *MathParams { return &MathParams{} }, validMath), checkMathClaims},
	CheckReplay:       {allGames, decodeParams(func() *ReplayParams { return &ReplayParams{} }, validReplay), checkReplay},
	CheckRTPObserved:  {casinoGames, decodeParams(defaultAlpha, validAlpha), checkRTPObserved},
	CheckRTPDecisions: {casinoGames, decodeParams(defaultAlpha, validAlpha), checkRTPDecisions},
	CheckCommitments:  {allGames, decodeParams(func() *CommitmentsParams { return &CommitmentsParams{} }, validCommitments), checkCommitments},
}

// CheckNames returns the names of the checks, sorted.
func CheckNames() []string {
	out := make([]string, 0, len(checks))
	for n := range checks {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// decodeParams returns a decoder of a check's parameters: the defaults,
// overwritten by the members given, then validated.
func decodeParams[T any](defaults func() *T, valid func(*T) error) func(json.RawMessage) (any, error) {
	return func(raw json.RawMessage) (any, error) {
		p := defaults()
		if len(raw) > 0 {
			if err := decodeStrict(raw, p); err != nil {
				return nil, err
			}
		}
		if valid != nil {
			if err := valid(p); err != nil {
				return nil, err
			}
		}
		return p, nil
	}
}

func defaultAlpha() *AlphaParams { return &AlphaParams{Alpha: DefaultAlpha} }

func validAlpha(p *AlphaParams) error { return alphaErr(p.Alpha) }

func alphaErr(a float64) error {
	if !(a > 0 && a < 1) {
		return &Error{Field: "alpha", Err: fmt.Errorf("%v: want a level in (0, 1)", a)}
	}
	return nil
}

func defaultScheme() *SchemeParams {
	return &SchemeParams{Scheme: defaultSchemeScheme, Decks: DefaultSchemeDecks, Seed: defaultSchemeSeed, Alpha: DefaultAlpha}
}

func validScheme(p *SchemeParams) error {
	if _, err := scheme.Lookup(p.Scheme); err != nil {
		return &Error{Field: "scheme", Err: err}
	}
	if p.Decks < stats.MinDecks || p.Decks > 1<<32-1 {
		return &Error{Field: "decks", Err: fmt.Errorf("%d: want %d..%d", p.Decks, stats.MinDecks, uint64(1<<32-1))}
	}
	return alphaErr(p.Alpha)
}

func defaultNIST() *NISTParams { return &NISTParams{Bits: DefaultNISTBits, Alpha: DefaultAlpha} }

func validNIST(p *NISTParams) error {
	if p.Bits < nist.MinBits || p.Bits%8 != 0 {
		return &Error{Field: "bits", Err: fmt.Errorf("%d: want a multiple of 8, at least %d", p.Bits, nist.MinBits)}
	}
	if p.Sequences < 0 || p.Sequences > MaxNISTSequences {
		return &Error{Field: "sequences", Err: fmt.Errorf("%d: want 1..%d, or 0 for as many as the file holds", p.Sequences, MaxNISTSequences)}
	}
	return alphaErr(p.Alpha)
}

var claimStrategies = []string{rtp.StrategyOptimal, rtp.StrategyBasic, rtp.StrategySideBetOptimal}

func validMath(p *MathParams) error {
	if p.Strategies != nil && len(p.Strategies) == 0 {
		return &Error{Field: "strategies", Err: fmt.Errorf("empty: leave it out for every claim")}
	}
	if p.BasicStrategy != "" && !slices.Contains(strategy.Names(), p.BasicStrategy) {
		if err := checkPath(p.BasicStrategy); err != nil {
			return &Error{Field: "basic_strategy", Err: fmt.Errorf("%v, or a built-in strategy (%s)", err, strings.Join(strategy.Names(), ", "))}
		}
	}
	if p.Claims != nil && len(p.Claims) == 0 {
		return &Error{Field: "claims", Err: fmt.Errorf("empty: leave it out for every claim")}
	}
	for i, c := range p.Claims {
		if c == "" || slices.Contains(p.Claims[:i], c) {
			return &Error{Field: fmt.Sprintf("claims[%d]", i), Err: fmt.Errorf("%q: want a claim's name, once", c)}
		}
	}
	for i, s := range p.Strategies {
		if !slices.Contains(claimStrategies, s) {
			return &Error{Field: fmt.Sprintf("strategies[%d]", i), Err: fmt.Errorf("%q: want %s", s, strings.Join(claimStrategies, ", "))}
		}
		if slices.Contains(p.Strategies[:i], s) {
			return &Error{Field: fmt.Sprintf("strategies[%d]", i), Err: fmt.Errorf("%q repeats an earlier strategy", s)}
		}
	}
	return nil
}

func validCommitments(p *CommitmentsParams) error {
	if _, err := currency.NewTable(p.Currencies); err != nil {
		return &Error{Field: "currencies", Err: err}
	}
	if p.Log == "" {
		if p.LogKey != "" || p.Origin != "" || p.Operator != "" || len(p.WitnessKeys) > 0 || p.WitnessQuorum != 0 || len(p.TSACerts) > 0 || len(p.Kept) > 0 {
			return &Error{Field: "commitment_log", Err: fmt.Errorf("missing: the other parameters need it")}
		}
		return nil
	}
	if p.LogKey == "" {
		return &Error{Field: "log_key", Err: fmt.Errorf("missing: the commitment log's public key (PEM) is required")}
	}
	paths := map[string][]string{"commitment_log": {p.Log}, "log_key": {p.LogKey}, "witness_keys": p.WitnessKeys, "tsa_certs": p.TSACerts, "kept_checkpoints": p.Kept}
	for _, field := range []string{"commitment_log", "log_key", "witness_keys", "tsa_certs", "kept_checkpoints"} {
		for _, q := range paths[field] {
			if err := checkPath(q); err != nil {
				return &Error{Field: field, Err: err}
			}
		}
	}
	if p.WitnessQuorum < 0 || p.WitnessQuorum > len(p.WitnessKeys) {
		return &Error{Field: "witness_quorum", Err: fmt.Errorf("%d: want 0..%d (the witness keys given; 0 means 1)", p.WitnessQuorum, len(p.WitnessKeys))}
	}
	return nil
}

func validReplay(p *ReplayParams) error {
	if _, err := currency.NewTable(p.Currencies); err != nil {
		return &Error{Field: "currencies", Err: err}
	}
	if p.ManifestKey != "" {
		if err := checkPath(p.ManifestKey); err != nil {
			return &Error{Field: "manifest_key", Err: err}
		}
	}
	return nil
}
