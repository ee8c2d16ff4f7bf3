package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fairhold/fairhold/cmd/fairhold/internal/pageround"
	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const workedCommitment = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"

// stakeCommitment is SHA-256 of stakeSeed's bytes.
const stakeCommitment = "32ed40335ed5dfe5cc800f4b8ed008ca1e0ae51620aaa0b9bf9995fb5b551fb5"

func verifyArgs(extra ...string) []string {
	return append([]string{"verify", "--server-seed", workedSeed, "--client-seed", "player-seed-1", "--nonce", "1",
		"--game", "casino-holdem", "--json"}, extra...)
}

// boundArgs are verifyArgs with the worked example's commitment, which
// binds its server seed.
func boundArgs(extra ...string) []string {
	return verifyArgs(append([]string{"--commitment", workedCommitment}, extra...)...)
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
		// --game deals 9 cards: a claim without --cards is partial (exit 3).
		{"commitment", []string{"--commitment", workedCommitment}, 3, false, map[string]bool{"commitment": true}},
		{"commitment allow partial", []string{"--commitment", workedCommitment, "--allow-partial"}, 0, false, map[string]bool{"commitment": true}},
		{"commitment and cards", []string{"--commitment", workedCommitment, "--cards", strings.Join(cards, " ")}, 0, true,
			map[string]bool{"commitment": true, "cards": true}},
		{"wrong commitment", []string{"--commitment", flip(workedCommitment, 5)}, 3, false, map[string]bool{"commitment": false}},
		{"swapped cards", []string{"--commitment", workedCommitment, "--cards", strings.Join(swapped, " ")}, 3, false,
			map[string]bool{"commitment": true, "cards": false}},
		{"reused nonce", []string{"--used-nonces", "0,1,2"}, 3, false, map[string]bool{"nonce-unused": false}},
		{"fresh nonce", []string{"--used-nonces", "0,2"}, 3, false, map[string]bool{"nonce-unused": true}},
		{"beacon after commitment", []string{"--commitment", workedCommitment, "--beacon-round", "1000", "--beacon-signature", quicknetSig,
			"--committed-at", "2023-08-23T15:59:00Z", "--allow-partial"}, 0, false,
			map[string]bool{"commitment": true, "beacon-signature": true, "beacon-after-commitment": true}},
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
			allOK := true
			for _, ok := range got {
				allOK = allOK && ok
			}
			switch {
			case tt.verified:
				assert.Equal(t, check.VerdictVerified, o.Verdict)
				assert.Empty(t, o.UncheckedPositions)
			case allOK:
				// Every check passed but no card was claimed: partial,
				// every position of the round unchecked.
				assert.Equal(t, check.VerdictPartial, o.Verdict)
				assert.Equal(t, 0, o.Claimed)
				assert.Empty(t, o.CheckedPositions)
				require.Len(t, o.UncheckedPositions, 9)
				assert.Equal(t, "player, first hole card", o.UncheckedPositions[0])
				assert.Equal(t, "river", o.UncheckedPositions[8])
			default:
				assert.Equal(t, check.VerdictFailed, o.Verdict)
			}
		})
	}
}

