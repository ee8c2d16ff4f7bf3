package pageround

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/replay/round"
)

func TestFromRecordClaimsTheLoggedPrefix(t *testing.T) {
	rec := &round.Round{
		RoundID: "r1", Game: "live-casino-holdem", Profile: "live-casino-holdem",
		Fairness: round.Fairness{Scheme: "fairhold/v1", ServerSeed: "aa", ClientSeeds: []string{"c"}, Nonce: 18446744073709551615, Commitment: "bb"},
		// Box 4 before box 2: dealt in box order, box 2 first.
		Boxes:  []round.Box{{Box: 4, Cards: []string{"Ah", "Kh"}}, {Box: 2, Cards: []string{"2c", "3c"}}},
		Dealer: []string{"4d", "5d"},
		Board:  []string{"6s", "7s", "8s"}, // a fold: three board cards logged
	}
	r, err := FromRecord(rec)
	require.NoError(t, err)
	assert.Equal(t, []string{"2c", "3c", "Ah", "Kh", "4d", "5d", "6s", "7s", "8s"}, r.Cards)
	assert.Equal(t, 2, r.Hands)
	assert.Equal(t, 11, r.Count)
	assert.Equal(t, "18446744073709551615", r.Nonce, "the nonce as a decimal string, exactly")
	assert.Equal(t, "bb", r.Commitment)
	assert.Nil(t, r.Chain)
	var back round.Round
	require.NoError(t, json.Unmarshal(r.Round, &back))
	assert.Empty(t, back.Fairness.ServerSeed, "the seeds travel once, in the link's own fields")
	assert.Len(t, back.Boxes, 2)

	// No dealer logged: the claim stops before it.
	rec.Dealer = nil
	r, err = FromRecord(rec)
	require.NoError(t, err)
	assert.Equal(t, []string{"2c", "3c", "Ah", "Kh"}, r.Cards)

	// A hash chain's round: the commitment is the anchor, the index the distance.
	rec.Fairness.ChainIndex = 7
	r, err = FromRecord(rec)
	require.NoError(t, err)
	assert.Empty(t, r.Commitment)
	require.NotNil(t, r.Chain)
	steps, _ := ChainSteps(r.Chain)
	require.NotNil(t, steps)
	assert.Equal(t, uint64(7), *steps)
	assert.Equal(t, "bb", r.Chain.Anchor)

	// Double Hold'em: the seats in dealing order, from the left of the button.
	dh := &round.Round{
		RoundID: "d1", Game: "double-holdem",
		Fairness: round.Fairness{Scheme: "fairhold/v1", ServerSeed: "aa", ClientSeeds: []string{"a", "b", "c"}},
		Double: &round.DoubleHand{Button: 5, Seats: []round.Seat{
			{Seat: 1, Cards: []string{"2c", "2d", "2h"}}, {Seat: 5, Cards: []string{"3c", "3d", "3h"}}, {Seat: 9, Cards: []string{"4c", "4d", "4h"}}}},
	}
	r, err = FromRecord(dh)
	require.NoError(t, err)
	assert.Equal(t, []string{"4c", "4d", "4h", "2c", "2d", "2h", "3c", "3d", "3h"}, r.Cards, "seat 9 (left of the button) first, the button last; no board logged")
	assert.Equal(t, []int{1, 5, 9}, r.Seats)
	assert.Equal(t, 5, r.Button)
	assert.Equal(t, 14, r.Count)

	_, err = FromRecord(&round.Round{Game: "blackjack"})
	assert.ErrorContains(t, err, "blackjack")
}

func TestParsePastesAVectorAsItIs(t *testing.T) {
	r, err := Parse([]byte(`{"id":"x","description":"d","expect":"failure","failures":["cards"],"expected":{"cards":[]},
		"scheme":"fairhold/v1","game":"casino-holdem","server_seed":"00","client_seeds":["c"],"nonce":"1"}`))
	require.NoError(t, err)
	assert.Equal(t, 1, r.Hands)
	assert.Equal(t, 9, r.Count)
	_, err = Parse([]byte(`{"scheme":"fairhold/v1","bets":[{"box":1,"ante":"100"}]}`))
	assert.Error(t, err, "a bet's amount is an integer")
	_, err = Parse([]byte(`[1]`))
	assert.Error(t, err)
}

// TestParseNeverRepairsClientSeeds: a client seed that is not UTF-8 is
// malformed, never read as U+FFFD (docs/fairness.md section 4): raw bytes
// that do not decode are refused with the round, and the escape of an
// unpaired surrogate is kept and refused by the check (field
// client_seeds).
func TestParseNeverRepairsClientSeeds(t *testing.T) {
	const seed64 = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	const head = `{"scheme":"fairhold/v1","game":"casino-holdem","server_seed":"` + seed64 + `","nonce":"1","client_seeds":`
	_, err := Parse([]byte(head + "[\"c\xff\"]}"))
	assert.ErrorContains(t, err, "not UTF-8")
	for _, seeds := range []string{`["c\ud800"]`, `["\udc00"]`, `["\ud800\u0041"]`} {
		r, err := Parse([]byte(head + seeds + `}`))
		require.NoError(t, err, seeds)
		v := Verify(r)
		assert.Equal(t, "error", v.Result, seeds)
		assert.Equal(t, "client_seeds", v.Field, seeds)
	}
	r, err := Parse([]byte(head + `["\ud83c\udca1"]}`))
	require.NoError(t, err)
	assert.NotEqual(t, "error", Verify(r).Result, "an escaped pair is a character")
}

