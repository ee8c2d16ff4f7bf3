package layout

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestForCountsAndCoverage(t *testing.T) {
	tests := []struct {
		game      string
		hands     int
		per, want int
		dealer    bool
	}{
		{CasinoHoldem, 1, 2, 9, true},
		{LiveCasinoHoldem, 1, 2, 9, true},
		{LiveCasinoHoldem, 6, 2, 19, true},
		{DoubleHoldem, 2, 3, 11, false},
		{DoubleHoldem, 10, 3, 35, false},
	}
	for _, tt := range tests {
		l, err := For(tt.game, tt.hands)
		require.NoError(t, err)
		assert.Equal(t, tt.want, l.Count, "%s/%d", tt.game, tt.hands)
		// Every position 0..Count-1 is used exactly once.
		seen := make([]int, l.Count)
		for _, h := range l.Hands {
			assert.Len(t, h, tt.per)
			for _, p := range h {
				seen[p]++
			}
		}
		assert.Equal(t, tt.dealer, l.Dealer != nil)
		for _, p := range append(l.Dealer, l.Board()...) {
			seen[p]++
		}
		for p, n := range seen {
			assert.Equal(t, 1, n, "%s/%d position %d", tt.game, tt.hands, p)
		}
	}
}

func TestForCasinoHoldemOrder(t *testing.T) {
	l, err := For(CasinoHoldem, 1)
	require.NoError(t, err)
	c, err := Split(l, []string{"p1", "p2", "d1", "d2", "f1", "f2", "f3", "t", "r"})
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"p1", "p2"}}, c.Hands)
	assert.Equal(t, []string{"d1", "d2"}, c.Dealer)
	assert.Equal(t, []string{"f1", "f2", "f3"}, c.Flop)
	assert.Equal(t, "t", c.Turn)
	assert.Equal(t, "r", c.River)
}

func TestForDoubleHoldemOrder(t *testing.T) {
	l, err := For(DoubleHoldem, 2)
	require.NoError(t, err)
	c, err := Split(l, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	require.NoError(t, err)
	assert.Equal(t, [][]int{{0, 1, 2}, {3, 4, 5}}, c.Hands)
	assert.Nil(t, c.Dealer)
	assert.Equal(t, []int{6, 7, 8}, c.Flop)
	assert.Equal(t, 10, c.River)
	_, err = Split(l, []int{1, 2})
	assert.ErrorIs(t, err, ErrGame)
}

func TestForErrors(t *testing.T) {
	for _, tt := range []struct {
		game  string
		hands int
	}{{"poker", 1}, {CasinoHoldem, 2}, {CasinoHoldem, 0}, {LiveCasinoHoldem, 7}, {DoubleHoldem, 1}, {DoubleHoldem, 11}} {
		_, err := For(tt.game, tt.hands)
		assert.ErrorIs(t, err, ErrGame, "%s/%d", tt.game, tt.hands)
	}
}

func TestDealingOrder(t *testing.T) {
	tests := []struct {
		seats  []int
		button int
		want   []int
	}{
		{[]int{1, 2, 3}, 1, []int{2, 3, 1}},
		{[]int{1, 2, 3}, 3, []int{1, 2, 3}},
		{[]int{9, 2, 5, 7}, 5, []int{7, 9, 2, 5}},
		{[]int{4, 10}, 10, []int{4, 10}},
	}
	for _, tt := range tests {
		got, err := DealingOrder(tt.seats, tt.button)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}
	for _, bad := range []struct {
		seats  []int
		button int
	}{{[]int{1}, 1}, {[]int{1, 2}, 3}, {[]int{1, 1}, 1}, {[]int{0, 1}, 1}, {[]int{1, 11}, 1}} {
		_, err := DealingOrder(bad.seats, bad.button)
		assert.ErrorIs(t, err, ErrGame, "%v/%d", bad.seats, bad.button)
	}
}
