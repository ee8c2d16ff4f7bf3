package vectors

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

//go:embed fairness/*.json
var fairnessFS embed.FS

// Expectations of a vector.
const (
	FairnessSuccess   = "success"
	FairnessFailure   = "failure"
	FairnessMalformed = "malformed"
)

// FairnessVector is one fairness vector (vectors/README.md). Strings that
// hold bytes are lowercase hex; nonces are decimal strings, because they
// are 64-bit and JSON numbers are not safe above 2^53 in every language.
// Fields hold the raw text of the file, so that malformed vectors can
// carry malformed values.
type FairnessVector struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	// Expect is FairnessSuccess, FairnessFailure or FairnessMalformed.
	Expect string `json:"expect"`
	// Failures lists the checks that fail, in report order (Expect =
	// "failure").
	Failures []string `json:"failures,omitempty"`
	// Field names the malformed input field (Expect = "malformed").
	Field string `json:"field,omitempty"`

	Scheme string `json:"scheme"`
	// Game and Hands select a dealing order; empty Game: the raw sequence.
	Game  string `json:"game,omitempty"`
	Hands int    `json:"hands,omitempty"`
	// Seats and Button (double-holdem): the occupied seat numbers and the
	// button's seat; the hands are dealt starting left of the button.
	Seats  []int `json:"seats,omitempty"`
	Button int   `json:"button,omitempty"`

	ServerSeed string `json:"server_seed"`
	// ClientSeeds keeps an escaped unpaired surrogate as invalid UTF-8
	// ([Strings]), which a verifier must reject.
	ClientSeeds Strings `json:"client_seeds"`
	Nonce       string  `json:"nonce"`

	Commitment  string        `json:"commitment,omitempty"`
	CommittedAt string        `json:"committed_at,omitempty"` // RFC 3339
	Chain       *ChainClaim   `json:"chain,omitempty"`
	Beacon      *BeaconClaim  `json:"beacon,omitempty"`
	UsedNonces  []string      `json:"used_nonces,omitempty"`
	Count       int           `json:"count"`
	Cards       []string      `json:"claimed_cards,omitempty"`
	Expected    *FairnessDeal `json:"expected,omitempty"`
}

// ChainClaim states that the server seed is a link of a hash chain.
type ChainClaim struct {
	Anchor string `json:"anchor"`
	// Steps is the exact distance from the link to the anchor, 1..10^7;
	// absent (nil) means "search, at most MaxSteps", and 0 is malformed
	// (a link is never its own anchor).
	Steps *uint64 `json:"steps,omitempty"`
	// MaxSteps bounds the search; 0 or absent: the default 1,000,000.
	MaxSteps int `json:"max_steps,omitempty"`
}

// BeaconClaim is a drand round mixed into the stream.
type BeaconClaim struct {
	Chain             string `json:"chain"`
	Round             uint64 `json:"round"`
	Signature         string `json:"signature"`
	PreviousSignature string `json:"previous_signature,omitempty"`
}

// FairnessDeal is what an implementation must derive.
type FairnessDeal struct {
	// Prefix is the fairhold/v1 HMAC message prefix, hex.
	Prefix string `json:"prefix,omitempty"`
	// Block0 is the first 32-byte HMAC block of the stream, hex.
	Block0 string `json:"block0"`
	// BeaconRandomness is SHA-256 of the beacon signature, hex.
	BeaconRandomness string `json:"beacon_randomness,omitempty"`
	// Indices are the Count dealt cards as canonical indices 0..51.
	Indices []int `json:"indices"`
	// Cards are the same cards by name ("As").
	Cards []string `json:"cards"`
	// Layout splits Cards by the game's dealing order (Game set).
	Layout *FairnessLayout `json:"layout,omitempty"`
	// Positions names each of the Count positions in words, in dealing
	// order, as a verifier reports them (docs/fairness.md, "Naming
	// positions"): "player, first hole card", ..., "river"; "card 1", ...
	// without a game.
	Positions []string `json:"positions"`
}

// FairnessLayout is a round's cards by position.
type FairnessLayout struct {
	// Hands are the boxes (Casino Hold'em) or seated players (Double
	// Hold'em) in dealing order.
	Hands [][]string `json:"hands"`
	// Seats are the seat numbers of Hands (double-holdem).
	Seats  []int    `json:"seats,omitempty"`
	Dealer []string `json:"dealer,omitempty"`
	Flop   []string `json:"flop"`
	Turn   string   `json:"turn"`
	River  string   `json:"river"`
}

// FairnessFS returns the embedded fairness vector files (fairness/*.json).
func FairnessFS() fs.FS { return fairnessFS }

// Fairness loads every embedded fairness vector, sorted by ID.
func Fairness() ([]FairnessVector, error) {
	return LoadFairness(fairnessFS, "fairness")
}

// LoadFairness loads every *.json file in dir of fsys as a fairness
// vector, sorted by ID.
func LoadFairness(fsys fs.FS, dir string) ([]FairnessVector, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	out := make([]FairnessVector, 0, len(names))
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		v, err := ParseFairness(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if want := strings.TrimSuffix(path.Base(n), ".json"); v.ID != want {
			return nil, fmt.Errorf("%s: id %q, want the file name %q", n, v.ID, want)
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b FairnessVector) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// ErrFairnessVector is wrapped by ParseFairness's errors.
var ErrFairnessVector = errors.New("invalid vector")

// ParseFairness parses one vector file. It rejects unknown fields, trailing
// data, a missing id and an unknown expectation.
func ParseFairness(b []byte) (FairnessVector, error) {
	if !utf8.Valid(b) {
		return FairnessVector{}, fmt.Errorf("%w: not UTF-8 text (a non-UTF-8 string is written with \\u escapes)", ErrFairnessVector)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var v FairnessVector
	if err := dec.Decode(&v); err != nil {
		return FairnessVector{}, fmt.Errorf("%w: %w", ErrFairnessVector, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return FairnessVector{}, fmt.Errorf("%w: trailing data after the vector", ErrFairnessVector)
	}
	if v.ID == "" {
		return FairnessVector{}, fmt.Errorf("%w: missing id", ErrFairnessVector)
	}
	switch v.Expect {
	case FairnessSuccess:
		if len(v.Failures) > 0 || v.Field != "" {
			return FairnessVector{}, fmt.Errorf("%w: %s: expect success with failures or field", ErrFairnessVector, v.ID)
		}
	case FairnessFailure:
		if len(v.Failures) == 0 {
			return FairnessVector{}, fmt.Errorf("%w: %s: expect failure without failures", ErrFairnessVector, v.ID)
		}
	case FairnessMalformed:
		if v.Field == "" {
			return FairnessVector{}, fmt.Errorf("%w: %s: expect malformed without field", ErrFairnessVector, v.ID)
		}
	default:
		return FairnessVector{}, fmt.Errorf("%w: %s: expect %q, want success, failure or malformed", ErrFairnessVector, v.ID, v.Expect)
	}
	return v, nil
}

// Marshal returns the canonical file form of v: indented JSON (two
// spaces), fields in the order of the struct, and a final newline.
func (v FairnessVector) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
