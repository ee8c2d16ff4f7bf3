package replayer

// The dishonest operator's tools (adversary_test.go). The operator knows
// every server seed, writes the log and controls its clocks. These edit
// functions are what it does by hand to an honest log: change a round's
// fairness fields and deal and settle the round again so that its cards
// and returns follow from them (redeal), make every wallet continuous
// again (rechain), number the tables' rounds again (renumber). A cheat
// built with them leaves nothing for the checks of cards, settlement and
// balances to find: only the invariants of issue 15 can tell.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// honestLog simulates an honest operator and returns its rounds as the
// operator holds them before writing the log (deep copies), each table's
// rounds numbered (table_seq) as the simulator numbers them after #15.
func honestLog(t testing.TB, cfg sim.Config) []round.Round {
	t.Helper()
	s, err := sim.New(cfg)
	require.NoError(t, err)
	var rs []round.Round
	for !s.Done() {
		r, inj, err := s.Next()
		require.NoError(t, err)
		require.Empty(t, inj, "an honest log")
		rs = append(rs, cloneRound(t, r))
	}
	numberTables(rs)
	return rs
}

// cloneRound deep-copies r through its JSON form, the form of the log.
func cloneRound(t testing.TB, r *round.Round) round.Round {
	t.Helper()
	b, err := json.Marshal(r)
	require.NoError(t, err)
	var c round.Round
	require.NoError(t, json.Unmarshal(b, &c))
	return c
}

func cloneLog(t testing.TB, rs []round.Round) []round.Round {
	out := make([]round.Round, len(rs))
	for i := range rs {
		out[i] = cloneRound(t, &rs[i])
	}
	return out
}

// numbered reports whether the log numbers its tables' rounds.
func numbered(rs []round.Round) bool {
	return slices.ContainsFunc(rs, func(r round.Round) bool { return r.TableSeq != 0 })
}

// numberTables numbers each table's rounds 1, 2, ... in log order (the
// log is in time order), unless the simulator already did.
func numberTables(rs []round.Round) {
	if !numbered(rs) {
		number(rs)
	}
}

func number(rs []round.Round) {
	next := map[string]uint64{}
	for i := range rs {
		next[rs[i].TableID]++
		rs[i].TableSeq = next[rs[i].TableID]
	}
}

// renumber numbers each table's rounds again after rounds were removed or
// added, as a careful cheat does to hide a gap. A log without table_seq
// stays without.
func renumber(rs []round.Round) {
	if numbered(rs) {
		number(rs)
	}
}

// stripTableSeq removes table_seq: a log written before #15.
func stripTableSeq(rs []round.Round) {
	for i := range rs {
		rs[i].TableSeq = 0
	}
}

// builtin returns the built-in profile of game.
func builtin(t testing.TB, game string) *profile.Profile {
	t.Helper()
	p, err := profile.Builtin(game)
	require.NoError(t, err)
	return p
}

func parseDecision(s string) casino.Decision {
	switch s {
	case "call":
		return casino.Call
	case "fold":
		return casino.Fold
	}
	return casino.Unfinished
}

// redeal deals r's cards again from its fairness fields (scheme, server
// seed, client seeds, nonce) and settles the round again under the
// built-in profile of its game: what an operator that changed a round's
// fairness fields must do for the cards and returns to stay consistent.
// Casino Hold'em boxes keep their stakes and decisions (a void round is
// refunded); a Double Hold'em hand keeps its seats, button, actions and
// bonus-card choices (a chosen card by its position among the hole cards,
// an automatic one by the rule). Balances (stacks) after follow from the
// balances before; call rechain for the later rounds.
func redeal(t testing.TB, r *round.Round) {
	t.Helper()
	p := builtin(t, r.Game)
	sch, err := scheme.Lookup(r.Fairness.Scheme)
	require.NoError(t, err)
	seed, err := hex.DecodeString(r.Fairness.ServerSeed)
	require.NoError(t, err)
	hands := len(r.Boxes)
	if r.Double != nil {
		hands = len(r.Double.Seats)
	}
	lay, err := layout.For(r.Game, hands)
	require.NoError(t, err)
	var rnd []byte
	if r.Fairness.BeaconSignature != "" {
		// drand randomness: SHA-256 of the signature's bytes.
		sig, err := hex.DecodeString(r.Fairness.BeaconSignature)
		require.NoError(t, err)
		sum := sha256.Sum256(sig)
		rnd = sum[:]
	}
	idx, err := sch.Deal(scheme.Input{ServerSeed: seed, ClientSeeds: r.Fairness.ClientSeeds, Nonce: r.Fairness.Nonce, Beacon: rnd}, lay.Count)
	require.NoError(t, err)
	dealt := make([]card.Card, len(idx))
	for i, x := range idx {
		dealt[i] = card.Card(x)
	}
	cs, err := layout.Split(lay, dealt)
	require.NoError(t, err)
	board := [5]card.Card{cs.Flop[0], cs.Flop[1], cs.Flop[2], cs.Turn, cs.River}
	if r.Double != nil {
		redealDouble(t, r, p, cs, board)
		return
	}
	tb, err := casino.Compile(p)
	require.NoError(t, err)
	dealer := [2]card.Card{cs.Dealer[0], cs.Dealer[1]}
	r.Dealer = card.Strings(cs.Dealer)
	r.Board = card.Strings(board[:])
	for k := range r.Boxes {
		b := &r.Boxes[k]
		hole := [2]card.Card{cs.Hands[k][0], cs.Hands[k][1]}
		b.Cards = card.Strings(hole[:])
		bets, dec := casino.Bets{Ante: b.Ante, Bonus: b.Bonus}, parseDecision(b.Decision)
		var res casino.BoxResult
		if r.Void {
			res, err = tb.Void(b.Box, bets, dec)
		} else {
			res, err = tb.SettleBox(bets, dec, hole, dealer, board)
		}
		require.NoError(t, err, "round %s box %d", r.RoundID, b.Box)
		b.Call, b.AnteReturn, b.CallReturn, b.BonusReturn = res.Call, res.AnteReturn, res.CallReturn, res.BonusReturn
		b.BalanceAfter = b.BalanceBefore - res.Staked() + res.Returned()
	}
}

