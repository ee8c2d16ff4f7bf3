package casino

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustBuiltin(t testing.TB, name string) *profile.Profile {
	p, err := profile.Builtin(name)
	require.NoError(t, err)
	return p
}

func cards(t testing.TB, s string) []card.Card {
	cs, err := card.ParseList(s)
	require.NoError(t, err)
	return cs
}

// deal draws a player hand, a dealer hand and a board from a shuffled deck.
func deal(rng *rand.Rand) (player, dealer [2]card.Card, board [5]card.Card) {
	d := card.Deck()
	rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	copy(player[:], d[0:2])
	copy(dealer[:], d[2:4])
	copy(board[:], d[4:9])
	return
}

// plantedDeal splits a fixed 7-card player hand at random into hole cards
// and board, and deals the dealer two random cards from the rest.
func plantedDeal(rng *rand.Rand, seven []card.Card) (player, dealer [2]card.Card, board [5]card.Card) {
	s := append([]card.Card(nil), seven...)
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	copy(player[:], s[0:2])
	copy(board[:], s[2:7])
	rest := card.FullDeck
	for _, c := range seven {
		rest = rest.Remove(c)
	}
	rc := rest.Cards()
	rng.Shuffle(len(rc), func(i, j int) { rc[i], rc[j] = rc[j], rc[i] })
	copy(dealer[:], rc[0:2])
	return
}

// The paytables as the rules digests print them (docs/rules/casino-holdem.md,
// docs/rules/live-casino-holdem.md), written out here rather than read from the
// profiles.
var rngAnte = map[hand.Category]int64{hand.RoyalFlush: 100, hand.StraightFlush: 20, hand.FourOfAKind: 10,
	hand.FullHouse: 3, hand.Flush: 2, hand.Straight: 1, hand.ThreeOfAKind: 1, hand.TwoPair: 1, hand.OnePair: 1, hand.HighCard: 1}

// direct settles ANTE and CALL from the rules text: "paid X:1" returns
// stake + X x stake; CALL = 2 x ANTE; the dealer qualifies with a pair of 4s.
func direct(ante int64, pv, dv hand.Value) (anteRet, callRet int64, reason string) {
	call := 2 * ante
	x := rngAnte[pv.Category()] // the live table pays 1:1 below a pair of 4s too (Interpretation)
	switch {
	case dv < hand.MinPair(card.Four):
		return ante + x*ante, call, ReasonDealerNotQualified
	case pv > dv:
		return ante + x*ante, 2 * call, ReasonPlayerWon
	case pv == dv:
		return ante, call, ReasonTie
	}
	return 0, 0, ReasonDealerWon
}

var planted = map[hand.Category]string{
	hand.RoyalFlush:    "As Ks Qs Js Ts 2d 3c",
	hand.StraightFlush: "9h 8h 7h 6h 5h Kc 2d",
	hand.FourOfAKind:   "3c 3d 3h 3s Kd 9c 6h",
	hand.FullHouse:     "Qc Qd Qh 5s 5d 9c 2h",
	hand.Flush:         "Ad Jd 8d 4d 2d Kc 9s",
	hand.Straight:      "Tc 9d 8h 7s 6c 2d 2h",
	hand.ThreeOfAKind:  "4c 4d 4h Ks 9d 7c 2h",
	hand.TwoPair:       "Jc Jd 3h 3s 9d 7c 2h",
	hand.OnePair:       "8c 8d Kh Qs 9d 4c 2h",
	hand.HighCard:      "Ac Jd 9h 7s 5d 4c 2h",
}

