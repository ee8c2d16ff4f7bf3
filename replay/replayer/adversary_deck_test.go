package replayer

// The deck inputs an operator could choose after seeing the client input
// (issue 24, holes 1 and 2; docs/threat-model.md, "Inputs that reach the
// deck"). Written as the operator would cheat, from the contract: each
// round of a stretch is dealt with whichever allowed-looking input pays
// the players least, and the replay must name every round so dealt.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// playersNet is what the players of r won (positive) or lost in total.
func playersNet(r *round.Round) int64 {
	var n int64
	for _, p := range players(r) {
		n += net(r, p)
	}
	return n
}

// returnOf is the players' returns over their stakes in rs, as a
// fraction (display only).
func returnOf(rs []round.Round) float64 {
	var staked, returned int64
	for i := range rs {
		for _, b := range rs[i].Boxes {
			staked += b.Ante + b.Call + b.Bonus
			returned += b.AnteReturn + b.CallReturn + b.BonusReturn
		}
	}
	return float64(returned) / float64(staked)
}

// chooseWorst deals round k of rs with each option in turn (set applies
// one) and keeps the one whose deck pays the players least; it returns
// the index of the option kept.
func chooseWorst(t *testing.T, rs []round.Round, k, options int, set func(r *round.Round, o int)) int {
	t.Helper()
	best, bestNet := 0, int64(0)
	for o := range options {
		c := cloneRound(t, &rs[k])
		set(&c, o)
		redeal(t, &c)
		if n := playersNet(&c); o == 0 || n < bestNet {
			best, bestNet = o, n
		}
	}
	set(&rs[k], best)
	redeal(t, &rs[k])
	return best
}

// enrich adds the same large amount to every wallet of rs, so that the
// players of a re-dealt stretch can always afford their next stakes.
func enrich(rs []round.Round) {
	for i := range rs {
		for k := range rs[i].Boxes {
			rs[i].Boxes[k].BalanceBefore += 1e9
			rs[i].Boxes[k].BalanceAfter += 1e9
		}
	}
}

func TestAdversaryDeckChoice(t *testing.T) {
	// Hole 1: at a hash-chain table the nonce counts nothing (one link a
	// round), so an operator that sees the link and the client seeds can
	// try several nonces and deal the deck that pays least.
	t.Run("chain-nonce/live-casino-holdem", func(t *testing.T) {
		rs := liveLog(t)
		enrich(rs)
		honest := cloneLog(t, rs[100:150])
		var want []hit
		for k := 100; k < 150; k++ {
			if chooseWorst(t, rs, k, 8, func(r *round.Round, o int) { r.Fairness.Nonce = uint64(o) }) != 0 {
				want = append(want, hit{rs[k].RoundID, finding.ChainNonceNotZero})
			}
		}
		rechain(rs)
		careful(t, rs)
		t.Logf("players' return over the 50 rounds: honest %.4f, nonce chosen among 8: %.4f (%d rounds moved)", returnOf(honest), returnOf(rs[100:150]), len(want))
		require.Greater(t, len(want), 30, "the cheat chose another nonce on most rounds")
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, want, nil)
	})

	// Hole 2: whether a round mixes in a drand beacon, and which, is the
	// table's declared scheme; the round is the first the chain publishes
	// after the commitment. The honest table below mixes in quicknet round
	// 1000, the first published after its commitment; the cheat chooses
	// per round among that beacon, no beacon, and the default chain's round
	// 1000 (a genuine, verifying beacon, published long before).
	t.Run("beacon/live-casino-holdem", func(t *testing.T) {
		q := beaconVector(t, "v1-beacon-quicknet-1000")
		d := beaconVector(t, "v1-beacon-default-1000")
		set := func(r *round.Round, o int) {
			f := &r.Fairness
			f.BeaconChain, f.BeaconRound, f.BeaconSignature, f.BeaconPreviousSignature = "", 0, "", ""
			switch o {
			case 0:
				f.BeaconChain, f.BeaconRound, f.BeaconSignature = q.Chain, q.Round, q.Signature
			case 2:
				f.BeaconChain, f.BeaconRound, f.BeaconSignature, f.BeaconPreviousSignature = d.Chain, d.Round, d.Signature, d.PreviousSignature
			}
		}
		rs := liveLog(t)
		enrich(rs)
		for i := range rs {
			// quicknet round 1000 is published at 2023-08-23T15:59:24Z,
			// round 999 three seconds before: committed in between.
			rs[i].Fairness.CommittedAt = "2023-08-23T15:59:22Z"
			set(&rs[i], 0)
			redeal(t, &rs[i])
		}
		rechain(rs)
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, nil, nil) // honest with its beacon: clean

		honest := cloneLog(t, rs[100:150])
		var want, allowed []hit
		for k := 100; k < 150; k++ {
			switch chooseWorst(t, rs, k, 3, set) {
			case 1:
				want = append(want, hit{rs[k].RoundID, finding.SchemeChanged})
			case 2:
				want = append(want, hit{rs[k].RoundID, finding.SchemeChanged})
				allowed = append(allowed, hit{rs[k].RoundID, finding.BeaconTooEarly})
			}
		}
		rechain(rs)
		careful(t, rs)
		t.Logf("players' return over the 50 rounds: honest %.4f, beacon chosen among 3: %.4f (%d rounds moved)", returnOf(honest), returnOf(rs[100:150]), len(want))
		require.Greater(t, len(want), 20, "the cheat chose another beacon on many rounds")
		_, fs = replayLog(t, rs, nil)
		expect(t, fs, want, allowed)
	})
}

