package strategy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, text, canonical string
	}{
		{"one line", "call if pair or better; otherwise fold", "call if pair or better\notherwise fold\n"},
		{"case, spacing, comments", "# header\n  CALL  If\tPair Or Better   # trailing\n\n;; Otherwise FOLD\n",
			"call if pair or better\notherwise fold\n"},
		{"crlf", "call if pair or better\r\notherwise fold\r\n", "call if pair or better\notherwise fold\n"},
		{"only otherwise", "otherwise call", "otherwise call\n"},
		{"and binds tighter than or", "fold if board pair and not paired hole card or high card and hole card 5 ; otherwise call",
			"fold if board pair and not paired hole card or high card and hole card 5\notherwise call\n"},
		{"categories", "call if straight flush or better or two pair or three of a kind or royal flush; fold if high card; otherwise call",
			"call if straight flush or better or two pair or three of a kind or royal flush\nfold if high card\notherwise call\n"},
		{"pair of Xs: longest phrase wins", "call if pair of 4s or better or pair; otherwise fold",
			"call if pair of 4s or better or pair\notherwise fold\n"},
		{"ranks in either case", "call if hole card k or better and kicker t or better or pocket pair of 8s or better; otherwise fold",
			"call if hole card K or better and kicker T or better or pocket pair of 8s or better\notherwise fold\n"},
		{"hole ranks canonical order", "call if hole KA or hole 9ts or hole 77 or hole QJo; otherwise fold",
			"call if hole AK or hole T9s or hole 77 or hole QJo\notherwise fold\n"},
		{"draws", "call if four to a flush with two hole cards or four to a flush with one hole card or four to a flush; call if open-ended straight draw or gutshot or straight draw; otherwise fold",
			"call if four to a flush with two hole cards or four to a flush with one hole card or four to a flush\ncall if open-ended straight draw or gutshot or straight draw\notherwise fold\n"},
		{"board and overcards", "fold if board trips and not two overcards and not overcard; call if board pair and both hole cards T or better; call if suited hole cards; otherwise fold",
			"fold if board trips and not two overcards and not overcard\ncall if board pair and both hole cards T or better\ncall if suited hole cards\notherwise fold\n"},
		{"cards as the state representative", "fold if cards 2h 3d on 6c As Ad; otherwise call",
			"fold if cards 2s 3d on 6c Ad Ah\notherwise call\n"},
		{"hole card exact and paired", "call if hole card A or paired hole card; otherwise fold", "call if hole card A or paired hole card\notherwise fold\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse([]byte(tc.text))
			require.NoError(t, err)
			assert.Equal(t, tc.canonical, string(s.Canonical()))
			again, err := Parse(s.Canonical())
			require.NoError(t, err)
			assert.Equal(t, s.Canonical(), again.Canonical(), "canonical form round-trips")
			assert.Equal(t, s.Hash(), again.Hash())
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text      string
		rule, line, col int
		token, want     string
	}{
		{"empty", "", 0, 0, 0, "", "rules such as"},
		{"comments only", "# nothing\n  \n", 0, 0, 0, "", "rules such as"},
		{"no otherwise", "call if pair or better", 1, 1, 23, "", "a last rule \"otherwise call\" or \"otherwise fold\""},
		{"unknown verb", "raise if pair or better; otherwise fold", 1, 1, 1, "raise", "\"call if\", \"fold if\" or \"otherwise\""},
		{"missing if", "call pair or better\notherwise fold", 1, 1, 6, "pair", "\"if\" after \"call\""},
		{"unknown condition", "call if pair or better\ncall if pear\notherwise fold", 2, 2, 9, "pear", "a condition such as"},
		{"empty condition", "call if\notherwise fold", 1, 1, 8, "", "a condition such as"},
		{"bad rank", "call if hole card Z or better; otherwise fold", 1, 1, 19, "Z", "a rank (2-9, T, J, Q, K or A)"},
		{"bad plural rank", "call if pair of 4 or better; otherwise fold", 1, 1, 17, "4", "a rank with a plural s"},
		{"ten as 10", "call if hole card 10; otherwise fold", 1, 1, 19, "10", "a rank"},
		{"missing better", "call if pocket pair of 8s or; otherwise fold", 1, 1, 29, "", "\"better\""},
		{"dangling and", "call if pair or better and; otherwise fold", 1, 1, 27, "", "a condition such as"},
		{"junk after term", "call if gutshot please; otherwise fold", 1, 1, 17, "please", "\"and\", \"or\" or the end of the rule"},
		{"otherwise not last", "otherwise fold\ncall if pair or better", 2, 2, 1, "call", "nothing after the rule \"otherwise ...\""},
		{"otherwise without action", "call if pair or better; otherwise", 2, 1, 34, "", "\"call\" or \"fold\" after \"otherwise\""},
		{"otherwise bad action", "call if pair or better; otherwise raise", 2, 1, 35, "raise", "\"call\" or \"fold\" after \"otherwise\""},
		{"otherwise junk", "otherwise fold now", 1, 1, 16, "now", "the end of the rule"},
		{"suited pair", "call if hole 77s; otherwise fold", 1, 1, 14, "77s", "two hole ranks"},
		{"repeated card", "call if cards Ah Ah on 2c 3c 4c; otherwise fold", 1, 1, 18, "Ah", "a card such as Ah, distinct"},
		{"not a card", "call if cards Ah Kh on 2c 3c Xc; otherwise fold", 1, 1, 30, "Xc", "a card such as Ah"},
		{"double not", "call if not not pair; otherwise fold", 1, 1, 13, "not", "a condition such as"},
		{"invalid utf-8", "call if pair\xff; otherwise fold", 0, 1, 13, "", "UTF-8 text"},
		{"control character", "call if pair\x00; otherwise fold", 0, 1, 13, "\x00", "words separated by spaces"},
		{"column counts characters", "# ♠♠\ncall if ♠; otherwise fold", 1, 2, 9, "♠", "a condition such as"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse([]byte(tc.text))
			require.Error(t, err)
			assert.Nil(t, s)
			var pe *ParseError
			require.True(t, errors.As(err, &pe), "%T", err)
			assert.Equal(t, tc.rule, pe.Rule, "rule")
			assert.Equal(t, tc.line, pe.Line, "line")
			assert.Equal(t, tc.col, pe.Column, "column")
			assert.Equal(t, tc.token, pe.Token, "token")
			assert.Contains(t, pe.Want, tc.want)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestParseLimits(t *testing.T) {
	_, err := Parse(make([]byte, MaxSize+1))
	assert.ErrorContains(t, err, "at most")
	many := strings.Repeat("call if pair\n", MaxRules+1) + "otherwise fold\n"
	_, err = Parse([]byte(many))
	assert.ErrorContains(t, err, "rules")
	long := "call if pair" + strings.Repeat(" and pair", MaxTerms) + "; otherwise fold"
	_, err = Parse([]byte(long))
	assert.ErrorContains(t, err, "conditions in a rule")
}

func TestCanonicalIdentity(t *testing.T) {
	a, err := Parse([]byte("call if pair or better\notherwise fold\n"))
	require.NoError(t, err)
	b, err := Parse([]byte("# the same rules\nCALL IF pair  OR better ; otherwise fold"))
	require.NoError(t, err)
	c, err := Parse([]byte("call if pair or better\notherwise call\n"))
	require.NoError(t, err)
	assert.Equal(t, a.Hash(), b.Hash(), "spacing, case, comments and separators do not change the hash")
	assert.NotEqual(t, a.Hash(), c.Hash())
	assert.Len(t, a.Hash(), 64)
	assert.Equal(t, []string{"call if pair or better", "otherwise fold"}, a.Rules())
}

func TestBuiltins(t *testing.T) {
	seen := map[string]string{}
	for _, name := range Names() {
		s, err := Builtin(name)
		require.NoError(t, err, name)
		assert.Equal(t, name, s.Name)
		assert.NotEmpty(t, s.Source, name)
		i := indexBuiltin(name)
		assert.Equal(t, builtins[i].text, string(s.Canonical()), "%s is written in canonical form", name)
		if other, dup := seen[s.Hash()]; dup {
			t.Errorf("%s and %s have the same rules", name, other)
		}
		seen[s.Hash()] = name
	}
	assert.Contains(t, Names(), SeedsBasic)
	_, err := Builtin("no-such")
	assert.ErrorIs(t, err, ErrUnknownBuiltin)
}

func indexBuiltin(name string) int {
	for i, b := range builtins {
		if b.name == name {
			return i
		}
	}
	return -1
}

func TestLoad(t *testing.T) {
	s, err := Load(SeedsBasic)
	require.NoError(t, err)
	assert.Equal(t, SeedsBasic, s.Name)

	dir := t.TempDir()
	path := filepath.Join(dir, "mine.txt")
	require.NoError(t, os.WriteFile(path, []byte("call if pair or better # mine\notherwise fold\n"), 0o600))
	s, err = Load(path)
	require.NoError(t, err)
	assert.Equal(t, path, s.Name)
	assert.Empty(t, s.Source)

	_, err = Load("no-such-strategy")
	assert.ErrorIs(t, err, ErrUnknownBuiltin)
	var le *LoadError
	require.ErrorAs(t, err, &le)

	_, err = Load(filepath.Join(dir, "missing.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.ErrorContains(t, err, "missing.txt")

	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("call if pair or better\ncall if pear\notherwise fold\n"), 0o600))
	_, err = Load(bad)
	var pe *ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 2, pe.Rule)
	assert.ErrorContains(t, err, bad)
	assert.ErrorContains(t, err, `rule 2 (line 2, column 9): "pear"`)
}

// TestDocsListVocabulary keeps docs/math.md in step with the vocabulary and
// the built-in strategies.
func TestDocsListVocabulary(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "math.md"))
	require.NoError(t, err)
	doc := string(b)
	for _, p := range vocabulary {
		assert.True(t, strings.Contains(doc, "`"+p.pattern+"`"), "docs/math.md lists the phrase %q", p.pattern)
	}
	for _, name := range Names() {
		s, err := Builtin(name)
		require.NoError(t, err)
		assert.True(t, strings.Contains(doc, "`"+name+"`"), "docs/math.md names %s", name)
		assert.True(t, strings.Contains(doc, string(s.Canonical())), "docs/math.md shows the rules of %s", name)
	}
}

func FuzzParse(f *testing.F) {
	for _, b := range builtins {
		f.Add([]byte(b.text))
	}
	f.Add([]byte("fold if cards 2h 3d on 6c As Ad and not hole AKs or pair of 4s or better; otherwise call"))
	f.Add([]byte("call if pocket pair of 8s or; otherwise"))
	f.Add([]byte("# x\ncall if four to a flush with one hole card\r\notherwise fold"))
	f.Fuzz(func(t *testing.T, text []byte) {
		s, err := Parse(text)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			return
		}
		c := s.Canonical()
		again, err := Parse(c)
		if err != nil {
			t.Fatalf("canonical text %q does not parse: %v", c, err)
		}
		if string(again.Canonical()) != string(c) {
			t.Fatalf("canonical form not stable:\n%q\n%q", c, again.Canonical())
		}
	})
}

// TestExampleFile: the commented example of docs/examples is the built-in
// pair-jack-draw.
func TestExampleFile(t *testing.T) {
	s, err := Load(filepath.Join("..", "..", "docs", "examples", "basic-strategy.txt"))
	require.NoError(t, err)
	b, err := Builtin(SeedsBasic)
	require.NoError(t, err)
	assert.Equal(t, b.Hash(), s.Hash())
}
