package audit

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// Boundary state of a sharded replay (docs/sharding.md).
//
// A shard replays segments of the input, runs of consecutive input units,
// each with a Ledger of its own that starts empty. Its findings are those
// of one Ledger over the whole input only if every key the segment
// touches (table, seed, hash chain, seed session, wallet, round id) was
// in the state the empty Ledger assumed, or in a state from which the
// Ledger goes on the same way. So the segment's Ledger records, per key,
// its entry (what the key's first round in the segment had) and its exit
// (the key's state at the segment's end): the merge walks the segments in
// input order with the exits of the segments before, checks each entry
// against them, and either adds the findings that cross the boundary (a
// wallet's balance) or, where it cannot complete the state exactly,
// replays the traces instead.

// Session is who a seed or hash chain belongs to: a table, and the
// player of a single-box game.
type Session struct {
	Table, Player string
}

// SegmentBounds is what a segment's Ledger leaves for the merge.
type SegmentBounds struct {
	Wallets  []WalletBound
	Bindings []BindingBound // in the order of the players' first rounds in the segment
	Tables   []TableBound
	Seeds    []SeedBound
	Chains   []ChainBound
	Starts   []SessionStart // in input order
	Clients  []ClientEvent  // in input order
}

// WalletBound is a wallet's boundary state in a segment: its first round
// in the segment (the entry) and its balance after its last (the exit).
type WalletBound struct {
	Player string // the player id
	// Wallet is the wallet id when the balance chains by wallet (the
	// round names wallets), "" when it chains by player id.
	Wallet string

	// The entry: the wallet's first round in the segment.
	Tag      int64  // the Ledger's tag when the round was observed (the shard's chunk)
	RoundID  string // the round's id, file and row
	File     string
	Row      int64
	Field    string // the balance's field: boxes[i].balance_before or seats[i].stack_before
	Currency string // the round's currency, as findings name it
	Declared bool   // the round declared its currency (the Ledger compares wallets' currencies)
	Dup      bool   // the round's id was seen before (ROUND_DUPLICATE): its balance is not compared
	Before   int64
	// The round's time (as findings write it), table and game.
	Time, TableID, Game string

	// The exit: the wallet's balance after its last round in the segment,
	// and where that round is (PrevOK false when its row is not known).
	After    int64
	PrevFile string
	PrevRow  int64
	PrevOK   bool
}

// BindingBound is a player's state in a segment: the player's first round
// there with a wallet id (the entry; none when Wallet is ""), the wallet
// of their last (the exit), and their rounds and rotations in the
// segment. The merge reports WALLET_CHANGED on an entry whose wallet is
// not the exit of the segments before, and sums the counts.
type BindingBound struct {
	Player   string // the player id
	Wallet   string // the entry's wallet id, "" when no round of the player in the segment names one
	Tag      int64  // as WalletBound's
	RoundID  string
	File     string
	Row      int64
	Field    string // wallet_ids[k]
	Currency string // the round's currency, as findings name it
	// The round's time (as findings write it), table and game.
	Time, TableID, Game string
	Dup                 bool // the round's id was seen before: not compared
	// The exit: the wallet of the player's last round in the segment with
	// one.
	Exit string
	// The player's rounds in the segment, and the rotations of their own
	// client seed the segment's Ledger saw (one whose previous client
	// seed is in an earlier segment is the merge's to count).
	Rounds, Rotated int64
}

// WalletChangedFinding returns the WALLET_CHANGED of binding b's entry,
// whose player's last round with a wallet in the segments before was with
// wallet exit; ok is false when the wallet is the same (or either is
// none).
func WalletChangedFinding(b *BindingBound, exit string) (f finding.Finding, ok bool) {
	if b.Dup || b.Wallet == exit || b.Wallet == "" || exit == "" {
		return f, false
	}
	f = finding.Finding{
		Code: finding.WalletChanged, Severity: finding.SeverityOf(finding.WalletChanged), RoundID: b.RoundID,
		File: b.File, Row: b.Row, Field: b.Field,
		Expected: walletChangedExpected,
		Actual:   strconv.Quote(b.Wallet), PlayerID: b.Player, Currency: b.Currency,
	}
	f.SetRound(b.Time, b.TableID, b.Game, b.Currency)
	return f, true
}

