// Package pageround is the round a player checks on the verifier page
// (docs/verifier-page.md): its link format (the URL fragment that carries
// it), its verification (the JSON of `fairhold verify --json`) and its
// settlement (the JSON of `fairhold settle --json`). The WebAssembly build
// of the page (cmd/fairhold/wasm) and the commands that print links
// (`fairhold verify --link`, `fairhold replay --explain`) share it, so that
// the page and the command line give the same answers.
//
// Start with [Round], [Decode] and [Verify].
package pageround

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fairhold/fairhold/certify/conformance"
	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/settle"
	"github.com/fairhold/fairhold/vectors"
)

// Version is the link format's version, the first member of the fragment.
const Version = 1

// FragmentKey is the fragment's key: a link ends in "#r=" and the
// base64url (no padding) of the round's compact JSON.
const FragmentKey = "r"

// Round is one round as the page reads it: the input fields of a fairness
// vector (vectors/README.md), plus the player's bets as a round record
// (docs/log-format.md) for the settlement.
type Round struct {
	// V is the link format's version, [Version].
	V int `json:"v"`

	Scheme      string               `json:"scheme"`
	Game        string               `json:"game,omitempty"`
	Hands       int                  `json:"hands,omitempty"`
	Seats       []int                `json:"seats,omitempty"`
	Button      int                  `json:"button,omitempty"`
	ServerSeed  string               `json:"server_seed"`
	ClientSeeds []string             `json:"client_seeds"`
	Nonce       string               `json:"nonce"`
	Commitment  string               `json:"commitment,omitempty"`
	CommittedAt string               `json:"committed_at,omitempty"`
	Chain       *vectors.ChainClaim  `json:"chain,omitempty"`
	Beacon      *vectors.BeaconClaim `json:"beacon,omitempty"`
	UsedNonces  []string             `json:"used_nonces,omitempty"`
	Count       int                  `json:"count,omitempty"`
	Cards       []string             `json:"claimed_cards,omitempty"`
	// Bets are the player's Casino Hold'em bets, one a box, as the page's
	// form takes them. Optional.
	Bets []Bet `json:"bets,omitempty"`
	// Currency is the currency of the bets' amounts (an ISO 4217 code or a
	// crypto ticker, docs/log-format.md section 1): the page shows the
	// amounts in its units ("EUR 1.00" for an ANTE of 100). Optional; a
	// round record's own currency takes precedence.
	Currency string `json:"currency,omitempty"`
	// Round is a round record (docs/log-format.md) from the casino's
	// history: the bets and decisions of every box, or a Double Hold'em
	// hand's seats, stacks and actions. The page settles it with the cards
	// the seeds deal, and compares the returns it records with the
	// settlement. Optional; when given, Bets are not used.
	Round json.RawMessage `json:"round,omitempty"`
}

// Bet is one Casino Hold'em box's bets and decision.
type Bet struct {
	Box      int    `json:"box"`
	Ante     int64  `json:"ante"`
	Bonus    int64  `json:"bonus,omitempty"`
	Decision string `json:"decision"` // "call" or "fold"
	// Paid is what the casino paid back for the box in total (ANTE, CALL
	// and AA Bonus returns), to compare with the settlement. Optional.
	Paid *int64 `json:"paid,omitempty"`
}

// Vector returns r's fairness-vector fields (the page's JavaScript deals
// from the same object).
func (r Round) Vector() vectors.FairnessVector {
	return vectors.FairnessVector{
		Scheme: r.Scheme, Game: r.Game, Hands: r.Hands, Seats: r.Seats, Button: r.Button,
		ServerSeed: r.ServerSeed, ClientSeeds: r.ClientSeeds, Nonce: r.Nonce,
		Commitment: r.Commitment, CommittedAt: r.CommittedAt, Chain: r.Chain, Beacon: r.Beacon,
		UsedNonces: r.UsedNonces, Count: r.Count, Cards: r.Cards,
	}
}

