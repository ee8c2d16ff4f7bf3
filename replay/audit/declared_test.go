package audit

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// declaredCodes are the codes of declared.go.
var declaredCodes = []finding.Code{finding.SchemeChanged, finding.ProfileChanged, finding.CurrencyChanged,
	finding.ClientSeedChanged, finding.PositionInvalid, finding.SeedReused}

// hits lists the findings of the given codes (all when none) as "CODE@row".
func hits(fs []finding.Finding, codes ...finding.Code) []string {
	var out []string
	for _, f := range fs {
		if len(codes) == 0 || slices.Contains(codes, f.Code) {
			out = append(out, fmt.Sprintf("%s@%d", f.Code, f.Row))
		}
	}
	return out
}

// simRounds plays n honest rounds of game.
func simRounds(t *testing.T, game string, n int64, players int) []round.Round {
	t.Helper()
	s, err := sim.New(sim.Config{Game: game, Rounds: n, Seed: 5, Players: players})
	require.NoError(t, err)
	var rs []round.Round
	for !s.Done() {
		r, _, err := s.Next()
		require.NoError(t, err)
		rs = append(rs, *r)
	}
	return rs
}

func TestPositions(t *testing.T) {
	cfg := testConfig(t)
	call := box{ante: 500, decision: "call"}
	tests := []struct {
		name  string
		game  string
		boxes int
		edit  func(r *round.Round)
		want  []string // the findings' fields
	}{
		{"rng box 1", round.CasinoHoldem, 1, func(r *round.Round) {}, nil},
		{"rng box 2", round.CasinoHoldem, 1, func(r *round.Round) { r.Boxes[0].Box = 2 }, []string{"boxes[0].box"}},
		{"live 1..6", round.LiveCasinoHoldem, 3, func(r *round.Round) { r.Boxes[0].Box, r.Boxes[1].Box, r.Boxes[2].Box = 1, 4, 6 }, nil},
		{"live box 7", round.LiveCasinoHoldem, 3, func(r *round.Round) { r.Boxes[2].Box = 7 }, []string{"boxes[2].box"}},
		{"live box 0", round.LiveCasinoHoldem, 2, func(r *round.Round) { r.Boxes[0].Box = 0 }, []string{"boxes[0].box"}},
		{"live box twice", round.LiveCasinoHoldem, 3, func(r *round.Round) { r.Boxes[2].Box = 2 }, []string{"boxes[2].box"}},
		{"live boxes out of order", round.LiveCasinoHoldem, 3, func(r *round.Round) { r.Boxes[0].Box, r.Boxes[1].Box = 2, 1 }, []string{"boxes[1].box"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			boxes := make([]box, tt.boxes)
			for i := range boxes {
				boxes[i] = call
			}
			r := honestCasino(t, tt.game, 1, boxes, nil)
			tt.edit(&r)
			fs := check(t, cfg, &r)
			var fields []string
			for _, f := range fs {
				require.Equal(t, finding.PositionInvalid, f.Code, "%+v", f)
				fields = append(fields, f.Field)
			}
			assert.Equal(t, tt.want, fields)
		})
	}
	// A live table of fewer boxes: its profile's range.
	p, err := NewRulebook(nil)
	require.NoError(t, err)
	live := p.profiles[round.LiveCasinoHoldem].casino
	saved := live.MaxBoxes
	live.MaxBoxes = 4
	r := honestCasino(t, round.LiveCasinoHoldem, 1, []box{call, call}, func(r *round.Round) { r.Boxes[1].Box = 5 })
	fs := check(t, &Config{Dealers: SchemeDealers{}, Rules: p}, &r)
	live.MaxBoxes = saved
	require.Len(t, fs, 1)
	assert.Equal(t, "a box in 1..4", fs[0].Expected)
}

