package check

import (
	"crypto/sha256"
	"errors"
	"testing"
	"time"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func names(r Result) map[string]bool {
	m := map[string]bool{}
	for _, c := range r.Checks {
		m[c.Name] = c.OK
	}
	return m
}

func TestRunChecks(t *testing.T) {
	var last seed.Seed
	last[0] = 7
	ch := chain.FromLast(last, 3)
	sd := ch.Links[2]
	commit := sha256.Sum256(sd[:])
	base := Claim{Scheme: scheme.FairholdV1Name, ServerSeed: sd[:], ClientSeeds: []string{"c"}, Nonce: 9, Count: 9}
	dealt, err := scheme.FairholdV1{}.Deal(scheme.Input{ServerSeed: sd[:], ClientSeeds: []string{"c"}, Nonce: 9}, 9)
	require.NoError(t, err)
	swapped := append([]uint8{dealt[1], dealt[0]}, dealt[2:]...)

	tests := []struct {
		name string
		edit func(*Claim)
		want map[string]bool
	}{
		{"commitment", func(c *Claim) { c.Commitment = commit[:] }, map[string]bool{Commitment: true}},
		{"bad commitment", func(c *Claim) { c.Commitment = make([]byte, 32) }, map[string]bool{Commitment: false}},
		{"chain exact", func(c *Claim) { c.ChainAnchor, c.ChainSteps = ch.Links[0][:], 2 }, map[string]bool{Chain: true}},
		{"chain search", func(c *Claim) { c.ChainAnchor = ch.Links[0][:] }, map[string]bool{Chain: true}},
		{"chain bound", func(c *Claim) { c.ChainAnchor, c.MaxSteps = ch.Links[0][:], 1 }, map[string]bool{Chain: false}},
		{"cards", func(c *Claim) { c.Cards = dealt }, map[string]bool{Cards: true}},
		{"cards prefix", func(c *Claim) { c.Cards = dealt[:4] }, map[string]bool{Cards: true}},
		{"cards swapped", func(c *Claim) { c.Cards = swapped }, map[string]bool{Cards: false}},
		{"nonce reused", func(c *Claim) { c.UsedNonces = []uint64{1, 9} }, map[string]bool{NonceUnused: false}},
		{"nonce fresh", func(c *Claim) { c.UsedNonces = []uint64{} }, map[string]bool{NonceUnused: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			tt.edit(&c)
			r, err := Run(c)
			require.NoError(t, err)
			assert.Equal(t, tt.want, names(r))
			ok := true
			for _, v := range tt.want {
				ok = ok && v
			}
			assert.Equal(t, ok, r.Verified)
			assert.Equal(t, dealt, r.Dealt)
		})
	}
}

func TestRunBeaconTime(t *testing.T) {
	sig := []byte{0xb4, 0x46} // wrong length on purpose: malformed
	_, err := Run(Claim{Scheme: scheme.FairholdV1Name, ServerSeed: make([]byte, 32), ClientSeeds: []string{"c"}, Count: 9,
		Beacon: &Beacon{Chain: "quicknet", Round: 1000, Signature: sig}, CommittedAt: time.Unix(0, 0)})
	var me *MalformedError
	require.True(t, errors.As(err, &me))
	assert.Equal(t, "beacon", me.Field)
}

func TestRunMalformed(t *testing.T) {
	ok := Claim{Scheme: scheme.FairholdV1Name, ServerSeed: make([]byte, 32), ClientSeeds: []string{"c"}, Count: 9}
	tests := []struct {
		field string
		edit  func(*Claim)
	}{
		{"scheme", func(c *Claim) { c.Scheme = "x" }},
		{"server_seed", func(c *Claim) { c.ServerSeed = c.ServerSeed[:31] }},
		{"commitment", func(c *Claim) { c.Commitment = []byte{1} }},
		{"chain_anchor", func(c *Claim) { c.ChainAnchor = []byte{1} }},
		{"count", func(c *Claim) { c.Count = 53 }},
		{"cards", func(c *Claim) { c.Cards = []uint8{52} }},
		{"client_seeds", func(c *Claim) { c.ClientSeeds = nil }},
		{"beacon_chain", func(c *Claim) { c.Beacon = &Beacon{Chain: "x", Round: 1, Signature: make([]byte, 48)} }},
		{"count", func(c *Claim) { c.Count = -1 }},
		{"chain_steps", func(c *Claim) { c.ChainAnchor, c.ChainSteps = make([]byte, 32), 1<<40 }},
		{"chain_max_steps", func(c *Claim) { c.ChainAnchor, c.MaxSteps = make([]byte, 32), -1 }},
		{"chain_max_steps", func(c *Claim) { c.ChainAnchor, c.MaxSteps = make([]byte, 32), 1<<40 }},
		{"beacon_round", func(c *Claim) { c.Beacon = &Beacon{Chain: "quicknet", Round: 0, Signature: make([]byte, 48)} }},
		{"beacon_round", func(c *Claim) { c.Beacon = &Beacon{Chain: "quicknet", Round: 1<<64 - 1, Signature: make([]byte, 48)} }},
		{"beacon_previous_signature", func(c *Claim) { c.Beacon = &Beacon{Chain: "default", Round: 1000, Signature: make([]byte, 96)} }},
		{"beacon", func(c *Claim) {
			c.Scheme = scheme.StakeCompatName
			c.Beacon = &Beacon{Chain: "quicknet", Round: 1000, Signature: make([]byte, 48)}
		}},
	}
	for _, tt := range tests {
		c := ok
		tt.edit(&c)
		_, err := Run(c)
		var me *MalformedError
		require.True(t, errors.As(err, &me), tt.field)
		assert.Equal(t, tt.field, me.Field)
		assert.ErrorIs(t, err, ErrMalformed)
	}
}

func TestRunStakeRepeats(t *testing.T) {
	seed := make([]byte, 32)
	r, err := Run(Claim{Scheme: scheme.StakeCompatName, ServerSeed: seed, ClientSeeds: []string{"c"}, Count: 52})
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{NoRepeatedCards: false}, names(r), "52 draws with replacement repeat")
	assert.False(t, r.Verified)
}
