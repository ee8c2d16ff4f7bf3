package exact

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

// Params are the paytables a [Solution] is tallied with. Pays are "X to
// 1": a win returns the stake plus X times the stake.
type Params struct {
	// AntePays is what the ante pays when the player wins or the dealer
	// does not qualify, by the player's final hand category (index
	// Category-1).
	AntePays [hand.NumCategories]int64
	// CallMultiple is the call bet in antes.
	CallMultiple int64
	// BonusPays is what the AA Bonus pays by the category of the player's
	// five cards hole + flop (index Category-1), for hands of value
	// BonusMin or better; 0 means the bet loses.
	BonusPays [hand.NumCategories]int64
	// BonusMin is the weakest winning AA Bonus hand (a pair of aces).
	BonusMin hand.Value
	// Ante is the ante in money units; every main-game result is in those
	// units. 0 means 1: results in antes.
	Ante int64
	// MaxPayout caps one round's main-game (ANTE + CALL) winnings, in
	// money units; 0 means no cap. With CapIncludesStakes it caps the
	// returns, stakes included, instead.
	MaxPayout         int64
	CapIncludesStakes bool
}

// DefaultParams returns the RNG table's paytables: ante 100/20/10/3/2/1
// (royal flush, straight flush, four of a kind, full house, flush,
// straight or less), call 2 antes, AA Bonus 25:1 for a flush or better and
// 7:1 from a pair of aces up to a straight; results in antes, no cap.
func DefaultParams() Params {
	p := Params{CallMultiple: 2, BonusMin: hand.MinPair(card.Ace)}
	for _, c := range hand.Categories() {
		switch {
		case c == hand.RoyalFlush:
			p.AntePays[c-1] = 100
		case c == hand.StraightFlush:
			p.AntePays[c-1] = 20
		case c == hand.FourOfAKind:
			p.AntePays[c-1] = 10
		case c == hand.FullHouse:
			p.AntePays[c-1] = 3
		case c == hand.Flush:
			p.AntePays[c-1] = 2
		default:
			p.AntePays[c-1] = 1
		}
		if c >= hand.Flush {
			p.BonusPays[c-1] = 25
		} else if c >= hand.OnePair {
			p.BonusPays[c-1] = 7
		}
	}
	return p
}

// Limits that keep every sum over all deals exact in the types used.
const (
	maxPay    = 100_000
	maxResult = 1 << 31 // largest |result| of one round, money units
)

// Validate reports whether the parameters are in range.
func (p *Params) Validate() error {
	for i, x := range p.AntePays {
		if x < 0 || x > maxPay {
			return fmt.Errorf("exact: ante pays %d for %s, want 0..%d", x, hand.Category(i+1), maxPay)
		}
	}
	for i, x := range p.BonusPays {
		if x < 0 || x > maxPay {
			return fmt.Errorf("exact: AA Bonus pays %d for %s, want 0..%d", x, hand.Category(i+1), maxPay)
		}
	}
	if p.CallMultiple < 1 || p.CallMultiple > 100 {
		return fmt.Errorf("exact: call multiple %d, want 1..100", p.CallMultiple)
	}
	if !p.BonusMin.Valid() {
		return errors.New("exact: AA Bonus minimum hand is not a hand value")
	}
	if p.Ante < 0 || p.Ante > maxResult {
		return fmt.Errorf("exact: ante %d, want 0..%d", p.Ante, int64(maxResult))
	}
	if p.MaxPayout < 0 {
		return fmt.Errorf("exact: max payout %d, want >= 0", p.MaxPayout)
	}
	po := p.payoffs()
	if (1+p.CallMultiple)*po.ante > maxResult {
		return fmt.Errorf("exact: a round can lose %d units, more than %d", (1+p.CallMultiple)*po.ante, int64(maxResult))
	}
	for i := range po.win {
		if po.win[i] > maxResult || po.nq[i] > maxResult {
			return fmt.Errorf("exact: a %s can win %d units, more than %d", hand.Category(i+1), po.win[i], int64(maxResult))
		}
	}
	return nil
}

// payoffs are one round's results in money units.
type payoffs struct {
	ante int64                     // the ante; a fold loses it
	nq   [hand.NumCategories]int64 // call, dealer does not qualify
	win  [hand.NumCategories]int64 // call, player wins
	lose int64                     // call, dealer wins (a loss, > 0)
}

func (p *Params) payoffs() payoffs {
	po := payoffs{ante: p.Ante}
	if po.ante == 0 {
		po.ante = 1
	}
	stakes := (1 + p.CallMultiple) * po.ante
	capped := func(w int64) int64 {
		if p.MaxPayout == 0 {
			return w
		}
		if p.CapIncludesStakes {
			return min(w+stakes, p.MaxPayout) - stakes
		}
		return min(w, p.MaxPayout)
	}
	for i, x := range p.AntePays {
		po.nq[i] = capped(x * po.ante)
		po.win[i] = capped((x + p.CallMultiple) * po.ante)
	}
	po.lose = stakes
	return po
}

