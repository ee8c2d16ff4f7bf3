package audit

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// replaySeq checks rounds in order through a Checker and a Ledger and
// returns every finding.
func replaySeq(t *testing.T, rs []round.Round) []finding.Finding {
	t.Helper()
	c := NewChecker(testConfig(t))
	l := NewLedger()
	var out []finding.Finding
	for i := range rs {
		var tr Trace
		out = c.Check(&rs[i], Source{File: "f", Row: int64(i)}, &tr, out)
		tr.OwnRoundID()
		out = l.Observe(&tr, out)
	}
	return out
}

// session builds n consecutive honest rounds of one player, balances
// chained.
func session(t *testing.T, n int) []round.Round {
	rs := make([]round.Round, n)
	bal := int64(1_000_000)
	for i := range rs {
		rs[i] = honestCasino(t, round.CasinoHoldem, uint64(i), []box{{ante: 100, bonus: 100, decision: "call"}}, func(r *round.Round) {
			r.Boxes[0].BalanceBefore = bal
		})
		bal = rs[i].Boxes[0].BalanceAfter
	}
	return rs
}

// chainBalances makes each round's balance before the previous round's
// balance after.
func chainBalances(rs []round.Round) {
	for i := 1; i < len(rs); i++ {
		b := &rs[i].Boxes[0]
		d := b.BalanceAfter - b.BalanceBefore
		b.BalanceBefore = rs[i-1].Boxes[0].BalanceAfter
		b.BalanceAfter = b.BalanceBefore + d
	}
}

func TestLedger(t *testing.T) {
	tests := []struct {
		name string
		edit func(rs []round.Round) []round.Round
		want finding.Code
		row  int64
	}{
		{"clean", func(rs []round.Round) []round.Round { return rs }, "", 0},
		{"duplicate round", func(rs []round.Round) []round.Round {
			rs[3].RoundID = rs[2].RoundID
			return rs
		}, finding.RoundDuplicate, 3},
		{"nonce reused", func(rs []round.Round) []round.Round {
			rs[4] = honestCasino(t, round.CasinoHoldem, 3, []box{{ante: 100, bonus: 100, decision: "call"}}, func(r *round.Round) {
				r.RoundID = "r-x"
				r.Boxes[0].BalanceBefore = rs[3].Boxes[0].BalanceAfter
			})
			chainBalances(rs)
			// The rounds after it would show nonce 4 skipped as well
			// (TestLedgerSequences).
			return rs[:5]
		}, finding.NonceReused, 4},
		{"balance gap", func(rs []round.Round) []round.Round {
			rs[5].Boxes[0].BalanceBefore += 50
			rs[5].Boxes[0].BalanceAfter += 50
			return rs
		}, finding.BalanceGap, 5},
		{"order", func(rs []round.Round) []round.Round {
			rs[6].Time = "2026-11-29T10:00:30Z"
			rs[6].Fairness.CommittedAt = "2026-11-29T09:00:00Z"
			return rs
		}, finding.RoundOrder, 6},
		{"seed reused", func(rs []round.Round) []round.Round {
			for i := 4; i < len(rs); i++ {
				rs[i].TableID = "t2"
			}
			return rs
		}, finding.SeedReused, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := tt.edit(session(t, 8))
			fs := replaySeq(t, rs)
			if tt.want == "" {
				assert.Empty(t, fs)
				return
			}
			require.NotEmpty(t, fs)
			assert.Equal(t, []finding.Code{tt.want}, codes(fs), "%+v", fs)
			assert.Equal(t, tt.row, fs[0].Row)
			if tt.want == finding.BalanceGap {
				// The value expected is the balance alone; the detail
				// names the previous round by its file and row.
				assert.Regexp(t, `^\d+$`, fs[0].Expected)
				assert.Equal(t, "the balance after the player's round at f row 4", fs[0].Detail)
			}
		})
	}
}

