package audit

import (
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// Trace is what one round leaves for the cross-round checks. The Checker
// fills it; the Ledger reads it. Apart from RoundID, which the caller owns
// (see [Trace.OwnRoundID]), it holds no reference into the round, so the
// round's memory may be reused once Check returns.
type Trace struct {
	traceRound
	// Hash-chain rounds only (chainIndex > 0). Outside traceRound, so that
	// a trace's reset and the Ledger touch these 96 bytes for chain rounds
	// only.
	link chainLink
	// The second and later boxes or seats (np > 1), in storage kept from
	// the trace's last use. Outside traceRound, so that a reset writes the
	// trace without reading it: a recycled trace is usually out of the
	// processor's caches, and a read of it stalled the reset.
	more []playerBalance
}

// traceRound is the part of a [Trace] that every round sets.
type traceRound struct {
	Src     Source
	RoundID string
	idFP    uint64 // fingerprint of the round id
	// A numbered round id ("rng-1-10297"): the fingerprint of its prefix
	// and its number (see idSet).
	idPrefix, idNum uint64
	idNumbered      bool

	table   uint64 // fingerprint of the table id
	session uint64 // fingerprint of who the seed belongs to: the table, and the player of a single-box game

	// For the table's numbering (sequence.go): the table id, owned by the
	// Checker's id cache, and the round's table_seq (0 for none).
	tableID  string
	tableSeq uint64
	game     string // the round's game (owned: the Checker's copy), for findings

	Time   int64 // Unix microseconds
	TimeOK bool
	SeedOK bool // the seed and commitment could be read
	declaredFlags

	seedFP   uint64 // the first 8 bytes of SHA-256(seed)
	Nonce    uint64
	ClientFP uint64

	chainIndex uint64 // the round's hash-chain index, from 1; 0 for none

	currency string // the round's currency (owned: the declText's copy)

	player playerBalance // the first box or seat; the others are in Trace.more
	np     int

	declaredRound // what the round declares (declared.go)
}

// chainLink is what a hash-chain round leaves for the chain checks.
type chainLink struct {
	seed   [32]byte // the revealed link
	step   [32]byte // SHA-256(link): the previous link
	anchor [32]byte // the commitment: the chain's anchor
}

type playerBalance struct {
	id            uint64 // fingerprint of the player id
	name          string // the player id (owned: see Checker.playerName), for findings
	wallet        string // the wallet id (owned), or "" when the round names no wallets
	key           uint64 // the balance's chain: the wallet's fingerprint (walletFingerprint), or id
	client        uint64 // fingerprint of the player's client seed (see Trace.perBox)
	before, after int64
	slot          int8 // box or seat index
	seat          bool
}

// OwnRoundID copies the round id, so that the trace outlives the round.
func (t *Trace) OwnRoundID() { t.RoundID = strings.Clone(t.RoundID) }

func (t *Trace) reset(r *round.Round, src Source, ids *idCache, pc *idPrefixCache) {
	player := ""
	if r.Game == round.CasinoHoldem && len(r.Boxes) == 1 {
		// A single-player game's seeds belong to the player.
		player = r.Boxes[0].PlayerID
	}
	ids.lookup(r.TableID, player)
	t.traceRound = traceRound{Src: src, RoundID: r.RoundID, table: ids.tableFP, tableID: ids.table, tableSeq: r.TableSeq, session: ids.sessionFP}
	t.sessPlayer = player != ""
	t.setIDCached(r.RoundID, pc)
}

// idCache keeps the fingerprints of the last table and player seen with a
// server seed: they repeat on every round of the seed's session.
type idCache struct {
	table, player                string
	tableFP, sessionFP, playerFP uint64
	ok                           bool
	// The wallet last named with the seed and its fingerprint
	// (walletAt): a session's player plays from one wallet.
	wallet   string
	walletFP uint64
}

func (c *idCache) lookup(table, player string) {
	if c.ok && c.table == table && c.player == player {
		return
	}
	c.table, c.player, c.ok = strings.Clone(table), strings.Clone(player), true
	c.tableFP, c.playerFP = fingerprint(table), fingerprint(player)
	var h maphash.Hash
	h.SetSeed(fpSeed)
	h.WriteString(table)
	h.WriteByte(0)
	h.WriteString(player)
	c.sessionFP = h.Sum64()
}

// addPlayer adds a box's or seat's player: fp and name of the player id,
// and wallet, the wallet id ("" for none) whose fingerprint is wfp.
func (t *Trace) addPlayer(fp uint64, name, wallet string, wfp, client uint64, before, after int64, slot int, seat bool) {
	key := fp
	if wallet != "" {
		key = wfp
	}
	p := playerBalance{fp, name, wallet, key, client, before, after, int8(slot), seat}
	switch t.np {
	case 0:
		t.player = p
	case 1:
		t.more = append(t.more[:0], p)
	default:
		t.more = append(t.more, p)
	}
	t.np++
}

// playerAt returns the i-th player balance.
func (t *Trace) playerAt(i int) *playerBalance {
	if i == 0 {
		return &t.player
	}
	return &t.more[i-1]
}

// fingerprint hashes s to 64 bits with the start-up key.
func fingerprint(s string) uint64 { return maphash.String(fpSeed, s) }

// walletFingerprint hashes a wallet id apart from player ids: a wallet
// "p1" is not the player "p1" (the fingerprints of the two name spaces
// differ by a constant, so a wallet and a player collide only as two
// random keys do).
func walletFingerprint(id string) uint64 {
	if h := maphash.String(fpSeed, id) ^ walletSpace; h != 0 {
		return h
	}
	return 1 // 0 means no wallet (playerState)
}

// walletSpace tells wallet fingerprints from player fingerprints.
const walletSpace = 0x9e3779b97f4a7c15

// MaxChainWalk bounds how many hash steps the Ledger walks to connect a
// chain link to the last link it verified (or the anchor) when the rounds
// in between are not in the input.
const MaxChainWalk = 1 << 20

// Ledger checks what spans rounds. Feed it every round's [Trace] in input
// order with [Ledger.Observe]; its findings then do not depend on how the
// per-round checks were scheduled. Its memory grows with the number of
// round-id prefixes (a few words each when a table numbers its rounds in
// order) or of round ids (10 bytes each otherwise), of
// single seeds (a few words each, and about 10 bytes per change of client
// input within the seed's session), of hash chains (a few words each, not
// per link), of tables, of input files, and of players (a 16-byte map
// slot each); not with the size of the rounds. The maps that grow with
// rounds hold no pointer, so that the collector does not scan them.
type Ledger struct {
	ids idSet // round ids
	// The nonces seen per single seed and client input are in the seed's
	// state (seedNonces), its earlier runs in hist. A paired seed's are
	// here, keyed by pairKey: the first run, and the others for the few
	// keys that have more than one. Verified hash-chain links are in
	// neither: their chain's state covers them.
	nonces     map[uint64]nonceRange
	moreRuns   map[uint64][]nonceRange
	seeds      map[uint64]int32 // by seed fingerprint: the seed's state in seedStates
	seedStates []seedState
	hist       map[uint64][]byte        // by seed fingerprint
	seedIDs    []byte                   // the round ids of seedState.first and chainState.first
	chains     map[[32]byte]*chainState // by anchor (commitment)
	players    playerTable              // balances by chain key (playerBalance.key): wallet, or player
	pstat      map[uint64]playerState   // by player fingerprint
	rotNames   map[uint64]string        // the ids of the players with a rotation, by fingerprint
	places     places                   // where the rounds observed are, by ordinal
	declared   declState                // what tables, seed sessions and wallets declared (declared.go)

	tableSeqs tableSeqs // each table's round numbering (sequence.go)

	bounds *boundsState // a shard segment's keys at its boundaries (bounds.go), nil unless tracked
}

type seedState struct {
	session uint64
	first   textRef // the id of the round that first used the seed, in seedIDs
	nonces  seedNonces
	seq     seqPos   // the nonce sequence (sequence.go)
	decl    seedDecl // the seed's session, while current (declared.go)
}

// textRef is a text in one of the Ledger's byte slices.
type textRef struct {
	off int64
	n   int32
}

// chainState is a hash chain's state. A verified link is known by its
// index in the chain, so the chain holds what is per seed for its links:
// the session (a chain serves one), and the runs of indices used (a link
// serves one round). A hash-chain table therefore costs a few words per
// chain, not a seed's worth of state per round.
type chainState struct {
	index   uint64   // the last link verified, 0 for the anchor only
	link    [32]byte // that link
	owned   bool     // session and first are set
	session uint64
	first   textRef      // the id of the chain's first verified round, in seedIDs
	used    []nonceRange // the indices of the verified links rounds used

	seq   seqPos // the link sequence (sequence.go), once seqOn
	seqOn bool
	// entrySuppressed: a shard's segment after the first does not report
	// the chain's first link other than 1 (bounds.go; the merge does).
	entrySuppressed bool
	decl            chainDecl // what the chain's session declared (declared.go)
}

// NewLedger returns an empty Ledger.
func NewLedger() *Ledger {
	return &Ledger{
		seeds:    map[uint64]int32{},
		nonces:   map[uint64]nonceRange{},
		moreRuns: map[uint64][]nonceRange{},
		hist:     map[uint64][]byte{},
		chains:   map[[32]byte]*chainState{},
		players:  newPlayerTable(),
		pstat:    map[uint64]playerState{},
	}
}

// Reserve sizes the Ledger for n rounds, so that its set of round-id
// fingerprints, when ids are not numbered in order, does not grow (a
// growth holds the old and the new table at once).
func (l *Ledger) Reserve(n int64) { l.ids.reserve(n) }

// ObserveAll observes ts in order, as Observe does each.
func (l *Ledger) ObserveAll(ts []Trace, out []finding.Finding) []finding.Finding {
	// The set of round ids is far larger than the caches. Before a batch
	// of traces is observed, a tight loop loads the slot each will probe:
	// the loads depend on nothing in flight, so the processor overlaps
	// their misses instead of taking them one at a time.
	for len(ts) > 0 {
		batch := ts[:min(observeBatch, len(ts))]
		ts = ts[len(batch):]
		l.ids.touch(batch)
		for i := range batch {
			out = l.Observe(&batch[i], out)
		}
	}
	return out
}

// observeBatch is how many traces ObserveAll prefetches at a time.
const observeBatch = 32

// Observe checks t against the rounds observed before it, appends its
// findings to out and returns the extended slice.
func (l *Ledger) Observe(t *Trace, out []finding.Finding) []finding.Finding {
	add := func(code finding.Code, field, expected, actual, detail string) {
		out = append(out, t.finding(code, field, expected, actual, detail, nil))
	}
	ord := l.places.add(t.Src.File, t.Src.Row)
	if l.bounds != nil {
		l.bounds.idx++
	}
	if !l.ids.add(&t.traceRound) {
		// The other checks would only repeat what the first copy
		// established; the balances move on from the copy.
		add(finding.RoundDuplicate, "round_id", "a round id not seen before", quote(t.RoundID), "")
		for i := range t.np {
			p := t.playerAt(i)
			if l.bounds != nil {
				if _, ok := l.players.get(p.key); !ok {
					l.bounds.firstTouch(t, p, true)
				}
			}
			l.players.set(p.key, lastBalance{p.after, ord})
			ps := l.player(p)
			if p.wallet != "" {
				l.observeBinding(t, p, &ps, true, nil)
			}
			l.pstat[p.id] = ps
		}
		l.moveOnSeqs(t)
		return out
	}
	if t.TimeOK {
		// The table's last round time is kept with its numbering (one
		// lookup, through the tables' cache).
		st := l.tableSeqs.get(t)
		if st.timed && t.Time < st.last {
			add(finding.RoundOrder, "time", "at or after "+formatMicros(st.last)+" (the table's previous round)", formatMicros(t.Time), "")
		} else if !st.timed || t.Time > st.last {
			if !st.timed {
				st.firstTime = t.Time // the boundary state's entry (bounds.go)
			}
			st.last, st.timed = t.Time, true
		}
	}
	l.observeTableSeq(t, add)
	l.observeTable(t, add)
	if t.SeedOK {
		l.observeSeed(t, add)
	}
	for i := range t.np {
		p := t.playerAt(i)
		ps := l.player(p)
		if p.wallet != "" {
			out = l.observeBinding(t, p, &ps, false, out)
		}
		ps.countRound()
		l.pstat[p.id] = ps
		last, ok := l.players.get(p.key)
		if !ok && l.bounds != nil {
			l.bounds.firstTouch(t, p, false)
		}
		if !l.observeWallet(t, p, ok, last, add) && ok && p.before != last.after {
			f := t.finding(finding.BalanceGap, balanceField(p), strconv.FormatInt(last.after, 10),
				strconv.FormatInt(p.before, 10), balanceGapDetail(l.previousOf(balanceOwner(p.wallet), last), p.wallet), p)
			f.SetAmounts(last.after, p.before)
			out = append(out, f)
		}
		l.players.set(p.key, lastBalance{p.after, ord})
	}
	return out
}

// playerState is what the Ledger keeps per player id, in one 16-byte
// map value (a table churning players keeps millions): the wallet the
// player plays from (the chain key of their last round with wallet ids;
// 0 for none: no wallet's key is 0), and the player's rounds and
// rotations (rounds where their own client seed changed under a logged
// rotation), saturating at 2^32 - 1.
type playerState struct {
	wallet          uint64
	rounds, rotated uint32
}

// player returns the state of p's player, and records the player's entry
// on their first round when a shard segment's Ledger tracks boundaries.
// Write it back with setPlayer.
func (l *Ledger) player(p *playerBalance) playerState {
	ps, ok := l.pstat[p.id]
	if !ok && l.bounds != nil {
		l.bounds.firstPlayer(p)
	}
	return ps
}

// countRound counts a round of the player.
func (ps *playerState) countRound() {
	if ps.rounds < math.MaxUint32 {
		ps.rounds++
	}
}

// observeBinding checks that player p plays from the wallet of their
// earlier rounds (WALLET_CHANGED): a player id is one account's, whatever
// the number of its sessions; a player moved to a fresh wallet would
// leave the old wallet's money behind unseen. dup: t's round id was seen
// before, so only the state moves on.
func (l *Ledger) observeBinding(t *Trace, p *playerBalance, ps *playerState, dup bool, out []finding.Finding) []finding.Finding {
	if ps.wallet != 0 && ps.wallet != p.key && !dup {
		out = append(out, t.finding(finding.WalletChanged, walletField(p), walletChangedExpected, strconv.Quote(p.wallet), "", p))
	}
	ps.wallet = p.key
	if l.bounds != nil {
		l.bounds.walletRound(t, p, dup)
	}
	return out
}

// walletChangedExpected is a WALLET_CHANGED's expected value.
const walletChangedExpected = "the wallet of the player's earlier rounds"

// rotation counts a rotation of player p's own client seed.
func (l *Ledger) rotation(t *Trace, p *playerBalance) {
	ps := l.player(p)
	if ps.rotated < math.MaxUint32 {
		ps.rotated++
	}
	l.pstat[p.id] = ps
	if _, ok := l.rotNames[p.id]; !ok {
		if l.rotNames == nil {
			l.rotNames = map[uint64]string{}
		}
		l.rotNames[p.id] = p.name
	}
}

// PlayerRotations are the players with at least one rotation of their
// own client seed, with their rounds, sorted by player id. Call it once
// every round is observed.
func (l *Ledger) PlayerRotations() []PlayerCount {
	out := make([]PlayerCount, 0, len(l.rotNames))
	for fp, name := range l.rotNames {
		ps := l.pstat[fp]
		out = append(out, PlayerCount{Player: name, Rounds: int64(ps.rounds), Rotated: int64(ps.rotated)})
	}
	slices.SortFunc(out, func(a, b PlayerCount) int { return strings.Compare(a.Player, b.Player) })
	return out
}

// PlayerCount is a player's rounds and rotations of their own client seed.
type PlayerCount struct {
	Player          string
	Rounds, Rotated int64
}

// walletField is the field of p's wallet id: wallet_ids[k], k its box or
// seat index.
func walletField(p *playerBalance) string {
	return "wallet_ids[" + strconv.Itoa(int(p.slot)) + "]"
}

// finding returns a finding about t's round. The player concerned is p's
// when p is not nil, or else the round's only box's.
func (t *Trace) finding(code finding.Code, field, expected, actual, detail string, p *playerBalance) finding.Finding {
	if p == nil && t.np == 1 && !t.player.seat {
		p = &t.player
	}
	f := finding.Finding{
		Code: code, Severity: finding.SeverityOf(code), RoundID: t.RoundID,
		File: t.Src.File, Row: t.Src.Row, Field: field, Expected: expected, Actual: actual, Detail: detail,
	}
	if p != nil {
		f.PlayerID = p.name
	}
	f.SetRound(t.timeText(), t.tableID, t.game, t.currency)
	return f
}

// Locate sets, on each of fs (findings about t's round), the round's
// time, table and game, and its currency where a finding has none: what
// a reader of the findings needs to find the round without the log. The
// findings share one copy of each text.
func (t *Trace) Locate(fs []finding.Finding) {
	if len(fs) == 0 {
		return
	}
	at := t.timeText()
	for i := range fs {
		fs[i].SetRound(at, t.tableID, t.game, t.currency)
	}
}

// timeText returns the round's time as findings give it: RFC 3339 in UTC
// with the shortest fraction that keeps its microseconds (the form of
// manifest.FormatTime), or "" when the round's time could not be read.
func (t *Trace) timeText() string {
	if !t.TimeOK {
		return ""
	}
	return formatMicros(t.Time)
}

func (l *Ledger) observeSeed(t *Trace, add func(code finding.Code, field, expected, actual, detail string)) {
	if t.chainIndex > 0 {
		if l.observeChain(t, add) {
			return
		}
		l.brokenLinkSeq(t, add)
	}
	// A single seed, or a link that does not verify: the state is kept
	// per seed.
	fp := t.seedFP
	i, ok := l.seeds[fp]
	if !ok {
		s := seedState{session: t.session, first: l.keepText(t.RoundID)}
		if l.bounds != nil {
			l.bounds.seedEntry(t, fp)
		}
		l.startNonces(fp, &s.nonces, t.ClientFP, t.Nonce)
		l.startSeed(t, fp, &s.decl)
		if l.bounds != nil && l.bounds.suppress {
			s.seq = newSeqPos(t.Nonce) // the merge checks the start (bounds.go)
		} else {
			startNonceSeq(t, &s.seq, add)
		}
		l.seeds[fp] = int32(len(l.seedStates))
		l.seedStates = append(l.seedStates, s)
		return
	}
	// In place: one map lookup a round. Nothing below adds a seed.
	s := &l.seedStates[i]
	if s.session != t.session {
		add(finding.SeedReused, "fairness.server_seed", "one session (table, and player of a single-box game) per seed, first used in round "+l.text(s.first), "another session", "")
	} else {
		l.observeSeedDecl(t, fp, s.decl, s.first, add)
	}
	fresh := l.seedNonce(fp, &s.nonces, t.ClientFP, t.Nonce)
	nonceSeq(t, s, fresh, add)
	if !fresh {
		add(finding.NonceReused, "fairness.nonce", "a nonce not used before with this server seed and client input", strconv.FormatUint(t.Nonce, 10), "")
	}
}

// keepText stores s in l.seedIDs.
func (l *Ledger) keepText(s string) textRef {
	ref := textRef{int64(len(l.seedIDs)), int32(len(s))}
	l.seedIDs = append(l.seedIDs, s...)
	return ref
}

func (l *Ledger) text(r textRef) string { return string(l.seedIDs[r.off : r.off+int64(r.n)]) }

// observeChain checks a hash-chain round's link and reports whether it
// verified. A verified link is known by its chain and index, so its round
// is checked against the chain's state: one session per chain, one round
// per link. Whatever the nonce, a link that serves a second round is
// reported (docs/fairness.md section 6: round i uses link i); when the
// client input and nonce repeat as well, that round got the same deck.
func (l *Ledger) observeChain(t *Trace, add func(code finding.Code, field, expected, actual, detail string)) bool {
	c, index := &t.link, t.chainIndex
	st := l.chains[c.anchor]
	switch {
	case index == 1:
		// The Checker reports a first link that does not hash to the anchor.
		if subtle.ConstantTimeCompare(c.step[:], c.anchor[:]) != 1 {
			return false
		}
		if st == nil {
			st = &chainState{}
			l.chains[c.anchor] = st
		}
		if st.index < 1 {
			st.index, st.link = 1, c.seed
		}
	default:
		if st = l.observeLink(t, st, add); st == nil {
			return false
		}
	}
	if !st.owned {
		st.owned, st.session, st.first = true, t.session, l.keepText(t.RoundID)
		if l.bounds != nil {
			l.bounds.chainEntry(t)
			st.entrySuppressed = l.bounds.suppress
		}
		l.startChain(t, st)
	} else if st.session != t.session {
		add(finding.SeedReused, "fairness.commitment", "one session (table) per hash chain, first used in round "+l.text(st.first), "another session", "")
	} else {
		l.observeChainDecl(t, st, add)
	}
	var fresh bool
	if st.used, fresh = addNonce(st.used, index); !fresh {
		add(finding.ChainLinkReused, "fairness.chain_index", "a link no earlier round used (each round reveals its own link)", strconv.FormatUint(index, 10), "")
	}
	chainSeq(t, st, fresh, add)
	return true
}

// observeLink checks a chain link after the first against the last link
// verified (or the anchor), given the chain's state (nil for none yet). It
// returns the chain's state, nil when the link does not verify.
func (l *Ledger) observeLink(t *Trace, st *chainState, add func(code finding.Code, field, expected, actual, detail string)) *chainState {
	c, index := &t.link, t.chainIndex
	anchor, steps := c.anchor, index
	if st != nil && st.index < index {
		anchor, steps = st.link, index-st.index
	}
	switch {
	case steps == 1:
		if subtle.ConstantTimeCompare(c.step[:], anchor[:]) != 1 {
			add(finding.ChainLinkBroken, "fairness.server_seed", "SHA-256(link) = previous link "+short(anchor[:]), "SHA-256(link) = "+short(c.step[:]), fmt.Sprintf("chain index %d", index))
			return nil
		}
	case steps <= MaxChainWalk:
		if err := chain.VerifyAt(seed.Seed(c.step), seed.Seed(anchor), steps-1); err != nil {
			add(finding.ChainLinkBroken, "fairness.server_seed", fmt.Sprintf("link %d hashes to the link %d steps before it", index, steps), "it does not", "")
			return nil
		}
	default:
		add(finding.ChainLinkBroken, "fairness.chain_index", fmt.Sprintf("a link within %d steps of the last verified one", MaxChainWalk), strconv.FormatUint(index, 10), "not verified")
		return nil
	}
	if st == nil {
		st = &chainState{}
		l.chains[c.anchor] = st
	}
	if st.index < index {
		st.index, st.link = index, c.seed
	}
	return st
}

func formatMicros(us int64) string {
	return time.UnixMicro(us).UTC().Format(time.RFC3339Nano)
}

// addNonce records nonce n for key k and reports whether it was new.
func (l *Ledger) addNonce(k uint64, n uint64) bool {
	first, ok := l.nonces[k]
	if !ok {
		l.nonces[k] = nonceRange{n, n}
		return true
	}
	more := l.moreRuns[k]
	var buf [4]nonceRange
	rs, fresh := addNonce(append(append(buf[:0], first), more...), n)
	l.nonces[k] = rs[0]
	switch {
	case len(rs) > 1:
		l.moreRuns[k] = append(more[:0], rs[1:]...)
	case more != nil:
		delete(l.moreRuns, k)
	}
	return fresh
}

// pairKey is the 64-bit fingerprint of a (server seed, client input)
// pair, from their fingerprints: a map slot of 24 bytes rather than 32,
// with millions of pairs at a Double Hold'em table whose players come and
// go. Like the other fingerprints it is keyed at start-up (see
// docs/findings.md for the chance of a false NONCE_REUSED).
func pairKey(seed, client uint64) uint64 {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], seed)
	binary.LittleEndian.PutUint64(b[8:], client)
	return maphash.Bytes(fpSeed, b[:])
}

