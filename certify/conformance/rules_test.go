package conformance

import (
	"testing"

	"github.com/fairhold/fairhold/vectors"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRulesVectors(t *testing.T) {
	vs, err := vectors.Rules()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(vs), 120, "the issue asks for at least 120 rules scenarios")
	for _, v := range vs {
		t.Run(v.ID, func(t *testing.T) {
			t.Parallel()
			assert.NoError(t, CheckRules(v), "%s: %s", v.File, v.Description)
		})
	}
}

func TestRunRulesAllPass(t *testing.T) {
	res, err := RunRules()
	require.NoError(t, err)
	games := map[string]int{}
	for _, r := range res {
		assert.True(t, r.Pass, "%s: %s", r.ID, r.Detail)
		games[r.Game]++
	}
	for _, g := range []string{"casino-holdem", "live-casino-holdem", "double-holdem"} {
		assert.Positive(t, games[g], "no vectors for %s", g)
	}
}
