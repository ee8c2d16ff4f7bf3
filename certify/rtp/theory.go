package rtp

import (
	"errors"
	"fmt"
	"slices"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/profile"
)

// Theory is a game's exact solution indexed by decision state: for any
// box, the exact distribution of its returns given its hole cards, the
// flop and the player's decision. It is safe for concurrent use.
type Theory struct {
	g       *Game
	states  []exact.State
	keys    []uint32 // packed canonical (flop, hole), sorted
	index   []int32  // keys[i] is states[index[i]]
	optimal exact.Strategy
}

// NewTheory indexes sol, a solution of g (made with g.Qualifier). A
// partial solution (some flop classes) answers for the states it holds.
func NewTheory(g *Game, sol *exact.Solution) (*Theory, error) {
	if sol.Qualifier != g.Qualifier {
		return nil, fmt.Errorf("rtp: the solution's dealer qualifier is not the profile's")
	}
	t := &Theory{g: g, states: sol.States, keys: make([]uint32, len(sol.States)), index: make([]int32, len(sol.States)),
		optimal: exact.Optimal(g.Params)}
	order := make([]int32, len(sol.States))
	for i := range order {
		order[i] = int32(i)
	}
	key := func(i int32) uint32 { s := &sol.States[i]; return pack(s.Hole, s.Flop) }
	slices.SortFunc(order, func(a, b int32) int { return int(int64(key(a)) - int64(key(b))) })
	for i, o := range order {
		t.keys[i], t.index[i] = key(o), o
		if i > 0 && t.keys[i] == t.keys[i-1] {
			return nil, fmt.Errorf("rtp: the solution holds the state %s %s twice", card.Format(sol.States[o].Hole[:]), card.Format(sol.States[o].Flop[:]))
		}
	}
	return t, nil
}

// Game returns the theory's game.
func (t *Theory) Game() *Game { return t.g }

// pack packs a canonical state's five cards, flop first, 6 bits each.
func pack(hole [2]card.Card, flop [3]card.Card) uint32 {
	return uint32(flop[0])<<24 | uint32(flop[1])<<18 | uint32(flop[2])<<12 | uint32(hole[0])<<6 | uint32(hole[1])
}

// ErrNoState is returned by [Theory.Box] for a state the solution does
// not hold (a partial solution).
var ErrNoState = errors.New("rtp: state not in the solution")

// state returns the solution's state of (hole, flop).
func (t *Theory) state(hole [2]card.Card, flop [3]card.Card) (*exact.State, error) {
	h, f := exact.Canonical(hole, flop)
	k := pack(h, f)
	i, ok := slices.BinarySearch(t.keys, k)
	if !ok {
		return nil, ErrNoState
	}
	return &t.states[t.index[i]], nil
}

// Decisions a round log records for a box.
const (
	Call       = "call"
	Fold       = "fold"
	Unfinished = "" // settled by the profile's unfinished-round policy
)

// BoxTheory is the exact distribution of one box's returns, in money
// units, given its hole cards, the flop and its decision.
type BoxTheory struct {
	// Main is the expected return of ANTE + CALL; MainVar its variance
	// (0 after a fold or a void: the return is then known).
	Main, MainVar float64
	// Bonus is the AA Bonus's return, which the hole cards, the flop and
	// the decision settle.
	Bonus int64
	// Optimal reports whether the decision is the optimal strategy's (an
	// unfinished box's is the one its policy takes).
	Optimal bool
}

// Box returns the theory of a box with accepted stakes ante and bonus,
// hole cards hole and the flop flop (five distinct cards), whose player
// took decision (Call, Fold or Unfinished). The CALL stake is the
// profile's multiple of the ante. The error is for an unknown decision, a
// stake the exact mathematics cannot take ([exact.Params.Validate]), or a
// state the solution does not hold ([ErrNoState]).
func (t *Theory) Box(hole [2]card.Card, flop [3]card.Card, decision string, ante, bonus int64) (BoxTheory, error) {
	c := t.g.Profile.Casino
	if decision == Unfinished {
		switch c.UnfinishedRound {
		case profile.UnfinishedVoid:
			return BoxTheory{Main: float64(ante), Bonus: bonus, Optimal: true}, nil
		case profile.UnfinishedCall:
			decision = Call
		default:
			decision = Fold
		}
	}
	if decision != Call && decision != Fold {
		return BoxTheory{}, fmt.Errorf("decision %q: want %q, %q or empty", decision, Call, Fold)
	}
	if ante <= 0 || bonus < 0 {
		return BoxTheory{}, fmt.Errorf("stakes ante %d, aa bonus %d: want a positive ante", ante, bonus)
	}
	s, err := t.state(hole, flop)
	if err != nil {
		return BoxTheory{}, err
	}
	call := decision == Call
	bt := BoxTheory{Optimal: t.optimal(s) == call}
	if bonus > 0 {
		if !t.g.HasBonus {
			return BoxTheory{}, fmt.Errorf("aa bonus %d: the table has no AA Bonus", bonus)
		}
		pay := t.g.Params.BonusPay(hand.Eval5([5]card.Card{hole[0], hole[1], flop[0], flop[1], flop[2]}))
		if pay >= 0 && (call || !t.g.Forfeit) {
			bt.Bonus = bonus * (pay + 1)
			if bt.Bonus/(pay+1) != bonus {
				return BoxTheory{}, fmt.Errorf("aa bonus %d: its return overflows", bonus)
			}
		}
	}
	if !call {
		return bt, nil
	}
	p := t.g.AtAnte(ante)
	if err := p.Validate(); err != nil {
		return BoxTheory{}, fmt.Errorf("ante %d: %w", ante, err)
	}
	mean, v := p.CallMoments(s)
	bt.Main = float64((1+p.CallMultiple)*ante) + mean
	bt.MainVar = v
	return bt, nil
}
