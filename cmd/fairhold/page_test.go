package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/cmd/fairhold/internal/pageround"
	"github.com/fairhold/fairhold/fairness/check"
	"github.com/fairhold/fairhold/vectors"
)

// pageVerifyArgs is the `fairhold verify --json` command line of a page round.
func pageVerifyArgs(r pageround.Round) []string {
	args := []string{"verify", "--json", "--scheme", r.Scheme, "--server-seed", r.ServerSeed, "--nonce", r.Nonce}
	for _, c := range r.ClientSeeds {
		args = append(args, "--client-seed", c)
	}
	if r.Game != "" {
		args = append(args, "--game", r.Game)
	}
	if r.Count != 0 || r.Game == "" {
		args = append(args, "--count", strconv.Itoa(r.Count))
	}
	if r.Game == "live-casino-holdem" {
		args = append(args, "--boxes", strconv.Itoa(r.Hands))
	}
	if r.Seats != nil {
		seats := make([]string, len(r.Seats))
		for i, s := range r.Seats {
			seats[i] = strconv.Itoa(s)
		}
		args = append(args, "--seats", strings.Join(seats, ","))
	}
	if r.Button != 0 {
		args = append(args, "--button", strconv.Itoa(r.Button))
	}
	if r.Commitment != "" {
		args = append(args, "--commitment", r.Commitment)
	}
	if r.CommittedAt != "" {
		args = append(args, "--committed-at", r.CommittedAt)
	}
	if c := r.Chain; c != nil {
		args = append(args, "--chain-anchor", c.Anchor)
		steps, maxSteps := pageround.ChainSteps(c)
		if steps != nil {
			args = append(args, "--chain-steps", strconv.FormatUint(*steps, 10))
		}
		if maxSteps != 0 {
			args = append(args, "--chain-max-steps", strconv.Itoa(maxSteps))
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
		// verify exits 3 for a failed check, and for a partial claim
		// without --allow-partial.
		assert.Contains(t, []string{"failed", "partial"}, page.Result, name)
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

// simulatedLinks simulates n rounds of game into a JSON Lines log and
// returns the page links `fairhold replay --explain` prints for them.
func simulatedLinks(t *testing.T, game string, n int, base string) []string {
	t.Helper()
	dir := t.TempDir()
	_, stderr, code := runCLI("simulate", "--game", game, "--rounds", strconv.Itoa(n), "--out", dir, "--format", "jsonl")
	require.Equal(t, exitOK, code, stderr)
	b, err := os.ReadFile(filepath.Join(dir, "rounds", "part-00000.jsonl"))
	require.NoError(t, err)
	var links []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var rec struct {
			RoundID string `json:"round_id"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &rec))
		if rec.RoundID == "" {
			continue // the schema line
		}
		stdout, stderr, code := runCLI("replay", "--explain", rec.RoundID, "--page-url", base, dir)
		require.Equal(t, exitOK, code, stderr)
		links = append(links, strings.TrimSpace(stdout))
	}
	return links
}

// replay --explain links a logged round: the page's round has the log's
// seeds and cards, verifies, and settles as the log says.
func TestReplayExplainLink(t *testing.T) {
	for _, game := range []string{"casino-holdem", "live-casino-holdem", "double-holdem"} {
		links := simulatedLinks(t, game, 12, "http://127.0.0.1:8080/")
		for i, link := range links {
			require.True(t, strings.HasPrefix(link, "http://127.0.0.1:8080/#r="), link)
			r, err := pageround.Decode(link)
			require.NoError(t, err)
			assert.Equal(t, game, r.Game)
			assert.NotEmpty(t, r.Round, "the record travels for the settlement")
			v := pageround.Verify(r)
			assert.Contains(t, []string{"verified", "partial"}, v.Result, "%s round %d: %+v", game, i, v.Checks)
			if game != "double-holdem" {
				assert.Equal(t, "verified", v.Result, "a Casino Hold'em log shows every card")
			}
			_, err = pageround.SettleJSON(r.Round)
			if game != "double-holdem" {
				// The record's cards are the dealt ones: it settles as it is.
				assert.NoError(t, err, "%s round %d", game, i)
			}
		}
	}
	_, stderr, code := runCLI("replay", "--explain", "nosuch", t.TempDir())
	assert.NotEqual(t, exitOK, code, stderr)
}

func TestVerifyLink(t *testing.T) {
	args := []string{"verify", "--link", "--page-url", "file:///home/me/fairhold/index.html", "--game", "casino-holdem",
		"--server-seed", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"--commitment", "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
		"--client-seed", "player-seed-1", "--nonce", "1", "--cards", "AsKd"}
	stdout, stderr, code := runCLI(args...)
	require.Equal(t, exitOK, code, stderr)
	link := strings.TrimSpace(stdout)
	require.True(t, strings.HasPrefix(link, "file:///home/me/fairhold/index.html#r="), link)
	r, err := pageround.Decode(link)
	require.NoError(t, err)
	assert.Equal(t, []string{"As", "Kd"}, r.Cards)
	assert.Equal(t, 1, r.Hands)
	assert.Equal(t, 9, r.Count)
	v := pageround.Verify(r)
	assert.Equal(t, "failed", v.Result, "As Kd are not this round's first cards")

	// Malformed input is refused, naming what is wrong.
	bad := slices.Clone(args)
	bad[slices.Index(bad, "1")] = "-1"
	_, stderr, code = runCLI(bad...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "nonce")
}

// With --json, verify --link and replay --explain print one result object
// with the verdict, the same link as without --json and, for a logged
// round, its id; nothing else.
func TestPageLinkJSON(t *testing.T) {
	type result struct {
		Verdict string `json:"verdict"`
		Link    string `json:"link"`
		RoundID string `json:"round_id"`
		Unbound string `json:"unbound"`
	}
	decode := func(t *testing.T, stdout string) result {
		t.Helper()
		dec := json.NewDecoder(strings.NewReader(stdout))
		dec.DisallowUnknownFields()
		var r result
		require.NoError(t, dec.Decode(&r), stdout)
		assert.False(t, dec.More(), "one object")
		return r
	}

	verify := []string{"verify", "--link", "--game", "casino-holdem",
		"--server-seed", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"--client-seed", "player-seed-1", "--nonce", "1", "--cards", "3s 8h 4h"}
	plain, stderr, code := runCLI(verify...)
	require.Equal(t, exitOK, code, stderr)
	stdout, stderr, code := runCLI(append(verify, "--json")...)
	require.Equal(t, exitOK, code, stderr)
	assert.True(t, strings.HasPrefix(stdout, "{\n  \"verdict\": \"ok\",\n  \"link\": "), stdout)
	r := decode(t, stdout)
	// Nothing binds this claim's seed (no commitment): "unbound" says so.
	assert.Equal(t, result{Verdict: verdictOK, Link: strings.TrimSpace(plain), Unbound: check.UnboundReason}, r)
	assert.NotContains(t, stdout, "round_id", "a claim has no round id")

	dir := t.TempDir()
	_, stderr, code = runCLI("simulate", "--game", "live-casino-holdem", "--rounds", "4", "--seed", "2", "--out", dir, "--format", "jsonl")
	require.Equal(t, exitOK, code, stderr)
	plain, stderr, code = runCLI("replay", "--explain", "lch-2", dir)
	require.Equal(t, exitOK, code, stderr)
	stdout, stderr, code = runCLI("replay", "--explain", "lch-2", dir, "--json")
	require.Equal(t, exitOK, code, stderr)
	r = decode(t, stdout)
	assert.Equal(t, result{Verdict: verdictOK, Link: strings.TrimSpace(plain), RoundID: "lch-2"}, r)
	pr, err := pageround.Decode(r.Link)
	require.NoError(t, err)
	assert.Equal(t, "live-casino-holdem", pr.Game)
}

// Flags that --explain or --link cannot honour are usage errors, never
// ignored.
func TestPageLinkFlagMisuse(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := runCLI("simulate", "--game", "casino-holdem", "--rounds", "3", "--seed", "2", "--out", dir, "--format", "jsonl")
	require.Equal(t, exitOK, code, stderr)
	for _, name := range explainExcludes {
		val := "x.jsonl"
		switch name {
		case "shard":
			val = "0/2"
		case "shard-from-env":
			val = "2"
		}
		stdout, stderr, code := runCLI("replay", dir, "--explain", "ch-1", "--"+name, val)
		assert.Equal(t, exitUsage, code, name)
		assert.Contains(t, stderr, "--explain and --"+name+":", name)
		assert.Empty(t, stdout, name)
		assert.NoFileExists(t, "x.jsonl")
	}
	_, stderr, code = runCLI("replay", dir, "--page-url", "http://x/")
	assert.Equal(t, exitUsage, code, stderr)
	assert.Contains(t, stderr, "--page-url")
	_, stderr, code = runCLI("verify", "--server-seed", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"--client-seed", "a", "--nonce", "1", "--page-url", "http://x/")
	assert.Equal(t, exitUsage, code, stderr)
	assert.Contains(t, stderr, "--page-url")
}