// callSum is the total result of calling in s over its completions.
func (po *payoffs) callSum(s *State) int64 {
	var sum int64
	for i := range s.Win {
		sum += int64(s.NotQualified[i])*po.nq[i] + int64(s.Win[i])*po.win[i]
	}
	return sum - int64(s.Lose)*po.lose
}

// BonusPay returns what the AA Bonus pays (X to 1) on the five-card value
// v, or -1 when it loses.
func (p *Params) BonusPay(v hand.Value) int64 {
	if v < p.BonusMin || p.BonusPays[v.Category()-1] == 0 {
		return -1
	}
	return p.BonusPays[v.Category()-1]
}

// CallSum returns the player's total result (money units) of calling in
// state s, summed over its 1,070,190 completions: EV(call) = CallSum /
// Completions. Folding sums to -Ante x Completions.
func (p *Params) CallSum(s *State) int64 {
	po := p.payoffs()
	return po.callSum(s)
}

// A Strategy decides, in a state, whether the player calls.
type Strategy func(s *State) bool

// Optimal is the main game's optimal strategy: call exactly when EV(call)
// is at least the -1 ante of folding; an exact tie calls.
func Optimal(p Params) Strategy {
	po := p.payoffs()
	return func(s *State) bool { return po.callSum(s) >= -po.ante*Completions }
}

// AlwaysCall calls in every state.
func AlwaysCall(*State) bool { return true }

// JointOptimal is the optimal strategy when an AA Bonus of ratio r to the
// ante is on the table and is forfeited on a fold: a winning bonus adds
// r x (pay + 1) antes to calling over folding; an exact tie calls. r must
// be non-negative.
func JointOptimal(p Params, r *big.Rat) Strategy {
	po := p.payoffs()
	num, den := new(big.Int).Set(r.Num()), new(big.Int).Set(r.Denom())
	return func(s *State) bool {
		call := po.callSum(s)
		if call >= -po.ante*Completions {
			return true
		}
		pay := p.BonusPay(s.FlopValue)
		if pay < 0 {
			return false
		}
		// den*(call + ante*C) + num*(pay+1)*ante*C >= 0
		lhs := new(big.Int).Mul(den, big.NewInt(call+po.ante*Completions))
		gain := new(big.Int).Mul(num, big.NewInt((pay+1)*po.ante*Completions))
		return lhs.Add(lhs, gain).Sign() >= 0
	}
}

// Outcome is the exact outcome table of one strategy over all deals of
// the states tallied. Counts are deals; money is in the units of
// [Params.Ante].
type Outcome struct {
	Ante             int64
	Deals            int64
	Fold             int64
	CallNotQualified int64
	CallWin          int64
	CallLose         int64
	CallTie          int64
	// AnteWins counts the deals where the ante is paid (dealer not
	// qualified, or player won), by the player's final category (index
	// Category-1).
	AnteWins [hand.NumCategories]int64
	// CallStates counts the (hole, flop) states where the player calls,
	// of the HoleFlopStates (weighted).
	CallStates int64
	States     int64
	// Result is the player's total main-game result.
	Result *big.Int
	// ResultSquares is the sum over deals of the squared result.
	ResultSquares *big.Int
	// Wagered is the total main-game stake (ante + call).
	Wagered *big.Int
	// BonusReturnAll is the AA Bonus's total return (stake included) per
	// unit bet, summed over states, when every win is collected.
	BonusReturnAll int64
	// BonusReturnForfeit is the same when a fold forfeits the bonus.
	BonusReturnForfeit int64
}

// Tally totals the states' counts under strategy st.
func Tally(states []State, p Params, st Strategy) (*Outcome, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	po := p.payoffs()
	o := &Outcome{Ante: po.ante}
	var gain, loss, squares, wagered u128
	for i := range states {
		s := &states[i]
		w := s.Weight
		o.States += w
		o.Deals += w * Completions
		bonus := p.BonusPay(s.FlopValue) + 1 // return per unit, 0 on a loss
		o.BonusReturnAll += w * bonus
		if !st(s) {
			o.Fold += w * Completions
			loss.addMul(uint64(w), Completions*uint64(po.ante))
			wagered.addMul(uint64(w), Completions*uint64(po.ante))
			squares.addMul(uint64(w)*Completions, uint64(po.ante*po.ante))
			continue
		}
		o.CallStates += w
		o.BonusReturnForfeit += w * bonus
		wagered.addMul(uint64(w), Completions*uint64(po.lose))
		var nq, win, sum int64
		var sq u128
		for c := range s.Win {
			n, v := int64(s.NotQualified[c]), int64(s.Win[c])
			nq += n
			win += v
			o.AnteWins[c] += w * (n + v)
			sum += n*po.nq[c] + v*po.win[c]
			sq.addMul(uint64(n), uint64(po.nq[c]*po.nq[c]))
			sq.addMul(uint64(v), uint64(po.win[c]*po.win[c]))
		}
		sum -= int64(s.Lose) * po.lose
		sq.addMul(uint64(s.Lose), uint64(po.lose*po.lose))
		o.CallNotQualified += w * nq
		o.CallWin += w * win
		o.CallTie += w * int64(s.Tie)
		o.CallLose += w * int64(s.Lose)
		if sum >= 0 {
			gain.addMul(uint64(w), uint64(sum))
		} else {
			loss.addMul(uint64(w), uint64(-sum))
		}
		squares.addMulU128(sq, uint64(w))
	}
	o.Result = new(big.Int).Sub(gain.big(), loss.big())
	o.ResultSquares = squares.big()
	o.Wagered = wagered.big()
	return o, nil
}

