package vectors

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFairnessLoads(t *testing.T) {
	vs, err := Fairness()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(vs), 50)
	expects := map[string]int{}
	for i, v := range vs {
		if i > 0 {
			assert.Less(t, vs[i-1].ID, v.ID)
		}
		expects[v.Expect]++
		// Every file is in canonical form: parse then marshal reproduces it.
		raw, err := fairnessFS.ReadFile("fairness/" + v.ID + ".json")
		require.NoError(t, err)
		b, err := v.Marshal()
		require.NoError(t, err)
		assert.Equal(t, string(raw), string(b), v.ID)
	}
	for _, e := range []string{FairnessSuccess, FairnessFailure, FairnessMalformed} {
		assert.Positive(t, expects[e], e)
	}
}

func TestParseFairnessRejects(t *testing.T) {
	for name, in := range map[string]string{
		"unknown field":   `{"id":"a","expect":"success","bogus":1}`,
		"trailing":        `{"id":"a","expect":"success"} {}`,
		"no id":           `{"expect":"success"}`,
		"bad expect":      `{"id":"a","expect":"maybe"}`,
		"failure no list": `{"id":"a","expect":"failure"}`,
		"malformed field": `{"id":"a","expect":"malformed"}`,
		"not json":        `id: a`,
	} {
		_, err := ParseFairness([]byte(in))
		assert.ErrorIs(t, err, ErrFairnessVector, name)
	}
}

func FuzzParseFairness(f *testing.F) {
	f.Add([]byte(`{"id":"a","expect":"success","scheme":"fairhold/v1","server_seed":"00","client_seeds":["x"],"nonce":"1","count":9}`))
	f.Add([]byte(`{"id":"a","expect":"failure","failures":["cards"]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		v, err := ParseFairness(in)
		if err != nil {
			return
		}
		// Marshal then parse gives the same vector.
		b, err := v.Marshal()
		require.NoError(t, err)
		w, err := ParseFairness(b)
		require.NoError(t, err)
		assert.Equal(t, v, w)
	})
}

// An escaped unpaired surrogate in a client seed is kept as invalid
// UTF-8 (encoding/json would turn it into U+FFFD, which is valid), and is
// written back as the same escape.
func TestStringsKeepLoneSurrogates(t *testing.T) {
	in := `{"id":"a","expect":"malformed","field":"client_seeds","client_seeds":["x\ud800y","\udc00","\ud83c\udca1","\u00e9\"\\<&"]}`
	v, err := ParseFairness([]byte(in))
	require.NoError(t, err)
	assert.Equal(t, Strings{"x\xed\xa0\x80y", "\xed\xb0\x80", "🂡", "é\"\\<&"}, v.ClientSeeds)
	b, err := v.ClientSeeds.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `["x\ud800y","\udc00","🂡","é\"\\<&"]`, string(b))
	// Raw bytes that are not UTF-8 are kept as they are (an input file
	// is parsed without the check of a vector file's text).
	var raw Strings
	require.NoError(t, raw.UnmarshalJSON([]byte("[\"a\xffb\",\"\xed\xa0\x80\",\"\\u00e9\xc3\"]")))
	assert.Equal(t, Strings{"a\xffb", "\xed\xa0\x80", "é\xc3"}, raw)
	input, err := ParseFairnessInput([]byte("{\"id\":\"a\",\"client_seeds\":[\"\xff\"]}"))
	require.NoError(t, err)
	assert.Equal(t, Strings{"\xff"}, input.ClientSeeds, "an input's seed is not repaired")
	// A file that is not UTF-8 is rejected outright.
	_, err = ParseFairness([]byte("{\"id\":\"a\",\"expect\":\"success\",\"client_seeds\":[\"\xff\"]}"))
	assert.ErrorIs(t, err, ErrFairnessVector)
}

func FuzzStrings(f *testing.F) {
	for _, s := range []string{`["a"]`, `["\ud800"]`, `["\\ud800","\udc00\ud800"]`, `["\ud83c\udca1x"]`, `null`, `["<&>\u0001"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var s Strings
		if s.UnmarshalJSON(in) != nil {
			return
		}
		b, err := s.MarshalJSON()
		require.NoError(t, err)
		var w Strings
		require.NoError(t, w.UnmarshalJSON(b), string(b))
		// What survives a round trip is exact, except raw invalid bytes
		// (not from escapes), which come back as U+FFFD.
		c, err := w.MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, string(b), string(c))
	})
}
