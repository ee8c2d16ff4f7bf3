package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/vectors"
)

// Answers: an engine that is not fairhold is certified against the
// vectors by running it on their inputs (`fairhold vectors export`) and
// handing back an answer file, which [CompareAnswers] checks against the
// vectors' expectations. docs/suite-format.md documents the file.

// Answer is one line of an answer file: an engine's answer to one vector.
// A fairness vector is answered with Verdict (and Failures, Field, Cards);
// a rules vector with exactly one of Boxes, Double and Error.
type Answer struct {
	// Vector names the vector: "fairness/ID" or "rules/ID", the input
	// file's path without ".json".
	Vector string `json:"vector"`

	// Verdict is what the engine concludes on a fairness vector:
	// "success" (every check passes), "failure" (the checks in Failures
	// fail) or "malformed" (the engine rejects the input field Field).
	Verdict  string   `json:"verdict,omitempty"`
	Failures []string `json:"failures,omitempty"`
	Field    string   `json:"field,omitempty"`
	// Cards are the cards the engine dealt (the vector's count, in dealing
	// order), when it could deal them.
	Cards []string `json:"cards,omitempty"`

	// Boxes is the engine's settlement of a Casino Hold'em round, one entry
	// per box in box order; Double of a Double Hold'em hand; Error its
	// rejection of the round.
	Boxes  []vectors.BoxExpect   `json:"boxes,omitempty"`
	Double *vectors.DoubleExpect `json:"double,omitempty"`
	Error  *RejectAnswer         `json:"error,omitempty"`
}

// RejectAnswer is an engine's rejection of a rules vector's round: Kind
// "action" (an illegal or missing Double Hold'em action: Index in
// double.actions and the Seat), "round" or "profile" (Field, the path of
// the offending field, such as "boxes[0].ante").
type RejectAnswer struct {
	Kind  string `json:"kind"`
	Index int    `json:"index,omitempty"`
	Seat  int    `json:"seat,omitempty"`
	Field string `json:"field,omitempty"`
}

// AnswerLineError is a malformed line of an answer file: the line (from
// 1), the field when one is to blame, and what is wrong.
type AnswerLineError struct {
	Line  int
	Field string
	Err   error
}

func (e *AnswerLineError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("line %d: %s: %v", e.Line, e.Field, e.Err)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

func (e *AnswerLineError) Unwrap() error { return e.Err }

// ErrAnswer is wrapped by every [*AnswerLineError].
var ErrAnswer = errors.New("malformed answer")

// MaxAnswerLine is the longest line an answer file may hold.
const MaxAnswerLine = 1 << 20

// ParseAnswers reads an answer file: JSON Lines, one [Answer] object per
// line, in any order; empty lines are not allowed, a final newline is.
// Unknown members, a line that is not one JSON object, a vector name that
// is not "fairness/ID" or "rules/ID", an unknown verdict or a line that
// answers both kinds are errors, each an [*AnswerLineError] naming the
// line and field. Answers to vectors that do not exist, and repeated
// answers, are not errors here: [CompareAnswers] fails them.
func ParseAnswers(r io.Reader) ([]Answer, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxAnswerLine)
	var out []Answer
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSuffix(sc.Bytes(), []byte("\r"))
		a, err := parseAnswer(b)
		if err != nil {
			var le *AnswerLineError
			if errors.As(err, &le) {
				le.Line = line
				return nil, le
			}
			return nil, &AnswerLineError{Line: line, Err: err}
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &AnswerLineError{Line: line + 1, Err: fmt.Errorf("%w: longer than %d bytes", ErrAnswer, MaxAnswerLine)}
		}
		return nil, err
	}
	return out, nil
}

func lineErr(field, format string, args ...any) error {
	return &AnswerLineError{Field: field, Err: fmt.Errorf("%w: %s", ErrAnswer, fmt.Sprintf(format, args...))}
}

