package sim

import (
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	fnote "github.com/transparency-dev/formats/note"
	"golang.org/x/mod/sumdb/note"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/round"
)

// writeLog simulates cfg with a commitment log and returns the rounds'
// first round per commitment and the log's result.
func writeLog(t *testing.T, cfg Config) (map[string]*round.Round, []string, *LogResult) {
	t.Helper()
	cfg.Log = &LogConfig{Dir: filepath.Join(t.TempDir(), "log"), Window: 50}
	s, err := New(cfg)
	require.NoError(t, err)
	first := map[string]*round.Round{}
	var order []string
	for !s.Done() {
		r, _, err := s.Next()
		require.NoError(t, err)
		if first[r.Fairness.Commitment] == nil {
			c := *r
			first[r.Fairness.Commitment] = &c
			order = append(order, r.Fairness.Commitment)
		}
	}
	res, err := s.WriteCommitLog(context.Background())
	require.NoError(t, err)
	return first, order, res
}

// TestCommitLogWritesWhatItSays reads the simulated log with the log's
// reader and the witness's checkpoints with formats/note's cosignature
// verifier, not with the replay's checks: an honest log holds one entry
// per session, in the order of the sessions' first rounds, bound to each,
// every one included in the signed tree, and cosigned before its
// session's first round; each log fault changes what it says.
func TestCommitLogWritesWhatItSays(t *testing.T) {
	ctx := context.Background()
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			first, order, res := writeLog(t, Config{Game: g, Rounds: 600, Seed: 5})
			r, err := commitlog.Open(res.Dir, nil)
			require.NoError(t, err)
			cp, err := r.Checkpoint(ctx, DefaultLogOrigin, res.Public)
			require.NoError(t, err)
			require.Equal(t, uint64(len(order)), cp.Size)
			for i, c := range order {
				raw, err := r.Entry(ctx, cp, uint64(i))
				require.NoError(t, err)
				require.NoError(t, r.VerifyEntry(ctx, cp, uint64(i), raw))
				e, err := commitlog.Unmarshal(raw)
				require.NoError(t, err)
				fr := first[c]
				assert.Equal(t, fr.TableID, e.Table)
				assert.Equal(t, DefaultOperator, e.Operator)
				if fr.Fairness.ChainIndex > 0 {
					require.NotNil(t, e.ChainAnchor)
					assert.Equal(t, c, hex.EncodeToString(e.ChainAnchor[:]))
				} else {
					require.NotNil(t, e.Commitment)
					assert.Equal(t, c, hex.EncodeToString(e.Commitment[:]))
					assert.Equal(t, fr.Fairness.Nonce, e.FirstNonce)
				}
				if g == round.CasinoHoldem {
					assert.Equal(t, fr.Boxes[0].PlayerID, e.Player)
				} else {
					assert.Empty(t, e.Player)
				}
			}
			// The witness's checkpoints: cosigned by the witness's key,
			// at a time before the first round of every session whose
			// entry the checkpoint is the first to cover.
			v, err := fnote.NewVerifierForCosignatureV1(res.WitnessKey)
			require.NoError(t, err)
			lv, err := commitlog.NewVerifier(DefaultLogOrigin, res.Public)
			require.NoError(t, err)
			idx, err := os.ReadFile(filepath.Join(res.Dir, "evidence", "index"))
			require.NoError(t, err)
			sizes := strings.Fields(string(idx))
			require.Len(t, sizes, res.Timed)
			prev := 0
			for _, sz := range sizes {
				n, err := strconv.Atoi(sz)
				require.NoError(t, err)
				raw, err := os.ReadFile(filepath.Join(res.Dir, "evidence", "checkpoint", sz))
				require.NoError(t, err)
				nt, err := note.Open(raw, note.VerifierList(lv, v))
				require.NoError(t, err)
				require.Len(t, nt.Sigs, 2)
				var at time.Time
				for _, sg := range nt.Sigs {
					if sg.Name == DefaultWitnessName {
						at, err = fnote.CoSigV1Timestamp(sg)
						require.NoError(t, err)
					}
				}
				require.False(t, at.IsZero())
				for _, c := range order[prev:n] {
					rt, err := time.Parse(time.RFC3339Nano, first[c].Time)
					require.NoError(t, err)
					assert.True(t, at.Before(rt), "entry of %s cosigned at %s, its first round at %s", first[c].RoundID, at, rt)
				}
				prev = n
			}
			assert.Equal(t, len(order), prev, "every entry is covered by a timed checkpoint")
		})
	}
	t.Run("faults", func(t *testing.T) {
		count := func(f string) (int, *LogResult, int) {
			_, order, res := writeLog(t, Config{Game: round.CasinoHoldem, Rounds: 1200, Seed: 5, Faults: []FaultRate{{f, 0.5}}})
			return len(order), res, len(res.Injections)
		}
		n, res, k := count(FaultCommitmentUnlogged)
		assert.Positive(t, k)
		assert.Equal(t, n-k, res.Entries, "an unlogged session has no entry")
		n, res, k = count(FaultCommitmentFromPool)
		assert.Positive(t, k)
		assert.Equal(t, n+k, res.Entries, "a pool's session has a second entry")
		_, res, k = count(FaultLogSplitView)
		assert.Equal(t, 1, k)
		kept, err := os.ReadFile(res.KeptCheckpoint)
		require.NoError(t, err)
		r, err := commitlog.Open(res.Dir, nil)
		require.NoError(t, err)
		cp, err := r.Checkpoint(ctx, DefaultLogOrigin, res.Public)
		require.NoError(t, err)
		old, err := commitlog.ParseCheckpoint(kept, DefaultLogOrigin, res.Public)
		require.NoError(t, err, "the kept checkpoint is signed by the log's key")
		p, err := r.ConsistencyProof(ctx, old.Size, cp)
		require.NoError(t, err)
		assert.ErrorIs(t, commitlog.VerifyConsistency(old, cp, p), commitlog.ErrVerification, "the log is not an extension of the kept one")
	})
}