// TableBound is a table's boundary state.
type TableBound struct {
	Table string
	// Entry: the table_seq of its first round (0: none), and the time of
	// its first timed round (when Timed).
	FirstSeq  uint64
	FirstTime int64
	// Exit: its numbering, its latest time, and its declared texts (from
	// its first declared round; Declared false for none).
	Numbered    bool
	Last, Max   uint64
	Unnumbered  int64
	Walletless  int64 // rounds with players and without wallet_ids
	Timed       bool
	LastTime    int64
	Declared    bool
	Scheme      string
	Profile     string
	ProfileHash string
}

// SeedBound is a single seed's boundary state.
type SeedBound struct {
	Seed    uint64 // the first 8 bytes of SHA-256 of the seed
	Session Session
	// Entry: the seed's first round in the segment.
	FirstNonce uint64
	RevealCmp  bool // the round's reveal time is compared (its times could be read)
	RevealOK   bool
	Reveal     int64
	PerBox     bool
	Chain      bool // a hash-chain link that did not verify, kept as a seed
	// Exit: the nonce sequence, and the session's declaration (Current:
	// the seed is its session's current one).
	Last, Max  uint64
	Current    bool
	Revealed   bool
	RevealAt   int64
	DeclPerBox bool
}

// ChainBound is a hash chain's boundary state.
type ChainBound struct {
	Anchor  [32]byte
	Owned   bool // a link verified and a session owns the chain
	Session Session
	// Entry: the chain's first verified round in the segment.
	FirstIndex uint64
	FirstStep  [32]byte // SHA-256 of its link
	PerBox     bool
	// Exit: the last link verified, and the link sequence.
	Index      uint64
	Link       [32]byte
	SeqOn      bool
	Last, Max  uint64
	Retired    bool
	DeclPerBox bool
}

// SessionStart is a session starting a seed or chain (its owner moves to
// it).
type SessionStart struct {
	Session Session
	Chain   bool
	Seed    uint64   // when !Chain
	Anchor  [32]byte // when Chain
}

// ClientEvent is a player joining a seed session (Added), or taking a new
// client seed in it (a logged rotation, or the session's first round).
type ClientEvent struct {
	Chain   bool
	Seed    uint64
	Anchor  [32]byte
	Player  string // "" for the client seeds as a whole
	Client  [16]byte
	Rotated bool
	Added   bool
}

// boundsState is a segment Ledger's record of its keys' entries.
type boundsState struct {
	tag      int64
	idx      int // the observed round's index in the chunk
	suppress bool
	digests  [][16]byte
	offs     []int32

	wallets []WalletBound
	fps     []uint64 // each wallet's fingerprint, as wallets
	binds   []BindingBound
	bindFPs []uint64         // each player's fingerprint, as binds
	bindIdx map[uint64]int32 // by player fingerprint: the index in binds

	seedSess  map[uint64]Session
	seedEnt   map[uint64]SeedBound
	chainEnt  map[[32]byte]ChainBound
	chainKeys map[uint64][32]byte
	starts    []SessionStart
	clients   []ClientEvent
}

// TrackBoundaries makes the Ledger record its keys' boundary state; call
// it before the first round. With suppress (a segment after the input's
// first), the findings that only an empty state implies (a seed's first
// nonce other than 0, a chain's first link other than 1) are left to the
// merge, which knows the state before.
func (l *Ledger) TrackBoundaries(suppress bool) {
	l.bounds = &boundsState{
		suppress: suppress, idx: -1,
		seedSess: map[uint64]Session{}, seedEnt: map[uint64]SeedBound{},
		chainEnt: map[[32]byte]ChainBound{}, chainKeys: map[uint64][32]byte{},
	}
}

