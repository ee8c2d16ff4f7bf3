package conformance

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/vectors"
)

// fairhold's own answers, computed from the inputs alone, are right for
// every vector: the inputs hold what an engine needs, and nothing
// settled is needed.
func TestOwnAnswersPass(t *testing.T) {
	answers, err := OwnAnswers()
	require.NoError(t, err)
	rep, err := CompareAnswers(answers)
	require.NoError(t, err)
	assert.True(t, rep.Pass(), "%v", rep.Problems)
	assert.Equal(t, rep.Vectors, rep.Passed)
	assert.Empty(t, rep.Problems)
}

// The exported files parse back as inputs, hold no expectation, and give
// the same answers as the vectors they come from.
func TestInputFilesRoundTrip(t *testing.T) {
	files, err := vectors.InputFiles()
	require.NoError(t, err)
	own, err := OwnAnswers()
	require.NoError(t, err)
	require.Len(t, files, len(own))
	for i, f := range files {
		assert.NotContains(t, string(f.Data), `"expect"`, f.Name)
		assert.NotContains(t, string(f.Data), `"expected"`, f.Name)
		var a Answer
		switch {
		case strings.HasPrefix(f.Name, "fairness/"):
			v, err := vectors.ParseFairnessInput(f.Data)
			require.NoError(t, err, f.Name)
			a = AnswerFairness(v)
		default:
			assert.NotContains(t, string(f.Data), `"ante_return"`, f.Name)
			assert.NotContains(t, string(f.Data), `"stack_after"`, f.Name)
			in, err := vectors.ParseRulesInput(f.Data)
			require.NoError(t, err, f.Name)
			a = AnswerRules(in)
		}
		assert.Equal(t, own[i], a, f.Name)
		assert.Equal(t, strings.TrimSuffix(f.Name, ".json"), a.Vector)
	}
}

func TestAnswersMarshalParse(t *testing.T) {
	own, err := OwnAnswers()
	require.NoError(t, err)
	b, err := MarshalAnswers(own)
	require.NoError(t, err)
	back, err := ParseAnswers(bytes.NewReader(b))
	require.NoError(t, err)
	rep, err := CompareAnswers(back)
	require.NoError(t, err)
	assert.True(t, rep.Pass(), "%v", rep.Problems)
	b2, err := MarshalAnswers(back)
	require.NoError(t, err)
	assert.Equal(t, string(b), string(b2))
}

// findAnswer returns the index of a vector's answer.
func findAnswer(t *testing.T, as []Answer, name string) int {
	t.Helper()
	for i, a := range as {
		if a.Vector == name {
			return i
		}
	}
	t.Fatalf("no answer to %s", name)
	return -1
}

func TestAnswersOneCardWrong(t *testing.T) {
	own, err := OwnAnswers()
	require.NoError(t, err)
	// A casino-holdem vector with a layout: change the dealer's first card
	// (position 3) to a card the deal does not hold there.
	var name string
	for _, a := range own {
		if strings.HasPrefix(a.Vector, "fairness/") && a.Verdict == vectors.FairnessSuccess && len(a.Cards) == 9 {
			name = a.Vector
			break
		}
	}
	require.NotEmpty(t, name)
	i := findAnswer(t, own, name)
	own[i].Cards = append([]string(nil), own[i].Cards...)
	own[i].Cards[2] = own[i].Cards[8]
	rep, err := CompareAnswers(own)
	require.NoError(t, err)
	assert.False(t, rep.Pass())
	require.Len(t, rep.Problems, 1)
	p := rep.Problems[0]
	assert.Equal(t, name, p.Vector)
	assert.Equal(t, ProblemWrong, p.Problem)
	assert.Equal(t, i+1, p.Line)
	assert.Contains(t, p.Detail, "card 3 (dealer, first card)")
	assert.Equal(t, 1, rep.Wrong)
}

func TestCardPosition(t *testing.T) {
	live := vectors.FairnessVector{Game: "live-casino-holdem", Hands: 2}
	assert.Equal(t, "card 4 (box 2, second hole card)", CardPosition(live, 3))
	assert.Equal(t, "card 5 (dealer, first card)", CardPosition(live, 4))
	assert.Equal(t, "card 8 (flop, second card)", CardPosition(live, 7))
	assert.Equal(t, "card 10 (turn)", CardPosition(live, 9))
	assert.Equal(t, "card 11 (river)", CardPosition(live, 10))
	assert.Equal(t, "card 2 (player, second hole card)", CardPosition(vectors.FairnessVector{Game: "casino-holdem", Hands: 1}, 1))
	dbl := vectors.FairnessVector{Game: "double-holdem", Hands: 3, Seats: []int{2, 5, 9}, Button: 5}
	assert.Equal(t, "card 1 (seat 9, first hole card)", CardPosition(dbl, 0))
	assert.Equal(t, "card 7", CardPosition(vectors.FairnessVector{}, 6))
}

