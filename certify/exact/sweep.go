package exact

import (
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

// Counts are the exact outcome counts of calling with one hole over the
// completions of one flop: every turn and river, then every dealer hand.
type Counts struct {
	// NotQualified counts completions where the dealer does not qualify,
	// by the player's final hand category (index Category-1).
	NotQualified [hand.NumCategories]uint32
	// Win counts completions where the dealer qualifies and the player's
	// hand is better, by the player's final hand category.
	Win [hand.NumCategories]uint32
	// Tie counts completions where the dealer qualifies with an equal hand.
	Tie uint32
	// Lose counts completions where the dealer qualifies with a better hand.
	Lose uint32
}

// Total returns the number of completions counted.
func (c *Counts) Total() int64 {
	n := int64(c.Tie) + int64(c.Lose)
	for i := range c.Win {
		n += int64(c.Win[i]) + int64(c.NotQualified[i])
	}
	return n
}

// Numbers of cards and completions.
const (
	// Completions is the number of (turn, river, dealer hand) completions
	// of one (hole, flop) state: C(47,2) x C(45,2).
	Completions = 1081 * 990
	// HoleFlopStates is the number of (hole, flop) states, C(52,2) x C(50,3).
	HoleFlopStates = 1326 * 19600
	// Deals is the number of deals: HoleFlopStates x Completions.
	Deals = HoleFlopStates * Completions

	boardHoldings = 1081 // two-card holdings from the 47 cards off a board
	dealerHands   = 990  // two-card dealer hands once the player's two are out
)

// pairIndex numbers the 1,326 two-card holdings: pairIndex[a][b] for a < b.
var pairIndex = func() (t [card.DeckSize][card.DeckSize]uint16) {
	n := uint16(0)
	for a := 0; a < card.DeckSize; a++ {
		for b := a + 1; b < card.DeckSize; b++ {
			t[a][b], t[b][a] = n, n
			n++
		}
	}
	return t
}()

// sweeper holds the scratch space of one worker. Not safe for concurrent
// use.
type sweeper struct {
	qualifier hand.Value
	acc       [1326]Counts // per hole; see flop
	sum       [1326]Counts // scratch for the symmetrisation
	mult      uint32       // orbit size of the board being swept
	items     [boardHoldings]uint32
	tmp       [boardHoldings]uint32
}

// flop counts every hole that avoids the flop over all its completions;
// the result for hole {a, b} is s.acc[pairIndex[a][b]].
//
// For each turn-and-river board it evaluates the 1,081 holdings from the
// 47 cards left once, sorts them by value and sweeps them from the weakest
// up. A holding's dealer hands are the holdings that share no card with
// it; the number of those weaker than value v is
//
//	below(v) - below(v, a) - below(v, b)
//
// where below(v, c) counts the weaker holdings that contain card c (no
// weaker holding contains both a and b: that is the player's own). Equal
// and non-qualifying holdings are counted the same way.
//
// The suit relabellings G that fix the flop permute the boards: only one
// board B of each orbit is swept, its counts weighted by the orbit size
// |G|/|G_B|, into A[x]. Since count(h, σB) = count(σ⁻¹h, B), the count of
// hole h over all boards is the sum of A[σh] over σ in G, divided by |G|
// (exactly). A rainbow flop has G = {identity}; a monotone one sweeps
// 344 to 378 boards instead of 1,176; all flop classes together
// 1,286,792 boards instead of 2,063,880.
func (s *sweeper) flop(f [3]card.Card) {
	s.acc = [1326]Counts{}
	used := card.SetOf(f[:]...)
	stab := stabiliser(f)
	var fk hand.Key
	for _, c := range f {
		fk = fk.Add(c)
	}
	for t := card.Card(0); t < card.DeckSize; t++ {
		if used.Has(t) {
			continue
		}
		tk := fk.Add(t)
		for r := t + 1; r < card.DeckSize; r++ {
			if used.Has(r) {
				continue
			}
			// Sweep the board if it is the least of its orbit.
			var images [24][2]card.Card
			n := 0
			least := true
			for _, p := range stab {
				img := sort2([2]card.Card{p.apply(t), p.apply(r)})
				if less2(img, [2]card.Card{t, r}) {
					least = false
					break
				}
				seen := false
				for _, x := range images[:n] {
					seen = seen || x == img
				}
				if !seen {
					images[n] = img
					n++
				}
			}
			if !least {
				continue
			}
			s.mult = uint32(n)
			var rem [47]card.Card
			k := 0
			for c := card.Card(0); c < card.DeckSize; c++ {
				if c != t && c != r && !used.Has(c) {
					rem[k] = c
					k++
				}
			}
			s.board(tk.Add(r), &rem)
		}
	}
	if len(stab) > 1 {
		s.symmetrise(used, stab)
	}
	// Every hole has 1,081 boards of 990 dealer hands each; what is not
	// counted otherwise, the dealer wins.
	for i := range s.acc {
		c := &s.acc[i]
		c.Lose = 0
		c.Lose = uint32(Completions - c.Total())
	}
}

// symmetrise replaces A[h] by the sum of A[σh] over σ in stab, divided by
// |stab|.
func (s *sweeper) symmetrise(used card.Set, stab []suitPerm) {
	s.sum = [1326]Counts{}
	g := uint32(len(stab))
	for a := card.Card(0); a < card.DeckSize; a++ {
		for b := a + 1; b < card.DeckSize; b++ {
			if used.Has(a) || used.Has(b) {
				continue
			}
			dst := &s.sum[pairIndex[a][b]]
			for _, p := range stab {
				src := &s.acc[pairIndex[p.apply(a)][p.apply(b)]]
				for i := range dst.Win {
					dst.Win[i] += src.Win[i]
					dst.NotQualified[i] += src.NotQualified[i]
				}
				dst.Tie += src.Tie
			}
			for i := range dst.Win {
				dst.Win[i] /= g
				dst.NotQualified[i] /= g
			}
			dst.Tie /= g
		}
	}
	s.acc = s.sum
}

// board counts the 1,081 holdings of one five-card board whose key is bk
// and whose 47 unseen cards are rem. It leaves Lose to [sweeper.flop]:
// the completions not otherwise counted.
func (s *sweeper) board(bk hand.Key, rem *[47]card.Card) {
	// Holdings below the qualifier (the dealer hands that do not qualify)
	// go to the front of items, unsorted; the others to the back, to be
	// sorted by value.
	items := s.items[:]
	q := uint32(s.qualifier)
	var nqCnt [47]uint16
	lo, hi := 0, len(items)
	for i := 0; i < len(rem); i++ {
		ki := bk.Add(rem[i])
		for j := i + 1; j < len(rem); j++ {
			v := uint32(ki.Add(rem[j]).Value())
			it := v<<16 | uint32(i)<<8 | uint32(j)
			if v < q {
				items[lo] = it
				lo++
				nqCnt[i]++
				nqCnt[j]++
			} else {
				hi--
				items[hi] = it
			}
		}
	}
	nqTotal := uint32(lo)
	m := s.mult
	for _, it := range items[:lo] {
		a, b := it>>8&0xff, it&0xff
		nq := nqTotal - uint32(nqCnt[a]) - uint32(nqCnt[b]) + 1
		s.acc[pairIndex[rem[a]][rem[b]]].NotQualified[it>>(16+12)-1] += nq * m
	}
	qual := items[lo:]
	radixSortHigh16(qual, s.tmp[:len(qual)])

	// Qualifying holdings, in groups of equal value.
	below := nqCnt // per card: weaker holdings seen so far containing it
	var eq [47]uint16
	processed := nqTotal
	n := len(qual)
	for k := 0; k < n; {
		v := qual[k] >> 16
		end := k + 1
		for end < n && qual[end]>>16 == v {
			end++
		}
		for _, it := range qual[k:end] {
			eq[it>>8&0xff]++
			eq[it&0xff]++
		}
		group := uint32(end - k)
		cat := v>>12 - 1
		for _, it := range qual[k:end] {
			a, b := it>>8&0xff, it&0xff
			lt := processed - uint32(below[a]) - uint32(below[b])
			nq := nqTotal - uint32(nqCnt[a]) - uint32(nqCnt[b])
			acc := &s.acc[pairIndex[rem[a]][rem[b]]]
			acc.NotQualified[cat] += nq * m
			acc.Win[cat] += (lt - nq) * m
			acc.Tie += (group - uint32(eq[a]) - uint32(eq[b]) + 1) * m
		}
		for _, it := range qual[k:end] {
			a, b := it>>8&0xff, it&0xff
			below[a] += eq[a]
			below[b] += eq[b]
			eq[a], eq[b] = 0, 0
		}
		processed += group
		k = end
	}
}

// radixSortHigh16 sorts xs by their top 16 bits (stable, two byte passes),
// using tmp (same length) as scratch.
func radixSortHigh16(xs, tmp []uint32) {
	var c1, c2 [256]uint16
	for _, x := range xs {
		c1[x>>16&0xff]++
		c2[x>>24]++
	}
	var s1, s2 uint16
	for i := 0; i < 256; i++ {
		s1, c1[i] = s1+c1[i], s1
		s2, c2[i] = s2+c2[i], s2
	}
	for _, x := range xs {
		b := x >> 16 & 0xff
		tmp[c1[b]] = x
		c1[b]++
	}
	for _, x := range tmp {
		b := x >> 24
		xs[c2[b]] = x
		c2[b]++
	}
}
