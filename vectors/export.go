package vectors

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Inputs: what an operator's engine receives to be certified
// (`fairhold vectors export DIR`). An input is a vector without what the
// engine must conclude: the engine computes its answers from the inputs
// and hands them back in an answer file, which fairhold compares with the
// vectors (package certify/conformance, docs/suite-format.md).
//
//   - fairness/ID.json: a [FairnessVector] without "expect", "failures",
//     "field" and "expected".
//   - rules/ID.json: a [RulesInput]: a [RulesVector] without "expect",
//     whose round lacks the returns and balances the operator records
//     after settling (see [RulesVector.Input]).
//
// The answer to a vector is named by its kind and id, "fairness/ID" or
// "rules/ID": the input file's path without ".json".

// Kinds of vector, the first element of a vector's name.
const (
	KindFairness = "fairness"
	KindRules    = "rules"
)

// Input returns the vector's input: v without Expect, Failures, Field
// and Expected.
func (v FairnessVector) Input() FairnessVector {
	v.Expect, v.Failures, v.Field, v.Expected = "", nil, "", nil
	return v
}

// fairnessInput encodes a fairness vector's input: the outer Expect,
// always empty, hides the vector's and is left out.
type fairnessInput struct {
	FairnessVector
	Expect string `json:"expect,omitempty"`
}

// ErrInput is wrapped by the errors of [ParseFairnessInput] and
// [ParseRulesInput].
var ErrInput = errors.New("invalid vector input")

// ParseFairnessInput parses an exported fairness input: a fairness vector
// without its expectations. Unknown fields, trailing data, a missing id
// and any expectation field are errors.
func ParseFairnessInput(b []byte) (FairnessVector, error) {
	var v FairnessVector
	if err := decodeStrict(b, &v); err != nil {
		return FairnessVector{}, fmt.Errorf("%w: %w", ErrInput, err)
	}
	switch {
	case v.ID == "":
		return FairnessVector{}, fmt.Errorf("%w: missing id", ErrInput)
	case v.Expect != "" || v.Failures != nil || v.Field != "" || v.Expected != nil:
		return FairnessVector{}, fmt.Errorf("%w: %s: an input holds no expect, failures, field or expected", ErrInput, v.ID)
	}
	return v, nil
}

// RulesInput is a rules vector without its expectation: the scenario an
// engine settles.
type RulesInput struct {
	ID           string          `json:"id"`
	Game         string          `json:"game"`
	Description  string          `json:"description"`
	Rule         string          `json:"rule"`
	Profile      string          `json:"profile"`
	ProfilePatch json.RawMessage `json:"profile_patch,omitempty"`
	// Round is the round record without the fields the operator records
	// after settling (see [RulesVector.Input]).
	Round json.RawMessage `json:"round"`
}

// Settled fields: what an operator records once a round is settled. The
// settlement engines do not read them, so a rules vector's input leaves
// them out; the rules vectors fill them in with the expected settlement.
var (
	settledBoxFields    = []string{"ante_return", "call_return", "bonus_return", "balance_after"}
	settledDoubleFields = []string{"pots", "rake"}
	settledSeatFields   = []string{"stack_after"}
)

// Input returns the vector's input: the vector without Expect, and its
// round without the fields recorded after settlement (every box's
// ante_return, call_return, bonus_return and balance_after; the Double
// Hold'em hand's pots and rake and every seat's stack_after). The round's
// other members are kept as they are, in the order of their names.
func (v RulesVector) Input() (RulesInput, error) {
	round, err := stripSettled(v.Round)
	if err != nil {
		return RulesInput{}, fmt.Errorf("%w: %s: round: %w", ErrInput, v.ID, err)
	}
	return RulesInput{ID: v.ID, Game: v.Game, Description: v.Description, Rule: v.Rule,
		Profile: v.Profile, ProfilePatch: v.ProfilePatch, Round: round}, nil
}

// stripSettled removes the settled fields from a round's JSON. Numbers
// keep their text.
func stripSettled(raw json.RawMessage) (json.RawMessage, error) {
	var r map[string]json.RawMessage
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if b, ok := r["boxes"]; ok {
		out, err := stripEach(b, settledBoxFields)
		if err != nil {
			return nil, fmt.Errorf("boxes: %w", err)
		}
		r["boxes"] = out
	}
	if d, ok := r["double"]; ok && !bytes.Equal(bytes.TrimSpace(d), []byte("null")) {
		var dh map[string]json.RawMessage
		if err := json.Unmarshal(d, &dh); err != nil {
			return nil, fmt.Errorf("double: %w", err)
		}
		for _, f := range settledDoubleFields {
			delete(dh, f)
		}
		if s, ok := dh["seats"]; ok {
			out, err := stripEach(s, settledSeatFields)
			if err != nil {
				return nil, fmt.Errorf("double.seats: %w", err)
			}
			dh["seats"] = out
		}
		b, err := json.Marshal(dh)
		if err != nil {
			return nil, err
		}
		r["double"] = b
	}
	return json.Marshal(r)
}

// stripEach removes fields from every object of a JSON array; null stays
// null.
func stripEach(raw json.RawMessage, fields []string) (json.RawMessage, error) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return raw, nil
	}
	var xs []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &xs); err != nil {
		return nil, err
	}
	for _, x := range xs {
		for _, f := range fields {
			delete(x, f)
		}
	}
	return json.Marshal(xs)
}

// ParseRulesInput parses an exported rules input. Unknown fields (an
// "expect" among them), trailing data, a missing id, profile or round are
// errors.
func ParseRulesInput(b []byte) (RulesInput, error) {
	var in RulesInput
	if err := decodeStrict(b, &in); err != nil {
		return RulesInput{}, fmt.Errorf("%w: %w", ErrInput, err)
	}
	switch {
	case in.ID == "":
		return RulesInput{}, fmt.Errorf("%w: missing id", ErrInput)
	case in.Profile == "":
		return RulesInput{}, fmt.Errorf("%w: %s: missing profile", ErrInput, in.ID)
	case len(in.Round) == 0:
		return RulesInput{}, fmt.Errorf("%w: %s: missing round", ErrInput, in.ID)
	}
	return in, nil
}

// File is one file of the vectors' inputs: its slash-separated path
// ("fairness/ID.json") and its bytes.
type File struct {
	Name string
	Data []byte
}

// InputFiles returns the input of every embedded vector, fairness vectors
// first, each sorted by id: the files `fairhold vectors export` writes.
// Each is indented JSON (two spaces) ended by a newline.
func InputFiles() ([]File, error) {
	fv, err := Fairness()
	if err != nil {
		return nil, err
	}
	rv, err := Rules()
	if err != nil {
		return nil, err
	}
	out := make([]File, 0, len(fv)+len(rv))
	for _, v := range fv {
		b, err := marshalIndent(fairnessInput{FairnessVector: v.Input()})
		if err != nil {
			return nil, err
		}
		out = append(out, File{Name: KindFairness + "/" + v.ID + ".json", Data: b})
	}
	for _, v := range rv {
		in, err := v.Input()
		if err != nil {
			return nil, err
		}
		b, err := marshalIndent(in)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Name: KindRules + "/" + v.ID + ".json", Data: b})
	}
	return out, nil
}

func marshalIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// decodeStrict decodes one JSON value into v, rejecting unknown fields
// and trailing data.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the value")
	}
	return nil
}