func TestAnswersMissingExtraRepeatedWrong(t *testing.T) {
	own, err := OwnAnswers()
	require.NoError(t, err)
	var rules int
	for i, a := range own {
		if a.Boxes != nil {
			rules = i
			break
		}
	}
	wrong := own[rules]
	wrong.Boxes = append([]vectors.BoxExpect(nil), wrong.Boxes...)
	wrong.Boxes[0].AnteReturn++
	missing := own[0].Vector
	require.Positive(t, rules)
	as := slices.Clone(own[1:])
	as[rules-1] = wrong
	as = append(as, Answer{Vector: "rules/no-such-vector", Error: &RejectAnswer{Kind: "round"}}, own[5])
	rep, err := CompareAnswers(as)
	require.NoError(t, err)
	assert.False(t, rep.Pass())
	assert.Equal(t, 1, rep.Missing)
	assert.Equal(t, 1, rep.Wrong)
	assert.Equal(t, 2, rep.Extra)
	var got []string
	for _, p := range rep.Problems {
		got = append(got, p.Vector+" "+p.Problem)
	}
	assert.Equal(t, []string{missing + " missing", wrong.Vector + " wrong", "rules/no-such-vector extra", own[5].Vector + " extra"}, got)
	assert.Contains(t, rep.Problems[1].Detail, "ante_return: answered")
	assert.Contains(t, rep.Problems[3].Detail, "a second answer")
}

func TestParseAnswersRejects(t *testing.T) {
	for name, tc := range map[string]struct{ in, field string }{
		"unknown member":   {`{"vector":"fairness/a","verdict":"success","note":1}`, "note"},
		"wrong type":       {`{"vector":"fairness/a","verdict":"success","cards":"As"}`, "cards"},
		"bad vector name":  {`{"vector":"a","verdict":"success"}`, "vector"},
		"nested name":      {`{"vector":"rules/a/b","error":{"kind":"round"}}`, "vector"},
		"no verdict":       {`{"vector":"fairness/a","cards":["As"]}`, "verdict"},
		"bad verdict":      {`{"vector":"fairness/a","verdict":"ok"}`, "verdict"},
		"mixed kinds":      {`{"vector":"fairness/a","verdict":"success","boxes":[]}`, "vector"},
		"rules no answer":  {`{"vector":"rules/a"}`, "vector"},
		"rules two":        {`{"vector":"rules/a","boxes":[],"error":{"kind":"round"}}`, "vector"},
		"error no kind":    {`{"vector":"rules/a","error":{}}`, "error.kind"},
		"not json":         {`vector: a`, ""},
		"two values":       {`{"vector":"rules/a","error":{"kind":"round"}} {}`, ""},
		"empty line":       {``, ""},
		"truncated object": {`{"vector":"rules/a","error":{"kind":"round"}`, ""},
	} {
		t.Run(name, func(t *testing.T) {
			in := `{"vector":"rules/x","error":{"kind":"round"}}` + "\n" + tc.in + "\n"
			_, err := ParseAnswers(strings.NewReader(in))
			var le *AnswerLineError
			require.True(t, errors.As(err, &le), "%v", err)
			assert.Equal(t, 2, le.Line)
			assert.Equal(t, tc.field, le.Field, "%v", err)
			assert.ErrorIs(t, err, ErrAnswer)
		})
	}
	// CRLF line ends and no final newline are accepted.
	as, err := ParseAnswers(strings.NewReader("{\"vector\":\"rules/x\",\"error\":{\"kind\":\"round\"}}\r\n{\"vector\":\"fairness/y\",\"verdict\":\"success\"}"))
	require.NoError(t, err)
	assert.Len(t, as, 2)
}

func FuzzParseAnswers(f *testing.F) {
	f.Add([]byte(`{"vector":"fairness/a","verdict":"success","cards":["As"]}` + "\n"))
	f.Add([]byte(`{"vector":"rules/a","boxes":[{"box":1}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		as, err := ParseAnswers(bytes.NewReader(b))
		if err != nil {
			return
		}
		if _, err := CompareAnswers(as); err != nil {
			t.Fatal(err)
		}
	})
}
