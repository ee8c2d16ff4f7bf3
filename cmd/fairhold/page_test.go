package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/cmd/fairhold/internal/pageround"
	"github.com/fairhold/fairhold/vectors"
)

// pageVerifyArgs is the `fairhold verify --json` command line of a page round.
func pageVerifyArgs(r pageround.Round) []string {
	args := []string{"verify", "--json", "--scheme", r.Scheme, "--server-seed", r.ServerSeed, "--nonce", r.Nonce}
	for _, c := range r.ClientSeeds {
		args = append(args, "--client-seed", c)
	}
	switch r.Game {
	case "":
		args = append(args, "--count", strconv.Itoa(r.Count))
	case "live-casino-holdem":
		args = append(args, "--game", r.Game, "--boxes", strconv.Itoa(r.Hands))
	case "double-holdem":
		seats := make([]string, len(r.Seats))
		for i, s := range r.Seats {
			seats[i] = strconv.Itoa(s)
		}
		args = append(args, "--game", r.Game, "--seats", strings.Join(seats, ","), "--button", strconv.Itoa(r.Button))
	default:
		args = append(args, "--game", r.Game)
	}
	if r.Commitment != "" {
		args = append(args, "--commitment", r.Commitment)
	}
	if r.CommittedAt != "" {
		args = append(args, "--committed-at", r.CommittedAt)
	}
	if c := r.Chain; c != nil {
		args = append(args, "--chain-anchor", c.Anchor)
		if c.Steps != 0 {
			args = append(args, "--chain-steps", strconv.FormatUint(c.Steps, 10))
		}
		if c.MaxSteps != 0 {
			args = append(args, "--chain-max-steps", strconv.Itoa(c.MaxSteps))
		}
	}
	if b := r.Beacon; b != nil {
		args = append(args, "--beacon-chain", b.Chain, "--beacon-round", strconv.FormatUint(b.Round, 10), "--beacon-signature", b.Signature)
		if b.PreviousSignature != "" {
			args = append(args, "--beacon-previous-signature", b.PreviousSignature)
		}
	}
	if r.UsedNonces != nil {
		args = append(args, "--used-nonces", strings.Join(r.UsedNonces, ","))
	}
	if r.Cards != nil {
		args = append(args, "--cards", strings.Join(r.Cards, " "))
	}
	return args
}

// comparePageWithCLI checks that the page's verification of r (the Go half,
// which the WebAssembly build runs) says what `fairhold verify --json` says:
// every member of the command's JSON, and the verdict. It returns the page's
// verdict.
func comparePageWithCLI(t *testing.T, name string, r pageround.Round) string {
	t.Helper()
	page := pageround.Verify(r)
	stdout, stderr, code := runCLI(pageVerifyArgs(r)...)
	if code == exitUsage {
		if strings.Contains(stderr, "nothing to verify") {
			// A round without claims: verify refuses it, the page deals it
			// (and calls it partial, or rejects its input).
			return page.Result
		}
		assert.Equal(t, "error", page.Result, "%s: verify rejects the input (%s), the page must too", name, stderr)
		return page.Result
	}
	require.Contains(t, []int{exitOK, exitVerified}, code, "%s: %s", name, stderr)
	var cli map[string]any
	require.NoError(t, json.Unmarshal([]byte(stdout), &cli), name)
	b, err := json.Marshal(page)
	require.NoError(t, err)
	var pg map[string]any
	require.NoError(t, json.Unmarshal(b, &pg))
	for k, v := range cli {
		assert.Equal(t, v, pg[k], "%s: verify --json %q", name, k)
	}
	if code == exitOK {
		assert.Contains(t, []string{"verified", "partial"}, page.Result, name)
	} else {
		assert.Equal(t, "failed", page.Result, name)
	}
	return page.Result
}

// Every fairness vector: the page's Go half and `fairhold verify --json`
// agree, and the page concludes what the vector expects.
func TestPageVerifyMatchesCLI(t *testing.T) {
	vs, err := vectors.Fairness()
	require.NoError(t, err)
	for _, v := range vs {
		b, err := v.Marshal()
		require.NoError(t, err)
		r, err := pageround.Parse(b)
		require.NoError(t, err, v.ID)
		got := comparePageWithCLI(t, v.ID, r)
		want := map[string]string{vectors.FairnessSuccess: "verified", vectors.FairnessFailure: "failed", vectors.FairnessMalformed: "error"}[v.Expect]
		if got == "partial" {
			got = "verified" // the vectors claim no cards, or some
		}
		assert.Equal(t, want, got, "%s: %s", v.ID, v.Description)
	}
}

func TestPageLinkRoundTrip(t *testing.T) {
	vs, err := vectors.Fairness()
	require.NoError(t, err)
	for _, v := range vs[:10] {
		b, _ := v.Marshal()
		r, err := pageround.Parse(b)
		require.NoError(t, err)
		paid := int64(300)
		r.Bets = []pageround.Bet{{Box: 1, Ante: 100, Decision: "call", Paid: &paid}}
		link, err := pageround.Link("http://127.0.0.1:8080/#old", r)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(link, "http://127.0.0.1:8080/#r="), link)
		assert.NotContains(t, link, "old")
		back, err := pageround.Decode(link)
		require.NoError(t, err)
		r.V = pageround.Version
		assert.Equal(t, r, back, v.ID)
	}
	_, err = pageround.Decode("http://x/#q=abc")
	assert.ErrorContains(t, err, `"r="`)
	_, err = pageround.Decode("#r=***")
	assert.ErrorContains(t, err, "base64url")
	_, err = pageround.Decode("#r=" + "eyJ2Ijo5fQ") // {"v":9}
	assert.ErrorContains(t, err, "version 9")
	_, err = pageround.Parse([]byte(`{"scheme":"fairhold/v1","nosuch":1}`))
	assert.ErrorContains(t, err, "nosuch")
}