// SetChunk sets the tag recorded with the entries of the next rounds, and
// their client seeds' digests ([ClientDigests]: round i's are
// digests[offs[i]:offs[i+1]]).
func (l *Ledger) SetChunk(tag int64, digests [][16]byte, offs []int32) {
	b := l.bounds
	b.tag, b.digests, b.offs, b.idx = tag, digests, offs, -1
}

func (t *Trace) sessionOf() Session {
	s := Session{Table: t.tableID}
	if t.sessPlayer && t.np > 0 {
		s.Player = t.player.name
	}
	return s
}

func (b *boundsState) seedEntry(t *Trace, fp uint64) {
	b.seedSess[fp] = t.sessionOf()
	b.seedEnt[fp] = SeedBound{FirstNonce: t.Nonce, RevealCmp: t.TimeOK && !t.revealBad, RevealOK: t.revealOK, Reveal: t.reveal,
		PerBox: t.perBox, Chain: t.chainIndex > 0}
}

func (b *boundsState) chainEntry(t *Trace) {
	b.chainEnt[t.link.anchor] = ChainBound{Session: t.sessionOf(), FirstIndex: t.chainIndex, FirstStep: t.link.step, PerBox: t.perBox}
}

func (b *boundsState) start(t *Trace, fp uint64, chain bool) {
	st := SessionStart{Session: t.sessionOf(), Chain: chain, Seed: fp}
	if chain {
		st.Anchor = t.link.anchor
	}
	b.starts = append(b.starts, st)
}

func (b *boundsState) clientEvent(t *Trace, key uint64, pair int, added bool) {
	ev := ClientEvent{Rotated: t.rotated, Added: added}
	if a, ok := b.chainKeys[key]; ok && t.chainIndex > 0 {
		ev.Chain, ev.Anchor = true, a
	} else {
		ev.Seed = key
	}
	if t.perBox {
		ev.Player = t.playerAt(pair).name
	}
	if b.idx >= 0 && b.idx+1 < len(b.offs) {
		if k := int(b.offs[b.idx]) + pair; k < int(b.offs[b.idx+1]) {
			ev.Client = b.digests[k]
		}
	}
	b.clients = append(b.clients, ev)
}

// ClientDigests computes the digests of rounds' client seeds as the
// Ledger pairs them with players (see clientPair): one per box or seat
// when the round has one client seed each, else one of the list. A digest
// is the first 16 bytes of SHA-256 of the seeds, each preceded by its
// length. It keeps the digests of the client inputs seen last, by their
// fingerprint: a seed session repeats them round after round.
type ClientDigests struct {
	m map[uint64][16]byte
}

// maxClientDigests bounds the digests a ClientDigests keeps.
const maxClientDigests = 1 << 14

// Append appends the digests of round r's client seeds, r having filled
// t, to dst.
func (c *ClientDigests) Append(dst [][16]byte, r *round.Round, t *Trace) [][16]byte {
	cs := r.Fairness.ClientSeeds
	if t.np == 0 {
		return dst
	}
	if !t.perBox {
		return append(dst, c.digest(t.ClientFP, cs))
	}
	for i := range t.np {
		if i < len(cs) {
			dst = append(dst, c.digest(t.playerAt(i).client, cs[i:i+1]))
		}
	}
	return dst
}

// digest returns the digest of cs, whose fingerprint is fp (0: none).
func (c *ClientDigests) digest(fp uint64, cs []string) [16]byte {
	if fp == 0 {
		return clientDigest(cs)
	}
	if d, ok := c.m[fp]; ok {
		return d
	}
	if c.m == nil || len(c.m) >= maxClientDigests {
		c.m = make(map[uint64][16]byte, 256)
	}
	d := clientDigest(cs)
	c.m[fp] = d
	return d
}

func clientDigest(cs []string) [16]byte {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	for _, c := range cs {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(c)))])
		h.Write([]byte(c))
	}
	var out [16]byte
	copy(out[:], h.Sum(nil))
	return out
}

