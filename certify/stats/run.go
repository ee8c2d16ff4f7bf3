package stats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

// chunkSize is the number of decks one job deals; chunks are the unit of
// work sharing and of the serial-correlation boundaries.
const chunkSize = 1 << 14

// smallSizes are the small deck sizes whose permutations are counted.
var smallSizes = [...]int{3, 4, 5, 6}

// orderCards are the fixed cards whose relative order is counted in full
// decks: 2c, 5d, 8h, Js, As.
var orderCards = [5]uint8{0, 13, 26, 39, 51}

// counts are the integer accumulators of a battery run. Workers keep their
// own and they are summed at the end, so the totals do not depend on the
// number of workers or the order of the work.
type counts struct {
	pos [DeckSize][DeckSize]uint64 // [position][card]
	adj [DeckSize][DeckSize]uint64 // [card][next card]
	// serial[c] sums (2x_c - 51)(2y_c - 51) over successive decks, x_c and
	// y_c the positions of card c (0 contribution when c is absent).
	serial [DeckSize]int64
	runs   uint64 // total number of runs up and down
	order  [120]uint64
	small  [len(smallSizes)][720]uint64
	// smallInvalid counts small decks that were not permutations.
	smallInvalid uint64
	invalid      uint64 // decks that are not permutations of the 52 cards
	starting     [169]uint64
	aaBonus      uint64 // player's 2 + flop: a pair of aces or better
	dealer       [dealerCells]uint64
	hands        uint64 // decks whose dealt cards were distinct and evaluated
}

func (c *counts) add(o *counts) {
	for i := range c.pos {
		for j := range c.pos[i] {
			c.pos[i][j] += o.pos[i][j]
			c.adj[i][j] += o.adj[i][j]
		}
	}
	for i := range c.serial {
		c.serial[i] += o.serial[i]
	}
	c.runs += o.runs
	for i := range c.order {
		c.order[i] += o.order[i]
	}
	for s := range c.small {
		for i := range c.small[s] {
			c.small[s][i] += o.small[s][i]
		}
	}
	c.smallInvalid += o.smallInvalid
	c.invalid += o.invalid
	for i := range c.starting {
		c.starting[i] += o.starting[i]
	}
	c.aaBonus += o.aaBonus
	for i := range c.dealer {
		c.dealer[i] += o.dealer[i]
	}
	c.hands += o.hands
}

// chunkEdge records the centred positions of the first and last decks of a
// chunk, to add the serial products across chunk boundaries.
type chunkEdge struct {
	first, last [DeckSize]int64
}

// job is a unit of work: a chunk of full decks, or a chunk of small decks
// of one size.
type job struct {
	small  int // index into smallSizes, or -1 for full decks
	lo, hi uint64
	chunk  int // chunk number (full decks)
}

func makeJobs(c Config, withSmall bool) []job {
	var jobs []job
	for lo, k := uint64(0), 0; lo < c.Decks; lo, k = lo+chunkSize, k+1 {
		jobs = append(jobs, job{small: -1, lo: lo, hi: min(lo+chunkSize, c.Decks), chunk: k})
	}
	if withSmall {
		for s := range smallSizes {
			for lo := uint64(0); lo < c.SmallPerSize; lo += chunkSize {
				jobs = append(jobs, job{small: s, lo: lo, hi: min(lo+chunkSize, c.SmallPerSize)})
			}
		}
	}
	return jobs
}