func TestPositionsDouble(t *testing.T) {
	cfg := testConfig(t)
	rs := simRounds(t, round.DoubleHoldem, 40, 6)
	var r round.Round
	for _, x := range rs {
		if !x.Void && len(x.Double.Seats) == 6 && x.Double.Button <= 2 {
			r = x
			break
		}
	}
	require.NotNil(t, r.Double)
	require.Empty(t, check(t, cfg, &r))
	clone := func() round.Round {
		c := r
		d := *r.Double
		d.Seats = slices.Clone(d.Seats)
		c.Double = &d
		return c
	}
	// Seat 6 renumbered 11 everywhere: out of range. The rules engine,
	// which takes seats 1..10 only, is not asked.
	out := clone()
	out.Double.Seats[5].Seat = 11
	assert.Equal(t, []string{"POSITION_INVALID@3"}, hits(check(t, cfg, &out)))
	// Seat 5 listed twice (seat 4 renumbered 5): the cards still follow
	// from the seeds, the hand is not settled.
	dup := clone()
	dup.Double.Seats[3].Seat = 5
	fs := check(t, cfg, &dup)
	assert.Equal(t, []string{"POSITION_INVALID@3"}, hits(fs, finding.PositionInvalid))
	assert.Equal(t, "double.seats[4].seat", fs[0].Field)
	// One player at two seats.
	twice := clone()
	twice.Double.Seats[4].PlayerID = twice.Double.Seats[1].PlayerID
	fs = check(t, cfg, &twice)
	require.Equal(t, []string{"POSITION_INVALID@3"}, hits(fs))
	assert.Equal(t, "double.seats[4].player_id", fs[0].Field)
}

// observer feeds hand-made traces to a Ledger.
type observer struct {
	l   *Ledger
	row int64
	out []finding.Finding
}

func newObserver() *observer { return &observer{l: NewLedger()} }

// pc is a player and their client seed (fingerprints).
type pc struct{ player, client uint64 }

// traceOpts are the facts of a hand-made trace.
type traceOpts struct {
	owner, seed uint64 // seed 0: none (the seed could not be read)
	table       uint64
	players     []pc
	decl        *declText
	reveal      int64 // 0: none
	time        int64
	rotated     bool
	whole       bool // client seeds not one per player
	chain       *chain.Chain
	link        int
}

var eur = testDecl("EUR", "casino-holdem", "5c0e", scheme.FairholdV1Name)

func testDecl(currency, profile, hash, sch string) *declText {
	var c declCache
	return c.lookup(&round.Round{Currency: currency, Profile: profile, ProfileHash: hash, Fairness: round.Fairness{Scheme: sch}})
}

func (o *observer) observe(opt traceOpts) *observer {
	var t Trace
	id := fmt.Sprintf("r-%d", o.row)
	t.traceRound = traceRound{Src: Source{File: "f", Row: o.row}, RoundID: id, table: opt.table + 1, session: opt.owner + 1000,
		Time: opt.time + o.row, TimeOK: true, SeedOK: opt.seed != 0 || opt.chain != nil, seedFP: opt.seed, Nonce: uint64(o.row)}
	t.setID(id)
	t.decl, t.rotated, t.perBox = opt.decl, opt.rotated, !opt.whole
	if t.decl == nil {
		t.decl = eur
	}
	if opt.reveal != 0 {
		t.reveal, t.revealOK = opt.reveal, true
	}
	if opt.chain != nil {
		link := opt.chain.Links[opt.link]
		t.chainIndex = uint64(opt.link)
		t.link = chainLink{seed: link, step: step(link), anchor: opt.chain.Anchor()}
		t.seedFP = uint64(opt.link) + 1<<40
	}
	var all []uint64
	for i, p := range opt.players {
		t.addPlayer(p.player, "", "", 0, p.client, 100, 100, i, false)
		all = append(all, p.player, p.client)
	}
	t.ClientFP = mix64(uint64(len(all)), uint64(len(opt.players)))
	for _, x := range all {
		t.ClientFP = mix64(t.ClientFP, x)
	}
	o.out = o.l.Observe(&t, o.out)
	o.row++
	return o
}

func (o *observer) hits() []string { return hits(o.out, declaredCodes...) }