// TestSettleBoxMatchesPaytable settles deals of every final 7-card category
// against every dealer outcome with a fixed ANTE and compares with the
// direct computation from the paytable.
func TestSettleBoxMatchesPaytable(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, name := range []string{"casino-holdem", "live-casino-holdem"} {
		t.Run(name, func(t *testing.T) {
			tb, err := Compile(mustBuiltin(t, name))
			require.NoError(t, err)
			ante := int64(500)
			rng := rand.New(rand.NewPCG(1, 2))
			seen := map[[2]string]bool{}
			check := func(player, dealer [2]card.Card, board [5]card.Card) {
				res, err := tb.SettleBox(Bets{Ante: ante}, Call, player, dealer, board)
				require.NoError(t, err)
				pv := hand.Eval7([7]card.Card{player[0], player[1], board[0], board[1], board[2], board[3], board[4]})
				dv := hand.Eval7([7]card.Card{dealer[0], dealer[1], board[0], board[1], board[2], board[3], board[4]})
				a, c, reason := direct(ante, pv, dv)
				if !assert.Equal(t, [3]any{a, c, reason}, [3]any{res.AnteReturn, res.CallReturn, res.Reason}, "player %v dealer %v board %v", player, dealer, board) {
					t.FailNow()
				}
				assert.Equal(t, pv.Category().String(), res.PlayerHand)
				seen[[2]string{res.PlayerHand, reason}] = true
			}
			for i := 0; i < n; i++ {
				check(deal(rng))
			}
			for cat, s := range planted {
				seven := cards(t, s)
				v, err := hand.Eval(seven...)
				require.NoError(t, err)
				require.Equal(t, cat, v.Category(), s)
				for i := 0; i < n/50; i++ {
					check(plantedDeal(rng, seven))
				}
			}
			for _, cat := range hand.Categories() {
				assert.True(t, seen[[2]string{cat.String(), ReasonDealerNotQualified}], "%s against an unqualified dealer never settled", cat)
				if cat >= hand.OnePair {
					assert.True(t, seen[[2]string{cat.String(), ReasonPlayerWon}] || cat == hand.OnePair, "%s never won", cat)
				}
			}
		})
	}
}

func TestBonusBoundaries(t *testing.T) {
	tb, err := Compile(mustBuiltin(t, "casino-holdem"))
	require.NoError(t, err)
	for _, c := range []struct {
		hole, flop string
		ret        int64
		reason     string
	}{
		{"Kc Kd", "7h 4s 2c", 0, BonusLost},   // pair of kings loses
		{"Ac Ad", "7h 4s 2c", 800, BonusWon},  // pair of aces 7:1
		{"Tc Jd", "Qh Ks Ac", 800, BonusWon},  // straight 7:1
		{"Tc Jc", "Qc Kc 2c", 2600, BonusWon}, // flush 25:1
		{"Ac Kd", "Qh Js 9c", 0, BonusLost},   // ace high
		{"2c 2d", "3h 3s 4c", 800, BonusWon},  // lowest two pair
	} {
		h := cards(t, c.hole)
		f := cards(t, c.flop)
		rest := card.FullDeck
		for _, x := range append(append([]card.Card{}, h...), f...) {
			rest = rest.Remove(x)
		}
		rc := rest.Cards()
		board := [5]card.Card{f[0], f[1], f[2], rc[0], rc[1]}
		res, err := tb.SettleBox(Bets{Ante: 100, Bonus: 100}, Call, [2]card.Card{h[0], h[1]}, [2]card.Card{rc[2], rc[3]}, board)
		require.NoError(t, err)
		assert.Equal(t, c.ret, res.BonusReturn, "%s + %s", c.hole, c.flop)
		assert.Equal(t, c.reason, res.BonusReason, "%s + %s", c.hole, c.flop)
		fold, err := tb.SettleBox(Bets{Ante: 100, Bonus: 100}, Fold, [2]card.Card{h[0], h[1]}, [2]card.Card{}, board)
		require.NoError(t, err)
		assert.Equal(t, [3]int64{0, 0, 0}, [3]int64{fold.AnteReturn, fold.CallReturn, fold.BonusReturn}, "fold forfeits")
		assert.Equal(t, BonusForfeit, fold.BonusReason)
	}
}

