package replayer

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/sim"
)

// TestAdversaryCommitLog: the operator edits the commitment log's files
// and evidence by hand (not with the replay's code), in every game; each
// edit is either a finding or, where it only takes evidence away, a
// warning (a check not made), never a clean pass. The simulator's log
// faults (TestDetectionGuarantee) are the other half.
func TestAdversaryCommitLog(t *testing.T) {
	for _, game := range logGames {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			base := func(t *testing.T) (string, *sim.LogResult) {
				dir, res, inj := simulateLog(t, sim.Config{Game: game, Rounds: logRounds(game), Seed: 11})
				require.Empty(t, inj)
				return dir, res
			}
			codes := func(fs []finding.Finding) map[finding.Code]int {
				out := map[finding.Code]int{}
				for _, f := range fs {
					out[f.Code]++
				}
				return out
			}
			t.Run("evidence-withheld", func(t *testing.T) {
				// No evidence/: nothing shows when the commitments were
				// public. A warning per replay, the sessions counted.
				dir, res := base(t)
				require.NoError(t, os.RemoveAll(filepath.Join(res.Dir, "evidence")))
				sum, fs := replayWithLog(t, dir, logOptions(res, false))
				assert.Empty(t, fs)
				ws := logWarnings(sum)
				require.Len(t, ws, 1)
				assert.Contains(t, ws[0], "no timed checkpoint covers")
				assert.Equal(t, sum.CommitmentLog.Tables[0].Sessions, sum.CommitmentLog.Tables[0].Untimed)
			})
			t.Run("witness-not-trusted", func(t *testing.T) {
				// The operator's own "witness": its cosignatures count for
				// nothing when the auditor does not trust its key.
				dir, res := base(t)
				o := logOptions(res, false)
				o.Trust.Witnesses = nil
				sum, fs := replayWithLog(t, dir, o)
				assert.Empty(t, fs)
				assert.Len(t, logWarnings(sum), 1)
			})
			t.Run("cosignature-backdated", func(t *testing.T) {
				// The operator moves a witness's time an hour back in the
				// cosignature: the signature no longer verifies.
				dir, res := base(t)
				editLastCheckpoint(t, res.Dir, func(sig []byte) {
					ts := binary.BigEndian.Uint64(sig[4:12])
					binary.BigEndian.PutUint64(sig[4:12], ts-3600)
				})
				sum, fs := replayWithLog(t, dir, logOptions(res, false))
				assert.Equal(t, map[finding.Code]int{finding.CommitmentLogInvalid: 1}, codes(fs))
				assert.Contains(t, strings.Join(sum.NotChecked, "\n"), "commitment log")
			})
			t.Run("entry-rebound", func(t *testing.T) {
				// The operator rewrites an entry in place (another table,
				// the same length) without a new checkpoint: the entries
				// no longer hash to the signed root.
				dir, res := base(t)
				bundle := entryBundle(t, res.Dir)
				b, err := os.ReadFile(bundle)
				require.NoError(t, err)
				i := bytes.Index(b, []byte("\ntable "))
				require.Positive(t, i)
				b[i+7] ^= 0x01
				require.NoError(t, os.WriteFile(bundle, b, 0o644))
				_, fs := replayWithLog(t, dir, logOptions(res, false))
				assert.Equal(t, map[finding.Code]int{finding.CommitmentLogInvalid: 1}, codes(fs))
			})
			t.Run("log-re-signed-after-rewrite", func(t *testing.T) {
				// The operator rewrites the log wholesale (its first entry
				// rebound) and signs it again with its key, withholding
				// the witnesses' checkpoints that would contradict it.
				// Without a kept checkpoint: a warning only. With the
				// checkpoint an auditor kept: COMMITMENT_LOG_SPLIT_VIEW.
				dir, res := base(t)
				rewriteLog(t, res, simLogKey(t, res))
				sum, fs := replayWithLog(t, dir, logOptions(res, false))
				assert.Empty(t, fs, "without a kept checkpoint the rewrite is not seen")
				assert.Len(t, logWarnings(sum), 1)
				_, fs = replayWithLog(t, dir, logOptions(res, true))
				assert.Equal(t, map[finding.Code]int{finding.CommitmentLogSplitView: 1}, codes(fs))
			})
			t.Run("commitments-published-in-excess", func(t *testing.T) {
				// Commitments published and never used after the last
				// session: not a finding, counted unused in the summary.
				dir, res := base(t)
				var extra [][]byte
				for k := range 3 {
					c := sha256.Sum256([]byte{byte(k)})
					e := commitlog.Entry{Operator: sim.DefaultOperator, Table: "t-extra", Scheme: commitlog.SchemeFairholdV1, Commitment: &c}
					raw, err := e.Marshal()
					require.NoError(t, err)
					extra = append(extra, raw)
				}
				_, err := commitlog.Append(context.Background(), res.Dir, sim.DefaultLogOrigin, simLogKey(t, res), extra)
				require.NoError(t, err)
				sum, fs := replayWithLog(t, dir, logOptions(res, true))
				assert.Empty(t, fs)
				var unused int64
				for _, tc := range sum.CommitmentLog.Tables {
					unused += tc.Unused
				}
				assert.Equal(t, int64(3), unused)
			})
		})
	}
}

