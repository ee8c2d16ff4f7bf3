package receipt_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/receipt"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
	"github.com/fairhold/fairhold/replay/sim"
)

// testOperator and testKey are the operator of the tests (not the
// published vectors' key, vectors/receipts).
const testOperator = "casino.example/receipts"

func testKey() ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("fairhold receipts test key"))
	return ed25519.NewKeyFromSeed(seed[:])
}

// honest simulates an honest operator and returns deep copies of its
// rounds, the log as written.
func honest(t testing.TB, game string, rounds int64, seed uint64) []round.Round {
	t.Helper()
	s, err := sim.New(sim.Config{Game: game, Rounds: rounds, Seed: seed})
	require.NoError(t, err)
	var out []round.Round
	for !s.Done() {
		r, inj, err := s.Next()
		require.NoError(t, err)
		require.Empty(t, inj)
		out = append(out, clone(t, r))
	}
	return out
}

// clone deep-copies a round through its JSON form.
func clone(t testing.TB, r *round.Round) round.Round {
	t.Helper()
	b, err := json.Marshal(r)
	require.NoError(t, err)
	var c round.Round
	require.NoError(t, json.Unmarshal(b, &c))
	return c
}

func cloneLog(t testing.TB, rs []round.Round) []round.Round {
	out := make([]round.Round, len(rs))
	for i := range rs {
		out[i] = clone(t, &rs[i])
	}
	return out
}

// writeLog writes rs as a JSON Lines round log and returns its path.
func writeLog(t testing.TB, rs []round.Round) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "log.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	w, err := roundlog.NewJSONLWriter(f)
	require.NoError(t, err)
	for i := range rs {
		require.NoError(t, w.Write(&rs[i]))
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	return path
}

// issue signs every player's receipt of every round of rs, through the
// receipts-file form (one file's lines), and reads them back verified.
func issue(t testing.TB, rs []round.Round) []receipt.Signed {
	t.Helper()
	s, err := receipt.NewSigner(testOperator, testKey())
	require.NoError(t, err)
	var file bytes.Buffer
	for i := range rs {
		_, notes, err := receipt.IssueRound(&rs[i], s, nil)
		require.NoError(t, err)
		for _, n := range notes {
			file.Write(receipt.EncodeLine(n))
		}
	}
	v, err := receipt.NewVerifier(testOperator, testKey().Public().(ed25519.PublicKey))
	require.NoError(t, err)
	out, err := receipt.Read(&file, "receipts.jsonl", v)
	require.NoError(t, err)
	return out
}

// reconcile reconciles receipts with the log rs.
func reconcile(t testing.TB, rs []round.Round, receipts []receipt.Signed) ([]finding.Finding, *receipt.Summary) {
	t.Helper()
	ds, err := roundlog.Open(writeLog(t, rs))
	require.NoError(t, err)
	defer ds.Close()
	var fs []finding.Finding
	sum, err := receipt.Reconcile(ds, receipts, func(f *finding.Finding) error {
		fs = append(fs, *f)
		return nil
	})
	require.NoError(t, err)
	return fs, sum
}

var games = []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem}
