package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/settle"
	"github.com/fairhold/fairhold/vectors"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vectorRound writes the round of the named rules vector to a file.
func vectorRound(t *testing.T, id string) (string, vectors.RulesVector) {
	t.Helper()
	vs, err := vectors.Rules()
	require.NoError(t, err)
	for _, v := range vs {
		if v.ID == id {
			f := filepath.Join(t.TempDir(), id+".json")
			require.NoError(t, os.WriteFile(f, v.Round, 0o644))
			return f, v
		}
	}
	t.Fatalf("no rules vector %s", id)
	return "", vectors.RulesVector{}
}

func TestSettleCasino(t *testing.T) {
	f, v := vectorRound(t, "casino-bonus-pair-of-aces")
	want := v.Expect.Boxes[0]
	out, stderr, code := rulesRun("", "settle", "--profile", "casino-holdem", f, "--json")
	require.Equal(t, 0, code, stderr)
	var got settle.Result
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got.Boxes, 1)
	b := got.Boxes[0]
	assert.Equal(t, []any{want.AnteReturn, want.CallReturn, want.BonusReturn, want.Reason, want.BonusReason},
		[]any{b.AnteReturn, b.CallReturn, b.BonusReturn, b.Reason, b.BonusReason})
	assert.Equal(t, want.Ante+want.Call+want.Bonus, got.Totals.Staked)
	assert.Equal(t, want.AnteReturn+want.CallReturn+want.BonusReturn, got.Totals.Returned)

	// Text output, profile taken from the round, round read from stdin.
	round, err := os.ReadFile(f)
	require.NoError(t, err)
	out, stderr, code = rulesRun(string(round), "settle", "-")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "aa-bonus  100    800     bonus-won")
	assert.Contains(t, out, casino.ReasonDealerNotQualified)
}

func TestSettleDouble(t *testing.T) {
	f, v := vectorRound(t, "double-three-way-all-in-side-pot")
	out, stderr, code := rulesRun("", "settle", "--profile", "double-holdem", f, "--json")
	require.Equal(t, 0, code, stderr)
	var got settle.Result
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.NotNil(t, got.Double)
	require.Len(t, got.Double.Pots, len(v.Expect.Double.Pots))
	for i, p := range v.Expect.Double.Pots {
		assert.Equal(t, p.Amount, got.Double.Pots[i].Amount)
		assert.Equal(t, p.Winners, got.Double.Pots[i].Winners)
	}
	assert.Equal(t, got.Totals.Staked, got.Totals.Returned+got.Totals.Rake, "chips conserved")
	out, _, code = rulesRun("", "settle", f)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "side pot 1")
}

func TestSettleBadInput(t *testing.T) {
	illegal, _ := vectorRound(t, "double-error-check-facing-bet")
	dup, _ := vectorRound(t, "casino-error-duplicate-card")
	good, _ := vectorRound(t, "casino-table-tie")
	dir := t.TempDir()
	badJSON := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(badJSON, []byte(`{"round_id": 7}`), 0o644))
	unknown := filepath.Join(dir, "unknown.json")
	require.NoError(t, os.WriteFile(unknown, []byte(`{"round_id": "x", "shoe": 1}`), 0o644))
	empty := filepath.Join(dir, "empty.json")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	array := filepath.Join(dir, "array.json")
	require.NoError(t, os.WriteFile(array, []byte(`[]`), 0o644))
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"illegal action", []string{"settle", illegal}, "action 5 (seat 1, flop, check): check facing a bet"},
		{"duplicate card", []string{"settle", dup}, "board[0]: card As dealt twice"},
		{"wrong type", []string{"settle", badJSON}, "round_id"},
		{"unknown field", []string{"settle", unknown}, `unknown field "shoe"`},
		{"bad profile", []string{"settle", "--profile", "no-such", good}, "no such built-in profile"},
		{"wrong game", []string{"settle", "--profile", "live-casino-holdem", good}, "game: \"casino-holdem\""},
		{"empty file", []string{"settle", empty}, "empty; want one JSON round"},
		{"not an object", []string{"settle", array}, "got a JSON array, want an object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := rulesRun("", c.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.True(t, strings.Contains(stderr, c.want), "stderr %q lacks %q", stderr, c.want)
		})
	}
	// A file that does not exist is an error of the environment (exit 1).
	out, stderr, code := rulesRun("", "settle", filepath.Join(dir, "none.json"))
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "none.json")
}
