package audit

import (
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// obs is a round reduced to what the sequence checks read.
type obs struct {
	table   string
	seq     uint64 // table_seq, 0 for none
	seed    uint64 // seed fingerprint, 0 for no readable seed
	client  uint64
	nonce   uint64
	session uint64 // 0: the table's
}

// observeObs feeds the Ledger one trace per obs and returns the findings
// of the given codes as "CODE@index".
func observeObs(t *testing.T, l *Ledger, os []obs, codes ...finding.Code) []string {
	t.Helper()
	var out []string
	for i, o := range os {
		var tr Trace
		id := fmt.Sprintf("%s-r%d-%d", o.table, i, o.seq)
		tr.traceRound = traceRound{RoundID: id, Src: Source{File: "f", Row: int64(i)},
			table: fingerprint(o.table), tableID: o.table, tableSeq: o.seq,
			session: fingerprint(o.table) + o.session,
			SeedOK:  o.seed != 0, seedFP: o.seed, ClientFP: o.client, Nonce: o.nonce}
		tr.setID(id)
		for _, f := range l.Observe(&tr, nil) {
			if slices.Contains(codes, f.Code) {
				out = append(out, fmt.Sprintf("%s@%d", f.Code, i))
			}
		}
	}
	return out
}

// numbered returns the rounds of table t numbered by seqs, without seeds.
func numbered(table string, seqs ...uint64) []obs {
	out := make([]obs, len(seqs))
	for i, s := range seqs {
		out[i] = obs{table: table, seq: s}
	}
	return out
}

func TestTableSequence(t *testing.T) {
	gap := finding.TableSequenceGap
	for _, tt := range []struct {
		name string
		os   []obs
		want []string
	}{
		{"in order", numbered("t1", 1, 2, 3, 4, 5), nil},
		{"starts mid-table", numbered("t1", 1000, 1001, 1002), nil},
		{"dropped round", numbered("t1", 1, 2, 4, 5, 6), []string{"TABLE_SEQUENCE_GAP@2"}},
		{"two dropped", numbered("t1", 1, 2, 5, 6), []string{"TABLE_SEQUENCE_GAP@2"}},
		{"swap", numbered("t1", 1, 2, 4, 3, 5, 6), []string{"TABLE_SEQUENCE_GAP@2", "TABLE_SEQUENCE_GAP@3"}},
		{"moved by two", numbered("t1", 1, 2, 5, 3, 4, 6), []string{"TABLE_SEQUENCE_GAP@2", "TABLE_SEQUENCE_GAP@3"}},
		{"repeated", numbered("t1", 1, 2, 2, 3, 4), []string{"TABLE_SEQUENCE_GAP@2"}},
		{"a gap is found after a round out of place", numbered("t1", 1, 2, 4, 3, 6), []string{"TABLE_SEQUENCE_GAP@2", "TABLE_SEQUENCE_GAP@3", "TABLE_SEQUENCE_GAP@4"}},
		{"renumbered backwards", numbered("t1", 10, 11, 12, 1, 2, 3), []string{"TABLE_SEQUENCE_GAP@3"}},
		{"a round without table_seq at a numbered table", numbered("t1", 1, 2, 0, 4, 5), []string{"TABLE_SEQUENCE_GAP@2"}},
		{"and a dropped round after it", numbered("t1", 1, 2, 0, 5, 6), []string{"TABLE_SEQUENCE_GAP@2", "TABLE_SEQUENCE_GAP@3"}},
		{"numbered after unnumbered rounds", numbered("t1", 0, 0, 0, 4, 5), []string{"TABLE_SEQUENCE_GAP@3"}},
		{"tables interleaved", []obs{{table: "a", seq: 1}, {table: "b", seq: 7}, {table: "a", seq: 2}, {table: "b", seq: 8}, {table: "a", seq: 3}, {table: "b", seq: 10}},
			[]string{"TABLE_SEQUENCE_GAP@5"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, observeObs(t, NewLedger(), tt.os, gap))
		})
	}
}

