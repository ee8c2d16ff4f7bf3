package double

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func builtin(t testing.TB, patch func(d *profile.Double)) *profile.Profile {
	p, err := profile.Builtin("double-holdem")
	require.NoError(t, err)
	if patch != nil {
		patch(p.Double)
		require.NoError(t, p.Validate())
	}
	return p
}

func TestAutoBonusCard(t *testing.T) {
	def := builtin(t, nil)
	suitOrder := builtin(t, func(d *profile.Double) { d.AutoBonusTie = "suit-order" })
	clubsHigh := builtin(t, func(d *profile.Double) { d.SuitOrder = "cdhs" })
	for _, c := range []struct {
		p          *profile.Profile
		hole, want string
	}{
		{def, "Kc Ks 6s", "Ks"}, // docs/rules/double-holdem.md worked example (Interpretation)
		{def, "Ks Kh 6c", "Ks"}, // worked example: no king suited with 6c, spades highest
		{def, "6s Kc Ks", "Ks"}, // order of the cards does not matter
		{def, "Ah 2c 3d", "Ah"}, // highest rank
		{def, "2c Ah 3d", "Ah"},
		{def, "Kc Kd Kh", "Kh"}, // three of a rank: highest suit
		{def, "Kc Kh 6c", "Kc"}, // suited with the third card beats the higher suit
		{def, "Kd Kh 6s", "Kh"},
		{suitOrder, "Kc Kh 6c", "Kh"},
		{suitOrder, "Kc Ks 6s", "Ks"},
		{clubsHigh, "Ks Kh 6d", "Kh"}, // clubs > diamonds > hearts > spades
		{clubsHigh, "Kc Kh 6d", "Kc"},
	} {
		cs, err := card.ParseN(c.hole, 3)
		require.NoError(t, err)
		got := AutoBonusCard(c.p, [3]card.Card{cs[0], cs[1], cs[2]})
		assert.Equal(t, c.want, got.String(), "%s (tie %s, suits %s)", c.hole, c.p.Double.AutoBonusTie, c.p.Double.SuitOrder)
	}
}

