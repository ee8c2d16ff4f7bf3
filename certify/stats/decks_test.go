package stats

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/scheme"
)

// decksFile writes n decks of src as a decks file.
func decksFile(t *testing.T, src Source, n int, edit func(i int, d *[DeckSize]uint8)) string {
	t.Helper()
	dl, err := src.NewDealer()
	require.NoError(t, err)
	var b strings.Builder
	var d [DeckSize]uint8
	for i := range n {
		_, err := dl.Deck(uint64(i), &d)
		require.NoError(t, err)
		if edit != nil {
			edit(i, &d)
		}
		b.WriteString(FormatDeck(d[:]))
		b.WriteString("\n")
	}
	return b.String()
}

func TestDecksFileBattery(t *testing.T) {
	src := SchemeSource{Scheme: mustScheme(t, scheme.FairholdV1Name), Seed: 7}
	text := decksFile(t, src, MinDecks, nil)
	d, err := ReadDecks(strings.NewReader(text))
	require.NoError(t, err)
	require.Equal(t, uint64(MinDecks), d.Len())
	r, err := Run(d, Config{Decks: d.Len()})
	require.NoError(t, err)
	assert.True(t, r.Pass, "%v", r.Failed())
	assert.Contains(t, r.Notes, "repeated seeds left out: the decks come without seeds")
	for _, ts := range r.Tests {
		assert.NotEqual(t, "collisions/seeds", ts.Name)
		assert.NotContains(t, ts.Name, "small-deck")
	}
	require.NotNil(t, r.Positions)
	var total uint64
	for _, c := range r.Positions[0] {
		total += c
	}
	assert.Equal(t, uint64(MinDecks), total)

	// The same decks from the scheme give the same position counts.
	rs, err := Run(src, Config{Decks: MinDecks})
	require.NoError(t, err)
	assert.Equal(t, *rs.Positions, *r.Positions)

	// A shuffler that leaves the ace of spades on top a tenth of the time
	// fails the position tests.
	biased := decksFile(t, src, MinDecks, func(i int, d *[DeckSize]uint8) {
		if i%10 == 0 {
			for k := range d {
				if d[k] == 51 {
					d[0], d[k] = d[k], d[0]
				}
			}
		}
	})
	d, err = ReadDecks(strings.NewReader(biased))
	require.NoError(t, err)
	r, err = Run(d, Config{Decks: d.Len()})
	require.NoError(t, err)
	assert.False(t, r.Pass)
	assert.True(t, failedFamilies(r)["position/card"], "%v", failedFamilies(r))
}

func TestReadDecksRejects(t *testing.T) {
	src := SchemeSource{Scheme: mustScheme(t, scheme.FairholdV1Name), Seed: 1}
	good := decksFile(t, src, 2, nil)
	lines := strings.Split(strings.TrimSuffix(good, "\n"), "\n")
	for name, tc := range map[string]struct {
		text       string
		line, card int
	}{
		"short line":   {lines[0] + "\n" + lines[1][:len(lines[1])-3] + "\n", 2, 0},
		"bad card":     {strings.Replace(lines[0], lines[0][:2], "Xx", 1) + "\n", 1, 1},
		"empty line":   {lines[0] + "\n\n" + lines[1] + "\n", 2, 0},
		"empty file":   {"", 1, 0},
		"long line":    {strings.Repeat("As ", 2000) + "\n", 1, 0},
		"53 cards":     {lines[0] + " As\n", 1, 0},
		"comment line": {"# decks\n" + lines[0] + "\n", 1, 0},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ReadDecks(strings.NewReader(tc.text))
			var de *DecksError
			require.True(t, errors.As(err, &de), "%v", err)
			assert.Equal(t, tc.line, de.Line, "%v", err)
			assert.Equal(t, tc.card, de.Card, "%v", err)
			assert.ErrorIs(t, err, ErrDecks)
		})
	}
	// CRLF, tabs and no final newline are read; a repeated card is read.
	crlf := strings.ReplaceAll(lines[0], " ", "\t") + "\r\n" + strings.Replace(lines[1], lines[1][:2], lines[1][3:5], 1)
	d, err := ReadDecks(strings.NewReader(crlf))
	require.NoError(t, err)
	assert.Equal(t, uint64(2), d.Len())
}