func TestLedgerChain(t *testing.T) {
	ch := chain.FromLast(seed.Seed(testSeed), 6)
	rs := make([]round.Round, 6)
	bal := int64(1_000_000)
	for i := range rs {
		link := ch.Links[i+1]
		rs[i] = honestCasino(t, round.CasinoHoldem, 0, []box{{ante: 100, decision: "call"}}, func(r *round.Round) {
			r.Boxes[0].BalanceBefore = bal
		})
		bal = rs[i].Boxes[0].BalanceAfter
		rs[i].RoundID = "c" + string(rune('0'+i))
		rs[i].Fairness.ServerSeed = hex.EncodeToString(link[:])
		rs[i].Fairness.Commitment = ch.Anchor().Hex()
		rs[i].Fairness.ChainIndex = uint64(i + 1)
	}
	// The cards are dealt from testSeed, so every round also mismatches its
	// cards: count only the chain findings.
	chainFindings := func(fs []finding.Finding) []int64 {
		var rows []int64
		for _, f := range fs {
			if f.Code == finding.ChainLinkBroken || f.Code == finding.SeedCommitmentMismatch {
				rows = append(rows, f.Row)
			}
		}
		return rows
	}
	assert.Empty(t, chainFindings(replaySeq(t, rs)))
	// A gap (round 3 missing) is bridged by walking the chain.
	gap := append(append([]round.Round{}, rs[:2]...), rs[3:]...)
	assert.Empty(t, chainFindings(replaySeq(t, gap)))
	// A link that is not the chain's.
	bad := append([]round.Round{}, rs...)
	bad[3].Fairness.ServerSeed = hex.EncodeToString(make([]byte, 32))
	assert.Equal(t, []int64{3}, chainFindings(replaySeq(t, bad)))
	bad[3] = rs[3]
	bad[0].Fairness.ServerSeed = hex.EncodeToString(make([]byte, 32))
	assert.Equal(t, []int64{0}, chainFindings(replaySeq(t, bad)))

	// Only the chain's codes, with their rows.
	only := func(fs []finding.Finding, codes ...finding.Code) []string {
		var out []string
		for _, f := range fs {
			if slices.Contains(codes, f.Code) {
				out = append(out, fmt.Sprintf("%s@%d", f.Code, f.Row))
			}
		}
		return out
	}
	chainCodes := []finding.Code{finding.ChainLinkBroken, finding.ChainLinkReused, finding.SeedReused, finding.NonceReused}
	// A link that serves a second round, whatever its nonce, and a link
	// used again far behind the last verified one (verified from the anchor).
	again := append([]round.Round{}, rs...)
	again[4].Fairness.ServerSeed, again[4].Fairness.ChainIndex = again[3].Fairness.ServerSeed, 4
	again[4].Fairness.Nonce = 9
	again[5].Fairness.ServerSeed, again[5].Fairness.ChainIndex = again[0].Fairness.ServerSeed, 1
	assert.Equal(t, []string{"CHAIN_LINK_REUSED@4", "CHAIN_LINK_REUSED@5"}, only(replaySeq(t, again), chainCodes...))
	// A chain serves one table: its links on another table are flagged,
	// not the links of the first.
	other := append([]round.Round{}, rs...)
	for i := 3; i < len(other); i++ {
		other[i].TableID = "t2"
	}
	fs := replaySeq(t, other)
	assert.Equal(t, []string{"SEED_REUSED@3", "SEED_REUSED@4", "SEED_REUSED@5"}, only(fs, chainCodes...))
	for _, f := range fs {
		if f.Code == finding.SeedReused {
			assert.Contains(t, f.Expected, "first used in round c0")
		}
	}
	// A link that does not verify is kept per seed: reusing it reuses a
	// nonce (the round's client input and nonce repeat).
	loose := append([]round.Round{}, rs...)
	loose[2].Fairness.ServerSeed = hex.EncodeToString(make([]byte, 32))
	loose[3].Fairness.ServerSeed, loose[3].Fairness.ChainIndex = loose[2].Fairness.ServerSeed, 3
	assert.Equal(t, []string{"CHAIN_LINK_BROKEN@2", "CHAIN_LINK_BROKEN@3", "NONCE_REUSED@3"}, only(replaySeq(t, loose), chainCodes...))
}

