// Package double settles Double Hold'em hands: Texas Hold'em with three hole
// cards, of which each player chooses one as the bonus card after the flop
// and plays the better of bonus + left and bonus + right with the board.
//
// [Settle] replays a logged hand (package round) under a rules profile: it
// checks every action's legality, returns an uncalled bet, builds the main
// and side pots, takes the rake, evaluates each remaining player's best
// hand, awards every pot (splits, odd chip) and proves chip conservation:
// the sum of stacks before equals the sum of stacks after plus the rake.
//
// # Betting
//
// The button moves clockwise (up the seat numbers). Heads-up the button
// posts the small blind and acts first pre-flop; otherwise the two seats to
// its left post the blinds and the seat left of the big blind acts first.
// A big blind all-in for less than the full blind still obliges the others
// to call the full big blind (heads-up: just the blind posted, the rest
// being uncalled).
// After the flop the first active seat left of the button acts first. An
// action's Amount is the chips it adds. A bet or raise must be at least a
// full raise (the big blind, or the previous bet or raise increment) unless
// it is all-in; an all-in for less than a full raise does not reopen the
// betting for players who have already acted. Pot-limit caps a raise at
// the pot after the call; fixed-limit fixes each increment (small bet
// pre-flop and on the flop, big bet on the turn and river) and caps the
// number of bets per street.
//
// # Pots and rake
//
// The part of the largest contribution that nobody matched is returned to
// its owner. Pots are layered by the contributions of the players still in
// (main pot first); a pot is shared by its eligible players with the best
// hand, the odd chips one each to the winners in clockwise order from the
// button's left. Rake is rate_bp/10000 of all pots, rounded down, at most
// the cap, nothing when the hand ended before the flop under
// no_flop_no_drop; it is taken from the main pot first. Pot amounts in the
// [Result] are after rake.
package double

import (
	"fmt"
	"slices"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
)

// Streets, in order.
var streets = [...]string{"preflop", "flop", "turn", "river"}

// Action kinds.
const (
	KindSmallBlind = "small-blind"
	KindBigBlind   = "big-blind"
	KindFold       = "fold"
	KindCheck      = "check"
	KindCall       = "call"
	KindBet        = "bet"
	KindRaise      = "raise"
)

// ActionError reports an illegal action, or a missing one (Index =
// len(actions) when the hand ended before everyone had acted).
type ActionError struct {
	Index  int    // position in the action list
	Seat   int    // the seat that acted (or should have)
	Street string // the street being played
	Kind   string // the action's kind as logged
	Reason string
}

func (e *ActionError) Error() string {
	return fmt.Sprintf("action %d (seat %d, %s, %s): %s", e.Index, e.Seat, e.Street, e.Kind, e.Reason)
}

// HandError reports a hand record that is malformed or against the
// profile (seats, cards, blinds, board, bonus cards).
type HandError struct {
	Field  string // path in the round record, e.g. "double.seats[2].cards"
	Reason string
}

func (e *HandError) Error() string { return e.Field + ": " + e.Reason }

