package replayer

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The merge's completion of the shards' boundary state (bounds.go,
// boundplan.go): taken on honest logs, whatever the number of shards,
// without reading a trace; refused, for the traces, wherever a key's
// state at a boundary is not what the next segment's Ledger assumed.

// splitJSONL writes rs as a dataset of JSON Lines parts cut before each
// index of cuts, and returns its directory.
func splitJSONL(t testing.TB, rs []round.Round, cuts ...int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "split")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "rounds"), 0o755))
	from := 0
	for k, c := range append(slices.Clone(cuts), len(rs)) {
		writeJSONL(t, filepath.Join(dir, "rounds", fmt.Sprintf("part-%05d.jsonl", k)), rs[from:c])
		from = c
	}
	return dir
}

// TestBoundaryHonest: honest multi-table logs of every game, in parts,
// merged from 2, 4 and 7 shards with every traces file removed: the
// merge completes the boundary state (it needs no trace) and gives the
// unsharded replay's bytes; no finding is added at a boundary.
func TestBoundaryHonest(t *testing.T) {
	for _, game := range []string{gameCH, gameLive, gameDH} {
		t.Run(game, func(t *testing.T) {
			rs := simLog(t, sim.Config{Game: game, Rounds: 700, Seed: 41})
			multiTable(rs)
			dir := writeDataset(t, rs, 50, 100)
			wantSum, wantF := unsharded(t, []string{dir}, nil)
			for _, n := range []int{2, 4, 7} {
				parts := writeShards(t, []string{dir}, n, nil, PartMeta{Tool: "test", Inputs: []string{dir}})
				for _, p := range parts {
					require.NoError(t, os.Remove(p+TracesSuffix))
				}
				gotSum, gotF := merge(t, parts)
				assert.Empty(t, lastFallback, "%d shards", n)
				assert.Equal(t, wantSum, gotSum, "%d shards", n)
				assert.Equal(t, string(wantF), string(gotF), "%d shards", n)
			}
		})
	}
}

// TestBoundaryRoundIDInTwoSegments: a round given the id of a round of
// another table in an earlier part (its table, seed and wallets in order,
// so that nothing but the id connects the two) is one ROUND_DUPLICATE,
// sharded as unsharded: the merge sees the id in both segments and replays
// the traces. Numbered ids (kept as runs) and others (kept as hashes).
func TestBoundaryRoundIDInTwoSegments(t *testing.T) {
	for _, ids := range []string{"numbered", "unnumbered"} {
		t.Run(ids, func(t *testing.T) {
			rs := simLog(t, sim.Config{Game: gameCH, Rounds: 400, Seed: 43, Players: 3})
			multiTable(rs)
			if ids == "unnumbered" {
				for i := range rs {
					rs[i].RoundID = "round-" + rs[i].RoundID + "-z"
				}
			}
			half := len(rs) / 2
			j := 3
			k := half + 5
			for rs[k].TableID == rs[j].TableID {
				k++
			}
			rs[k].RoundID = rs[j].RoundID
			careful(t, rs)
			dir := splitJSONL(t, rs, half)
			got := requireShardedSame(t, []string{dir}, nil, []int{2})
			assert.Contains(t, lastFallback, "round id")
			assert.Contains(t, codesOf(got), string(finding.RoundDuplicate))
		})
	}
}

