package sim

import (
	"fmt"
	"slices"
	"sort"

	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
)

var streetNames = [...]string{"preflop", "flop", "turn", "river"}

// dpl is one player in a simulated Double Hold'em hand.
type dpl struct {
	sl       *slot
	seat     int
	cards    [3]card.Card
	stack    int64
	street   int64
	total    int64
	folded   bool
	allIn    bool
	acted    bool
	seqAtAct int
	allInPre bool
	sawFlop  bool
	value    hand.Value
}

// betting is the state of a hand's betting, following the rules of
// package double (no-limit).
//
// It is deliberately a second implementation of the betting rules, not a
// call into package double: the simulator stands for an operator's own
// engine, and the clean-log tests (zero findings over 100,000 hands) only
// cross-check replay/double's legality rules if the hands were produced by
// code that does not share them. A rule change must be made in both.
type betting struct {
	s          *Simulator
	ps         []*dpl
	button     int
	bb         int64
	street     int
	currentBet int64
	lastRaise  int64
	fullRaises int
	raises     int
	toAct      int
	over       bool
	actions    []round.Action
	illegal    bool // the illegal-raise fault was played
	illegalOK  *activeFault
}

func (g *betting) next(i int) int { return (i + 1) % len(g.ps) }

func (g *betting) live() (in, canAct int) {
	for _, p := range g.ps {
		if !p.folded {
			in++
			if !p.allIn {
				canAct++
			}
		}
	}
	return
}

func (g *betting) firstToAct(i int) int {
	for k := range len(g.ps) {
		j := (i + k) % len(g.ps)
		if p := g.ps[j]; !p.folded && !p.allIn {
			return j
		}
	}
	return -1
}

func (g *betting) needsToAct(p *dpl) bool {
	return !p.folded && !p.allIn && (!p.acted || p.street < g.currentBet)
}

func (g *betting) nextToAct(i int) int {
	for k := 1; k <= len(g.ps); k++ {
		j := (i + k) % len(g.ps)
		if g.needsToAct(g.ps[j]) {
			return j
		}
	}
	return -1
}

func (g *betting) othersAllIn(me *dpl) bool {
	for _, p := range g.ps {
		if p != me && !p.folded && !p.allIn {
			return false
		}
	}
	return true
}

func (g *betting) put(p *dpl, amt int64, kind string) {
	p.stack -= amt
	p.street += amt
	p.total += amt
	if p.stack == 0 {
		p.allIn = true
		if g.street == 0 {
			p.allInPre = true
		}
	}
	g.actions = append(g.actions, round.Action{Seat: p.seat, Street: streetNames[g.street], Kind: kind, Amount: amt, AllIn: p.stack == 0})
}

func (g *betting) settleStreet() {
	for {
		in, canAct := g.live()
		if in <= 1 {
			g.over = true
			return
		}
		if g.toAct >= 0 && g.needsToAct(g.ps[g.toAct]) {
			if !(canAct == 1 && g.ps[g.toAct].street >= g.currentBet) {
				return
			}
		}
		if canAct <= 1 || g.street == len(streetNames)-1 {
			if canAct <= 1 {
				g.street = len(streetNames) - 1
			}
			g.over = true
			return
		}
		g.street++
		for _, p := range g.ps {
			p.street, p.acted = 0, false
			if !p.folded {
				p.sawFlop = true
			}
		}
		g.currentBet, g.lastRaise, g.fullRaises, g.raises = 0, g.bb, 0, 0
		g.toAct = g.firstToAct(g.next(g.button))
	}
}