// firstTouch records wallet p's first round in the segment.
func (b *boundsState) firstTouch(t *Trace, p *playerBalance, dup bool) {
	w := WalletBound{
		Player: p.name, Wallet: p.wallet, Tag: b.tag, RoundID: strings.Clone(t.RoundID), File: t.Src.File, Row: t.Src.Row,
		Field: balanceField(p), Currency: t.currency, Dup: dup, Before: p.before,
		Time: t.timeText(), TableID: t.tableID, Game: t.game,
	}
	if t.decl != nil {
		w.Declared, w.Currency = true, t.decl.currency
	}
	b.wallets = append(b.wallets, w)
	b.fps = append(b.fps, p.key)
}

// firstPlayer records player p's first round in the segment.
func (b *boundsState) firstPlayer(p *playerBalance) {
	if b.bindIdx == nil {
		b.bindIdx = map[uint64]int32{}
	}
	b.bindIdx[p.id] = int32(len(b.binds))
	b.binds = append(b.binds, BindingBound{Player: p.name})
	b.bindFPs = append(b.bindFPs, p.id)
}

// walletRound records a round of player p with a wallet id: the entry,
// when it is the player's first such round in the segment, and the exit.
func (b *boundsState) walletRound(t *Trace, p *playerBalance, dup bool) {
	x := &b.binds[b.bindIdx[p.id]]
	if x.Wallet == "" {
		x.Wallet, x.Tag, x.RoundID, x.File, x.Row = p.wallet, b.tag, strings.Clone(t.RoundID), t.Src.File, t.Src.Row
		x.Field, x.Currency, x.Dup = walletField(p), t.currency, dup
		x.Time, x.TableID, x.Game = t.timeText(), t.tableID, t.game
	}
	x.Exit = p.wallet
}

// Bounds returns the segment's boundary state, once every round is
// observed.
func (l *Ledger) Bounds() *SegmentBounds {
	b := l.bounds
	out := &SegmentBounds{Wallets: b.wallets, Bindings: b.binds, Starts: b.starts, Clients: b.clients}
	for i := range out.Bindings {
		x := &out.Bindings[i]
		ps := l.pstat[b.bindFPs[i]]
		x.Rounds, x.Rotated = int64(ps.rounds), int64(ps.rotated)
	}
	for i := range out.Wallets {
		w := &out.Wallets[i]
		last, ok := l.players.get(b.fps[i])
		if !ok {
			continue
		}
		w.After = last.after
		w.PrevFile, w.PrevRow, w.PrevOK = l.places.where(last.ord)
		w.PrevFile = strings.Clone(w.PrevFile)
	}
	for fp, st := range l.tableSeqs.m {
		tb := TableBound{Table: st.name, FirstSeq: st.firstSeq, FirstTime: st.firstTime, Numbered: st.numbered,
			Last: st.pos.last, Max: st.pos.max, Unnumbered: st.unnumbered, Walletless: st.walletless, Timed: st.timed, LastTime: st.last}
		if i, ok := l.declared.tableIdx[fp]; ok {
			d := l.declared.tables[i].d
			tb.Declared, tb.Scheme, tb.Profile, tb.ProfileHash = true, d.scheme, d.profile, d.profileHash
		}
		out.Tables = append(out.Tables, tb)
	}
	slices.SortFunc(out.Tables, func(a, b TableBound) int { return strings.Compare(a.Table, b.Table) })
	for fp, i := range l.seeds {
		s := &l.seedStates[i]
		sb := b.seedEnt[fp]
		sb.Seed, sb.Session = fp, b.seedSess[fp]
		sb.Last, sb.Max = s.seq.last, s.seq.max
		if s.decl > 0 {
			d := &l.declared.sessions[s.decl-1]
			sb.Current, sb.Revealed, sb.RevealAt, sb.DeclPerBox = true, d.flags&declRevealed != 0, d.reveal, d.flags&declPerBox != 0
		}
		out.Seeds = append(out.Seeds, sb)
	}
	slices.SortFunc(out.Seeds, func(a, b SeedBound) int { return cmp.Compare(a.Seed, b.Seed) })
	for a, st := range l.chains {
		cb := b.chainEnt[a]
		cb.Anchor, cb.Owned = a, st.owned
		cb.Index, cb.Link, cb.SeqOn, cb.Last, cb.Max = st.index, st.link, st.seqOn, st.seq.last, st.seq.max
		cb.Retired, cb.DeclPerBox = st.decl.flags&declRetired != 0, st.decl.flags&declPerBox != 0
		out.Chains = append(out.Chains, cb)
	}
	slices.SortFunc(out.Chains, func(a, b ChainBound) int { return strings.Compare(string(a.Anchor[:]), string(b.Anchor[:])) })
	return out
}