// TestBoundaryTraces: a merge that replays the traces needs each part's
// traces file, whole; one that completes the boundary state reads none.
func TestBoundaryTraces(t *testing.T) {
	rs := simLog(t, sim.Config{Game: gameCH, Rounds: 300, Seed: 44, Players: 3})
	// A cheat at the boundary: the second part's first round of a player
	// skips a nonce (its seed's sequence goes on at the next but one).
	k := len(rs) / 2
	dir := splitJSONL(t, rs, k)
	parts := writeShards(t, []string{dir}, 2, nil, PartMeta{Tool: "test", Inputs: []string{dir}})
	_, _ = merge(t, parts)
	require.Empty(t, lastFallback, "honest: no trace needed")

	// Drop round k: the boundary's seed sequence skips.
	cut := append(slices.Clone(rs[:k]), rs[k+1:]...)
	rechain(cut)
	dir = splitJSONL(t, cut, k)
	wantSum, wantF := unsharded(t, []string{dir}, nil)
	parts = writeShards(t, []string{dir}, 2, nil, PartMeta{Tool: "test", Inputs: []string{dir}})
	gotSum, gotF := merge(t, parts)
	require.NotEmpty(t, lastFallback)
	assert.Equal(t, wantSum, gotSum)
	assert.Equal(t, string(wantF), string(gotF))

	// Its traces file missing: an error naming it.
	tp := parts[1] + TracesSuffix
	b, err := os.ReadFile(tp)
	require.NoError(t, err)
	require.NoError(t, os.Remove(tp))
	ps, err := OpenParts(parts, MergeCheck{})
	require.NoError(t, err)
	_, err = ps.Merge(Options{})
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.ErrorContains(t, err, tp)

	// Altered: an error naming it, whichever byte changed.
	for _, at := range []int{3, len(b) / 2, len(b) - 1} {
		c := slices.Clone(b)
		c[at] ^= 1
		require.NoError(t, os.WriteFile(tp, c, 0o644))
		ps, err := OpenParts(parts, MergeCheck{})
		require.NoError(t, err)
		_, err = ps.Merge(Options{})
		var pe *PartError
		require.True(t, errors.As(err, &pe), "byte %d: %v", at, err)
		assert.Equal(t, tp, pe.Path)
	}
	// Truncated.
	require.NoError(t, os.WriteFile(tp, b[:len(b)-10], 0o644))
	ps, err = OpenParts(parts, MergeCheck{})
	require.NoError(t, err)
	_, err = ps.Merge(Options{})
	var pe *PartError
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, tp, pe.Path)
}

// TestBoundaryCheats: cheats whose only trace is at a boundary between two
// shards' segments, each where the second segment's Ledger, starting
// empty, sees nothing wrong: sharded as unsharded, through the traces.
func TestBoundaryCheats(t *testing.T) {
	type cheat struct {
		name string
		code finding.Code
		// edit edits rs, cut in two parts before index k, and returns
		// the log.
		edit func(t *testing.T, rs []round.Round, k int) []round.Round
		// plain: an edit the helper careful refuses (it keeps the table's
		// times in order).
		plain bool
	}
	cheats := []cheat{
		{"table-numbered-from-the-boundary", finding.TableSequenceGap, func(t *testing.T, rs []round.Round, k int) []round.Round {
			for i := range k {
				rs[i].TableSeq = 0
			}
			return rs
		}, false},
		{"time-back-at-the-boundary", finding.RoundOrder, func(t *testing.T, rs []round.Round, k int) []round.Round {
			rs[k].Time = shiftTime(t, rs[k-1].Time, -time.Second)
			return rs
		}, true},
	}
	for _, c := range cheats {
		t.Run(c.name, func(t *testing.T) {
			rs := simLog(t, sim.Config{Game: gameCH, Rounds: 300, Seed: 45, Players: 3})
			number(rs)
			k := len(rs) / 2
			rs = c.edit(t, rs, k)
			if !c.plain {
				careful(t, rs)
			}
			dir := splitJSONL(t, rs, k)
			got := requireShardedSame(t, []string{dir}, nil, []int{2})
			assert.NotEmpty(t, lastFallback)
			assert.Contains(t, codesOf(got), string(c.code))
		})
	}
}

