package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/cmd/fairhold/internal/pageround"
	"github.com/fairhold/fairhold/fairness/check"
)

// The players' page (issue 25), in headless Chromium: rounds made here from
// fairhold's own Go code (random seeds, dealt by pageround.Verify), never
// the page's examples or the fairness vectors.

// dealOf is the cards r's seeds deal, in dealing order.
func dealOf(t *testing.T, r pageround.Round) []string {
	t.Helper()
	v := pageround.Verify(r)
	require.NotEqual(t, "error", v.Result, v.Error)
	require.NotNil(t, v.Cards)
	return flatDeal(*v.Cards)
}

// rawLink is a link whose fragment is the JSON js as it is (not normalized
// by pageround: a link another tool, or an older page, made).
func rawLink(base, js string) string {
	return base + "#r=" + base64.RawURLEncoding.EncodeToString([]byte(js))
}

// recheck presses "Check this round": the round as the form now holds it.
func (b *pageBrowser) recheck() pageView {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.body.setAttribute('data-state', 'ready'); return true; })()`))
	require.NoError(b.t, err)
	require.NoError(b.t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#check"))))
	return b.waitDone(ctx)
}

// followLink opens link in the same tab, as a second link clicked while
// the page shows a round: only the fragment changes, the page stays.
func (b *pageBrowser) followLink(link string) pageView {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	frag := link[len(b.httpURL):]
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { document.body.setAttribute('data-state', 'ready'); location.hash = %q; return true; })()`, frag)))
	require.NoError(b.t, err)
	return b.waitDone(ctx)
}