// balanceField is the field of p's balance before the round.
func balanceField(p *playerBalance) string {
	if p.seat {
		return seatField(int(p.slot), "stack_before")
	}
	return boxField(int(p.slot), "balance_before")
}

// previousText describes where a player's previous round is.
func previousText(file string, row int64, ok bool) string {
	return previousOf("player", file, row, ok)
}

// previousOf describes where the previous round of a player or wallet
// (who) is.
func previousOf(who, file string, row int64, ok bool) string {
	if !ok {
		return "the " + who + "'s previous round"
	}
	return fmt.Sprintf("the %s's round at %s row %d", who, file, row)
}

// balanceOwner is whose balance chain p's is: its wallet's, when the round
// names wallets, or else its player's.
func balanceOwner(wallet string) string {
	if wallet != "" {
		return "wallet"
	}
	return "player"
}

// BalanceGapFinding returns the BALANCE_GAP of wallet w's entry, whose
// previous round (in the segments before) left the balance after at
// prevFile row prevRow (prevOK false: not known), as a Ledger that
// observed both rounds reports it; ok is false when the balance chains.
func BalanceGapFinding(w *WalletBound, after int64, prevFile string, prevRow int64, prevOK bool) (f finding.Finding, ok bool) {
	if w.Dup || w.Before == after {
		return f, false
	}
	f = finding.Finding{
		Code: finding.BalanceGap, Severity: finding.SeverityOf(finding.BalanceGap), RoundID: w.RoundID,
		File: w.File, Row: w.Row, Field: w.Field,
		Expected: strconv.FormatInt(after, 10), Actual: strconv.FormatInt(w.Before, 10),
		Detail:   balanceGapDetail(previousOf(balanceOwner(w.Wallet), prevFile, prevRow, prevOK), w.Wallet),
		Currency: w.Currency, PlayerID: w.Player,
	}
	f.SetRound(w.Time, w.TableID, w.Game, w.Currency)
	f.SetAmounts(after, w.Before)
	return f, true
}

// balanceGapDetail is the detail of a BALANCE_GAP: where the balance
// expected comes from (previousOf), and the wallet when the round names
// wallets.
func balanceGapDetail(previous, wallet string) string {
	if wallet != "" {
		return "the balance after " + previous + "; wallet " + strconv.Quote(wallet)
	}
	return "the balance after " + previous
}

// TableRounds is a table's count of rounds without table_seq (Rounds) and
// of rounds with players and without wallet_ids (Walletless).
type TableRounds struct {
	Table      string
	Rounds     int64
	Walletless int64
}

// TableWarnings are the warnings of [Ledger.Warnings] for the tables ts
// (sorted by table id, each once): first those of the tables without
// table_seq, then those of the tables without wallet ids, at most
// maxTableWarnings of each and a line for the rest.
func TableWarnings(ts []TableRounds) []string {
	out := tableWarnings(nil, ts, func(t TableRounds) int64 { return t.Rounds },
		"%d rounds without table_seq: a dropped round at this table cannot be seen",
		"%d rounds without table_seq in all: a dropped round at these tables cannot be seen")
	return tableWarnings(out, ts, func(t TableRounds) int64 { return t.Walletless },
		"%d rounds without wallet_ids: money moved between two player ids of one wallet at this table cannot be seen",
		"%d rounds without wallet_ids in all: money moved between two player ids of one wallet at these tables cannot be seen")
}