// The bets' currency travels in the link; a code of another form than a
// log's currency is refused, naming the field.
func TestParseCurrency(t *testing.T) {
	base := `{"v":1,"scheme":"fairhold/v1","game":"casino-holdem","server_seed":"aa","client_seeds":["c"],"nonce":"0",` +
		`"bets":[{"box":1,"ante":1500,"decision":"call"}]`
	r, err := Parse([]byte(base + `,"currency":"JPY"}`))
	require.NoError(t, err)
	assert.Equal(t, "JPY", r.Currency)
	link, err := Link("https://x.example/", r)
	require.NoError(t, err)
	back, err := Decode(link)
	require.NoError(t, err)
	assert.Equal(t, r, back)

	r, err = Parse([]byte(base + `}`))
	require.NoError(t, err)
	assert.Empty(t, r.Currency)
	frag, err := Fragment(r)
	require.NoError(t, err)
	raw, err := base64.RawURLEncoding.DecodeString(frag[len(FragmentKey)+1:])
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "currency", "no currency, no member: older links stay the same")

	for _, bad := range []string{"eur", "=1+1", "E", "EURO-2"} {
		_, err := Parse([]byte(base + `,"currency":"` + bad + `"}`))
		assert.ErrorContains(t, err, "round: currency", bad)
	}
}

// A round leaves "hands" out, with or without "count": one box for Casino
// Hold'em, one hand a seat for Double Hold'em, as deal.js reads it; Live
// Casino Hold'em needs it, and the error names the field deal.js names.
// The seeds alone give an empty list of checks, never null.
func TestVerifyWithoutHands(t *testing.T) {
	const seed64 = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	for _, tc := range []struct{ round, verdict string }{
		{`"game":"casino-holdem"`, "partial"},
		{`"game":"casino-holdem","count":9`, "partial"},
		{`"game":"double-holdem","seats":[2,5,9],"button":5`, "partial"},
		{`"game":"double-holdem","seats":[2,5,9],"button":5,"count":14`, "partial"},
		{`"game":"live-casino-holdem"`, "error"},
		{`"game":"live-casino-holdem","count":9`, "error"},
	} {
		r, err := Parse([]byte(`{"scheme":"fairhold/v1",` + tc.round + `,"server_seed":"` + seed64 + `","client_seeds":["a","b","c"],"nonce":"7"}`))
		require.NoError(t, err, tc.round)
		v := Verify(r)
		assert.Equal(t, tc.verdict, v.Result, "%s: %s", tc.round, v.Error)
		if tc.verdict == "error" {
			assert.Equal(t, "game", v.Field, tc.round)
			continue
		}
		assert.NotNil(t, v.Checks, tc.round)
		b, err := json.Marshal(v)
		require.NoError(t, err)
		assert.Contains(t, string(b), `"checks":[]`, tc.round)
		require.NotNil(t, v.Cards, tc.round)
	}
}

// WithDeal gives the k-th box in play the k-th hand, and the board as many
// cards as the record logs; a nil deal keeps the record's cards.
func TestWithDeal(t *testing.T) {
	rec := &round.Round{Game: "live-casino-holdem",
		Boxes:  []round.Box{{Box: 5, Cards: []string{"2c", "2d"}}, {Box: 2, Cards: []string{"3c", "3d"}}},
		Dealer: []string{"4c", "4d"}, Board: []string{"5c", "5d", "5h"}}
	deal := &layoutDeal
	got := WithDeal(rec, deal)
	assert.Equal(t, []string{"Kc", "Kd"}, got.Boxes[0].Cards, "box 5 is the second in play")
	assert.Equal(t, []string{"As", "Ah"}, got.Boxes[1].Cards, "box 2 is the first in play")
	assert.Equal(t, []string{"Qs", "Qh"}, got.Dealer)
	assert.Equal(t, []string{"Js", "Jh", "Jd"}, got.Board, "three board cards logged: three given")
	assert.Equal(t, []string{"2c", "2d"}, rec.Boxes[0].Cards, "the record is not changed")
	assert.Equal(t, rec.Boxes, WithDeal(rec, nil).Boxes)
}

var layoutDeal = layout.Deal{Boxes: [][]string{{"As", "Ah"}, {"Kc", "Kd"}}, Dealer: []string{"Qs", "Qh"},
	Flop: []string{"Js", "Jh", "Jd"}, Turn: "Tc", River: "9c"}