type beaconFields struct {
	Chain             string `json:"chain"`
	Round             uint64 `json:"round"`
	Signature         string `json:"signature"`
	PreviousSignature string `json:"previous_signature"`
}

// beaconVector reads the drand beacon of a fairness vector.
func beaconVector(t *testing.T, id string) beaconFields {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "vectors", "fairness", id+".json"))
	require.NoError(t, err)
	var v struct {
		Beacon beaconFields `json:"beacon"`
	}
	require.NoError(t, json.Unmarshal(b, &v))
	require.NotEmpty(t, v.Beacon.Signature, id)
	return v.Beacon
}

// TestAdversaryNoCommitTime (issue 24, hole 11): a log without
// committed_at skips the commitment's time checks; the replay says so, per
// table, as a check not made.
func TestAdversaryNoCommitTime(t *testing.T) {
	rs := chLog(t)
	for i := range rs {
		if i%3 == 0 {
			rs[i].Fairness.CommittedAt = ""
		}
	}
	s, fs := replayLog(t, rs, nil)
	expect(t, fs, nil, nil)
	var ws []string
	for _, w := range s.Warnings {
		if strings.Contains(w, "without committed_at") {
			ws = append(ws, w)
		}
	}
	require.Len(t, ws, 1, "%q", s.Warnings)
	require.Contains(t, ws[0], fmt.Sprintf("table %s: %d rounds without committed_at", rs[0].TableID, (len(rs)+2)/3))
}

// TestAdversarySessionCrowd (issue 24, hole 7): a player leaves a live
// table's chain session, hundreds of others play at the table, and the
// player comes back with another client seed. A session that forgot its
// early players would take the new seed as a new player's.
func TestAdversarySessionCrowd(t *testing.T) {
	rs := liveLog(t)
	enrich(rs)
	// The players of the first 10 rounds; rounds 10..149 are played by a
	// crowd of fresh players, one per box.
	early := map[string]bool{}
	for i := range 10 {
		for _, b := range rs[i].Boxes {
			early[b.PlayerID] = true
		}
	}
	crowd := 0
	for i := 10; i < 150; i++ {
		for k := range rs[i].Boxes {
			rs[i].Boxes[k].PlayerID = fmt.Sprintf("crowd-%d-%d", i, k)
			crowd++
		}
	}
	require.Greater(t, crowd, 200)
	// Cheat: an early player's every round after the crowd is dealt with
	// another client seed.
	var want []hit
	var back string
	for i := 150; i < len(rs); i++ {
		for k, b := range rs[i].Boxes {
			if back == "" && early[b.PlayerID] {
				back = b.PlayerID
			}
			if b.PlayerID == back {
				rs[i].Fairness.ClientSeeds[k] = "switched-" + back
				redeal(t, &rs[i])
				want = append(want, hit{rs[i].RoundID, finding.ClientSeedChanged})
			}
		}
	}
	require.NotEmpty(t, want, "an early player comes back")
	rechain(rs)
	careful(t, rs)
	_, fs := replayLog(t, rs, nil)
	expect(t, fs, want, nil)
}