// nonceRange is a run of nonces seen, lo..hi inclusive.
type nonceRange struct{ lo, hi uint64 }

// addNonce adds n to the sorted, disjoint, non-adjacent runs rs and
// reports whether it was new. Nonces counted up one by one stay one run,
// so a session costs a few words however long it is.
func addNonce(rs []nonceRange, n uint64) ([]nonceRange, bool) {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].hi >= n })
	if i < len(rs) && rs[i].lo <= n {
		return rs, false
	}
	joinLeft := i > 0 && rs[i-1].hi == n-1
	joinRight := i < len(rs) && rs[i].lo == n+1
	switch {
	case joinLeft && joinRight:
		rs[i-1].hi = rs[i].hi
		rs = append(rs[:i], rs[i+1:]...)
	case joinLeft:
		rs[i-1].hi = n
	case joinRight:
		rs[i].lo = n
	default:
		rs = slices.Insert(rs, i, nonceRange{n, n})
	}
	return rs, true
}

// fpSet is a set of 64-bit fingerprints: open addressing over buckets of
// 8 slots (64 bytes, a cache line in a large table), at most 4/5 full. A
// fingerprint's home bucket is the high word of fingerprint x buckets
// (fingerprints are uniform), so the table need not be a power of two:
// reserved for n, it takes 10 bytes per fingerprint. A full bucket spills
// into the next. Zero is stored out of band.
type fpSet struct {
	slots []uint64
	n     int
	zero  bool
	sink  uint64
}

