package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/cmd/fairhold/internal/pageround"
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

	for _, p := range b.takeProblems() {
		t.Errorf("browser: %s", p)
	}
	_ = strconv.Itoa
}
