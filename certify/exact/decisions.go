package exact

import (
	"errors"
	"fmt"
	"io"
	"math/bits"

	"github.com/parquet-go/parquet-go"

	"github.com/fairhold/fairhold/replay/card"
)

// Strategy file metadata naming the rules profile the decisions were
// computed for.
const (
	MetaProfile     = "fairhold.profile"
	MetaProfileHash = "fairhold.profile_hash"
)

// Decisions answers, for any player's hole cards and flop, the decision of
// a strategy: the suit-isomorphic states of a [Solution] expanded to every
// one of the 25,989,600 (hole, flop) states they stand for. It is a pair of
// bit sets indexed by (hole pair, flop triple), 3.7 MB each, so a look-up
// is two shifts and a load.
type Decisions struct {
	known, call []uint64
	n           int64 // states set
}

// Hole and flop index ranges: C(52,2) hole pairs times C(52,3) flops.
const (
	numHolePairs  = 52 * 51 / 2
	numFlops      = 52 * 51 * 50 / 6
	numDecisions  = numHolePairs * numFlops
	numHoleFlops  = 25_989_600 // C(52,2) x C(50,3): the states of the game
	decisionWords = (numDecisions + 63) / 64
)

// decisionIndex returns the bit of (hole, flop); the cards must be
// distinct.
func decisionIndex(hole [2]card.Card, flop [3]card.Card) int {
	h, f := sort2(hole), sort3(flop)
	hi := int(h[1])*(int(h[1])-1)/2 + int(h[0])
	fi := int(f[2])*(int(f[2])-1)*(int(f[2])-2)/6 + int(f[1])*(int(f[1])-1)/2 + int(f[0])
	return hi*numFlops + fi
}

// NewDecisions expands the states' decisions under st.
func NewDecisions(states []State, st Strategy) (*Decisions, error) {
	d := &Decisions{known: make([]uint64, decisionWords), call: make([]uint64, decisionWords)}
	perms := allSuitPerms()
	for i := range states {
		if err := d.add(&states[i], st(&states[i]), perms); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// add sets every (hole, flop) state of s's class to call.
func (d *Decisions) add(s *State, call bool, perms []suitPerm) error {
	var set int64
	for _, p := range perms {
		h := [2]card.Card{p.apply(s.Hole[0]), p.apply(s.Hole[1])}
		f := [3]card.Card{p.apply(s.Flop[0]), p.apply(s.Flop[1]), p.apply(s.Flop[2])}
		i := decisionIndex(h, f)
		w, b := i/64, uint64(1)<<(i%64)
		if d.known[w]&b != 0 {
			if (d.call[w]&b != 0) != call {
				return fmt.Errorf("state %s %s: its class overlaps another state's with another decision", card.Format(s.Hole[:]), card.Format(s.Flop[:]))
			}
			continue
		}
		d.known[w] |= b
		if call {
			d.call[w] |= b
		}
		set++
	}
	if set != s.Weight {
		return fmt.Errorf("state %s %s: weight %d, but its class holds %d new (hole, flop) states", card.Format(s.Hole[:]), card.Format(s.Flop[:]), s.Weight, set)
	}
	d.n += set
	return nil
}

// Call reports the decision for the player's hole cards and the flop (five
// distinct cards) and whether the decisions cover that state.
func (d *Decisions) Call(hole [2]card.Card, flop [3]card.Card) (call, ok bool) {
	i := decisionIndex(hole, flop)
	w, b := i/64, uint64(1)<<(i%64)
	return d.call[w]&b != 0, d.known[w]&b != 0
}

// Complete reports whether every one of the 25,989,600 (hole, flop) states
// has a decision.
func (d *Decisions) Complete() bool { return d.n == numHoleFlops }

// States returns how many (hole, flop) states have a decision.
func (d *Decisions) States() int64 { return d.n }

// CallShare returns the number of (hole, flop) states whose decision is a
// call.
func (d *Decisions) CallShare() int64 {
	var n int
	for _, w := range d.call {
		n += bits.OnesCount64(w)
	}
	return int64(n)
}

// AllStates returns every suit-isomorphic decision state with its weight
// and flop value but no counts: the rows of a strategy file, in its order.
func AllStates() []State {
	var out []State
	for _, fc := range FlopClasses() {
		out = append(out, fc.states()...)
	}
	return out
}

// ReadDecisions reads a strategy file written by [WriteStrategy] and
// returns its decisions and its key-value metadata. Errors name the row
// and the column.
func ReadDecisions(r io.ReaderAt, size int64) (*Decisions, map[string]string, error) {
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, nil, fmt.Errorf("not a Parquet file: %w", err)
	}
	meta := map[string]string{}
	for _, kv := range f.Metadata().KeyValueMetadata {
		meta[kv.Key] = kv.Value
	}
	for _, col := range []string{"hole_1", "hole_2", "flop_1", "flop_2", "flop_3", "weight", "decision"} {
		if _, ok := f.Schema().Lookup(col); !ok {
			return nil, nil, fmt.Errorf("column %s: missing; a strategy file has the columns of `fairhold math --strategy-out`", col)
		}
	}
	d := &Decisions{known: make([]uint64, decisionWords), call: make([]uint64, decisionWords)}
	perms := allSuitPerms()
	rd := parquet.NewGenericReader[StrategyRow](f)
	defer rd.Close()
	buf := make([]StrategyRow, 4096)
	var row int64
	for {
		n, err := rd.Read(buf)
		for k := range buf[:n] {
			if err := d.addRow(&buf[k], perms); err != nil {
				return nil, nil, fmt.Errorf("row %d: %w", row, err)
			}
			row++
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("row %d: %w", row, err)
		}
	}
	return d, meta, nil
}

// addRow validates one strategy row and adds its decision.
func (d *Decisions) addRow(r *StrategyRow, perms []suitPerm) error {
	var cs [5]card.Card
	var seen card.Set
	for i, f := range [5]struct{ name, text string }{
		{"hole_1", r.Hole1}, {"hole_2", r.Hole2}, {"flop_1", r.Flop1}, {"flop_2", r.Flop2}, {"flop_3", r.Flop3},
	} {
		c, err := card.Parse(f.text)
		if err != nil {
			return fmt.Errorf("column %s: %q: want a card such as \"As\"", f.name, f.text)
		}
		if seen.Has(c) {
			return fmt.Errorf("column %s: %s repeats a card of the row", f.name, f.text)
		}
		seen = seen.Add(c)
		cs[i] = c
	}
	var call bool
	switch r.Decision {
	case "call":
		call = true
	case "fold":
	default:
		return fmt.Errorf("column decision: %q: want \"call\" or \"fold\"", r.Decision)
	}
	if r.Weight <= 0 || r.Weight > 24*22100 {
		return fmt.Errorf("column weight: %d: want the number of states of the row's class", r.Weight)
	}
	s := State{Hole: [2]card.Card{cs[0], cs[1]}, Flop: [3]card.Card{cs[2], cs[3], cs[4]}, Weight: r.Weight}
	if err := d.add(&s, call, perms); err != nil {
		return fmt.Errorf("column weight: %w", err)
	}
	return nil
}
