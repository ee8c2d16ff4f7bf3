package vectors

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
)

// Rules vectors: settlement scenarios for the three games, one JSON file
// each under rules/ (format: README.md, "Rules vectors"). They import nothing from the
// rest of the module, so a verifier in another language can use the same
// files.

//go:embed rules/*.json
var rulesFS embed.FS

// RulesFS returns the rules vector files (rules/*.json).
func RulesFS() fs.FS { return rulesFS }

// RulesVector is one settlement scenario.
type RulesVector struct {
	// File is the vector's file name (not part of the JSON).
	File string `json:"-"`

	ID          string `json:"id"`
	Game        string `json:"game"` // "casino-holdem", "live-casino-holdem" or "double-holdem"
	Description string `json:"description"`
	// Rule cites the rules text the scenario exercises.
	Rule string `json:"rule"`
	// Profile is a built-in profile name; ProfilePatch, when present, is a
	// JSON merge patch (RFC 7386) applied to the built-in's JSON before it
	// is parsed.
	Profile      string          `json:"profile"`
	ProfilePatch json.RawMessage `json:"profile_patch,omitempty"`
	// Round is one round record, as in a JSON Lines round log.
	Round  json.RawMessage `json:"round"`
	Expect RulesExpect     `json:"expect"`
}

// RulesExpect is the expected settlement: Boxes for Casino Hold'em, Double
// for Double Hold'em, or Error when the round must be rejected.
type RulesExpect struct {
	Boxes  []BoxExpect    `json:"boxes,omitempty"`
	Double *DoubleExpect  `json:"double,omitempty"`
	Error  *RulesErrorExp `json:"error,omitempty"`
}

// BoxExpect is the expected settlement of one Casino Hold'em box.
type BoxExpect struct {
	Box         int    `json:"box"`
	Ante        int64  `json:"ante"` // stakes at play after auto-adjust
	Call        int64  `json:"call"`
	Bonus       int64  `json:"bonus"`
	AnteReturn  int64  `json:"ante_return"`
	CallReturn  int64  `json:"call_return"`
	BonusReturn int64  `json:"bonus_return"`
	Reason      string `json:"reason"`
	BonusReason string `json:"bonus_reason"`
	Capped      bool   `json:"capped"`
	PlayerHand  string `json:"player_hand"` // category name, "" when not evaluated (fold, void)
}

// DoubleExpect is the expected settlement of one Double Hold'em hand.
type DoubleExpect struct {
	Pots       []PotExpect       `json:"pots"` // after rake, main pot first
	Rake       int64             `json:"rake"`
	Uncalled   int64             `json:"uncalled"`
	StackAfter map[string]int64  `json:"stack_after"` // by seat number
	BonusCards map[string]string `json:"bonus_cards"` // by seat number, every player who saw the flop
	Showdown   bool              `json:"showdown"`
}

// PotExpect is one expected pot.
type PotExpect struct {
	Amount   int64   `json:"amount"`
	Eligible []int   `json:"eligible"`
	Winners  []int   `json:"winners"`
	Shares   []int64 `json:"shares"`
}

// RulesErrorExp is an expected rejection. Kind is "action" (an illegal or
// missing Double Hold'em action, at Index), "round" (a malformed round or
// one against the profile, at Field) or "profile" (the patched profile is
// invalid, at Field).
type RulesErrorExp struct {
	Kind  string `json:"kind"`
	Index int    `json:"index,omitempty"`
	Seat  int    `json:"seat,omitempty"`
	Field string `json:"field,omitempty"`
	// ReasonContains, when set, must occur in the error's reason.
	ReasonContains string `json:"reason_contains,omitempty"`
}

// Rules returns every rules vector, sorted by file name. A malformed file
// is an error naming it.
func Rules() ([]RulesVector, error) {
	names, err := fs.Glob(rulesFS, "rules/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]RulesVector, 0, len(names))
	ids := map[string]string{}
	for _, n := range names {
		b, err := rulesFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		v, err := ParseRulesVector(b)
		if err != nil {
			return nil, fmt.Errorf("vectors %s: %w", n, err)
		}
		v.File = path.Base(n)
		if prev, ok := ids[v.ID]; ok {
			return nil, fmt.Errorf("vectors %s: id %q already used by %s", n, v.ID, prev)
		}
		ids[v.ID] = n
		out = append(out, v)
	}
	return out, nil
}

// ParseRulesVector decodes one vector strictly: unknown fields and
// trailing data are errors, and exactly one of the expectations is set.
func ParseRulesVector(b []byte) (RulesVector, error) {
	var v RulesVector
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return v, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return v, fmt.Errorf("trailing data after the vector")
	}
	if v.ID == "" {
		return v, fmt.Errorf("id: missing")
	}
	if v.Profile == "" {
		return v, fmt.Errorf("profile: missing")
	}
	if len(v.Round) == 0 {
		return v, fmt.Errorf("round: missing")
	}
	n := 0
	if v.Expect.Boxes != nil {
		n++
	}
	if v.Expect.Double != nil {
		n++
	}
	if v.Expect.Error != nil {
		n++
	}
	if n != 1 {
		return v, fmt.Errorf("expect: want exactly one of boxes, double, error")
	}
	return v, nil
}
