package suite

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/certify/report"
	"github.com/fairhold/fairhold/certify/rtp"
	"github.com/fairhold/fairhold/replay/profile"
)

// The attack of hole 5: a custom profile copied from the built-in
// casino-holdem with the max payout per box set to 1 EUR (100 minor
// units) keeps its published claims. The cap binds at every ante the
// table allows; the claims state no ante, so the math-claims requirement
// fails and the certificate is not a pass. The same claims stated at an
// ante where the cap reduces no win (a cap of 10,000 EUR, which binds only
// above ante 9,803; claims at ante 5,000) are decided as the built-in
// profile's are. A full solution: not in -short (package rtp tests the
// decision on a partial one).
func TestMathClaimsUnderPayoutCap(t *testing.T) {
	if testing.Short() {
		t.Skip("solves the whole game")
	}
	dir := t.TempDir()
	write := func(name string, edit func(p *profile.Profile)) {
		p, err := profile.Builtin("casino-holdem")
		require.NoError(t, err)
		p = p.Clone()
		p.Name = "capped"
		edit(p)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), p.Canonical(), 0o644))
	}
	write("capped.json", func(p *profile.Profile) { p.Casino.Limits.MaxPayoutPerBox = 100 })
	write("stated.json", func(p *profile.Profile) {
		p.Casino.Limits.MaxPayoutPerBox = 1_000_000
		for i := range p.RTPClaims {
			p.RTPClaims[i].AtAnte = 5000
		}
	})
	run := func(prof string) (*Result, *rtp.Math) {
		doc := `{"name":"cap","game":"casino-holdem","profile":"` + prof + `","requirements":[
{"id":"math.claims","text":"published RTP reproduced","check":"math-claims","params":{"basic_strategy":"pair-jack-draw"}}]}`
		file := filepath.Join(dir, "suite.json")
		require.NoError(t, os.WriteFile(file, []byte(doc), 0o644))
		s, err := Load(file)
		require.NoError(t, err)
		res, err := Run(context.Background(), s, Options{})
		require.NoError(t, err)
		require.Len(t, res.Requirements, 1)
		var m rtp.Math
		require.NoError(t, json.Unmarshal(res.Requirements[0].Evidence.Result, &m))
		return res, &m
	}

	res, m := run("capped.json")
	req := res.Requirements[0]
	assert.Equal(t, report.Fail, req.Status, req.Evidence.Summary)
	assert.NotEqual(t, report.VerdictPass, report.Decide(res.Requirements))
	assert.Contains(t, req.Evidence.Summary, "main-optimal claimed 99.18% at no stated ante: not reproduced, the payout cap (100 per box, winnings) binds above ante 0")
	byName := claimsByName(m)
	assert.Equal(t, rtp.ClaimFail, byName["main-optimal"].Status)
	assert.True(t, byName["main-optimal"].CapUnstated)
	assert.NotEqual(t, "99.18", byName["main-optimal"].Computed)
	assert.Equal(t, rtp.ClaimPass, byName["aa-bonus-side-bet-optimal"].Status, "the cap does not touch a bonus whose every win is collected")

	// Stated at ante 5,000, below where the cap binds: each claim is
	// decided as the built-in profile's is (its aa-bonus-optimal 90.9%
	// does not reproduce either way).
	base, bm := run("casino-holdem")
	res, m = run("stated.json")
	assert.Equal(t, base.Requirements[0].Status, res.Requirements[0].Status, res.Requirements[0].Evidence.Summary)
	require.Len(t, m.Claims, len(bm.Claims))
	for i, c := range m.Claims {
		b := bm.Claims[i]
		assert.Equal(t, b.Name, c.Name)
		assert.Equal(t, b.Status, c.Status, c.Name)
		assert.Equal(t, b.ComputedExact, c.ComputedExact, c.Name)
		assert.False(t, c.CapUnstated, c.Name)
		assert.EqualValues(t, 5000, c.AtAnte, c.Name)
		assert.Contains(t, c.Note, "at ante 5000, where the payout cap reduces no win", c.Name)
	}
	assert.Equal(t, rtp.ClaimPass, claimsByName(m)["main-optimal"].Status)
}

func claimsByName(m *rtp.Math) map[string]rtp.Claim {
	out := map[string]rtp.Claim{}
	for _, c := range m.Claims {
		out[c.Name] = c
	}
	return out
}