// A claim without cards: partial when the round deals cards (--game or
// --count), verified when nothing is dealt.
func TestVerifyNoCards(t *testing.T) {
	base := []string{"verify", "--server-seed", workedSeed, "--client-seed", "x", "--nonce", "1", "--commitment", workedCommitment}
	for _, tt := range []struct {
		name      string
		extra     []string
		code      int
		verdict   string
		unchecked int
	}{
		{"nothing dealt", nil, 0, check.VerdictVerified, 0},
		{"game", []string{"--game", "casino-holdem"}, exitVerified, check.VerdictPartial, 9},
		{"game allow partial", []string{"--game", "casino-holdem", "--allow-partial"}, 0, check.VerdictPartial, 9},
		{"count", []string{"--count", "5"}, exitVerified, check.VerdictPartial, 5},
		{"game, wrong commitment", []string{"--game", "casino-holdem", "--commitment", flip(workedCommitment, 5)}, exitVerified, check.VerdictFailed, 9},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := runCLI(append(append(append([]string{}, base...), tt.extra...), "--json")...)
			require.Equal(t, tt.code, code, stderr)
			var o check.Verdict
			require.NoError(t, json.Unmarshal([]byte(out), &o))
			assert.Equal(t, tt.verdict, o.Verdict)
			assert.Equal(t, tt.verdict == check.VerdictVerified, o.Verified)
			assert.Len(t, o.UncheckedPositions, tt.unchecked)
			assert.Empty(t, o.CheckedPositions)
			for _, c := range o.Checks {
				assert.NotEqual(t, "cards", c.Name)
			}
			if tt.verdict == check.VerdictPartial && tt.code != 0 {
				assert.Contains(t, stderr, "--allow-partial")
			}
			text, _, tcode := runCLI(append(append([]string{}, base...), tt.extra...)...)
			assert.Equal(t, tt.code, tcode)
			switch tt.verdict {
			case check.VerdictPartial:
				assert.Contains(t, text, "partial: none of the ")
			case check.VerdictVerified:
				assert.Contains(t, text, "verified\n")
			}
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
	args := []string{"verify", "--scheme", "stake-compat", "--server-seed", stakeSeed, "--client-seed", "bb62964774", "--nonce", "1", "--json",
		"--commitment", stakeCommitment}
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
	out, _, code = runCLI(append(args, "--count", "52")...)
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

// The worked example's cards: player 3s 8h, dealer 4h Th, flop Tc 4s 3d,
// turn 5d, river Qc.
const workedCards = "3s 8h 4h Th Tc 4s 3d 5d Qc"

func TestVerifyPartial(t *testing.T) {
	// Four of nine cards: partial, exit 3 unless --allow-partial.
	out, stderr, code := runCLI(boundArgs("--cards", "3s 8h 4h Th")...)
	assert.Equal(t, exitVerified, code)
	assert.Contains(t, stderr, "--allow-partial")
	var o check.Verdict
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	assert.Equal(t, "partial", o.Verdict)
	assert.False(t, o.Verified)
	assert.Equal(t, 4, o.Claimed)
	assert.Equal(t, 9, o.Count)
	assert.Equal(t, []string{"player, first hole card", "player, second hole card", "dealer, first card", "dealer, second card"}, o.CheckedPositions)
	assert.Equal(t, []string{"flop, first card", "flop, second card", "flop, third card", "turn", "river"}, o.UncheckedPositions)

	out, stderr, code = runCLI(boundArgs("--cards", "3s 8h 4h Th", "--allow-partial")...)
	assert.Equal(t, 0, code, stderr)
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	assert.Equal(t, "partial", o.Verdict)

	// In text: the verdict line says partial, never "verified".
	text := []string{"verify", "--server-seed", workedSeed, "--client-seed", "player-seed-1", "--nonce", "1", "--game", "casino-holdem", "--commitment", workedCommitment}
	out, _, code = runCLI(append(text, "--cards", "3s 8h 4h Th")...)
	assert.Equal(t, exitVerified, code)
	assert.Contains(t, out, "partial: 4 of the 9 cards claimed and checked (player, first hole card; player, second hole card; dealer, first card; dealer, second card); not checked: flop, first card;")
	assert.NotRegexp(t, `(?m)^verified$`, out)

	// A partial claim with a wrong card fails (exit 3 even with --allow-partial).
	out, _, code = runCLI(boundArgs("--cards", "3s 8h Th 4h", "--allow-partial")...)
	assert.Equal(t, exitVerified, code)
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	assert.Equal(t, "failed", o.Verdict)

	// The whole round: verified.
	out, _, code = runCLI(boundArgs("--cards", workedCards)...)
	assert.Equal(t, 0, code)
	o = check.Verdict{}
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	assert.Equal(t, "verified", o.Verdict)
	assert.True(t, o.Verified)
	assert.Nil(t, o.UncheckedPositions)
	assert.Equal(t, "1", strings.Split(strings.Split(out, `"nonce": "`)[1], `"`)[0], "nonce as a decimal string")

	// More cards than the round deals: usage error.
	_, stderr, code = runCLI(verifyArgs("--cards", workedCards+" 2c")...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "10 cards claimed, but the round deals 9")
	// With --count: a raw deal of 12 cards claimed 9: partial.
	out, _, code = runCLI("verify", "--server-seed", workedSeed, "--client-seed", "player-seed-1", "--nonce", "1", "--count", "12", "--cards", workedCards,
		"--commitment", workedCommitment, "--json")
	assert.Equal(t, exitVerified, code)
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	assert.Equal(t, []string{"card 10", "card 11", "card 12"}, o.UncheckedPositions)
}

func TestVerifyMismatchWords(t *testing.T) {
	out, _, code := runCLI(verifyArgs("--cards", "3s 8h 4h Th Tc 4s 3d 5d Qd")...)
	assert.Equal(t, exitVerified, code)
	var o check.Verdict
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	assert.Equal(t, []check.Mismatch{{Position: "river", Claimed: "Qd", Dealt: "Qc"}}, o.Mismatches)
	out, _, code = runCLI("verify", "--server-seed", workedSeed, "--client-seed", "player-seed-1", "--nonce", "1", "--game", "casino-holdem",
		"--cards", "3s 8h 4h Th Tc 4s 3d 5d Qd")
	assert.Equal(t, exitVerified, code)
	assert.Contains(t, out, "FAIL  cards                    river: Qd claimed, Qc dealt\n")
	assert.Contains(t, out, "NOT verified\n")

	// A live table: the box and the hole card.
	live := []string{"verify", "--game", "live-casino-holdem", "--boxes", "3", "--server-seed", workedSeed, "--client-seed", "a", "--nonce", "7", "--json"}
	dout, _, code := runCLI("deal", "--game", "live-casino-holdem", "--boxes", "3", "--server-seed", workedSeed, "--client-seed", "a", "--nonce", "7", "--json")
	require.Equal(t, 0, code)
	var d check.Dealt
	require.NoError(t, json.Unmarshal([]byte(dout), &d))
	claimed := []string{d.Cards.Boxes[0][0], d.Cards.Boxes[0][1], d.Cards.Boxes[1][1], d.Cards.Boxes[1][0]}
	out, _, code = runCLI(append(live, "--cards", strings.Join(claimed, " "))...)
	assert.Equal(t, exitVerified, code)
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	require.Len(t, o.Mismatches, 2)
	assert.Equal(t, "box 2, second hole card", o.Mismatches[1].Position)
	assert.Equal(t, "box 2, first hole card", o.Mismatches[0].Position)
	assert.NotContains(t, o.Checks[0].Detail, "position")

	// Double Hold'em: the seat number. Seats 1,3,4,7 with the button on 4:
	// seat 7 is dealt first.
	dbl := []string{"--game", "double-holdem", "--seats", "1,3,4,7", "--button", "4", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "2", "--json"}
	dout, _, code = runCLI(append([]string{"deal"}, dbl...)...)
	require.Equal(t, 0, code)
	require.NoError(t, json.Unmarshal([]byte(dout), &d))
	require.Equal(t, 7, d.Cards.Seats[0].Seat)
	first := d.Cards.Seats[0].Cards
	out, _, code = runCLI(append(append([]string{"verify"}, dbl...), "--cards", first[0]+" "+first[2]+" "+first[1])...)
	assert.Equal(t, exitVerified, code)
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	require.Len(t, o.Mismatches, 2)
	assert.Equal(t, "seat 7, second hole card", o.Mismatches[0].Position)
	assert.Equal(t, "seat 7, third hole card", o.Mismatches[1].Position)
}

// --cards takes every notation of docs/cards.md, for every scheme.
func TestVerifyCardNotations(t *testing.T) {
	for _, cards := range []string{
		"3s8h4hThTc4s3d5dQc", "3s,8h,4h,Th,Tc,4s,3d,5d,Qc", "3S 8H 4H TH TC 4S 3D 5D QC", "3s 8h 4h 10h 10c 4s 3d 5d qc",
		"3♠ 8♥ 4♥ T♥ T♣ 4♠ 3♦ 5♦ Q♣", "3♤8♡4♡10♡T♧4♤3♢5♢Q♧", "3s\t8h\n4h Th Tc 4s 3d 5d Qc",
	} {
		_, stderr, code := runCLI(boundArgs("--cards", cards)...)
		assert.Equal(t, 0, code, "%s: %s", cards, stderr)
	}
	stake := []string{"verify", "--scheme", "stake-compat", "--server-seed", stakeSeed, "--client-seed", "bb62964774", "--nonce", "1", "--json",
		"--commitment", stakeCommitment}
	for _, cards := range []string{"QdKs6dQh2h4s8h5d9c7h", "qd,ks,6d,qh,2h,4s,8h,5d,9c,7h", "Q♦K♠6♦Q♥2♥4♠8♥5♦9♣7♥", "QD KS 6D QH 2H 4S 8H 5D 9C 7H"} {
		out, stderr, code := runCLI(append(stake, "--cards", cards)...)
		require.Equal(t, 0, code, "%s: %s", cards, stderr)
		var o check.Verdict
		require.NoError(t, json.Unmarshal([]byte(out), &o))
		assert.Equal(t, "verified", o.Verdict, cards)
		assert.Equal(t, 10, o.Claimed, cards)
	}
	// With replacement a repeat is a claim like any other (here a wrong one),
	// written together or apart.
	for _, cards := range []string{"QdQd", "Qd Qd", "Q♦,qd"} {
		out, stderr, code := runCLI(append(stake, "--count", "10", "--cards", cards)...)
		require.Equal(t, exitVerified, code, "%s: %s", cards, stderr)
		var o check.Verdict
		require.NoError(t, json.Unmarshal([]byte(out), &o))
		assert.Equal(t, []check.Mismatch{{Position: "card 2", Claimed: "Qd", Dealt: "Ks"}}, o.Mismatches, cards)
	}
}

// The edges docs/fairness.md settles, as the CLI applies them.
func TestVerifySettledEdges(t *testing.T) {
	stake := []string{"verify", "--scheme", "stake-compat", "--server-seed", stakeSeed, "--nonce", "1", "--cards", "Qd"}
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"chain steps 0", verifyArgs("--chain-anchor", workedCommitment, "--chain-steps", "0"), exitUsage, "--chain-steps: 0 steps"},
		{"anchor as the seed", verifyArgs("--chain-anchor", workedSeed), exitVerified, ""},
		{"count 0", []string{"verify", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "1", "--count", "0", "--commitment", workedCommitment}, exitUsage, "--count"},
		{"stake empty client seed", append(stake, "--client-seed", ""), exitUsage, "--client-seed"},
		{"stake 257-byte client seed", append(stake, "--client-seed", strings.Repeat("x", 257)), exitUsage, "--client-seed"},
		{"stake 256-byte client seed", append(stake, "--client-seed", strings.Repeat("x", 256), "--allow-partial"), exitVerified, ""},
		{"stake two client seeds", append(stake, "--client-seed", "a", "--client-seed", "b"), exitUsage, "--client-seed"},
		{"stake non-UTF-8 client seed", append(stake, "--client-seed", "a\xff"), exitUsage, "--client-seed"},
		{"v1 non-UTF-8 client seed", []string{"verify", "--server-seed", workedSeed, "--client-seed", "a\xed\xa0\x80", "--nonce", "1", "--count", "1", "--cards", "As"}, exitUsage, "--client-seed"},
		{"fraction before the round", boundArgs("--beacon-round", "1000", "--beacon-signature", quicknetSig, "--committed-at", "2023-08-23T15:59:23.5Z", "--allow-partial"), 0, ""},
		{"fraction after the round", verifyArgs("--beacon-round", "1000", "--beacon-signature", quicknetSig, "--committed-at", "2023-08-23T15:59:24.001Z"), exitVerified, ""},
		{"at the round's time", verifyArgs("--beacon-round", "1000", "--beacon-signature", quicknetSig, "--committed-at", "2023-08-23T17:59:24+02:00"), exitVerified, ""},
		{"comma fraction", verifyArgs("--beacon-round", "1000", "--beacon-signature", quicknetSig, "--committed-at", "2023-08-23T15:59:23,5Z"), exitUsage, "--committed-at"},
		{"no zone", verifyArgs("--beacon-round", "1000", "--beacon-signature", quicknetSig, "--committed-at", "2023-08-23T15:59:23"), exitUsage, "--committed-at"},
	}
	dbl := func(seats, button string) []string {
		a := []string{"verify", "--game", "double-holdem", "--server-seed", workedSeed, "--client-seed", "c", "--nonce", "2", "--commitment", workedCommitment, "--seats", seats}
		if button != "" {
			a = append(a, "--button", button)
		}
		return a
	}
	tests = append(tests, []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unsorted seats", dbl("4,1,7,3", "4"), exitUsage, "--seats: seat 1 listed after seat 4"},
		{"no button", dbl("1,3,4,7", ""), exitUsage, "--button: no button seat"},
		{"empty button seat", dbl("1,3,4,7", "2"), exitUsage, "--button: button seat 2 is not occupied"},
		{"seats for casino", append(verifyArgs("--commitment", workedCommitment), "--seats", "1,2", "--button", "1"), exitUsage, "--seats/--button"},
		{"sorted seats", append(dbl("1,3,4,7", "4"), "--allow-partial"), 0, ""},
		{"sorted seats, no cards: partial", dbl("1,3,4,7", "4"), exitVerified, "none of the 17 cards"},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(tt.args...)
			assert.Equal(t, tt.code, code, stderr)
			if tt.want != "" {
				assert.Contains(t, stderr, tt.want)
			}
		})
	}
}

