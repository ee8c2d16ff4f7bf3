package exact

import (
	"github.com/fairhold/fairhold/replay/card"
)

// Suit isomorphism: relabelling the four suits maps deals to deals, hands
// to hands of the same value and preserves every count this package makes.
// The 22,100 flops fall into 1,755 classes under the 24 relabellings; the
// 25,989,600 (hole, flop) decision states into 1,286,792.

// suitPerm maps suit s to perm[s].
type suitPerm [4]uint8

// allSuitPerms returns the 24 permutations of the four suits in
// lexicographic order (the identity first).
func allSuitPerms() []suitPerm {
	var out []suitPerm
	for a := uint8(0); a < 4; a++ {
		for b := uint8(0); b < 4; b++ {
			for c := uint8(0); c < 4; c++ {
				d := 6 - a - b - c
				if a == b || a == c || b == c {
					continue
				}
				out = append(out, suitPerm{a, b, c, d})
			}
		}
	}
	return out
}

func (p suitPerm) apply(c card.Card) card.Card {
	return card.New(c.Rank(), card.Suit(p[c.Suit()]))
}

// sort3 and sort2 put cards in ascending order.
func sort3(f [3]card.Card) [3]card.Card {
	if f[0] > f[1] {
		f[0], f[1] = f[1], f[0]
	}
	if f[1] > f[2] {
		f[1], f[2] = f[2], f[1]
	}
	if f[0] > f[1] {
		f[0], f[1] = f[1], f[0]
	}
	return f
}

func sort2(h [2]card.Card) [2]card.Card {
	if h[0] > h[1] {
		h[0], h[1] = h[1], h[0]
	}
	return h
}

func less3(x, y [3]card.Card) bool {
	for i := range x {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return false
}

func less2(x, y [2]card.Card) bool {
	if x[0] != y[0] {
		return x[0] < y[0]
	}
	return x[1] < y[1]
}

// FlopClass is one class of suit-isomorphic flops.
type FlopClass struct {
	// Flop is the class representative: the least (ascending, then
	// lexicographic) image of the flop under the suit relabellings.
	Flop [3]card.Card
	// Weight is the number of flops in the class.
	Weight int
	// stab holds the relabellings that fix Flop.
	stab []suitPerm
}

// canonicalFlop returns the representative of f's class.
func canonicalFlop(f [3]card.Card, perms []suitPerm) [3]card.Card {
	best := sort3(f)
	for _, p := range perms {
		g := sort3([3]card.Card{p.apply(f[0]), p.apply(f[1]), p.apply(f[2])})
		if less3(g, best) {
			best = g
		}
	}
	return best
}

// FlopClasses returns the 1,755 classes of suit-isomorphic flops, ordered
// by representative; their weights add up to 22,100.
func FlopClasses() []FlopClass {
	perms := allSuitPerms()
	weight := make(map[[3]card.Card]int)
	for a := card.Card(0); a < card.DeckSize; a++ {
		for b := a + 1; b < card.DeckSize; b++ {
			for c := b + 1; c < card.DeckSize; c++ {
				weight[canonicalFlop([3]card.Card{a, b, c}, perms)]++
			}
		}
	}
	out := make([]FlopClass, 0, len(weight))
	for a := card.Card(0); a < card.DeckSize; a++ {
		for b := a + 1; b < card.DeckSize; b++ {
			for c := b + 1; c < card.DeckSize; c++ {
				f := [3]card.Card{a, b, c}
				w, ok := weight[f]
				if !ok {
					continue
				}
				out = append(out, FlopClass{Flop: f, Weight: w, stab: stabiliser(f)})
			}
		}
	}
	return out
}

// stabiliser returns the relabellings that fix flop f, the identity
// first.
func stabiliser(f [3]card.Card) []suitPerm {
	var out []suitPerm
	s := sort3(f)
	for _, p := range allSuitPerms() {
		if sort3([3]card.Card{p.apply(f[0]), p.apply(f[1]), p.apply(f[2])}) == s {
			out = append(out, p)
		}
	}
	return out
}

// holeOrbit is one class of hole cards under the relabellings that fix a
// flop.
type holeOrbit struct {
	rep  [2]card.Card // least image
	size int          // number of holes in the orbit
}

// holeOrbits returns the orbits of the 1,176 holes that avoid the flop
// under the flop's stabiliser, ordered by representative.
func (fc *FlopClass) holeOrbits() []holeOrbit {
	used := card.SetOf(fc.Flop[:]...)
	size := make(map[[2]card.Card]int)
	var order [][2]card.Card
	for a := card.Card(0); a < card.DeckSize; a++ {
		for b := a + 1; b < card.DeckSize; b++ {
			if used.Has(a) || used.Has(b) {
				continue
			}
			best := [2]card.Card{a, b}
			for _, p := range fc.stab {
				if g := sort2([2]card.Card{p.apply(a), p.apply(b)}); less2(g, best) {
					best = g
				}
			}
			if size[best] == 0 {
				order = append(order, best)
			}
			size[best]++
		}
	}
	out := make([]holeOrbit, 0, len(order))
	// Representatives are least images, so the first hole of each orbit in
	// ascending order is its representative: order is already ascending.
	for _, h := range order {
		out = append(out, holeOrbit{rep: h, size: size[h]})
	}
	return out
}
