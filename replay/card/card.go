// Package card implements playing cards, their text notation and sets of cards.
//
// A [Card] is a number from 0 to 51. The number is the card's index in the
// canonical deck order, which the fairness scheme shuffles (see
// docs/cards.md):
//
//	index = 4*rank + suit
//
// where rank 0 is the two and rank 12 the ace, and the suits are ordered
// clubs (0), diamonds (1), hearts (2), spades (3). The canonical deck is thus
// 2c 2d 2h 2s 3c ... Ac Ad Ah As.
//
// Cards are written as a rank character followed by a suit character, "As",
// "Td", "2c". [Parse] also accepts "10" for the ten, lower-case ranks,
// upper-case suits and the suit symbols ♣ ♦ ♥ ♠ (and their white variants);
// [Card.String] always writes the canonical form: upper-case rank, "T" for
// ten, lower-case suit letter.
package card

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Card is a playing card, numbered by its index in the canonical deck order.
type Card uint8

// Rank is a card rank: [Two] (0) up to [Ace] (12).
type Rank uint8

// Suit is a card suit: [Clubs] (0), [Diamonds], [Hearts], [Spades] (3).
// The numeric order is also the suit order used where a rule breaks ties
// by suit (spades highest).
type Suit uint8

// Ranks, low to high.
const (
	Two Rank = iota
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

// Suits, in the canonical order.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

// DeckSize is the number of cards in a deck.
const DeckSize = 52

const (
	rankChars = "23456789TJQKA"
	suitChars = "cdhs"
)

// New returns the card of rank r and suit s.
func New(r Rank, s Suit) Card { return Card(4*uint8(r) + uint8(s)) }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c >> 2) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c & 3) }

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c < DeckSize }

// String returns the canonical two-character notation, e.g. "As" or "Td".
func (c Card) String() string {
	if !c.Valid() {
		return fmt.Sprintf("Card(%d)", uint8(c))
	}
	return string([]byte{rankChars[c>>2], suitChars[c&3]})
}

// MarshalText implements encoding.TextMarshaler with the canonical notation.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("card: invalid card index %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with [Parse].
func (c *Card) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// String returns the rank character, e.g. "A" or "T".
func (r Rank) String() string {
	if r > Ace {
		return fmt.Sprintf("Rank(%d)", uint8(r))
	}
	return rankChars[r : r+1]
}

// Name returns the rank's English name in the plural, e.g. "aces", "sixes".
func (r Rank) Name() string {
	names := [...]string{"twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
		"nines", "tens", "jacks", "queens", "kings", "aces"}
	if r > Ace {
		return r.String()
	}
	return names[r]
}

// String returns the suit letter, e.g. "s".
func (s Suit) String() string {
	if s > Spades {
		return fmt.Sprintf("Suit(%d)", uint8(s))
	}
	return suitChars[s : s+1]
}

// ParseError reports a card token that could not be parsed.
type ParseError struct {
	Token  string // the offending token, as given
	Reason string // what was expected
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("card %q: %s", e.Token, e.Reason)
}

// ParseRank parses a rank: one of 2-9, T, J, Q, K, A (either case) or "10".
func ParseRank(s string) (Rank, bool) {
	if s == "10" {
		return Ten, true
	}
	if len(s) != 1 {
		return 0, false
	}
	i := strings.IndexByte(rankChars, upper(s[0]))
	if i < 0 {
		return 0, false
	}
	return Rank(i), true
}

