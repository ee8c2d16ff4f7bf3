package commitments

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/finding"
)

const testOrigin = "test.example/log"

func key32(s string) [32]byte { return sha256.Sum256([]byte(s)) }

// writeLog appends entries to a fresh log and returns its directory, key
// and the checkpoint after each append.
func writeLog(t *testing.T, batches ...[]commitlog.Entry) (string, ed25519.PrivateKey, [][]byte) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "log")
	_, priv, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	var cps [][]byte
	for _, b := range batches {
		var raws [][]byte
		for i := range b {
			raw, err := b[i].Marshal()
			require.NoError(t, err)
			raws = append(raws, raw)
		}
		res, err := commitlog.Append(context.Background(), dir, testOrigin, priv, raws)
		require.NoError(t, err)
		cps = append(cps, res.Checkpoint.Raw)
	}
	return dir, priv, cps
}

func seedEntry(table, player, commit string, nonce uint64) commitlog.Entry {
	k := key32(commit)
	return commitlog.Entry{Operator: "op", Table: table, Player: player, Scheme: commitlog.SchemeFairholdV1, Commitment: &k, FirstNonce: nonce}
}

func session(table, player, commit, id string) Session {
	return Session{Key: key32(commit), Table: table, Player: player, Scheme: commitlog.SchemeFairholdV1, RoundID: id,
		Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), TimeOK: true}
}

func load(t *testing.T, dir string, priv ed25519.PrivateKey, old ...[]byte) *Log {
	t.Helper()
	o := Options{Location: dir, Key: priv.Public().(ed25519.PublicKey)}
	for _, raw := range old {
		o.Old = append(o.Old, OldCheckpoint{Name: "kept", Raw: raw})
	}
	l, err := Load(context.Background(), o)
	require.NoError(t, err)
	return l
}

type got struct {
	code   finding.Code
	round  string
	detail string
}

func hits(fs []finding.Finding) []got {
	var out []got
	for _, f := range fs {
		out = append(out, got{f.Code, f.RoundID, f.Detail})
	}
	return out
}

// TestCommitmentsMisbound: each field of the entry that differs from the
// session is one finding naming it.
func TestCommitmentsMisbound(t *testing.T) {
	beacon := seedEntry("t1", "", "b", 0)
	beacon.BeaconChain, beacon.BeaconRound = commitlog.BeaconQuicknet, 1000
	stake := seedEntry("t1", "", "s", 0)
	stake.Scheme = commitlog.SchemeStakeCompat
	anchor := key32("c")
	chain := commitlog.Entry{Operator: "op", Table: "t1", Scheme: commitlog.SchemeFairholdV1, ChainAnchor: &anchor}
	dir, priv, _ := writeLog(t, []commitlog.Entry{
		seedEntry("t2", "", "table", 0), seedEntry("t1", "p2", "player", 0), seedEntry("t1", "", "nonce", 5),
		beacon, stake, chain, seedEntry("t1", "", "ok", 0),
	})
	l := load(t, dir, priv)
	require.True(t, l.Usable)
	res := l.Check([]Session{
		session("t1", "", "table", "r1"), session("t1", "", "player", "r2"), session("t1", "", "nonce", "r3"),
		session("t1", "", "b", "r4"), session("t1", "", "s", "r5"), session("t1", "", "c", "r6"), session("t1", "", "ok", "r7"),
	})
	assert.Equal(t, []got{
		{finding.CommitmentMisbound, "r1", "table"},
		{finding.CommitmentMisbound, "r2", "player"},
		{finding.CommitmentMisbound, "r3", "first-nonce"},
		{finding.CommitmentMisbound, "r4", "beacon"},
		{finding.CommitmentMisbound, "r5", "scheme"},
		{finding.CommitmentMisbound, "r6", "chain-anchor"},
	}, hits(res.Findings))
	// Without evidence, every session's timing is a check not made.
	require.Len(t, res.Warnings, 1)
	assert.Contains(t, res.Warnings[0], "7 seed session(s)")

	l.opts.Operator = "other"
	for i := range l.entries {
		l.entries[i].used = false
	}
	res = l.Check([]Session{session("t1", "", "ok", "r7")})
	assert.Equal(t, []got{{finding.CommitmentMisbound, "r7", "operator"}}, hits(res.Findings))
}

