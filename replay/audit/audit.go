// Package audit checks logged rounds: that their cards came from the
// committed seeds and that every bet was settled by the declared rules. It
// does no I/O; package replayer streams datasets through it.
//
// The work is split in two, so that the expensive part runs in parallel
// and the result does not depend on how many workers ran it:
//
//   - A [Checker] checks one [round.Round] on its own: the commitment (cached
//     per server seed, compared in constant time) and its time before the
//     round, the reveal time after the round, the first chain link, the
//     beacon and its publication after the commitment, a re-deal of the
//     cards from the seeds compared with the
//     logged cards, duplicate cards, the limits and call multiple, a
//     re-settlement of every bet compared with every logged return, the
//     balance arithmetic (before - stakes + returns = after) and the box
//     and seat numbers. It fills a [Trace], the little a round leaves for
//     the cross-round checks.
//     A Checker is not safe for concurrent use; use one per worker.
//   - A [Ledger] takes the traces in input order and checks what spans
//     rounds: duplicate round ids, each table's time order, no (server
//     seed, client input, nonce) reused, no seed in two sessions, chain
//     links against the previous link, each player's balance continuity
//     between consecutive rounds, and what stays fixed (declared.go): a
//     table's scheme and profile, a wallet's currency, a seed session's
//     owner, reveal time and client seeds.
//
// Start with [NewRulebook] (the rules profiles), a [Config] with
// [SchemeDealers] (the fairness schemes) and [DoubleEngine] (Double
// Hold'em settlement), then [NewChecker] per worker and one [NewLedger].
//
// When a return differs from the re-settlement the Checker re-settles the
// round counterfactually (as if the dealer qualified, as if the cap did not
// apply, as if the bonus were paid after a fold, ...) to name the specific
// code; [finding.ReturnMismatch] is left for differences nothing explains.
//
// Findings never contain a server seed that the round did not reveal, and
// revealed links only as short prefixes.
package audit