// found returns the findings of declaredCodes.
func (o *observer) found() []finding.Finding {
	var out []finding.Finding
	for _, f := range o.out {
		if slices.Contains(declaredCodes, f.Code) {
			out = append(out, f)
		}
	}
	return out
}

func TestDeclaredTable(t *testing.T) {
	o := newObserver()
	p := []pc{{1, 1}}
	o.observe(traceOpts{owner: 1, seed: 1, players: p})
	o.observe(traceOpts{owner: 1, seed: 1, players: p, decl: testDecl("EUR", "casino-holdem", "5c0e", scheme.StakeCompatName)})
	o.observe(traceOpts{owner: 1, seed: 1, players: p})
	o.observe(traceOpts{owner: 1, seed: 1, players: p, decl: testDecl("EUR", "casino-holdem", "0b7d", scheme.FairholdV1Name)})
	o.observe(traceOpts{owner: 1, seed: 1, players: p, decl: testDecl("EUR", "casino-holdem-b", "5c0e", scheme.FairholdV1Name)})
	o.observe(traceOpts{owner: 1, seed: 1, players: p, decl: testDecl("EUR", "casino-holdem", "", scheme.FairholdV1Name)})
	// Another table declares its own.
	o.observe(traceOpts{table: 2, owner: 2, seed: 2, players: []pc{{2, 2}}, decl: testDecl("EUR", "casino-holdem", "0b7d", scheme.StakeCompatName)})
	o.observe(traceOpts{table: 2, owner: 2, seed: 2, players: []pc{{2, 2}}, decl: testDecl("EUR", "casino-holdem", "0b7d", scheme.StakeCompatName)})
	assert.Equal(t, []string{"SCHEME_CHANGED@1", "PROFILE_CHANGED@3", "PROFILE_CHANGED@4", "PROFILE_CHANGED@5"}, o.hits())
	fs := o.found()
	f := fs[0]
	assert.Equal(t, "fairness.scheme", f.Field)
	assert.Equal(t, `"fairhold/v1" (the table's scheme, as in its first round r-0)`, f.Expected)
	assert.Equal(t, `"stake-compat"`, f.Actual)
	assert.Equal(t, []string{"profile_hash", "profile", "profile_hash"}, []string{fs[1].Field, fs[2].Field, fs[3].Field})
	assert.Equal(t, `"casino-holdem 5c0e" (the table's profile, as in its first round r-0)`, fs[1].Expected)
	assert.Equal(t, `"casino-holdem (no profile_hash)"`, fs[3].Actual)
}

func TestDeclaredCurrency(t *testing.T) {
	o := newObserver()
	usd := testDecl("USD", "casino-holdem", "5c0e", scheme.FairholdV1Name)
	p1, p2 := []pc{{1, 1}}, []pc{{2, 2}}
	o.observe(traceOpts{owner: 1, seed: 1, players: p1})            // p1: EUR
	o.observe(traceOpts{owner: 2, seed: 2, players: p2, decl: usd}) // p2: a new wallet in USD
	o.observe(traceOpts{owner: 1, seed: 1, players: p1, decl: usd}) // switched
	o.observe(traceOpts{owner: 2, seed: 2, players: p2, decl: usd}) // p2 stays in USD
	o.observe(traceOpts{owner: 2, seed: 2, players: p2})            // switched
	o.observe(traceOpts{owner: 1, seed: 1, players: p1})            // back: p1's wallet is EUR
	o.observe(traceOpts{owner: 3, seed: 3, players: []pc{{3, 3}}})  // p3: EUR
	assert.Equal(t, []string{"CURRENCY_CHANGED@2", "CURRENCY_CHANGED@4"}, o.hits())
	f := o.found()[0]
	assert.Equal(t, `"EUR" (the player's wallet, as in the player's round at f row 0)`, f.Expected)
	assert.Equal(t, `"USD"`, f.Actual)
	assert.Equal(t, "the player at boxes[0].player_id", f.Detail)

	// A switch with a balance gap is reported once, with the gap in the
	// detail; the balances go on from the switched round.
	rs := session(t, 4)
	rs[2].Currency = "USD"
	rs[2].Boxes[0].BalanceBefore += 500
	rs[2].Boxes[0].BalanceAfter += 500
	rs[3].Boxes[0].BalanceBefore += 500
	rs[3].Boxes[0].BalanceAfter += 500
	fs := replaySeq(t, rs)
	require.Equal(t, []string{"CURRENCY_CHANGED@2"}, hits(fs))
	assert.Contains(t, fs[0].Detail, "no BALANCE_GAP is reported across currencies")
}

