package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/cmd/fairhold/internal/pageround"
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/vectors"
)

// The players' verifier page in headless Chromium (docs/verifier-page.md,
// "Tests"). These tests start a browser and take tens of seconds, so they
// run only when FAIRHOLD_PAGE_BROWSER is set: "1" runs them when a Chromium
// is found and skips them otherwise, "require" (as .ci/web-browser sets it)
// fails without one. FAIRHOLD_CHROMIUM names the binary (default: chromium,
// chromium-browser, google-chrome on PATH). FAIRHOLD_PAGE_SCREENSHOTS names
// a directory for each game's verdict screenshot (docs/ keeps them);
// FAIRHOLD_PAGE_ROUNDS the number of random rounds a game of the property
// test (default 8).

// pageBrowser is a headless Chromium with the page served and saved.
type pageBrowser struct {
	t       *testing.T
	ctx     context.Context
	httpURL string // the page served by the handler of `fairhold serve`
	fileURL string // the page saved to a directory, opened as a file

	mu       sync.Mutex
	problems []string // console errors and CSP reports
	requests []string // the URLs the page requested
}

func pageChromium() string {
	if p := os.Getenv("FAIRHOLD_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func newPageBrowser(t *testing.T) *pageBrowser {
	t.Helper()
	mode := os.Getenv("FAIRHOLD_PAGE_BROWSER")
	if mode == "" {
		t.Skip("browser test: set FAIRHOLD_PAGE_BROWSER=1 (or run .ci/web-browser) to open the verifier page in headless Chromium")
	}
	exe := pageChromium()
	if exe == "" {
		if mode == "require" {
			t.Fatal("no Chromium found (FAIRHOLD_PAGE_BROWSER=require): apt-get install chromium, or set FAIRHOLD_CHROMIUM")
		}
		t.Skip("no Chromium found: apt-get install chromium (or set FAIRHOLD_CHROMIUM)")
	}
	h, err := newPageHandler()
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	// The saved copy: the page's files in a directory, as "Save page" or a
	// download would leave them.
	dir := t.TempDir()
	saved := filepath.Join(dir, "saved")
	sub, err := fs.Sub(webFS, "web")
	require.NoError(t, err)
	require.NoError(t, os.CopyFS(saved, sub))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(900, 1000),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		// No network but the test server on 127.0.0.1: every other host
		// resolves to nothing.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(cancelBrowser)
	b := &pageBrowser{t: t, ctx: bctx, httpURL: srv.URL + "/", fileURL: (&url.URL{Scheme: "file", Path: filepath.Join(saved, "index.html")}).String()}
	require.NoError(t, chromedp.Do(bctx, chromedp.Navigate("about:blank")))
	require.NoError(t, chromedp.Listen(bctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, ev.Request.URL)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				b.problems = append(b.problems, string(ev.Entry.Source)+": "+ev.Entry.Text)
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				d += " " + ev.ExceptionDetails.Exception.Description
			}
			b.problems = append(b.problems, "exception: "+d)
		}
	}))
	return b
}

// pageView is what the page shows after a check.
type pageView struct {
	Verdict     string   `json:"verdict"` // verified, partial, failed, error
	Text        string   `json:"text"`
	Agree       string   `json:"agree"`
	AgreeOK     bool     `json:"agreeOK"`
	Cards       []string `json:"cards"` // the drawn cards, in page order
	CardWords   []string `json:"cardWords"`
	Hands       []string `json:"hands"`   // data-hand of each drawn hand
	Winners     []string `json:"winners"` // data-hand of the highlighted ones
	Checks      []string `json:"checks"`  // "name:true|false"
	Mismatches  []string `json:"mismatches"`
	Details     []string `json:"details"` // each check's detail
	Settlement  string   `json:"settlement"`
	Overflowing bool     `json:"overflowing"`
	// Shown are the cards drawn beside a dealt one, "dealt<shown".
	Shown []string `json:"shown"`
	// Badges are the winners' badges; DealNote what the page says under
	// the deal.
	Badges   []string `json:"badges"`
	DealNote string   `json:"dealNote"`
	// Hints are the likely copying mistakes shown, "kind" ("kind!" when
	// confirmed), and HintText their text.
	Hints    []string `json:"hints"`
	HintText string   `json:"hintText"`
}