func redealDouble(t testing.TB, r *round.Round, p *profile.Profile, cs layout.Cards[card.Card], board [5]card.Card) {
	t.Helper()
	h := r.Double
	seats := make([]int, len(h.Seats))
	for i, s := range h.Seats {
		seats[i] = s.Seat
	}
	order, err := layout.DealingOrder(seats, h.Button)
	require.NoError(t, err)
	for k, seat := range order {
		st := &h.Seats[slices.Index(seats, seat)]
		nw := [3]card.Card{cs.Hands[k][0], cs.Hands[k][1], cs.Hands[k][2]}
		if st.BonusCard != "" {
			if st.BonusAuto {
				st.BonusCard = double.AutoBonusCard(p, nw).String()
			} else {
				j := slices.Index(st.Cards, st.BonusCard)
				require.GreaterOrEqual(t, j, 0, "round %s seat %d: bonus card not among the hole cards", r.RoundID, st.Seat)
				st.BonusCard = nw[j].String()
			}
		}
		st.Cards = card.Strings(nw[:])
	}
	r.Board = card.Strings(board[:len(r.Board)])
	if r.Void {
		for i := range h.Seats {
			h.Seats[i].StackAfter = h.Seats[i].StackBefore
		}
		return
	}
	res, err := double.Settle(p, r)
	require.NoError(t, err, "round %s: the re-dealt hand does not settle", r.RoundID)
	h.Pots = make([]round.Pot, len(res.Pots))
	for i, q := range res.Pots {
		h.Pots[i] = round.Pot{Amount: q.Amount, Eligible: slices.Clone(q.Eligible), Winners: slices.Clone(q.Winners), Shares: slices.Clone(q.Shares)}
	}
	h.Rake = res.Rake
	for i := range h.Seats {
		h.Seats[i].StackAfter = res.StackAfter[h.Seats[i].Seat]
	}
}

// rechain makes every wallet continuous again after an edit, as a careful
// cheat does: each box's (seat's) balance before becomes the player's
// balance after their previous round, and its balance after moves by the
// same amount, so that before - stakes + returns = after still holds.
// BALANCE_GAP and BALANCE_MISMATCH then have nothing to report.
func rechain(rs []round.Round) {
	last := map[string]int64{}
	move := func(player string, before, after *int64) {
		if v, ok := last[player]; ok && v != *before {
			d := v - *before
			*before += d
			*after += d
		}
		last[player] = *after
	}
	for i := range rs {
		r := &rs[i]
		for k := range r.Boxes {
			b := &r.Boxes[k]
			move(holder(r, k, b.PlayerID), &b.BalanceBefore, &b.BalanceAfter)
		}
		if r.Double != nil {
			for k := range r.Double.Seats {
				s := &r.Double.Seats[k]
				move(holder(r, k, s.PlayerID), &s.StackBefore, &s.StackAfter)
			}
		}
	}
}

// holder is whose money box or seat k of r holds, as the log format
// defines it: the wallet wallet_ids[k] names, or the player when the
// round names no wallets.
func holder(r *round.Round, k int, player string) string {
	if k < len(r.WalletIDs) {
		return "wallet " + r.WalletIDs[k]
	}
	return "player " + player
}

