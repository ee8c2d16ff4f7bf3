package exact

import (
	"fmt"
	"io"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
)

// Canonical returns the representative of the (hole, flop) decision state:
// the [State] in a [Solution] whose counts hold for these cards. The cards
// must be five distinct cards.
func Canonical(hole [2]card.Card, flop [3]card.Card) ([2]card.Card, [3]card.Card) {
	perms := allSuitPerms()
	f := canonicalFlop(flop, perms)
	var best [2]card.Card
	found := false
	for _, p := range perms {
		if sort3([3]card.Card{p.apply(flop[0]), p.apply(flop[1]), p.apply(flop[2])}) != f {
			continue
		}
		h := sort2([2]card.Card{p.apply(hole[0]), p.apply(hole[1])})
		if !found || less2(h, best) {
			best, found = h, true
		}
	}
	return best, f
}

// StrategyRow is one row of the strategy file: one decision state.
type StrategyRow struct {
	Hole1 string `parquet:"hole_1,dict"`
	Hole2 string `parquet:"hole_2,dict"`
	Flop1 string `parquet:"flop_1,dict"`
	Flop2 string `parquet:"flop_2,dict"`
	Flop3 string `parquet:"flop_3,dict"`
	// Weight is the number of (hole, flop) states the row stands for.
	Weight int64 `parquet:"weight"`
	// FlopHand is the category of hole + flop, which settles the AA Bonus.
	FlopHand string `parquet:"flop_hand,dict"`
	// CallSum is the exact total result of calling, in antes, over the
	// 1,070,190 completions; EVCall = CallSum / 1,070,190.
	CallSum int64   `parquet:"call_sum"`
	EVCall  float64 `parquet:"ev_call"`
	// Decision is "call" or "fold".
	Decision string `parquet:"decision,dict"`
}

// Strategy file metadata.
const (
	// MetaCompletions holds the number of completions CallSum is over.
	MetaCompletions = "fairhold.completions"
	createdByApp    = "fairhold exact"
	createdByVer    = "1.0"
)

// WriteStrategy writes one row per state, in the states' order, as
// Parquet: the decision of st and the exact EV(call) under p. kv are more
// key-value metadata pairs (such as [MetaProfile] and [MetaProfileHash]).
// The bytes depend only on the inputs.
func WriteStrategy(w io.Writer, states []State, p Params, st Strategy, kv ...string) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if len(kv)%2 != 0 {
		return fmt.Errorf("exact: metadata %q: want key, value pairs", kv)
	}
	po := p.payoffs()
	opts := []parquet.WriterOption{
		parquet.CreatedBy(createdByApp, createdByVer, ""),
		parquet.KeyValueMetadata(MetaCompletions, fmt.Sprint(Completions)),
		parquet.Compression(&snappy.Codec{}),
		parquet.PageBufferSize(256 << 10),
	}
	for i := 0; i < len(kv); i += 2 {
		opts = append(opts, parquet.KeyValueMetadata(kv[i], kv[i+1]))
	}
	pw := parquet.NewGenericWriter[StrategyRow](w, opts...)
	const batch = 1 << 16
	rows := make([]StrategyRow, 0, batch)
	flush := func() error {
		if _, err := pw.Write(rows); err != nil {
			return fmt.Errorf("exact: failed to write the strategy: %w", err)
		}
		rows = rows[:0]
		return nil
	}
	for i := range states {
		s := &states[i]
		sum := po.callSum(s)
		d := "fold"
		if st(s) {
			d = "call"
		}
		rows = append(rows, StrategyRow{
			Hole1: s.Hole[0].String(), Hole2: s.Hole[1].String(),
			Flop1: s.Flop[0].String(), Flop2: s.Flop[1].String(), Flop3: s.Flop[2].String(),
			Weight: s.Weight, FlopHand: s.FlopValue.Category().String(),
			CallSum: sum, EVCall: float64(sum) / float64(po.ante) / Completions, Decision: d,
		})
		if len(rows) == batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("exact: failed to write the strategy: %w", err)
	}
	return nil
}

// FoldShare is the weighted share of states where a strategy folds.
type FoldShare struct {
	Fold, States int64
}

// Percent returns 100 x Fold / States.
func (f FoldShare) Percent() float64 {
	if f.States == 0 {
		return 0
	}
	return 100 * float64(f.Fold) / float64(f.States)
}

// FoldSummary says where strategy st folds: by the category of hole +
// flop (index Category-1), and by starting hand on a 13 x 13 grid
// [hi][lo] of ranks (ace = 12): pairs on the diagonal, suited hands above
// it (hi > lo, i.e. grid[hi][lo] with hi the higher rank) and offsuit
// hands below it (grid[lo][hi]).
func FoldSummary(states []State, st Strategy) (byFlopHand [hand.NumCategories]FoldShare, grid [13][13]FoldShare) {
	for i := range states {
		s := &states[i]
		r0, r1 := s.Hole[0].Rank(), s.Hole[1].Rank()
		hi, lo := max(r0, r1), min(r0, r1)
		if s.Hole[0].Suit() != s.Hole[1].Suit() {
			hi, lo = lo, hi
		}
		fold := int64(0)
		if !st(s) {
			fold = s.Weight
		}
		c := s.FlopValue.Category() - 1
		byFlopHand[c].Fold += fold
		byFlopHand[c].States += s.Weight
		grid[hi][lo].Fold += fold
		grid[hi][lo].States += s.Weight
	}
	return byFlopHand, grid
}