// Run deals the decks of src and runs the battery.
func Run(src Source, cfg Config) (*Report, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Probe whether the source shuffles small decks.
	probe, err := src.NewDealer()
	if err != nil {
		return nil, err
	}
	withSmall := true
	if err := probe.Small(0, make([]uint8, smallSizes[0])); errors.Is(err, ErrNoSmall) {
		withSmall = false
	} else if err != nil {
		return nil, fmt.Errorf("stats: small deck 0: %w", err)
	}
	jobs := makeJobs(cfg, withSmall)
	nChunks := int((cfg.Decks + chunkSize - 1) / chunkSize)
	edges := make([]chunkEdge, nChunks)
	deckFP := make([]uint64, cfg.Decks)
	seedFP := make([]uint64, cfg.Decks)

	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := &counts{}
	var firstErr error
	for w := range min(workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := probe
			if w > 0 {
				var err error
				if d, err = src.NewDealer(); err != nil {
					mu.Lock()
					firstErr = firstOf(firstErr, err)
					mu.Unlock()
					return
				}
			}
			acc := &counts{}
			for {
				k := int(next.Add(1) - 1)
				if k >= len(jobs) {
					break
				}
				j := jobs[k]
				var err error
				if j.small < 0 {
					err = acc.full(d, j, &edges[j.chunk], deckFP, seedFP)
				} else {
					err = acc.smallDecks(d, j)
				}
				if err != nil {
					mu.Lock()
					firstErr = firstOf(firstErr, err)
					mu.Unlock()
					next.Store(int64(len(jobs)))
					break
				}
				if cfg.Progress != nil {
					cfg.Progress(int64(j.hi - j.lo))
				}
			}
			mu.Lock()
			total.add(acc)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	for k := 1; k < nChunks; k++ {
		for c := range total.serial {
			total.serial[c] += edges[k-1].last[c] * edges[k].first[c]
		}
	}
	if sl, ok := src.(Seedless); ok && sl.Seedless() {
		seedFP = nil
	}
	return report(cfg, total, deckFP, seedFP, withSmall), nil
}

// firstOf keeps the first error seen.
func firstOf(prev, err error) error {
	if prev != nil {
		return prev
	}
	return err
}

// full deals and counts the full decks of one job.
func (acc *counts) full(d Dealer, j job, edge *chunkEdge, deckFP, seedFP []uint64) error {
	var deck [DeckSize]uint8
	var prev, cur [DeckSize]int64
	for i := j.lo; i < j.hi; i++ {
		seed, err := d.Deck(i, &deck)
		if err != nil {
			return fmt.Errorf("stats: deck %d: %w", i, err)
		}
		var seen uint64
		valid := true
		for p, c := range deck {
			if c >= DeckSize {
				return fmt.Errorf("stats: deck %d position %d: card index %d, want 0..51", i, p, c)
			}
			if seen&(1<<c) != 0 {
				valid = false
			}
			seen |= 1 << c
			acc.pos[p][c]++
		}
		if !valid {
			acc.invalid++
		}
		// Centred positions 2x-51 of each card's first occurrence.
		cur = [DeckSize]int64{}
		for p := DeckSize - 1; p >= 0; p-- {
			cur[deck[p]] = int64(2*p - (DeckSize - 1))
		}
		if i > j.lo {
			for c := range cur {
				acc.serial[c] += prev[c] * cur[c]
			}
		} else {
			edge.first = cur
		}
		prev = cur
		// Adjacency and runs up and down.
		runs := uint64(1)
		up := deck[1] > deck[0]
		for p := 0; p < DeckSize-1; p++ {
			a, b := deck[p], deck[p+1]
			if a != b {
				acc.adj[a][b]++
			}
			if p > 0 {
				if u := b > a; u != up {
					runs++
					up = u
				}
			}
		}
		acc.runs += runs
		// Relative order of the fixed cards.
		var ov [len(orderCards)]int64
		for k, c := range orderCards {
			ov[k] = cur[c]
		}
		acc.order[lehmer(ov[:])]++
		deckFP[i] = fingerprint(&deck)
		seedFP[i] = seed
		if distinct(deck[:casinoHoldemCards]) {
			acc.dealt(&deck)
		}
	}
	edge.last = prev
	return nil
}

// smallDecks deals and counts the small decks of one job.
func (acc *counts) smallDecks(d Dealer, j job) error {
	n := smallSizes[j.small]
	buf := make([]uint8, n)
	v := make([]int64, n)
	for i := j.lo; i < j.hi; i++ {
		if err := d.Small(i, buf); err != nil {
			return fmt.Errorf("stats: small deck of %d cards %d: %w", n, i, err)
		}
		var seen uint64
		ok := true
		for k, c := range buf {
			if int(c) >= n || seen&(1<<c) != 0 {
				ok = false
			}
			seen |= 1 << (c & 63)
			v[k] = int64(c)
		}
		if !ok {
			acc.smallInvalid++
			continue
		}
		acc.small[j.small][lehmer(v)]++
	}
	return nil
}

// lehmer returns the rank of the order pattern of v among the len(v)!
// patterns (ties count as ordered by index).
func lehmer(v []int64) int {
	r := 0
	for i := range v {
		less := 0
		for _, w := range v[i+1:] {
			if w < v[i] {
				less++
			}
		}
		r = r*(len(v)-i) + less
	}
	return r
}

// fingerprint is a 64-bit hash of a deck, for the collision test.
func fingerprint(d *[DeckSize]uint8) uint64 {
	h := uint64(0x243f6a8885a308d3)
	for k := 0; k < 48; k += 8 {
		h = mix(h ^ binary.LittleEndian.Uint64(d[k:]))
	}
	return mix(h ^ uint64(binary.LittleEndian.Uint32(d[48:])))
}

// mix is the finaliser of SplitMix64.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// casinoHoldemCards is the number of cards a casino Hold'em round deals.
const casinoHoldemCards = 9

// distinct reports whether the cards are pairwise different.
func distinct(cs []uint8) bool {
	var seen uint64
	for _, c := range cs {
		if seen&(1<<c) != 0 {
			return false
		}
		seen |= 1 << c
	}
	return true
}

// dealt counts the casino Hold'em outcomes of a deck whose first nine
// cards are distinct.
func (acc *counts) dealt(d *[DeckSize]uint8) {
	acc.hands++
	acc.starting[startingClass(d[0], d[1])]++
	if aaBonusQualifies(d) {
		acc.aaBonus++
	}
	c := func(i int) card.Card { return card.Card(d[i]) }
	v := hand.Eval7([7]card.Card{c(2), c(3), c(4), c(5), c(6), c(7), c(8)})
	acc.dealer[dealerCell(v.Category())]++
}

// aaBonusQualifies reports whether the player's two cards and the flop
// (c[0], c[1], c[4..6]) make a pair of aces or better.
func aaBonusQualifies(d *[DeckSize]uint8) bool {
	c := func(i int) card.Card { return card.Card(d[i]) }
	return hand.Eval5([5]card.Card{c(0), c(1), c(4), c(5), c(6)}) >= hand.MinPair(card.Ace)
}

// countRepeats returns the number of elements of fp equal to an earlier
// one (fp is sorted in place).
func countRepeats(fp []uint64) uint64 {
	slices.Sort(fp)
	var n uint64
	for i := 1; i < len(fp); i++ {
		if fp[i] == fp[i-1] {
			n++
		}
	}
	return n
}