import (
	"crypto/subtle"
	"strconv"
	"strings"
	"time"

	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// Source locates a round in the input.
type Source struct {
	File string
	Row  int64 // row index within the file (the rounds table), from 0
}

// Config is what the checks need from the rest of the toolkit: how to
// deal, and the rules to settle by. A Config is read-only once checks run
// and may be shared by every Checker.
type Config struct {
	// Dealers re-derives cards from seeds.
	Dealers Dealers
	// Rules resolves each round's rules profile.
	Rules *Rulebook
	// Double settles a Double Hold'em hand and reports what differs from
	// the log; nil skips Double Hold'em settlement (cards and chips are
	// still checked).
	Double DoubleChecker
}

// Checker checks single rounds. Make one per goroutine with [NewChecker].
type Checker struct {
	day dayCache // the date of the last round time parsed
	cfg *Config

	// What was computed once per server seed: its bytes, its SHA-256,
	// the commitment check and the prepared dealer. A single-player game
	// interleaves many players' seeds, so a few thousand are kept.
	seeds    map[string]*seedEntry
	links    map[string]*seedEntry // hash-chain links (see linkCacheSize)
	spare    []*seedEntry          // entries dropped from seeds and links, to reuse
	cur      *seedEntry
	seedText string
	ids      *idCache // the current round's seed's id cache

	beaconKey string // chain, round and signatures of the last beacon verified
	beaconRnd []byte
	beaconAt  time.Time
	beaconErr error

	// The rules of the last profile and game seen.
	ruleKey   struct{ profile, game string }
	ruleEntry *entry
	ruleErr   error

	committedAt int64 // the round's commitment time, Unix microseconds (0: none)

	decls declCache // the rounds' declared scheme, profile and currency (declared.go)

	dealt [64]uint8 // the re-dealt card indices

	// The parsed cards of the Casino Hold'em round being checked.
	boxCards [6][2]card.Card
	// settled holds, per box of the round being checked, the rules
	// engine's settlement of its logged decision when checkBox made one
	// on the seeds' cards, for settleBest to reuse.
	settled [6]boxSettled
	dealer  [2]card.Card
	board   [5]card.Card

	ifPlayed IfPlayed // the Casino Hold'em round being checked, settled at its best (void.go)

	em emitter // the findings of the round being checked

	// ruleDecl is the declared texts the rules (ruleEntry) were last
	// checked with; hashOther, whether their profile hash is another
	// version than the rules'.
	ruleDecl  *declText
	hashOther bool

	idPrefix idPrefixCache // the last round id's prefix and its fingerprint

	// The ids traces hold: copies a finding of the Ledger can name, made
	// once rather than per round. names are player ids by fingerprint
	// (see playerName).
	names [nameCacheSize]struct {
		fp   uint64
		name string
	}
}

// nameCacheSize is the number of player ids the Checker keeps for traces
// (see playerName): a direct-mapped cache, 24 KiB.
const nameCacheSize = 1024

// playerName returns an owned copy of the player id id, whose
// fingerprint is fp, for a trace: the seed's session's player, or a copy
// kept from an earlier round. A copy is made only when the player was not
// seen recently, so a steady replay makes none.
func (c *Checker) playerName(fp uint64, id string) string {
	if c.ids.ok && c.ids.player == id {
		return c.ids.player
	}
	return c.otherName(fp, id)
}

// player returns the fingerprint of the player id id and an owned copy
// of it: fingerprintPlayer and playerName with one comparison for the
// seed's session's player.
func (c *Checker) player(id string) (uint64, string) {
	if c.ids.ok && c.ids.player == id && id != "" {
		return c.ids.playerFP, c.ids.player
	}
	fp := fingerprint(id)
	return fp, c.playerName(fp, id)
}

// walletAt returns an owned copy of the wallet id of r's i-th box or
// seat and its fingerprint, or "" when r names no wallets (the reader checks that a round
// names one per box or seat, or none).
func (c *Checker) walletAt(r *round.Round, i int) (string, uint64) {
	if i >= len(r.WalletIDs) {
		return "", 0
	}
	id := r.WalletIDs[i]
	if ids := c.ids; ids != nil && ids.walletFP != 0 && ids.wallet == id {
		return ids.wallet, ids.walletFP
	}
	fp := walletFingerprint(id)
	name := c.otherName(fp, id)
	if c.ids != nil {
		c.ids.wallet, c.ids.walletFP = name, fp
	}
	return name, fp
}

// otherName is playerName for a player other than the session's.
func (c *Checker) otherName(fp uint64, id string) string {
	n := &c.names[fp%nameCacheSize]
	if n.fp != fp || n.name != id {
		n.fp, n.name = fp, strings.Clone(id)
	}
	return n.name
}

// NewChecker returns a Checker using cfg.
func NewChecker(cfg *Config) *Checker {
	return &Checker{cfg: cfg, seeds: map[string]*seedEntry{}, links: map[string]*seedEntry{}}
}

// seedCacheSize bounds the Checker's cache of server seeds.
const seedCacheSize = 4096

// linkCacheSize bounds the Checker's cache of hash-chain links. A link
// serves one round, so caching it saves nothing, but its entry (the
// dealer's state among it) is reused for the next link: a few dozen
// entries stay in the processor's caches, where cycling through thousands
// took a cache miss on every line of an entry (the 1,000,000-round live
// replay took 5.05 to 6.14 s instead of 4.03 to 4.37, docs/replay.md).
const linkCacheSize = 64

// seedEntry is what the Checker keeps per server seed.
type seedEntry struct {
	text  string // the seed's text (owned: the round's may be reused)
	err   error  // the seed text is not 64 hex digits
	bytes [32]byte
	step  [32]byte // SHA-256 of the seed: its commitment, or the previous chain link

	commitText string // the commitment last checked against
	commit     [32]byte
	commitErr  error
	commitOK   bool // commit = step

	times timeCache // its commitment and reveal times
	ids   idCache   // its session's table and player
	// The client seeds last seen with it and their fingerprint.
	client   string
	clientFP uint64
	clientOK bool

	scheme    string // the scheme the dealer was prepared for
	dealer    Dealer
	dealerErr error

	// The dealer of the seed this entry held before, to give the new seed
	// (see [Rekeyer]): a hash-chain table has a new seed every round.
	oldScheme string
	oldDealer Dealer
}

// Rekeyer is a [Dealer] that can be prepared again for another server seed
// of its scheme without allocating, as the schemes' dealers can.
type Rekeyer = scheme.Rekeyer

// reuse empties e for another seed, keeping what does not depend on the
// seed: its dealer, to be rekeyed, and the time and id caches (a text's
// value does not change).
func (e *seedEntry) reuse() {
	old := *e
	*e = seedEntry{times: old.times, ids: old.ids, oldScheme: old.scheme, oldDealer: old.dealer,
		// The commitment's text and value: a chain's links share them.
		commitText: old.commitText, commit: old.commit, commitErr: old.commitErr}
	if old.dealerErr != nil || old.dealer == nil {
		e.oldScheme, e.oldDealer = old.oldScheme, old.oldDealer
	}
}

// prepare sets e's dealer for scheme, rekeying the entry's old dealer when
// it is of the same scheme.
func (c *Checker) prepare(e *seedEntry, scheme string) {
	if scheme == e.oldScheme {
		e.scheme = e.oldScheme
		if r, ok := e.oldDealer.(Rekeyer); ok && r.Rekey(e.bytes[:]) == nil {
			e.dealer, e.dealerErr = e.oldDealer, nil
			e.oldScheme, e.oldDealer = "", nil
			return
		}
	} else {
		e.scheme = strings.Clone(scheme)
	}
	e.dealer, e.dealerErr = c.cfg.Dealers.Prepare(scheme, e.bytes[:])
}

// seed returns the cache entry of a server seed's text; link tells
// whether the round names it a hash-chain link.
func (c *Checker) seed(text string, link bool) *seedEntry {
	if c.cur != nil && c.seedText == text {
		return c.cur
	}
	cache, size := c.seeds, seedCacheSize
	if link {
		cache, size = c.links, linkCacheSize
	}
	e, ok := cache[text]
	if !ok {
		if len(cache) >= size {
			for _, old := range cache {
				c.spare = append(c.spare, old)
			}
			clear(cache)
		}
		text = strings.Clone(text)
		if n := len(c.spare); n > 0 {
			e = c.spare[n-1]
			c.spare = c.spare[:n-1]
			e.reuse()
		} else {
			e = &seedEntry{commitText: "\x00"}
		}
		e.text, e.scheme = text, "\x00"
		e.bytes, e.err = decode32(text)
		if e.err == nil {
			e.step = step(e.bytes)
			// A reused entry keeps the commitment it was last checked
			// against: check the new seed against it.
			e.commitOK = e.commitErr == nil && e.commitText != "\x00" && subtle.ConstantTimeCompare(e.commit[:], e.step[:]) == 1
		}
		cache[text] = e
	}
	c.cur, c.seedText = e, e.text
	return e
}

// Check checks r, found at src, appends its findings to out and returns
// the extended slice. It fills t for [Ledger.Observe].
func (c *Checker) Check(r *round.Round, src Source, t *Trace, out []finding.Finding) []finding.Finding {
	c.em = emitter{r: r, src: src, out: out}
	e := &c.em
	start := len(out)
	c.ifPlayed = IfPlayed{}
	// The seed's cache also keeps the fingerprints of its session's ids.
	c.ids = &c.seed(r.Fairness.ServerSeed, r.Fairness.ChainIndex > 0).ids
	t.reset(r, src, c.ids, &c.idPrefix)
	d := c.decls.lookup(r)
	// d holds owned copies of the round's scheme, profile, profile hash
	// and currency: while it stays the same (and the game too), the
	// rules and the profile hash's check are the previous round's.
	t.decl, t.rotated, t.currency = d, r.Fairness.ClientSeedRotated, d.currency
	if d != c.ruleDecl || r.Game != c.ruleKey.game {
		if r.Profile != c.ruleKey.profile || r.Game != c.ruleKey.game {
			c.ruleKey.profile, c.ruleKey.game = strings.Clone(r.Profile), strings.Clone(r.Game)
			c.ruleEntry, c.ruleErr = c.cfg.Rules.lookup(r)
		}
		c.ruleDecl = d
		c.hashOther = r.ProfileHash != "" && c.ruleErr == nil && c.ruleEntry.hash != r.ProfileHash
	}
	t.game = c.ruleKey.game // r.Game, owned

	if c.hashOther {
		e.add(finding.ProfileMismatch, "profile_hash", c.ruleEntry.hash, r.ProfileHash, "the round names another version of its profile")
	}
	c.checkTimes(r, t, e)
	dealtOK := c.checkSeed(r, t, e)
	switch r.Game {
	case round.CasinoHoldem, round.LiveCasinoHoldem:
		c.checkCasino(r, t, dealtOK, e)
	case round.DoubleHoldem:
		c.checkDouble(r, t, dealtOK, e)
	default:
		e.add(finding.InputDamaged, "game", "casino-holdem, live-casino-holdem or double-holdem", quote(r.Game), "unknown game")
	}
	out = e.out
	c.em = emitter{}
	// Every finding about the round says when, at which table and in
	// which game it was played.
	t.Locate(out[start:])
	return out
}

// emitter appends findings about one round.
type emitter struct {
	r   *round.Round
	src Source
	out []finding.Finding
}

func (e *emitter) add(code finding.Code, field, expected, actual, detail string) {
	e.out = append(e.out, e.finding(code, field, expected, actual, detail, ""))
}

// addAmounts adds a money finding: one about an amount paid to or held
// by a player, which carries the amounts as integers besides their text.
func (e *emitter) addAmounts(a Amounts, code finding.Code, field, expected, actual, detail string) {
	f := e.finding(code, field, expected, actual, detail, a.Player)
	f.SetAmounts(a.Expected, a.Actual)
	e.out = append(e.out, f)
}

// finding returns a finding about the round being checked. The player
// concerned is player, or else the one of the box or seat field names, or
// else the round's only box's.
func (e *emitter) finding(code finding.Code, field, expected, actual, detail, player string) finding.Finding {
	if player == "" {
		player = playerOf(e.r, field)
	}
	return finding.Finding{
		Code: code, Severity: finding.SeverityOf(code), RoundID: strings.Clone(e.r.RoundID),
		File: e.src.File, Row: e.src.Row, Field: field,
		// The round's strings may be the reader's reused buffers: a
		// finding owns copies.
		Expected: strings.Clone(expected), Actual: strings.Clone(actual), Detail: strings.Clone(detail),
		PlayerID: strings.Clone(player), Currency: strings.Clone(e.r.Currency),
	}
}

// Amounts are what a money finding carries besides its text: the amount
// the replay expected and the amount the log holds, in minor units, and
// the player concerned when the finding's field does not name its box or
// seat (a pot's share).
type Amounts struct {
	Expected, Actual int64
	Player           string
}

// Reporter takes the findings about the round being checked, for a
// [DoubleChecker].
type Reporter struct{ e *emitter }

// Add reports a finding that is not about an amount.
func (r Reporter) Add(code finding.Code, field, expected, actual, detail string) {
	r.e.add(code, field, expected, actual, detail)
}

// AddAmounts reports a money finding with its amounts.
func (r Reporter) AddAmounts(a Amounts, code finding.Code, field, expected, actual, detail string) {
	r.e.addAmounts(a, code, field, expected, actual, detail)
}

// playerOf returns the player a finding about field of r concerns: the
// player of the box or seat field names ("boxes[2].ante_return",
// "double.seats[0].stack_before"), else the player of r's only box, else
// "".
func playerOf(r *round.Round, field string) string {
	if i, ok := fieldIndex(field, "boxes["); ok {
		if i < len(r.Boxes) {
			return r.Boxes[i].PlayerID
		}
		return ""
	}
	if i, ok := fieldIndex(field, "double.seats["); ok {
		if r.Double != nil && i < len(r.Double.Seats) {
			return r.Double.Seats[i].PlayerID
		}
		return ""
	}
	if len(r.Boxes) == 1 {
		return r.Boxes[0].PlayerID
	}
	return ""
}

// fieldIndex returns i when field begins with prefix, the decimal i and
// "]".
func fieldIndex(field, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(field, prefix)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "]")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(digits)
	return i, err == nil && i >= 0
}