// randomHand plays a random legal hand by asking the engine who is to act
// and trying candidate actions until one is legal.
func randomHand(t testing.TB, p *profile.Profile, rng *rand.Rand, n int) (*round.Round, *Result) {
	d := card.Deck()
	rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	seats := rng.Perm(10)[:n]
	sortInts(seats)
	h := &round.DoubleHand{SmallBlind: p.Double.SmallBlind, BigBlind: p.Double.BigBlind}
	stack := map[int]int64{}
	for i, s := range seats {
		st := int64(100 + rng.IntN(5000))
		h.Seats = append(h.Seats, round.Seat{Seat: s + 1, Cards: card.Strings(d[3*i : 3*i+3]), StackBefore: st})
		stack[s+1] = st
	}
	h.Button = h.Seats[rng.IntN(n)].Seat
	board := card.Strings(d[3*n : 3*n+5])
	r := &round.Round{Game: round.DoubleHoldem, Double: h}
	// Blinds.
	idx := func(seat int) int {
		for i, s := range h.Seats {
			if s.Seat == seat {
				return i
			}
		}
		return -1
	}
	b := idx(h.Button)
	sb, bb := (b+1)%n, (b+2)%n
	if n == 2 {
		sb, bb = b, (b+1)%n
	}
	street := map[int]int64{}
	post := func(i int, kind string, amt int64) {
		s := h.Seats[i].Seat
		amt = min(amt, stack[s])
		stack[s] -= amt
		street[s] += amt
		h.Actions = append(h.Actions, round.Action{Seat: s, Street: "preflop", Kind: kind, Amount: amt, AllIn: stack[s] == 0})
	}
	post(sb, KindSmallBlind, h.SmallBlind)
	post(bb, KindBigBlind, h.BigBlind)
	cur := "preflop"
	for steps := 0; steps < 500; steps++ {
		r.Board = board
		_, err := Settle(p, r)
		var ae *ActionError
		if !errors.As(err, &ae) || ae.Index != len(h.Actions) {
			break // complete (or a board-length error, fixed below)
		}
		if ae.Street != cur {
			cur = ae.Street
			street = map[int]int64{}
		}
		s := ae.Seat
		var top int64
		for _, v := range street {
			top = max(top, v)
		}
		owe := top - street[s]
		unit := max(top, h.BigBlind)
		if p.Double.Structure == profile.FixedLimit {
			unit = p.Double.FixedLimit.SmallBet
			if cur == "turn" || cur == "river" {
				unit = p.Double.FixedLimit.BigBet
			}
		}
		cands := []round.Action{
			{Kind: KindCheck},
			{Kind: KindCall, Amount: min(owe, stack[s])},
			{Kind: KindBet, Amount: min(unit*int64(1+rng.IntN(2)), stack[s])},
			{Kind: KindRaise, Amount: min(owe+unit*int64(1+rng.IntN(2)), stack[s])},
			{Kind: KindRaise, Amount: stack[s]},
			{Kind: KindBet, Amount: stack[s]},
		}
		rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		if rng.IntN(6) == 0 {
			cands = append([]round.Action{{Kind: KindFold}}, cands...)
		} else {
			cands = append(cands, round.Action{Kind: KindFold})
		}
		ok := false
		for _, a := range cands {
			a.Seat, a.Street = s, cur
			a.AllIn = a.Amount > 0 && a.Amount == stack[s]
			h.Actions = append(h.Actions, a)
			_, err := Settle(p, r)
			var e2 *ActionError
			if errors.As(err, &e2) && e2.Index == len(h.Actions)-1 {
				h.Actions = h.Actions[:len(h.Actions)-1]
				continue
			}
			stack[s] -= a.Amount
			street[s] += a.Amount
			ok = true
			break
		}
		require.True(t, ok, "no legal action for seat %d", s)
	}
	for _, k := range []int{5, 4, 3, 0} {
		r.Board = board[:k]
		res, err := Settle(p, r)
		if err == nil {
			return r, res
		}
	}
	t.Fatalf("no board length settles the hand: %+v", h.Actions)
	return nil, nil
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// TestChipConservation plays random legal hands under each structure and
// with rake, and checks that chips are conserved and pots are consistent.
func TestChipConservation(t *testing.T) {
	hands := 150
	if testing.Short() {
		hands = 30
	}
	profiles := map[string]*profile.Profile{
		"no-limit": builtin(t, nil),
		"pot-limit-rake": builtin(t, func(d *profile.Double) {
			d.Structure = profile.PotLimit
			d.Rake = profile.Rake{RateBP: 500, Cap: 300, NoFlopNoDrop: true}
		}),
		"fixed-limit-rake-no-cap": builtin(t, func(d *profile.Double) {
			d.Structure = profile.FixedLimit
			d.FixedLimit = profile.FixedLimitBets{SmallBet: 100, BigBet: 200, MaxBets: 4}
			d.Rake = profile.Rake{RateBP: 1000, NoFlopNoDrop: false}
		}),
	}
	for name, p := range profiles {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(len(name))))
			showdowns := 0
			for i := 0; i < hands; i++ {
				r, res := randomHand(t, p, rng, 2+rng.IntN(9))
				var before, after, put, pots int64
				for _, s := range r.Double.Seats {
					before += s.StackBefore
					after += res.StackAfter[s.Seat]
					put += res.Contributed[s.Seat]
					assert.GreaterOrEqual(t, res.StackAfter[s.Seat], int64(0))
				}
				for _, pot := range res.Pots {
					pots += pot.Amount
					var shares int64
					for k, w := range pot.Winners {
						shares += pot.Shares[k]
						assert.Contains(t, pot.Eligible, w)
					}
					assert.Equal(t, pot.Amount, shares, "shares add up to the pot")
					if len(pot.Shares) > 1 {
						assert.LessOrEqual(t, pot.Shares[0]-pot.Shares[len(pot.Shares)-1], int64(1), "split within one chip")
					}
				}
				require.Equal(t, before, after+res.Rake, "stacks before = stacks after + rake")
				require.Equal(t, put, pots+res.Rake, "what went in = pots + rake")
				if p.Double.Rake.Cap > 0 {
					assert.LessOrEqual(t, res.Rake, p.Double.Rake.Cap)
				}
				if res.Showdown {
					showdowns++
				}
			}
			t.Logf("%d of %d hands reached showdown", showdowns, hands)
			assert.Positive(t, showdowns, "some hands reach showdown")
		})
	}
}

func TestSettleDeterministic(t *testing.T) {
	p := builtin(t, nil)
	rng := rand.New(rand.NewPCG(21, 22))
	r, res := randomHand(t, p, rng, 6)
	for i := 0; i < 5; i++ {
		again, err := Settle(p, r)
		require.NoError(t, err)
		assert.Equal(t, res, again)
	}
}