// simLogKey is the simulated log's private key (derived from the seed as
// the simulator derives it: the test checks it signs the log).
func simLogKey(t *testing.T, res *sim.LogResult) ed25519.PrivateKey {
	t.Helper()
	h := sha256.Sum256([]byte("fairhold simulated commitment log key 11"))
	k := ed25519.NewKeyFromSeed(h[:])
	require.Equal(t, res.Public, k.Public().(ed25519.PublicKey))
	return k
}

// editLastCheckpoint edits the witness's cosignature (key hash, then
// timestamp and signature) of the log's largest timed checkpoint.
func editLastCheckpoint(t *testing.T, dir string, edit func(sig []byte)) {
	t.Helper()
	idx, err := os.ReadFile(filepath.Join(dir, "evidence", "index"))
	require.NoError(t, err)
	sizes := strings.Fields(string(idx))
	p := filepath.Join(dir, "evidence", "checkpoint", sizes[len(sizes)-1])
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	last := lines[len(lines)-1]
	require.Contains(t, last, sim.DefaultWitnessName)
	sp := strings.LastIndexByte(last, ' ')
	sig, err := base64.StdEncoding.DecodeString(last[sp+1:])
	require.NoError(t, err)
	edit(sig)
	lines[len(lines)-1] = last[:sp+1] + base64.StdEncoding.EncodeToString(sig)
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
}

// entryBundle returns the path of the log's first entry bundle (full or
// partial).
func entryBundle(t *testing.T, dir string) string {
	t.Helper()
	if p := filepath.Join(dir, "tile", "entries", "000"); fileExists(p) {
		return p
	}
	ms, err := filepath.Glob(filepath.Join(dir, "tile", "entries", "000.p", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, ms)
	return ms[0]
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// rewriteLog writes the log again in a fresh directory with its first
// entry rebound (another operator id), signed by key, without evidence,
// and moves it in place of the old one.
func rewriteLog(t *testing.T, res *sim.LogResult, key ed25519.PrivateKey) {
	t.Helper()
	ctx := context.Background()
	r, err := commitlog.Open(res.Dir, nil)
	require.NoError(t, err)
	cp, err := r.Checkpoint(ctx, sim.DefaultLogOrigin, res.Public)
	require.NoError(t, err)
	var entries [][]byte
	for i := range cp.Size {
		e, err := r.Entry(ctx, cp, i)
		require.NoError(t, err)
		entries = append(entries, bytes.Clone(e))
	}
	e, err := commitlog.Unmarshal(entries[0])
	require.NoError(t, err)
	e.Operator += "-x"
	entries[0], err = e.Marshal()
	require.NoError(t, err)
	fresh := res.Dir + ".rewritten"
	_, err = commitlog.Append(ctx, fresh, sim.DefaultLogOrigin, key, entries)
	require.NoError(t, err)
	require.NoError(t, os.RemoveAll(res.Dir))
	require.NoError(t, os.Rename(fresh, res.Dir))
}