func TestTableSequenceWarnings(t *testing.T) {
	l := NewLedger()
	var os []obs
	os = append(os, numbered("b", 0, 0)...)
	os = append(os, numbered("a", 0, 0, 0)...)
	os = append(os, numbered("c", 1, 2, 3)...)
	os = append(os, numbered("d", 0, 0, 3)...)
	require.Equal(t, []string{"TABLE_SEQUENCE_GAP@10"}, observeObs(t, l, os, finding.TableSequenceGap))
	assert.Equal(t, []string{
		"table a: 3 rounds without table_seq: a dropped round at this table cannot be seen",
		"table b: 2 rounds without table_seq: a dropped round at this table cannot be seen",
		"table d: 2 rounds without table_seq: a dropped round at this table cannot be seen",
	}, l.Warnings())

	// Many tables: the first are named, the others counted.
	l = NewLedger()
	os = nil
	for k := range maxTableWarnings + 5 {
		os = append(os, numbered(fmt.Sprintf("t%02d", k), 0, 0)...)
	}
	observeObs(t, l, os)
	w := l.Warnings()
	require.Len(t, w, maxTableWarnings+1)
	assert.Equal(t, "table t00: 2 rounds without table_seq: a dropped round at this table cannot be seen", w[0])
	assert.Equal(t, "5 more tables: 10 rounds without table_seq in all: a dropped round at these tables cannot be seen", w[maxTableWarnings])

	assert.Empty(t, NewLedger().Warnings())
}

// nonces returns the rounds of one seed (fingerprint 1) at table t with
// these nonces and client input 1, numbered in order.
func nonces(ns ...uint64) []obs {
	out := make([]obs, len(ns))
	for i, n := range ns {
		out[i] = obs{table: "t", seq: uint64(i + 1), seed: 1, client: 1, nonce: n}
	}
	return out
}

func TestNonceSequence(t *testing.T) {
	codes := []finding.Code{finding.NonceSequence, finding.NonceReused, finding.SeedReused}
	withClients := func(os []obs, clients ...uint64) []obs {
		for i := range os {
			os[i].client = clients[i]
		}
		return os
	}
	for _, tt := range []struct {
		name string
		os   []obs
		want []string
	}{
		{"in order", nonces(0, 1, 2, 3, 4), nil},
		{"first nonce is not 0", nonces(1, 2, 3), []string{"NONCE_SEQUENCE@0"}},
		{"skipped nonce", nonces(0, 1, 2, 4, 5, 6), []string{"NONCE_SEQUENCE@3"}},
		{"swapped rounds", nonces(0, 1, 3, 2, 4, 5), []string{"NONCE_SEQUENCE@2", "NONCE_SEQUENCE@3"}},
		{"a round dealt two places early", nonces(0, 1, 4, 2, 3, 5), []string{"NONCE_SEQUENCE@2", "NONCE_SEQUENCE@3"}},
		{"a skipped deck dealt later", nonces(0, 1, 3, 4, 5, 2, 6), []string{"NONCE_SEQUENCE@2", "NONCE_SEQUENCE@5"}},
		{"reused: NONCE_REUSED only", nonces(0, 1, 2, 2, 3, 4), []string{"NONCE_REUSED@3"}},
		{"reused in place of the next", nonces(0, 1, 2, 2, 4), []string{"NONCE_REUSED@3", "NONCE_SEQUENCE@4"}},
		{"reused far back", nonces(0, 1, 2, 3, 1, 4), []string{"NONCE_REUSED@4"}},
		{"the client input changes, the nonce runs on", withClients(nonces(0, 1, 2, 3, 4), 1, 1, 2, 2, 3), nil},
		{"the nonce restarts with a new client input", withClients(nonces(0, 1, 2, 0, 1, 2), 1, 1, 1, 2, 2, 2), []string{"NONCE_SEQUENCE@3"}},
		{"rounds without a readable seed are not counted", append(nonces(0, 1), obs{table: "t", seq: 3}, nonces(2)[0]), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, observeObs(t, NewLedger(), tt.os, codes...))
		})
	}

	// The sequence is per seed: the single-player game's players take
	// turns, each with a seed of their own.
	var os []obs
	for i := range 30 {
		p := uint64(i%3 + 1)
		os = append(os, obs{table: "rng", seq: uint64(i + 1), seed: p, client: p, nonce: uint64(i / 3), session: p})
	}
	assert.Empty(t, observeObs(t, NewLedger(), os, codes...))
	for i := 13; i < len(os); i += 3 {
		os[i].nonce++ // player 2's fifth round skips nonce 4, the next go on from it
	}
	assert.Equal(t, []string{"NONCE_SEQUENCE@13"}, observeObs(t, NewLedger(), os, codes...))

	// A seed used by another session is SEED_REUSED; its rounds there are
	// not counted in the seed's own sequence.
	os = nonces(0, 1, 2, 0, 1, 3, 4)
	os[3].session, os[4].session = 9, 9
	os[3].client, os[4].client = 5, 5
	assert.Equal(t, []string{"SEED_REUSED@3", "SEED_REUSED@4"}, observeObs(t, NewLedger(), os, codes...))
}

