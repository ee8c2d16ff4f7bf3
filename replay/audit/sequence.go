package audit

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fairhold/fairhold/replay/finding"
)

// The sequence invariants (docs/replay.md, "Sequences"): in input
// order, which is time order per table (ROUND_ORDER reports a table whose
// rounds are not),
//
//   - a single server seed's nonces run 0, 1, 2, ... (NONCE_SEQUENCE): the
//     first round of the seed has nonce [firstNonce], each next round the
//     previous one's + 1, whatever the client input (a Double Hold'em
//     table's nonce runs on when players come and go);
//   - a hash chain's links are used one after another (CHAIN_LINK_SKIPPED):
//     the first round of the chain in the input uses link 1, each next
//     round the previous round's link + 1;
//   - a table's rounds are numbered without a gap (TABLE_SEQUENCE_GAP):
//     table_seq is the previous round's + 1. The first numbered round of a
//     table in the input starts its sequence: a dataset may begin in the
//     middle of a table's life (the dataset manifest's first and last
//     round per part are what link consecutive datasets).
//
// A skip is how an operator that knows both seeds chooses among decks,
// and a gap how it hides a dropped round, even when the balances chain.
//
// Resynchronisation. A round is in sequence when its number is the
// previous round's + 1, or the highest number seen so far + 1; either way
// the sequence goes on from the round's own number. So one skip (or one
// dropped round) is one finding, on the round after it, and a swap of two
// rounds (17, 19, 18, 20) gives findings on exactly the two swapped rounds:
// 19 is a skip, 18 is below the highest, and 20 follows the highest. A
// round moved further (17, 20, 18, 19, 21) is a finding where it is and
// where the sequence jumps (20 and 18 here).
//
// A number used again is not a sequence finding when the round is already
// NONCE_REUSED or CHAIN_LINK_REUSED, and rounds of a session other than the
// seed's or chain's own (SEED_REUSED) are not counted in its sequence. A
// round whose id was seen before (ROUND_DUPLICATE) moves the sequences on
// without a finding (moveOnSeqs). A round the Checker could not read is
// not seen at all: the next round of its table and seed shows the gap.

// firstNonce is the nonce of a seed's first round. Every registered scheme
// counts a seed's rounds from 0 (docs/fairness.md, section 5; the
// stake-compat family's nonce is the same count of bets with a seed pair).
const firstNonce = 0

// seqPos is where a sequence is: the previous round's number and the
// highest number seen.
type seqPos struct {
	last, max uint64
}

func newSeqPos(n uint64) seqPos { return seqPos{n, n} }

// next moves the sequence on to n and reports whether n was in sequence
// (see the resynchronisation rule above).
func (p *seqPos) next(n uint64) bool {
	ok := n != 0 && (n-1 == p.last || n-1 == p.max)
	p.last, p.max = n, max(p.max, n)
	return ok
}

// expected describes what the sequence expected, for a finding.
func (p *seqPos) expected(what string) string {
	switch {
	case p.last == math.MaxUint64:
		return fmt.Sprintf("no number after %d (the %s had it)", p.last, what)
	case p.last == p.max || p.max == math.MaxUint64:
		return fmt.Sprintf("%d (the %s had %d)", p.last+1, what, p.last)
	}
	return fmt.Sprintf("%d or %d (the %s had %d, the highest so far is %d)", p.last+1, p.max+1, what, p.last, p.max)
}

// addFunc adds a finding about the round being observed.
type addFunc = func(code finding.Code, field, expected, actual, detail string)

// startNonceSeq starts the nonce sequence of a single seed at its first
// round.
func startNonceSeq(t *Trace, s *seqPos, add addFunc) {
	*s = newSeqPos(t.Nonce)
	if t.chainIndex == 0 && t.Nonce != firstNonce {
		add(finding.NonceSequence, "fairness.nonce", fmt.Sprintf("%d (the first round of its server seed)", firstNonce),
			strconv.FormatUint(t.Nonce, 10), "")
	}
}

// nonceSeq checks a single seed's round after its first; fresh tells
// whether its (client input, nonce) was new.
func nonceSeq(t *Trace, s *seedState, fresh bool, add addFunc) {
	if t.chainIndex > 0 || s.session != t.session {
		return
	}
	prev := s.seq
	if !s.seq.next(t.Nonce) && fresh {
		add(finding.NonceSequence, "fairness.nonce", prev.expected("seed's previous round"), strconv.FormatUint(t.Nonce, 10), "")
	}
}

// chainSeq checks a verified link's index against its chain's sequence;
// fresh tells whether no earlier round used the link.
func chainSeq(t *Trace, st *chainState, fresh bool, add addFunc) {
	if st.session != t.session {
		return
	}
	if !st.seqOn {
		st.seq, st.seqOn = newSeqPos(t.chainIndex), true
		if t.chainIndex != 1 && !st.entrySuppressed {
			add(finding.ChainLinkSkipped, "fairness.chain_index", "1 (the first round of its chain)", strconv.FormatUint(t.chainIndex, 10), "")
		}
		return
	}
	prev := st.seq
	if !st.seq.next(t.chainIndex) && fresh {
		add(finding.ChainLinkSkipped, "fairness.chain_index", prev.expected("chain's previous round"), strconv.FormatUint(t.chainIndex, 10), "")
	}
}

