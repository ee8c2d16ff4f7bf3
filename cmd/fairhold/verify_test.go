package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const workedCommitment = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"

func verifyArgs(extra ...string) []string {
	return append([]string{"verify", "--server-seed", workedSeed, "--client-seed", "player-seed-1", "--nonce", "1",
		"--game", "casino-holdem", "--json"}, extra...)
}

func dealtCards(t *testing.T) []string {
	t.Helper()
	out, stderr, code := runCLI("deal", "--game", "casino-holdem", "--server-seed", workedSeed, "--client-seed", "player-seed-1", "--nonce", "1", "--json")
	require.Equal(t, 0, code, stderr)
	var d check.Dealt
	require.NoError(t, json.Unmarshal([]byte(out), &d))
	c := d.Cards
	return append(append(append(append([]string{}, c.Player...), c.Dealer...), c.Flop...), c.Turn, c.River)
}

func TestVerify(t *testing.T) {
	cards := dealtCards(t)
	swapped := append([]string{}, cards...)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	tests := []struct {
		name     string
		extra    []string
		code     int
		verified bool
		checks   map[string]bool
	}{
		{"commitment", []string{"--commitment", workedCommitment}, 0, true, map[string]bool{"commitment": true}},
		{"commitment and cards", []string{"--commitment", workedCommitment, "--cards", strings.Join(cards, " ")}, 0, true,
			map[string]bool{"commitment": true, "cards": true}},
		{"wrong commitment", []string{"--commitment", flip(workedCommitment, 5)}, 3, false, map[string]bool{"commitment": false}},
		{"swapped cards", []string{"--commitment", workedCommitment, "--cards", strings.Join(swapped, " ")}, 3, false,
			map[string]bool{"commitment": true, "cards": false}},
		{"reused nonce", []string{"--used-nonces", "0,1,2"}, 3, false, map[string]bool{"nonce-unused": false}},
		{"fresh nonce", []string{"--used-nonces", "0,2"}, 0, true, map[string]bool{"nonce-unused": true}},
		{"beacon after commitment", []string{"--beacon-round", "1000", "--beacon-signature", quicknetSig, "--committed-at", "2023-08-23T15:59:00Z"}, 0, true,
			map[string]bool{"beacon-signature": true, "beacon-after-commitment": true}},
		{"beacon before commitment", []string{"--beacon-round", "1000", "--beacon-signature", quicknetSig, "--committed-at", "2023-08-23T16:00:00Z"}, 3, false,
			map[string]bool{"beacon-signature": true, "beacon-after-commitment": false}},
		{"bad beacon", []string{"--beacon-round", "1000", "--beacon-signature", flip(quicknetSig, 9), "--cards", strings.Join(cards, " ")}, 3, false,
			map[string]bool{"beacon-signature": false, "cards": false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := runCLI(verifyArgs(tt.extra...)...)
			require.Equal(t, tt.code, code, stderr)
			var o check.Verdict
			require.NoError(t, json.Unmarshal([]byte(out), &o))
			assert.Equal(t, tt.verified, o.Verified)
			got := map[string]bool{}
			for _, c := range o.Checks {
				got[c.Name] = c.OK
				assert.NotEmpty(t, c.Detail)
			}
			assert.Equal(t, tt.checks, got)
		})
	}
}

func TestVerifyChain(t *testing.T) {
	// A 3-link chain from a fixed last link: link i hashes i times to the anchor.
	dir := t.TempDir()
	out, stderr, code := runCLI("seed", "new", "--chain", "3", "--out", dir+"/c", "--json")
	require.Equal(t, 0, code, stderr)
	var s seed.Generated
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	links := readChainFile(t, dir+"/c")
	for i, want := range []int{0, 3} {
		args := []string{"verify", "--server-seed", links[2], "--client-seed", "x", "--nonce", "1", "--chain-anchor", s.Commitment, "--json"}
		if i == 1 {
			args = append(args, "--chain-max-steps", "1")
		}
		_, stderr, code := runCLI(args...)
		assert.Equal(t, want, code, stderr)
	}
	_, _, code = runCLI("verify", "--server-seed", links[2], "--client-seed", "x", "--nonce", "1", "--chain-anchor", s.Commitment, "--chain-steps", "2")
	assert.Equal(t, 0, code)
	_, _, code = runCLI("verify", "--server-seed", links[2], "--client-seed", "x", "--nonce", "1", "--chain-anchor", links[1], "--chain-steps", "1")
	assert.Equal(t, 0, code, "against the last verified link")
}

