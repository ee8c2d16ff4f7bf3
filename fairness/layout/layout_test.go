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

// The position words are part of the spec (docs/fairness.md, "Naming
// positions"): a JavaScript verifier prints the same.
func TestPosition(t *testing.T) {
	casino, _ := For(CasinoHoldem, 1)
	assert.Equal(t, []string{
		"player, first hole card", "player, second hole card", "dealer, first card", "dealer, second card",
		"flop, first card", "flop, second card", "flop, third card", "turn", "river",
	}, Positions(&casino, nil, 9))
	live, _ := For(LiveCasinoHoldem, 3)
	assert.Equal(t, "box 2, second hole card", Position(&live, nil, 3))
	assert.Equal(t, "box 3, first hole card", Position(&live, nil, 4))
	assert.Equal(t, "dealer, first card", Position(&live, nil, 6))
	assert.Equal(t, "river", Position(&live, nil, 12))
	double, _ := For(DoubleHoldem, 4)
	order, err := SeatOrder([]int{2, 5, 7, 9}, 5)
	require.NoError(t, err)
	assert.Equal(t, []int{7, 9, 2, 5}, order)
	assert.Equal(t, "seat 7, first hole card", Position(&double, order, 0))
	assert.Equal(t, "seat 9, third hole card", Position(&double, order, 5))
	assert.Equal(t, "seat 5, second hole card", Position(&double, order, 10))
	assert.Equal(t, "flop, first card", Position(&double, order, 12))
	assert.Equal(t, "player 2, third hole card", Position(&double, nil, 5))
	assert.Equal(t, "turn", Position(&double, order, 15))
	// The raw sequence, and positions outside the layout.
	assert.Equal(t, "card 7", Position(nil, nil, 6))
	assert.Equal(t, "card 1", Position(nil, nil, 0))
	assert.Equal(t, "card 10", Position(&casino, nil, 9))
}

func TestSeatOrderStrict(t *testing.T) {
	for _, bad := range []struct {
		seats  []int
		button int
		field  string
	}{
		{[]int{5, 2, 7}, 5, "seats"},
		{[]int{2, 2, 7}, 2, "seats"},
		{[]int{}, 1, "seats"},
		{nil, 0, "seats"},
		{[]int{3}, 3, "seats"},
		{[]int{0, 3}, 3, "seats"},
		{[]int{3, 11}, 3, "seats"},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10}, 1, "seats"},
		{[]int{2, 5}, 0, "button"},
		{[]int{2, 5}, 3, "button"},
		{[]int{2, 5}, -1, "button"},
	} {
		_, err := SeatOrder(bad.seats, bad.button)
		var te *TableError
		require.ErrorAs(t, err, &te, "%v/%d", bad.seats, bad.button)
		assert.Equal(t, bad.field, te.Field, "%v/%d", bad.seats, bad.button)
		assert.ErrorIs(t, err, ErrGame)
	}
	got, err := SeatOrder([]int{1, 2, 3}, 1)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 3, 1}, got)
}
