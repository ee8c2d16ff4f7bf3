package receipt_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Clean receipts of a clean simulated log give no finding, in every game.
func TestReconcileClean(t *testing.T) {
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			rs := honest(t, g, 600, 7)
			recs := issue(t, rs)
			fs, sum := reconcile(t, rs, recs)
			assert.Empty(t, fs)
			assert.Equal(t, len(recs), sum.Receipts)
			assert.Equal(t, sum.Receipts, sum.Matched)
			assert.EqualValues(t, len(rs), sum.Rounds)
			require.Greater(t, sum.Players, 1)
			t.Logf("%s: %d rounds, %d receipts, %d players", g, sum.Rounds, sum.Receipts, sum.Players)
		})
	}
}