// TestCommitmentsOrder: a stream's sessions use its entries one after the
// other; a skip and a step back are findings, entries published before the
// stream's first session in the replay and after its last are not, and
// the summary counts them.
func TestCommitmentsOrder(t *testing.T) {
	var es []commitlog.Entry
	for _, c := range []string{"a0", "a1", "a2", "a3", "a4", "a5", "a6"} {
		es = append(es, seedEntry("t1", "p1", c, 0))
	}
	es = append(es, seedEntry("t1", "p2", "b0", 0), seedEntry("t1", "p2", "b1", 0))
	dir, priv, _ := writeLog(t, es)
	l := load(t, dir, priv)
	res := l.Check([]Session{
		session("t1", "p1", "a1", "r1"), // a0 before: not a finding
		session("t1", "p2", "b0", "r2"),
		session("t1", "p1", "a3", "r3"), // skips a2
		session("t1", "p1", "a2", "r4"), // back to a2
		session("t1", "p1", "a4", "r5"), // not the next after a2 (a3, used earlier, is)
		session("t1", "p2", "b1", "r6"),
		session("t1", "p1", "zz", "r7"), // not logged
	})
	assert.Equal(t, []got{
		{finding.CommitmentOutOfOrder, "r3", `table "t1", player "p1"`},
		{finding.CommitmentOutOfOrder, "r4", `table "t1", player "p1"`},
		{finding.CommitmentOutOfOrder, "r5", `table "t1", player "p1"`},
		{finding.CommitmentUnlogged, "r7", "commitment " + shortHex(func() []byte { k := key32("zz"); return k[:] }())},
	}, hits(res.Findings))
	require.Len(t, res.Tables, 1)
	assert.Equal(t, TableCommitments{Table: "t1", Sessions: 7, Logged: 6, Published: 9, Used: 6, Unused: 3, Skipped: 0, Untimed: 6}, res.Tables[0])
}

// TestCommitmentsSkippedCount: an unused entry between two used ones of a
// stream is counted skipped.
func TestCommitmentsSkippedCount(t *testing.T) {
	dir, priv, _ := writeLog(t, []commitlog.Entry{seedEntry("t", "", "x0", 0), seedEntry("t", "", "x1", 0), seedEntry("t", "", "x2", 0), seedEntry("t", "", "x3", 0)})
	res := load(t, dir, priv).Check([]Session{session("t", "", "x0", "r1"), session("t", "", "x2", "r2")})
	assert.Equal(t, []got{{finding.CommitmentOutOfOrder, "r2", `table "t"`}}, hits(res.Findings))
	assert.Equal(t, int64(1), res.Tables[0].Skipped)
	assert.Equal(t, int64(2), res.Tables[0].Unused)
}

// TestCommitmentsLogProblems: a log under another key is invalid; a kept
// checkpoint of another log, or of a longer one, is a split view; a kept
// checkpoint of the log's own past is none.
func TestCommitmentsLogProblems(t *testing.T) {
	dir, priv, cps := writeLog(t, []commitlog.Entry{seedEntry("t", "", "x0", 0)}, []commitlog.Entry{seedEntry("t", "", "x1", 0)})
	l := load(t, dir, priv, cps[0])
	assert.True(t, l.Usable)
	assert.Empty(t, l.LogFindings())

	_, other, _ := ed25519.GenerateKey(nil)
	l, err := Load(context.Background(), Options{Location: dir, Key: other.Public().(ed25519.PublicKey)})
	require.NoError(t, err)
	assert.False(t, l.Usable)
	fs := l.LogFindings()
	require.Len(t, fs, 1)
	assert.Equal(t, finding.CommitmentLogInvalid, fs[0].Code)

	// Another log under the same key and origin: its first entry differs.
	dir2, _, _ := func() (string, ed25519.PrivateKey, [][]byte) {
		d := filepath.Join(t.TempDir(), "log2")
		e := seedEntry("t", "", "y0", 0)
		raw, err := e.Marshal()
		require.NoError(t, err)
		res, err := commitlog.Append(context.Background(), d, testOrigin, priv, [][]byte{raw})
		require.NoError(t, err)
		return d, priv, [][]byte{res.Checkpoint.Raw}
	}()
	r2, err := commitlog.Open(dir2, nil)
	require.NoError(t, err)
	cp2, err := r2.Checkpoint(context.Background(), testOrigin, priv.Public().(ed25519.PublicKey))
	require.NoError(t, err)
	l = load(t, dir, priv, cp2.Raw)
	fs = l.LogFindings()
	require.Len(t, fs, 1)
	assert.Equal(t, finding.CommitmentLogSplitView, fs[0].Code)

	// A kept checkpoint larger than the log: it shrank.
	l = load(t, dir2, priv, cps[1])
	fs = l.LogFindings()
	require.Len(t, fs, 1)
	assert.Equal(t, finding.CommitmentLogSplitView, fs[0].Code)
	assert.Contains(t, fs[0].Detail, "shrank")

	// A kept checkpoint that is none is the auditor's mistake.
	_, err = Load(context.Background(), Options{Location: dir, Key: priv.Public().(ed25519.PublicKey), Old: []OldCheckpoint{{Name: "bad", Raw: []byte("not a checkpoint\n")}}})
	assert.ErrorIs(t, err, ErrUsage)
}