// TestBoundaryKeyCheats: cheats on a seed or hash chain whose only trace
// is where its rounds cross from one shard's segment to the next: the
// second segment's Ledger, starting empty, sees a key it does not know
// and nothing wrong; the merge, which knows the key's state, replays the
// traces, and the findings are the unsharded replay's.
func TestBoundaryKeyCheats(t *testing.T) {
	// spanning returns a seed session (hash chain) of 20 rounds or more
	// that does not start the log.
	spanning := func(t *testing.T, rs []round.Round) []int {
		for _, s := range sessions(rs) {
			if len(s) >= 20 && s[0] > 0 {
				return s
			}
		}
		t.Fatal("no session of 20 rounds after the first")
		return nil
	}
	// starting returns a seed session (hash chain) of 3 rounds or more
	// that starts after the log's first 10 rounds and 10 rounds or more
	// before its end.
	starting := func(t *testing.T, rs []round.Round) []int {
		for _, s := range sessions(rs) {
			if len(s) >= 3 && s[0] > 10 && s[0] < len(rs)-10 {
				return s
			}
		}
		t.Fatal("no session starting after the first rounds")
		return nil
	}
	moved := func(t *testing.T, rs []round.Round) ([]round.Round, int) {
		s := spanning(t, rs)
		cut := s[len(s)/2]
		for _, i := range s[len(s)/2:] {
			rs[i].TableID += "-moved"
		}
		number(rs)
		return rs, cut
	}
	dropFirst := func(t *testing.T, rs []round.Round) ([]round.Round, int) {
		s := starting(t, rs)
		out := append(slices.Clone(rs[:s[0]]), rs[s[0]+1:]...)
		rechain(out)
		number(out)
		return out, s[0]
	}
	cases := []struct {
		name, game string
		code       finding.Code
		edit       func(t *testing.T, rs []round.Round) ([]round.Round, int)
	}{
		{"chain-moved-to-another-table", gameLive, finding.SeedReused, moved},
		{"seed-moved-to-another-table", gameCH, finding.SeedReused, moved},
		{"seed-moved-to-another-table", gameDH, finding.SeedReused, moved},
		{"chain-first-link-dropped", gameLive, finding.ChainLinkSkipped, dropFirst},
		{"seed-first-nonce-dropped", gameCH, finding.NonceSequence, dropFirst},
		{"seed-first-nonce-dropped", gameDH, finding.NonceSequence, dropFirst},
		{"reveal-time-changed", gameCH, finding.SeedReused, func(t *testing.T, rs []round.Round) ([]round.Round, int) {
			s := spanning(t, rs)
			for _, i := range s[len(s)/2:] {
				require.NotEmpty(t, rs[i].Fairness.RevealedAt)
				rs[i].Fairness.RevealedAt = shiftTime(t, rs[i].Fairness.RevealedAt, time.Second)
			}
			return rs, s[len(s)/2]
		}},
		{"client-seeds-change-form", gameLive, finding.ClientSeedChanged, func(t *testing.T, rs []round.Round) ([]round.Round, int) {
			// From the cut on, the chain's rounds take one list of 7
			// client seeds for the table (more than its 6 boxes, so
			// never one per box), the same every round.
			s := spanning(t, rs)
			for _, i := range s[len(s)/2:] {
				rs[i].Fairness.ClientSeeds = []string{"t1", "t2", "t3", "t4", "t5", "t6", "t7"}
				redeal(t, &rs[i])
			}
			rechain(rs)
			return rs, s[len(s)/2]
		}},
		{"client-seeds-change-form", gameCH, finding.ClientSeedChanged, func(t *testing.T, rs []round.Round) ([]round.Round, int) {
			s := spanning(t, rs)
			for _, i := range s[len(s)/2:] {
				rs[i].Fairness.ClientSeeds = append(rs[i].Fairness.ClientSeeds, "0perator-chosen")
				redeal(t, &rs[i])
			}
			rechain(rs)
			return rs, s[len(s)/2]
		}},
	}
	for _, c := range cases {
		t.Run(c.name+"/"+c.game, func(t *testing.T) {
			rounds := int64(600)
			if c.game != gameDH {
				rounds = 1500 // a second session (chain) per player (table)
			}
			rs := simLog(t, sim.Config{Game: c.game, Rounds: rounds, Seed: 46})
			number(rs)
			rs, cut := c.edit(t, rs)
			dir := splitJSONL(t, rs, cut)
			got := requireShardedSame(t, []string{dir}, nil, []int{2})
			assert.NotEmpty(t, lastFallback)
			assert.Contains(t, codesOf(got), string(c.code))
		})
	}
}

