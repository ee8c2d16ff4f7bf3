package receipt_test

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/receipt"
	"github.com/fairhold/fairhold/replay/round"
)

// Every receipt of a simulated log, of every game, encodes, decodes to
// itself and signs and opens.
func TestRoundTrip(t *testing.T) {
	s, err := receipt.NewSigner(testOperator, testKey())
	require.NoError(t, err)
	v, err := receipt.NewVerifier("", testKey().Public().(ed25519.PublicKey))
	require.NoError(t, err)
	for _, g := range games {
		rs := honest(t, g, 50, 3)
		for i := range rs {
			for _, p := range receipt.Players(&rs[i]) {
				rc, err := receipt.FromRound(&rs[i], p, testOperator)
				require.NoError(t, err)
				body, err := rc.Marshal()
				require.NoError(t, err)
				back, err := receipt.Unmarshal(body)
				require.NoError(t, err, "%s", body)
				assert.Equal(t, rc, back)
				n, err := s.Sign(rc)
				require.NoError(t, err)
				opened, err := v.Open(n)
				require.NoError(t, err)
				assert.Equal(t, rc, opened)
			}
		}
	}
	_, err = receipt.FromRound(&round.Round{RoundID: "x", Game: round.CasinoHoldem}, "nobody", testOperator)
	assert.ErrorIs(t, err, receipt.ErrNotAtRound)
}

// A receipt's operator line must be the signer's key name.
func TestSignOperator(t *testing.T) {
	s, err := receipt.NewSigner(testOperator, testKey())
	require.NoError(t, err)
	rs := honest(t, round.CasinoHoldem, 1, 3)
	rc, err := receipt.FromRound(&rs[0], rs[0].Boxes[0].PlayerID, "someone.else")
	require.NoError(t, err)
	_, err = s.Sign(rc)
	assert.Error(t, err)
	_, err = receipt.NewSigner("has space", testKey())
	assert.Error(t, err)
}

// Receipts-file lines: one JSON string each; anything else is refused
// naming the line.
func TestReadLines(t *testing.T) {
	v, err := receipt.NewVerifier(testOperator, testKey().Public().(ed25519.PublicKey))
	require.NoError(t, err)
	rs := honest(t, round.CasinoHoldem, 2, 3)
	recs := issue(t, rs)
	require.Len(t, recs, 2)
	s, err := receipt.NewSigner(testOperator, testKey())
	require.NoError(t, err)
	n, err := s.Sign(recs[0].Receipt)
	require.NoError(t, err)
	good := string(receipt.EncodeLine(n))
	for name, in := range map[string]string{
		"not a string":    good + "{}\n",
		"data after":      good + strings.TrimSuffix(good, "\n") + " 1\n",
		"empty line":      good + "\n" + good,
		"lone surrogate":  good + `"\ud800"` + "\n",
		"not a note":      good + `"fairhold-receipt/v1\n"` + "\n",
		"a body unsigned": good + `"fairhold-receipt/v1\noperator casino.example/receipts\n\n"` + "\n",
	} {
		_, err := receipt.Read(strings.NewReader(in), "r.jsonl", v)
		var le *receipt.LineError
		require.True(t, errors.As(err, &le), "%s: %v", name, err)
		assert.Equal(t, 1, le.Line, name)
		assert.Contains(t, err.Error(), "r.jsonl line 2", name)
	}
	got, err := receipt.Read(strings.NewReader(good+strings.TrimSuffix(good, "\n")), "r.jsonl", v)
	require.NoError(t, err, "a last line without LF")
	assert.Len(t, got, 2)
	assert.Equal(t, "p1.jsonl", receipt.FileName("p1"))
	assert.Equal(t, "%2Ex%2Fy%20z.jsonl", receipt.FileName(".x/y z"))
}

// The log contradicts receipts in cards, client seed and nonce: one
// RECEIPT_MISMATCH per field and receipt, nothing else.
func TestReconcileFields(t *testing.T) {
	rs := honest(t, round.LiveCasinoHoldem, 40, 5)
	recs := issue(t, rs)
	e := cloneLog(t, rs)
	r := &e[10]
	b := r.Boxes[0]
	r.Board[4], b.Cards[1] = b.Cards[1], r.Board[4] // cards exchanged after the deal
	r.Fairness.ClientSeeds[0] = "not-the-players"
	r.Fairness.Nonce = 9
	ws := []want{
		{finding.ReceiptMismatch, r.RoundID, b.PlayerID, fmt.Sprintf("boxes[box %d].cards", b.Box)},
		{finding.ReceiptMismatch, r.RoundID, b.PlayerID, fmt.Sprintf("boxes[box %d].client-seed", b.Box)},
	}
	for _, p := range playersOf(r) {
		ws = append(ws, want{finding.ReceiptMismatch, r.RoundID, p, "board"}, want{finding.ReceiptMismatch, r.RoundID, p, "nonce"})
	}
	fs, _ := reconcile(t, e, recs)
	assert.Equal(t, wanted(ws), got(fs))
	for _, f := range fs {
		if f.Field == "nonce" {
			assert.Equal(t, "0", f.Expected)
			assert.Equal(t, "9", f.Actual)
			assert.Nil(t, f.Difference, "not a money finding")
		}
	}
}

// A round whose client seeds are not one per box or seat has no receipts
// (docs/receipts.md section 4); nor has one with an id holding a space.
func TestFromRoundRefuses(t *testing.T) {
	rs := honest(t, round.LiveCasinoHoldem, 30, 6)
	var r *round.Round
	for i := range rs {
		if len(rs[i].Boxes) >= 2 {
			r = &rs[i]
			break
		}
	}
	require.NotNil(t, r, "a round of two boxes")
	table := clone(t, r)
	table.Fairness.ClientSeeds = table.Fairness.ClientSeeds[:1]
	_, err := receipt.FromRound(&table, table.Boxes[0].PlayerID, testOperator)
	assert.ErrorContains(t, err, "one client seed per box")

	s, err := receipt.NewSigner(testOperator, testKey())
	require.NoError(t, err)
	spaced := clone(t, r)
	spaced.RoundID = "round 1"
	_, _, err = receipt.IssueRound(&spaced, s, nil)
	var fe *receipt.FieldError
	require.True(t, errors.As(err, &fe), "%v", err)
	assert.Equal(t, "round", fe.Field)
}
