package main

import (
	"encoding/json"
	"testing"

	"github.com/fairhold/fairhold/fairness/beacon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// /work/shared/reference/README.md §4.
const (
	quicknetSig = "b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39"
	defaultPrev = "af0d93299a363735fe847f5ea241442c65843dc1bd3a7b79646b3b10072e908bf034d35cd69d378e3341f139100cd4cd03030399864ef8803a5a4f5e64fccc20bbae36d1ca22a6ddc43d2630c41105e90598fab11e5c7456df3925d4b577b113"
	defaultSig  = "99bf96de133c3d3937293cfca10c8152b18ab2d034ccecf115658db324d2edc00a16a2044cd04a8a38e2a307e5ecff3511315be8d282079faf24098f283e0ed2c199663b334d2e84c55c032fe469b212c5c2087ebb83a5b25155c3283f5b79ac"
)

func TestBeaconVerify(t *testing.T) {
	tests := []struct {
		name, chain, sig, prev, rand string
	}{
		{"quicknet", "quicknet", quicknetSig, "", "fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd"},
		{"default", "default", defaultSig, defaultPrev, "a40d3e0e7e3c71f28b7da2fd339f47f0bcf10910309f5253d7c323ec8cea3212"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"beacon", "verify", "--chain", tt.chain, "--round", "1000", "--json"}
			if tt.prev != "" {
				args = append(args, "--previous-signature", tt.prev)
			}
			out, stderr, code := runCLI(append(args, "--signature", tt.sig)...)
			require.Equal(t, 0, code, stderr)
			var o beacon.Verdict
			require.NoError(t, json.Unmarshal([]byte(out), &o))
			assert.True(t, o.Valid)
			assert.Equal(t, tt.rand, o.Randomness)

			for _, i := range []int{0, 33, len(tt.sig) - 1} {
				out, _, code = runCLI(append(args, "--signature", flip(tt.sig, i))...)
				assert.Equal(t, 3, code, "nibble %d", i)
				var bad beacon.Verdict
				require.NoError(t, json.Unmarshal([]byte(out), &bad))
				assert.False(t, bad.Valid)
				assert.Empty(t, bad.Randomness)
			}
		})
	}
	// Round times: quicknet round 1000 = genesis 1692803367 + 999*3 s.
	out, _, code := runCLI("beacon", "verify", "--chain", "quicknet", "--round", "1000", "--signature", quicknetSig, "--json")
	require.Equal(t, 0, code)
	var o beacon.Verdict
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	assert.Equal(t, "2023-08-23T15:59:24Z", o.PublishedAt)
}

func TestBeaconVerifyMalformed(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"odd hex", []string{"--chain", "quicknet", "--round", "1000", "--signature", quicknetSig[:95]}, "--signature"},
		{"short", []string{"--chain", "quicknet", "--round", "1000", "--signature", quicknetSig[:94]}, "--signature"},
		{"no previous", []string{"--chain", "default", "--round", "1000", "--signature", defaultSig}, "--previous-signature"},
		{"round 0", []string{"--chain", "quicknet", "--round", "0", "--signature", quicknetSig}, "--round"},
		// 2^64-1 would overflow the publication time (and wrap into the past).
		{"round 2^64-1", []string{"--chain", "quicknet", "--round", "18446744073709551615", "--signature", quicknetSig}, "--round"},
		{"round after year 9999", []string{"--chain", "default", "--round", "8393562326", "--signature", defaultSig}, "--round"},
		{"short previous", []string{"--chain", "default", "--round", "1000", "--signature", defaultSig, "--previous-signature", "abcd"}, "--previous-signature"},
		{"unknown chain", []string{"--chain", "mainnet", "--round", "1", "--signature", quicknetSig}, "--chain"},
		{"no signature", []string{"--chain", "quicknet", "--round", "1"}, "signature"},
	}
	for _, tt := range tests {
		_, stderr, code := runCLI(append([]string{"beacon", "verify"}, tt.args...)...)
		assert.Equal(t, 2, code, tt.name)
		assert.Contains(t, stderr, tt.want, tt.name)
	}
}
