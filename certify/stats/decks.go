package stats

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/fairhold/fairhold/replay/card"
)

// Decks are decks an operator supplies from its own shuffler (the "final
// outcome" a lab collects), read from a decks file by [ReadDecks]. They
// are a [Source]: the battery runs on them in file order. They carry no
// seeds, so the repeated-seed test is left out ([Seedless]), and no small
// decks.
//
// # The decks file
//
// UTF-8 text, one deck per line, in the order the shuffler produced them:
// the 52 cards from the top of the deck down, in the notation of
// docs/cards.md ("As", "Td", "2c"), separated by spaces or tabs. Lines end
// with "\n" (or "\r\n"); the last line's newline is optional; a file has
// no empty lines and no comments. A deck that repeats a card is read (the
// battery's validity test fails it); a line of another number of cards or
// with a card that is not one is an error naming the line and the card.
type Decks struct {
	cards []uint8 // DeckSize per deck
}

// Len returns the number of decks.
func (d *Decks) Len() uint64 { return uint64(len(d.cards) / DeckSize) }

// Deck returns deck i (0-based) as card indices.
func (d *Decks) Deck(i uint64) []uint8 { return d.cards[i*DeckSize : (i+1)*DeckSize] }

// NewDealer returns a dealer of the decks; it is safe to use one per
// worker.
func (d *Decks) NewDealer() (Dealer, error) { return decksDealer{d}, nil }

// Seedless reports true: a decks file has no seeds.
func (d *Decks) Seedless() bool { return true }

type decksDealer struct{ d *Decks }

func (dd decksDealer) Deck(i uint64, out *[DeckSize]uint8) (uint64, error) {
	if i >= dd.d.Len() {
		return 0, fmt.Errorf("deck %d of %d", i, dd.d.Len())
	}
	copy(out[:], dd.d.Deck(i))
	return i, nil
}

func (dd decksDealer) Small(uint64, []uint8) error {
	return fmt.Errorf("%w: a decks file holds full decks only", ErrNoSmall)
}

// Seedless is implemented by a [Source] whose decks come without seeds
// (an operator's decks file): the battery then leaves out the test of
// repeated seeds, and notes it.
type Seedless interface {
	Seedless() bool
}

// DecksError is a malformed line of a decks file.
type DecksError struct {
	Line int    // from 1
	Card int    // the card's place on the line, from 1; 0 for the line as a whole
	Err  error  // what is wrong
	Text string // the offending token, if any
}

func (e *DecksError) Error() string {
	if e.Card > 0 {
		return fmt.Sprintf("line %d, card %d (%q): %v", e.Line, e.Card, e.Text, e.Err)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

func (e *DecksError) Unwrap() error { return e.Err }

// ErrDecks is wrapped by every [*DecksError].
var ErrDecks = errors.New("malformed decks file")

// maxDeckLine bounds a line: 52 cards of at most 4 bytes ("10♠" is 5)
// and their separators, with room for wide white space.
const maxDeckLine = 4096

// ReadDecks reads a decks file (see [Decks]). The error for a malformed
// line is a [*DecksError]; an empty file is one too.
func ReadDecks(r io.Reader) (*Decks, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, maxDeckLine), maxDeckLine)
	d := &Decks{}
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSuffix(sc.Bytes(), []byte("\r"))
		fields := bytes.Fields(b)
		if len(fields) != DeckSize {
			return nil, &DecksError{Line: line, Err: fmt.Errorf("%w: %d cards, want %d separated by spaces", ErrDecks, len(fields), DeckSize)}
		}
		for k, f := range fields {
			c, err := card.Parse(string(f))
			if err != nil {
				return nil, &DecksError{Line: line, Card: k + 1, Text: string(f), Err: fmt.Errorf("%w: %v", ErrDecks, err)}
			}
			d.cards = append(d.cards, uint8(c))
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &DecksError{Line: line + 1, Err: fmt.Errorf("%w: longer than %d bytes", ErrDecks, maxDeckLine)}
		}
		return nil, err
	}
	if line == 0 {
		return nil, &DecksError{Line: 1, Err: fmt.Errorf("%w: no decks", ErrDecks)}
	}
	return d, nil
}

// FormatDeck returns deck as a line of a decks file, without the newline.
func FormatDeck(deck []uint8) string {
	var b []byte
	for i, c := range deck {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, card.Card(c).String()...)
	}
	return string(b)
}
