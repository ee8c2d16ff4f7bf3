package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/vectors"
)

// RulesResult is the outcome of one rules vector.
type RulesResult struct {
	ID   string `json:"id"`
	File string `json:"file"`
	Game string `json:"game"`
	Pass bool   `json:"pass"`
	// Detail says what differed when the vector failed.
	Detail string `json:"detail,omitempty"`
}

// RunRules runs every rules vector (vectors/rules) against the settlement
// engines, in file order.
func RunRules() ([]RulesResult, error) {
	vs, err := vectors.Rules()
	if err != nil {
		return nil, err
	}
	out := make([]RulesResult, len(vs))
	for i, v := range vs {
		out[i] = RulesResult{ID: v.ID, File: v.File, Game: v.Game, Pass: true}
		if err := CheckRules(v); err != nil {
			out[i].Pass, out[i].Detail = false, err.Error()
		}
	}
	return out, nil
}

// VectorProfile returns the vector's profile: the built-in with the
// vector's JSON merge patch (RFC 7386) applied, then parsed strictly.
func VectorProfile(v vectors.RulesVector) (*profile.Profile, error) {
	return patchedProfile(v.Profile, v.ProfilePatch)
}

// patchedProfile returns the built-in profile name with the merge patch
// applied (none when patch is empty).
func patchedProfile(name string, patch json.RawMessage) (*profile.Profile, error) {
	p, err := profile.Builtin(name)
	if err != nil {
		return nil, err
	}
	if len(patch) == 0 {
		return p, nil
	}
	var doc, mp any
	if err := json.Unmarshal(p.Canonical(), &doc); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(patch))
	dec.UseNumber()
	if err := dec.Decode(&mp); err != nil {
		return nil, fmt.Errorf("profile_patch: %w", err)
	}
	b, err := json.Marshal(mergePatch(doc, mp))
	if err != nil {
		return nil, err
	}
	return profile.Parse(b)
}

// mergePatch applies an RFC 7386 JSON merge patch.
func mergePatch(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	tm, ok := target.(map[string]any)
	if !ok {
		tm = map[string]any{}
	}
	for k, v := range pm {
		if v == nil {
			delete(tm, k)
		} else {
			tm[k] = mergePatch(tm[k], v)
		}
	}
	return tm
}

// CheckRules runs one rules vector; nil means it passed.
func CheckRules(v vectors.RulesVector) error {
	want := v.Expect
	p, err := VectorProfile(v)
	if err != nil {
		return matchError(want.Error, "profile", err)
	}
	var r round.Round
	dec := json.NewDecoder(bytes.NewReader(v.Round))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return fmt.Errorf("round: %v", err)
	}
	switch p.Game {
	case profile.GameDoubleHoldem:
		res, err := double.Settle(p, &r)
		if err != nil {
			var ae *double.ActionError
			if errors.As(err, &ae) {
				return matchError(want.Error, "action", err)
			}
			return matchError(want.Error, "round", err)
		}
		if want.Double == nil {
			return fmt.Errorf("settled, but the vector expects %s", describe(want))
		}
		return compareDouble(want.Double, res)
	default:
		got, err := casino.Settle(p, &r)
		if err != nil {
			return matchError(want.Error, "round", err)
		}
		if want.Boxes == nil {
			return fmt.Errorf("settled, but the vector expects %s", describe(want))
		}
		return compareBoxes(want.Boxes, got)
	}
}

func describe(e vectors.RulesExpect) string {
	if e.Error != nil {
		return fmt.Sprintf("a %s error (field %q, index %d)", e.Error.Kind, e.Error.Field, e.Error.Index)
	}
	return "a settlement"
}

