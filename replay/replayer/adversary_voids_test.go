package replayer

// Voids the operator chooses after the deal (issue 24, holes 3 and 4),
// written from the contract, apart from the void tests: the operator sees
// the cards, voids the rounds that would pay its players, refunds every
// stake exactly, and logs whatever makes the void look harmless.

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// voidAs voids round i of rs for a "malfunction" (stakes refunded,
// nothing paid), logging decision dec for every box, and re-chains the
// wallets; it reports false, leaving rs as it was, when the careful cheat
// cannot write it.
func voidAs(t *testing.T, rs []round.Round, i int, dec string) bool {
	t.Helper()
	saved := cloneRound(t, &rs[i])
	rs[i].Void, rs[i].VoidReason = true, "malfunction"
	for k := range rs[i].Boxes {
		rs[i].Boxes[k].Decision = dec
	}
	redeal(t, &rs[i])
	rechain(rs)
	if !feasible(t, rs) {
		rs[i] = saved
		rechain(rs)
		return false
	}
	return true
}

// winnings is what the players won in total over the rounds they won.
func winnings(rs []round.Round) int64 {
	var w int64
	for i := range rs {
		if n := playersNet(&rs[i]); n > 0 && !rs[i].Void {
			w += n
		}
	}
	return w
}

// voidBiases returns the VOID_BIAS findings of fs, and fails on any
// other finding.
func voidBiases(t *testing.T, fs []finding.Finding) []finding.Finding {
	t.Helper()
	var out []finding.Finding
	for _, f := range fs {
		require.Equal(t, finding.VoidBias, f.Code, "only VOID_BIAS: %+v", f)
		out = append(out, f)
	}
	return out
}

func TestAdversaryVoids(t *testing.T) {
	// Hole 3: the won rounds voided are logged as folds, or as unfinished,
	// so that settled by the logged decision they would have been losses.
	for _, dec := range []string{"fold", ""} {
		t.Run(fmt.Sprintf("void-wins-logged-as-%q/casino-holdem", dec), func(t *testing.T) {
			rs := honestLog(t, sim.Config{Game: gameCH, Rounds: 4000, Seed: 21})
			n := 0
			for i := 500; i < len(rs) && n < 50; i += 7 {
				if !rs[i].Void && playersNet(&rs[i]) > 0 && voidAs(t, rs, i, dec) {
					n++
				}
			}
			require.Equal(t, 50, n)
			careful(t, rs)
			_, fs := replayLog(t, rs, nil)
			require.NotEmpty(t, voidBiases(t, fs), "50 voided wins logged as %q", dec)
		})
	}

	// Hole 4, by money: void only the largest wins, until they make 10%
	// of what the players won: few voids, much money. Voids are compared
	// with played rounds of the same stakes, so what shows is large wins
	// voided among rounds of their stakes (docs/replay.md, "Voids").
	t.Run("void-largest-wins-10pct/casino-holdem", func(t *testing.T) {
		rs := honestLog(t, sim.Config{Game: gameCH, Rounds: 20000, Seed: 23, Players: 20})
		total := winnings(rs)
		order := make([]int, 0, len(rs))
		for i := range rs {
			if !rs[i].Void && playersNet(&rs[i]) > 0 {
				order = append(order, i)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(playersNet(&rs[b]), playersNet(&rs[a])) })
		var taken int64
		n := 0
		for _, i := range order {
			if 10*taken >= total {
				break
			}
			w := playersNet(&rs[i])
			if voidAs(t, rs, i, rs[i].Boxes[0].Decision) {
				taken += w
				n++
			}
		}
		careful(t, rs)
		t.Logf("%d of %d rounds voided (%.2f%%), %.1f%% of the players' winnings", n, len(rs), 100*float64(n)/float64(len(rs)), 100*float64(taken)/float64(total))
		_, fs := replayLog(t, rs, nil)
		require.NotEmpty(t, voidBiases(t, fs), "the largest wins voided")
	})

	// Hole 4, split: the RNG game's table is the operator's word. One
	// table per player, and a won round or two voided at each: no table
	// has enough voids to show, the game pooled does.
	t.Run("void-wins-split-across-tables/casino-holdem", func(t *testing.T) {
		rs := honestLog(t, sim.Config{Game: gameCH, Rounds: 20000, Seed: 25, Players: 100})
		for i := range rs {
			rs[i].TableID = "t-" + rs[i].Boxes[0].PlayerID
		}
		renumber(rs)
		perTable := map[string]int{}
		n := 0
		for i := range rs {
			tb := rs[i].TableID
			if i > 2000 && perTable[tb] < 2 && !rs[i].Void && playersNet(&rs[i]) > 0 && voidAs(t, rs, i, rs[i].Boxes[0].Decision) {
				perTable[tb]++
				n++
			}
		}
		require.Greater(t, n, 150)
		careful(t, rs)
		t.Logf("%d won rounds voided over %d tables of %d rounds", n, len(perTable), len(rs))
		_, fs := replayLog(t, rs, nil)
		vb := voidBiases(t, fs)
		require.NotEmpty(t, vb, "%d voided wins over %d tables", n, len(perTable))
		pooled := false
		for _, f := range vb {
			pooled = pooled || strings.Contains(f.Detail, "pooled")
		}
		assert.True(t, pooled, "the pooled game shows what no table does: %+v", vb)
	})
}
