package exact

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

// State is one suit-isomorphic decision state: the player's hole cards and
// the flop, with the exact counts of calling over all 1,070,190
// completions.
type State struct {
	Hole [2]card.Card // ascending; the least image of the class
	Flop [3]card.Card // ascending; the flop class representative
	// Weight is the number of the 25,989,600 (hole, flop) states in the
	// class.
	Weight int64
	// FlopValue is the value of the five cards hole + flop, which settles
	// the AA Bonus.
	FlopValue hand.Value
	Counts
}

// Options tune [Solve]. The zero Options solves the whole game with all
// cores and no progress reports.
type Options struct {
	// Workers is the number of goroutines; 0 means GOMAXPROCS. The result
	// does not depend on it.
	Workers int
	// Flops restricts the solution to these flop classes (for tests and
	// partial runs); nil means all of [FlopClasses].
	Flops []FlopClass
	// Progress, if set, is called with 1 each time a flop class is done.
	// It may be called from several goroutines at once.
	Progress func(n int)
}

// Solution holds the counts of every decision state.
type Solution struct {
	// Qualifier is the dealer's qualifying value the counts were made
	// with.
	Qualifier hand.Value
	// States are the decision states, by flop class then hole, in
	// ascending order of their representatives.
	States []State
}

// Solve counts, for every suit-isomorphic (hole, flop) state, the outcomes
// of calling over every completion, with a dealer who qualifies at
// qualifier or better. The counts do not depend on any paytable; [Tally]
// turns them into an outcome table for a strategy.
func Solve(ctx context.Context, qualifier hand.Value, opt Options) (*Solution, error) {
	if !qualifier.Valid() {
		return nil, fmt.Errorf("exact: qualifier %d is not a hand value", qualifier)
	}
	flops := opt.Flops
	if flops == nil {
		flops = FlopClasses()
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([][]State, len(flops))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &sweeper{qualifier: qualifier}
			for i := range jobs {
				results[i] = solveFlop(s, &flops[i])
				if opt.Progress != nil {
					opt.Progress(1)
				}
			}
		}()
	}
	var err error
feed:
	for i := range flops {
		select {
		case jobs <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("exact: failed to solve: %w", err)
	}
	n := 0
	for _, r := range results {
		n += len(r)
	}
	sol := &Solution{Qualifier: qualifier, States: make([]State, 0, n)}
	for _, r := range results {
		sol.States = append(sol.States, r...)
	}
	return sol, nil
}

// solveFlop sweeps one flop class and returns its states.
func solveFlop(s *sweeper, fc *FlopClass) []State {
	s.flop(fc.Flop)
	out := fc.states()
	for i := range out {
		out[i].Counts = s.acc[pairIndex[out[i].Hole[0]][out[i].Hole[1]]]
	}
	return out
}

// States returns the class's decision states, with their weights and
// flop values but no counts, in the order [Solve] gives them.
func (fc *FlopClass) States() []State { return fc.states() }

// states returns the class's decision states without their counts.
func (fc *FlopClass) states() []State {
	orbits := fc.holeOrbits()
	out := make([]State, len(orbits))
	for i, o := range orbits {
		out[i] = State{
			Hole:      o.rep,
			Flop:      fc.Flop,
			Weight:    int64(fc.Weight) * int64(o.size),
			FlopValue: hand.Eval5([5]card.Card{o.rep[0], o.rep[1], fc.Flop[0], fc.Flop[1], fc.Flop[2]}),
		}
	}
	return out
}