// act chooses and plays the action of the player to act.
func (g *betting) act() {
	rng := g.s.rng
	p := g.ps[g.toAct]
	toCall := g.currentBet - p.street
	_, canAct := g.live()
	canRaise := !(p.acted && p.seqAtAct == g.fullRaises) && canAct > 1 && !g.othersAllIn(p) && p.stack > toCall && g.raises < 4
	x := rng.IntN(100)
	switch {
	case canRaise && g.illegalOK != nil && g.currentBet > 0 && g.lastRaise >= 2 && x < 50:
		inc := g.lastRaise - 1
		amt := g.currentBet + inc - p.street
		if amt < p.stack {
			g.put(p, amt, double.KindRaise)
			g.currentBet += inc
			g.raises++
			g.illegal = true
			g.illegalOK = nil
			break
		}
		g.call(p, toCall)
	case toCall > 0 && x < 25:
		g.actions = append(g.actions, round.Action{Seat: p.seat, Street: streetNames[g.street], Kind: double.KindFold})
		p.folded = true
	case canRaise && (toCall > 0 && x < 37 || toCall == 0 && x < 30):
		inc := g.lastRaise * (1 + rng.Int64N(3))
		if rng.IntN(20) == 0 {
			inc = p.stack // shove
		}
		amt := min(g.currentBet+inc-p.street, p.stack)
		kind := double.KindRaise
		if g.currentBet == 0 {
			kind = double.KindBet
		}
		newTotal := p.street + amt
		inc = newTotal - g.currentBet
		g.put(p, amt, kind)
		if inc >= g.lastRaise {
			g.lastRaise = inc
			g.fullRaises++
		}
		g.currentBet = newTotal
		g.raises++
	case toCall > 0:
		g.call(p, toCall)
	default:
		g.actions = append(g.actions, round.Action{Seat: p.seat, Street: streetNames[g.street], Kind: double.KindCheck})
	}
	p.acted = true
	p.seqAtAct = g.fullRaises
	g.toAct = g.nextToAct(g.toAct)
	g.settleStreet()
}

func (g *betting) call(p *dpl, toCall int64) {
	g.put(p, min(toCall, p.stack), double.KindCall)
}

// maxStackBlinds is the stack, in big blinds, at which a simulated Double
// Hold'em player leaves the table.
const maxStackBlinds = 400