const readViewJS = `(() => {
	const q = (s) => Array.from(document.querySelectorAll(s));
	const r = document.getElementById('result');
	return {
		verdict: r.getAttribute('data-verdict') || '',
		text: document.getElementById('verdict').innerText,
		agree: document.getElementById('agree').innerText,
		agreeOK: document.getElementById('agree').classList.contains('agreed'),
		cards: q('#deal .card[data-card]').map(c => c.getAttribute('data-card')),
		cardWords: q('#deal .card .sr-only').map(c => c.textContent),
		hands: q('#deal .hand').map(h => h.getAttribute('data-hand')),
		winners: q('#deal .hand.winner').map(h => h.getAttribute('data-hand')),
		checks: q('#checks li').map(l => l.getAttribute('data-check') + ':' + l.getAttribute('data-ok')),
		mismatches: q('#mismatches li').map(l => l.textContent),
		details: q('#checks li .detail').map(l => l.textContent),
		settlement: document.getElementById('settlement-box').hidden ? '' : document.getElementById('settlement').innerText,
		overflowing: document.documentElement.scrollWidth > document.documentElement.clientWidth,
		shown: q('#deal .shown-card').map(c => c.closest('[role=listitem]').querySelector('[data-card]').getAttribute('data-card') + '<' + c.getAttribute('data-shown-card')),
		badges: q('#deal .badge').map(b => b.textContent),
		dealNote: document.getElementById('deal-note').hidden ? '' : document.getElementById('deal-note').textContent,
		hints: q('#hints li').map(l => l.getAttribute('data-hint') + (l.getAttribute('data-confirmed') === 'true' ? '!' : '')),
		hintText: document.getElementById('hints-box').hidden ? '' : document.getElementById('hints').innerText,
	};
})()`

// waitDone waits for the page to finish a check.
func (b *pageBrowser) waitDone(ctx context.Context) pageView {
	b.t.Helper()
	require.NoError(b.t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`body[data-state="done"] #result`))))
	v, err := chromedp.Run(ctx, chromedp.Evaluate[pageView](readViewJS))
	require.NoError(b.t, err)
	return v
}

// open opens base with the round in its fragment and reads the verdict.
func (b *pageBrowser) open(base string, r pageround.Round) pageView {
	b.t.Helper()
	link, err := pageround.Link(base, r)
	require.NoError(b.t, err)
	return b.openLink(link)
}

// openLink opens a link as it is (a round the page may never have made)
// and reads the verdict.
func (b *pageBrowser) openLink(link string) pageView {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	// A fresh navigation: about:blank first, so that a link differing from
	// the current page only in its fragment still loads the page.
	require.NoError(b.t, chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(link)))
	return b.waitDone(ctx)
}

