package hand

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// published holds the figures of reference README §1 (Alspach, "7-Card
// Poker Hands"; Wikipedia, "Poker probability"): per category the number
// of 5-card and 7-card hands, of distinct 5-card classes and of classes
// reachable from 7 cards.
var published = map[Category]struct{ hands5, hands7, classes5, classes7 uint64 }{
	RoyalFlush:    {4, 4324, 1, 1},
	StraightFlush: {36, 37260, 9, 9},
	FourOfAKind:   {624, 224848, 156, 156},
	FullHouse:     {3744, 3473184, 156, 156},
	Flush:         {5108, 4047644, 1277, 1277},
	Straight:      {10200, 6180020, 10, 10},
	ThreeOfAKind:  {54912, 6461620, 858, 575},
	TwoPair:       {123552, 31433400, 858, 763},
	OnePair:       {1098240, 58627800, 2860, 1470},
	HighCard:      {1302540, 23294460, 1277, 407},
}

func TestCensus5(t *testing.T) {
	c := Census5()
	assert.Equal(t, 5, c.Cards())
	assert.Equal(t, uint64(2598960), c.Hands())
	assert.Equal(t, 7462, c.Distinct())
	for _, cat := range Categories() {
		assert.Equal(t, published[cat].hands5, c.CategoryCount(cat), cat)
		assert.Equal(t, int(published[cat].classes5), c.DistinctIn(cat), cat)
		assert.Equal(t, ClassCount(cat), c.DistinctIn(cat), cat)
	}
}

func TestCensus7(t *testing.T) {
	if testing.Short() {
		t.Skip("exhaustive 7-card enumeration (about 0.4 s, much longer under -race)")
	}
	c := Census7()
	assert.Equal(t, 7, c.Cards())
	assert.Equal(t, uint64(133784560), c.Hands())
	assert.Equal(t, 4824, c.Distinct())
	for _, cat := range Categories() {
		assert.Equal(t, published[cat].hands7, c.CategoryCount(cat), cat)
		assert.Equal(t, int(published[cat].classes7), c.DistinctIn(cat), cat)
	}
	// Below a pair of 4s (reference README §1: the dealer does not qualify).
	var below uint64
	for v := range MinPair(card.Four) {
		below += c.Count(v)
	}
	assert.Equal(t, uint64(32406420), below)

	// Spreading the work does not change the result.
	par := Census7Workers(3)
	assert.Equal(t, c.counts, par.counts)
}

// TestAllFiveCardHandsMatchReference compares every 5-card hand with the
// rules-based reference.
func TestAllFiveCardHandsMatchReference(t *testing.T) {
	if testing.Short() {
		t.Skip("2,598,960 reference evaluations")
	}
	var cs [5]card.Card
	bad := 0
	for a := card.Card(0); a < card.DeckSize; a++ {
		for b := a + 1; b < card.DeckSize; b++ {
			for c := b + 1; c < card.DeckSize; c++ {
				for d := c + 1; d < card.DeckSize; d++ {
					for e := d + 1; e < card.DeckSize; e++ {
						cs = [5]card.Card{a, b, c, d, e}
						if got, want := Eval5(cs), refEval5(cs[:]); got != want && bad < 10 {
							bad++
							t.Errorf("%v: got %v, want %v", card.Format(cs[:]), got, want)
						}
					}
				}
			}
		}
	}
}

// randomHand returns n distinct random cards.
func randomHand(rng *rand.Rand, n int) []card.Card {
	deck := card.Deck()
	for i := 0; i < n; i++ {
		j := i + rng.IntN(len(deck)-i)
		deck[i], deck[j] = deck[j], deck[i]
	}
	return deck[:n]
}

func TestRandomHandsMatchReference(t *testing.T) {
	// Every 5-card hand is compared in TestAllFiveCardHandsMatchReference;
	// the 7-card reference is the slowest (21 subsets).
	perSize := map[int]int{5: 100_000, 6: 300_000, 7: 400_000}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{5, 6, 7} {
		hands := perSize[n]
		if testing.Short() {
			hands = 10_000
		}
		bad := 0
		for i := 0; i < hands && bad < 10; i++ {
			cs := randomHand(rng, n)
			want := RefEval(cs)
			got, err := Eval(cs...)
			require.NoError(t, err)
			if got != want {
				bad++
				t.Errorf("%v: got %v, want %v", card.Format(cs), got, want)
			}
			if n == 7 {
				if g := Eval7([7]card.Card(cs)); g != want {
					bad++
					t.Errorf("Eval7 %v: got %v, want %v", card.Format(cs), g, want)
				}
			}
		}
	}
}

func TestOrderAndSuitInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	perms := suitPermutations()
	require.Len(t, perms, 24)
	for i := 0; i < 2000; i++ {
		n := 5 + i%3
		cs := randomHand(rng, n)
		want, err := Eval(cs...)
		require.NoError(t, err)
		shuffled := slices.Clone(cs)
		rng.Shuffle(n, func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		got, err := Eval(shuffled...)
		require.NoError(t, err)
		assert.Equal(t, want, got, "order %v vs %v", card.Format(cs), card.Format(shuffled))
		for _, p := range perms {
			relabelled := make([]card.Card, n)
			for j, c := range cs {
				relabelled[j] = card.New(c.Rank(), p[c.Suit()])
			}
			got, err := Eval(relabelled...)
			require.NoError(t, err)
			assert.Equal(t, want, got, "suits %v vs %v", card.Format(cs), card.Format(relabelled))
		}
	}
}

// suitPermutations returns the 24 permutations of the four suits.
func suitPermutations() [][4]card.Suit {
	var out [][4]card.Suit
	for a := card.Suit(0); a < 4; a++ {
		for b := card.Suit(0); b < 4; b++ {
			for c := card.Suit(0); c < 4; c++ {
				d := 6 - a - b - c
				if a != b && a != c && b != c && d != a && d != b && d != c {
					out = append(out, [4]card.Suit{a, b, c, d})
				}
			}
		}
	}
	return out
}

func TestKeyIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 2000; i++ {
		cs := randomHand(rng, 7)
		var board Key
		for _, c := range cs[:5] {
			board = board.Add(c)
		}
		assert.Equal(t, 5, board.Cards())
		want := RefEval(cs)
		assert.Equal(t, want, board.Add(cs[5]).Add(cs[6]).Value())
		assert.Equal(t, want, board.Add(cs[6]).Add(cs[5]).Value())
		assert.Equal(t, RefEval(cs[:6]), board.Add(cs[5]).Value())
		assert.Equal(t, RefEval(cs[:5]), board.Value())
	}
}

func TestBestFive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 3000; i++ {
		cs := randomHand(rng, 5+i%3)
		best, v, err := BestFive(cs)
		require.NoError(t, err)
		assert.Equal(t, RefEval(cs), v)
		assert.Equal(t, v, Eval5(best), card.Format(cs))
		assert.NoError(t, card.CheckDistinct(best[:]))
		for _, c := range best {
			assert.Contains(t, cs, c)
		}
	}
}

func TestBestFiveOrder(t *testing.T) {
	for _, tc := range []struct{ cards, best string }{
		{"5d 4c As 3h 2h Kd Kc", "5d 4c 3h 2h As"},
		{"2c 2d 9h 9s 9c Ah Kh", "9s 9h 9c 2d 2c"},
		{"As Ks Qs Js Ts 9s 8s", "As Ks Qs Js Ts"},
		{"7h 7d 3c 3s Ah Qd 2c", "7h 7d 3s 3c Ah"},
	} {
		cs, err := card.ParseList(tc.cards)
		require.NoError(t, err)
		best, _, err := BestFive(cs)
		require.NoError(t, err)
		assert.Equal(t, tc.best, card.Format(best[:]), tc.cards)
	}
}

func TestEvalErrors(t *testing.T) {
	for _, s := range []string{"As Ks Qs Js", "As Ks Qs Js Ts 9s 8s 7s"} {
		cs, err := card.ParseList(s)
		require.NoError(t, err)
		_, err = Eval(cs...)
		assert.Error(t, err, s)
		_, _, err = BestFive(cs)
		assert.Error(t, err, s)
	}
	_, err := Eval(card.New(card.Ace, card.Spades), card.New(card.Ace, card.Spades), 1, 2, 3)
	assert.Error(t, err)
	_, err = Eval(52, 1, 2, 3, 4)
	assert.Error(t, err)
}