func (s *Simulator) playDouble(r *round.Round) error {
	d := s.p.Double
	if d.Structure != profile.NoLimit && d.Structure != "" {
		return fmt.Errorf("the simulator plays no-limit Double Hold'em only, profile %s is %s", s.p.Name, d.Structure)
	}
	n := len(s.slots)
	for k, sl := range s.slots {
		// A busted player is replaced, and so is one who has won 400 big
		// blinds' worth (they cash out): without it chips pile up at the
		// table over millions of hands and stacks grow without bound.
		if sl.balance < d.BigBlind || sl.balance > maxStackBlinds*d.BigBlind {
			s.slots[k] = s.newSlot()
			s.seatsChanged = true
		}
	}
	s.newPlayer = false
	for _, sl := range s.slots {
		s.skimWallet(r, sl, d.BigBlind)
		s.newPlayer = s.newPlayer || sl.rounds == 0
		sl.rounds++
	}
	if s.i > 0 {
		s.button = (s.button + 1) % n
	}
	seats := make([]int, n)
	for k := range seats {
		seats[k] = k + 1
	}

	// Fairness.
	f := &r.Fairness
	f.Scheme = scheme.FairholdV1Name
	if s.table2 == nil || s.i > s.table2.last {
		ts, err := s.openSession(s.i, 1)
		if err != nil {
			return err
		}
		s.prevTable, s.table2 = s.table2, ts
	}
	ts := s.table2
	redealt := false
	if rf := s.want(FaultSeedRedealt); rf != nil && s.prevTable != nil {
		ts, redealt = s.prevTable, true
		s.applied(r, rf)
	}
	s.sessionNonce(r, ts)
	s.seatsChanged = false
	f.Commitment, f.CommittedAt, f.ServerSeed, f.RevealedAt = ts.commitment, ts.committedAt, ts.serverSeed, ts.revealedAt
	if redealt {
		// A fresh, plausible reveal time: after the hand.
		f.RevealedAt = fmtTime(s.at(s.i).Add(s.step))
	}
	f.ClientSeeds = make([]string, n)
	for k, sl := range s.slots {
		f.ClientSeeds[k] = sl.clientSeed
	}
	if s.switchClientSeed(r, s.slots, ts.id) || redealt {
		// The next hand's client input or session is not this hand's: a
		// nonce repeated there repeats no (seed, client input, nonce).
		s.seatsChanged = true
	}
	s.sessionFaultRound(r, ts.fault, s.i, ts.first, ts.last)

	lay, err := s.layoutFor(n)
	if err != nil {
		return err
	}
	dealt, err := s.deal(r, ts.dealer, ts.seed[:], lay.Count, 3*n)
	if err != nil {
		return err
	}
	cards, err := layout.Split(lay, dealt)
	if err != nil {
		return err
	}
	order, err := layout.DealingOrder(seats, seats[s.button])
	if err != nil {
		return err
	}
	ps := make([]*dpl, n)
	pls := make([]dpl, n) // one allocation for the table
	for k, sl := range s.slots {
		pls[k] = dpl{sl: sl, seat: k + 1, stack: sl.balance}
		ps[k] = &pls[k]
	}
	for k, seat := range order {
		h := cards.Hands[k]
		ps[seat-1].cards = [3]card.Card{h[0], h[1], h[2]}
	}
	board := [5]card.Card{cards.Flop[0], cards.Flop[1], cards.Flop[2], cards.Turn, cards.River}

	h := &round.DoubleHand{Button: seats[s.button], SmallBlind: d.SmallBlind, BigBlind: d.BigBlind, Pots: []round.Pot{}}
	r.Double = h
	h.Seats = make([]round.Seat, 0, n)
	r.WalletIDs = make([]string, 0, n)
	for _, p := range ps {
		h.Seats = append(h.Seats, round.Seat{Seat: p.seat, PlayerID: p.sl.player, Cards: s.texts(p.cards[:]), StackBefore: p.stack})
		r.WalletIDs = append(r.WalletIDs, p.sl.wallet)
	}
	if s.rng.Float64() < VoidRate {
		r.Void, r.VoidReason = true, "misdeal"
		r.Board = s.texts(board[:])
		h.Actions = []round.Action{}
		for k := range h.Seats {
			h.Seats[k].StackAfter = h.Seats[k].StackBefore
		}
		return nil
	}

	// Betting.
	g := &betting{s: s, ps: ps, button: s.button, bb: d.BigBlind, actions: s.actions.open(64)}
	g.illegalOK = s.want(FaultDHIllegalRaise)
	sb, bb := g.next(g.button), g.next(g.next(g.button))
	if n == 2 {
		sb, bb = g.button, g.next(g.button)
	}
	g.put(ps[sb], min(d.SmallBlind, ps[sb].stack), double.KindSmallBlind)
	g.put(ps[bb], min(d.BigBlind, ps[bb].stack), double.KindBigBlind)
	// A big blind all-in for less than the blind does not lower the bet
	// when three or more play (the rule replay/double enforces).
	g.currentBet = max(ps[sb].street, ps[bb].street)
	if n > 2 {
		g.currentBet = max(g.currentBet, d.BigBlind)
	}
	g.lastRaise, g.raises = d.BigBlind, 1
	g.toAct = g.firstToAct(g.next(bb))
	g.settleStreet()
	for !g.over {
		g.act()
	}
	h.Actions = s.actions.keep(g.actions)
	if g.illegal {
		s.applied(r, s.want(FaultDHIllegalRaise))
	}
	in, _ := g.live()
	showdown := in >= 2
	nb := []int{0, 3, 4, 5}[g.street]
	if showdown {
		nb = 5
	}
	r.Board = s.texts(board[:nb])
	flopDealt := g.street >= 1 || showdown
	for k, p := range ps {
		if (p.folded && !p.sawFlop) || !flopDealt {
			continue
		}
		auto := double.AutoBonusCard(s.p, p.cards)
		st := &h.Seats[k]
		switch {
		case p.allInPre || s.rng.IntN(7) == 0:
			st.BonusCard, st.BonusAuto = cardText[auto], true
		default:
			st.BonusCard = cardText[p.cards[s.rng.IntN(3)]]
		}
	}
	for k, p := range ps {
		if showdown && !p.folded {
			bc, _ := card.Parse(h.Seats[k].BonusCard)
			for _, o := range p.cards {
				if o != bc {
					p.value = max(p.value, hand.Eval7([7]card.Card{bc, o, board[0], board[1], board[2], board[3], board[4]}))
				}
			}
		}
	}

	// Settlement: the rules engine, or for a hand with an illegal raise
	// (which the engine refuses) the same award on the chips put in.
	var pots []round.Pot
	var rake int64
	after := map[int]int64{}
	if g.illegal {
		pots, rake, err = s.award(g, flopDealt)
		if err != nil {
			return err
		}
		for _, p := range ps {
			after[p.seat] = p.stack
		}
	} else {
		res, err := s.settler.Settle(s.p, r)
		if err != nil {
			return fmt.Errorf("internal error: the simulated hand does not settle: %w", err)
		}
		// The Settler's memory is its own until the next hand; the round
		// keeps its pots.
		pots, rake, after = clonePots(res.Pots), res.Rake, res.StackAfter
	}
	h.Pots, h.Rake = pots, rake
	s.breakDouble(r, g, after, flopDealt)
	for k := range h.Seats {
		st := &h.Seats[k]
		st.StackAfter = after[st.Seat]
		s.slots[k].balance = st.StackAfter
	}
	if df := s.want(FaultCardDuplicate); df != nil && len(r.Board) > 0 {
		r.Board[s.rng.IntN(len(r.Board))] = h.Seats[0].Cards[0]
		s.applied(r, df)
	}
	return nil
}