// fill opens the page and fills its form with r, as a player would type
// it, and presses "Check this round".
func (b *pageBrowser) fill(r pageround.Round) pageView {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	set := func(id, val string) chromedp.Action[chromedp.Void] {
		if val == "" {
			// chromedp.SetValue cannot tell an empty value from a failure.
			return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { document.getElementById(%q).value = ""; return true; })()`, id)))
				return err
			})
		}
		return chromedp.SetValue(chromedp.CSS("#"+id), val)
	}
	change := func(id string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.getElementById(%q).dispatchEvent(new Event('change'))`, id)))
			return err
		})
	}
	acts := []chromedp.Action[chromedp.Void]{
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(b.httpURL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-state="ready"]`)),
		set("scheme", r.Scheme), set("game", r.Game), change("game"),
	}
	switch r.Game {
	case "live-casino-holdem":
		acts = append(acts, set("hands", strconv.Itoa(r.Hands)), change("hands"))
	case "double-holdem":
		seats := make([]string, len(r.Seats))
		for i, s := range r.Seats {
			seats[i] = strconv.Itoa(s)
		}
		acts = append(acts, set("seats", strings.Join(seats, ", ")), set("button", strconv.Itoa(r.Button)))
	case "":
		acts = append(acts, set("count", strconv.Itoa(r.Count)))
	}
	// The seeds are typed; the rest is pasted.
	acts = append(acts,
		chromedp.SendKeys(chromedp.CSS("#server_seed"), r.ServerSeed),
		set("client_seeds", strings.Join(r.ClientSeeds, "\n")),
		chromedp.SendKeys(chromedp.CSS("#nonce"), r.Nonce),
		set("commitment", r.Commitment),
		set("cards", strings.Join(r.Cards, " ")),
	)
	for _, bet := range r.Bets {
		acts = append(acts, set(fmt.Sprintf("bet-%d-ante", bet.Box), strconv.FormatInt(bet.Ante, 10)),
			set(fmt.Sprintf("bet-%d-decision", bet.Box), bet.Decision))
		if bet.Bonus > 0 {
			acts = append(acts, set(fmt.Sprintf("bet-%d-bonus", bet.Box), strconv.FormatInt(bet.Bonus, 10)))
		}
		if bet.Paid != nil {
			acts = append(acts, set(fmt.Sprintf("bet-%d-paid", bet.Box), strconv.FormatInt(*bet.Paid, 10)))
		}
	}
	if len(r.Bets) == 0 {
		// From the keyboard: Enter in a field submits the form.
		acts = append(acts, chromedp.SendKeys(chromedp.CSS("#nonce"), kb.Enter))
	} else {
		acts = append(acts, chromedp.Click(chromedp.CSS("#check")))
	}
	require.NoError(b.t, chromedp.Do(ctx, acts...))
	return b.waitDone(ctx)
}

func (b *pageBrowser) screenshot(name string) {
	dir := os.Getenv("FAIRHOLD_PAGE_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.Screenshot(chromedp.CSS("#result")))
	require.NoError(b.t, err)
	path := filepath.Join(dir, name)
	require.NoError(b.t, os.WriteFile(path, png, 0o644))
	b.t.Logf("screenshot %s (%d bytes)", path, len(png))
}

func (b *pageBrowser) takeRequests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.requests
	b.requests = nil
	return r
}

func (b *pageBrowser) takeProblems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.problems
	b.problems = nil
	return p
}

// pageRound turns a fairness vector into the page's round.
func pageRound(t *testing.T, id string) (pageround.Round, vectors.FairnessVector) {
	t.Helper()
	b, err := fs.ReadFile(vectors.FairnessFS(), "fairness/"+id+".json")
	require.NoError(t, err)
	r, err := pageround.Parse(b)
	require.NoError(t, err)
	v, err := vectors.ParseFairness(b)
	require.NoError(t, err)
	return r, v
}

// flatCards is the page's drawing order of a vector's layout: hands, the
// dealer, the board.
func flatCards(l *vectors.FairnessLayout) []string {
	var out []string
	for _, h := range l.Hands {
		out = append(out, h...)
	}
	out = append(out, l.Dealer...)
	out = append(out, l.Flop...)
	return append(out, l.Turn, l.River)
}

// otherCard returns a card not among cs.
func otherCard(cs []string) string {
	for _, r := range "AKQJT98765432" {
		for _, s := range "cdhs" {
			c := string(r) + string(s)
			if !slices.Contains(cs, c) {
				return c
			}
		}
	}
	return ""
}

func TestPageInChromium(t *testing.T) {
	b := newPageBrowser(t)
	games := []struct {
		game, pass string
		bets       []pageround.Bet
		wantHands  []string
		stake      string // a stake as the settlement shows it: formatted, in the form's currency (EUR)
	}{
		{"casino-holdem", "v1-casino-nonce-2", []pageround.Bet{{Box: 1, Ante: 100, Bonus: 100, Decision: "call"}}, []string{"player", "dealer", "board"}, "EUR 1.00"},
		{"live-casino-holdem", "v1-live-3-boxes", []pageround.Bet{{Box: 1, Ante: 500, Decision: "call"}, {Box: 3, Ante: 12345, Decision: "fold"}},
			[]string{"box-1", "box-2", "box-3", "dealer", "board"}, "EUR 123.45"},
		{"double-holdem", "v1-double-gapped-seats", nil, nil, ""},
	}
	for _, g := range games {
		t.Run(g.game, func(t *testing.T) {
			r, v := pageRound(t, g.pass)
			require.NotNil(t, v.Expected)
			dealt := flatCards(v.Expected.Layout)
			r.Cards = v.Expected.Cards
			r.Bets = g.bets

			// A passing round, typed into the form.
			got := b.fill(r)
			assert.Equal(t, "verified", got.Verdict, "%s: %s", g.pass, got.Text)
			assert.True(t, got.AgreeOK, "two implementations agree: %s", got.Agree)
			assert.Contains(t, got.Agree, "Two independent implementations agree")
			assert.Equal(t, dealt, got.Cards, "the drawn cards are the vector's deal")
			require.Len(t, got.CardWords, len(dealt))
			assert.Regexp(t, `^(ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two) of (clubs|diamonds|hearts|spades)$`, got.CardWords[0])
			if g.wantHands != nil {
				assert.Equal(t, g.wantHands, got.Hands)
			} else {
				assert.Len(t, got.Hands, len(v.Seats)+1, "one hand a seat, and the board")
			}
			assert.NotEmpty(t, got.Winners, "the winning hand is highlighted")
			if g.bets != nil {
				assert.Contains(t, got.Settlement, "ANTE", "each bet is settled")
				// Amounts in units of the currency, never in minor units.
				assert.Contains(t, got.Settlement, "Amounts in EUR.")
				assert.Contains(t, got.Settlement, g.stake)
				assert.Regexp(t, `Staked EUR [0-9,]+\.[0-9]{2}, returned EUR [0-9,]+\.[0-9]{2}\.`, got.Settlement)
			}
			assert.Contains(t, got.Checks, "commitment:true")
			assert.Contains(t, got.Checks, "cards:true")
			assert.False(t, got.Overflowing, "no sideways scrolling")
			b.screenshot("verifier-" + g.game + ".png")

			// "Make a link to this round" gives a link that checks the same.
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#make-link")), chromedp.WaitVisible(chromedp.CSS("#link"))))
			madeLink, err := chromedp.Run(b.ctx, chromedp.Value(chromedp.CSS("#link")))
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(madeLink, b.httpURL+"#r="), madeLink)
			mr, err := pageround.Decode(madeLink)
			require.NoError(t, err)
			assert.Equal(t, r.Cards, mr.Cards)
			assert.Equal(t, r.ServerSeed, mr.ServerSeed)
			assert.Equal(t, g.bets, mr.Bets)
			assert.Equal(t, "EUR", mr.Currency, "the link carries the currency")
			fromMade := b.open(b.httpURL, mr)
			assert.Equal(t, got.Verdict, fromMade.Verdict)
			assert.Equal(t, got.Settlement, fromMade.Settlement)

			// The same round from a link, served and from a saved copy.
			link := b.open(b.httpURL, r)
			assert.Equal(t, got.Verdict, link.Verdict)
			assert.Equal(t, got.Cards, link.Cards)
			b.takeRequests()
			saved := b.open(b.fileURL, r)
			for _, u := range b.takeRequests() {
				assert.True(t, strings.HasPrefix(u, "file://") || u == "about:blank" || strings.HasPrefix(u, "blob:") || strings.HasPrefix(u, "data:"),
					"the saved page loads nothing from the network: %s", u)
			}
			assert.Equal(t, got.Verdict, saved.Verdict, "file:// gives the same verdict")
			assert.Equal(t, got.Cards, saved.Cards)
			assert.True(t, saved.AgreeOK, "two implementations agree from file://: %s", saved.Agree)

			// Fewer cards: partial, never verified.
			short := r
			short.Cards = r.Cards[:4]
			p := b.open(b.httpURL, short)
			assert.Equal(t, "partial", p.Verdict, p.Text)
			assert.Contains(t, p.Text, "4 of the round's")

			// A failing round: the river replaced.
			bad := r
			bad.Cards = slices.Clone(r.Cards)
			river := len(bad.Cards) - 1
			shown := otherCard(bad.Cards)
			bad.Cards[river] = shown
			bad.Bets = nil
			f := b.fill(bad)
			assert.Equal(t, "failed", f.Verdict, f.Text)
			assert.Contains(t, f.Checks, "cards:false")
			assert.Equal(t, []string{fmt.Sprintf("river: %s shown, %s dealt", shown, v.Expected.Cards[river])}, f.Mismatches)
			assert.True(t, f.AgreeOK, "the implementations agree on the failure: %s", f.Agree)
			assert.Equal(t, dealt, f.Cards, "the page draws what the seeds deal")
			fs := b.open(b.fileURL, bad)
			assert.Equal(t, "failed", fs.Verdict, "file:// fails it too")
			if g.game == "casino-holdem" {
				b.screenshot("verifier-" + g.game + "-failed.png")
			}

			// A wrong commitment.
			wc := r
			wc.Commitment = strings.Repeat("0", 64)
			c := b.open(b.fileURL, wc)
			assert.Equal(t, "failed", c.Verdict)
			assert.Contains(t, c.Checks, "commitment:false")
			assert.Contains(t, c.Text, "commitment")
		})
	}

	// On a phone: no sideways scrolling, the cards still drawn.
	t.Run("phone", func(t *testing.T) {
		r, v := pageRound(t, "v1-live-6-boxes")
		r.Cards = v.Expected.Cards
		require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)))
		defer func() { require.NoError(t, chromedp.Do(b.ctx, chromedp.ResetViewport())) }()
		got := b.open(b.httpURL, r)
		assert.Equal(t, "verified", got.Verdict)
		assert.False(t, got.Overflowing, "no sideways scrolling at 390 px")
		assert.Len(t, got.Cards, 19)
		b.screenshot("verifier-phone.png")
	})

	// A round with a drand beacon: the BLS signature checked by the
	// WebAssembly build; a bad signature leaves the cards underivable.
	t.Run("beacon", func(t *testing.T) {
		r, _ := pageRound(t, "v1-beacon-quicknet-claimed-cards")
		got := b.open(b.fileURL, r)
		assert.Contains(t, got.Checks, "beacon-signature:true")
		assert.Contains(t, []string{"verified", "partial"}, got.Verdict, got.Text)
		assert.True(t, got.AgreeOK, got.Agree)
		r, _ = pageRound(t, "v1-beacon-quicknet-bad-signature")
		got = b.open(b.fileURL, r)
		assert.Equal(t, "failed", got.Verdict, got.Text)
		assert.Contains(t, got.Checks, "beacon-signature:false")
		assert.Empty(t, got.Cards, "no cards without a genuine beacon")
		assert.True(t, got.AgreeOK, got.Agree)
	})

	// When the two implementations disagree (here the WebAssembly build is
	// made to deal another flop card), the page says so loudly and gives no
	// verdict.
	t.Run("disagreement", func(t *testing.T) {
		r, v := pageRound(t, "v1-casino-nonce-2")
		r.Cards = v.Expected.Cards
		frag, err := pageround.Fragment(r)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
		defer cancel()
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(b.httpURL),
			chromedp.WaitVisible(chromedp.CSS(`body[data-state="ready"]`))))
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
			const verify = fairhold.verify;
			fairhold.verify = (s) => {
				const o = JSON.parse(verify(s));
				if (o.cards && o.cards.flop) o.cards.flop[0] = o.cards.flop[0] === 'As' ? 'Ks' : 'As';
				return JSON.stringify(o);
			};
			location.hash = '#`+frag+`';
			return true;
		})()`))
		require.NoError(t, err)
		got := b.waitDone(ctx)
		assert.Equal(t, "error", got.Verdict, got.Text)
		assert.Contains(t, got.Text, "disagree")
		assert.False(t, got.AgreeOK)
		assert.Contains(t, got.Agree, "DISAGREE")
		assert.Contains(t, got.Agree, "dealt cards differ")
	})

	// A round nothing binds (no commitment, no chain): every card matches
	// the seed, but the page cannot check it, and never says verified.
	t.Run("unbound", func(t *testing.T) {
		r, v := pageRound(t, "v1-casino-nonce-2")
		r.Cards = v.Expected.Cards
		r.Commitment = ""
		got := b.open(b.httpURL, r)
		assert.Equal(t, "partial", got.Verdict, got.Text)
		assert.Contains(t, got.Text, "Cannot check: nothing binds the server seed")
		assert.NotContains(t, got.Text, "Verified")
		assert.Contains(t, got.Checks, "cards:true")
		assert.True(t, got.AgreeOK, got.Agree)
	})

	// What the player says they were paid, compared with the settlement.
	t.Run("paid", func(t *testing.T) {
		r, v := pageRound(t, "v1-casino-nonce-2")
		r.Cards = v.Expected.Cards
		wrong := int64(123456)
		r.Bets = []pageround.Bet{{Box: 1, Ante: 100, Decision: "call", Paid: &wrong}}
		got := b.fill(r)
		assert.Equal(t, "failed", got.Verdict, got.Text)
		assert.Contains(t, got.Checks, "payout:false")
		assert.Contains(t, got.Details, " payout: box 1: paid EUR 1,234.56, the rules pay EUR 0.00")
		right := int64(0) // the dealer's full house beats the player's three of a kind
		r.Bets[0].Paid = &right
		got = b.open(b.httpURL, r)
		assert.Equal(t, "verified", got.Verdict, got.Text)
		assert.Contains(t, got.Checks, "payout:true")
	})

	// The amounts in the link's currency, with its decimals; a link without
	// one shows minor units, and says so.
	t.Run("currency", func(t *testing.T) {
		r, v := pageRound(t, "v1-casino-nonce-2")
		r.Cards = v.Expected.Cards
		r.Bets = []pageround.Bet{{Box: 1, Ante: 1500, Decision: "call"}}
		for cur, want := range map[string][]string{
			"JPY": {"Amounts in JPY.", "JPY 1,500", "JPY 3,000"},
			"KWD": {"Amounts in KWD.", "KWD 1.500", "KWD 3.000"},
			"BTC": {"Amounts in BTC.", "BTC 0.00001500"},
			"":    {"Amounts in minor units", "1,500 (minor units)"},
		} {
			r.Currency = cur
			got := b.open(b.httpURL, r)
			assert.Equal(t, "verified", got.Verdict, "%s: %s", cur, got.Text)
			for _, w := range want {
				assert.Contains(t, got.Settlement, w, cur)
			}
		}
	})

	// Every kind of text on a failed round's page has a contrast of at
	// least 4.5:1 (WCAG AA) with its background, in the light and the dark
	// colour scheme.
	t.Run("contrast", func(t *testing.T) {
		r, _ := pageRound(t, "v1-claimed-river-replaced")
		r.Bets = []pageround.Bet{{Box: 1, Ante: 100, Bonus: 100, Decision: "call"}}
		for _, scheme := range []string{"light", "dark"} {
			_, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			require.NoError(t, err)
			got := b.open(b.httpURL, r)
			require.Equal(t, "failed", got.Verdict)
			ratios, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]textContrast](contrastJS))
			require.NoError(t, err)
			require.Greater(t, len(ratios), 15)
			t.Logf("%s: %d texts measured", scheme, len(ratios))
			for _, c := range ratios {
				assert.GreaterOrEqual(t, c.Ratio, 4.5, "%s: %s (%s on %s) %q", scheme, c.Sel, c.Fg, c.Bg, c.Text)
			}
		}
		_, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
		require.NoError(t, err)
	})

	for _, p := range b.takeProblems() {
		t.Errorf("browser: %s", p)
	}

	// The policy holds in a saved copy: an inline script slipped into the
	// page does not run.
	t.Run("csp", func(t *testing.T) {
		dir := filepath.Dir(strings.TrimPrefix(b.fileURL, "file://"))
		page, err := os.ReadFile(filepath.Join(dir, "index.html"))
		require.NoError(t, err)
		tampered := strings.Replace(string(page), "<main>", `<main><script>document.title = "script ran"</script>`, 1)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "tampered.html"), []byte(tampered), 0o644))
		require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate("file://"+filepath.Join(dir, "tampered.html")),
			chromedp.WaitVisible(chromedp.CSS(`body[data-state="ready"]`))))
		title, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.title`))
		require.NoError(t, err)
		assert.NotEqual(t, "script ran", title, "the CSP forbids inline scripts")
		p := strings.Join(b.takeProblems(), "\n")
		assert.Contains(t, p, "Content Security Policy", "the browser reports the refused script")
	})
	for _, p := range b.takeProblems() {
		t.Errorf("browser: %s", p)
	}
}

// vectorOutcome is one vector's outcome in the page, by each implementation.
type vectorOutcome struct {
	ID string `json:"id"`
	Go string `json:"go"` // the WebAssembly build's verdict: verified, partial, failed, error
	JS string `json:"js"` // deal.js's: success, partial, failure, malformed
	// Failures are each implementation's failed checks.
	GoFailed []string `json:"goFailed"`
	JSFailed []string `json:"jsFailed"`
	// Cards are each implementation's dealt cards.
	GoCards string `json:"goCards"`
	JSCards string `json:"jsCards"`
}

// Every fairness vector gives the same verdict in the page, by both of its
// implementations, as the vector expects.
func TestPageVectorsInChromium(t *testing.T) {
	b := newPageBrowser(t)
	vs, err := vectors.Fairness()
	require.NoError(t, err)
	all, err := json.Marshal(vs)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Minute)
	defer cancel()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(b.fileURL), chromedp.WaitVisible(chromedp.CSS(`body[data-state="ready"]`))))
	js := `(async (vs) => {
		const flat = (d) => !d ? [] : d.draws ? d.draws : [].concat(d.player || [], ...(d.boxes || []), ...(d.seats || []).map(s => s.cards), d.dealer || [], d.flop || [], d.turn ? [d.turn] : [], d.river ? [d.river] : []);
		const out = [];
		for (const v of vs) {
			const go = JSON.parse(fairhold.verify(JSON.stringify(v)));
			const js = await fairholdDeal.checkVector(v, { verifyBeacon: fairhold.verifyBeacon });
			out.push({ id: v.id, go: go.verdict, js: js.verdict,
				goFailed: (go.checks || []).filter(c => !c.ok).map(c => c.name), jsFailed: js.failures || [],
				goCards: flat(go.cards).join(' '), jsCards: js.expected ? js.expected.cards.join(' ') : '' });
		}
		return out;
	})(` + string(all) + `)`
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]vectorOutcome](js, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	require.Len(t, got, len(vs))
	for i, v := range vs {
		o := got[i]
		require.Equal(t, v.ID, o.ID)
		switch v.Expect {
		case vectors.FairnessSuccess:
			assert.Contains(t, []string{"verified", "partial"}, o.Go, v.ID)
			assert.Contains(t, []string{"success", "partial"}, o.JS, v.ID)
		case vectors.FairnessFailure:
			assert.Equal(t, "failed", o.Go, v.ID)
			assert.Equal(t, "failure", o.JS, v.ID)
			assert.Equal(t, v.Failures, o.GoFailed, v.ID)
			assert.Equal(t, v.Failures, o.JSFailed, v.ID)
		case vectors.FairnessMalformed:
			assert.Equal(t, "error", o.Go, v.ID)
			assert.Equal(t, "malformed", o.JS, v.ID)
		}
		assert.Equal(t, o.GoCards, o.JSCards, "%s: both implementations deal the same cards", v.ID)
		if v.Expected != nil {
			assert.Equal(t, strings.Join(v.Expected.Cards, " "), o.JSCards, v.ID)
		}
	}
	for _, p := range b.takeProblems() {
		t.Errorf("browser: %s", p)
	}
}

// A property: over random rounds of each game, the page's verdict and
// checks are `fairhold verify --json`'s (in process), for rounds that pass,
// that claim part of the deal, that claim a wrong card and that name a
// wrong commitment.
func TestPageProperty(t *testing.T) {
	b := newPageBrowser(t)
	n := 8
	if s := os.Getenv("FAIRHOLD_PAGE_ROUNDS"); s != "" {
		var err error
		n, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	rng := rand.New(rand.NewPCG(17, 2026))
	for _, game := range []string{"casino-holdem", "live-casino-holdem", "double-holdem", ""} {
		for i := 0; i < n; i++ {
			r := randomRound(rng, game)
			base := pageround.Verify(r)
			require.NotNil(t, base.Cards, "the round deals")
			dealt := flatDeal(*base.Cards)
			switch i % 4 {
			case 0: // the whole deal
				r.Cards = dealt
			case 1: // part of it
				r.Cards = dealt[:1+rng.IntN(len(dealt)-1)]
			case 2: // a wrong card
				r.Cards = slices.Clone(dealt)
				r.Cards[rng.IntN(len(dealt))] = otherCard(dealt)
			case 3: // a wrong commitment
				r.Cards = dealt
				r.Commitment = fmt.Sprintf("%064x", rng.Uint64())
			}
			name := fmt.Sprintf("%s round %d", game, i)
			cli := comparePageWithCLI(t, name, r)
			got := b.open(b.httpURL, r)
			assert.Equal(t, cli, got.Verdict, "%s: %s", name, got.Text)
			want := make([]string, len(base.Checks))
			stdout, _, _ := runCLI(pageVerifyArgs(r)...)
			var out struct {
				Checks []struct {
					Name string `json:"name"`
					OK   bool   `json:"ok"`
				} `json:"checks"`
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &out), name)
			want = want[:0]
			for _, c := range out.Checks {
				want = append(want, fmt.Sprintf("%s:%t", c.Name, c.OK))
			}
			assert.Equal(t, want, got.Checks, name)
			assert.True(t, got.AgreeOK, "%s: %s", name, got.Agree)
			if game != "" {
				assert.Len(t, got.Cards, len(dealt), name)
			}
		}
	}
	for _, p := range b.takeProblems() {
		t.Errorf("browser: %s", p)
	}
}

// flatDeal is a deal's cards in dealing order.
func flatDeal(d layout.Deal) []string {
	if d.Draws != nil {
		return d.Draws
	}
	var out []string
	out = append(out, d.Player...)
	for _, b := range d.Boxes {
		out = append(out, b...)
	}
	for _, s := range d.Seats {
		out = append(out, s.Cards...)
	}
	out = append(out, d.Dealer...)
	out = append(out, d.Flop...)
	return append(out, d.Turn, d.River)
}

// randomRound is a random round of game ("" for a raw deal of 1..20 cards).
func randomRound(rng *rand.Rand, game string) pageround.Round {
	var sd [32]byte
	for i := range sd {
		sd[i] = byte(rng.Uint32())
	}
	commit := sha256.Sum256(sd[:])
	r := pageround.Round{
		Scheme: "fairhold/v1", Game: game, ServerSeed: hex.EncodeToString(sd[:]), Commitment: hex.EncodeToString(commit[:]),
		ClientSeeds: []string{fmt.Sprintf("player-%d", rng.Uint32())}, Nonce: strconv.FormatUint(rng.Uint64()>>rng.IntN(64), 10),
	}
	switch game {
	case "casino-holdem":
		r.Hands = 1
	case "live-casino-holdem":
		r.Hands = 1 + rng.IntN(6)
	case "double-holdem":
		seats := rng.Perm(10)[:2+rng.IntN(9)]
		for _, s := range seats {
			r.Seats = append(r.Seats, s+1)
		}
		r.Button = r.Seats[rng.IntN(len(r.Seats))]
		slices.Sort(r.Seats)
		r.Hands = len(r.Seats)
		for range len(r.Seats) - 1 {
			r.ClientSeeds = append(r.ClientSeeds, fmt.Sprintf("seat-%d", rng.Uint32()))
		}
	case "":
		r.Count = 1 + rng.IntN(20)
		if rng.IntN(2) == 0 {
			r.Scheme = "stake-compat"
		}
	}
	return r
}

// Links from `fairhold replay --explain` of simulated logs: the page
// verifies each round, settles it under the built-in profile and finds the
// operator's returns right; a return changed in the link is found wrong.
func TestPageExplainInChromium(t *testing.T) {
	b := newPageBrowser(t)
	for _, game := range []string{"casino-holdem", "live-casino-holdem", "double-holdem"} {
		links := simulatedLinks(t, game, 6, b.httpURL)
		for i, link := range links[:3] {
			r, err := pageround.Decode(link)
			require.NoError(t, err)
			got := b.open(b.httpURL, r)
			name := fmt.Sprintf("%s round %d", game, i)
			assert.Contains(t, []string{"verified", "partial"}, got.Verdict, "%s: %s", name, got.Text)
			assert.Contains(t, got.Checks, "payout:true", name)
			assert.True(t, got.AgreeOK, name)
			assert.NotEmpty(t, got.Settlement, name)
			// The record's currency (the simulator's EUR) gives the units.
			assert.Contains(t, got.Settlement, "Amounts in EUR.", name)
			assert.Regexp(t, `EUR [0-9,]+\.[0-9]{2}`, got.Settlement, name)
			assert.NotEmpty(t, got.Winners, "%s: the winners are highlighted", name)
			if i == 0 {
				// The operator's return, one minor unit more.
				var rec map[string]any
				require.NoError(t, json.Unmarshal(r.Round, &rec))
				if boxes, ok := rec["boxes"].([]any); ok {
					bx := boxes[0].(map[string]any)
					bx["ante_return"] = bx["ante_return"].(float64) + 1
				} else {
					seat := rec["double"].(map[string]any)["seats"].([]any)[0].(map[string]any)
					seat["stack_after"] = seat["stack_after"].(float64) + 1
				}
				r.Round, err = json.Marshal(rec)
				require.NoError(t, err)
				bad := b.open(b.fileURL, r)
				assert.Equal(t, "failed", bad.Verdict, "%s: %s", name, bad.Text)
				assert.Contains(t, bad.Checks, "payout:false", name)
				assert.Contains(t, bad.Text, "payout")
			}
		}
	}
	for _, p := range b.takeProblems() {
		t.Errorf("browser: %s", p)
	}
}

// textContrast is one element's text contrast.
type textContrast struct {
	Sel   string  `json:"sel"`
	Text  string  `json:"text"`
	Fg    string  `json:"fg"`
	Bg    string  `json:"bg"`
	Ratio float64 `json:"ratio"`
}

// contrastJS measures the WCAG contrast ratio of the text of each kind of
// element of the page with its background (the nearest ancestor's opaque
// background colour).
const contrastJS = `(() => {
	const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
	const lum = (c) => {
		const [r, g, b] = rgb(c).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
		return 0.2126 * r + 0.7152 * g + 0.0722 * b;
	};
	const bg = (el) => {
		for (let e = el; e; e = e.parentElement) {
			const c = getComputedStyle(e).backgroundColor;
			const v = rgb(c);
			if (v.length === 3 || (v.length === 4 && v[3] > 0)) return c;
		}
		return matchMedia('(prefers-color-scheme: dark)').matches ? 'rgb(18, 18, 18)' : 'rgb(255, 255, 255)';
	};
	const sels = ['h1', 'header p', 'legend', 'label', '.hint', 'summary', 'input', 'button#check', 'button#make-link',
		'#verdict', '#agree', '#checks li.ok .words', '#checks li.fail .words', '#checks .detail', '.mismatch',
		'.hand h4', '.hand-name', '.badge', '.card .rank', '.card .pip', 'th', 'td', '.totals', 'footer p'];
	const out = [];
	for (const s of sels) {
		for (const e of Array.from(document.querySelectorAll(s)).filter((e) => e.getClientRects().length).slice(0, 4)) {
			const fg = getComputedStyle(e).color, b = bg(e);
			const [l1, l2] = [lum(fg), lum(b)].sort((x, y) => y - x);
			out.push({ sel: s, text: (e.innerText || e.value || '').slice(0, 30), fg, bg: b, ratio: (l1 + 0.05) / (l2 + 0.05) });
		}
	}
	return out;
})()`