// careful fails the test when the edited log is not what a careful cheat
// writes (the edit's fault, not a detector's): a negative or
// discontinuous balance, a box whose balance does not follow from its
// stakes and returns, a Double Hold'em hand the rules engine does not
// settle to the logged stacks, or time going backwards at a table.
func careful(t testing.TB, rs []round.Round) {
	t.Helper()
	last := map[string]int64{}
	table := map[string]time.Time{}
	cont := func(r *round.Round, player string, before, after int64) {
		if v, ok := last[player]; ok && v != before {
			t.Fatalf("edit error: round %s: %s's balance before %d, after their previous round %d", r.RoundID, player, before, v)
		}
		if before < 0 || after < 0 {
			t.Fatalf("edit error: round %s: %s's balance goes negative (%d, %d)", r.RoundID, player, before, after)
		}
		last[player] = after
	}
	for i := range rs {
		r := &rs[i]
		at, err := time.Parse(time.RFC3339Nano, r.Time)
		if err != nil {
			t.Fatalf("edit error: round %s: time %q: %v", r.RoundID, r.Time, err)
		}
		if prev, ok := table[r.TableID]; ok && at.Before(prev) {
			t.Fatalf("edit error: round %s at %s is before its table's previous round (%s)", r.RoundID, r.Time, prev)
		}
		table[r.TableID] = at
		for k, b := range r.Boxes {
			if b.BalanceBefore-b.Ante-b.Call-b.Bonus+b.AnteReturn+b.CallReturn+b.BonusReturn != b.BalanceAfter {
				t.Fatalf("edit error: round %s box %d: balance after does not follow", r.RoundID, b.Box)
			}
			if b.Ante+b.Call+b.Bonus > b.BalanceBefore {
				t.Fatalf("edit error: round %s box %d: %s stakes more than the wallet holds", r.RoundID, b.Box, b.PlayerID)
			}
			cont(r, holder(r, k, b.PlayerID), b.BalanceBefore, b.BalanceAfter)
		}
		if h := r.Double; h != nil {
			if !r.Void {
				res, err := double.Settle(builtin(t, r.Game), r)
				if err != nil {
					t.Fatalf("edit error: round %s: the hand no longer settles: %v", r.RoundID, err)
				}
				for _, s := range h.Seats {
					if res.StackAfter[s.Seat] != s.StackAfter {
						t.Fatalf("edit error: round %s seat %d: stack after %d, the rules give %d", r.RoundID, s.Seat, s.StackAfter, res.StackAfter[s.Seat])
					}
				}
			}
			for k, s := range h.Seats {
				if s.StackBefore <= 0 {
					t.Fatalf("edit error: round %s seat %d: an empty stack at the table", r.RoundID, s.Seat)
				}
				cont(r, holder(r, k, s.PlayerID), s.StackBefore, s.StackAfter)
			}
		}
	}
}

// feasible reports whether careful accepts rs, without failing.
func feasible(t testing.TB, rs []round.Round) (ok bool) {
	t.Helper()
	ft := &probeT{TB: t}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errProbe {
				panic(r)
			}
		}()
		careful(ft, rs)
	}()
	return !ft.failed
}

// firstFeasible applies edit to a copy of rs for each candidate k in
// turn, re-chains the wallets, and returns the first k (and its log) that
// a careful cheat can write: a wallet may not go negative nor a later
// Double Hold'em hand stop settling (the cheat does not rewrite the later
// hands' bets).
func firstFeasible(t testing.TB, rs []round.Round, ks []int, edit func(rs []round.Round, k int) []round.Round) (int, []round.Round) {
	t.Helper()
	for _, k := range ks {
		out := edit(cloneLog(t, rs), k)
		rechain(out)
		if feasible(t, out) {
			return k, out
		}
	}
	t.Fatalf("no candidate round fits the cheat")
	return 0, nil
}

// between returns lo, lo+1, ..., hi-1.
func between(lo, hi int) []int {
	var out []int
	for k := lo; k < hi; k++ {
		out = append(out, k)
	}
	return out
}

// probeT turns a Fatalf into a recoverable stop.
type probeT struct {
	testing.TB
	failed bool
	msg    string
}

var errProbe = fmt.Errorf("probe failed")

func (p *probeT) Helper() {}
func (p *probeT) Fatalf(format string, args ...any) {
	p.failed, p.msg = true, fmt.Sprintf(format, args...)
	panic(errProbe)
}

// net is what player won (positive) or lost in r: returns less stakes of
// their boxes, or the change of their stack.
func net(r *round.Round, player string) int64 {
	var n int64
	for _, b := range r.Boxes {
		if b.PlayerID == player {
			n += b.AnteReturn + b.CallReturn + b.BonusReturn - b.Ante - b.Call - b.Bonus
		}
	}
	if r.Double != nil {
		for _, s := range r.Double.Seats {
			if s.PlayerID == player {
				n += s.StackAfter - s.StackBefore
			}
		}
	}
	return n
}