func handErr(field, format string, args ...any) error {
	return &HandError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// Result is the settlement of one hand.
type Result struct {
	// Pots after rake, main pot first, with winners and shares.
	Pots []round.Pot `json:"pots"`
	Rake int64       `json:"rake"`
	// Uncalled is the unmatched part of the largest contribution, returned
	// to UncalledSeat (0 when none).
	Uncalled     int64 `json:"uncalled"`
	UncalledSeat int   `json:"uncalled_seat,omitempty"`
	// StackAfter and Contributed by seat.
	StackAfter  map[int]int64 `json:"stack_after"`
	Contributed map[int]int64 `json:"contributed"`
	// BonusCards by seat for every player who saw the flop, chosen or
	// automatic; BonusAuto marks the automatic ones.
	BonusCards map[int]string `json:"bonus_cards,omitempty"`
	BonusAuto  map[int]bool   `json:"bonus_auto,omitempty"`
	// Hands by seat, for the players at showdown: the category name of the
	// better of their two hands.
	Hands map[int]string `json:"hands,omitempty"`
	// Showdown is true when two or more players reached the end; Street is
	// the last street reached ("preflop" .. "river").
	Showdown bool   `json:"showdown"`
	Street   string `json:"street"`
	Void     bool   `json:"void,omitempty"`
}

type player struct {
	seat      int
	idx       int // position in seat order
	cards     [3]card.Card
	stack     int64 // remaining
	street    int64 // committed on this street
	total     int64 // committed in the hand
	folded    bool
	allIn     bool
	acted     bool
	seqAtAct  int // fullRaises when the player last acted
	allInPre  bool
	sawFlop   bool
	handValue hand.Value
}

type game struct {
	p          *profile.Profile
	d          *profile.Double
	ps         []*player
	bySeat     [11]*player // by seat number, 1 to 10
	button     int         // index into ps
	sb, bb     int         // indexes
	street     int
	currentBet int64
	lastRaise  int64
	fullRaises int
	bets       int // bets and raises this street (fixed-limit cap)
	toAct      int // index of the player to act, -1 when the betting round is closed
	over       bool
	potTotal   int64

	// Kept from hand to hand by a Settler.
	players []player
	res     Result
	levels  []int64
	winners []*player
	lean    bool // see Settler.Lean
}

// A Settler settles hands one after another, reusing its memory: the
// Result of [Settler.Settle], and every slice and map in it, is valid
// until the next call. The zero value is ready to use; a Settler is not
// safe for concurrent use. [Settle] gives every hand its own memory.
type Settler struct {
	// Lean leaves the Result's Contributed, BonusCards, BonusAuto and
	// Hands empty, for callers that read only the pots, the rake, the
	// uncalled bet and the stacks after (the replayer's checks, the
	// simulator). The hand is checked and settled the same way.
	Lean bool

	g game
}

// Settle replays one Double Hold'em hand of r under p.
func Settle(p *profile.Profile, r *round.Round) (*Result, error) {
	var s Settler
	return s.Settle(p, r)
}

// Settle replays one Double Hold'em hand of r under p, as [Settle] does.
func (s *Settler) Settle(p *profile.Profile, r *round.Round) (*Result, error) {
	if p == nil || p.Double == nil {
		return nil, fmt.Errorf("double: profile is not a Double Hold'em profile")
	}
	if r.Game != p.Game {
		return nil, handErr("game", "%q, but profile %s is for %q", r.Game, p.Name, p.Game)
	}
	h := r.Double
	if h == nil {
		return nil, handErr("double", "missing")
	}
	if len(r.Boxes) != 0 {
		return nil, handErr("boxes", "set on a Double Hold'em round")
	}
	g := &s.g
	g.lean = s.Lean
	if err := g.reset(p, r); err != nil {
		return nil, err
	}
	if r.Void {
		return g.void(), nil
	}
	if err := g.play(h.Actions); err != nil {
		return nil, err
	}
	return g.finish(r)
}

// reset makes g the game of r's hand under p, keeping g's buffers.
func (g *game) reset(p *profile.Profile, r *round.Round) error {
	d, h := p.Double, r.Double
	*g = game{p: p, d: d, ps: g.ps[:0], players: g.players, res: g.res, levels: g.levels[:0], winners: g.winners[:0], lean: g.lean}
	if n := len(h.Seats); n < d.SeatsMin || n > d.SeatsMax {
		return handErr("double.seats", "%d seats; want %d to %d", n, d.SeatsMin, d.SeatsMax)
	}
	if cap(g.players) < len(h.Seats) {
		g.players = make([]player, len(h.Seats), 10) // one allocation for the table
	}
	players := g.players[:len(h.Seats)]
	if h.SmallBlind != d.SmallBlind {
		return handErr("double.small_blind", "%d; profile %s has %d", h.SmallBlind, p.Name, d.SmallBlind)
	}
	if h.BigBlind != d.BigBlind {
		return handErr("double.big_blind", "%d; profile %s has %d", h.BigBlind, p.Name, d.BigBlind)
	}
	var seen card.Set
	for i, s := range h.Seats {
		f := seatPrefix(i)
		if s.Seat < 1 || s.Seat > 10 {
			return handErr(f+".seat", "%d: want 1 to 10", s.Seat)
		}
		if i > 0 && s.Seat <= h.Seats[i-1].Seat {
			return handErr(f+".seat", "%d: seats must be listed in increasing seat order", s.Seat)
		}
		if s.StackBefore <= 0 || s.StackBefore > 1<<53 {
			return handErr(f+".stack_before", "%d: want a positive amount up to 2^53", s.StackBefore)
		}
		if len(s.Cards) != 3 {
			return handErr(f+".cards", "%d cards; want 3", len(s.Cards))
		}
		pl := &players[i]
		*pl = player{seat: s.Seat, idx: i, stack: s.StackBefore}
		for j, cs := range s.Cards {
			c, err := card.Parse(cs)
			if err != nil {
				return handErr(fmt.Sprintf("%s.cards[%d]", f, j), "%v", err)
			}
			if seen.Has(c) {
				return handErr(fmt.Sprintf("%s.cards[%d]", f, j), "card %s dealt twice", c)
			}
			seen = seen.Add(c)
			pl.cards[j] = c
		}
		g.ps = append(g.ps, pl)
		g.bySeat[s.Seat] = pl
	}
	if len(r.Board) > 5 {
		return handErr("board", "%d cards; want at most 5", len(r.Board))
	}
	for j, cs := range r.Board {
		c, err := card.Parse(cs)
		if err != nil {
			return handErr(fmt.Sprintf("board[%d]", j), "%v", err)
		}
		if seen.Has(c) {
			return handErr(fmt.Sprintf("board[%d]", j), "card %s dealt twice", c)
		}
		seen = seen.Add(c)
	}
	var b *player
	if h.Button >= 1 && h.Button < len(g.bySeat) {
		b = g.bySeat[h.Button]
	}
	if b == nil {
		return handErr("double.button", "seat %d is not at the table", h.Button)
	}
	g.button = b.idx
	if len(g.ps) == 2 {
		g.sb, g.bb = g.button, g.next(g.button)
	} else {
		g.sb = g.next(g.button)
		g.bb = g.next(g.sb)
	}
	return nil
}

func (g *game) next(i int) int { return (i + 1) % len(g.ps) }

// result returns g's Result, emptied, its maps and slices kept.
func (g *game) result() *Result {
	res := &g.res
	*res = Result{StackAfter: cleared(res.StackAfter), Contributed: cleared(res.Contributed), BonusCards: cleared(res.BonusCards),
		BonusAuto: cleared(res.BonusAuto), Hands: cleared(res.Hands), Pots: res.Pots[:0]}
	if res.Pots == nil {
		res.Pots = []round.Pot{}
	}
	return res
}

func cleared[V any](m map[int]V) map[int]V {
	if m == nil {
		return map[int]V{}
	}
	if len(m) != 0 {
		clear(m)
	}
	return m
}

func (g *game) void() *Result {
	res := g.result()
	res.Street, res.Void = streets[0], true
	for _, pl := range g.ps {
		res.StackAfter[pl.seat] = pl.stack
		if !g.lean {
			res.Contributed[pl.seat] = 0
		}
	}
	return res
}

// play checks and applies every action.
func (g *game) play(acts []round.Action) error {
	if len(acts) < 2 {
		return &ActionError{Index: len(acts), Seat: g.ps[g.sb].seat, Street: streets[0], Reason: "the blinds are missing"}
	}
	for i, want := range []struct {
		idx    int
		kind   string
		amount int64
	}{{g.sb, KindSmallBlind, g.d.SmallBlind}, {g.bb, KindBigBlind, g.d.BigBlind}} {
		a := acts[i]
		pl := g.ps[want.idx]
		fail := actionFail(i, a)
		if a.Street != streets[0] || a.Seat != pl.seat || a.Kind != want.kind {
			return fail("want %s by seat %d pre-flop", want.kind, pl.seat)
		}
		amt := min(want.amount, pl.stack)
		if a.Amount != amt {
			return fail("amount %d; want %d", a.Amount, amt)
		}
		if err := g.put(pl, amt, a.AllIn, fail); err != nil {
			return err
		}
	}
	// A big blind all-in for less than the full blind does not lower the
	// bet: the others still owe the full big blind (the standard rule).
	// Heads-up the small blind is the only one left to call, and what it
	// puts in above the all-in blind would only come back as an uncalled
	// bet, so it owes just the blind that was posted.
	g.currentBet = max(g.ps[g.sb].street, g.ps[g.bb].street)
	if len(g.ps) > 2 {
		g.currentBet = max(g.currentBet, g.d.BigBlind)
	}
	g.lastRaise = g.d.BigBlind
	g.bets = 1
	g.toAct = g.firstToAct(g.next(g.bb))
	g.settleStreet()
	for i := 2; i < len(acts); i++ {
		if err := g.act(i, acts[i]); err != nil {
			return err
		}
	}
	if !g.over {
		pl := g.ps[g.toAct]
		return &ActionError{Index: len(acts), Seat: pl.seat, Street: streets[g.street], Reason: fmt.Sprintf("the hand is incomplete: seat %d is to act", pl.seat)}
	}
	return nil
}

// put moves amt chips from pl's stack into the pot.
func (g *game) put(pl *player, amt int64, allInFlag bool, fail failFunc) error {
	if amt < 0 {
		return fail("negative amount %d", amt)
	}
	if amt > pl.stack {
		return fail("amount %d is more than the stack %d", amt, pl.stack)
	}
	pl.stack -= amt
	pl.street += amt
	pl.total += amt
	g.potTotal += amt
	if allIn := pl.stack == 0; allIn != allInFlag {
		if allIn {
			return fail("the action puts the player all-in but all_in is false")
		}
		return fail("all_in is true but %d chips remain", pl.stack)
	}
	if pl.stack == 0 {
		pl.allIn = true
		if g.street == 0 {
			pl.allInPre = true
		}
	}
	return nil
}

// firstToAct returns the first player from index i on who can act, or -1.
func (g *game) firstToAct(i int) int {
	for k := 0; k < len(g.ps); k++ {
		j := (i + k) % len(g.ps)
		if pl := g.ps[j]; !pl.folded && !pl.allIn {
			return j
		}
	}
	return -1
}

// needsToAct reports whether pl still has to act on this street.
func (g *game) needsToAct(pl *player) bool {
	if pl.folded || pl.allIn {
		return false
	}
	return !pl.acted || pl.street < g.currentBet
}

// nextToAct returns the next player after index i who needs to act, or -1.
func (g *game) nextToAct(i int) int {
	for k := 1; k <= len(g.ps); k++ {
		j := (i + k) % len(g.ps)
		if g.needsToAct(g.ps[j]) {
			return j
		}
	}
	return -1
}

func (g *game) live() (in, canAct int) {
	for _, pl := range g.ps {
		if !pl.folded {
			in++
			if !pl.allIn {
				canAct++
			}
		}
	}
	return
}

// settleStreet closes the betting round when nobody needs to act and moves
// to the next street, or ends the hand.
func (g *game) settleStreet() {
	for {
		in, canAct := g.live()
		if in <= 1 {
			g.over = true
			return
		}
		if g.toAct >= 0 && g.needsToAct(g.ps[g.toAct]) {
			// Betting goes on unless only one player can act and has
			// nothing to call.
			if canAct == 1 && g.ps[g.toAct].street >= g.currentBet {
				// fall through to close the street
			} else {
				return
			}
		}
		// The street is closed.
		if canAct <= 1 || g.street == len(streets)-1 {
			// No more betting: the board runs out.
			if canAct <= 1 {
				g.street = len(streets) - 1
			}
			g.over = true
			return
		}
		g.street++
		for _, pl := range g.ps {
			pl.street, pl.acted = 0, false
			if !pl.folded {
				pl.sawFlop = true
			}
		}
		g.currentBet, g.lastRaise, g.fullRaises, g.bets = 0, g.d.BigBlind, 0, 0
		g.toAct = g.firstToAct(g.next(g.button))
	}
}

func (g *game) betUnit() int64 {
	if g.street < 2 {
		return g.d.FixedLimit.SmallBet
	}
	return g.d.FixedLimit.BigBet
}

// failFunc makes the error of a failed action.
type failFunc func(format string, args ...any) error

// actionFail returns the failFunc of action i. The error is made only
// when the action fails: a hand has about 20 actions, and making it up
// front was the engine's largest allocation.
func actionFail(i int, a round.Action) failFunc {
	return func(format string, args ...any) error {
		return &ActionError{Index: i, Seat: a.Seat, Street: a.Street, Kind: a.Kind, Reason: fmt.Sprintf(format, args...)}
	}
}

func (g *game) act(i int, a round.Action) error {
	fail := actionFail(i, a)
	if g.over {
		return fail("no action expected: the betting is over")
	}
	if a.Street != streets[g.street] {
		return fail("street %q; the hand is on the %s", a.Street, streets[g.street])
	}
	pl := g.ps[g.toAct]
	if a.Seat != pl.seat {
		return fail("out of turn: seat %d is to act", pl.seat)
	}
	toCall := g.currentBet - pl.street
	switch a.Kind {
	case KindFold:
		if a.Amount != 0 || a.AllIn {
			return fail("a fold puts in no chips")
		}
		pl.folded = true
	case KindCheck:
		if toCall > 0 {
			return fail("check facing a bet of %d; want call, raise or fold", toCall)
		}
		if a.Amount != 0 || a.AllIn {
			return fail("a check puts in no chips")
		}
	case KindCall:
		if toCall <= 0 {
			return fail("call with nothing to call; want check or bet")
		}
		if want := min(toCall, pl.stack); a.Amount != want {
			return fail("call of %d; want %d", a.Amount, want)
		}
		if err := g.put(pl, a.Amount, a.AllIn, fail); err != nil {
			return err
		}
	case KindBet, KindRaise:
		if a.Kind == KindBet && g.currentBet > 0 {
			return fail("bet facing a bet of %d; want raise", g.currentBet)
		}
		if a.Kind == KindRaise && g.currentBet == 0 {
			return fail("raise with no bet to raise; want bet")
		}
		if pl.acted && pl.seqAtAct == g.fullRaises {
			return fail("the betting was not reopened: an all-in for less than a full raise lets a player who has acted only call or fold")
		}
		if _, canAct := g.live(); canAct <= 1 || g.othersAllIn(pl) {
			return fail("every other player is all-in; want call or fold")
		}
		if a.Amount > pl.stack {
			return fail("amount %d is more than the stack %d", a.Amount, pl.stack)
		}
		newTotal := pl.street + a.Amount
		inc := newTotal - g.currentBet
		allIn := a.Amount == pl.stack
		if inc <= 0 {
			return fail("%s to %d does not exceed the current bet %d", a.Kind, newTotal, g.currentBet)
		}
		minInc := g.lastRaise
		if g.d.Structure == profile.FixedLimit {
			minInc = g.betUnit()
			if g.bets >= g.d.FixedLimit.MaxBets {
				return fail("fixed-limit cap of %d bets on this street reached", g.d.FixedLimit.MaxBets)
			}
			if inc > minInc {
				return fail("%s to %d; fixed-limit %s is to %d", a.Kind, newTotal, a.Kind, g.currentBet+minInc)
			}
		}
		if inc < minInc && !allIn {
			return fail("%s to %d is below the minimum %s to %d", a.Kind, newTotal, a.Kind, g.currentBet+minInc)
		}
		if g.d.Structure == profile.PotLimit {
			// The pot after calling, added to the call.
			maxTotal := g.currentBet + g.potTotal + toCall
			if newTotal > maxTotal {
				return fail("%s to %d is above the pot limit %d", a.Kind, newTotal, maxTotal)
			}
		}
		if err := g.put(pl, a.Amount, a.AllIn, fail); err != nil {
			return err
		}
		if inc >= minInc {
			g.lastRaise = inc
			g.fullRaises++
		}
		g.currentBet = newTotal
		g.bets++
	case KindSmallBlind, KindBigBlind:
		return fail("blinds are posted only at the start")
	default:
		return fail("unknown action kind; want fold, check, call, bet or raise")
	}
	pl.acted = true
	pl.seqAtAct = g.fullRaises
	g.toAct = g.nextToAct(g.toAct)
	g.settleStreet()
	return nil
}

func (g *game) othersAllIn(me *player) bool {
	for _, pl := range g.ps {
		if pl != me && !pl.folded && !pl.allIn {
			return false
		}
	}
	return true
}

// finish checks the board and bonus cards, builds and awards the pots.
func (g *game) finish(r *round.Round) (*Result, error) {
	res := g.result()
	in, _ := g.live()
	res.Showdown = in >= 2
	res.Street = streets[g.street]
	wantBoard := []int{0, 3, 4, 5}[g.street]
	if res.Showdown {
		wantBoard = 5
	}
	if len(r.Board) != wantBoard {
		return nil, handErr("board", "%d cards; the hand reached the %s and wants %d", len(r.Board), res.Street, wantBoard)
	}
	board, _ := card.ParseStrings(r.Board)
	flopDealt := g.street >= 1 || res.Showdown
	for i, s := range r.Double.Seats {
		pl := g.ps[i]
		f := seatPrefix(i)
		if pl.folded && !pl.sawFlop {
			if s.BonusCard != "" {
				return nil, handErr(f+".bonus_card", "%s chosen by a player who folded before the flop", s.BonusCard)
			}
			continue
		}
		if !flopDealt {
			if s.BonusCard != "" {
				return nil, handErr(f+".bonus_card", "%s chosen, but the hand ended before the flop", s.BonusCard)
			}
			continue
		}
		auto := AutoBonusCard(g.p, pl.cards)
		bc := auto
		switch {
		case s.BonusCard != "":
			c, err := card.Parse(s.BonusCard)
			if err != nil {
				return nil, handErr(f+".bonus_card", "%v", err)
			}
			if c != pl.cards[0] && c != pl.cards[1] && c != pl.cards[2] {
				return nil, handErr(f+".bonus_card", "%s is not one of the player's cards", c)
			}
			if s.BonusAuto && c != auto {
				return nil, handErr(f+".bonus_card", "%s marked automatic, but the automatic rule selects %s", c, auto)
			}
			bc = c
		case pl.allInPre && !g.d.AutoBonusWhenAllInPreflop:
			return nil, handErr(f+".bonus_card", "missing, and the profile gives no automatic bonus card to a player all-in before the flop")
		}
		if !g.lean {
			res.BonusAuto[pl.seat] = s.BonusCard == "" || s.BonusAuto
			res.BonusCards[pl.seat] = bc.String()
		}
		if res.Showdown && !pl.folded {
			var buf [3]card.Card
			others := buf[:0]
			for _, c := range pl.cards {
				if c != bc {
					others = append(others, c)
				}
			}
			best := hand.Value(0)
			for _, o := range others {
				v := hand.Eval7([7]card.Card{bc, o, board[0], board[1], board[2], board[3], board[4]})
				best = max(best, v)
			}
			pl.handValue = best
			if !g.lean {
				res.Hands[pl.seat] = best.Category().String()
			}
		}
	}
	if err := g.award(res, flopDealt); err != nil {
		return nil, err
	}
	// Conservation: stacks before = stacks after + rake.
	var before, after int64
	for i, s := range r.Double.Seats {
		before += s.StackBefore
		after += res.StackAfter[g.ps[i].seat]
	}
	if before != after+res.Rake {
		return nil, fmt.Errorf("double: internal error: chips not conserved: before %d, after %d, rake %d", before, after, res.Rake)
	}
	return res, nil
}

func (g *game) award(res *Result, flopDealt bool) error {
	// Uncalled bet.
	var top, second *player
	for _, pl := range g.ps {
		if top == nil || pl.total > top.total {
			top, second = pl, top
		} else if second == nil || pl.total > second.total {
			second = pl
		}
	}
	if second != nil && top.total > second.total {
		res.Uncalled = top.total - second.total
		res.UncalledSeat = top.seat
		top.total = second.total
		top.stack += res.Uncalled
	}
	if !g.lean {
		for _, pl := range g.ps {
			res.Contributed[pl.seat] = pl.total
		}
	}
	// Levels: the distinct totals of players still in.
	levels := g.levels[:0]
	for _, pl := range g.ps {
		if !pl.folded && pl.total > 0 {
			levels = append(levels, pl.total)
		}
	}
	g.levels = levels
	slices.Sort(levels)
	var prev int64
	for li, lv := range levels {
		if li > 0 && lv == levels[li-1] {
			continue
		}
		pot := nextPot(res.Pots)
		for _, pl := range g.ps {
			pot.Amount += min(pl.total, lv) - min(pl.total, prev)
			if li == len(levels)-1 {
				// Folded chips above the top level (none in a legal hand).
				pot.Amount += max(pl.total-lv, 0)
			}
			if !pl.folded && pl.total >= lv {
				pot.Eligible = append(pot.Eligible, pl.seat)
			}
		}
		prev = lv
		res.Pots = append(res.Pots, pot)
	}
	if len(res.Pots) == 0 {
		// Everyone folded to a player who put in nothing: impossible with
		// blinds, but keep the chips somewhere.
		return fmt.Errorf("double: internal error: no pot")
	}
	// Rake, from the main pot first.
	var total int64
	for _, pot := range res.Pots {
		total += pot.Amount
	}
	if flopDealt || !g.d.Rake.NoFlopNoDrop {
		rk, err := money.MulDiv(total, g.d.Rake.RateBP, 10000)
		if err != nil {
			return err
		}
		if g.d.Rake.Cap > 0 {
			rk = min(rk, g.d.Rake.Cap)
		}
		res.Rake = rk
		for i := range res.Pots {
			take := min(rk, res.Pots[i].Amount)
			res.Pots[i].Amount -= take
			rk -= take
		}
	}
	// Award.
	for i := range res.Pots {
		pot := &res.Pots[i]
		var best hand.Value
		winners := g.winners[:0]
		// Clockwise from the first seat left of the button.
		for k := 1; k <= len(g.ps); k++ {
			pl := g.ps[(g.button+k)%len(g.ps)]
			if pl.folded || pl.total < 1 || !contains(pot.Eligible, pl.seat) {
				continue
			}
			switch {
			case len(pot.Eligible) == 1 || pl.handValue > best:
				best, winners = pl.handValue, append(winners[:0], pl)
			case pl.handValue == best:
				winners = append(winners, pl)
			}
		}
		g.winners = winners
		n := int64(len(winners))
		share, odd := pot.Amount/n, pot.Amount%n
		for k, w := range winners {
			s := share
			if int64(k) < odd {
				s++
			}
			pot.Winners = append(pot.Winners, w.seat)
			pot.Shares = append(pot.Shares, s)
			w.stack += s
		}
	}
	for _, pl := range g.ps {
		res.StackAfter[pl.seat] = pl.stack
	}
	return nil
}

// nextPot returns an empty pot for appending to pots, with the slices of
// the pot it replaces in pots' storage (a Settler's earlier hand): empty,
// not nil.
func nextPot(pots []round.Pot) round.Pot {
	var old round.Pot
	if len(pots) < cap(pots) {
		old = pots[: len(pots)+1 : len(pots)+1][len(pots)]
	}
	return round.Pot{Eligible: emptied(old.Eligible), Winners: emptied(old.Winners), Shares: emptied(old.Shares)}
}

func emptied[T any](x []T) []T {
	if x == nil {
		return []T{}
	}
	return x[:0]
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// seatPrefix returns "double.seats[i]", the start of a seat's field
// names, without allocating for the ten seats a table can have: every hand
// names its seats' fields in case one is wrong.
func seatPrefix(i int) string {
	if i >= 0 && i < len(seatPrefixes) {
		return seatPrefixes[i]
	}
	return fmt.Sprintf("double.seats[%d]", i)
}

var seatPrefixes = func() (p [10]string) {
	for i := range p {
		p[i] = fmt.Sprintf("double.seats[%d]", i)
	}
	return p
}()