func TestHandErrors(t *testing.T) {
	p := builtin(t, nil)
	base := func() *round.Round {
		return &round.Round{Game: round.DoubleHoldem, Board: []string{},
			Double: &round.DoubleHand{Button: 1, SmallBlind: 50, BigBlind: 100,
				Seats: []round.Seat{
					{Seat: 1, Cards: []string{"Ah", "Kd", "7c"}, StackBefore: 1000},
					{Seat: 2, Cards: []string{"Qs", "Qh", "3d"}, StackBefore: 1000}},
				Actions: []round.Action{
					{Seat: 1, Street: "preflop", Kind: KindSmallBlind, Amount: 50},
					{Seat: 2, Street: "preflop", Kind: KindBigBlind, Amount: 100},
					{Seat: 1, Street: "preflop", Kind: KindFold}}}}
	}
	res, err := Settle(p, base())
	require.NoError(t, err)
	assert.Equal(t, map[int]int64{1: 950, 2: 1050}, res.StackAfter)
	for _, c := range []struct {
		field string
		mod   func(r *round.Round)
	}{
		{"double.seats[1].seat", func(r *round.Round) { r.Double.Seats[1].Seat = 1 }},
		{"double.seats[0].stack_before", func(r *round.Round) { r.Double.Seats[0].StackBefore = 0 }},
		{"double.seats[1].cards[2]", func(r *round.Round) { r.Double.Seats[1].Cards[2] = "Ah" }},
		{"double.seats[0].cards[0]", func(r *round.Round) { r.Double.Seats[0].Cards[0] = "A" }},
		{"double.big_blind", func(r *round.Round) { r.Double.BigBlind = 200 }},
		{"board", func(r *round.Round) { r.Board = []string{"2c", "3c", "4c"} }},
		{"game", func(r *round.Round) { r.Game = round.CasinoHoldem }},
		{"double", func(r *round.Round) { r.Double = nil }},
	} {
		r := base()
		c.mod(r)
		_, err := Settle(p, r)
		var he *HandError
		if assert.ErrorAs(t, err, &he, c.field) {
			assert.Equal(t, c.field, he.Field, "%v", err)
		}
	}
	// Void: stacks restored whatever the actions.
	r := base()
	r.Void = true
	r.Double.Actions = nil
	res, err = Settle(p, r)
	require.NoError(t, err)
	assert.Equal(t, map[int]int64{1: 1000, 2: 1000}, res.StackAfter)
	assert.True(t, res.Void)
}

func TestActionErrorMessage(t *testing.T) {
	e := &ActionError{Index: 4, Seat: 2, Street: "flop", Kind: "check", Reason: "check facing a bet of 200"}
	assert.Equal(t, "action 4 (seat 2, flop, check): check facing a bet of 200", e.Error())
	assert.True(t, strings.HasPrefix((&HandError{Field: "board", Reason: "x"}).Error(), "board: "))
}

// TestSettlerMatchesSettle settles random hands of every size (void,
// folded early, side pots, showdowns, errors) one after another with one
// Settler, and checks each Result against a fresh Settle's: nothing of a
// hand leaks into the next through the reused memory.
func TestSettlerMatchesSettle(t *testing.T) {
	p := builtin(t, func(d *profile.Double) { d.Rake = profile.Rake{RateBP: 500, Cap: 300, NoFlopNoDrop: true} })
	rng := rand.New(rand.NewPCG(41, 42))
	var s Settler
	lean := Settler{Lean: true}
	var toggled Settler // lean on every other hand: no entry of a full hand is left in a lean one
	kinds := map[string]int{}
	for i := range 400 {
		r, _ := randomHand(t, p, rng, 2+rng.IntN(9))
		switch i % 7 {
		case 3:
			r.Void = true
		case 5:
			r.Double.Actions = r.Double.Actions[:len(r.Double.Actions)/2] // illegal: ends early
		}
		want, werr := Settle(p, r)
		got, gerr := s.Settle(p, r)
		require.Equal(t, werr, gerr, "hand %d", i)
		_, lerr := lean.Settle(p, r)
		require.Equal(t, werr, lerr, "hand %d, lean", i)
		if werr != nil {
			kinds["error"]++
			continue
		}
		wj, err := json.Marshal(want)
		require.NoError(t, err)
		gj, err := json.Marshal(got)
		require.NoError(t, err)
		require.Equal(t, string(wj), string(gj), "hand %d", i)

		// A lean Settler settles the same hand the same way and leaves the
		// maps it does not fill empty.
		toggled.Lean = i%2 == 0
		for _, ls := range []*Settler{&lean, &toggled} {
			lr, lerr := ls.Settle(p, r)
			require.NoError(t, lerr, "hand %d", i)
			if ls.Lean {
				w := *want
				w.Contributed, w.BonusCards, w.BonusAuto, w.Hands = map[int]int64{}, map[int]string{}, map[int]bool{}, map[int]string{}
				wj, err = json.Marshal(&w)
				require.NoError(t, err)
			} else {
				wj, err = json.Marshal(want)
				require.NoError(t, err)
			}
			lj, err := json.Marshal(lr)
			require.NoError(t, err)
			require.Equal(t, string(wj), string(lj), "hand %d, lean %v", i, ls.Lean)
		}
		switch {
		case want.Void:
			kinds["void"]++
		case len(want.Pots) > 1:
			kinds["side pots"]++
		case want.Showdown:
			kinds["showdown"]++
		default:
			kinds["folded"]++
		}
	}
	for _, k := range []string{"error", "void", "side pots", "showdown", "folded"} {
		assert.Positive(t, kinds[k], k)
	}
}

