package audit

import (
	"crypto/subtle"
	"fmt"
	"hash/maphash"
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
	Src     Source
	RoundID string
	idFP    uint64 // fingerprint of the round id

	table   uint64 // fingerprint of the table id
	session uint64 // fingerprint of who the seed belongs to: the table, and the player of a single-box game

	Time   int64 // Unix microseconds
	TimeOK bool
	SeedOK bool // the seed and commitment could be read

	seedFP   uint64 // the first 8 bytes of SHA-256(seed)
	Nonce    uint64
	ClientFP uint64
	link     *chainLink // hash-chain rounds only

	player playerBalance   // the first box or seat
	more   []playerBalance // the others
	np     int
}

// chainLink is what a hash-chain round leaves for the chain checks.
type chainLink struct {
	index  uint64
	seed   [32]byte // the revealed link
	step   [32]byte // SHA-256(link): the previous link
	anchor [32]byte // the commitment: the chain's anchor
}

type playerBalance struct {
	id            uint64 // fingerprint of the player id
	before, after int64
	slot          int8 // box or seat index
	seat          bool
}

// OwnRoundID copies the round id, so that the trace outlives the round.
func (t *Trace) OwnRoundID() { t.RoundID = strings.Clone(t.RoundID) }

func (t *Trace) reset(r *round.Round, src Source, ids *idCache) {
	more := t.more[:0]
	player := ""
	if r.Game == round.CasinoHoldem && len(r.Boxes) == 1 {
		// A single-player game's seeds belong to the player.
		player = r.Boxes[0].PlayerID
	}
	ids.lookup(r.TableID, player)
	*t = Trace{Src: src, RoundID: r.RoundID, idFP: fingerprint(r.RoundID), table: ids.tableFP, session: ids.sessionFP, more: more}
}

