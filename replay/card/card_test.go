package card

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDeckOrder(t *testing.T) {
	d := Deck()
	require.Len(t, d, DeckSize)
	seen := make(map[string]bool)
	for i, c := range d {
		assert.Equal(t, Card(i), c)
		assert.Equal(t, Rank(i/4), c.Rank())
		assert.Equal(t, Suit(i%4), c.Suit())
		assert.Equal(t, c, New(c.Rank(), c.Suit()))
		assert.True(t, c.Valid())
		s := c.String()
		assert.Len(t, s, 2)
		assert.False(t, seen[s], "canonical %q used twice", s)
		seen[s] = true
	}
	assert.Equal(t, "2c 2d 2h 2s 3c", Format(d[:5]))
	assert.Equal(t, "Tc Ac Ad Ah As", Format([]Card{d[32], d[48], d[49], d[50], d[51]}))
	assert.False(t, Card(DeckSize).Valid())
	assert.Equal(t, "Card(52)", Card(DeckSize).String())
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"As", "As"}, {"as", "As"}, {"AS", "As"}, {"aS", "As"},
		{"Td", "Td"}, {"td", "Td"}, {"10d", "Td"}, {"10D", "Td"},
		{"2c", "2c"}, {"9h", "9h"}, {"Jc", "Jc"}, {"qD", "Qd"}, {"kh", "Kh"},
		{"A♠", "As"}, {"A♤", "As"}, {"K♥", "Kh"}, {"K♡", "Kh"}, {"10♦", "Td"}, {"Q♢", "Qd"},
		{"2♣", "2c"}, {"2♧", "2c"},
	} {
		c, err := Parse(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, c.String(), tc.in)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, reason string }{
		{"", "empty"},
		{"A", "want a rank"},
		{"♠", "want a rank"},
		{"1x", `unknown rank "1"`},
		{"1s", `unknown rank "1"`},
		{"11s", `unknown rank "11"`},
		{"Ax", `unknown suit "x"`},
		{"A♪", `unknown suit "♪"`},
		{"Zs", `unknown rank "Z"`},
		{"Ass", `unknown rank "As"`},
		{"0s", `unknown rank "0"`},
	} {
		_, err := Parse(tc.in)
		var pe *ParseError
		require.ErrorAs(t, err, &pe, tc.in)
		assert.Equal(t, tc.in, pe.Token)
		assert.Contains(t, err.Error(), tc.reason, tc.in)
		assert.Contains(t, err.Error(), `"`+tc.in+`"`)
	}
}

func TestParseList(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"As Kd", "As Kd"},
		{"As,Kd, 10h\t2c\n3d", "As Kd Th 2c 3d"},
		{"AsKd10h", "As Kd Th"},
		{"A♠K♦10♥", "As Kd Th"},
		{"", ""},
		{"  , ", ""},
	} {
		cs, err := ParseList(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, Format(cs), tc.in)
	}
	for _, tc := range []struct{ in, token string }{
		{"As Ks As", "As"},
		{"Td 10d", "Td"},
		{"As 1x", "1x"},
		{"AsK", "K"},
		{"As10", "10"},
		{"Xs Kd", "Xs"},
	} {
		_, err := ParseList(tc.in)
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.token, tc.in)
	}
	_, err := ParseList("As Ks As")
	var de *DuplicateError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, New(Ace, Spades), de.Card)
}

// ParseSequence takes every notation ParseList takes, and keeps repeats.
func TestParseSequence(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"QdQd7h", "Qd Qd 7h"},
		{"10h,10h Th", "Th Th Th"},
		{"A♠a♠AS", "As As As"},
		{"As,Kd, 10h\t2c\n3d", "As Kd Th 2c 3d"},
	} {
		cs, err := ParseSequence(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, Format(cs), tc.in)
	}
	for _, in := range []string{"AsK", "As 1x", "Xs"} {
		_, err := ParseSequence(in)
		var pe *ParseError
		assert.ErrorAs(t, err, &pe, in)
	}
}

func TestParseN(t *testing.T) {
	cs, err := ParseN("As Ks Qs", 3)
	require.NoError(t, err)
	assert.Equal(t, "As Ks Qs", Format(cs))
	for _, n := range []int{2, 4} {
		_, err := ParseN("As Ks Qs", n)
		assert.ErrorContains(t, err, "got 3 cards")
	}
}