// TestBoundaryTotalsOverflow: rounds whose returns, each valid as an
// amount, take the dataset's totals past int64 in the last shard's range:
// the merge cannot add the chunks' sums, replays the traces (each round's
// amounts), and reports the AMOUNT_OVERFLOW of the rounds a single replay
// reports.
func TestBoundaryTotalsOverflow(t *testing.T) {
	rs := genRounds(t, 900, 5)
	big := int64(math.MaxInt64 / 5)
	for _, k := range []int{100, 200, 400, 700, 800, 850} {
		rs[k].Boxes[0].BonusReturn += big
	}
	dir := splitJSONL(t, rs, 300, 600)
	got := requireShardedSame(t, []string{dir}, nil, []int{2, 3})
	assert.Contains(t, lastFallback, "overflow")
	var over []string
	for _, f := range got {
		if f.Code == finding.AmountOverflow {
			over = append(over, f.RoundID)
		}
	}
	assert.Equal(t, []string{rs[800].RoundID, rs[850].RoundID}, over)
}

// TestPlanBoundaryVoidTotals: two shards whose voids' amounts as if played
// fit each but not together: the plan replays the traces (the summary's
// if-played totals would overflow on a round the chunks' sums cannot name).
func TestPlanBoundaryVoidTotals(t *testing.T) {
	shard := func(w int64) *shardBounds {
		b := newShardBounds()
		b.voidSums.add(w, 0)
		return b
	}
	assert.Empty(t, planBoundary([]*shardBounds{shard(math.MaxInt64 / 2), shard(math.MaxInt64 / 2)}).fallback)
	assert.Contains(t, planBoundary([]*shardBounds{shard(math.MaxInt64/2 + 2), shard(math.MaxInt64 / 2)}).fallback, "voids")
	over := shard(0)
	over.voidSums.overflow = true
	assert.Contains(t, planBoundary([]*shardBounds{shard(0), over}).fallback, "voids")
}

// TestPlanBoundaryInconsistent: a boundary record whose session starts a
// seed or chain it holds no state of (a part that its shard did not write
// so) is not completed: the merge replays the traces.
func TestPlanBoundaryInconsistent(t *testing.T) {
	for _, chain := range []bool{false, true} {
		b := newShardBounds()
		st := audit.SessionStart{Session: audit.Session{Table: "t"}, Chain: chain, Seed: 7}
		b.segments = []*segmentBound{{unit: 0, b: &audit.SegmentBounds{Starts: []audit.SessionStart{st}}}}
		assert.Contains(t, planBoundary([]*shardBounds{b}).fallback, "started without its state")
	}
}

// TestPlanBoundaryChainWithoutSession: a segment after the first whose
// record holds a verified chain no session started (a part its shard did
// not write so) is not completed.
func TestPlanBoundaryChainWithoutSession(t *testing.T) {
	first := newShardBounds()
	first.segments = []*segmentBound{{unit: 0, b: &audit.SegmentBounds{}}}
	b := newShardBounds()
	b.segments = []*segmentBound{{unit: 1, b: &audit.SegmentBounds{Chains: []audit.ChainBound{{Owned: true, Index: 3}}}}}
	assert.Contains(t, planBoundary([]*shardBounds{first, b}).fallback, "without a session")
}

// TestBoundaryManyPartsTraces: past 64 parts the merge closes each part's
// files between its units and opens them again where it left off; the
// traces replayed that way are the unsharded replay's bytes, as is the
// boundary state completed.
func TestBoundaryManyPartsTraces(t *testing.T) {
	rs := simLog(t, sim.Config{Game: gameCH, Rounds: 700, Seed: 47, Players: 3})
	cuts := make([]int, 0, 69)
	for c := 10; c < len(rs); c += 10 {
		cuts = append(cuts, c)
	}
	dir := splitJSONL(t, rs, cuts...)
	wantSum, wantF := unsharded(t, []string{dir}, nil)
	parts := writeShards(t, []string{dir}, 70, nil, PartMeta{Tool: "test", Inputs: []string{dir}})
	for _, replay := range []bool{false, true} {
		gotSum, gotF := mergeParts(t, parts, replay)
		assert.Equal(t, replay, lastFallback != "", "replay traces: %v", replay)
		assert.Equal(t, wantSum, gotSum, "replay traces: %v", replay)
		assert.Equal(t, string(wantF), string(gotF), "replay traces: %v", replay)
	}
}