func TestSeqPos(t *testing.T) {
	p := newSeqPos(math.MaxUint64 - 1)
	assert.True(t, p.next(math.MaxUint64))
	assert.Equal(t, "no number after 18446744073709551615 (the x had it)", p.expected("x"))
	assert.False(t, p.next(0), "no number after the largest")
	assert.Equal(t, "1 (the x had 0)", p.expected("x"))
	assert.True(t, p.next(1))
	r := newSeqPos(5)
	assert.Equal(t, "6 (the x had 5)", r.expected("x"))
	assert.False(t, r.next(9))
	assert.False(t, r.next(7))
	assert.Equal(t, "8 or 10 (the x had 7, the highest so far is 9)", r.expected("x"))
	assert.True(t, r.next(10))
}

// chainRounds builds n rounds of one hash chain (link i+1 for round i),
// balances chained. The cards are dealt from testSeed, so every round
// also mismatches its cards: tests count the sequence codes only.
func chainRounds(t *testing.T, n int) []round.Round {
	ch := chain.FromLast(seed.Seed(testSeed), n)
	rs := make([]round.Round, n)
	bal := int64(1_000_000)
	for i := range rs {
		link := ch.Links[i+1]
		rs[i] = honestCasino(t, round.LiveCasinoHoldem, 0, []box{{ante: 100, decision: "call"}}, func(r *round.Round) {
			r.Boxes[0].BalanceBefore = bal
		})
		bal = rs[i].Boxes[0].BalanceAfter
		rs[i].RoundID = fmt.Sprintf("c%d", i)
		rs[i].TableSeq = uint64(i + 1)
		rs[i].Fairness.ServerSeed = hex.EncodeToString(link[:])
		rs[i].Fairness.Commitment = ch.Anchor().Hex()
		rs[i].Fairness.ChainIndex = uint64(i + 1)
	}
	return rs
}

// chainByPlayer makes each box's balance before its player's previous
// balance after.
func chainByPlayer(rs []round.Round) {
	last := map[string]int64{}
	for i := range rs {
		b := &rs[i].Boxes[0]
		if prev, ok := last[b.PlayerID]; ok {
			b.BalanceAfter += prev - b.BalanceBefore
			b.BalanceBefore = prev
		}
		last[b.PlayerID] = b.BalanceAfter
	}
}

// only returns the findings of codes as "CODE@row".
func only(fs []finding.Finding, codes ...finding.Code) []string {
	var out []string
	for _, f := range fs {
		if slices.Contains(codes, f.Code) {
			out = append(out, fmt.Sprintf("%s@%d", f.Code, f.Row))
		}
	}
	slices.Sort(out)
	return out
}