func tableWarnings(out []string, ts []TableRounds, count func(TableRounds) int64, one, rest string) []string {
	var rounds int64
	n := 0
	for _, t := range ts {
		if c := count(t); c > 0 {
			rounds += c
			n++
		}
	}
	i := 0
	for _, t := range ts {
		c := count(t)
		if c == 0 {
			continue
		}
		if i == maxTableWarnings {
			out = append(out, fmt.Sprintf("%d more tables: "+rest, n-i, rounds))
			break
		}
		rounds -= c
		i++
		out = append(out, fmt.Sprintf("table %s: "+one, t.Table, c))
	}
	return out
}

// RoundIDs is a shard's round ids, for the merge to check that no id is in
// two shards (ROUND_DUPLICATE across shards): a numbered id (a prefix and
// a counter, see idSet) as runs of numbers per prefix and width, any other
// as a 64-bit FNV-1a hash. The hash needs no key: a collision, made or
// chance, only makes the merge replay the traces (docs/sharding.md).
type RoundIDs struct {
	Prefixes map[IDPrefix][]IDRun
	Hashes   []uint64

	last  IDPrefix
	lastR []IDRun
	ok    bool
}

// IDPrefix is the text before a numbered id's counter, and the counter's
// width in digits.
type IDPrefix struct {
	Prefix string
	Width  int
}

// IDRun is a run of counters lo..hi.
type IDRun struct{ Lo, Hi uint64 }

// Add adds a round id.
func (s *RoundIDs) Add(id string) {
	prefix, width, n, ok := splitID(id)
	if !ok {
		s.Hashes = append(s.Hashes, fnv64(id))
		return
	}
	if !s.ok || s.last.Width != width || s.last.Prefix != prefix {
		s.flush()
		s.last, s.ok = IDPrefix{strings.Clone(prefix), width}, true
		s.lastR = s.Prefixes[s.last]
	}
	if k := len(s.lastR); k > 0 && s.lastR[k-1].Hi+1 == n && n != 0 {
		s.lastR[k-1].Hi = n
		return
	}
	// Runs are appended as they come and joined by Done.
	s.lastR = append(s.lastR, IDRun{n, n})
}

func (s *RoundIDs) flush() {
	if !s.ok {
		return
	}
	if s.Prefixes == nil {
		s.Prefixes = map[IDPrefix][]IDRun{}
	}
	s.Prefixes[s.last] = s.lastR
}

// Merge adds o's ids (o's adding not ended by Done).
func (s *RoundIDs) Merge(o *RoundIDs) {
	o.flush()
	for k, rs := range o.Prefixes {
		s.flush()
		s.ok = false
		if s.Prefixes == nil {
			s.Prefixes = map[IDPrefix][]IDRun{}
		}
		s.Prefixes[k] = append(s.Prefixes[k], rs...)
	}
	s.Hashes = append(s.Hashes, o.Hashes...)
}

// Done ends the adding: Prefixes then holds every prefix's runs, sorted,
// disjoint and not adjacent.
func (s *RoundIDs) Done() {
	s.flush()
	s.ok = false
	for k, rs := range s.Prefixes {
		s.Prefixes[k] = JoinRuns(rs)
	}
}

// JoinRuns sorts rs and joins the runs that overlap or touch.
func JoinRuns(rs []IDRun) []IDRun {
	slices.SortFunc(rs, func(a, b IDRun) int { return cmp.Compare(a.Lo, b.Lo) })
	out := rs[:0]
	for _, r := range rs {
		if k := len(out); k > 0 && (r.Lo <= out[k-1].Hi || r.Lo-1 == out[k-1].Hi) {
			out[k-1].Hi = max(out[k-1].Hi, r.Hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