func parseAnswer(b []byte) (Answer, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return Answer{}, lineErr("", "empty line: want one JSON object per line")
	}
	var a Answer
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		var typ *json.UnmarshalTypeError
		var syn *json.SyntaxError
		switch {
		case errors.As(err, &typ):
			return Answer{}, lineErr(typ.Field, "JSON %s, want %s", typ.Value, JSONKind(typ.Type))
		case errors.As(err, &syn):
			return Answer{}, lineErr("", "not JSON at byte %d: %v", syn.Offset, syn)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
			return Answer{}, lineErr(f, "unknown member")
		}
		return Answer{}, lineErr("", "%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Answer{}, lineErr("", "more than one JSON value on the line")
	}
	kind, id, _ := strings.Cut(a.Vector, "/")
	if id == "" || strings.Contains(id, "/") || (kind != vectors.KindFairness && kind != vectors.KindRules) {
		return Answer{}, lineErr("vector", "%q: want \"fairness/ID\" or \"rules/ID\"", a.Vector)
	}
	rules := a.Boxes != nil || a.Double != nil || a.Error != nil
	fair := a.Verdict != "" || a.Failures != nil || a.Field != "" || a.Cards != nil
	switch {
	case kind == vectors.KindFairness && rules:
		return Answer{}, lineErr("vector", "%s is a fairness vector: answer it with verdict (failures, field, cards), not boxes, double or error", a.Vector)
	case kind == vectors.KindRules && fair:
		return Answer{}, lineErr("vector", "%s is a rules vector: answer it with boxes, double or error, not verdict, failures, field or cards", a.Vector)
	case kind == vectors.KindFairness:
		switch a.Verdict {
		case vectors.FairnessSuccess, vectors.FairnessFailure, vectors.FairnessMalformed:
		case "":
			return Answer{}, lineErr("verdict", "missing: want success, failure or malformed")
		default:
			return Answer{}, lineErr("verdict", "%q: want success, failure or malformed", a.Verdict)
		}
	default:
		n := 0
		for _, set := range []bool{a.Boxes != nil, a.Double != nil, a.Error != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			return Answer{}, lineErr("vector", "%s: want exactly one of boxes, double and error", a.Vector)
		}
		if a.Error != nil && a.Error.Kind == "" {
			return Answer{}, lineErr("error.kind", "missing: want action, round or profile")
		}
	}
	return a, nil
}

// MarshalAnswers returns the answer file of answers: one compact JSON
// object per line, each ended by a newline, in the order given.
func MarshalAnswers(answers []Answer) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for i := range answers {
		if err := enc.Encode(&answers[i]); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// AnswerFairness is fairhold's own answer to a fairness vector's input (its
// expectations, if any, are not read).
func AnswerFairness(v vectors.FairnessVector) Answer {
	a := Answer{Vector: vectors.KindFairness + "/" + v.ID}
	c, err := FairnessClaim(v)
	var res check.Result
	if err == nil {
		_, _, _, err = FairnessLayout(v)
	}
	if err == nil {
		res, err = check.Run(c)
	}
	if err != nil {
		var me *check.MalformedError
		a.Verdict = vectors.FairnessMalformed
		a.Field = "input"
		if errors.As(err, &me) {
			a.Field = me.Field
		}
		return a
	}
	a.Verdict = vectors.FairnessSuccess
	for _, ch := range res.Checks {
		if !ch.OK {
			a.Verdict = vectors.FairnessFailure
			a.Failures = append(a.Failures, ch.Name)
		}
	}
	if res.Dealt != nil {
		a.Cards = names(res.Dealt)
	}
	return a
}

// InputProfile returns a rules input's profile: the built-in with its
// JSON merge patch (RFC 7386) applied, then parsed strictly.
func InputProfile(in vectors.RulesInput) (*profile.Profile, error) {
	return patchedProfile(in.Profile, in.ProfilePatch)
}

// AnswerRules is fairhold's own answer to a rules vector's input: the
// settlement of its round by fairhold's engines, or the rejection.
func AnswerRules(in vectors.RulesInput) Answer {
	a := Answer{Vector: vectors.KindRules + "/" + in.ID}
	p, err := InputProfile(in)
	if err != nil {
		a.Error = rejection("profile", err)
		return a
	}
	var r round.Round
	dec := json.NewDecoder(bytes.NewReader(in.Round))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		a.Error = &RejectAnswer{Kind: "round", Field: "round"}
		return a
	}
	if p.Game == profile.GameDoubleHoldem {
		res, err := double.Settle(p, &r)
		if err != nil {
			var ae *double.ActionError
			if errors.As(err, &ae) {
				a.Error = &RejectAnswer{Kind: "action", Index: ae.Index, Seat: ae.Seat}
			} else {
				a.Error = rejection("round", err)
			}
			return a
		}
		a.Double = doubleAnswer(res)
		return a
	}
	got, err := casino.Settle(p, &r)
	if err != nil {
		a.Error = rejection("round", err)
		return a
	}
	a.Boxes = make([]vectors.BoxExpect, len(got))
	for i, g := range got {
		a.Boxes[i] = boxAnswer(g)
	}
	return a
}

