package replayer

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/commitments"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

// simulateLog writes a simulated dataset and its commitment log (under the
// same temporary directory) and returns the dataset's directory, the
// log's result and every injection (the rounds' and the log's).
func simulateLog(t testing.TB, cfg sim.Config) (string, *sim.LogResult, []sim.Injection) {
	t.Helper()
	base := t.TempDir()
	if cfg.Log == nil {
		cfg.Log = &sim.LogConfig{}
	}
	cfg.Log.Dir = filepath.Join(base, "commitlog")
	if cfg.Log.KeptCheckpoint == "" {
		cfg.Log.KeptCheckpoint = filepath.Join(base, "kept-checkpoint")
	}
	s, err := sim.New(cfg)
	require.NoError(t, err)
	dir := filepath.Join(base, "log")
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
	res, err := s.WriteCommitLog(context.Background())
	require.NoError(t, err)
	return dir, res, append(inj, res.Injections...)
}

// logOptions are the options of a replay that trusts the simulated log's
// key and witness and keeps its kept checkpoint when there is one.
func logOptions(res *sim.LogResult, kept bool) commitments.Options {
	o := commitments.Options{Location: res.Dir, Key: res.Public,
		Trust: commitlog.Trust{Witnesses: []string{res.WitnessKey}}}
	if kept && res.KeptCheckpoint != "" {
		raw, err := os.ReadFile(res.KeptCheckpoint)
		if err != nil {
			panic(err)
		}
		o.Old = []commitments.OldCheckpoint{{Name: res.KeptCheckpoint, Raw: raw}}
	}
	return o
}

// replayWithLog replays dir against the commitment log of opts.
func replayWithLog(t testing.TB, dir string, opts commitments.Options) (*Summary, []finding.Finding) {
	t.Helper()
	lg, err := commitments.Load(context.Background(), opts)
	require.NoError(t, err)
	rb, err := audit.NewRulebook(nil)
	require.NoError(t, err)
	var fs []finding.Finding
	s, err := Run([]string{dir}, Options{Workers: 2, Config: &audit.Config{Dealers: audit.SchemeDealers{}, Rules: rb, Double: audit.DoubleEngine{Rules: rb}},
		CommitLog: lg, Findings: func(f *finding.Finding) error { fs = append(fs, *f); return nil }})
	require.NoError(t, err)
	return s, fs
}

// logRounds is enough rounds for a second session of every stream.
func logRounds(game string) int64 {
	switch game {
	case round.CasinoHoldem:
		return 12 * sim.SessionRounds // ten players, a second session each
	case round.LiveCasinoHoldem:
		return 2*sim.ChainLength + 100
	}
	return 3 * sim.SessionRounds
}

var logGames = []string{round.CasinoHoldem, round.DoubleHoldem, round.LiveCasinoHoldem}

// TestCommitLogClean: an honest simulated log, its witness's checkpoints
// and a kept checkpoint give no finding and no warning, and the summary
// counts every session as logged and used.
func TestCommitLogClean(t *testing.T) {
	for _, game := range logGames {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			dir, res, inj := simulateLog(t, sim.Config{Game: game, Rounds: logRounds(game), Seed: 7, Log: &sim.LogConfig{KeptCheckpoint: filepath.Join(t.TempDir(), "kept")}})
			require.Empty(t, inj)
			sum, fs := replayWithLog(t, dir, logOptions(res, true))
			assert.Empty(t, fs)
			assert.Empty(t, logWarnings(sum))
			assert.Empty(t, sum.NotChecked)
			require.NotNil(t, sum.CommitmentLog)
			cl := sum.CommitmentLog
			assert.Equal(t, uint64(res.Entries), cl.Size)
			assert.Equal(t, 1, cl.KeptCheckpoints)
			assert.Equal(t, res.Timed, cl.TimedCheckpoints)
			require.Len(t, cl.Tables, 1)
			tc := cl.Tables[0]
			assert.Equal(t, int64(res.Entries), tc.Sessions)
			assert.Equal(t, tc.Sessions, tc.Logged)
			assert.Equal(t, tc.Sessions, tc.Used)
			assert.Zero(t, tc.Unused)
			assert.Greater(t, tc.Sessions, int64(2))
		})
	}
}

// TestCommitLogNotChecked: without a log the summary lists the checks not
// made, and warns of none of them.
func TestCommitLogNotChecked(t *testing.T) {
	dir, _ := simulate(t, sim.Config{Game: round.CasinoHoldem, Rounds: 50, Seed: 7})
	sum, fs := replayFindings(t, dir, nil)
	assert.Empty(t, fs)
	assert.Equal(t, NotCheckedWithoutLog, sum.NotChecked)
	assert.Nil(t, sum.CommitmentLog)
	assert.Empty(t, logWarnings(sum))
}

// logWarnings are the summary's warnings about the commitment log.
func logWarnings(s *Summary) []string {
	var out []string
	for _, w := range s.Warnings {
		if strings.Contains(w, "commitment log") {
			out = append(out, w)
		}
	}
	return out
}

// TestDetectionMixedLogFaults: every round and session fault of a game and
// every log fault in one log and its commitment log at once are reported
// exactly: the log's findings neither hide the others nor add any.
func TestDetectionMixedLogFaults(t *testing.T) {
	for _, game := range logGames {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			cfg := sim.Config{Game: game, Rounds: 2 * logRounds(game), Seed: 13}
			for _, f := range sim.Faults() {
				if slices.Contains(f.Games, game) && f.Name != sim.FaultMaxPayoutIgnored && f.Name != sim.FaultVoidWins {
					cfg.Faults = append(cfg.Faults, sim.FaultRate{Name: f.Name, Rate: 0.005})
				}
			}
			for _, f := range sim.LogFaults() {
				cfg.Faults = append(cfg.Faults, sim.FaultRate{Name: f.Name, Rate: 0.2})
			}
			dir, res, inj := simulateLog(t, cfg)
			want := map[hit]bool{}
			logged := map[finding.Code]bool{}
			for _, in := range inj {
				want[injectedHit(in)] = true
				logged[in.Code] = true
			}
			n := 0
			for _, f := range sim.LogFaults() {
				if logged[f.Code] {
					n++
				}
			}
			assert.GreaterOrEqual(t, n, 2, "log faults injected (one a session at most, so not every one in a short log)")
			_, fs := replayWithLog(t, dir, logOptions(res, true))
			got := map[hit]bool{}
			for _, x := range fs {
				got[hit{x.RoundID, x.Code}] = true
			}
			assert.Empty(t, diffHits(want, got), "injected but not reported")
			extra := diffHits(got, want)
			assert.Empty(t, extra, "reported but not injected: %v", firstFindings(fs, extra))
		})
	}
}