func BenchmarkSettle(b *testing.B) {
	p := builtin(b, nil)
	r, _ := randomHand(b, p, rand.New(rand.NewPCG(31, 32)), 6)
	for r.Double != nil && len(r.Board) < 5 {
		r, _ = randomHand(b, p, rand.New(rand.NewPCG(31, uint64(len(r.Double.Actions)))), 6)
	}
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Settle(p, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("settler", func(b *testing.B) {
		var s Settler
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Settle(p, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lean", func(b *testing.B) {
		s := Settler{Lean: true}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Settle(p, r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Settle never panics on a malformed or illegal hand, and every hand it
// settles conserves chips. Each input is a random legal hand (from seed,
// under one of three betting structures) with edits applied to its
// actions, stacks and cards: every 4 bytes of edits change one field.
func FuzzSettle(f *testing.F) {
	profiles := []*profile.Profile{
		builtin(f, nil),
		builtin(f, func(d *profile.Double) {
			d.Structure = profile.PotLimit
			d.Rake = profile.Rake{RateBP: 500, Cap: 300, NoFlopNoDrop: true}
		}),
		builtin(f, func(d *profile.Double) {
			d.Structure = profile.FixedLimit
			d.FixedLimit = profile.FixedLimitBets{SmallBet: 100, BigBet: 200, MaxBets: 4}
		}),
	}
	for i := range 12 {
		f.Add(uint8(i), uint64(i), []byte{})
		f.Add(uint8(i), uint64(i), []byte{1, 3, 0, 7, 4, 2, 1, 1})
	}
	kinds := []string{KindFold, KindCheck, KindCall, KindBet, KindRaise, KindSmallBlind, "muck"}
	// One Settler for every input, after whatever the last one left in it.
	var mu sync.Mutex
	var settler Settler
	f.Fuzz(func(t *testing.T, pi uint8, seed uint64, edits []byte) {
		p := profiles[int(pi)%len(profiles)]
		rng := rand.New(rand.NewPCG(seed, 1))
		r, _ := randomHand(t, p, rng, 2+rng.IntN(9))
		h := r.Double
		for k := 0; k+3 < len(edits); k += 4 {
			op, at, v := edits[k], int(edits[k+1]), int64(int8(edits[k+2]))*int64(edits[k+3])
			switch op % 8 {
			case 0: // an action's amount
				if len(h.Actions) > 0 {
					h.Actions[at%len(h.Actions)].Amount += v
				}
			case 1: // an action's kind
				if len(h.Actions) > 0 {
					h.Actions[at%len(h.Actions)].Kind = kinds[int(edits[k+2])%len(kinds)]
				}
			case 2: // an action's seat
				if len(h.Actions) > 0 {
					h.Actions[at%len(h.Actions)].Seat = int(edits[k+2]) % 12
				}
			case 3: // an action's all-in flag
				if len(h.Actions) > 0 {
					a := &h.Actions[at%len(h.Actions)]
					a.AllIn = !a.AllIn
				}
			case 4: // drop actions from the end
				h.Actions = h.Actions[:len(h.Actions)-min(at%4, len(h.Actions))]
			case 5: // a stack
				h.Seats[at%len(h.Seats)].StackBefore += v * 100
			case 6: // the button
				h.Button = int(edits[k+2]) % 12
			case 7: // a bonus card
				h.Seats[at%len(h.Seats)].BonusCard = card.Card(edits[k+2] % 53).String()
			}
		}
		res, err := Settle(p, r)
		mu.Lock()
		again, err2 := settler.Settle(p, r)
		b, _ := json.Marshal(again)
		mu.Unlock()
		require.Equal(t, err, err2, "a reused Settler")
		if err == nil {
			a, _ := json.Marshal(res)
			require.Equal(t, string(a), string(b), "a reused Settler")
		}
		if err != nil || res.Void {
			return
		}
		var before, after int64
		for _, s := range h.Seats {
			before += s.StackBefore
			after += res.StackAfter[s.Seat]
			assert.GreaterOrEqual(t, res.StackAfter[s.Seat], int64(0))
		}
		assert.Equal(t, before, after+res.Rake, "stacks before = stacks after + rake")
	})
}