// rejection names the field of an engine error.
func rejection(kind string, err error) *RejectAnswer {
	ra := &RejectAnswer{Kind: kind}
	var pe *profile.FieldError
	var ce *casino.RoundError
	var he *double.HandError
	switch {
	case errors.As(err, &pe):
		ra.Field = pe.Field
	case errors.As(err, &ce):
		ra.Field = ce.Field
	case errors.As(err, &he):
		ra.Field = he.Field
	}
	return ra
}

func boxAnswer(g casino.BoxResult) vectors.BoxExpect {
	return vectors.BoxExpect{Box: g.Box, Ante: g.Ante, Call: g.Call, Bonus: g.Bonus,
		AnteReturn: g.AnteReturn, CallReturn: g.CallReturn, BonusReturn: g.BonusReturn,
		Reason: g.Reason, BonusReason: g.BonusReason, Capped: g.Capped, PlayerHand: g.PlayerHand}
}

func doubleAnswer(res *double.Result) *vectors.DoubleExpect {
	d := &vectors.DoubleExpect{Rake: res.Rake, Uncalled: res.Uncalled, Showdown: res.Showdown,
		Pots: make([]vectors.PotExpect, len(res.Pots)), StackAfter: map[string]int64{}, BonusCards: map[string]string{}}
	for i, p := range res.Pots {
		d.Pots[i] = vectors.PotExpect{Amount: p.Amount, Eligible: p.Eligible, Winners: p.Winners, Shares: p.Shares}
	}
	for s, v := range res.StackAfter {
		d.StackAfter[strconv.Itoa(s)] = v
	}
	for s, c := range res.BonusCards {
		d.BonusCards[strconv.Itoa(s)] = c
	}
	return d
}

// OwnAnswers returns fairhold's own answers to the inputs of every
// embedded vector, in the order of [vectors.InputFiles]: what a correct
// engine hands back.
func OwnAnswers() ([]Answer, error) {
	fv, err := vectors.Fairness()
	if err != nil {
		return nil, err
	}
	rv, err := vectors.Rules()
	if err != nil {
		return nil, err
	}
	out := make([]Answer, 0, len(fv)+len(rv))
	for _, v := range fv {
		out = append(out, AnswerFairness(v.Input()))
	}
	for _, v := range rv {
		in, err := v.Input()
		if err != nil {
			return nil, err
		}
		out = append(out, AnswerRules(in))
	}
	return out, nil
}

// JSONKind names the JSON value a Go type decodes from, for the messages
// of strict decoders (this package's answer files, the suites of package
// certify/suite).
func JSONKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer in range"
	case reflect.Pointer:
		return JSONKind(t.Elem())
	}
	return t.String()
}
