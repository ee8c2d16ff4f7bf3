package strategy

import (
	"fmt"
	"strings"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

// A condition of a rule is one phrase of the vocabulary below. In the
// patterns, {R} is a rank (2-9, T, J, Q, K, A), {Rs} a rank with a plural
// s ("4s", "As"), {XY} two hole ranks, the higher first, optionally
// followed by s (suited) or o (offsuit) ("AK", "AKs", "T9o", "77"), and {C}
// a card ("Ah"). "The five cards" are the two hole cards and the flop.

// phrase is one entry of the vocabulary.
type phrase struct {
	pattern string // the canonical spelling with placeholders
	meaning string // for the docs
	build   func(c *captures) term
	elems   []elem
}

// vocabulary is every condition a rule can use, in the order of the docs.
var vocabulary = func() []phrase {
	v := []phrase{
		{pattern: "{CAT}", meaning: "the five cards make exactly this category (high card, pair, two pair, three of a kind, straight, flush, full house, four of a kind, straight flush, royal flush)",
			build: func(c *captures) term { return term{kind: kCategory, cat: c.cat} }},
		{pattern: "{CAT} or better", meaning: "the five cards make this category or a better one (\"pair or better\")",
			build: func(c *captures) term { return term{kind: kCategoryOrBetter, cat: c.cat} }},
		{pattern: "pair of {Rs} or better", meaning: "the five cards make a pair of this rank or any better hand (\"pair of As or better\": the AA Bonus wins)",
			build: func(c *captures) term { return term{kind: kPairOrBetter, r1: c.ranks[0]} }},
		{pattern: "pocket pair", meaning: "the two hole cards have the same rank",
			build: func(*captures) term { return term{kind: kPocketPair} }},
		{pattern: "pocket pair of {Rs} or better", meaning: "the two hole cards are a pair of this rank or higher",
			build: func(c *captures) term { return term{kind: kPocketPairOrBetter, r1: c.ranks[0]} }},
		{pattern: "paired hole card", meaning: "a hole card shares its rank with another of the five cards (a pair or better made with a hole card)",
			build: func(*captures) term { return term{kind: kPairedHoleCard} }},
		{pattern: "board pair", meaning: "two or three flop cards share a rank",
			build: func(*captures) term { return term{kind: kBoardPair} }},
		{pattern: "board trips", meaning: "the three flop cards share a rank",
			build: func(*captures) term { return term{kind: kBoardTrips} }},
		{pattern: "hole card {R}", meaning: "a hole card has this rank",
			build: func(c *captures) term { return term{kind: kHoleCard, r1: c.ranks[0]} }},
		{pattern: "hole card {R} or better", meaning: "a hole card has this rank or a higher one (\"hole card K or better\": ace or king high in the hand)",
			build: func(c *captures) term { return term{kind: kHoleCardOrBetter, r1: c.ranks[0]} }},
		{pattern: "both hole cards {R} or better", meaning: "both hole cards have this rank or a higher one",
			build: func(c *captures) term { return term{kind: kBothHoleCardsOrBetter, r1: c.ranks[0]} }},
		{pattern: "hole {XY}", meaning: "the hole cards have these two ranks (\"hole AK\"), suited (\"hole AKs\") or offsuit (\"hole AKo\"); a pocket pair is written \"hole 77\"",
			build: func(c *captures) term {
				return term{kind: kHoleRanks, r1: c.ranks[0], r2: c.ranks[1], suited: c.suited}
			}},
		{pattern: "suited hole cards", meaning: "the two hole cards have the same suit",
			build: func(*captures) term { return term{kind: kSuitedHole} }},
		{pattern: "overcard", meaning: "a hole card ranks above every flop card",
			build: func(*captures) term { return term{kind: kOvercard} }},
		{pattern: "two overcards", meaning: "both hole cards rank above every flop card",
			build: func(*captures) term { return term{kind: kTwoOvercards} }},
		{pattern: "kicker {R} or better", meaning: "the highest hole card whose rank appears nowhere else in the five cards has this rank or a higher one (false when both hole cards are paired)",
			build: func(c *captures) term { return term{kind: kKickerOrBetter, r1: c.ranks[0]} }},
		{pattern: "four to a flush", meaning: "exactly four of the five cards have one suit, and at least one hole card is of that suit",
			build: func(*captures) term { return term{kind: kFourFlush} }},
		{pattern: "four to a flush with two hole cards", meaning: "four to a flush with both hole cards in the suit",
			build: func(*captures) term { return term{kind: kFourFlushTwo} }},
		{pattern: "four to a flush with one hole card", meaning: "four to a flush with exactly one hole card in the suit",
			build: func(*captures) term { return term{kind: kFourFlushOne} }},
		{pattern: "open-ended straight draw", meaning: "the five cards make less than a straight and at least two ranks would each complete a straight that uses a hole card (an outside straight draw or a double gutshot: 8 outs)",
			build: func(*captures) term { return term{kind: kOpenEnded} }},
		{pattern: "gutshot", meaning: "the five cards make less than a straight and exactly one rank would complete a straight that uses a hole card (4 outs)",
			build: func(*captures) term { return term{kind: kGutshot} }},
		{pattern: "straight draw", meaning: "an open-ended straight draw or a gutshot",
			build: func(*captures) term { return term{kind: kStraightDraw} }},
		{pattern: "cards {C} {C} on {C} {C} {C}", meaning: "the hole cards and the flop are these, up to a relabelling of the suits (one decision state; written as its representative)",
			build: func(c *captures) term {
				h, f := exact.Canonical([2]card.Card{c.cards[0], c.cards[1]}, [3]card.Card{c.cards[2], c.cards[3], c.cards[4]})
				return term{kind: kCards, hole: h, flop: f}
			}},
	}
	for i := range v {
		v[i].elems = compilePattern(v[i].pattern)
	}
	return v
}()

// kind is what a term tests.
type kind uint8

const (
	kCategory kind = iota
	kCategoryOrBetter
	kPairOrBetter
	kPocketPair
	kPocketPairOrBetter
	kPairedHoleCard
	kBoardPair
	kBoardTrips
	kHoleCard
	kHoleCardOrBetter
	kBothHoleCardsOrBetter
	kHoleRanks
	kSuitedHole
	kOvercard
	kTwoOvercards
	kKickerOrBetter
	kFourFlush
	kFourFlushTwo
	kFourFlushOne
	kOpenEnded
	kGutshot
	kStraightDraw
	kCards
)

// term is one condition, possibly negated.
type term struct {
	kind   kind
	not    bool
	cat    hand.Category
	r1, r2 card.Rank // r1 >= r2 for kHoleRanks
	suited int8      // kHoleRanks: 1 suited, -1 offsuit, 0 either
	hole   [2]card.Card
	flop   [3]card.Card
}

// holds reports whether the term is true in s.
func (t *term) holds(s *situation) bool {
	return t.test(s) != t.not
}

func (t *term) test(s *situation) bool {
	h0, h1 := s.hole[0].Rank(), s.hole[1].Rank()
	switch t.kind {
	case kCategory:
		return s.cat == t.cat
	case kCategoryOrBetter:
		return s.cat >= t.cat
	case kPairOrBetter:
		return s.value >= hand.MinPair(t.r1)
	case kPocketPair:
		return h0 == h1
	case kPocketPairOrBetter:
		return h0 == h1 && h0 >= t.r1
	case kPairedHoleCard:
		return s.rankCount[h0] > 1 || s.rankCount[h1] > 1
	case kBoardPair:
		return s.flopCount[s.flop[0].Rank()] > 1 || s.flopCount[s.flop[1].Rank()] > 1
	case kBoardTrips:
		return s.flopCount[s.flop[0].Rank()] == 3
	case kHoleCard:
		return h0 == t.r1 || h1 == t.r1
	case kHoleCardOrBetter:
		return max(h0, h1) >= t.r1
	case kBothHoleCardsOrBetter:
		return min(h0, h1) >= t.r1
	case kHoleRanks:
		if max(h0, h1) != t.r1 || min(h0, h1) != t.r2 {
			return false
		}
		suited := s.hole[0].Suit() == s.hole[1].Suit()
		return t.suited == 0 || (t.suited > 0) == suited
	case kSuitedHole:
		return s.hole[0].Suit() == s.hole[1].Suit()
	case kOvercard:
		return max(h0, h1) > s.flopMax
	case kTwoOvercards:
		return min(h0, h1) > s.flopMax
	case kKickerOrBetter:
		k, ok := s.kicker()
		return ok && k >= t.r1
	case kFourFlush:
		return s.flushHole > 0
	case kFourFlushTwo:
		return s.flushHole == 2
	case kFourFlushOne:
		return s.flushHole == 1
	case kOpenEnded:
		return s.straightOuts >= 2
	case kGutshot:
		return s.straightOuts == 1
	case kStraightDraw:
		return s.straightOuts >= 1
	case kCards:
		h, f := s.canonical()
		return h == t.hole && f == t.flop
	}
	panic(fmt.Sprintf("strategy: unknown term kind %d", t.kind))
}

// String returns the canonical spelling of the term.
func (t *term) String() string {
	var b strings.Builder
	if t.not {
		b.WriteString("not ")
	}
	b.WriteString(t.phrase())
	return b.String()
}

func (t *term) phrase() string {
	r := func(r card.Rank) string { return rankString(r) }
	switch t.kind {
	case kCategory:
		return categoryWords[t.cat]
	case kCategoryOrBetter:
		return categoryWords[t.cat] + " or better"
	case kPairOrBetter:
		return "pair of " + r(t.r1) + "s or better"
	case kPocketPair:
		return "pocket pair"
	case kPocketPairOrBetter:
		return "pocket pair of " + r(t.r1) + "s or better"
	case kPairedHoleCard:
		return "paired hole card"
	case kBoardPair:
		return "board pair"
	case kBoardTrips:
		return "board trips"
	case kHoleCard:
		return "hole card " + r(t.r1)
	case kHoleCardOrBetter:
		return "hole card " + r(t.r1) + " or better"
	case kBothHoleCardsOrBetter:
		return "both hole cards " + r(t.r1) + " or better"
	case kHoleRanks:
		suffix := ""
		switch t.suited {
		case 1:
			suffix = "s"
		case -1:
			suffix = "o"
		}
		return "hole " + r(t.r1) + r(t.r2) + suffix
	case kSuitedHole:
		return "suited hole cards"
	case kOvercard:
		return "overcard"
	case kTwoOvercards:
		return "two overcards"
	case kKickerOrBetter:
		return "kicker " + r(t.r1) + " or better"
	case kFourFlush:
		return "four to a flush"
	case kFourFlushTwo:
		return "four to a flush with two hole cards"
	case kFourFlushOne:
		return "four to a flush with one hole card"
	case kOpenEnded:
		return "open-ended straight draw"
	case kGutshot:
		return "gutshot"
	case kStraightDraw:
		return "straight draw"
	case kCards:
		return "cards " + t.hole[0].String() + " " + t.hole[1].String() + " on " +
			t.flop[0].String() + " " + t.flop[1].String() + " " + t.flop[2].String()
	}
	return fmt.Sprintf("term(%d)", t.kind)
}

// categoryWords are the categories as rules spell them.
var categoryWords = [hand.NumCategories + 1]string{
	"", "high card", "pair", "two pair", "three of a kind", "straight", "flush",
	"full house", "four of a kind", "straight flush", "royal flush",
}

const rankChars = "23456789TJQKA"

func rankString(r card.Rank) string { return rankChars[r : r+1] }

// parseRank reads one rank character, either case.
func parseRank(s string) (card.Rank, bool) {
	if len(s) != 1 {
		return 0, false
	}
	i := strings.IndexByte(rankChars, strings.ToUpper(s)[0])
	if i < 0 {
		return 0, false
	}
	return card.Rank(i), true
}