// matchError compares an engine error with the expected one.
func matchError(want *vectors.RulesErrorExp, kind string, err error) error {
	if want == nil {
		return fmt.Errorf("unexpected %s error: %v", kind, err)
	}
	if want.Kind != kind {
		return fmt.Errorf("got a %s error (%v), want a %s error", kind, err, want.Kind)
	}
	var field, reason string
	var pe *profile.FieldError
	var ce *casino.RoundError
	var he *double.HandError
	var ae *double.ActionError
	switch {
	case errors.As(err, &ae):
		if ae.Index != want.Index {
			return fmt.Errorf("illegal action at index %d (%v), want index %d", ae.Index, err, want.Index)
		}
		if want.Seat != 0 && ae.Seat != want.Seat {
			return fmt.Errorf("illegal action by seat %d (%v), want seat %d", ae.Seat, err, want.Seat)
		}
		reason = ae.Reason
	case errors.As(err, &pe):
		field, reason = pe.Field, pe.Reason
	case errors.As(err, &ce):
		field, reason = ce.Field, ce.Reason
	case errors.As(err, &he):
		field, reason = he.Field, he.Reason
	default:
		reason = err.Error()
	}
	if want.Field != "" && field != want.Field {
		return fmt.Errorf("error at field %q (%v), want field %q", field, err, want.Field)
	}
	if want.ReasonContains != "" && !strings.Contains(reason, want.ReasonContains) {
		return fmt.Errorf("error %q does not contain %q", reason, want.ReasonContains)
	}
	return nil
}

func compareBoxes(want []vectors.BoxExpect, got []casino.BoxResult) error {
	if len(want) != len(got) {
		return fmt.Errorf("%d boxes settled, want %d", len(got), len(want))
	}
	var diffs []string
	for i, w := range want {
		g := got[i]
		gw := vectors.BoxExpect{Box: g.Box, Ante: g.Ante, Call: g.Call, Bonus: g.Bonus,
			AnteReturn: g.AnteReturn, CallReturn: g.CallReturn, BonusReturn: g.BonusReturn,
			Reason: g.Reason, BonusReason: g.BonusReason, Capped: g.Capped, PlayerHand: g.PlayerHand}
		if gw != w {
			diffs = append(diffs, fmt.Sprintf("box %d: got %+v, want %+v", w.Box, gw, w))
		}
	}
	if diffs != nil {
		return errors.New(strings.Join(diffs, "; "))
	}
	return nil
}

func compareDouble(want *vectors.DoubleExpect, got *double.Result) error {
	var diffs []string
	add := func(format string, args ...any) { diffs = append(diffs, fmt.Sprintf(format, args...)) }
	if got.Rake != want.Rake {
		add("rake %d, want %d", got.Rake, want.Rake)
	}
	if got.Uncalled != want.Uncalled {
		add("uncalled %d, want %d", got.Uncalled, want.Uncalled)
	}
	if got.Showdown != want.Showdown {
		add("showdown %v, want %v", got.Showdown, want.Showdown)
	}
	gp, _ := json.Marshal(got.Pots)
	var gotPots []vectors.PotExpect
	_ = json.Unmarshal(gp, &gotPots)
	wp, _ := json.Marshal(want.Pots)
	gp, _ = json.Marshal(gotPots)
	if !bytes.Equal(gp, wp) {
		add("pots %s, want %s", gp, wp)
	}
	if a, b := seatMap(got.StackAfter), fmtMap(want.StackAfter); a != b {
		add("stack_after %s, want %s", a, b)
	}
	gb := map[string]string{}
	for s, c := range got.BonusCards {
		gb[strconv.Itoa(s)] = c
	}
	if a, b := fmtMap(gb), fmtMap(want.BonusCards); a != b {
		add("bonus_cards %s, want %s", a, b)
	}
	if diffs != nil {
		return errors.New(strings.Join(diffs, "; "))
	}
	return nil
}

func seatMap(m map[int]int64) string {
	s := map[string]int64{}
	for k, v := range m {
		s[strconv.Itoa(k)] = v
	}
	return fmtMap(s)
}

func fmtMap[V any](m map[string]V) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s:%v ", k, m[k])
	}
	return strings.TrimSpace(b.String())
}