// Parse decodes a round's JSON. Unknown fields are an error, except the
// fields of a fairness vector that say what it expects (id, description,
// expect, failures, field, expected), which are ignored, so that a vector
// file can be pasted as it is.
func Parse(b []byte) (Round, error) {
	// encoding/json would read bytes that are not UTF-8 as U+FFFD, and so
	// a client seed the player never gave (docs/fairness.md section 4).
	if !utf8.Valid(b) {
		return Round{}, errors.New("round: not UTF-8 text (text is never repaired: docs/fairness.md section 4)")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return Round{}, fmt.Errorf("round: %w", err)
	}
	for _, k := range []string{"id", "description", "expect", "failures", "field", "expected"} {
		delete(raw, k)
	}
	clean, err := json.Marshal(raw)
	if err != nil {
		return Round{}, fmt.Errorf("round: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.DisallowUnknownFields()
	var r Round
	if err := dec.Decode(&r); err != nil {
		return Round{}, fmt.Errorf("round: %w", err)
	}
	// The client seeds as a vector reads them (it may keep what
	// encoding/json would replace, to reject it).
	if cs, ok := raw["client_seeds"]; ok {
		var fv vectors.FairnessVector
		if err := json.Unmarshal([]byte(`{"client_seeds":`+string(cs)+`}`), &fv); err != nil {
			return Round{}, fmt.Errorf("round: client_seeds: %w", err)
		}
		r.ClientSeeds = fv.ClientSeeds
	}
	if r.V != 0 && r.V != Version {
		return Round{}, fmt.Errorf("round: link format version %d, this page reads version %d", r.V, Version)
	}
	if r.Currency != "" && !currency.ValidCode(r.Currency) {
		return Round{}, fmt.Errorf("round: currency %q: want %s", r.Currency, currency.CodeForm)
	}
	r.normalize()
	return r, nil
}

// normalize fills in what the game implies: the number of hands of a
// Casino Hold'em or Double Hold'em round and the number of cards a round
// deals (without a game: the claimed cards').
//
// A link may leave "hands" out whether or not it gives "count": Casino
// Hold'em has one box and Double Hold'em one hand a seat, as the
// JavaScript implementation reads it. Live Casino Hold'em needs it ([Verify]
// says so).
func (r *Round) normalize() {
	if r.Hands == 0 {
		switch r.Game {
		case layout.CasinoHoldem:
			r.Hands = 1
		case layout.DoubleHoldem:
			r.Hands = len(r.Seats)
		}
	}
	if r.Count == 0 && r.Game != "" {
		if l, err := layout.For(r.Game, r.Hands); err == nil {
			r.Count = l.Count
		}
	}
	if r.Count == 0 && r.Game == "" {
		r.Count = len(r.Cards)
	}
}

// Fragment returns the URL fragment (without "#") that carries r.
func Fragment(r Round) (string, error) {
	r.V = Version
	r.normalize()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return "", err
	}
	return FragmentKey + "=" + base64.RawURLEncoding.EncodeToString(bytes.TrimSpace(b.Bytes())), nil
}

// Link returns the page's URL base with r's fragment.
func Link(base string, r Round) (string, error) {
	f, err := Fragment(r)
	if err != nil {
		return "", err
	}
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base = base[:i]
	}
	return base + "#" + f, nil
}

// Decode parses a link or its fragment ("r=..." with or without "#").
func Decode(link string) (Round, error) {
	if i := strings.IndexByte(link, '#'); i >= 0 {
		link = link[i+1:]
	}
	v, ok := strings.CutPrefix(link, FragmentKey+"=")
	if !ok {
		return Round{}, fmt.Errorf("link: want a fragment %q followed by the round", FragmentKey+"=")
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(v, "="))
	if err != nil {
		return Round{}, fmt.Errorf("link: the round is not base64url: %w", err)
	}
	return Parse(b)
}

// Verdict is the outcome of verifying a round: the JSON of `fairhold verify
// --json` with its verdict: "verified" (every check passed and every card
// the round deals was claimed and matches), "partial" (every check passed,
// but the claim has fewer cards than the round deals) or "failed"; or
// "error" for a claim that cannot be checked, with Field and Error.
type Verdict struct {
	// Result is "verified", "partial", "failed" or "error".
	Result string `json:"verdict"`
	check.Verdict
	// Field and Error name the malformed input (verdict "error").
	Field string `json:"field,omitempty"`
	Error string `json:"error,omitempty"`
}

// Verify checks r: [check.NewVerdict] of its claim, what `fairhold verify
// --json` prints for it.
func Verify(r Round) Verdict {
	r.normalize()
	if r.Game == layout.LiveCasinoHoldem && r.Hands == 0 {
		// The field the JavaScript implementation names, rather than the
		// count a missing number of boxes leaves unknown.
		return Verdict{Result: "error", Field: "game", Error: "game: live-casino-holdem needs hands, the boxes in play (1..6)"}
	}
	c, err := conformance.FairnessClaim(r.Vector())
	var res check.Result
	if err == nil {
		res, err = check.Run(c)
	}
	var out check.Verdict
	if err == nil {
		out, err = check.NewVerdict(c, res)
	}
	if err != nil {
		v := Verdict{Result: "error", Error: err.Error()}
		var me *check.MalformedError
		if errors.As(err, &me) {
			v.Field = me.Field
		}
		return v
	}
	if out.Checks == nil {
		// A round with no check's inputs (the seeds alone) still has a
		// list of checks: an empty one, never null.
		out.Checks = []check.Item{}
	}
	return Verdict{Result: out.Verdict, Verdict: out}
}