// ParseSuit parses a suit: c, d, h, s (either case) or a suit symbol.
func ParseSuit(s string) (Suit, bool) {
	switch s {
	case "c", "C", "♣", "♧":
		return Clubs, true
	case "d", "D", "♦", "♢":
		return Diamonds, true
	case "h", "H", "♥", "♡":
		return Hearts, true
	case "s", "S", "♠", "♤":
		return Spades, true
	}
	return 0, false
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

// Parse parses one card such as "As", "Td", "10d", "th" or "A♠".
func Parse(s string) (Card, error) {
	if s == "" {
		return 0, &ParseError{Token: s, Reason: "empty card; want a rank (2-9, T, J, Q, K, A or 10) followed by a suit (c, d, h, s)"}
	}
	_, size := utf8.DecodeLastRuneInString(s)
	if size >= len(s) {
		return 0, &ParseError{Token: s, Reason: "want a rank (2-9, T, J, Q, K, A or 10) followed by a suit (c, d, h, s)"}
	}
	rs, ss := s[:len(s)-size], s[len(s)-size:]
	r, ok := ParseRank(rs)
	if !ok {
		return 0, &ParseError{Token: s, Reason: fmt.Sprintf("unknown rank %q; want 2-9, T, J, Q, K, A or 10", rs)}
	}
	u, ok := ParseSuit(ss)
	if !ok {
		return 0, &ParseError{Token: s, Reason: fmt.Sprintf("unknown suit %q; want c, d, h or s (or ♣ ♦ ♥ ♠)", ss)}
	}
	return New(r, u), nil
}

// ParseList parses cards separated by spaces or commas, or written together
// without separators ("AsKd"). Duplicates are rejected.
func ParseList(s string) ([]Card, error) {
	out, err := ParseSequence(s)
	if err != nil {
		return nil, err
	}
	if err := CheckDistinct(out); err != nil {
		return nil, err
	}
	return out, nil
}

// ParseSequence parses a list in every notation [ParseList] accepts but
// keeps repeated cards: the draws of a scheme that deals with replacement
// ("QdQd7h" is three draws).
func ParseSequence(s string) ([]Card, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' })
	var out []Card
	for _, f := range fields {
		toks, err := splitRun(f)
		if err != nil {
			return nil, err
		}
		for _, t := range toks {
			c, err := Parse(t)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// ParseN parses exactly n distinct cards, as [ParseList] does.
func ParseN(s string, n int) ([]Card, error) {
	cs, err := ParseList(s)
	if err != nil {
		return nil, err
	}
	if len(cs) != n {
		return nil, fmt.Errorf("card list %q: got %d cards, want %d", s, len(cs), n)
	}
	return cs, nil
}

// ParseStrings parses one card per string and rejects duplicates.
func ParseStrings(ss []string) ([]Card, error) {
	out := make([]Card, len(ss))
	for i, s := range ss {
		c, err := Parse(s)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	if err := CheckDistinct(out); err != nil {
		return nil, err
	}
	return out, nil
}

// splitRun splits a token such as "AsKd10h" into single cards.
func splitRun(f string) ([]string, error) {
	var toks []string
	for len(f) > 0 {
		n := 2
		if strings.HasPrefix(f, "10") {
			n = 3
		}
		if len(f) < n {
			return nil, &ParseError{Token: f, Reason: "want a rank (2-9, T, J, Q, K, A or 10) followed by a suit (c, d, h, s)"}
		}
		// The suit may be a multi-byte symbol.
		_, size := utf8.DecodeRuneInString(f[n-1:])
		n += size - 1
		toks = append(toks, f[:n])
		f = f[n:]
	}
	return toks, nil
}

// DuplicateError reports a card that appears more than once.
type DuplicateError struct{ Card Card }

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("card %s appears more than once", e.Card)
}

// CheckDistinct returns a [*DuplicateError] for the first repeated card, and
// an error for any card outside the deck.
func CheckDistinct(cs []Card) error {
	var seen Set
	for _, c := range cs {
		if !c.Valid() {
			return fmt.Errorf("card index %d is not in 0..51", uint8(c))
		}
		if seen.Has(c) {
			return &DuplicateError{Card: c}
		}
		seen = seen.Add(c)
	}
	return nil
}

// Format writes cards in canonical notation separated by spaces.
func Format(cs []Card) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// Strings returns the canonical notation of each card.
func Strings(cs []Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// Deck returns the 52 cards in the canonical deck order.
func Deck() []Card {
	d := make([]Card, DeckSize)
	for i := range d {
		d[i] = Card(i)
	}
	return d
}