func TestPagePlayersInChromium(t *testing.T) {
	b := newPageBrowser(t)
	rng := rand.New(rand.NewPCG(25, 2026))

	// 1. Only the seeds: no cards, no commitment. The page shows the deal
	// and says it cannot check the round (nothing binds the seed), instead
	// of staying on "Checking…".
	t.Run("seeds-only", func(t *testing.T) {
		for _, game := range []string{"casino-holdem", "live-casino-holdem", "double-holdem", ""} {
			r := randomRound(rng, game)
			r.Commitment = ""
			dealt := dealOf(t, r)
			got := b.fill(r)
			assert.Equal(t, "partial", got.Verdict, "%q: %s", game, got.Text)
			assert.Contains(t, got.Text, "Cannot check: nothing binds the server seed", game)
			assert.Empty(t, got.Checks, "%q: no check had its inputs", game)
			assert.True(t, got.AgreeOK, "%q: %s", game, got.Agree)
			if game != "" {
				assert.Equal(t, dealt, got.Cards, "%q: the deal is drawn", game)
			}
		}
	})

	// 2. A stake-compat claim that repeats a card (the scheme draws with
	// replacement): the claim is checked, and the no-repeated-cards check
	// fails; the card is not refused as "given twice".
	t.Run("stake-compat-repeat", func(t *testing.T) {
		var r pageround.Round
		var dealt []string
		for {
			r = randomRound(rng, "")
			r.Scheme, r.Count = "stake-compat", 12
			dealt = dealOf(t, r)
			if len(dealt) != len(slices.Compact(slices.Sorted(slices.Values(dealt)))) {
				break
			}
		}
		r.Cards = dealt
		want := comparePageWithCLI(t, "stake-compat repeat", r)
		require.Equal(t, "failed", want)
		for _, got := range []pageView{b.fill(r), b.open(b.httpURL, r)} {
			assert.Equal(t, "failed", got.Verdict, got.Text)
			assert.NotContains(t, got.Text, "given twice")
			assert.Contains(t, got.Checks, "cards:true")
			assert.Contains(t, got.Checks, "no-repeated-cards:false")
			assert.True(t, got.AgreeOK, got.Agree)
		}
	})

	// 3. A second link in the same tab: the form holds the second round
	// only, so checking it again gives the second round's verdict.
	t.Run("second-link", func(t *testing.T) {
		withCommitment := randomRound(rng, "casino-holdem")
		withCommitment.Cards = dealOf(t, withCommitment)
		withChain := randomRound(rng, "live-casino-holdem")
		sd, err := hex.DecodeString(withChain.ServerSeed)
		require.NoError(t, err)
		anchor := sd
		for range 3 {
			h := sha256.Sum256(anchor)
			anchor = h[:]
		}
		steps := uint64(3)
		withChain.Commitment = ""
		withChain.Chain = pageround.ChainClaim(hex.EncodeToString(anchor), &steps, 0)
		withChain.Cards = dealOf(t, withChain)
		noCards := randomRound(rng, "casino-holdem")
		for _, pair := range [][2]pageround.Round{{withCommitment, withChain}, {withChain, withCommitment}, {withCommitment, noCards}} {
			first, second := pair[0], pair[1]
			require.Equal(t, "verified", b.open(b.httpURL, first).Verdict)
			link, err := pageround.Link(b.httpURL, second)
			require.NoError(t, err)
			want := pageround.Verify(second).Result
			got := b.followLink(link)
			assert.Equal(t, want, got.Verdict, got.Text)
			again := b.recheck()
			assert.Equal(t, want, again.Verdict, "checked again from the form: %s", again.Text)
			assert.Equal(t, got.Checks, again.Checks)
			assert.Equal(t, got.Cards, again.Cards)
		}
	})

	// 4. A link without "hands": both implementations give the same result
	// as with it (Casino Hold'em has one box, Double Hold'em one hand a
	// seat); Live Casino Hold'em needs it, and both say so.
	t.Run("no-hands", func(t *testing.T) {
		for _, game := range []string{"casino-holdem", "double-holdem", "live-casino-holdem"} {
			r := randomRound(rng, game)
			r.Cards = dealOf(t, r)
			with := b.open(b.httpURL, r)
			frag, err := pageround.Fragment(r)
			require.NoError(t, err)
			raw, err := base64.RawURLEncoding.DecodeString(frag[2:])
			require.NoError(t, err)
			var m map[string]any
			require.NoError(t, json.Unmarshal(raw, &m))
			delete(m, "hands")
			delete(m, "count")
			js, err := json.Marshal(m)
			require.NoError(t, err)
			got := b.openLink(rawLink(b.httpURL, string(js)))
			assert.True(t, got.AgreeOK, "%s: %s", game, got.Agree)
			if game == "live-casino-holdem" {
				assert.Equal(t, "error", got.Verdict, got.Text)
				assert.Contains(t, got.Text, "hands")
				continue
			}
			assert.Equal(t, with.Verdict, got.Verdict, "%s: %s", game, got.Text)
			assert.Equal(t, with.Checks, got.Checks, game)
			assert.Equal(t, with.Cards, got.Cards, game)
		}
	})

	// 5. A card shown where the seeds deal another: the dealt card is
	// drawn, outlined, with the card shown beside it.
	t.Run("shown-beside-dealt", func(t *testing.T) {
		for _, game := range []string{"casino-holdem", "live-casino-holdem", "double-holdem"} {
			r := randomRound(rng, game)
			dealt := dealOf(t, r)
			r.Cards = slices.Clone(dealt)
			pos := rng.IntN(len(dealt))
			shown := otherCard(dealt)
			r.Cards[pos] = shown
			got := b.open(b.httpURL, r)
			assert.Equal(t, "failed", got.Verdict, got.Text)
			assert.Equal(t, dealt, got.Cards, "%s: the drawn cards are the deal", game)
			assert.Equal(t, []string{dealt[pos] + "<" + shown}, got.Shown, game)
			assert.Contains(t, got.DealNote, `marked "shown"`, game)
		}
		r := randomRound(rng, "casino-holdem")
		r.Cards = dealOf(t, r)
		got := b.open(b.httpURL, r)
		assert.Empty(t, got.Shown, "nothing drawn beside a deal that matches")
	})

	// 5. "wins" without bets is a showdown the page assumes, and it says
	// so; with bets (or a round record) the winners are the settlement's.
	t.Run("showdown", func(t *testing.T) {
		for _, game := range []string{"casino-holdem", "live-casino-holdem", "double-holdem"} {
			r := randomRound(rng, game)
			r.Cards = dealOf(t, r)
			got := b.open(b.httpURL, r)
			require.NotEmpty(t, got.Badges, game)
			for _, badge := range got.Badges {
				assert.Equal(t, "wins at a showdown", badge, game)
			}
			assert.Contains(t, got.DealNote, "wins at a showdown", game)
		}
		r := randomRound(rng, "casino-holdem")
		r.Cards = dealOf(t, r)
		r.Bets = []pageround.Bet{{Box: 1, Ante: 500, Decision: "call"}}
		got := b.open(b.httpURL, r)
		require.NotEmpty(t, got.Badges)
		for _, badge := range got.Badges {
			assert.Equal(t, "wins", badge, "a called box is played out")
		}
		assert.NotContains(t, got.DealNote, "showdown")
		link := simulatedLinks(t, "double-holdem", 1, b.httpURL)[0]
		got = b.openLink(link)
		assert.NotContains(t, got.DealNote, "showdown", "a record's winners are its pots'")
		for _, badge := range got.Badges {
			assert.Equal(t, "wins", badge)
		}
		// A record whose river is not the seeds': its payout is settled with
		// the cards it logs, so the winners drawn on the deal are a
		// showdown's, and the page says why.
		rec, err := pageround.Decode(simulatedLinks(t, "casino-holdem", 1, b.httpURL)[0])
		require.NoError(t, err)
		river := rec.Cards[len(rec.Cards)-1]
		other := otherCard(rec.Cards)
		rec.Cards[len(rec.Cards)-1] = other
		rec.Round = json.RawMessage(strings.Replace(string(rec.Round), `"`+river+`"]`, `"`+other+`"]`, 1))
		got = b.open(b.httpURL, rec)
		assert.Equal(t, "failed", got.Verdict, got.Text)
		assert.Contains(t, got.Checks, "cards:false")
		assert.Contains(t, got.Details[len(got.Details)-1], "(settled with the cards the record logs)")
		assert.Contains(t, got.DealNote, "the round record is settled with the cards it logs, not these")
		for _, badge := range got.Badges {
			assert.Equal(t, "wins at a showdown", badge)
		}
	})

	// 5. The usual copying mistakes are named as likely mistakes before
	// anyone speaks of cheating, as `fairhold verify` names them (the
	// same Go code).
	t.Run("hints", func(t *testing.T) {
		honest := randomRound(rng, "casino-holdem")
		honest.Cards = dealOf(t, honest)
		n, err := strconv.ParseUint(honest.Nonce, 10, 64)
		require.NoError(t, err)
		mistakes := []struct {
			name string
			edit func(r *pageround.Round)
			want []string
			form bool
		}{
			{"client seed with a space", func(r *pageround.Round) { r.ClientSeeds = []string{r.ClientSeeds[0] + " "} }, []string{"client-seed-white-space!"}, true},
			{"nonce off by one", func(r *pageround.Round) { r.Nonce = strconv.FormatUint(n+1, 10) }, []string{"nonce-off-by-one!"}, true},
			{"hashed seed pasted", func(r *pageround.Round) { r.ServerSeed = r.Commitment }, []string{"hashed-server-seed!", "every-card-differs"}, false},
			{"seed and commitment swapped", func(r *pageround.Round) { r.ServerSeed, r.Commitment = r.Commitment, r.ServerSeed },
				[]string{"swapped-seeds!", "every-card-differs"}, false},
			{"another deck", func(r *pageround.Round) { r.ClientSeeds = []string{"somebody-else"} }, []string{"every-card-differs"}, false},
		}
		for _, m := range mistakes {
			r := honest
			r.ClientSeeds = slices.Clone(honest.ClientSeeds)
			m.edit(&r)
			stdout, _, code := runCLI(pageVerifyArgs(r)...)
			require.Equal(t, exitVerified, code, m.name)
			var cli struct {
				Hints []struct {
					Kind      string `json:"kind"`
					Confirmed bool   `json:"confirmed"`
					Text      string `json:"text"`
				} `json:"hints"`
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &cli))
			var kinds []string
			for _, h := range cli.Hints {
				k := h.Kind
				if h.Confirmed {
					k += "!"
				}
				kinds = append(kinds, k)
			}
			if m.name != "hashed seed pasted" && m.name != "seed and commitment swapped" {
				assert.Equal(t, m.want, kinds, "%s: verify --json", m.name)
			} else {
				require.NotEmpty(t, kinds, m.name)
				assert.Equal(t, m.want[0], kinds[0], "%s: verify --json", m.name)
			}
			got := b.open(b.httpURL, r)
			if m.form {
				got = b.fill(r)
			}
			assert.Equal(t, "failed", got.Verdict, "%s: %s", m.name, got.Text)
			assert.Equal(t, kinds, got.Hints, "%s: the page's hints are verify's", m.name)
			for _, h := range cli.Hints {
				assert.Contains(t, got.HintText, h.Text, m.name)
			}
			if kinds[0][len(kinds[0])-1] == '!' {
				assert.Contains(t, got.Text, "most likely a copying mistake, not foul play", m.name)
			} else {
				assert.Contains(t, got.Text, "rule out the usual copying mistakes", m.name)
			}
		}
		got := b.open(b.httpURL, honest)
		assert.Equal(t, "verified", got.Verdict)
		assert.Empty(t, got.Hints)
	})

	// 5. Many rounds at once: links, rounds and round records, one a line,
	// pasted or from a file, each with its result.
	t.Run("batch", func(t *testing.T) {
		type line struct {
			text, want string
		}
		var lines []line
		slug := func(v pageround.Verdict) string {
			switch {
			case v.Result == "partial" && v.Unbound != "":
				return "cannot-check"
			case v.Result == "error":
				return "cannot-check"
			}
			return v.Result
		}
		addRound := func(r pageround.Round) {
			link, err := pageround.Link(b.httpURL, r)
			require.NoError(t, err)
			lines = append(lines, line{link, slug(pageround.Verify(r))})
		}
		for _, game := range []string{"casino-holdem", "live-casino-holdem", "double-holdem", ""} {
			r := randomRound(rng, game)
			dealt := dealOf(t, r)
			r.Cards = dealt
			addRound(r) // verified
			bad := r
			bad.Cards = slices.Clone(dealt)
			bad.Cards[len(dealt)-1] = otherCard(dealt)
			addRound(bad) // failed
			free := r
			free.Commitment = ""
			addRound(free) // cannot check
		}
		short := randomRound(rng, "casino-holdem")
		short.Cards = dealOf(t, short)[:3]
		addRound(short) // partial
		lines = append(lines, line{"not a round at all", "cannot-check"})
		// A round as JSON, as the link carries it.
		js := randomRound(rng, "live-casino-holdem")
		js.Cards = dealOf(t, js)
		raw, err := json.Marshal(js)
		require.NoError(t, err)
		lines = append(lines, line{string(raw), slug(pageround.Verify(js))})
		// Round records of a simulated log, its header line included, one
		// with a return the rules do not pay; each as verify --round says.
		dir := t.TempDir()
		_, stderr, code := runCLI("simulate", "--game", "casino-holdem", "--rounds", "4", "--out", dir, "--format", "jsonl", "--seed", "25")
		require.Equal(t, exitOK, code, stderr)
		log, err := os.ReadFile(filepath.Join(dir, "rounds", "part-00000.jsonl"))
		require.NoError(t, err)
		recs := strings.Split(strings.TrimSpace(string(log)), "\n")
		require.Contains(t, recs[0], "schema_version")
		recs = append(recs, strings.Replace(recs[1], `"ante_return":`, `"ante_return":1`, 1))
		for i, rec := range recs {
			if i == 0 {
				lines = append(lines, line{rec, ""}) // skipped
				continue
			}
			f := filepath.Join(dir, fmt.Sprintf("r%d.json", i))
			require.NoError(t, os.WriteFile(f, []byte(rec), 0o644))
			stdout, stderr, code := runCLI("verify", "--round", f, "--json")
			require.Contains(t, []int{exitOK, exitVerified}, code, stderr)
			var out struct {
				Verdict string `json:"verdict"`
				Unbound string `json:"unbound"`
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &out))
			lines = append(lines, line{rec, slug(pageround.Verdict{Result: out.Verdict, Verdict: check.Verdict{Unbound: out.Unbound}})})
		}
		assert.Equal(t, "failed", lines[len(lines)-1].want, "the changed return fails verify --round")
		var text []string
		var want []string
		counts := map[string]int{}
		for i, l := range lines {
			text = append(text, l.text)
			if l.want != "" {
				want = append(want, fmt.Sprintf("%d:%s", i+1, l.want))
				counts[l.want]++
			}
		}
		for _, k := range []string{"verified", "failed", "cannot-check", "partial"} {
			require.NotZero(t, counts[k], k)
		}
		input := strings.Join(text, "\n") + "\n"

		ctx, cancel := context.WithTimeout(b.ctx, 3*time.Minute)
		defer cancel()
		b.takeRequests()
		readRows := func() ([]string, string) {
			require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`body[data-batch="done"] #batch-result`))))
			rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#batch-rows tr')).map(tr => tr.getAttribute('data-line') + ':' + tr.getAttribute('data-result'))`))
			require.NoError(t, err)
			summary, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#batch-summary")))
			require.NoError(t, err)
			return rows, summary
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(b.fileURL),
			chromedp.WaitVisible(chromedp.CSS(`body[data-state="ready"]`)),
			chromedp.Click(chromedp.CSS("#batch-details summary"))))
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { document.getElementById('batch-input').value = %s; return true; })()`, jsString(input))))
		require.NoError(t, err)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#batch-check"))))
		rows, summary := readRows()
		assert.Equal(t, want, rows, "each line's result")
		n := len(want)
		assert.Contains(t, summary, fmt.Sprintf("%d rounds: %d verified, %d failed, %d cannot be checked, %d partial.",
			n, counts["verified"], counts["failed"], counts["cannot-check"], counts["partial"]))

		// The same lines from a file.
		file := filepath.Join(dir, "rounds.txt")
		require.NoError(t, os.WriteFile(file, []byte(input), 0o644))
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.body.setAttribute('data-batch', ''); document.getElementById('batch-input').value = ''; return true; })()`))
		require.NoError(t, err)
		require.NoError(t, chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.CSS("#batch-file"), []string{file})))
		fromFile, _ := readRows()
		assert.Equal(t, want, fromFile, "from a file")

		// "Show" opens one round of the table alone.
		failedRow := slices.IndexFunc(want, func(s string) bool { return strings.HasSuffix(s, ":failed") })
		require.GreaterOrEqual(t, failedRow, 0)
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.body.setAttribute('data-state', 'ready'); return true; })()`))
		require.NoError(t, err)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#batch-rows tr:nth-child(%d) button.open-round`, failedRow+1)))))
		got := b.waitDone(ctx)
		assert.Equal(t, "failed", got.Verdict, got.Text)
		for _, p := range b.takeRequests() {
			assert.True(t, strings.HasPrefix(p, "file://") || strings.HasPrefix(p, "about:") || strings.HasPrefix(p, "blob:") || strings.HasPrefix(p, "data:"),
				"the batch loads nothing: %s", p)
		}
	})

	for _, p := range b.takeProblems() {
		t.Errorf("browser: %s", p)
	}
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
