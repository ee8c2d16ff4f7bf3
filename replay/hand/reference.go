package hand

import (
	"sort"
	"sync"

	"github.com/fairhold/fairhold/replay/card"
)

// This file holds the slow, obviously correct reference evaluation: rules
// applied to five cards, and the best of all five-card subsets for more.
// The fast evaluator is tested against it.

// classKey identifies a five-card hand class: the category and the ranks
// that break ties, in tie-break order (4 bits each).
type classKey uint32

func makeClassKey(c Category, ranks ...card.Rank) classKey {
	k := uint32(c)
	for i := 0; i < 5; i++ {
		k <<= 4
		if i < len(ranks) {
			k |= uint32(ranks[i]) + 1
		}
	}
	return classKey(k)
}

var (
	refOnce    sync.Once
	refOrdinal map[classKey]uint16
)

// refTables enumerates the 7,462 classes of five-card hands, sorts each
// category by its tie-break ranks and numbers them.
func refTables() map[classKey]uint16 {
	refOnce.Do(func() {
		perCat := make(map[Category][]classKey)
		var counts [13]int
		var rec func(r int, left int)
		rec = func(r int, left int) {
			if left == 0 {
				c, ranks := classifyCounts(&counts)
				perCat[c] = append(perCat[c], makeClassKey(c, ranks...))
				if c == HighCard || c == Straight {
					fc := Flush
					if c == Straight {
						fc = StraightFlush
						if ranks[0] == card.Ace {
							fc = RoyalFlush
						}
					}
					perCat[fc] = append(perCat[fc], makeClassKey(fc, ranks...))
				}
				return
			}
			if r < 0 {
				return
			}
			for n := 0; n <= 4 && n <= left; n++ {
				counts[r] = n
				rec(r-1, left-n)
			}
			counts[r] = 0
		}
		rec(12, 5)
		refOrdinal = make(map[classKey]uint16, 7462)
		for _, keys := range perCat {
			sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
			for i, k := range keys {
				refOrdinal[k] = uint16(i)
			}
		}
	})
	return refOrdinal
}

// classifyCounts classifies five cards of distinct suits-agnostic ranks by
// their rank counts, returning the category (never a flush) and the
// tie-break ranks.
func classifyCounts(counts *[13]int) (Category, []card.Rank) {
	var quads, trips, pairs, singles []card.Rank
	for r := 12; r >= 0; r-- {
		switch counts[r] {
		case 4:
			quads = append(quads, card.Rank(r))
		case 3:
			trips = append(trips, card.Rank(r))
		case 2:
			pairs = append(pairs, card.Rank(r))
		case 1:
			singles = append(singles, card.Rank(r))
		}
	}
	join := func(groups ...[]card.Rank) []card.Rank {
		var out []card.Rank
		for _, g := range groups {
			out = append(out, g...)
		}
		return out
	}
	switch {
	case len(quads) == 1:
		return FourOfAKind, join(quads, singles)
	case len(trips) == 1 && len(pairs) == 1:
		return FullHouse, join(trips, pairs)
	case len(trips) == 1:
		return ThreeOfAKind, join(trips, singles)
	case len(pairs) == 2:
		return TwoPair, join(pairs, singles)
	case len(pairs) == 1:
		return OnePair, join(pairs, singles)
	}
	// Five distinct ranks.
	if singles[0]-singles[4] == 4 {
		return Straight, singles[:1]
	}
	if singles[0] == card.Ace && singles[1] == card.Five {
		return Straight, []card.Rank{card.Five}
	}
	return HighCard, singles
}

// refEval5 evaluates exactly five distinct cards by the rules.
func refEval5(cs []card.Card) Value {
	var counts [13]int
	flush := true
	for i, c := range cs {
		counts[c.Rank()]++
		if c.Suit() != cs[0].Suit() && i > 0 {
			flush = false
		}
	}
	cat, ranks := classifyCounts(&counts)
	if flush {
		switch cat {
		case HighCard:
			cat = Flush
		case Straight:
			cat = StraightFlush
			if ranks[0] == card.Ace {
				cat = RoyalFlush
			}
		}
	}
	ord := refTables()[makeClassKey(cat, ranks...)]
	return Value(uint16(cat)<<ordinalBits | ord)
}

// RefEval evaluates 5 to 7 distinct cards the slow way: the best value of
// every five-card subset, each evaluated by the rules. It is the reference
// the fast evaluator is tested against. It returns 0 for other counts.
func RefEval(cs []card.Card) Value {
	n := len(cs)
	if n < 5 || n > 7 {
		return 0
	}
	var best Value
	sub := make([]card.Card, 5)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					for e := d + 1; e < n; e++ {
						sub[0], sub[1], sub[2], sub[3], sub[4] = cs[a], cs[b], cs[c], cs[d], cs[e]
						if v := refEval5(sub); v > best {
							best = v
						}
					}
				}
			}
		}
	}
	return best
}