// brokenLinkSeq moves the chain of a link that does not verify
// (CHAIN_LINK_BROKEN) on to the link's index, when the chain is known (a
// link of it verified): the round still takes its place in the chain.
// Before that the anchor may be anything, and no state is kept for it; the
// chain's first verified link starts the sequence.
func (l *Ledger) brokenLinkSeq(t *Trace, add addFunc) {
	if st := l.chains[t.link.anchor]; st != nil && st.owned && st.seqOn {
		chainSeq(t, st, true, add)
	}
}

// moveOnSeqs moves the sequences on to the numbers of a round whose id was
// seen before (ROUND_DUPLICATE), without findings: as the balances move on
// from a duplicate, its numbers count, so that a copy of a round does not
// make the next round look out of sequence.
func (l *Ledger) moveOnSeqs(t *Trace) {
	nop := func(finding.Code, string, string, string, string) {}
	l.observeTableSeq(t, nop)
	switch {
	case !t.SeedOK:
	case t.chainIndex > 0:
		if st := l.chains[t.link.anchor]; st != nil && st.seqOn && st.session == t.session {
			st.seq.next(t.chainIndex)
		}
	default:
		if i, ok := l.seeds[t.seedFP]; ok && l.seedStates[i].session == t.session {
			l.seedStates[i].seq.next(t.Nonce)
		}
	}
}

// tableSeq is a table's round numbering, and the time of its latest round.
type tableSeq struct {
	name       string // the table id
	pos        seqPos
	numbered   bool  // a round of the table had a table_seq
	unnumbered int64 // rounds without table_seq before the first numbered one
	walletless int64 // rounds with players and without wallet_ids

	last  int64 // the time of the table's latest round (timed: one was seen), Unix microseconds
	timed bool

	// The boundary state's entry (bounds.go): the table_seq of the
	// table's first round (entered: it was observed), and the time of its
	// first timed round.
	firstSeq  uint64
	entered   bool
	firstTime int64
}

// tableSeqs are the tables' numberings, by table fingerprint, with a
// direct-mapped cache in front of the map: a dataset interleaves the
// rounds of a few tables, and a map lookup per round cost more than the
// check.
type tableSeqs struct {
	m     map[uint64]*tableSeq
	cache [tableCacheSize]struct {
		fp uint64
		st *tableSeq
	}
}

// tableCacheSize is the number of slots of the tables' cache (a power of
// 2).
const tableCacheSize = 128

func (s *tableSeqs) get(t *Trace) *tableSeq {
	c := &s.cache[t.table&(tableCacheSize-1)]
	if c.st != nil && c.fp == t.table {
		return c.st
	}
	st := s.m[t.table]
	if st == nil {
		if s.m == nil {
			s.m = map[uint64]*tableSeq{}
		}
		st = &tableSeq{name: t.tableID}
		s.m[t.table] = st
	}
	c.fp, c.st = t.table, st
	return st
}

// observeTableSeq checks the round's table_seq (0: not logged).
func (l *Ledger) observeTableSeq(t *Trace, add addFunc) {
	st := l.tableSeqs.get(t)
	n := t.tableSeq
	if t.np > 0 && t.player.wallet == "" {
		st.walletless++
	}
	if !st.entered {
		st.firstSeq, st.entered = n, true
	}
	switch {
	case n == 0 && !st.numbered:
		st.unnumbered++
	case n == 0:
		// A numbered table's round without its number: it is presumed to
		// take the next number.
		add(finding.TableSequenceGap, "table_seq", st.pos.expected("table's previous round"), "none", "a numbered table's round without table_seq")
		st.pos.next(st.pos.last + 1)
	case !st.numbered:
		st.numbered, st.pos = true, newSeqPos(n)
		if st.unnumbered > 0 {
			add(finding.TableSequenceGap, "table_seq", fmt.Sprintf("none, as the table's %d earlier rounds", st.unnumbered), strconv.FormatUint(n, 10),
				"a table numbers all its rounds or none")
		}
	default:
		prev := st.pos
		if !st.pos.next(n) {
			add(finding.TableSequenceGap, "table_seq", prev.expected("table's previous round"), strconv.FormatUint(n, 10), "")
		}
	}
}

// maxTableWarnings is how many tables without table_seq the warnings name.
const maxTableWarnings = 10

// Warnings says what the Ledger could not check: the tables whose rounds
// have no table_seq (a dropped round there cannot be seen), and those
// whose rounds name no wallets (money moved between two player ids of one
// wallet cannot be seen), by table id. Call it once every round is
// observed.
func (l *Ledger) Warnings() []string {
	var tables []TableRounds
	for _, st := range l.tableSeqs.m {
		if st.unnumbered > 0 || st.walletless > 0 {
			tables = append(tables, TableRounds{st.name, st.unnumbered, st.walletless})
		}
	}
	slices.SortFunc(tables, func(a, b TableRounds) int { return strings.Compare(a.Table, b.Table) })
	return TableWarnings(tables)
}