func TestSettleBoxErrors(t *testing.T) {
	tb, err := Compile(mustBuiltin(t, "live-casino-holdem"))
	require.NoError(t, err)
	_, err = tb.SettleBox(Bets{Ante: 0}, Call, [2]card.Card{0, 1}, [2]card.Card{2, 3}, [5]card.Card{4, 5, 6, 7, 8})
	assert.Error(t, err)
	_, err = tb.SettleBox(Bets{Ante: 100, Bonus: 5}, Call, [2]card.Card{0, 1}, [2]card.Card{2, 3}, [5]card.Card{4, 5, 6, 7, 8})
	assert.ErrorContains(t, err, "no AA Bonus")
	_, err = Compile(mustBuiltin(t, "double-holdem"))
	assert.ErrorIs(t, err, ErrNotCasino)
}

func TestAdjust(t *testing.T) {
	for _, c := range []struct {
		policy        string
		req, acc      int64
		adjusted, bad bool
	}{
		{profile.AdjustReduceToMax, 700, 500, true, false},
		{profile.AdjustReduceToMax, 500, 500, false, false},
		{profile.AdjustReduceToMax, 100, 100, false, false},
		{profile.AdjustReduceToMax, 99, 0, false, true},
		{profile.AdjustReject, 501, 0, false, true},
		{profile.AdjustReject, 500, 500, false, false},
	} {
		acc, adj, err := Adjust(c.policy, c.req, 100, 500)
		assert.Equal(t, c.bad, err != nil, "%+v", c)
		assert.Equal(t, c.acc, acc, "%+v", c)
		assert.Equal(t, c.adjusted, adj, "%+v", c)
	}
}

// randomLiveRound deals a live-table round with n boxes.
func randomLiveRound(rng *rand.Rand, n int, void bool) *round.Round {
	d := card.Deck()
	rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	r := &round.Round{RoundID: "r", Game: round.LiveCasinoHoldem, Void: void}
	boxNums := rng.Perm(6)[:n]
	k := 0
	for _, b := range boxNums {
		dec := []string{"call", "call", "fold", ""}[rng.IntN(4)]
		ante := int64(500 + rng.IntN(60000))
		r.Boxes = append(r.Boxes, round.Box{Box: b + 1, Cards: card.Strings(d[k : k+2]), AnteRequested: ante, Ante: min(ante, 50000), Decision: dec})
		k += 2
	}
	r.Dealer = card.Strings(d[k : k+2])
	r.Board = card.Strings(d[k+2 : k+7])
	return r
}

// TestBoxOrderIrrelevant: permuting the boxes of a round, or settling a box
// alone, does not change any box's result.
func TestBoxOrderIrrelevant(t *testing.T) {
	p := mustBuiltin(t, "live-casino-holdem")
	rng := rand.New(rand.NewPCG(3, 4))
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	for i := 0; i < rounds; i++ {
		r := randomLiveRound(rng, 1+rng.IntN(6), false)
		want, err := Settle(p, r)
		require.NoError(t, err)
		rng.Shuffle(len(r.Boxes), func(a, b int) { r.Boxes[a], r.Boxes[b] = r.Boxes[b], r.Boxes[a] })
		got, err := Settle(p, r)
		require.NoError(t, err)
		require.Equal(t, want, got)
		for j := 1; j < len(got); j++ {
			assert.Less(t, got[j-1].Box, got[j].Box, "results in box order")
		}
		for _, b := range r.Boxes {
			alone := *r
			alone.Boxes = []round.Box{b}
			one, err := Settle(p, &alone)
			require.NoError(t, err)
			for _, w := range want {
				if w.Box == b.Box {
					assert.Equal(t, w, one[0])
				}
			}
		}
	}
}

