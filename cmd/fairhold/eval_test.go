package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEvalBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"duplicate", []string{"As", "Ks", "As", "Js", "Ts"}, "As"},
		{"duplicate other notation", []string{"Td", "10d", "2c", "3c", "4c"}, "Td"},
		{"unknown rank", []string{"1x", "Ks", "Qs", "Js", "Ts"}, "1x"},
		{"unknown suit", []string{"As", "Kx", "Qs", "Js", "Ts"}, "Kx"},
		{"too short token", []string{"As", "K", "Qs", "Js", "Ts"}, `"K"`},
		{"four cards", []string{"As", "Ks", "Qs", "Js"}, "got 4 cards"},
		{"eight cards", []string{"As Ks Qs Js Ts 9s 8s 7s"}, "got 8 cards"},
		{"empty", nil, "got 0 cards"},
		{"empty string", []string{""}, "got 0 cards"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(append([]string{"eval"}, tc.args...)...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tc.want)
		})
	}
}

func TestEvalGoodInput(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		category string
		best     string
	}{
		{[]string{"As", "Ks", "Qs", "Js", "Ts"}, "royal-flush", "As Ks Qs Js Ts"},
		{[]string{"Ah Ad 7c 7d 2s 3h 9c"}, "two-pair", "Ah Ad 7d 7c 9c"},
		{[]string{"5d,4c,As,3h,2h,Kd"}, "straight", "5d 4c 3h 2h As"},
		{[]string{"10h", "9♠", "8h", "7h", "6h", "2c", "2d"}, "straight", "Th 9s 8h 7h 6h"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cs, err := card.ParseList(strings.Join(tc.args, " "))
			require.NoError(t, err)
			want, err := hand.Eval(cs...)
			require.NoError(t, err)

			stdout, stderr, code := runCLI(append([]string{"eval"}, tc.args...)...)
			require.Equal(t, exitOK, code, stderr)
			assert.Contains(t, stdout, "category:   "+tc.category+"\n")
			assert.Contains(t, stdout, "best five:  "+tc.best+"\n")
			assert.Contains(t, stdout, "Cactus Kev "+itoa(want.CactusKev()))

			stdout, stderr, code = runCLI(append([]string{"eval", "--json"}, tc.args...)...)
			require.Equal(t, exitOK, code, stderr)
			var res hand.Evaluation
			require.NoError(t, json.Unmarshal([]byte(stdout), &res))
			assert.Equal(t, tc.category, res.Category)
			assert.Equal(t, int(want), res.Value)
			assert.Equal(t, want.CactusKev(), res.CactusKev)
			assert.Equal(t, strings.Fields(tc.best), res.BestFive)
			assert.Equal(t, card.Strings(cs), res.Cards)
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