// players returns the players of r.
func players(r *round.Round) []string {
	var out []string
	for _, b := range r.Boxes {
		out = append(out, b.PlayerID)
	}
	if r.Double != nil {
		for _, s := range r.Double.Seats {
			out = append(out, s.PlayerID)
		}
	}
	return out
}

// someoneWon reports whether a player of r won.
func someoneWon(r *round.Round) bool {
	return slices.ContainsFunc(players(r), func(p string) bool { return net(r, p) > 0 })
}

// sessions returns the indices of the rounds of each seed session (hash
// chain on the live table), by commitment, sessions in order of their
// first round.
func sessions(rs []round.Round) [][]int {
	at := map[string]int{}
	var out [][]int
	for i := range rs {
		c := rs[i].Fairness.Commitment
		k, ok := at[c]
		if !ok {
			k = len(out)
			at[c] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

// playerSessions returns the seed sessions of player's single-box rounds.
func playerSessions(rs []round.Round, player string) [][]int {
	var out [][]int
	for _, s := range sessions(rs) {
		if len(s) > 0 && len(rs[s[0]].Boxes) == 1 && rs[s[0]].Boxes[0].PlayerID == player {
			out = append(out, s)
		}
	}
	return out
}

// plays reports whether player has a box or seat in r.
func plays(r *round.Round, player string) bool { return slices.Contains(players(r), player) }

// shiftTime returns the RFC 3339 time d after s.
func shiftTime(t testing.TB, s string, d time.Duration) string {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err)
	return at.Add(d).UTC().Format(time.RFC3339Nano)
}

// replayLog writes rs as a JSON Lines log in a dataset directory and
// replays it, as `fairhold replay DIR` would, under declared (nil: the
// profiles the rounds name).
func replayLog(t testing.TB, rs []round.Round, declared *profile.Profile) (*Summary, []finding.Finding) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "day")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	writeJSONL(t, filepath.Join(dir, "part-00000.rounds.jsonl"), rs)
	s, fs := replayFindings(t, dir, declared)
	if shardAdversary {
		requireShardedCheat(t, rs, declared, fs)
	}
	return s, fs
}

// newCodes are the codes of issue 15: the ones the detectors being
// written add. Any other code in an unexpected finding means that the edit
// was careless (or that an old check misfires), not that a new detector is
// missing.
var newCodes = []finding.Code{
	finding.AmountOverflow, finding.NonceSequence, finding.ChainLinkSkipped, finding.TableSequenceGap,
	finding.SchemeChanged, finding.ProfileChanged, finding.CurrencyChanged, finding.ClientSeedChanged,
	finding.PositionInvalid, finding.VoidBias, finding.PartMissing, finding.PartExtra, finding.PartAltered,
	finding.PartTruncated, finding.ManifestInvalid, finding.SeedReused,
}

// expect asserts that every hit of want is reported and that nothing is
// reported outside want and allowed (a finding the contract leaves to the
// detector's judgement: for example a copy's nonce is both reused and out
// of sequence).
func expect(t testing.TB, fs []finding.Finding, want, allowed []hit) {
	t.Helper()
	got := map[hit]bool{}
	for _, f := range fs {
		got[hit{f.RoundID, f.Code}] = true
	}
	ok := map[hit]bool{}
	for _, h := range append(slices.Clone(want), allowed...) {
		ok[h] = true
	}
	var missed, extra []string
	for _, h := range want {
		if !got[h] {
			missed = append(missed, h.round+" "+string(h.code))
		}
	}
	careless := false
	for _, f := range fs {
		if !ok[hit{f.RoundID, f.Code}] {
			extra = append(extra, fmt.Sprintf("%s %s (field %s, expected %q, actual %q)", f.RoundID, f.Code, f.Field, f.Expected, f.Actual))
			careless = careless || !slices.Contains(newCodes, f.Code)
		}
	}
	sort.Strings(extra)
	extra = slices.Compact(extra)
	assert.Empty(t, missed, "the cheat passes: these (round, code) were not reported")
	if len(extra) > 10 {
		extra = append(extra[:10], fmt.Sprintf("... %d more", len(extra)-10))
	}
	msg := "reported beyond the contract's codes for this cheat"
	if careless {
		msg += " (an old code: the edit may be careless)"
	}
	assert.Empty(t, extra, msg)
}

// codesOf returns the distinct codes of fs, sorted.
func codesOf(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.Code))
	}
	sort.Strings(out)
	return slices.Compact(out)
}