// u128 is an unsigned 128-bit accumulator.
type u128 struct{ hi, lo uint64 }

// addMul adds x*y.
func (a *u128) addMul(x, y uint64) {
	hi, lo := bits.Mul64(x, y)
	var c uint64
	a.lo, c = bits.Add64(a.lo, lo, 0)
	a.hi += hi + c
}

// addMulU128 adds x*y; x*y must fit in 128 bits.
func (a *u128) addMulU128(x u128, y uint64) {
	a.addMul(x.lo, y)
	a.hi += x.hi * y
}

func (a u128) big() *big.Int {
	b := new(big.Int).SetUint64(a.hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(a.lo))
}

func (o *Outcome) ratio(num *big.Int, den int64) *big.Rat {
	return new(big.Rat).SetFrac(num, big.NewInt(den))
}

// ResultAntes returns the total result in antes.
func (o *Outcome) ResultAntes() *big.Rat { return o.ratio(o.Result, o.Ante) }

// HouseEdge returns -Result / (Ante x Deals): the house edge per ante.
func (o *Outcome) HouseEdge() *big.Rat {
	r := o.ratio(new(big.Int).Neg(o.Result), o.Deals)
	return r.Quo(r, big.NewRat(o.Ante, 1))
}

// RTPAnte returns 1 - HouseEdge: the return per unit of ante.
func (o *Outcome) RTPAnte() *big.Rat {
	return new(big.Rat).Sub(big.NewRat(1, 1), o.HouseEdge())
}

// RTPTotalWager returns the return per unit of total wager (ante + call).
func (o *Outcome) RTPTotalWager() *big.Rat {
	ret := new(big.Int).Add(o.Wagered, o.Result)
	return new(big.Rat).SetFrac(ret, o.Wagered)
}

// AverageWager returns the average main-game stake per round in antes.
func (o *Outcome) AverageWager() *big.Rat {
	return new(big.Rat).SetFrac(o.Wagered, new(big.Int).Mul(big.NewInt(o.Deals), big.NewInt(o.Ante)))
}

// CallProbability returns the probability that the player calls.
func (o *Outcome) CallProbability() *big.Rat { return big.NewRat(o.CallStates, o.States) }

// BonusRTPCollectAll returns the AA Bonus's RTP when every win is
// collected.
func (o *Outcome) BonusRTPCollectAll() *big.Rat { return big.NewRat(o.BonusReturnAll, o.States) }

// BonusRTPForfeit returns the AA Bonus's RTP when a fold forfeits it.
func (o *Outcome) BonusRTPForfeit() *big.Rat { return big.NewRat(o.BonusReturnForfeit, o.States) }

// StdDev returns the standard deviation of one round's main-game result
// in antes: sqrt(E[X^2] - E[X]^2), exact up to the square root.
func (o *Outcome) StdDev() float64 {
	n := big.NewInt(o.Deals)
	// Var = (N*sumSq - sum^2) / (N*ante)^2
	v := new(big.Int).Mul(n, o.ResultSquares)
	v.Sub(v, new(big.Int).Mul(o.Result, o.Result))
	d := new(big.Int).Mul(n, big.NewInt(o.Ante))
	f, _ := new(big.Rat).SetFrac(v, d.Mul(d, d)).Float64()
	return math.Sqrt(f)
}

// BonusCount is the direct count of the AA Bonus over the 2,598,960
// five-card hands.
type BonusCount struct {
	Hands int64
	// Wins counts the winning hands by category (index Category-1).
	Wins [hand.NumCategories]int64
	// Return is the total return (stake included) per unit bet.
	Return int64
}

// RTP returns Return / Hands.
func (b *BonusCount) RTP() *big.Rat { return big.NewRat(b.Return, b.Hands) }

// CountBonus evaluates all 2,598,960 five-card hands: the AA Bonus when
// every win is collected.
func CountBonus(p Params) BonusCount {
	var bc BonusCount
	var rec func(from card.Card, k int, key hand.Key)
	rec = func(from card.Card, k int, key hand.Key) {
		if k == 5 {
			v := key.Value()
			bc.Hands++
			if pay := p.BonusPay(v); pay >= 0 {
				bc.Wins[v.Category()-1]++
				bc.Return += pay + 1
			}
			return
		}
		for c := from; c < card.DeckSize; c++ {
			rec(c+1, k+1, key.Add(c))
		}
	}
	rec(0, 0, hand.Key{})
	return bc
}
