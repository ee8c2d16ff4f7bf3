package replayer

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// simulate writes a simulated dataset and returns its directory and the
// injected faults.
func simulate(t testing.TB, cfg sim.Config) (string, []sim.Injection) {
	t.Helper()
	s, err := sim.New(cfg)
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "log")
	w, err := roundlog.NewParquetWriter(dir, roundlog.Options{RowGroupRounds: 1000})
	require.NoError(t, err)
	var inj []sim.Injection
	for !s.Done() {
		r, in, err := s.Next()
		require.NoError(t, err)
		inj = append(inj, in...)
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	return dir, inj
}

// replayFindings replays dir under declared (nil: the rounds' profiles)
// and returns every finding.
func replayFindings(t testing.TB, dir string, declared *profile.Profile) (*Summary, []finding.Finding) {
	t.Helper()
	rb, err := audit.NewRulebook(declared)
	require.NoError(t, err)
	var fs []finding.Finding
	s, err := Run([]string{dir}, Options{Workers: 2, Config: &audit.Config{Dealers: audit.SchemeDealers{}, Rules: rb, Double: audit.DoubleEngine{Rules: rb}},
		Findings: func(f *finding.Finding) error { fs = append(fs, *f); return nil }})
	require.NoError(t, err)
	return s, fs
}

type hit struct {
	round string
	code  finding.Code
}

// injectedHit is the finding an injection must give: on its round, or
// with no round for a fault reported per table (VOID_BIAS).
func injectedHit(in sim.Injection) hit {
	if in.Table != "" {
		return hit{"", in.Code}
	}
	return hit{in.RoundID, in.Code}
}

// voidWinsRate is the rate of the void-wins fault in the detection tests.
const voidWinsRate = 0.25

// TestDetectionGuarantee: for every fault of the simulator's catalogue and
// every game it applies to, every injected (round, code) is reported, with
// one of the fault's catalogued codes, and nothing else is reported.
func TestDetectionGuarantee(t *testing.T) {
	rounds := int64(600)
	if testing.Short() {
		rounds = 250
	}
	for _, f := range append(sim.Faults(), sim.LogFaults()...) {
		for _, game := range f.Games {
			t.Run(f.Name+"/"+game, func(t *testing.T) {
				t.Parallel()
				cfg := sim.Config{Game: game, Rounds: rounds, Seed: 42, Faults: []sim.FaultRate{{Name: f.Name, Rate: 0.05}}}
				if f.Kind() == "session" {
					// Rate per seed session (100 rounds) or hash chain
					// (1,000 rounds): every one of them.
					cfg.Faults[0].Rate = 1
					cfg.Rounds = max(rounds, 2*sim.SessionRounds)
					if game == round.LiveCasinoHoldem {
						cfg.Rounds = 2 * sim.ChainLength
					}
				}
				if f.Name == sim.FaultDHOddChipWrong {
					cfg.Rounds = 4 * rounds // split pots with an odd chip are rare
				}
				if f.Name == sim.FaultVoidWins {
					// About 60 voided wins in 250 rounds: the void-bias test
					// needs 17 (single box) or 20 (live table) when every
					// void is a win (voids.go).
					cfg.Faults[0].Rate = voidWinsRate
				}
				if f.Name == sim.FaultSeedRedealt && game == round.CasinoHoldem {
					// A player's second seed session starts after 100
					// rounds of each of the 10 players.
					cfg.Rounds = 12 * sim.SessionRounds
				}
				var declared *profile.Profile
				if f.Name == sim.FaultMaxPayoutIgnored {
					// Capped wins are rare under the built-in max payout.
					p, err := profile.Builtin(game)
					require.NoError(t, err)
					p.Casino.Limits.MaxPayoutPerBox = 1000
					cfg.Profile, declared = p, p
				}
				var dir string
				var inj []sim.Injection
				var logRes *sim.LogResult
				if f.Kind() == "log" {
					// Per session: every one that fits, over enough
					// rounds for a stream's second session.
					cfg.Faults[0].Rate = 1
					if f.Name == sim.FaultCommitmentUnlogged {
						cfg.Faults[0].Rate = 0.5 // a log of no entry is no log
					}
					cfg.Rounds = logRounds(game)
					dir, logRes, inj = simulateLog(t, cfg)
				} else {
					dir, inj = simulate(t, cfg)
				}
				require.NotEmpty(t, inj, "no %s injected in %d rounds", f.Name, rounds)
				want := map[hit]bool{}
				for _, in := range inj {
					// A fault may show as several codes, each an injection
					// of its own (sim.Fault.Also).
					require.Contains(t, f.Codes(), in.Code)
					want[injectedHit(in)] = true
				}
				var fs []finding.Finding
				if logRes != nil {
					_, fs = replayWithLog(t, dir, logOptions(logRes, true))
				} else {
					_, fs = replayFindings(t, dir, declared)
				}
				got := map[hit]bool{}
				for _, x := range fs {
					got[hit{x.RoundID, x.Code}] = true
				}
				missed, extra := diffHits(want, got), diffHits(got, want)
				assert.Empty(t, missed, "injected but not reported")
				assert.Empty(t, extra, "reported but not injected: %v", firstFindings(fs, extra))
			})
		}
	}
}

