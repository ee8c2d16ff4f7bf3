package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
)

// This file checks docs/suite.schema.json against the Go decoder: the
// schema lists the members the decoder knows, the built-in suites and the
// examples of docs/suite-format.md are valid under both, and a few
// malformed suites are invalid under both. It validates with a small
// validator of the JSON Schema keywords the schema uses (below), which
// rejects a schema that uses any other.

const schemaFile = "../../docs/suite.schema.json"

func loadSchema(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	var s map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&s), "the schema is JSON")
	return s
}

// validator validates instances against one schema document.
type validator struct{ root map[string]any }

func (v validator) validate(instance []byte) error {
	var x any
	dec := json.NewDecoder(bytes.NewReader(instance))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return err
	}
	return v.check(v.root, x, "")
}

var knownKeywords = map[string]bool{
	"$schema": true, "$id": true, "title": true, "description": true, "$defs": true,
	"type": true, "properties": true, "additionalProperties": true, "required": true, "propertyNames": true,
	"items": true, "minItems": true, "uniqueItems": true, "enum": true, "const": true,
	"minLength": true, "maxLength": true, "pattern": true, "not": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"$ref": true, "allOf": true, "if": true, "then": true,
}

func num(x any) (*big.Rat, bool) {
	n, ok := x.(json.Number)
	if !ok {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(n.String())
	return r, ok
}

func (v validator) check(s map[string]any, x any, at string) error {
	for k := range s {
		if !knownKeywords[k] {
			return fmt.Errorf("schema keyword %q is not implemented by the test validator", k)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		def, ok := v.root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok {
			return fmt.Errorf("%s: unknown $ref %s", at, ref)
		}
		if err := v.check(def, x, at); err != nil {
			return err
		}
	}
	if t, ok := s["type"].(string); ok {
		var good bool
		switch t {
		case "object":
			_, good = x.(map[string]any)
		case "array":
			_, good = x.([]any)
		case "string":
			_, good = x.(string)
		case "boolean":
			_, good = x.(bool)
		case "number":
			_, good = x.(json.Number)
		case "integer":
			r, ok := num(x)
			good = ok && r.IsInt()
		}
		if !good {
			return fmt.Errorf("%s: want %s", at, t)
		}
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(y any) bool { return reflect.DeepEqual(x, y) }) {
		return fmt.Errorf("%s: %v not in %v", at, x, e)
	}
	if c, ok := s["const"]; ok && !reflect.DeepEqual(x, c) {
		return fmt.Errorf("%s: %v, want %v", at, x, c)
	}
	if str, ok := x.(string); ok {
		if n, ok := num(s["minLength"]); ok && big.NewRat(int64(len([]rune(str))), 1).Cmp(n) < 0 {
			return fmt.Errorf("%s: too short", at)
		}
		if n, ok := num(s["maxLength"]); ok && big.NewRat(int64(len([]rune(str))), 1).Cmp(n) > 0 {
			return fmt.Errorf("%s: too long", at)
		}
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			return fmt.Errorf("%s: %q does not match %s", at, str, p)
		}
	}
	if r, ok := num(x); ok {
		for k, cmp := range map[string]func(int) bool{
			"minimum": func(c int) bool { return c >= 0 }, "maximum": func(c int) bool { return c <= 0 },
			"exclusiveMinimum": func(c int) bool { return c > 0 }, "exclusiveMaximum": func(c int) bool { return c < 0 },
		} {
			if b, ok := num(s[k]); ok && !cmp(r.Cmp(b)) {
				return fmt.Errorf("%s: %s fails %s %s", at, r.RatString(), k, b.RatString())
			}
		}
		if m, ok := num(s["multipleOf"]); ok && !new(big.Rat).Quo(r, m).IsInt() {
			return fmt.Errorf("%s: not a multiple of %s", at, m.RatString())
		}
	}
	if ns, ok := s["not"].(map[string]any); ok && v.check(ns, x, at) == nil {
		return fmt.Errorf("%s: matches a schema it must not", at)
	}
	if obj, ok := x.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for _, r := range asSlice(s["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				return fmt.Errorf("%s: %s required", at, r)
			}
		}
		for k, val := range obj {
			if pn, ok := s["propertyNames"].(map[string]any); ok {
				if err := v.check(pn, k, at+"."+k); err != nil {
					return err
				}
			}
			if ps, ok := props[k].(map[string]any); ok {
				if err := v.check(ps, val, at+"."+k); err != nil {
					return err
				}
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s: unknown member %s", at, k)
				}
			case map[string]any:
				if err := v.check(ap, val, at+"."+k); err != nil {
					return err
				}
			}
		}
	}
	if arr, ok := x.([]any); ok {
		if n, ok := num(s["minItems"]); ok && big.NewRat(int64(len(arr)), 1).Cmp(n) < 0 {
			return fmt.Errorf("%s: too few items", at)
		}
		if u, _ := s["uniqueItems"].(bool); u {
			for i := range arr {
				for j := range i {
					if reflect.DeepEqual(arr[i], arr[j]) {
						return fmt.Errorf("%s: item %d repeats item %d", at, i, j)
					}
				}
			}
		}
		if is, ok := s["items"].(map[string]any); ok {
			for i, it := range arr {
				if err := v.check(is, it, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	for _, sub := range asSlice(s["allOf"]) {
		if err := v.check(sub.(map[string]any), x, at); err != nil {
			return err
		}
	}
	if cond, ok := s["if"].(map[string]any); ok && v.check(cond, x, at) == nil {
		if then, ok := s["then"].(map[string]any); ok {
			if err := v.check(then, x, at); err != nil {
				return err
			}
		}
	}
	return nil
}

func asSlice(x any) []any { s, _ := x.([]any); return s }

// members returns the sorted property names of a schema object.
func members(t *testing.T, s map[string]any) []string {
	t.Helper()
	props, ok := s["properties"].(map[string]any)
	require.True(t, ok)
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// jsonMembers returns the sorted JSON names of a struct's fields.
func jsonMembers(v any) []string {
	var out []string
	rt := reflect.TypeOf(v)
	for i := range rt.NumField() {
		f := rt.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func enumStrings(t *testing.T, s map[string]any) []string {
	t.Helper()
	var out []string
	for _, e := range asSlice(s["enum"]) {
		out = append(out, e.(string))
	}
	sort.Strings(out)
	return out
}

func TestSchemaListsTheDecodersMembers(t *testing.T) {
	s := loadSchema(t)
	defs := s["$defs"].(map[string]any)
	def := func(name string) map[string]any { return defs[name].(map[string]any) }
	assert.Equal(t, jsonMembers(Suite{}), members(t, s), "suite")
	assert.Equal(t, jsonMembers(Artefacts{}), members(t, def("artefacts")), "artefacts")
	assert.Equal(t, jsonMembers(Requirement{}), members(t, def("requirement")), "requirement")
	assert.Equal(t, jsonMembers(AlphaParams{}), members(t, def("alphaParams")))
	assert.Equal(t, jsonMembers(SchemeParams{}), members(t, def("schemeParams")))
	assert.Equal(t, jsonMembers(NISTParams{}), members(t, def("nistParams")))
	assert.Equal(t, jsonMembers(MathParams{}), members(t, def("mathParams")))
	assert.Equal(t, jsonMembers(ReplayParams{}), members(t, def("replayParams")))
	assert.Empty(t, jsonMembers(NoParams{}))
	props := s["properties"].(map[string]any)
	assert.Equal(t, layout.Games(), enumStrings(t, props["game"].(map[string]any)))
	reqProps := def("requirement")["properties"].(map[string]any)
	assert.Equal(t, CheckNames(), enumStrings(t, reqProps["check"].(map[string]any)))
	schemes := scheme.Names()
	sort.Strings(schemes)
	assert.Equal(t, schemes, enumStrings(t, def("schemeParams")["properties"].(map[string]any)["scheme"].(map[string]any)))
	// Every check's parameters are tied to its definition.
	var tied []string
	for _, x := range asSlice(def("requirement")["allOf"]) {
		tied = append(tied, x.(map[string]any)["if"].(map[string]any)["properties"].(map[string]any)["check"].(map[string]any)["const"].(string))
	}
	sort.Strings(tied)
	assert.Equal(t, CheckNames(), tied)
}

// docExamples returns the suites of docs/suite-format.md: the JSON code
// blocks that follow a "<!-- suite example -->" line.
func docExamples(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../docs/suite-format.md")
	require.NoError(t, err)
	var out []string
	parts := strings.Split(string(data), "<!-- suite example -->")
	for _, p := range parts[1:] {
		_, after, ok := strings.Cut(p, "```json\n")
		require.True(t, ok, "a suite example is a json code block")
		block, _, ok := strings.Cut(after, "```")
		require.True(t, ok)
		out = append(out, block)
	}
	require.NotEmpty(t, out, "docs/suite-format.md has suite examples")
	return out
}

func TestSuitesValidUnderSchemaAndDecoder(t *testing.T) {
	v := validator{loadSchema(t)}
	docs := map[string]string{}
	for _, n := range Names() {
		b, err := BuiltinJSON(n)
		require.NoError(t, err)
		docs["builtin "+n] = string(b)
	}
	for i, ex := range docExamples(t) {
		docs[fmt.Sprintf("docs example %d", i+1)] = ex
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			assert.NoError(t, v.validate([]byte(doc)), "schema")
			_, err := Parse([]byte(doc), name, ".")
			assert.NoError(t, err, "decoder")
		})
	}
}

func TestMalformedSuitesInvalidUnderBoth(t *testing.T) {
	v := validator{loadSchema(t)}
	good := `{"name":"s","game":"casino-holdem","profile":"casino-holdem","artefacts":{"logs":["logs/day1"]},
"requirements":[{"id":"replay.resettle","text":"every logged round re-settles","check":"replay","params":{"currencies":{"ETH":18}}}]}`
	require.NoError(t, v.validate([]byte(good)))
	_, err := Parse([]byte(good), "s.json", ".")
	require.NoError(t, err)
	for name, doc := range map[string]string{
		"unknown member":        strings.Replace(good, `"name":"s"`, `"name":"s","version":1`, 1),
		"unknown artefact":      strings.Replace(good, `"logs":`, `"log":`, 1),
		"unknown param":         strings.Replace(good, `"currencies"`, `"currency"`, 1),
		"bad game":              strings.Replace(good, `"game":"casino-holdem"`, `"game":"poker"`, 1),
		"bad check":             strings.Replace(good, `"check":"replay"`, `"check":"replays"`, 1),
		"bad id":                strings.Replace(good, `"id":"replay.resettle"`, `"id":"Replay"`, 1),
		"path with ..":          strings.Replace(good, `logs/day1`, `../logs`, 1),
		"absolute path":         strings.Replace(good, `logs/day1`, `/logs`, 1),
		"no requirements":       strings.Replace(good, `"requirements":[{`, `"requirements":[],"x":[{`, 1),
		"decimals too many":     strings.Replace(good, `"ETH":18`, `"ETH":19`, 1),
		"bad currency":          strings.Replace(good, `"ETH":18`, `"eth":18`, 1),
		"empty text":            strings.Replace(good, `"text":"every logged round re-settles"`, `"text":""`, 1),
		"alpha out of range":    strings.Replace(good, `"check":"replay","params":{"currencies":{"ETH":18}}`, `"check":"stats-decks","params":{"alpha":1}}`, 1),
		"nist bits not bytes":   strings.Replace(good, `"check":"replay","params":{"currencies":{"ETH":18}}`, `"check":"nist-raw","params":{"bits":400001}}`, 1),
		"repeated strategy":     strings.Replace(good, `"check":"replay","params":{"currencies":{"ETH":18}}`, `"check":"math-claims","params":{"strategies":["basic","basic"]}}`, 1),
		"basic strategy path":   strings.Replace(good, `"check":"replay","params":{"currencies":{"ETH":18}}`, `"check":"math-claims","params":{"basic_strategy":"../basic.txt"}}`, 1),
		"decks too few":         strings.Replace(good, `"check":"replay","params":{"currencies":{"ETH":18}}`, `"check":"stats-scheme","params":{"decks":10}}`, 1),
		"params of another one": strings.Replace(good, `"check":"replay","params":{"currencies":{"ETH":18}}`, `"check":"vectors","params":{"alpha":0.01}}`, 1),
	} {
		t.Run(name, func(t *testing.T) {
			assert.Error(t, v.validate([]byte(doc)), "schema")
			_, err := Parse([]byte(doc), "s.json", ".")
			assert.ErrorIs(t, err, ErrInput, "decoder")
		})
	}
}
