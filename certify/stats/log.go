package stats

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/round"
)

// The log battery tests the cards a round log records. A log holds only
// the dealt cards of each round, and which cards are shown can depend on
// the player's decisions (a folded Casino Hold'em round need not show the
// turn, the river or the dealer's cards), so the battery uses only the
// positions every Casino Hold'em round deals before any decision: the
// first box's two cards and the flop (positions c[0], c[1], c[4], c[5],
// c[6] of the dealing order). Selecting on later cards would select on
// the player's decision and bias every test.
const logPositions = 5

// logPositionNames name the tested positions.
var logPositionNames = [logPositions]string{"player-1", "player-2", "flop-1", "flop-2", "flop-3"}

// LogBattery accumulates the rounds of a round log for the log battery:
// card by position (global, and per position cards, suits and ranks),
// starting hands, the AA Bonus rate, cards shared by successive rounds,
// repeated deals, repeated fairness inputs and rounds that repeat a card.
// Add rounds in log order with [LogBattery.Add], then call
// [LogBattery.Report].
type LogBattery struct {
	rounds   uint64
	pos      [logPositions][DeckSize]uint64
	starting [169]uint64
	aaBonus  uint64
	shared   uint64 // successive round pairs sharing a tested card
	prev     uint64 // bit set of the previous round's tested cards
	invalid  uint64 // rounds whose recorded cards repeat
	seeds    []uint64
	deals    []uint64 // the dealt cards of the rounds that show all nine (dealKey)
	skipped  map[string]uint64
}

// Repeated deals. A shuffler whose state comes from a small seed (a 32-bit
// seed) deals the same deck whenever a seed repeats, which no test of
// single positions sees. The collision test counts the rounds whose dealt
// cards repeat an earlier round's: the first box's two cards, the
// dealer's two and the five of the board, in dealing order (positions
// c[0], c[1], then the dealer's and the board's). Under a uniform shuffle
// these nine cards are one of N = 52!/43! (about 1.3 * 10^15) ordered
// outcomes, equally likely, so two rounds show the same ones with
// probability 1/N and the number of colliding pairs among m rounds has
// mean C(m, 2)/N exactly; the count of rounds that repeat an earlier one is
// at most the number of colliding pairs, and is Poisson with that mean as
// N grows. Nine cards rather than the five every round deals before a
// decision (the first box and the flop, N = 311,875,200): at 10^6 rounds
// the five-card key has 1,603 chance collisions, against which a 32-bit
// seed's 116 repeated decks are 2.9 standard deviations, not enough; the
// nine-card key has 0.0004. A round log shows the dealer's cards and the
// whole board even after a fold (docs/log-format.md section 3.2); when
// some rounds do not, only those that do are keyed, and as which rounds
// show them may depend on the cards (a decision), the mean is taken as
// C(m, 2)/N times n/m, n the rounds tested and m those keyed: the largest
// it can be when a round is keyed with a probability that depends on its
// cards (the sum over outcomes of P(x)^2 s(x)/s^2 with s(x) <= 1 and s the
// mean of s(x) is at most 1/(N s)).
const dealCards = 9

// dealOutcomes is 52!/43!, the number of ordered outcomes of nine cards.
const dealOutcomes = 52.0 * 51 * 50 * 49 * 48 * 47 * 46 * 45 * 44

// dealKey packs nine card indices (6 bits each) into 54 bits: two rounds
// have the same key exactly when they show the same cards in the same
// order.
func dealKey(cs *[dealCards]uint8) uint64 {
	var k uint64
	for _, c := range cs {
		k = k<<6 | uint64(c)
	}
	return k
}

// NewLogBattery returns an empty log battery.
func NewLogBattery() *LogBattery { return &LogBattery{skipped: map[string]uint64{}} }

// Add adds one round. Rounds of games other than Casino Hold'em, void
// rounds and rounds without a box's two cards and the flop are skipped
// (counted in the report's notes). The error names the field of a card
// that does not parse.
func (b *LogBattery) Add(r *round.Round) error {
	switch {
	case r.Game != round.CasinoHoldem && r.Game != round.LiveCasinoHoldem:
		b.skipped["game "+r.Game]++
		return nil
	case r.Void:
		b.skipped["void"]++
		return nil
	case len(r.Boxes) == 0 || len(r.Boxes[0].Cards) != 2 || len(r.Board) < 3:
		b.skipped["without the first box's 2 cards and the flop"]++
		return nil
	}
	var cs [logPositions]uint8
	var all uint64
	valid := true
	addCard := func(field, s string) (uint8, error) {
		c, err := card.Parse(s)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", field, err)
		}
		if all&(1<<c) != 0 {
			valid = false
		}
		all |= 1 << c
		return uint8(c), nil
	}
	for i := range r.Boxes {
		for j, s := range r.Boxes[i].Cards {
			c, err := addCard(fmt.Sprintf("boxes[%d].cards[%d]", i, j), s)
			if err != nil {
				return err
			}
			if i == 0 {
				cs[j] = c
			}
		}
	}
	var deal [dealCards]uint8
	deal[0], deal[1] = cs[0], cs[1]
	for j, s := range r.Dealer {
		c, err := addCard(fmt.Sprintf("dealer[%d]", j), s)
		if err != nil {
			return err
		}
		if j < 2 {
			deal[2+j] = c
		}
	}
	for j, s := range r.Board {
		c, err := addCard(fmt.Sprintf("board[%d]", j), s)
		if err != nil {
			return err
		}
		if j < 3 {
			cs[2+j] = c
		}
		if j < 5 {
			deal[4+j] = c
		}
	}
	if len(r.Dealer) == 2 && len(r.Board) == 5 {
		b.deals = append(b.deals, dealKey(&deal))
	}
	if !valid {
		b.invalid++
	}
	var set uint64
	for p, c := range cs {
		b.pos[p][c]++
		set |= 1 << c
	}
	if b.rounds > 0 && set&b.prev != 0 {
		b.shared++
	}
	b.prev = set
	b.rounds++
	if distinct(cs[:]) {
		var d [DeckSize]uint8
		copy(d[:2], cs[:2])
		copy(d[4:7], cs[2:])
		b.starting[startingClass(d[0], d[1])]++
		if aaBonusQualifies(&d) {
			b.aaBonus++
		}
	}
	b.seeds = append(b.seeds, inputFingerprint(&r.Fairness))
	return nil
}