// award settles a hand on the chips put in, as package double does:
// uncalled chips back, pots layered by contribution, rake from the main
// pot first, each pot shared by its best eligible hands with the odd chips
// clockwise from the button's left. It updates the players' stacks.
func (s *Simulator) award(g *betting, flopDealt bool) ([]round.Pot, int64, error) {
	ps := g.ps
	byTotal := slices.Clone(ps)
	sort.SliceStable(byTotal, func(i, j int) bool { return byTotal[i].total > byTotal[j].total })
	if len(byTotal) > 1 && byTotal[0].total > byTotal[1].total {
		back := byTotal[0].total - byTotal[1].total
		byTotal[0].total -= back
		byTotal[0].stack += back
	}
	var levels []int64
	for _, p := range ps {
		if !p.folded && p.total > 0 {
			levels = append(levels, p.total)
		}
	}
	slices.Sort(levels)
	levels = slices.Compact(levels)
	var pots []round.Pot
	var prev int64
	for li, lv := range levels {
		pot := round.Pot{Eligible: []int{}}
		for _, p := range ps {
			pot.Amount += min(p.total, lv) - min(p.total, prev)
			if li == len(levels)-1 {
				pot.Amount += max(p.total-lv, 0)
			}
			if !p.folded && p.total >= lv {
				pot.Eligible = append(pot.Eligible, p.seat)
			}
		}
		prev = lv
		pots = append(pots, pot)
	}
	var total, rake int64
	for _, p := range pots {
		total += p.Amount
	}
	d := s.p.Double
	if flopDealt || !d.Rake.NoFlopNoDrop {
		rk, err := money.MulDiv(total, d.Rake.RateBP, 10000)
		if err != nil {
			return nil, 0, err
		}
		if d.Rake.Cap > 0 {
			rk = min(rk, d.Rake.Cap)
		}
		rake = rk
		for i := range pots {
			take := min(rk, pots[i].Amount)
			pots[i].Amount -= take
			rk -= take
		}
	}
	for i := range pots {
		pot := &pots[i]
		var best hand.Value
		var winners []*dpl
		for k := 1; k <= len(ps); k++ {
			p := ps[(g.button+k)%len(ps)]
			if p.folded || p.total < 1 || !slices.Contains(pot.Eligible, p.seat) {
				continue
			}
			switch {
			case len(pot.Eligible) == 1 || p.value > best:
				best, winners = p.value, []*dpl{p}
			case p.value == best:
				winners = append(winners, p)
			}
		}
		if len(winners) == 0 {
			return nil, 0, fmt.Errorf("internal error: pot %d has no winner", i)
		}
		nw := int64(len(winners))
		share, odd := pot.Amount/nw, pot.Amount%nw
		pot.Winners, pot.Shares = []int{}, []int64{}
		for k, w := range winners {
			sh := share
			if int64(k) < odd {
				sh++
			}
			pot.Winners = append(pot.Winners, w.seat)
			pot.Shares = append(pot.Shares, sh)
			w.stack += sh
		}
	}
	return pots, rake, nil
}