// idCache keeps the fingerprints of the last table and player seen with a
// server seed: they repeat on every round of the seed's session.
type idCache struct {
	table, player                string
	tableFP, sessionFP, playerFP uint64
	ok                           bool
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

// fingerprintPlayer returns the fingerprint of id, from the cache when it
// is the cached player.
func (c *idCache) fingerprintPlayer(id string) uint64 {
	if c.ok && c.player == id && id != "" {
		return c.playerFP
	}
	return fingerprint(id)
}

func (t *Trace) addPlayer(fp uint64, before, after int64, slot int, seat bool) {
	p := playerBalance{fp, before, after, int8(slot), seat}
	if t.np == 0 {
		t.player = p
	} else {
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

// MaxChainWalk bounds how many hash steps the Ledger walks to connect a
// chain link to the last link it verified (or the anchor) when the rounds
// in between are not in the input.
const MaxChainWalk = 1 << 20

// Ledger checks what spans rounds. Feed it every round's [Trace] in input
// order with [Ledger.Observe]; its findings then do not depend on how the
// per-round checks were scheduled. Its memory grows with the number of
// rounds (8 to 16 bytes per round for the set of round ids), seeds (a
// hash-chain table has one per round), tables
// and players, not with the size of the rounds.
type Ledger struct {
	ids fpSet // round ids
	// The nonces seen per (server seed, client input): the first run, and
	// the others for the few keys that have more than one. The per-seed
	// maps hold no pointers, so that the collector need not scan them (a
	// hash-chain table has a seed per round).
	nonces   map[[2]uint64]nonceRange
	moreRuns map[[2]uint64][]nonceRange
	seeds    map[uint64]seedState
	seedIDs  []byte                  // the round ids of seedState.first
	chains   map[[32]byte]chainState // by anchor (commitment)
	tables   map[uint64]int64        // last round time per table
	players  map[uint64]lastBalance
}

type seedState struct {
	session uint64
	first   textRef // the id of the round that first used the seed, in seedIDs
}

// textRef is a text in one of the Ledger's byte slices.
type textRef struct {
	off int64
	n   int32
}

type chainState struct {
	index uint64
	link  [32]byte
}

type lastBalance struct {
	after   int64
	roundID string
}

// NewLedger returns an empty Ledger.
func NewLedger() *Ledger {
	return &Ledger{
		seeds:    map[uint64]seedState{},
		nonces:   map[[2]uint64]nonceRange{},
		moreRuns: map[[2]uint64][]nonceRange{},
		chains:   map[[32]byte]chainState{},
		tables:   map[uint64]int64{},
		players:  map[uint64]lastBalance{},
	}
}

// Reserve sizes the Ledger for n rounds, so that its set of round ids
// does not grow (a growth holds the old and the new table at once).
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
		out = append(out, finding.Finding{
			Code: code, Severity: finding.SeverityOf(code), RoundID: t.RoundID,
			File: t.Src.File, Row: t.Src.Row, Field: field, Expected: expected, Actual: actual, Detail: detail,
		})
	}
	if !l.ids.add(t.idFP) {
		// The other checks would only repeat what the first copy
		// established; the balances move on from the copy.
		add(finding.RoundDuplicate, "round_id", "a round id not seen before", quote(t.RoundID), "")
		for i := range t.np {
			p := t.playerAt(i)
			l.players[p.id] = lastBalance{p.after, t.RoundID}
		}
		return out
	}
	if t.TimeOK {
		if last, ok := l.tables[t.table]; ok && t.Time < last {
			add(finding.RoundOrder, "time", "at or after "+formatMicros(last)+" (the table's previous round)", formatMicros(t.Time), "")
		} else if !ok || t.Time > last {
			l.tables[t.table] = t.Time
		}
	}
	if t.SeedOK {
		l.observeSeed(t, add)
	}
	for i := range t.np {
		p := t.playerAt(i)
		if last, ok := l.players[p.id]; ok && p.before != last.after {
			field := boxField(int(p.slot), "balance_before")
			if p.seat {
				field = seatField(int(p.slot), "stack_before")
			}
			add(finding.BalanceGap, field, fmt.Sprintf("%d (after round %s)", last.after, last.roundID),
				strconv.FormatInt(p.before, 10), "")
		}
		l.players[p.id] = lastBalance{p.after, t.RoundID}
	}
	return out
}

func (l *Ledger) observeSeed(t *Trace, add func(code finding.Code, field, expected, actual, detail string)) {
	fp := t.seedFP
	if s, ok := l.seeds[fp]; ok {
		if s.session != t.session {
			first := string(l.seedIDs[s.first.off : s.first.off+int64(s.first.n)])
			add(finding.SeedReused, "fairness.server_seed", "one session (table, and player of a single-box game) per seed, first used in round "+first, "another session", "")
		}
	} else {
		ref := textRef{int64(len(l.seedIDs)), int32(len(t.RoundID))}
		l.seedIDs = append(l.seedIDs, t.RoundID...)
		l.seeds[fp] = seedState{session: t.session, first: ref}
	}
	if !l.addNonce([2]uint64{fp, t.ClientFP}, t.Nonce) {
		add(finding.NonceReused, "fairness.nonce", "a nonce not used before with this server seed and client input", strconv.FormatUint(t.Nonce, 10), "")
	}
	switch c := t.link; {
	case c == nil:
	case c.index > 1:
		l.observeLink(t, add)
	case c.index == 1 && subtle.ConstantTimeCompare(c.step[:], c.anchor[:]) == 1:
		if st, ok := l.chains[c.anchor]; !ok || st.index < 1 {
			l.chains[c.anchor] = chainState{index: 1, link: c.seed}
		}
	}
}

// observeLink checks a chain link after the first against the last link
// verified (or the anchor).
func (l *Ledger) observeLink(t *Trace, add func(code finding.Code, field, expected, actual, detail string)) {
	c := t.link
	st, ok := l.chains[c.anchor]
	anchor, steps := c.anchor, c.index
	if ok && st.index < c.index {
		anchor, steps = st.link, c.index-st.index
	}
	switch {
	case steps == 1:
		if subtle.ConstantTimeCompare(c.step[:], anchor[:]) != 1 {
			add(finding.ChainLinkBroken, "fairness.server_seed", "SHA-256(link) = previous link "+short(anchor[:]), "SHA-256(link) = "+short(c.step[:]), fmt.Sprintf("chain index %d", c.index))
			return
		}
	case steps <= MaxChainWalk:
		if err := chain.VerifyAt(seed.Seed(c.step), seed.Seed(anchor), steps-1); err != nil {
			add(finding.ChainLinkBroken, "fairness.server_seed", fmt.Sprintf("link %d hashes to the link %d steps before it", c.index, steps), "it does not", "")
			return
		}
	default:
		add(finding.ChainLinkBroken, "fairness.chain_index", fmt.Sprintf("a link within %d steps of the last verified one", MaxChainWalk), strconv.FormatUint(c.index, 10), "not verified")
		return
	}
	if !ok || st.index < c.index {
		l.chains[c.anchor] = chainState{c.index, c.seed}
	}
}

func formatMicros(us int64) string {
	return time.UnixMicro(us).UTC().Format(time.RFC3339Nano)
}

// addNonce records nonce n for key k and reports whether it was new.
func (l *Ledger) addNonce(k [2]uint64, n uint64) bool {
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

// fpSet is a set of 64-bit fingerprints: open addressing, linear probing,
// 8 bytes a slot, at most 3/4 full. Zero is stored out of band.
type fpSet struct {
	slots []uint64
	n     int
	zero  bool
	sink  uint64
}

// add inserts x and reports whether it was new.
func (s *fpSet) add(x uint64) bool {
	if x == 0 {
		was := s.zero
		s.zero = true
		return !was
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := x & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case x:
			return false
		case 0:
			s.slots[i] = x
			s.n++
			return true
		}
	}
}

// touch loads the first slot each trace's round id probes (see
// Ledger.ObserveAll).
func (s *fpSet) touch(ts []Trace) {
	if len(s.slots) == 0 {
		return
	}
	mask := uint64(len(s.slots) - 1)
	var sink uint64
	for i := range ts {
		sink |= s.slots[ts[i].idFP&mask]
	}
	s.sink = sink // kept, so that the loads are not optimised away
}

// reserve makes room for n fingerprints without growing.
func (s *fpSet) reserve(n int64) {
	size := 1024
	for int64(3*size) < 4*n {
		size *= 2
	}
	if size > len(s.slots) {
		s.resize(size)
	}
}

func (s *fpSet) grow() { s.resize(max(1024, 2*len(s.slots))) }

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