func TestDeclaredClientSeeds(t *testing.T) {
	// The single-player game: one client seed per seed session.
	o := newObserver()
	p := func(c uint64) []pc { return []pc{{1, c}} }
	o.observe(traceOpts{owner: 1, seed: 1, players: p(7)})
	o.observe(traceOpts{owner: 1, seed: 1, players: p(8)})                // switched
	o.observe(traceOpts{owner: 1, seed: 1, players: p(8)})                // still not the declared one
	o.observe(traceOpts{owner: 1, seed: 1, players: p(7)})                // back
	o.observe(traceOpts{owner: 1, seed: 1, players: p(9), rotated: true}) // a logged rotation
	o.observe(traceOpts{owner: 1, seed: 1, players: p(9)})
	o.observe(traceOpts{owner: 1, seed: 2, players: p(5)}) // a new seed session: a new client seed
	o.observe(traceOpts{owner: 1, seed: 2, players: p(5)})
	assert.Equal(t, []string{"CLIENT_SEED_CHANGED@1", "CLIENT_SEED_CHANGED@2"}, o.hits())
	assert.Equal(t, "fairness.client_seeds[0]", o.found()[0].Field)

	// A table: players come and go; a player who stays, or leaves and
	// comes back within the session, keeps their client seed.
	o = newObserver()
	a, b, c, d := pc{1, 11}, pc{2, 12}, pc{3, 13}, pc{4, 14}
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, b}})
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, b, c}})          // c sits down
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, c}})             // b leaves
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, c, {2, 99}}})    // b comes back with another seed
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{{1, 98}, c, b}})    // a switched
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{c, a}})             // a and c swap boxes: their seeds follow them
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{{1, 13}, {3, 11}}}) // a and c swap seeds
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, d, {3, 97}}, rotated: true})
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, d, {3, 97}}})
	o.observe(traceOpts{owner: 1, seed: 2, players: []pc{{1, 50}, {2, 51}}}) // the next session
	assert.Equal(t, []string{"CLIENT_SEED_CHANGED@3", "CLIENT_SEED_CHANGED@4", "CLIENT_SEED_CHANGED@6", "CLIENT_SEED_CHANGED@6"}, o.hits())
	fs := o.found()
	assert.Equal(t, []string{"fairness.client_seeds[2]", "fairness.client_seeds[0]", "fairness.client_seeds[0]", "fairness.client_seeds[1]"},
		[]string{fs[0].Field, fs[1].Field, fs[2].Field, fs[3].Field})

	// Client seeds that are not one per box are the table's as a whole;
	// a round that changes from one form to the other is a change.
	o = newObserver()
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, b}, whole: true})
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, b}, whole: true})
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, c}, whole: true}) // the whole input changed
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, b}})
	assert.Equal(t, []string{"CLIENT_SEED_CHANGED@2", "CLIENT_SEED_CHANGED@3"}, o.hits())

	// A session remembers every player, however many joined since
	// (issue 24, hole 7): a player who comes back after 1,000 others
	// joined, with another client seed, is a change.
	o = newObserver()
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, b}})
	const others = 1000
	for i := range uint64(others) {
		o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, {100 + i, 100 + i}}})
	}
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, {2, 77}}})    // b switched
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, {101, 77}}})  // 101 switched
	o.observe(traceOpts{owner: 1, seed: 1, players: []pc{a, {150, 150}}}) // 150 kept
	assert.Equal(t, []string{fmt.Sprintf("CLIENT_SEED_CHANGED@%d", others+1), fmt.Sprintf("CLIENT_SEED_CHANGED@%d", others+2)}, o.hits())
	assert.Len(t, o.l.declared.lists[1], others+1)
}