// inputFingerprint is a 64-bit hash of what a round's cards were derived
// from; equal inputs give equal cards.
func inputFingerprint(f *round.Fairness) uint64 {
	h := sha256.New()
	put := func(s string) {
		h.Write(binary.BigEndian.AppendUint32(nil, uint32(len(s))))
		h.Write([]byte(s))
	}
	put(f.Scheme)
	put(f.ServerSeed)
	for _, c := range f.ClientSeeds {
		put(c)
	}
	h.Write(binary.BigEndian.AppendUint64(nil, f.Nonce))
	put(f.BeaconChain)
	h.Write(binary.BigEndian.AppendUint64(nil, f.BeaconRound))
	return binary.BigEndian.Uint64(h.Sum(nil))
}

// dealCollisionMean is the null mean of the collision count of m keyed
// rounds among n tested: C(m, 2)/N, times n/m when some rounds are not
// keyed (see dealCards).
func dealCollisionMean(n, m uint64) float64 {
	if m < 2 {
		return 0
	}
	mean := float64(m) * float64(m-1) / 2 / dealOutcomes
	if m < n {
		mean *= float64(n) / float64(m)
	}
	return mean
}

// sharedProb is the probability that two independent deals of five cards
// share a card: 1 - C(47,5)/C(52,5).
const sharedProb = 1 - 1533939.0/2598960

// Report runs the log battery's tests at family-wise level alpha (0 means
// [DefaultAlpha]). It needs at least [MinDecks] rounds.
func (b *LogBattery) Report(alpha float64) (*Report, error) {
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	if !(alpha > 0 && alpha < 1) {
		return nil, fmt.Errorf("stats: alpha %v not in (0, 1)", alpha)
	}
	if b.rounds < MinDecks {
		return nil, fmt.Errorf("stats: %d usable rounds in the log, need at least %d", b.rounds, MinDecks)
	}
	r := &Report{Decks: b.rounds, Alpha: alpha, Policy: Policy}
	n := float64(b.rounds)
	rows := make([][]uint64, logPositions)
	for p := range rows {
		rows[p] = b.pos[p][:]
	}
	ts := []Test{chiTest("position/global", "position/global", positionGlobal(rows, n), logPositions*(DeckSize-1))}
	for p, row := range rows {
		ts = append(ts, positionTests("position/"+logPositionNames[p], row)...)
	}
	ts = append(ts, chiTest("dealt/starting-hands", "dealt", pearson(b.starting[:], startingProbs()), 168))
	var hands uint64
	for _, c := range b.starting {
		hands += c
	}
	pa := float64(aaBonusQualifying) / float64(fiveCardHands)
	ts = append(ts, chiTest("dealt/aa-bonus", "dealt", pearson([]uint64{b.aaBonus, hands - b.aaBonus}, []float64{pa, 1 - pa}), 1))
	// Successive pairs sharing a card: pairwise independent indicators
	// (given the middle round, each neighbour shares with probability
	// sharedProb whatever its cards), so the count has mean (N-1)q and
	// variance (N-1)q(1-q).
	m := n - 1
	z := (float64(b.shared) - m*sharedProb) / math.Sqrt(m*sharedProb*(1-sharedProb))
	ts = append(ts, chiTest("serial/shared-cards", "serial", z*z, 1))
	pairs := n * (n - 1) / 2
	ts = append(ts, countTest("collisions/deals", countRepeats(b.deals), dealCollisionMean(b.rounds, uint64(len(b.deals)))))
	ts = append(ts, countTest("collisions/seeds", countRepeats(b.seeds), pairs*math.Exp2(-64)))
	vp := 1.0
	if b.invalid > 0 {
		vp = 0
	}
	ts = append(ts, Test{Name: "validity", Family: "validity", Statistic: float64(b.invalid), P: vp})
	for _, k := range sortedKeys(b.skipped) {
		r.Notes = append(r.Notes, fmt.Sprintf("%d rounds skipped: %s", b.skipped[k], k))
	}
	r.Notes = append(r.Notes, "log battery: tests the dealt positions player-1, player-2, flop-1..3 of each round")
	if k := uint64(len(b.deals)); k < b.rounds {
		r.Notes = append(r.Notes, fmt.Sprintf("collisions/deals: %d of %d rounds show the dealer's two cards and the whole board; the mean is bounded for the selection", k, b.rounds))
	}
	holm(ts, alpha)
	r.Tests = ts
	r.Pass = true
	for _, t := range ts {
		r.Pass = r.Pass && t.Pass
	}
	return r, nil
}

func sortedKeys(m map[string]uint64) []string {
	return slices.Sorted(maps.Keys(m))
}
