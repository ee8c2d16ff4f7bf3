package settle

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/vectors"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func vectorRound(t *testing.T, id string) (*round.Round, *profile.Profile) {
	t.Helper()
	vs, err := vectors.Rules()
	require.NoError(t, err)
	for _, v := range vs {
		if v.ID == id {
			var r round.Round
			require.NoError(t, json.Unmarshal(v.Round, &r))
			p, err := profile.Builtin(v.Game)
			require.NoError(t, err)
			return &r, p
		}
	}
	t.Fatalf("no rules vector %s", id)
	return nil, nil
}

func TestRoundTotals(t *testing.T) {
	r, p := vectorRound(t, "casino-bonus-pair-of-aces")
	res, err := Round(p, r)
	require.NoError(t, err)
	var staked, returned int64
	for _, b := range res.Boxes {
		staked += b.Ante + b.Call + b.Bonus
		returned += b.AnteReturn + b.CallReturn + b.BonusReturn
	}
	assert.Equal(t, Totals{Staked: staked, Returned: returned}, res.Totals)
	assert.Equal(t, p.Hash(), res.ProfileHash)

	r, p = vectorRound(t, "double-three-way-all-in-side-pot")
	res, err = Round(p, r)
	require.NoError(t, err)
	require.NotNil(t, res.Double)
	assert.Equal(t, res.Totals.Staked, res.Totals.Returned+res.Totals.Rake, "chips are conserved")
}

func TestRoundUnsettled(t *testing.T) {
	r, p := vectorRound(t, "casino-bonus-pair-of-aces")
	r.Boxes = nil
	_, err := Round(p, r)
	var ue *UnsettledError
	require.True(t, errors.As(err, &ue), "%v", err)
	assert.Equal(t, ue.Err.Error(), err.Error())
}
