package hand

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/fairhold/fairhold/replay/card"
)

// Census counts the hands of an exhaustive enumeration by value: every
// 5-card hand ([Census5]) or every 7-card hand ([Census7]) of one deck,
// each evaluated once. Per-category counts and the number of distinct
// values are derived from the counts.
type Census struct {
	cards  int
	counts []uint64 // indexed by Value
}

// Cards returns the hand size enumerated: 5 or 7.
func (c Census) Cards() int { return c.cards }

// Count returns the number of hands of value v.
func (c Census) Count(v Value) uint64 {
	if int(v) >= len(c.counts) {
		return 0
	}
	return c.counts[v]
}

// Hands returns the number of hands enumerated.
func (c Census) Hands() uint64 {
	var n uint64
	for _, k := range c.counts {
		n += k
	}
	return n
}

// CategoryCount returns the number of hands of category cat.
func (c Census) CategoryCount(cat Category) uint64 {
	var n uint64
	for _, v := range c.categoryValues(cat) {
		n += v
	}
	return n
}

// Distinct returns the number of distinct values reached.
func (c Census) Distinct() int {
	n := 0
	for _, k := range c.counts {
		if k != 0 {
			n++
		}
	}
	return n
}

// DistinctIn returns the number of distinct values of category cat
// reached.
func (c Census) DistinctIn(cat Category) int {
	n := 0
	for _, k := range c.categoryValues(cat) {
		if k != 0 {
			n++
		}
	}
	return n
}

// categoryValues returns the counts of the values of category cat.
func (c Census) categoryValues(cat Category) []uint64 {
	lo := int(MinOfCategory(cat))
	hi := lo + 1<<ordinalBits
	if c.counts == nil || cat < HighCard || cat > RoyalFlush {
		return nil
	}
	return c.counts[lo:hi]
}

// numValues is the size of a per-Value count array.
const numValues = 1 << 16

// Census5 evaluates each of the 2,598,960 five-card hands once.
func Census5() Census {
	setUp()
	counts := new([numValues]uint32)
	for a := card.Card(0); a < card.DeckSize; a++ {
		ka := Key{}.Add(a)
		for b := a + 1; b < card.DeckSize; b++ {
			kb := ka.Add(b)
			for c := b + 1; c < card.DeckSize; c++ {
				kc := kb.Add(c)
				for d := c + 1; d < card.DeckSize; d++ {
					kd := kc.Add(d)
					for e := d + 1; e < card.DeckSize; e++ {
						counts[kd.Add(e).value()]++
					}
				}
			}
		}
	}
	out := Census{cards: 5, counts: make([]uint64, numValues)}
	for v, n := range counts {
		out.counts[v] = uint64(n)
	}
	return out
}

// Census7 evaluates each of the 133,784,560 seven-card hands once, on one
// goroutine. The hands are enumerated in nested loops, each adding one
// card to the key of the loop outside it, so a hand costs one key
// addition and one table look-up. When the first six cards hold no four
// of a suit, the seventh cannot make a flush and the loop reads the rank
// table directly, as [Key.Value] would.
func Census7() Census { return Census7Workers(1) }

// Census7Workers is [Census7] spread over workers goroutines (each takes
// the hands whose lowest card is the next not yet taken); workers < 1
// means one per CPU. The result does not depend on workers.
func Census7Workers(workers int) Census {
	setUp()
	if workers < 1 {
		workers = runtime.NumCPU()
	}
	const firstCards = card.DeckSize - 6
	workers = min(workers, firstCards)
	var next atomic.Int32
	parts := make([]*[numValues]uint32, workers)
	var wg sync.WaitGroup
	for w := range parts {
		parts[w] = new([numValues]uint32)
		wg.Add(1)
		go func(counts *[numValues]uint32) {
			defer wg.Done()
			for {
				a := card.Card(next.Add(1) - 1)
				if a >= firstCards {
					return
				}
				census7From(a, counts)
			}
		}(parts[w])
	}
	wg.Wait()
	out := Census{cards: 7, counts: make([]uint64, numValues)}
	for _, p := range parts {
		for v, n := range p {
			out.counts[v] += uint64(n)
		}
	}
	return out
}

// fourBias, added to a key's suit counters, sets bit 3 of the nibble of
// every suit with four or more cards.
const fourBias = 0x4444 << suitShift

// census7From counts the seven-card hands whose lowest card is a.
func census7From(a card.Card, counts *[numValues]uint32) {
	const n = card.DeckSize
	ka := Key{}.Add(a)
	for b := a + 1; b < n; b++ {
		kb := ka.Add(b)
		for c := b + 1; c < n; c++ {
			kc := kb.Add(c)
			for d := c + 1; d < n; d++ {
				kd := kc.Add(d)
				for e := d + 1; e < n; e++ {
					ke := kd.Add(e)
					for f := e + 1; f < n; f++ {
						kf := ke.Add(f)
						if (kf.sum+fourBias)&flushBits != 0 {
							// Four or more of a suit: the last card may make a flush.
							for g := f + 1; g < n; g++ {
								counts[kf.Add(g).value()]++
							}
							continue
						}
						// No flush is possible: only the rank sum matters.
						r := uint32(kf.sum)
						for g := f + 1; g < n; g++ {
							counts[rankValue(r+uint32(cardSum[g&63]))]++
						}
					}
				}
			}
		}
	}
}