// TestMoneyConserved: a void round returns exactly what was staked; a
// settled box never returns more than the paytable's best case, nor a
// negative amount, and a fold returns nothing on ANTE and CALL.
func TestMoneyConserved(t *testing.T) {
	p := mustBuiltin(t, "live-casino-holdem")
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 200; i++ {
		void := i%4 == 0
		r := randomLiveRound(rng, 1+rng.IntN(6), void)
		res, err := Settle(p, r)
		require.NoError(t, err)
		var staked, returned int64
		for _, b := range res {
			staked += b.Staked()
			returned += b.Returned()
			assert.GreaterOrEqual(t, b.AnteReturn, int64(0))
			assert.GreaterOrEqual(t, b.CallReturn, int64(0))
			assert.LessOrEqual(t, b.Returned()-b.Staked(), p.Casino.Limits.MaxPayoutPerBox, "max payout caps the winnings")
			if b.Decision == "fold" && !void {
				assert.Zero(t, b.AnteReturn+b.CallReturn)
			}
			if b.Decision == "call" {
				assert.Equal(t, 2*b.Ante, b.Call)
			}
		}
		if void {
			assert.Equal(t, staked, returned, "void returns every stake")
		}
	}
}

func TestSettleRoundErrors(t *testing.T) {
	p := mustBuiltin(t, "casino-holdem")
	base := func() *round.Round {
		return &round.Round{Game: round.CasinoHoldem, Dealer: []string{"7c", "2d"}, Board: []string{"Qh", "9s", "5c", "3d", "Jh"},
			Boxes: []round.Box{{Box: 1, Cards: []string{"As", "Kd"}, Ante: 100, Decision: "call"}}}
	}
	for _, c := range []struct {
		field string
		mod   func(r *round.Round)
	}{
		{"boxes[0].cards[0]", func(r *round.Round) { r.Boxes[0].Cards[0] = "Zz" }},
		{"boxes[0].cards", func(r *round.Round) { r.Boxes[0].Cards = r.Boxes[0].Cards[:1] }},
		{"board[2]", func(r *round.Round) { r.Board[2] = "As" }},
		{"dealer", func(r *round.Round) { r.Dealer = nil }},
		{"boxes[0].ante", func(r *round.Round) { r.Boxes[0].Ante = -1 }},
		{"boxes[0].bonus", func(r *round.Round) { r.Boxes[0].Bonus = 1 << 40 }},
		{"boxes[0].decision", func(r *round.Round) { r.Boxes[0].Decision = "CALL" }},
		{"game", func(r *round.Round) { r.Game = round.DoubleHoldem }},
		{"double", func(r *round.Round) { r.Double = &round.DoubleHand{} }},
	} {
		r := base()
		c.mod(r)
		_, err := Settle(p, r)
		var re *RoundError
		if assert.ErrorAs(t, err, &re, c.field) {
			assert.Equal(t, c.field, re.Field, "%v", err)
		}
	}
	_, err := Settle(p, base())
	assert.NoError(t, err)
}

func BenchmarkSettleBox(b *testing.B) {
	tb, err := Compile(mustBuiltin(b, "casino-holdem"))
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(7, 8))
	type dealT struct {
		p, d [2]card.Card
		b    [5]card.Card
	}
	deals := make([]dealT, 1024)
	for i := range deals {
		deals[i].p, deals[i].d, deals[i].b = deal(rng)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x := &deals[i&1023]
		if _, err := tb.SettleBox(Bets{Ante: 100, Bonus: 100}, Call, x.p, x.d, x.b); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSettleRound(b *testing.B) {
	p := mustBuiltin(b, "live-casino-holdem")
	r := randomLiveRound(rand.New(rand.NewPCG(9, 10)), 6, false)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Settle(p, r); err != nil {
			b.Fatal(err)
		}
	}
}

