package layout

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewDeal(t *testing.T) {
	names := []string{"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10"}
	d, err := NewDeal(nil, nil, names[:3])
	require.NoError(t, err)
	assert.Equal(t, Deal{Draws: names[:3]}, d)

	l, err := For(DoubleHoldem, 2)
	require.NoError(t, err)
	d, err = NewDeal(&l, []int{7, 2}, names)
	require.NoError(t, err)
	assert.Equal(t, Deal{Seats: []Seat{{7, names[0:3]}, {2, names[3:6]}}, Flop: names[6:9], Turn: "c9", River: "c10"}, d)
	_, err = NewDeal(&l, []int{7}, names)
	assert.True(t, errors.Is(err, ErrGame), "%v", err)

	l, err = For(CasinoHoldem, 1)
	require.NoError(t, err)
	d, err = NewDeal(&l, nil, names[:9])
	require.NoError(t, err)
	assert.Equal(t, Deal{Player: names[0:2], Dealer: names[2:4], Flop: names[4:7], Turn: "c7", River: "c8"}, d)
}