// A seed nothing binds (no --commitment, no --chain-anchor) may have been
// chosen after the client seed was known: verify cannot check the round,
// however well its cards match. The verdict is partial, "unbound" says
// why, and it exits 3 even with --allow-partial; --link prints the link
// with a note, and the page says the same.
func TestVerifyUnbound(t *testing.T) {
	for _, extra := range [][]string{{"--cards", workedCards}, {"--cards", workedCards, "--allow-partial"}, {"--cards", "3s 8h", "--allow-partial"}, {"--used-nonces", "5", "--allow-partial"}} {
		out, stderr, code := runCLI(verifyArgs(extra...)...)
		assert.Equal(t, exitVerified, code, "%v: %s", extra, stderr)
		assert.Contains(t, stderr, "cannot check: nothing binds the server seed: give --commitment (or --chain-anchor", extra)
		assert.NotContains(t, stderr, "--allow-partial accepts", extra)
		var o check.Verdict
		require.NoError(t, json.Unmarshal([]byte(out), &o), "%v", extra)
		assert.Equal(t, check.VerdictPartial, o.Verdict, extra)
		assert.False(t, o.Verified, extra)
		assert.Equal(t, check.UnboundReason, o.Unbound, extra)
		for _, c := range o.Checks {
			assert.True(t, c.OK, "%v: %s", extra, c.Name)
		}
	}
	// In text: "cannot check", never "verified"; a partial claim says both.
	text := []string{"verify", "--server-seed", workedSeed, "--client-seed", "player-seed-1", "--nonce", "1", "--game", "casino-holdem"}
	out, _, code := runCLI(append(text, "--cards", workedCards)...)
	assert.Equal(t, exitVerified, code)
	assert.Equal(t, "ok    cards                    9 claimed cards equal the scheme's deal\ncannot check: "+check.UnboundReason+"\n", out)
	out, _, code = runCLI(append(text, "--cards", "3s 8h")...)
	assert.Equal(t, exitVerified, code)
	assert.Contains(t, out, "\npartial: 2 of the 9 cards claimed and checked")
	assert.Contains(t, out, "\ncannot check: nothing binds the server seed")
	assert.NotRegexp(t, `(?m)^verified$`, out)
	// A wrong card still fails.
	out, _, code = runCLI(append(text, "--cards", "3s 8h 4h Th Tc 4s 3d 5d Qd")...)
	assert.Equal(t, exitVerified, code)
	assert.Contains(t, out, "NOT verified\n")
	assert.NotContains(t, out, "cannot check")
	// A commitment binds the seed; so does a chain anchor (the seed is one
	// step from its own commitment).
	for _, bind := range [][]string{{"--commitment", workedCommitment}, {"--chain-anchor", workedCommitment, "--chain-steps", "1"}} {
		out, stderr, code := runCLI(verifyArgs(append(bind, "--cards", workedCards)...)...)
		assert.Equal(t, 0, code, "%v: %s", bind, stderr)
		var o check.Verdict
		require.NoError(t, json.Unmarshal([]byte(out), &o))
		assert.Equal(t, check.VerdictVerified, o.Verdict, bind)
		assert.Empty(t, o.Unbound, bind)
		assert.NotContains(t, out, `"unbound"`, bind)
	}
	// --link: the link, exit 0, and a note that the page cannot check it.
	out, stderr, code := runCLI(append(text, "--cards", workedCards, "--link")...)
	assert.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^http://127\.0\.0\.1:8080/#r=[A-Za-z0-9_-]+\n$`, out)
	assert.Equal(t, "fairhold: note: the page will say it cannot check this round: "+check.UnboundReason+" (give --commitment, or --chain-anchor)\n", stderr)
	r, err := pageround.Decode(strings.TrimSpace(out))
	require.NoError(t, err)
	pv := pageround.Verify(r)
	assert.Equal(t, check.VerdictPartial, pv.Result)
	assert.Equal(t, check.UnboundReason, pv.Unbound)
	out, _, code = runCLI(append(text, "--cards", workedCards, "--link", "--json")...)
	assert.Equal(t, 0, code)
	var lr pageLinkResult
	require.NoError(t, json.Unmarshal([]byte(out), &lr))
	assert.Equal(t, check.UnboundReason, lr.Unbound)
	// A bound round's link: no note.
	_, stderr, code = runCLI(append(text, "--cards", workedCards, "--commitment", workedCommitment, "--link")...)
	assert.Equal(t, 0, code)
	assert.Empty(t, stderr)
}
