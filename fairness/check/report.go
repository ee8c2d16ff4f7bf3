package check

import "github.com/fairhold/fairhold/fairness/layout"

// Dealt is one round's cards derived from its revealed seeds: the JSON of
// `fairhold deal --json` (docs/report-format.md, "Machine output of the
// commands").
type Dealt struct {
	// Scheme is the provably-fair scheme's name.
	Scheme string `json:"scheme"`
	// Game is the game whose dealing order arranges Cards; empty for the
	// raw sequence.
	Game string `json:"game,omitempty"`
	// Nonce is the round's nonce.
	Nonce uint64 `json:"nonce"`
	// BeaconRandomness is the verified drand randomness mixed into the
	// stream, lower-case hex; empty without a beacon.
	BeaconRandomness string `json:"beacon_randomness,omitempty"`
	// Cards are the dealt cards by position.
	Cards layout.Deal `json:"cards"`
	// Notes are the scheme's known weaknesses.
	Notes []string `json:"notes,omitempty"`
}

// Verdict is the outcome of verifying one round: the JSON of
// `fairhold verify --json`.
type Verdict struct {
	// Verified is true when every check run passed ([Result.Verified]).
	Verified bool `json:"verified"`
	// Scheme is the provably-fair scheme's name.
	Scheme string `json:"scheme"`
	// Checks are the checks run, in order.
	Checks []Item `json:"checks"`
	// Cards are the cards the scheme deals, by position, when they can be
	// derived.
	Cards *layout.Deal `json:"cards,omitempty"`
	// Notes are the scheme's known weaknesses.
	Notes []string `json:"notes,omitempty"`
}