func TestChainSequence(t *testing.T) {
	codes := []finding.Code{finding.ChainLinkSkipped, finding.ChainLinkBroken, finding.ChainLinkReused, finding.SeedReused}
	rs := chainRounds(t, 8)
	renumber := func(rs []round.Round) []round.Round {
		for i := range rs {
			rs[i].TableSeq = uint64(i + 1)
		}
		chainBalances(rs)
		return rs
	}
	for _, tt := range []struct {
		name string
		edit func(rs []round.Round) []round.Round
		want []string
	}{
		{"in order", func(rs []round.Round) []round.Round { return rs }, nil},
		// The link after the skipped one still hashes to the last good
		// link (walking two steps): skipped, not broken.
		{"skipped link", func(rs []round.Round) []round.Round {
			return renumber(slices.Delete(rs, 3, 4))
		}, []string{"CHAIN_LINK_SKIPPED@3"}},
		{"the chain's first round is not link 1", func(rs []round.Round) []round.Round {
			return renumber(rs[2:])
		}, []string{"CHAIN_LINK_SKIPPED@0"}},
		{"swapped links", func(rs []round.Round) []round.Round {
			rs[3].Fairness, rs[4].Fairness = rs[4].Fairness, rs[3].Fairness
			return rs
		}, []string{"CHAIN_LINK_SKIPPED@3", "CHAIN_LINK_SKIPPED@4"}},
		{"a link used again: CHAIN_LINK_REUSED only", func(rs []round.Round) []round.Round {
			rs[4].Fairness = rs[3].Fairness
			rs[6].Fairness = rs[1].Fairness
			return rs
			// Links 5 and 7 are never used.
		}, []string{"CHAIN_LINK_REUSED@4", "CHAIN_LINK_REUSED@6", "CHAIN_LINK_SKIPPED@5", "CHAIN_LINK_SKIPPED@7"}},
		// A link that does not verify takes its place in the chain: the
		// next round is in sequence.
		{"broken link", func(rs []round.Round) []round.Round {
			rs[3].Fairness.ServerSeed = hex.EncodeToString(make([]byte, 32))
			return rs
		}, []string{"CHAIN_LINK_BROKEN@3"}},
		{"broken link out of place", func(rs []round.Round) []round.Round {
			rs[3].Fairness.ServerSeed = hex.EncodeToString(make([]byte, 32))
			rs[3].Fairness.ChainIndex = 7
			return rs
		}, []string{"CHAIN_LINK_BROKEN@3", "CHAIN_LINK_SKIPPED@3", "CHAIN_LINK_SKIPPED@4"}},
		// A chain serves one table: its rounds on another are SEED_REUSED
		// and not counted in the chain's sequence.
		{"chain on another table", func(rs []round.Round) []round.Round {
			rs[3].TableID, rs[4].TableID = "t2", "t2"
			rs[3].TableSeq, rs[4].TableSeq = 1, 2
			rs[3].Boxes[0].PlayerID, rs[4].Boxes[0].PlayerID = "q", "q"
			for i := 5; i < len(rs); i++ {
				rs[i].TableSeq -= 2
			}
			chainByPlayer(rs)
			return rs
		}, []string{"CHAIN_LINK_SKIPPED@5", "SEED_REUSED@3", "SEED_REUSED@4"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := replaySeq(t, tt.edit(slices.Clone(rs)))
			assert.Equal(t, tt.want, only(fs, codes...))
			assert.Empty(t, only(fs, finding.TableSequenceGap, finding.NonceSequence, finding.BalanceGap))
		})
	}
}

// TestSequencesThroughTheChecker: the Checker hands the Ledger each
// round's table_seq and nonce; a log whose rounds are dealt out of nonce
// order is found whatever the rest says, a round missing from the log by
// its table number and its nonce, a copy of a round is ROUND_DUPLICATE
// only, and a table that logs no table_seq is a warning.
func TestSequencesThroughTheChecker(t *testing.T) {
	codes := []finding.Code{finding.TableSequenceGap, finding.NonceSequence, finding.NonceReused, finding.RoundDuplicate, finding.BalanceGap}
	build := func(ns ...uint64) []round.Round {
		rs := make([]round.Round, len(ns))
		for i, n := range ns {
			rs[i] = honestCasino(t, round.CasinoHoldem, n, []box{{ante: 100, bonus: 100, decision: "call"}}, nil)
			rs[i].TableSeq = uint64(i + 1)
		}
		chainBalances(rs)
		return rs
	}
	assert.Empty(t, only(replaySeq(t, build(0, 1, 2, 3, 4, 5)), codes...))
	// The operator dealt deck 4 before deck 3: the table's numbers and the
	// balances are in order.
	assert.Equal(t, []string{"NONCE_SEQUENCE@3", "NONCE_SEQUENCE@4"}, only(replaySeq(t, build(0, 1, 2, 4, 3, 5)), codes...))
	// A round dealt and left out of the log, the wallet re-chained.
	rs := build(0, 1, 2, 3, 4, 5)
	rs = slices.Delete(rs, 2, 3)
	chainBalances(rs)
	assert.Equal(t, []string{"NONCE_SEQUENCE@2", "TABLE_SEQUENCE_GAP@2"}, only(replaySeq(t, rs), codes...))
	// A copy of a round, later in the log.
	rs = build(0, 1, 2, 3, 4, 5)
	rs = slices.Insert(rs, 4, rs[1])
	assert.Equal(t, []string{"BALANCE_GAP@5", "ROUND_DUPLICATE@4"}, only(replaySeq(t, rs), codes...))

	rs = build(0, 1, 2)
	for i := range rs {
		rs[i].TableSeq = 0
	}
	c, l := NewChecker(testConfig(t)), NewLedger()
	for i := range rs {
		var tr Trace
		c.Check(&rs[i], Source{File: "f", Row: int64(i)}, &tr, nil)
		tr.OwnRoundID()
		assert.Empty(t, l.Observe(&tr, nil))
	}
	assert.Equal(t, []string{"table t1: 3 rounds without table_seq: a dropped round at this table cannot be seen",
		"table t1: 3 rounds without wallet_ids: money moved between two player ids of one wallet at this table cannot be seen"}, l.Warnings())
}