// SettleJSON settles one round record (the input of `fairhold settle`)
// under the built-in profile it names, or the built-in profile of its game
// when it names none. It returns the JSON of `fairhold settle --json`, or
// an error naming what is wrong.
func SettleJSON(b []byte) (*settle.Result, error) {
	r, err := ParseRecord(b)
	if err != nil {
		return nil, err
	}
	name := r.Profile
	if name == "" {
		name = r.Game
	}
	p, err := profile.Builtin(name)
	if err != nil {
		return nil, err
	}
	return settle.Round(p, r)
}

// FromRecord returns the page's round for a logged round (docs/log-format.md):
// its seeds, beacon and commitment, the cards it logged as the claimed cards
// (in dealing order, as far as they are logged without a gap), and the
// record itself for the settlement. A round of a hash chain (chain_index
// set) is checked against its chain: the logged commitment is the chain's
// anchor.
func FromRecord(rec *round.Round) (Round, error) {
	f := rec.Fairness
	r := Round{
		Scheme: f.Scheme, Game: rec.Game, ServerSeed: f.ServerSeed, ClientSeeds: f.ClientSeeds,
		Nonce: fmt.Sprint(f.Nonce), Commitment: f.Commitment, CommittedAt: f.CommittedAt,
	}
	if f.ChainIndex > 0 {
		// A hash chain's round logs the chain's anchor as its commitment
		// and the link's distance from it.
		r.Commitment = ""
		r.Chain = ChainClaim(f.Commitment, &f.ChainIndex, 0)
	}
	if f.BeaconSignature != "" || f.BeaconRound != 0 {
		r.Beacon = &vectors.BeaconClaim{Chain: f.BeaconChain, Round: f.BeaconRound, Signature: f.BeaconSignature, PreviousSignature: f.BeaconPreviousSignature}
	}
	var hands [][]string
	switch rec.Game {
	case layout.CasinoHoldem, layout.LiveCasinoHoldem:
		boxes := append([]round.Box(nil), rec.Boxes...)
		slices.SortFunc(boxes, func(a, b round.Box) int { return a.Box - b.Box })
		for _, b := range boxes {
			hands = append(hands, b.Cards)
		}
		r.Hands = len(boxes)
	case layout.DoubleHoldem:
		if rec.Double == nil {
			return Round{}, errors.New("round: double-holdem without its hand (double)")
		}
		byseat := map[int][]string{}
		for _, s := range rec.Double.Seats {
			r.Seats = append(r.Seats, s.Seat)
			byseat[s.Seat] = s.Cards
		}
		r.Button = rec.Double.Button
		order, err := layout.DealingOrder(r.Seats, r.Button)
		if err != nil {
			return Round{}, fmt.Errorf("round: double: %w", err)
		}
		for _, s := range order {
			hands = append(hands, byseat[s])
		}
		r.Hands = len(order)
	default:
		return Round{}, fmt.Errorf("round: game %q: the page checks casino-holdem, live-casino-holdem and double-holdem rounds", rec.Game)
	}
	// The logged cards in dealing order, up to the first one missing.
	per := 2
	if rec.Game == layout.DoubleHoldem {
		per = 3
	}
	var claimed []string
	complete := true
	take := func(cs []string, n int) {
		if !complete {
			return
		}
		if len(cs) > n {
			cs = cs[:n]
		}
		claimed = append(claimed, cs...)
		complete = len(cs) == n
	}
	for _, h := range hands {
		take(h, per)
	}
	if rec.Game != layout.DoubleHoldem {
		take(rec.Dealer, 2)
	}
	take(rec.Board, layout.BoardCards)
	r.Cards = claimed
	rr := *rec
	rr.Fairness = round.Fairness{} // in the link's own fields
	b, err := json.Marshal(&rr)
	if err != nil {
		return Round{}, err
	}
	r.Round = b
	r.normalize()
	return r, nil
}

// ChainClaim returns the chain claim of a link steps hashes from anchor
// (nil: search, within maxSteps; 0: the default bound). It is made from
// the claim's JSON, the vectors' own form (vectors/README.md).
func ChainClaim(anchor string, steps *uint64, maxSteps int) *vectors.ChainClaim {
	m := map[string]any{"anchor": anchor}
	if steps != nil {
		m["steps"] = *steps
	}
	if maxSteps != 0 {
		m["max_steps"] = maxSteps
	}
	var c vectors.ChainClaim
	b, err := json.Marshal(m)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil {
		return &vectors.ChainClaim{Anchor: anchor}
	}
	return &c
}

// ChainSteps returns a chain claim's exact distance (nil: search) and its
// search bound.
func ChainSteps(c *vectors.ChainClaim) (steps *uint64, maxSteps int) {
	var v struct {
		Steps    *uint64 `json:"steps"`
		MaxSteps int     `json:"max_steps"`
	}
	if b, err := json.Marshal(c); err == nil && json.Unmarshal(b, &v) == nil {
		return v.Steps, v.MaxSteps
	}
	return nil, 0
}