func TestSeedSessions(t *testing.T) {
	p := []pc{{1, 1}}
	const reveal = 1_000_000
	o := newObserver()
	o.observe(traceOpts{owner: 1, seed: 1, players: p, reveal: reveal})
	o.observe(traceOpts{owner: 1, seed: 1, players: p, reveal: reveal})
	o.observe(traceOpts{owner: 1, seed: 2, players: p, reveal: 2 * reveal}) // the owner moves on
	o.observe(traceOpts{owner: 1, seed: 1, players: p, reveal: reveal})     // and back: the old seed deals again
	o.observe(traceOpts{owner: 1, seed: 2, players: p, reveal: 2 * reveal})
	o.observe(traceOpts{owner: 1, seed: 2, players: p, reveal: 3 * reveal, time: 2*reveal + 1}) // dealt after the seed's reveal, with a fresh one
	o.observe(traceOpts{owner: 1, seed: 2, players: p, reveal: 3 * reveal})                     // another reveal time, not yet passed
	o.observe(traceOpts{owner: 1, seed: 2, players: p})                                         // none
	o.observe(traceOpts{owner: 2, seed: 2, players: []pc{{2, 2}}, reveal: 2 * reveal})          // another owner (as before)
	o.observe(traceOpts{owner: 2, seed: 3, players: []pc{{2, 2}}})
	o.observe(traceOpts{owner: 1, seed: 3, players: p}) // another owner's seed
	assert.Equal(t, []string{"SEED_REUSED@3", "SEED_REUSED@5", "SEED_REUSED@6", "SEED_REUSED@7", "SEED_REUSED@8", "SEED_REUSED@10"}, o.hits())
	fs := o.found()
	assert.Equal(t, "fairness.server_seed", fs[0].Field)
	assert.Equal(t, "the seed deals again", fs[0].Actual)
	assert.Equal(t, "fairness.revealed_at", fs[1].Field)
	assert.Equal(t, "the round was dealt after its seed was revealed", fs[1].Detail)
	assert.Equal(t, "every round of a seed logs its one reveal time", fs[2].Detail)
	assert.Equal(t, "absent", fs[3].Actual)

	// A table that moves to another chain leaves the first for good.
	c1, c2 := chain.FromLast(seed.Seed(testSeed), 5), chain.FromLast(seed.Seed{9}, 5)
	tp := []pc{{1, 1}, {2, 2}}
	o = newObserver()
	o.observe(traceOpts{owner: 1, players: tp, chain: &c1, link: 1})
	o.observe(traceOpts{owner: 1, players: tp, chain: &c1, link: 2})
	o.observe(traceOpts{owner: 1, players: tp, chain: &c2, link: 1})
	o.observe(traceOpts{owner: 1, players: tp, chain: &c1, link: 3})
	o.observe(traceOpts{owner: 1, players: tp, chain: &c2, link: 2})
	o.observe(traceOpts{owner: 1, players: []pc{{1, 1}, {2, 3}}, chain: &c2, link: 3})
	o.observe(traceOpts{owner: 1, players: tp, seed: 5})
	o.observe(traceOpts{owner: 1, players: tp, chain: &c2, link: 4})
	assert.Equal(t, []string{"SEED_REUSED@3", "CLIENT_SEED_CHANGED@5", "SEED_REUSED@7"}, o.hits())
	assert.Equal(t, "fairness.commitment", o.found()[0].Field)
	// The ended chains' players are not kept: only the seed's.
	assert.Len(t, o.l.declared.lists, 1)
}

// TestDeclaredCleanSimulation: honest simulated rounds of every game
// through a Checker and a Ledger give none of these findings (nor any
// other).
func TestDeclaredCleanSimulation(t *testing.T) {
	for _, game := range []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem} {
		rs := simRounds(t, game, 1500, 0)
		assert.Empty(t, hits(replaySeq(t, rs)), game)
	}
}
