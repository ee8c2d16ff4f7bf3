package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/vectors"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	stakeSeed  = "18e93f4a7b5b58d2569765766d1b6c3296bbd8430d6f20249044d72f14720159"
	workedSeed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
)

func TestDealStakeReference(t *testing.T) {
	out, stderr, code := runCLI("deal", "--scheme", "stake-compat", "--server-seed", stakeSeed,
		"--client-seed", "bb62964774", "--nonce", "1", "--count", "10", "--json")
	require.Equal(t, 0, code, stderr)
	var got check.Dealt
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, []string{"Qd", "Ks", "6d", "Qh", "2h", "4s", "8h", "5d", "9c", "7h"}, got.Cards.Draws)
	assert.Equal(t, "stake-compat", got.Scheme)
	assert.NotEmpty(t, got.Notes, "the audit notes of stake-compat")
}

// The deal command agrees with every fairhold/v1 vector that has a game
// layout.
func TestDealMatchesVectors(t *testing.T) {
	vs, err := vectors.Fairness()
	require.NoError(t, err)
	n := 0
	for _, v := range vs {
		if v.Expect != vectors.FairnessSuccess || v.Game == "" || v.Beacon != nil {
			continue
		}
		n++
		args := []string{"deal", "--scheme", v.Scheme, "--game", v.Game, "--server-seed", v.ServerSeed, "--nonce", v.Nonce, "--json"}
		for _, c := range v.ClientSeeds {
			args = append(args, "--client-seed", c)
		}
		if v.Game == "live-casino-holdem" {
			args = append(args, "--boxes", strconv.Itoa(v.Hands))
		}
		if v.Seats != nil {
			seats := make([]string, len(v.Seats))
			for i, s := range v.Seats {
				seats[i] = strconv.Itoa(s)
			}
			args = append(args, "--seats", strings.Join(seats, ","), "--button", strconv.Itoa(v.Button))
		}
		out, stderr, code := runCLI(args...)
		require.Equal(t, 0, code, "%s: %s", v.ID, stderr)
		var got check.Dealt
		require.NoError(t, json.Unmarshal([]byte(out), &got))
		l := v.Expected.Layout
		switch v.Game {
		case "casino-holdem":
			assert.Equal(t, l.Hands[0], got.Cards.Player, v.ID)
		case "live-casino-holdem":
			assert.Equal(t, l.Hands, got.Cards.Boxes, v.ID)
		case "double-holdem":
			require.Len(t, got.Cards.Seats, len(l.Hands), v.ID)
			for i, s := range got.Cards.Seats {
				assert.Equal(t, l.Seats[i], s.Seat, v.ID)
				assert.Equal(t, l.Hands[i], s.Cards, v.ID)
			}
		}
		assert.Equal(t, l.Dealer, got.Cards.Dealer, v.ID)
		assert.Equal(t, l.Flop, got.Cards.Flop, v.ID)
		assert.Equal(t, l.Turn, got.Cards.Turn, v.ID)
		assert.Equal(t, l.River, got.Cards.River, v.ID)
	}
	assert.GreaterOrEqual(t, n, 20)
}

func TestDealBeacon(t *testing.T) {
	args := []string{"deal", "--game", "casino-holdem", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "1",
		"--beacon-chain", "quicknet", "--beacon-round", "1000", "--json"}
	out, stderr, code := runCLI(append(args, "--beacon-signature", quicknetSig)...)
	require.Equal(t, 0, code, stderr)
	var got check.Dealt
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd", got.BeaconRandomness)
	// Without the beacon the cards differ.
	plain, _, code := runCLI("deal", "--game", "casino-holdem", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "1", "--json")
	require.Equal(t, 0, code)
	var p check.Dealt
	require.NoError(t, json.Unmarshal([]byte(plain), &p))
	assert.NotEqual(t, p.Cards, got.Cards)
	// An invalid beacon: exit 3.
	_, stderr, code = runCLI(append(args, "--beacon-signature", flip(quicknetSig, 20))...)
	assert.Equal(t, 3, code)
	assert.Contains(t, stderr, "beacon-signature")
}

func flip(s string, i int) string {
	b := []byte(s)
	if b[i] == '0' {
		b[i] = '1'
	} else {
		b[i] = '0'
	}
	return string(b)
}