// bucketSlots is the number of slots of a bucket.
const bucketSlots = 8

// home returns the first slot of x's home bucket.
func (s *fpSet) home(x uint64) int {
	hi, _ := bits.Mul64(x, uint64(len(s.slots)/bucketSlots))
	return int(hi) * bucketSlots
}

// add inserts x and reports whether it was new.
func (s *fpSet) add(x uint64) bool {
	if x == 0 {
		was := s.zero
		s.zero = true
		return !was
	}
	if 5*(s.n+1) > 4*len(s.slots) {
		s.grow()
	}
	for i := s.home(x); ; {
		b := (*[bucketSlots]uint64)(s.slots[i : i+bucketSlots])
		for k := range b {
			switch b[k] {
			case x:
				return false
			case 0:
				b[k] = x
				s.n++
				return true
			}
		}
		if i += bucketSlots; i == len(s.slots) {
			i = 0
		}
	}
}

// touch loads the home bucket of each trace's round id (see
// Ledger.ObserveAll).
func (s *fpSet) touch(ts []Trace) {
	if len(s.slots) == 0 {
		return
	}
	var sink uint64
	for i := range ts {
		sink |= s.slots[s.home(ts[i].idFP)]
	}
	s.sink = sink // kept, so that the loads are not optimised away
}

// reserve makes room for n fingerprints without growing.
func (s *fpSet) reserve(n int64) {
	if n <= 0 || n > math.MaxInt/16 {
		return
	}
	buckets := max(128, int((5*(n+1)+4*bucketSlots-1)/(4*bucketSlots)))
	if size := buckets * bucketSlots; size > len(s.slots) {
		s.resize(size)
	}
}

func (s *fpSet) grow() { s.resize(max(128*bucketSlots, 2*len(s.slots))) }

func (s *fpSet) resize(size int) {
	old := s.slots
	s.slots = make([]uint64, size)
	s.n = 0
	for _, x := range old {
		if x != 0 {
			s.add(x)
		}
	}
}