func TestAddNonce(t *testing.T) {
	var rs []nonceRange
	seq := []uint64{0, 1, 2, 5, 4, 3, 9, 7, 8, 6, 1<<64 - 1, 0, 5, 1<<64 - 1}
	fresh := []bool{true, true, true, true, true, true, true, true, true, true, true, false, false, false}
	for i, n := range seq {
		var ok bool
		rs, ok = addNonce(rs, n)
		assert.Equal(t, fresh[i], ok, "nonce %d (step %d)", n, i)
	}
	assert.Equal(t, []nonceRange{{0, 9}, {1<<64 - 1, 1<<64 - 1}}, rs)
}

func TestFPSet(t *testing.T) {
	var s fpSet
	s.reserve(5000)
	n := len(s.slots)
	for i := uint64(0); i < 5000; i++ {
		require.True(t, s.add((i+1)*0x9e3779b97f4a7c15), "%d", i)
	}
	assert.Equal(t, n, len(s.slots), "reserve avoided growth")
	for i := uint64(0); i < 5000; i++ {
		require.False(t, s.add((i+1)*0x9e3779b97f4a7c15), "%d", i)
	}
	for i := uint64(5000); i < 20000; i++ {
		require.True(t, s.add((i+1)*0x9e3779b97f4a7c15), "%d", i)
	}
	assert.Equal(t, 20000, s.n)

	// Fingerprints whose first slot is the last: probing wraps around.
	var w fpSet
	w.reserve(100)
	for i := uint64(0); i < 50; i++ {
		require.True(t, w.add(^i), "%d", i)
	}
	for i := uint64(0); i < 50; i++ {
		require.False(t, w.add(^i), "%d", i)
	}
	assert.NotZero(t, w.slots[0], "wrapped to the first slot")
	require.True(t, w.add(0))
	require.False(t, w.add(0))
}

// TestCheckNeverPanics feeds rounds with random damage (garbage strings,
// negative and huge amounts, wrong counts, unknown games) through a
// Checker and a Ledger: every one must give findings, never a panic.
func TestCheckNeverPanics(t *testing.T) {
	cfg := testConfig(t)
	c, l := NewChecker(cfg), NewLedger()
	rng := rand.New(rand.NewPCG(3, 4))
	strs := []string{"", "Zz", "As", "10h", "zz", "ffff", "2026-13-45T99:99:99Z", "x\x00y", hex.EncodeToString(make([]byte, 40))}
	ints := []int64{-1, 0, 1, 1 << 62, -1 << 63, 1<<63 - 1, 500}
	for i := range 3000 {
		r := honestCasino(t, []string{round.CasinoHoldem, round.LiveCasinoHoldem}[i%2], uint64(i%50), []box{{ante: 500, decision: "call"}, {ante: 500, decision: "fold"}}[:1+i%2], nil)
		for range 1 + rng.IntN(3) {
			switch rng.IntN(12) {
			case 0:
				r.Board = r.Board[:rng.IntN(len(r.Board)+1)]
			case 1:
				if len(r.Board) > 0 {
					r.Board[rng.IntN(len(r.Board))] = strs[rng.IntN(len(strs))]
				}
			case 2:
				r.Fairness.ServerSeed = strs[rng.IntN(len(strs))]
			case 3:
				r.Fairness.Commitment = strs[rng.IntN(len(strs))]
			case 4:
				r.Time = strs[rng.IntN(len(strs))]
			case 5:
				r.Boxes[0].Ante = ints[rng.IntN(len(ints))]
			case 6:
				r.Boxes[0].BalanceBefore = ints[rng.IntN(len(ints))]
			case 7:
				r.Boxes[0].Cards = r.Boxes[0].Cards[:rng.IntN(3)]
			case 8:
				r.Game = []string{round.DoubleHoldem, "poker", ""}[rng.IntN(3)]
				r.Double = &round.DoubleHand{Button: 1, Seats: []round.Seat{{Seat: 1, Cards: []string{"As"}}, {Seat: 3}}}
			case 9:
				r.Fairness.ChainIndex = uint64(rng.IntN(5))
			case 10:
				r.Boxes[0].Decision = strs[rng.IntN(len(strs))]
			case 11:
				r.Fairness.BeaconRound, r.Fairness.BeaconSignature = 5, strs[rng.IntN(len(strs))]
			}
		}
		var tr Trace
		require.NotPanics(t, func() {
			out := c.Check(&r, Source{File: "f", Row: int64(i)}, &tr, nil)
			l.Observe(&tr, out)
		}, "round %d: %+v", i, r)
	}
}