func TestDealMalformed(t *testing.T) {
	good := map[string]string{"--server-seed": workedSeed, "--client-seed": "c", "--nonce": "1", "--game": "casino-holdem"}
	tests := []struct {
		name, flag, value, want string
	}{
		{"odd hex", "--server-seed", workedSeed[:63], "--server-seed"},
		{"31-byte seed", "--server-seed", workedSeed[:62], "--server-seed"},
		{"not hex", "--server-seed", "zz" + workedSeed[2:], "--server-seed"},
		{"nonce -1", "--nonce", "-1", "--nonce"},
		{"nonce 2^64", "--nonce", "18446744073709551616", "--nonce"},
		{"unknown scheme", "--scheme", "fairhold/v9", "--scheme"},
		{"unknown game", "--game", "poker", "--game"},
		{"seven boxes", "--boxes", "7", "--game"},
		{"empty client seed", "--client-seed", "", "--client-seed"},
		{"beacon odd hex", "--beacon-signature", "abc", "--beacon-signature"},
		{"beacon short", "--beacon-signature", quicknetSig[:94], "--beacon-signature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"deal"}
			for k, v := range good {
				if k != tt.flag {
					args = append(args, k, v)
				}
			}
			if tt.flag == "--boxes" {
				args = append(args[:0], "deal", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "1", "--game", "live-casino-holdem")
			}
			args = append(args, tt.flag, tt.value)
			if tt.flag == "--beacon-signature" {
				args = append(args, "--beacon-round", "1000")
			}
			out, stderr, code := runCLI(args...)
			assert.Equal(t, 2, code, stderr)
			assert.Empty(t, out)
			assert.Contains(t, stderr, tt.want)
			assert.NotContains(t, stderr, workedSeed[8:40], "a seed must never appear in an error")
		})
	}
	_, stderr, code := runCLI("deal", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "1")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--count")
	// --count 0 and a negative count used to exit 3 with no message at all.
	for _, n := range []string{"0", "-1"} {
		out, stderr, code := runCLI("deal", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "1", "--count", n)
		assert.Equal(t, 2, code, "--count %s: %s", n, stderr)
		assert.Empty(t, out)
		assert.Contains(t, stderr, "--count", n)
	}
	// A beacon with a scheme that mixes in none is a malformed beacon, not
	// a malformed client seed.
	out, stderr, code := runCLI("deal", "--scheme", "stake-compat", "--server-seed", stakeSeed, "--client-seed", "c", "--nonce", "1",
		"--count", "3", "--beacon-round", "1000", "--beacon-signature", quicknetSig)
	assert.Equal(t, 2, code, stderr)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "--beacon-signature")
	// The default chain without the previous signature names that flag.
	out, stderr, code = runCLI("deal", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "1", "--game", "casino-holdem",
		"--beacon-chain", "default", "--beacon-round", "1000", "--beacon-signature", defaultSig)
	assert.Equal(t, 2, code, stderr)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "--beacon-previous-signature")
	// A round whose publication time would overflow is malformed.
	out, stderr, code = runCLI("deal", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "1", "--game", "casino-holdem",
		"--beacon-round", "18446744073709551615", "--beacon-signature", quicknetSig)
	assert.Equal(t, 2, code, stderr)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "--beacon-round")
}

func FuzzParseHexFlag(f *testing.F) {
	f.Add(workedSeed, 32)
	f.Add("abc", -1)
	f.Add("ZZ", 1)
	f.Fuzz(func(t *testing.T, s string, want int) {
		b, err := parseHexFlag("x", s, want)
		if err != nil {
			assert.Contains(t, err.Error(), "--x")
			if len(s) > 8 {
				assert.NotContains(t, err.Error(), s, "the value may be a secret")
			}
			return
		}
		assert.Equal(t, strings.ToLower(s), strings.ToLower(hexString(b)))
		if want >= 0 {
			assert.Len(t, b, want)
		}
	})
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

func FuzzParseNonceFlag(f *testing.F) {
	for _, s := range []string{"0", "1", "-1", "01", "18446744073709551615", "18446744073709551616", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseNonce("nonce", s)
		if err != nil {
			assert.Contains(t, err.Error(), "--nonce")
			return
		}
		assert.Equal(t, s, strconv.FormatUint(n, 10))
	})
}

func FuzzParseClaimedCards(f *testing.F) {
	f.Add("As Kd 2c", false)
	f.Add("As As", true)
	f.Add("AsKd,10h", false)
	f.Fuzz(func(t *testing.T, s string, repl bool) {
		cs, err := parseClaimedCards(s, repl)
		if err != nil {
			assert.Contains(t, err.Error(), "--cards")
			return
		}
		seen := map[uint8]bool{}
		for _, c := range cs {
			assert.Less(t, c, uint8(52))
			if !repl {
				assert.False(t, seen[c], "duplicates are malformed without replacement")
			}
			seen[c] = true
		}
	})
}

func FuzzParseSeats(f *testing.F) {
	f.Add("1,3,5")
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) {
		seats, err := parseSeats(s)
		if err != nil {
			assert.Contains(t, err.Error(), "--seats")
			return
		}
		assert.Len(t, seats, strings.Count(s, ",")+1)
	})
}