func TestVerifyStakeRepeats(t *testing.T) {
	args := []string{"verify", "--scheme", "stake-compat", "--server-seed", stakeSeed, "--client-seed", "bb62964774", "--nonce", "1", "--json"}
	out, stderr, code := runCLI(append(args, "--cards", "Qd Ks 6d Qh 2h 4s 8h 5d 9c 7h")...)
	require.Equal(t, 0, code, stderr)
	var o check.Verdict
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	assert.True(t, o.Verified)
	assert.Equal(t, []string{"Qd", "Ks", "6d", "Qh", "2h", "4s", "8h", "5d", "9c", "7h"}, o.Cards.Draws)
	require.Len(t, o.Notes, 3)
	assert.Contains(t, o.Notes[0], "replacement")
	assert.Contains(t, o.Notes[1], "1.2e-08")
	// 52 draws with replacement repeat a card: the audit check fails.
	_, _, code = runCLI(append(args, "--count", "52")...)
	assert.Equal(t, 2, code, "nothing to verify without claims")
	out, _, code = runCLI(append(args, "--count", "52", "--used-nonces", "7")...)
	assert.Equal(t, 3, code)
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	assert.False(t, o.Verified)
	assert.Equal(t, "no-repeated-cards", o.Checks[len(o.Checks)-1].Name)
	assert.False(t, o.Checks[len(o.Checks)-1].OK)
}

func TestVerifyMalformed(t *testing.T) {
	tests := []struct {
		name  string
		extra []string
		want  string
	}{
		{"duplicate card", []string{"--cards", "As Kd As"}, "--cards"},
		{"unknown card", []string{"--cards", "As Xx"}, "--cards"},
		{"too many cards", []string{"--cards", "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"}, "--cards"},
		{"odd commitment", []string{"--commitment", workedCommitment[:63]}, "--commitment"},
		{"short commitment", []string{"--commitment", workedCommitment[:62]}, "--commitment"},
		{"bad time", []string{"--commitment", workedCommitment, "--committed-at", "yesterday"}, "--committed-at"},
		{"bad used nonce", []string{"--used-nonces", "1,-1"}, "--used-nonces"},
		{"short anchor", []string{"--chain-anchor", "abcd"}, "--chain-anchor"},
		// These used to be walked or silently replaced by the default.
		{"chain steps beyond the bound", []string{"--chain-anchor", workedCommitment, "--chain-steps", "99999999999"}, "--chain-steps"},
		{"negative max steps", []string{"--chain-anchor", workedCommitment, "--chain-max-steps", "-5"}, "--chain-max-steps"},
		{"huge max steps", []string{"--chain-anchor", workedCommitment, "--chain-max-steps", "9223372036854775807"}, "--chain-max-steps"},
		{"nothing to verify", nil, "nothing to verify"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := runCLI(verifyArgs(tt.extra...)...)
			assert.Equal(t, 2, code, stderr)
			assert.Contains(t, out, `"verdict": "error"`, "--json: the error as a JSON result")
			assert.Contains(t, stderr, tt.want)
		})
	}
	for _, bad := range [][]string{
		{"--server-seed", workedSeed[:63]}, {"--server-seed", workedSeed[:62]}, {"--nonce", "-1"}, {"--scheme", "nope"},
	} {
		args := []string{"verify", "--client-seed", "c", "--game", "casino-holdem", "--commitment", workedCommitment}
		if bad[0] != "--server-seed" {
			args = append(args, "--server-seed", workedSeed)
		}
		if bad[0] != "--nonce" {
			args = append(args, "--nonce", "1")
		}
		_, stderr, code := runCLI(append(args, bad...)...)
		assert.Equal(t, 2, code, "%v: %s", bad, stderr)
		assert.Contains(t, stderr, bad[0])
	}
}