// BenchmarkLedgerObserve feeds the Ledger 4,000,000 rounds' traces in
// units of 16,384 (fresh round ids, 100 tables and players interleaved,
// each table numbering its rounds, a new seed every 50 rounds of a table,
// nonces in sequence): the serial part of a replay, per round. The round ids
// are either unrelated texts (random fingerprints, the set of
// fingerprints) or each table's counter (runs per prefix).
func BenchmarkLedgerObserve(b *testing.B) {
	b.Run("random-ids", func(b *testing.B) { benchmarkLedgerObserve(b, false, false) })
	b.Run("numbered-ids", func(b *testing.B) { benchmarkLedgerObserve(b, true, false) })
	// As at a Double Hold'em table whose players come and go: a new client
	// input and a new player every 3 rounds.
	b.Run("player-churn", func(b *testing.B) { benchmarkLedgerObserve(b, true, true) })
}

func benchmarkLedgerObserve(b *testing.B, numbered, churn bool) {
	const n, unit = 4_000_000, 16_384
	ts := make([]Trace, n)
	rng := rand.New(rand.NewPCG(7, 7))
	var dc declCache
	decl := dc.lookup(&round.Round{Currency: "EUR", Profile: "casino-holdem", ProfileHash: "5c0e", Fairness: round.Fairness{Scheme: scheme.FairholdV1Name}})
	for i := range ts {
		t := &ts[i]
		t.decl, t.perBox = decl, true
		t.RoundID = "r"
		t.Src = Source{File: "part-00000.rounds.parquet", Row: int64(i)}
		t.idFP = rng.Uint64()
		if numbered {
			t.idPrefix, t.idNum, t.idNumbered = uint64(i%100), uint64(i/100), true
		}
		t.table = uint64(i % 100)
		t.tableID, t.tableSeq = "t", uint64(i/100+1) // each table numbers its rounds
		t.session = uint64(i%100) + 1000
		t.Time, t.TimeOK = int64(i/100), true
		t.seedFP, t.SeedOK = uint64(i/5000*100+i%100)+1, true
		t.Nonce = uint64(i / 100 % 50)
		t.ClientFP = 1
		player := uint64(i % 100)
		if churn {
			t.ClientFP, player = uint64(i/3), uint64(i/3)
		}
		t.addPlayer(player, "", "", 0, t.ClientFP, 0, 0, 0, false)
	}
	b.ResetTimer()
	for range b.N {
		l := NewLedger()
		l.Reserve(n)
		var out []finding.Finding
		for k := 0; k < n; k += unit {
			out = l.ObserveAll(ts[k:min(k+unit, n)], out[:0])
		}
		require.Empty(b, out)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/round")
}

// TestLedgerNoncesMatchASet checks the Ledger's runs of nonces against a
// plain set, with nonces near 0 and near the top of uint64 and keys with
// one run and with many.
func TestLedgerNoncesMatchASet(t *testing.T) {
	l := NewLedger()
	seen := map[[3]uint64]bool{}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200_000 {
		k := [2]uint64{uint64(rng.IntN(5)), uint64(rng.IntN(2))}
		var n uint64
		switch rng.IntN(4) {
		case 0:
			n = uint64(rng.IntN(40))
		case 1:
			n = math.MaxUint64 - uint64(rng.IntN(40))
		case 2:
			n = 1000 + uint64(rng.IntN(400))
		default:
			n = rng.Uint64()
		}
		key := [3]uint64{k[0], k[1], n}
		require.Equal(t, !seen[key], l.addNonce(pairKey(k[0], k[1]), n), "key %v nonce %d", k, n)
		seen[key] = true
	}
	// Runs stay sorted, disjoint and not adjacent.
	for k, first := range l.nonces {
		rs := append([]nonceRange{first}, l.moreRuns[k]...)
		for i, r := range rs {
			require.LessOrEqual(t, r.lo, r.hi)
			if i > 0 {
				require.Greater(t, r.lo, rs[i-1].hi+1)
			}
		}
	}
}

// TestManySeedsReuseDealers deals more rounds than the Checker caches
// seeds, each with its own seed: hash-chain links (their own small cache)
// and single seeds (the main cache). The caches' entries and their dealers
// are reused for new seeds, and every round is still re-dealt from its own
// seed.
func TestManySeedsReuseDealers(t *testing.T) {
	const n = seedCacheSize + 1500
	ch := chain.FromLast(seed.Seed(testSeed), n)
	s, err := scheme.Lookup(scheme.FairholdV1Name)
	require.NoError(t, err)
	for _, linked := range []bool{true, false} {
		rs := make([]round.Round, n)
		bal := int64(1_000_000)
		for i := range rs {
			sd := ch.Links[i+1]
			// A fold without AA Bonus returns nothing whatever the cards.
			r := honestCasino(t, round.LiveCasinoHoldem, 0, []box{{ante: 500, decision: "fold"}}, nil)
			r.RoundID = fmt.Sprintf("c-%d", i)
			r.Fairness.ServerSeed = hex.EncodeToString(sd[:])
			if linked {
				r.Fairness.Commitment = ch.Anchor().Hex()
				r.Fairness.ChainIndex = uint64(i + 1)
			} else {
				r.Fairness.Commitment = commitmentOf(sd)
			}
			dealt, err := s.Deal(scheme.Input{ServerSeed: sd[:], ClientSeeds: r.Fairness.ClientSeeds}, 9)
			require.NoError(t, err)
			texts := make([]string, 9)
			for k, c := range dealt {
				texts[k] = card.Card(c).String()
			}
			r.Boxes[0].Cards, r.Dealer, r.Board = texts[:2], texts[2:4], texts[4:]
			r.Boxes[0].BalanceBefore, r.Boxes[0].BalanceAfter = bal, bal-500
			bal -= 500
			rs[i] = r
		}
		assert.Empty(t, replaySeq(t, rs), "linked %v", linked)
		// A wrong card long after the cache first filled up is found.
		wrong := slices.Clone(rs)
		wrong[n-7].Board = slices.Clone(wrong[n-7].Board)
		wrong[n-7].Board[4] = wrong[n-7].Board[3]
		wrong[n-7].Board[3] = rs[n-6].Board[0]
		fs := replaySeq(t, wrong)
		require.NotEmpty(t, fs)
		assert.Contains(t, codes(fs), finding.CardsMismatch)
		for _, f := range fs {
			assert.Equal(t, int64(n-7), f.Row, "%+v", f)
		}
	}
}

// TestPlaces checks where the Ledger says a round is: file and row by
// ordinal, with a mark only where the input does not go on to the next
// row of the same file, and no place for a round whose row is unknown.
func TestPlaces(t *testing.T) {
	var p places
	type at struct {
		file string
		row  int64
	}
	in := []at{{"a.parquet", 0}, {"a.parquet", 1}, {"a.parquet", 2}, {"b.parquet", 0}, {"b.parquet", 1},
		{"a.parquet", 3}, {"a.parquet", 9}, {"a.parquet", 10}, {"c.jsonl", -1}, {"c.jsonl", -1}, {"c.jsonl", 7}, {"c.jsonl", 8}}
	for i, w := range in {
		require.Equal(t, uint64(i), p.add(w.file, w.row))
	}
	assert.Len(t, p.marks, 7)
	for i, w := range in {
		file, row, ok := p.where(uint64(i))
		if w.row < 0 {
			assert.False(t, ok, "ordinal %d", i)
			continue
		}
		require.True(t, ok, "ordinal %d", i)
		assert.Equal(t, w, at{file, row}, "ordinal %d", i)
	}
	_, _, ok := p.where(uint64(len(in)))
	assert.False(t, ok, "an ordinal not given")

	l := NewLedger()
	l.places.add("a.parquet", 16)
	l.places.add("a.parquet", 17)
	assert.Equal(t, "the player's round at a.parquet row 17", l.previous(lastBalance{ord: 1}))
	assert.Equal(t, "the player's previous round", l.previous(lastBalance{ord: 2}))
}

// TestPlayerTableMatchesAMap checks the players' balances, packed in one
// word when they fit and kept whole when they do not, against a plain map.
func TestPlayerTableMatchesAMap(t *testing.T) {
	p := newPlayerTable()
	want := map[uint64]lastBalance{}
	rng := rand.New(rand.NewPCG(4, 5))
	for i := range 100_000 {
		id := uint64(rng.IntN(500))
		var b lastBalance
		switch rng.IntN(5) {
		case 0:
			b.after = 1<<35 - 2 + int64(rng.IntN(4)) // either side of the packed bound
		case 1:
			b.after = -(1 << 35) - 1 + int64(rng.IntN(4))
		case 2:
			b.after = []int64{math.MaxInt64, math.MinInt64, 0, -1}[rng.IntN(4)]
		default:
			b.after = rng.Int64N(1_000_000)
		}
		b.ord = uint64(i)
		if rng.IntN(5) == 0 {
			b.ord = 1<<packOrdBits - 2 + uint64(rng.IntN(4))
		}
		p.set(id, b)
		want[id] = b
		q := uint64(rng.IntN(600))
		got, ok := p.get(q)
		w, wok := want[q]
		require.Equal(t, wok, ok, "player %d", q)
		require.Equal(t, w, got, "player %d", q)
	}
	wide := 0
	for id, b := range want {
		z := uint64(b.after<<1) ^ uint64(b.after>>63)
		fits := z < 1<<packBalanceBits && b.ord < 1<<packOrdBits
		_, inPacked := p.packed[id]
		_, inWide := p.wide[id]
		require.Equal(t, fits, inPacked, "player %d %+v", id, b)
		require.Equal(t, !fits, inWide, "player %d %+v", id, b)
		if !fits {
			wide++
		}
	}
	require.Greater(t, wide, 50)
	require.Less(t, wide, 450)
}

// TestSeedNoncesMatchASet checks the nonces kept per seed (the last run in
// the seed's state, the earlier runs encoded, and the move to the per-pair
// runs) against a plain set of (seed, client input, nonce): four tables
// interleaved, each with sessions of 100 rounds per seed and client inputs
// changing every few rounds as at a Double Hold'em table; nonces reused,
// out of order and with gaps; client inputs seen again; seeds with more
// runs than a seed keeps; and nonces near and above 2^32.
func TestSeedNoncesMatchASet(t *testing.T) {
	l := NewLedger()
	seen := map[[3]uint64]bool{}
	rng := rand.New(rand.NewPCG(2, 3))
	type table struct{ seed, next, client, used uint64 }
	tables := make([]table, 6)
	seeds := uint64(0)
	for k := range tables {
		seeds++
		tables[k].seed = seeds
	}
	tables[4].next = math.MaxUint32 - 150 // sessions that cross 2^32
	reused := 0
	for i := range 300_000 {
		k := rng.IntN(len(tables))
		tb := &tables[k]
		if tb.used == 100 {
			seeds++
			tb.seed, tb.used = seeds, 0
			if tb != &tables[4] {
				tb.next = 0
			}
		}
		tb.used++
		switch {
		case tb == &tables[5]: // a new client input almost every round: the seed is paired
			tb.client = uint64(rng.IntN(1 << 20))
		case rng.IntN(3) == 0: // a player sits down or leaves
			tb.client = uint64(rng.IntN(1 << 20))
		case rng.IntN(30) == 0: // an earlier client input again
			tb.client = uint64(rng.IntN(3))
		}
		n := tb.next
		switch rng.IntN(12) {
		case 0:
			n = uint64(rng.IntN(int(tb.next%1000) + 1)) // an earlier nonce, maybe reused
		case 1:
			n = tb.next + uint64(rng.IntN(5)) // a gap
		}
		tb.next = max(tb.next, n+1)
		key := [3]uint64{tb.seed, tb.client, n}
		var tr Trace
		id := fmt.Sprintf("r-%d", i)
		tr.traceRound = traceRound{RoundID: id, session: uint64(k) + 1, SeedOK: true, seedFP: tb.seed, ClientFP: tb.client, Nonce: n}
		tr.setID(id)
		out := l.Observe(&tr, nil)
		require.Equal(t, seen[key], slices.ContainsFunc(out, func(f finding.Finding) bool { return f.Code == finding.NonceReused }), "round %d: seed %d client %d nonce %d", i, tb.seed, tb.client, n)
		if seen[key] {
			reused++
		}
		seen[key] = true
	}
	require.Greater(t, reused, 500)
	var paired, kept, runs int
	for fp, i := range l.seeds {
		st := l.seedStates[i]
		if st.nonces.paired {
			paired++
			require.NotContains(t, l.hist, fp)
			continue
		}
		kept++
		require.LessOrEqual(t, int(st.nonces.runs), maxSeedRuns)
		n := 0
		for h := l.hist[fp]; len(h) > 0; n++ {
			_, h = nextRun(h)
		}
		require.Equal(t, int(st.nonces.runs), n)
		runs += n
	}
	// Table 5's seeds and the sessions past 2^32 are paired; the others
	// keep their runs, about 40 a session.
	require.Greater(t, paired, 400)
	require.Greater(t, kept, 2000)
	require.Greater(t, runs, 20*kept)
}

// Every finding about a round, the Checker's and the Ledger's, carries
// the round's time (in UTC, with the shortest fraction that keeps its
// microseconds), table and game; a time that cannot be read leaves it
// empty.
func TestFindingsLocateTheirRound(t *testing.T) {
	rs := session(t, 4)
	rs[1].Time = "2026-11-29T11:30:00.250000+01:00" // 10:30:00.25 UTC
	rs[1].Boxes[0].AnteReturn += 100                // a money finding of the Checker (and BALANCE_MISMATCH)
	rs[2].TableID = "t2"                            // the seed in another session: SEED_REUSED, the Ledger's
	rs[2].Boxes[0].BalanceBefore++                  // and a BALANCE_GAP, the Ledger's too
	rs[3].Time = "yesterday"                        // INPUT_DAMAGED: no time
	fs := replaySeq(t, rs)
	want := []struct{ time, table string }{
		{"2026-11-29T10:01:00Z", "t1"}, {"2026-11-29T10:30:00.25Z", "t1"}, {"2026-11-29T10:01:00Z", "t2"}, {"", "t1"},
	}
	seen := map[finding.Code]bool{}
	for _, f := range fs {
		seen[f.Code] = true
		w := want[f.Row]
		assert.Equal(t, w.time, f.Time, "%s row %d", f.Code, f.Row)
		assert.Equal(t, w.table, f.TableID, "%s row %d", f.Code, f.Row)
		assert.Equal(t, round.CasinoHoldem, f.Game, "%s row %d", f.Code, f.Row)
		assert.Equal(t, "EUR", f.Currency, "%s row %d", f.Code, f.Row)
	}
	for _, c := range []finding.Code{finding.AntePayoutWrong, finding.SeedReused, finding.BalanceGap, finding.InputDamaged} {
		assert.True(t, seen[c], "no %s among %v", c, codes(fs))
	}
}