func TestOverflowIsAnError(t *testing.T) {
	p := mustBuiltin(t, "casino-holdem")
	p.Casino.Bonus.ForfeitOnFold = false
	tb, err := Compile(p)
	require.NoError(t, err)
	h := cards(t, "Ac Ad")
	f := cards(t, "7h 4s 2c 9d Jh")
	board := [5]card.Card{f[0], f[1], f[2], f[3], f[4]}
	// A pair of aces pays 7:1: 8 x (MaxInt64 / 4) does not fit.
	_, err = tb.SettleBox(Bets{Ante: 100, Bonus: math.MaxInt64 / 4}, Fold, [2]card.Card{h[0], h[1]}, [2]card.Card{}, board)
	assert.ErrorIs(t, err, money.ErrOverflow)
	// CALL = 2 x ANTE does not fit.
	_, err = tb.SettleBox(Bets{Ante: math.MaxInt64/2 + 1}, Call, [2]card.Card{h[0], h[1]}, [2]card.Card{card.New(card.Three, card.Clubs), card.New(card.Five, card.Diamonds)}, board)
	assert.ErrorIs(t, err, money.ErrOverflow)
}

// ANTE and CALL winnings that fit in an int64 one by one but not together
// used to wrap to a negative sum and pass under the max payout; a sum
// beyond int64 is above any cap, so the box is capped.
func TestCapPayoutSumOverflow(t *testing.T) {
	player := cards(t, "As Ks")
	dealer := cards(t, "4c 4d")
	b := cards(t, "Qs Js Ts 2c 3d")
	board := [5]card.Card{b[0], b[1], b[2], b[3], b[4]}
	ante := int64(math.MaxInt64 / 101) // royal flush: 101 x ANTE fits, 102 x ANTE does not
	for _, scope := range []string{profile.PayoutCapWinnings, profile.PayoutCapTotal} {
		p := mustBuiltin(t, "live-casino-holdem")
		p.Casino.MaxPayoutScope = scope
		limit := p.Casino.Limits.MaxPayoutPerBox
		require.Positive(t, limit)
		tb, err := Compile(p)
		require.NoError(t, err)
		r, err := tb.SettleBox(Bets{Ante: ante}, Call, [2]card.Card{player[0], player[1]}, [2]card.Card{dealer[0], dealer[1]}, board)
		require.NoError(t, err, scope)
		require.Equal(t, ReasonPlayerWon, r.Reason, scope)
		assert.True(t, r.Capped, scope)
		if scope == profile.PayoutCapWinnings {
			assert.Equal(t, ante+limit, r.AnteReturn, scope)
			assert.Equal(t, r.Call, r.CallReturn, scope)
		} else {
			assert.Equal(t, limit, r.AnteReturn, scope)
			assert.Equal(t, int64(0), r.CallReturn, scope)
		}
	}
}

// Settle never panics on a malformed round, and a round it settles returns
// no more than the paytables allow. The corpus is random live-table rounds;
// the fuzzer mutates their JSON.
func FuzzSettle(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 8 {
		b, err := json.Marshal(randomLiveRound(rng, 1+rng.IntN(6), i%4 == 0))
		require.NoError(f, err)
		f.Add(b)
	}
	p := mustBuiltin(f, "live-casino-holdem")
	f.Fuzz(func(t *testing.T, b []byte) {
		var r round.Round
		if json.Unmarshal(b, &r) != nil {
			return
		}
		res, err := Settle(p, &r)
		if err != nil {
			return
		}
		for _, x := range res {
			assert.GreaterOrEqual(t, x.Ante, p.Casino.Limits.AnteMin)
			assert.LessOrEqual(t, x.Ante, p.Casino.Limits.AnteMax)
			assert.GreaterOrEqual(t, x.AnteReturn, int64(0))
			assert.GreaterOrEqual(t, x.CallReturn, int64(0))
			assert.LessOrEqual(t, x.Returned()-x.Staked(), p.Casino.Limits.MaxPayoutPerBox, "the max payout caps the winnings")
		}
	})
}
