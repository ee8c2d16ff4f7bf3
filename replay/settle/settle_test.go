package settle

import (
	"encoding/json"
	"errors"
	"fmt"
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

// Diffs names each logged amount that is not the rules', by its field and
// its bet in words; none for a round logged as the rules pay.
func TestDiffs(t *testing.T) {
	r, p := vectorRound(t, "casino-bonus-pair-of-aces")
	r.Currency = "EUR"
	res, err := Round(p, r)
	require.NoError(t, err)
	// The round as the rules pay it: no diff.
	for i, b := range res.Boxes {
		r.Boxes[i].AnteReturn, r.Boxes[i].CallReturn, r.Boxes[i].BonusReturn = b.AnteReturn, b.CallReturn, b.BonusReturn
	}
	d := Diffs(res, r)
	assert.NotNil(t, d)
	assert.Empty(t, d)
	r.Boxes[0].CallReturn++
	r.Boxes[0].BonusReturn += 500
	d = Diffs(res, r)
	require.Len(t, d, 2)
	assert.Equal(t, "boxes[0].call_return", d[0].Field)
	assert.Equal(t, "box 1 CALL", d[0].Bet)
	assert.Equal(t, d[0].Rules+1, d[0].Logged)
	assert.Equal(t, "box 1 AA Bonus", d[1].Bet)
	assert.Regexp(t, `^box 1 AA Bonus: the rules pay EUR [0-9,.]+, the log says EUR [0-9,.]+$`, d[1].Text(r.Currency))
	assert.Contains(t, d[0].Text(""), "(minor units)", "no currency: minor units, said so")

	r, p = vectorRound(t, "double-three-way-all-in-side-pot")
	res, err = Round(p, r)
	require.NoError(t, err)
	for i, s := range r.Double.Seats {
		r.Double.Seats[i].StackAfter = res.Double.StackAfter[s.Seat]
	}
	assert.Empty(t, Diffs(res, r))
	r.Double.Seats[1].StackAfter--
	d = Diffs(res, r)
	require.Len(t, d, 1)
	assert.Equal(t, "double.seats[1].stack_after", d[0].Field)
	assert.Equal(t, fmt.Sprintf("seat %d stack after", r.Double.Seats[1].Seat), d[0].Bet)
	assert.Contains(t, d[0].Text("JPY"), "the rules give JPY ")
}