func TestParseStrings(t *testing.T) {
	cs, err := ParseStrings([]string{"As", "10d", "2♣"})
	require.NoError(t, err)
	assert.Equal(t, []string{"As", "Td", "2c"}, Strings(cs))
	_, err = ParseStrings([]string{"As", "as"})
	assert.True(t, errors.As(err, new(*DuplicateError)))
	_, err = ParseStrings([]string{"As", "As Kd"})
	assert.Error(t, err)
}

func TestCheckDistinct(t *testing.T) {
	assert.NoError(t, CheckDistinct(Deck()))
	assert.ErrorContains(t, CheckDistinct([]Card{1, 52}), "52")
	assert.ErrorContains(t, CheckDistinct([]Card{1, 2, 1}), "2d appears more than once")
}

func TestTextMarshal(t *testing.T) {
	for _, c := range Deck() {
		b, err := c.MarshalText()
		require.NoError(t, err)
		var back Card
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, c, back)
	}
	_, err := Card(60).MarshalText()
	assert.Error(t, err)
	var c Card
	assert.Error(t, c.UnmarshalText([]byte("1x")))
}

func TestRankSuitNames(t *testing.T) {
	assert.Equal(t, "aces", Ace.Name())
	assert.Equal(t, "sixes", Six.Name())
	assert.Equal(t, "twos", Two.Name())
	assert.Equal(t, "T", Ten.String())
	assert.Equal(t, "Rank(13)", Rank(13).String())
	assert.Equal(t, "Rank(13)", Rank(13).Name())
	assert.Equal(t, "s", Spades.String())
	assert.Equal(t, "Suit(4)", Suit(4).String())
	for r := Two; r <= Ace; r++ {
		got, ok := ParseRank(r.String())
		assert.True(t, ok)
		assert.Equal(t, r, got)
	}
	_, ok := ParseRank("")
	assert.False(t, ok)
}

func TestSet(t *testing.T) {
	cs, err := ParseList("As 2c Kd")
	require.NoError(t, err)
	s := SetOf(cs...)
	assert.Equal(t, 3, s.Len())
	assert.True(t, s.Has(New(Ace, Spades)))
	assert.False(t, s.Has(New(Ace, Hearts)))
	assert.Equal(t, "2c Kd As", s.String())
	assert.Equal(t, []Card{0, 45, 51}, s.Cards())
	s = s.Remove(New(Ace, Spades)).Add(New(Three, Clubs))
	assert.Equal(t, "2c 3c Kd", s.String())
	assert.Equal(t, DeckSize, FullDeck.Len())
	assert.Equal(t, Deck(), FullDeck.Cards())
	assert.Equal(t, 0, Set(0).Len())
}

// FuzzParse: Parse never panics; whatever it accepts is a valid card whose
// canonical form parses back to it and is its own canonical form.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"As", "10d", "td", "A♠", "1x", "", "♠", "10", "\xff\xfe", "A\xe2\x99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, s, pe.Token)
			return
		}
		require.True(t, c.Valid(), "%q parsed to invalid %d", s, c)
		canon := c.String()
		back, err := Parse(canon)
		require.NoError(t, err)
		assert.Equal(t, c, back)
		assert.Equal(t, canon, back.String())
		// Accepted input differs from the canonical form only by case,
		// "10" for "T" or a suit symbol.
		if len(s) == 2 && s[1] < 0x80 {
			assert.True(t, strings.EqualFold(s, canon), "%q -> %q", s, canon)
		}
	})
}

// FuzzParseList: ParseList never panics; whatever it accepts is distinct
// valid cards that survive a trip through Format.
func FuzzParseList(f *testing.F) {
	for _, s := range []string{"As Kd", "AsKd10h", "A♠,K♦", "As As", "10", "1x 2c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseList(s)
		if err != nil {
			return
		}
		require.NoError(t, CheckDistinct(cs))
		back, err := ParseList(Format(cs))
		require.NoError(t, err)
		assert.Equal(t, cs, back)
		assert.Equal(t, Format(cs), Format(back))
	})
}