// TestAdversaryRotations (issue 24, hole 10): the operator logs client
// seed rotations it chose itself, each time picking, among a few fresh
// client seeds, the one whose deck pays the player least. Every rotation
// is logged, so no CLIENT_SEED_CHANGED: only the rate shows.
func TestAdversaryRotations(t *testing.T) {
	// grindOn grinds the rotations of the players target picks in rs, on
	// every every-th round of each.
	grindOn := func(t *testing.T, rs []round.Round, every int, target func(string) bool) ([]round.Round, float64, float64) {
		enrich(rs)
		honest := cloneLog(t, rs)
		type cur struct{ seed, client string }
		override := map[string]cur{}
		n := map[string]int{}
		for i := range rs {
			r := &rs[i]
			p := r.Boxes[0].PlayerID
			if o, ok := override[p]; ok && o.seed == r.Fairness.ServerSeed {
				r.Fairness.ClientSeeds[0] = o.client
			} else {
				delete(override, p)
			}
			n[p]++
			if target(p) && n[p]%every == 0 {
				k := chooseWorst(t, rs, i, 4, func(r *round.Round, o int) {
					r.Fairness.ClientSeeds[0] = fmt.Sprintf("%s-rot-%d-%d", p, i, o)
				})
				r.Fairness.ClientSeedRotated = true
				override[p] = cur{r.Fairness.ServerSeed, fmt.Sprintf("%s-rot-%d-%d", p, i, k)}
			}
			redeal(t, r)
		}
		rechain(rs)
		careful(t, rs)
		return rs, returnOf(honest), returnOf(rs)
	}
	grind := func(t *testing.T, every int) ([]round.Round, float64, float64) {
		return grindOn(t, chLog(t), every, func(string) bool { return true })
	}
	t.Run("grinding-12pct/casino-holdem", func(t *testing.T) {
		rs, before, after := grind(t, 8)
		t.Logf("players' return: honest %.4f, rotations ground on every 8th round of each player: %.4f", before, after)
		s, fs := replayLog(t, rs, nil)
		require.Len(t, fs, 3, "%+v", fs) // the table, and each of its two players
		for _, f := range fs {
			assert.Equal(t, finding.RotationRate, f.Code)
		}
		require.Len(t, s.Rotations, 1)
		assert.InDelta(t, 0.125, s.Rotations[0].Rate, 0.01)
		require.Len(t, s.PlayerRotations, 2)
		for _, pr := range s.PlayerRotations {
			assert.True(t, pr.Excessive, pr.Player)
			assert.InDelta(t, 0.125, pr.Rate, 0.01, pr.Player)
		}
	})
	t.Run("grinding-one-player-of-20/casino-holdem", func(t *testing.T) {
		// One player of twenty is ground on every 8th of their rounds:
		// the game server's rate stays near the baseline, the player's
		// does not.
		rs := honestLog(t, sim.Config{Game: gameCH, Rounds: 2000, Seed: 21, Players: 20})
		victim := rs[0].Boxes[0].PlayerID
		rs, _, _ = grindOn(t, rs, 8, func(p string) bool { return p == victim })
		s, fs := replayLog(t, rs, nil)
		require.Len(t, fs, 1, "%+v", fs)
		assert.Equal(t, finding.RotationRate, fs[0].Code)
		assert.Equal(t, victim, fs[0].PlayerID)
		assert.Contains(t, fs[0].Detail, "player "+victim)
		require.Len(t, s.Rotations, 1)
		assert.False(t, s.Rotations[0].Excessive, "the table's rate: %v", s.Rotations[0].Rate)
		require.Len(t, s.PlayerRotations, 1)
		assert.Equal(t, victim, s.PlayerRotations[0].Player)
		assert.True(t, s.PlayerRotations[0].Excessive)
		assert.InDelta(t, 0.125, s.PlayerRotations[0].Rate, 0.02)
		shardedToo(t, rs, fs) // the victim's rotations counted across shards
	})
	t.Run("rotations-at-shard-boundaries/live-casino-holdem", func(t *testing.T) {
		// Rotations on the first rounds of the second and third of three
		// parts (the live table's hash chain spans them all): a shard's
		// Ledger does not know the player's client seed before them, so
		// the merge counts them, and must count them as a single Ledger.
		rs := liveLog(t)
		enrich(rs)
		cut := (len(rs) + 2) / 3
		rotate := map[int]bool{cut: true, 2 * cut: true, cut + 7: true}
		seeds := map[string]string{}
		for i := range rs {
			r := &rs[i]
			for k, b := range r.Boxes {
				if c, ok := seeds[b.PlayerID]; ok {
					r.Fairness.ClientSeeds[k] = c
				}
			}
			if rotate[i] {
				p := r.Boxes[0].PlayerID
				require.True(t, playedBefore(rs[:i], p), "round %d: %s played before", i, p)
				r.Fairness.ClientSeeds[0] = fmt.Sprintf("%s-rotated-%d", p, i)
				r.Fairness.ClientSeedRotated = true
				seeds[p] = r.Fairness.ClientSeeds[0]
			}
			redeal(t, r)
		}
		rechain(rs)
		careful(t, rs)
		s, fs := replayLog(t, rs, nil)
		expect(t, fs, nil, nil)
		want := map[string]int64{}
		for i := range rotate {
			want[rs[i].Boxes[0].PlayerID]++
		}
		got := map[string]int64{}
		for _, pr := range s.PlayerRotations {
			got[pr.Player] = pr.Rotated
		}
		assert.Equal(t, want, got)
		shardedToo(t, rs, fs)
	})
	t.Run("control-players-rotating-rarely/casino-holdem", func(t *testing.T) {
		rs, _, _ := grind(t, 200)
		s, fs := replayLog(t, rs, nil)
		expect(t, fs, nil, nil)
		require.Len(t, s.Rotations, 1)
		assert.False(t, s.Rotations[0].Excessive)
	})
}
