package receipt_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/commitlog"
	"github.com/fairhold/fairhold/replay/receipt"
	"github.com/fairhold/fairhold/replay/round"
)

// The commitment log's indices reach the receipts: a session's
// commitment appended to the log at index 1 is the index of every receipt
// of the session; a commitment not in the log gives none.
func TestCommitmentIndexes(t *testing.T) {
	rs := honest(t, round.CasinoHoldem, 30, 4)
	// The first two players' seed sessions; the third player's is not
	// published.
	var commitments []string
	for _, r := range rs {
		if len(commitments) < 3 && (len(commitments) == 0 || commitments[len(commitments)-1] != r.Fairness.Commitment) {
			commitments = append(commitments, r.Fairness.Commitment)
		}
	}
	require.Len(t, commitments, 3)
	var entries [][]byte
	for _, c := range commitments[:2] {
		var h [32]byte
		b, err := hex.DecodeString(c)
		require.NoError(t, err)
		copy(h[:], b)
		e := &commitlog.Entry{Operator: "casino.example", Table: "rng-1", Scheme: commitlog.SchemeFairholdV1, Commitment: &h}
		enc, err := e.Marshal()
		require.NoError(t, err)
		entries = append(entries, enc)
	}
	dir := filepath.Join(t.TempDir(), "commitments")
	_, err := commitlog.Append(context.Background(), dir, "casino.example/commitments", testKey(), entries)
	require.NoError(t, err)
	idx, err := receipt.CommitmentIndexes(context.Background(), dir, "", testKey().Public().(ed25519.PublicKey))
	require.NoError(t, err)
	assert.Equal(t, map[string]uint64{commitments[0]: 0, commitments[1]: 1}, idx)

	s, err := receipt.NewSigner(testOperator, testKey())
	require.NoError(t, err)
	v, err := receipt.NewVerifier(testOperator, testKey().Public().(ed25519.PublicKey))
	require.NoError(t, err)
	seen := map[string]bool{}
	for i := range rs {
		_, notes, err := receipt.IssueRound(&rs[i], s, func(c string) (uint64, bool) { x, ok := idx[c]; return x, ok })
		require.NoError(t, err)
		for _, n := range notes {
			rc, err := v.Open(n)
			require.NoError(t, err)
			want, ok := idx[rc.Commitment]
			if ok {
				require.NotNil(t, rc.CommitmentIndex, rc.Round)
				assert.Equal(t, want, *rc.CommitmentIndex)
			} else {
				assert.Nil(t, rc.CommitmentIndex, rc.Round)
			}
			seen[rc.Commitment] = true
		}
	}
	assert.True(t, seen[commitments[2]], "a receipt of the unpublished session")
	_, err = receipt.CommitmentIndexes(context.Background(), dir, "", ed25519.PublicKey(make([]byte, 32)))
	assert.Error(t, err, "another key")
}
