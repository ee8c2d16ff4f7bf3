package audit

import (
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// What was declared stays fixed (docs/replay.md, "What stays fixed").
//
// A table declares one fairness scheme and one rules profile (name and
// hash): the declaration is its first round in input order, and every
// later round that names another is reported ([finding.SchemeChanged],
// [finding.ProfileChanged]); the declaration does not move with the
// change, so a round that switches and the rounds after it that switch
// back are told apart. A wallet (a player id) holds one currency: the
// currency of the player's first round ([finding.CurrencyChanged]).
//
// A seed session is a single server seed, or a hash chain, and the rounds
// of its owner (the table; the table and the player for the single-player
// game) that use it. It is one contiguous run: once the owner has moved to
// another seed or chain, the old one never deals again; and every round of
// a single seed logs the reveal time its first round logs, so that no
// round is dealt after the seed was revealed ([finding.SeedReused]).
// Within a session each player keeps their client seed, unless the round
// logs a rotation (fairness.client_seed_rotated); a player who leaves and
// comes back within the session comes back with the same client seed
// ([finding.ClientSeedChanged]).
//
// The Checker's part is per round: the positions ([finding.PositionInvalid])
// and what a round leaves in its [Trace] for the rest (fingerprints of the
// declared texts, the reveal time, each player's client seed). The
// Ledger's part keeps a few words per table, per seed or chain, and per
// player whose currency is not the first one seen; the players of a session
// are kept only while the session is its owner's current one.

// declaredFlags are the declared facts of a round that fit in the padding
// of the Trace.
type declaredFlags struct {
	revealOK  bool // reveal holds the round's revealed_at
	revealBad bool // the round's revealed_at could not be read
	rotated   bool // fairness.client_seed_rotated
	// perBox: the round has one client seed per box or seat, so that
	// playerBalance.client is the player's client seed. Otherwise the
	// round's client seeds as a whole are the table's, kept like one
	// player's.
	perBox bool
	// sessPlayer: the round's seed session is its table's and its single
	// box's player's (see Trace.reset), not the table's alone.
	sessPlayer bool
}

// declaredRound is what a round leaves in its Trace for the checks of
// this file.
type declaredRound struct {
	decl   *declText // the round's scheme, profile and currency (the Checker's, shared between traces)
	reveal int64     // fairness.revealed_at, Unix microseconds (revealOK)
}

// declText is what a round declares that must stay fixed: its scheme,
// profile (name and hash) and currency, with their fingerprints. The
// Checker keeps a few (declCache) and the traces point to them, so that a
// round costs a pointer, and the Ledger compares fingerprints.
type declText struct {
	scheme, beacon, profile, profileHash, currency string
	schemeFP, profileFP, profileNameFP, currencyFP uint64
}

func (d *declText) matches(r *round.Round) bool {
	return d.scheme == r.Fairness.Scheme && d.beacon == beaconUse(r) && d.profile == r.Profile && d.profileHash == r.ProfileHash && d.currency == r.Currency
}

// beaconUse is the drand chain a round mixes in, "" for none. Whether a
// table's rounds mix in a beacon, and from which chain, is part of its
// scheme: a table that chose per round between no beacon and a beacon, or
// between chains, would choose among decks (docs/fairness.md 7).
func beaconUse(r *round.Round) string {
	f := &r.Fairness
	if f.BeaconRound == 0 && f.BeaconSignature == "" {
		return ""
	}
	if f.BeaconChain == "" {
		return "?" // a beacon on no chain: still a beacon
	}
	return f.BeaconChain
}

// schemeText is the declared scheme: the scheme's name, with the drand
// chain its rounds mix in.
func (d *declText) schemeText() string {
	switch d.beacon {
	case "":
		return d.scheme
	case "?":
		return d.scheme + " with a drand beacon of no chain"
	}
	return d.scheme + " with the drand " + d.beacon + " beacon"
}

// profileText is the profile's name and the start of its hash.
func (d *declText) profileText() string {
	if d.profileHash == "" {
		return d.profile + " (no profile_hash)"
	}
	return d.profile + " " + shortHex(d.profileHash)
}

// declCache is the Checker's declTexts: the current one and a few recent
// ones (the single-player game interleaves the players' currencies).
type declCache struct {
	cur    *declText
	recent [8]*declText
	next   int
}

// lookup returns the declText of r, making one only for a combination not
// among the recent ones.
func (c *declCache) lookup(r *round.Round) *declText {
	if c.cur != nil && c.cur.matches(r) {
		return c.cur
	}
	for _, d := range c.recent {
		if d != nil && d.matches(r) {
			c.cur = d
			return d
		}
	}
	d := &declText{scheme: strings.Clone(r.Fairness.Scheme), beacon: strings.Clone(beaconUse(r)), profile: strings.Clone(r.Profile),
		profileHash: strings.Clone(r.ProfileHash), currency: strings.Clone(r.Currency)}
	d.schemeFP, d.currencyFP, d.profileNameFP = fingerprint(d.schemeText()), fingerprint(d.currency), fingerprint(d.profile)
	var h maphash.Hash
	h.SetSeed(fpSeed)
	h.WriteString(d.profile)
	h.WriteByte(0)
	h.WriteString(d.profileHash)
	d.profileFP = h.Sum64()
	c.recent[c.next] = d
	c.next = (c.next + 1) % len(c.recent)
	c.cur = d
	return d
}

// clientAt returns the fingerprint of the client seed of box or seat i of
// n, or 0 when the round's client seeds are not one per box or seat.
func clientAt(r *round.Round, t *Trace, i, n int) uint64 {
	cs := r.Fairness.ClientSeeds
	switch {
	case len(cs) != n:
		return 0
	case n == 1 && t.SeedOK:
		return t.ClientFP // the same fingerprint, cached per seed
	}
	return clientFingerprint(cs[i : i+1])
}

// checkPositions reports the box (or seat) numbers nums that are outside
// 1..hi, listed twice, or not in increasing order, as POSITION_INVALID
// findings, and reports whether every number is valid. Two boxes with one
// number are two players at one box.
func checkPositions(e *emitter, nums []int, hi int, seat bool) bool {
	what, field := "box", func(i int) string { return boxField(i, "box") }
	if seat {
		what, field = "seat", func(i int) string { return seatField(i, "seat") }
	}
	hi = min(hi, 63)
	ok, prev := true, 0
	var seen uint64
	for i, n := range nums {
		var expected, actual string
		switch {
		case n < 1 || n > hi:
			expected, actual = fmt.Sprintf("a %s in 1..%d", what, hi), strconv.Itoa(n)
			if hi == 1 {
				expected = what + " 1 (a single-box game)"
			}
		case seen&(1<<n) != 0:
			expected, actual = "each "+what+" once, one player at each", fmt.Sprintf("%s %d again", what, n)
		case n < prev:
			expected, actual = fmt.Sprintf("%ss in increasing order: after %s %d", what, what, prev), strconv.Itoa(n)
			seen |= 1 << n
		default:
			seen |= 1 << n
			prev = n
			continue
		}
		ok = false
		e.add(finding.PositionInvalid, field(i), expected, actual, "")
	}
	return ok
}

// declState is the Ledger's state for the checks of this file.
type declState struct {
	// The tables' declarations: an index by table fingerprint, and the
	// table last looked up.
	tableIdx  map[uint64]int32
	tables    []tableDecl
	lastTable uint64
	lastIdx   int32 // index + 1 of lastTable's declaration; 0 for none

	// Wallets: the currency of the first round observed is every
	// player's, except for the players in curs (first seen in another).
	cur0   uint64
	cur0OK bool
	curs   map[uint64]uint64

	// Each owner's current session (the table; the table and the player
	// for the single-player game): a single seed or a chain.
	seedOwner  map[uint64]uint64
	chainOwner map[uint64]*chainState
	// The current single-seed sessions' declarations (see seedDecl), and
	// the free places among them.
	sessions []sessDecl
	free     []int32
	// The players of the owners' current sessions after the first, by
	// session key (a seed's fingerprint, a chain's key).
	lists map[uint64][]sessPlayer
	spare [][]sessPlayer // the storage of ended sessions' lists, to reuse
	// index finds a player in a session's list once the list is longer
	// than sessListScan, by session key and player fingerprint.
	index map[uint64]map[uint64]int32

	// Texts of declared values (schemes, profiles, currencies), by
	// fingerprint, for the findings: at most maxDeclTexts.
	texts map[uint64]textRef
}

// tableDecl is what a table declared in its first round.
type tableDecl struct {
	scheme, profile, profileName uint64 // fingerprints
	first                        textRef
	d                            *declText // the texts (for the boundary state, bounds.go)
}

// seedDecl is what a single seed's state holds of its session: 0 for
// none (a chain link that did not verify), -1 once the session ended (its
// owner moved on), otherwise the index + 1 of the session's declaration in
// declState.sessions. A session's declaration is kept while it is current
// only: a table of a million seed sessions costs four bytes a seed.
type seedDecl int32

const seedRetired seedDecl = -1

// sessDecl is what a seed session declared: its reveal time (single
// seeds) and its players' client seeds.
type sessDecl struct {
	reveal int64 // the first round's revealed_at, Unix microseconds (declRevealed)
	// The players and client seeds of the last round that kept the
	// declared client seeds: a round with the same needs no other check.
	last           uint64
	player, client uint64 // the session's first player and their client seed (declFirst); the others in declState.lists
	flags          uint8
}

const (
	declRevealed uint8 = 1 << iota // the first round logged revealed_at (single seeds)
	declRetired                    // the owner moved to another seed or chain
	declFirst                      // player and client are set
	declPerBox                     // the rounds have one client seed per box or seat
	declMore                       // the session has players in declState.lists
)

// chainDecl is a chain's sessDecl and its session key.
type chainDecl struct {
	sessDecl
	key uint64
}

// sessPlayer is a player of a session after the first, with their
// client seed's fingerprint.
type sessPlayer struct{ player, client uint64 }

const (
	// maxDeclTexts bounds the texts kept for the findings.
	maxDeclTexts = 1024
	// maxDeclText bounds the length of a text kept.
	maxDeclText = 80
	// sessListScan is how long a session's list of players is scanned;
	// a longer one is indexed. A session remembers every player it has
	// seen, however many: a bound that forgot players would let one who
	// comes back after others joined return with another client seed
	// unseen (issue 24, hole 7). Memory grows with the distinct players
	// of the owners' current sessions (16 bytes each, and a map slot
	// past sessListScan), not with the rounds.
	sessListScan = 64
	// maxSpareLists bounds the storage kept for reuse.
	maxSpareLists = 256
)

// keepDeclText keeps s as the text of fingerprint fp, when there is room.
func (l *Ledger) keepDeclText(fp uint64, s string) {
	ds := &l.declared
	if _, ok := ds.texts[fp]; ok || len(ds.texts) >= maxDeclTexts {
		return
	}
	if ds.texts == nil {
		ds.texts = map[uint64]textRef{}
	}
	if len(s) > maxDeclText {
		s = s[:maxDeclText] + "…"
	}
	ds.texts[fp] = l.keepText(s)
}

// declaredText returns the text kept for fp.
func (l *Ledger) declaredText(fp uint64) string {
	if r, ok := l.declared.texts[fp]; ok {
		return strconv.Quote(l.text(r))
	}
	return fmt.Sprintf("(one of more than %d values declared: not kept)", maxDeclTexts)
}

// observeTable checks the round's scheme and profile against its table's
// first round.
func (l *Ledger) observeTable(t *Trace, add func(code finding.Code, field, expected, actual, detail string)) {
	d := t.decl
	if d == nil {
		return
	}
	ds := &l.declared
	var td *tableDecl
	if ds.lastIdx > 0 && ds.lastTable == t.table {
		td = &ds.tables[ds.lastIdx-1]
	} else if i, ok := ds.tableIdx[t.table]; ok {
		td = &ds.tables[i]
		ds.lastTable, ds.lastIdx = t.table, i+1
	} else {
		if ds.tableIdx == nil {
			ds.tableIdx = map[uint64]int32{}
		}
		i := int32(len(ds.tables))
		ds.tables = append(ds.tables, tableDecl{d.schemeFP, d.profileFP, d.profileNameFP, l.keepText(t.RoundID), d})
		ds.tableIdx[t.table] = i
		ds.lastTable, ds.lastIdx = t.table, i+1
		l.keepDeclText(d.schemeFP, d.schemeText())
		l.keepDeclText(d.profileFP, d.profileText())
		return
	}
	if d.schemeFP != td.scheme {
		add(finding.SchemeChanged, "fairness.scheme", l.declaredText(td.scheme)+" (the table's scheme, as in its first round "+l.text(td.first)+")", strconv.Quote(d.schemeText()), "")
	}
	if d.profileFP != td.profile {
		field := "profile_hash"
		if d.profileNameFP != td.profileName {
			field = "profile"
		}
		add(finding.ProfileChanged, field, l.declaredText(td.profile)+" (the table's profile, as in its first round "+l.text(td.first)+")", strconv.Quote(d.profileText()), "")
	}
}

// observeWallet checks the currency of player p (known: seen before, last
// round last) and reports whether it changed: the balance is then not
// compared with the previous round's, which is in another currency.
func (l *Ledger) observeWallet(t *Trace, p *playerBalance, known bool, last lastBalance, add func(code finding.Code, field, expected, actual, detail string)) bool {
	d := t.decl
	if d == nil {
		return false
	}
	ds := &l.declared
	if !ds.cur0OK {
		ds.cur0, ds.cur0OK = d.currencyFP, true
		l.keepDeclText(d.currencyFP, d.currency)
	}
	want := ds.cur0
	if len(ds.curs) > 0 {
		if c, ok := ds.curs[p.id]; ok {
			want = c
		}
	}
	switch {
	case d.currencyFP == want:
		return false
	case !known:
		// A new wallet, in another currency than most.
		if ds.curs == nil {
			ds.curs = map[uint64]uint64{}
		}
		ds.curs[p.id] = d.currencyFP
		l.keepDeclText(d.currencyFP, d.currency)
		return false
	}
	where := boxField(int(p.slot), "player_id")
	if p.seat {
		where = seatField(int(p.slot), "player_id")
	}
	detail := "the player at " + where
	if p.before != last.after {
		detail += fmt.Sprintf("; balance before %d, after the previous round %d: no BALANCE_GAP is reported across currencies", p.before, last.after)
	}
	add(finding.CurrencyChanged, "currency", l.declaredText(want)+" (the player's wallet, as in "+l.previous(last)+")", strconv.Quote(d.currency), detail)
	return true
}

// startSeed declares the session of a single seed first seen in t, whose
// state's seedDecl is sd.
func (l *Ledger) startSeed(t *Trace, fp uint64, sd *seedDecl) {
	if t.chainIndex > 0 {
		// A chain link that does not verify (CHAIN_LINK_BROKEN) is kept
		// as a seed, but opens no session.
		return
	}
	l.retireOwner(t.session, fp, nil)
	if l.bounds != nil {
		l.bounds.start(t, fp, false)
	}
	ds := &l.declared
	ds.seedOwner[t.session] = fp
	var i int32
	if n := len(ds.free); n > 0 {
		i, ds.free = ds.free[n-1], ds.free[:n-1]
	} else {
		i = int32(len(ds.sessions))
		ds.sessions = append(ds.sessions, sessDecl{})
	}
	d := &ds.sessions[i]
	*d = sessDecl{}
	*sd = seedDecl(i + 1)
	if t.revealOK {
		d.reveal, d.flags = t.reveal, declRevealed
	}
	l.declareClients(t, fp, d)
}

// startChain declares the session of a chain first owned in t.
func (l *Ledger) startChain(t *Trace, st *chainState) {
	st.decl.key = maphash.Bytes(fpSeed, t.link.anchor[:])
	if l.bounds != nil {
		l.bounds.chainKeys[st.decl.key] = t.link.anchor
		l.bounds.start(t, 0, true)
	}
	l.retireOwner(t.session, 0, st)
	l.declared.chainOwner[t.session] = st
	l.declareClients(t, st.decl.key, &st.decl.sessDecl)
}

// retireOwner ends the owner's current session, unless it is the seed fp
// or the chain st that starts.
func (l *Ledger) retireOwner(owner, fp uint64, st *chainState) {
	ds := &l.declared
	if ds.seedOwner == nil {
		ds.seedOwner, ds.chainOwner, ds.lists = map[uint64]uint64{}, map[uint64]*chainState{}, map[uint64][]sessPlayer{}
	}
	if old, ok := ds.seedOwner[owner]; ok && (st != nil || old != fp) {
		if i, ok := l.seeds[old]; ok && l.seedStates[i].decl > 0 {
			s := &l.seedStates[i]
			ds.free = append(ds.free, int32(s.decl-1))
			s.decl = seedRetired
		}
		ds.dropList(old)
		delete(ds.seedOwner, owner)
	}
	if old := ds.chainOwner[owner]; old != nil && old != st {
		old.decl.flags |= declRetired
		ds.dropList(old.decl.key)
		delete(ds.chainOwner, owner)
	}
}

// dropList forgets the players of an ended session, keeping their storage.
func (ds *declState) dropList(key uint64) {
	if list, ok := ds.lists[key]; ok {
		delete(ds.lists, key)
		delete(ds.index, key)
		if len(ds.spare) < maxSpareLists {
			ds.spare = append(ds.spare, list[:0])
		}
	}
}

// observeSeedDecl checks a round of a single seed already seen, with the
// same owner, against its session's declarations.
func (l *Ledger) observeSeedDecl(t *Trace, fp uint64, sd seedDecl, first textRef, add func(code finding.Code, field, expected, actual, detail string)) {
	switch {
	case t.chainIndex > 0 || sd == 0:
		return // a link that does not verify: see startSeed
	case sd == seedRetired:
		add(finding.SeedReused, "fairness.server_seed", "a seed its owner has not left: the seed's session (first round "+l.text(first)+") ended when its table, or player, moved to another seed", "the seed deals again", "")
		return
	}
	d := &l.declared.sessions[sd-1]
	// A round whose times could not be read (INPUT_DAMAGED) is not
	// compared.
	if revealed := d.flags&declRevealed != 0; t.TimeOK && !t.revealBad && (t.revealOK != revealed || revealed && t.reveal != d.reveal) {
		expected, actual, detail := "no revealed_at, as in the seed's first round "+l.text(first), "a revealed_at", "every round of a seed logs its one reveal time"
		if revealed {
			expected = formatMicros(d.reveal) + " (the seed's reveal, as its first round " + l.text(first) + " logs)"
			actual = "absent"
			if t.TimeOK && t.Time > d.reveal {
				detail = "the round was dealt after its seed was revealed"
			}
		}
		if t.revealOK {
			actual = formatMicros(t.reveal)
		}
		add(finding.SeedReused, "fairness.revealed_at", expected, actual, detail)
	}
	l.checkClients(t, fp, d, first, add)
}

// observeChainDecl checks a round of a chain already owned by the same
// table against its session's declarations. A link's reveal time is its
// own: a link serves one round.
func (l *Ledger) observeChainDecl(t *Trace, st *chainState, add func(code finding.Code, field, expected, actual, detail string)) {
	if st.decl.flags&declRetired != 0 {
		add(finding.SeedReused, "fairness.commitment", "a chain its table has not left: the chain's session (first round "+l.text(st.first)+") ended when the table moved to another seed or chain", "the chain deals again", "")
		return
	}
	l.checkClients(t, st.decl.key, &st.decl.sessDecl, st.first, add)
}

// clientPairs is the number of (player, client seed) pairs of t: one per
// box or seat with one client seed each, otherwise one for the client
// seeds as a whole.
func clientPairs(t *Trace) int {
	if t.perBox {
		return t.np
	}
	return 1
}

// clientPair returns the i-th (player, client seed) pair of t and its box
// or seat index (-1 for the client seeds as a whole).
func clientPair(t *Trace, i int) (player, client uint64, slot int) {
	if !t.perBox {
		return 0, t.ClientFP, -1
	}
	p := t.playerAt(i)
	return p.id, p.client, int(p.slot)
}

// clientInput fingerprints t's pairs, in order.
func clientInput(t *Trace) uint64 {
	h := uint64(1)
	if t.perBox {
		h = 2
	}
	for i := range clientPairs(t) {
		p, c, _ := clientPair(t, i)
		h = mix64(mix64(h, p), c)
	}
	return h
}

func mix64(h, x uint64) uint64 {
	h = (h ^ x) * 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// declareClients records the client seeds of a session's first round.
func (l *Ledger) declareClients(t *Trace, key uint64, d *sessDecl) {
	if t.perBox {
		d.flags |= declPerBox
	}
	if t.np == 0 {
		return
	}
	d.last = clientInput(t)
	l.keepClients(t, key, d, nil)
}

// checkClients checks that every player of t who played before in the
// session kept their client seed, unless t logs a rotation, and records
// the players new to the session. A round whose boxes or seats could not
// be read checks nothing.
func (l *Ledger) checkClients(t *Trace, key uint64, d *sessDecl, first textRef, add func(code finding.Code, field, expected, actual, detail string)) {
	if t.np == 0 {
		return
	}
	in := clientInput(t)
	if in == d.last {
		return
	}
	if t.perBox != (d.flags&declPerBox != 0) {
		expected, actual := "one client seed per box or seat, as in the session's first round "+l.text(first), "another number of client seeds"
		if !t.perBox {
			expected, actual = "the client seeds as a whole kept, as in the session's first round "+l.text(first), "one client seed per box or seat"
		}
		add(finding.ClientSeedChanged, "fairness.client_seeds", expected, actual, "")
		return
	}
	if l.keepClients(t, key, d, func(slot int) {
		field, expected := "fairness.client_seeds", "the session's client seeds (one list for the table)"
		if slot >= 0 {
			field, expected = "fairness.client_seeds["+strconv.Itoa(slot)+"]", "the player's client seed"
		}
		add(finding.ClientSeedChanged, field, expected+" earlier in the seed session that began at round "+l.text(first)+", or a logged rotation (fairness.client_seed_rotated)", "another client seed", "")
	}) {
		d.last = in
	}
}

// keepClients looks up each player of t in the session: a new player is
// recorded; a player whose client seed differs is reported through changed
// (nil: the session's first round), or takes the new seed when t logs a
// rotation. It reports whether every player kept their client seed.
func (l *Ledger) keepClients(t *Trace, key uint64, d *sessDecl, changed func(slot int)) bool {
	ds := &l.declared
	var list []sessPlayer
	loaded, grown, kept := false, false, true
	for i := range clientPairs(t) {
		player, client, slot := clientPair(t, i)
		var have *uint64
		switch {
		case d.flags&declFirst == 0:
			d.player, d.client, d.flags = player, client, d.flags|declFirst
			if l.bounds != nil {
				l.bounds.clientEvent(t, key, i, true)
			}
			continue
		case d.player == player:
			have = &d.client
		default:
			if !loaded {
				if d.flags&declMore != 0 {
					list = ds.lists[key]
				}
				loaded = true
			}
			if len(list) > sessListScan {
				if k, ok := ds.index[key][player]; ok {
					have = &list[k].client
				}
			} else {
				for k := range list {
					if list[k].player == player {
						have = &list[k].client
						break
					}
				}
			}
			if have == nil {
				if list == nil {
					if n := len(ds.spare); n > 0 {
						list, ds.spare = ds.spare[n-1], ds.spare[:n-1]
					}
				}
				if l.bounds != nil {
					l.bounds.clientEvent(t, key, i, true)
				}
				list = append(list, sessPlayer{player, client})
				ds.indexPlayer(key, list)
				grown = true
				continue
			}
		}
		switch {
		case *have == client:
		case t.rotated || changed == nil:
			if t.rotated && t.perBox {
				l.rotation(t, t.playerAt(i))
			}
			*have = client
			if l.bounds != nil {
				l.bounds.clientEvent(t, key, i, false)
			}
		default:
			kept = false
			changed(slot)
		}
	}
	if grown {
		if ds.lists == nil {
			ds.lists = map[uint64][]sessPlayer{}
		}
		ds.lists[key] = list
		d.flags |= declMore
	}
	return kept
}

// indexPlayer indexes the last player of list, the players of session
// key, once the list is longer than sessListScan (all of them when it
// first is).
func (ds *declState) indexPlayer(key uint64, list []sessPlayer) {
	n := len(list)
	if n <= sessListScan {
		return
	}
	if ds.index == nil {
		ds.index = map[uint64]map[uint64]int32{}
	}
	m := ds.index[key]
	if m == nil {
		m = make(map[uint64]int32, 2*n)
		for k := range list[:n-1] {
			m[list[k].player] = int32(k)
		}
		ds.index[key] = m
	}
	m[list[n-1].player] = int32(n - 1)
}