// breakDouble applies the due Double Hold'em settlement fault that fits.
func (s *Simulator) breakDouble(r *round.Round, g *betting, after map[int]int64, flopDealt bool) {
	h := r.Double
	value := map[int]hand.Value{}
	for _, p := range g.ps {
		value[p.seat] = p.value
	}
	if f := s.want(FaultDHWrongAutoBonus); f != nil {
		for k := range h.Seats {
			st := &h.Seats[k]
			if !st.BonusAuto {
				continue
			}
			for _, c := range st.Cards {
				if c != st.BonusCard {
					st.BonusCard = c
					s.applied(r, f)
					return
				}
			}
		}
	}
	if f := s.want(FaultDHPotWrongWinner); f != nil && len(r.Board) == 5 {
		for i := range h.Pots {
			pot := &h.Pots[i]
			if len(pot.Winners) != 1 || len(pot.Eligible) < 2 || pot.Amount == 0 {
				continue
			}
			w := pot.Winners[0]
			for _, e := range pot.Eligible {
				if e != w && value[e] < value[w] {
					after[w] -= pot.Amount
					after[e] += pot.Amount
					pot.Winners[0] = e
					s.applied(r, f)
					return
				}
			}
		}
	}
	if f := s.want(FaultDHOddChipWrong); f != nil {
		for i := range h.Pots {
			pot := &h.Pots[i]
			k := len(pot.Shares) - 1
			if k < 1 || pot.Shares[0] <= pot.Shares[k] {
				continue
			}
			pot.Shares[0]--
			pot.Shares[k]++
			after[pot.Winners[0]]--
			after[pot.Winners[k]]++
			s.applied(r, f)
			return
		}
	}
	if f := s.want(FaultDHSidePotWrong); f != nil && len(h.Pots) >= 2 {
		main, side := &h.Pots[0], &h.Pots[1]
		if len(main.Winners) == 1 && len(side.Winners) == 1 && side.Shares[0] >= 1 {
			k := min(h.BigBlind, side.Shares[0])
			side.Amount -= k
			side.Shares[0] -= k
			main.Amount += k
			main.Shares[0] += k
			after[side.Winners[0]] -= k
			after[main.Winners[0]] += k
			s.applied(r, f)
			return
		}
	}
	if f := s.want(FaultDHChipsNotConserved); f != nil && len(h.Pots) > 0 && len(h.Pots[0].Winners) > 0 {
		after[h.Pots[0].Winners[0]]++
		s.applied(r, f)
		return
	}
	if f := s.want(FaultDHRakeOverCap); f != nil && flopDealt && len(h.Pots) > 0 && len(h.Pots[0].Winners) == 1 {
		var total int64
		for _, p := range h.Pots {
			total += p.Amount
		}
		extra := max(total*5/100, 1)
		main := &h.Pots[0]
		if main.Shares[0] >= extra {
			main.Amount -= extra
			main.Shares[0] -= extra
			after[main.Winners[0]] -= extra
			h.Rake += extra
			s.applied(r, f)
		}
	}
}

// clonePots copies pots and the slices in them.
func clonePots(pots []round.Pot) []round.Pot {
	out := make([]round.Pot, len(pots))
	for i, p := range pots {
		out[i] = round.Pot{Amount: p.Amount, Eligible: slices.Clone(p.Eligible), Winners: slices.Clone(p.Winners), Shares: slices.Clone(p.Shares)}
	}
	return out
}