func diffHits(a, b map[hit]bool) []hit {
	var out []hit
	for h := range a {
		if !b[h] {
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(x, y hit) int {
		if x.round != y.round {
			if x.round < y.round {
				return -1
			}
			return 1
		}
		return 0
	})
	return out
}

func firstFindings(fs []finding.Finding, hs []hit) []string {
	var out []string
	for _, f := range fs {
		if len(out) < 3 && slices.Contains(hs, hit{f.RoundID, f.Code}) {
			out = append(out, fmt.Sprintf("%+v", f))
		}
	}
	return out
}

// TestCleanLogsHaveNoFindings: honest logs of every game replay with no
// finding (100,000 rounds of each game in the full run).
func TestCleanLogsHaveNoFindings(t *testing.T) {
	rounds := int64(100_000)
	if testing.Short() {
		rounds = 3_000
	}
	for _, game := range []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem} {
		t.Run(game, func(t *testing.T) {
			dir, inj := simulate(t, sim.Config{Game: game, Rounds: rounds, Seed: 7})
			require.Empty(t, inj)
			s, fs := replayFindings(t, dir, nil)
			assert.Equal(t, rounds, s.Rounds)
			if !assert.Empty(t, fs) {
				t.Logf("first findings: %+v", fs[:min(3, len(fs))])
			}
		})
	}
}

// TestDetectionMixedFaults: every fault of a game injected into one log at
// once (faults interact: a session fault and a round fault can share a
// round) is reported exactly.
func TestDetectionMixedFaults(t *testing.T) {
	rounds := int64(20_000)
	if testing.Short() {
		rounds = 3_000
	}
	for _, game := range []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem} {
		t.Run(game, func(t *testing.T) {
			cfg := sim.Config{Game: game, Rounds: rounds, Seed: 9}
			for _, f := range sim.Faults() {
				if slices.Contains(f.Games, game) && f.Name != sim.FaultMaxPayoutIgnored {
					rate := 0.005
					if f.Name == sim.FaultVoidWins {
						rate = 0.05 // 150 voided wins in 3,000 rounds
					}
					cfg.Faults = append(cfg.Faults, sim.FaultRate{Name: f.Name, Rate: rate})
				}
			}
			dir, inj := simulate(t, cfg)
			require.NotEmpty(t, inj)
			want := map[hit]bool{}
			for _, in := range inj {
				want[injectedHit(in)] = true
			}
			_, fs := replayFindings(t, dir, nil)
			got := map[hit]bool{}
			for _, x := range fs {
				got[hit{x.RoundID, x.Code}] = true
				// A finding about a round says when, where and in which
				// game; one about a table, where and in which game.
				switch {
				case x.RoundID != "":
					assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$`, x.Time, "%s %s", x.Code, x.RoundID)
					assert.NotEmpty(t, x.TableID, "%s %s", x.Code, x.RoundID)
					assert.Equal(t, game, x.Game, "%s %s", x.Code, x.RoundID)
				case x.Code == finding.VoidBias || x.Code == finding.RotationRate:
					assert.Empty(t, x.Time, x.Code)
					assert.Equal(t, game, x.Game, x.Code)
				}
			}
			assert.Empty(t, diffHits(want, got), "injected but not reported")
			extra := diffHits(got, want)
			assert.Empty(t, extra, "reported but not injected: %v", firstFindings(fs, extra))
		})
	}
}