func mustEval(t *testing.T, s string) Value {
	t.Helper()
	cs, err := card.ParseList(s)
	require.NoError(t, err)
	v, err := Eval(cs...)
	require.NoError(t, err)
	return v
}

func TestMinPair(t *testing.T) {
	for _, tc := range []struct {
		hand      string
		threshold card.Rank
		atLeast   bool
	}{
		{"3c 3d As Ks Qh", card.Four, false}, // best pair of 3s
		{"4c 4d 2s 3s 5h", card.Four, true},  // worst pair of 4s
		{"4c 4d As Ks Qh", card.Four, true},
		{"Kc Kd As Qs Jh", card.Ace, false}, // best pair of kings
		{"Ac Ad 2s 3s 4h", card.Ace, true},  // worst pair of aces
		{"2c 2d 3s 3h 4c", card.Ace, true},  // two pair beats any pair
		{"Ac Kd Qs Jh 9c", card.Two, false}, // high card
		{"2c 2d 3s 4h 5c", card.Two, true},
	} {
		v := mustEval(t, tc.hand)
		assert.Equal(t, tc.atLeast, v >= MinPair(tc.threshold), tc.hand)
	}
	// MinPair is the value of the weakest hand with that pair.
	for r := card.Two; r <= card.Ace; r++ {
		cs := []card.Card{card.New(r, card.Clubs), card.New(r, card.Diamonds)}
		for k := card.Two; len(cs) < 5; k++ {
			if k != r {
				cs = append(cs, card.New(k, card.Suit(len(cs)%4)))
			}
		}
		assert.Equal(t, refEval5(cs), MinPair(r), r)
	}
}

func TestMinOfCategory(t *testing.T) {
	for _, tc := range []struct {
		hand string
		cat  Category
	}{
		{"2c 3d 4h 5s 7c", HighCard},
		{"Ah 2h 3h 4h 5h", StraightFlush},
		{"Ah Kh Qh Jh Th", RoyalFlush},
		{"Ac 2d 3h 4s 5c", Straight},
	} {
		v := mustEval(t, tc.hand)
		assert.Equal(t, tc.cat, v.Category(), tc.hand)
		assert.GreaterOrEqual(t, v, MinOfCategory(tc.cat))
		if tc.cat < RoyalFlush {
			assert.Less(t, v, MinOfCategory(tc.cat+1))
		}
	}
}

// TestRankMultipliersDistinct checks the property the rank table rests
// on: every multiset of up to seven ranks, at most four of each, has its
// own rank sum.
func TestRankMultipliersDistinct(t *testing.T) {
	seen := make(map[uint32][13]uint8)
	multisets := 0
	var counts [13]uint8
	var rec func(r, n int, sum uint32)
	rec = func(r, n int, sum uint32) {
		if r == 13 {
			if prev, ok := seen[sum]; ok {
				t.Fatalf("rank counts %v and %v share sum %d", prev, counts, sum)
			}
			seen[sum] = counts
			multisets++
			return
		}
		for k := 0; k <= 4 && n+k <= 7; k++ {
			counts[r] = uint8(k)
			rec(r+1, n+k, sum+uint32(k)*rankMul[r])
		}
		counts[r] = 0
	}
	rec(0, 0, 0)
	assert.Equal(t, multisets, len(seen))
	assert.Greater(t, multisets, 70000) // sanity: the recursion did run
}

// TestTables rebuilds the tables and checks that every rank multiset and
// flush mask reads back its own value.
func TestTables(t *testing.T) {
	var flush [1 << rankMaskBits]Value
	var rank [1 << tableBits]Value
	require.NoError(t, buildTables(&flush, &rank, &rowOffset))
	for _, e := range rankMultisets() {
		assert.Equal(t, e.value, rank[(e.sum&colMask+rowOffset[e.sum>>rowShift])&tableMask])
	}
	setUp()
	assert.Equal(t, flush, flushTable)
	assert.Equal(t, rank, rankTable)
}
