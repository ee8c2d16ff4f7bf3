package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
)

var games = []string{round.CasinoHoldem, round.LiveCasinoHoldem, round.DoubleHoldem}

// checker is a small independent verifier of simulated rounds: it lists
// what is wrong with a round, as short tags.
type checker struct {
	t        *testing.T
	p        *profile.Profile
	balances map[string]int64
	tuples   map[string]bool
	lastLink map[string]string
	// The sequences: nonces per server seed, chain indices per anchor,
	// table_seq per table.
	lastNonce, lastIndex, lastSeq map[string]*seqState
	// What was declared: per table its scheme and profile, per player
	// the currency, per owner its seed, per seed its reveal time, per
	// (seed or chain, player) the client seed.
	tables  map[string]string
	wallets map[string]string
	owners  map[string]string
	retired map[string]bool
	reveals map[string]string
	clients map[string]string
}

// seqState is a sequence's last number and its highest.
type seqState struct{ last, max uint64 }

func newChecker(t *testing.T, p *profile.Profile) *checker {
	return &checker{t: t, p: p, balances: map[string]int64{}, tuples: map[string]bool{}, lastLink: map[string]string{},
		lastNonce: map[string]*seqState{}, lastIndex: map[string]*seqState{}, lastSeq: map[string]*seqState{},
		tables: map[string]string{}, wallets: map[string]string{}, owners: map[string]string{}, retired: map[string]bool{},
		reveals: map[string]string{}, clients: map[string]string{}}
}

// sequence reports whether n follows the last number of key in seqs, or
// the highest (after two rounds swapped), and records it; first is the
// first number of a key (0: any).
func sequence(seqs map[string]*seqState, key string, n, first uint64) bool {
	st := seqs[key]
	if st == nil {
		seqs[key] = &seqState{n, n}
		return first == 0 || n == first
	}
	ok := n == st.last+1 || n == st.max+1
	st.last, st.max = n, max(st.max, n)
	return ok
}

// declared lists what r changed of what was declared before it.
func (c *checker) declared(r *round.Round) []string {
	var bad []string
	f := r.Fairness
	declare := func(m map[string]string, k, v, tag string) {
		if w, ok := m[k]; !ok {
			m[k] = v
		} else if w != v {
			bad = append(bad, tag)
		}
	}
	declare(c.tables, r.TableID+"|scheme", f.Scheme, "scheme")
	declare(c.tables, r.TableID+"|profile", r.Profile+"|"+r.ProfileHash, "profile")
	var players []string
	for _, b := range r.Boxes {
		players = append(players, b.PlayerID)
	}
	if r.Double != nil {
		for _, s := range r.Double.Seats {
			players = append(players, s.PlayerID)
		}
	}
	for _, p := range players {
		declare(c.wallets, p, r.Currency, "currency")
	}
	owner := r.TableID
	if r.Game == round.CasinoHoldem {
		owner += "|" + players[0]
	}
	sess := f.Commitment // a seed's, or a chain's anchor
	if cur, ok := c.owners[owner]; ok && cur != sess {
		if c.retired[sess] {
			return append(bad, "seed-reused")
		}
		c.retired[cur] = true
	}
	c.owners[owner] = sess
	if f.ChainIndex == 0 {
		declare(c.reveals, sess, f.RevealedAt, "seed-reused")
	}
	for k, p := range players {
		declare(c.clients, sess+"|"+p, f.ClientSeeds[k], "client-seed")
	}
	return bad
}

// positionsOK tags box or seat numbers out of range or used twice.
func (c *checker) positionsOK(r *round.Round) bool {
	var nums []int
	hi := 0
	switch r.Game {
	case round.CasinoHoldem:
		hi = 1
	case round.LiveCasinoHoldem:
		hi = c.p.Casino.Boxes
	default:
		hi = c.p.Double.SeatsMax
	}
	for _, b := range r.Boxes {
		nums = append(nums, b.Box)
	}
	if r.Double != nil {
		for _, s := range r.Double.Seats {
			nums = append(nums, s.Seat)
		}
	}
	for i, n := range nums {
		if n < 1 || n > hi || i > 0 && n <= nums[i-1] {
			return false
		}
	}
	return true
}

func parseT(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func (c *checker) check(r *round.Round) []string {
	bad := c.declared(r)
	positionsOK := c.positionsOK(r)
	if !positionsOK {
		bad = append(bad, "position")
	}
	f := r.Fairness
	at := parseT(r.Time)
	if !parseT(f.CommittedAt).Before(at) {
		bad = append(bad, "commitment-late")
	}
	if !parseT(f.RevealedAt).After(at) {
		bad = append(bad, "revealed-early")
	}
	sd, err := seed.Parse(f.ServerSeed)
	require.NoError(c.t, err)
	if f.ChainIndex == 0 {
		sum := sha256.Sum256(sd[:])
		if hex.EncodeToString(sum[:]) != f.Commitment {
			bad = append(bad, "commitment-mismatch")
		}
	} else {
		anchor, err := seed.Parse(f.Commitment)
		require.NoError(c.t, err)
		if chain.VerifyAt(sd, anchor, f.ChainIndex) != nil {
			bad = append(bad, "chain-broken")
		}
	}
	tuple := f.ServerSeed + "|" + strings.Join(f.ClientSeeds, ",") + "|" + fmt.Sprint(f.Nonce)
	reused := c.tuples[tuple]
	if reused {
		bad = append(bad, "nonce-reused")
	}
	c.tuples[tuple] = true
	// Sequences: nonces from 0 per seed (a reuse is only that), chain
	// links from 1 per chain, table numbers.
	if f.ChainIndex == 0 && !sequence(c.lastNonce, f.ServerSeed, f.Nonce+1, 1) && !reused {
		bad = append(bad, "nonce-sequence")
	}
	if f.ChainIndex > 0 && !sequence(c.lastIndex, f.Commitment, f.ChainIndex, 1) {
		bad = append(bad, "chain-skipped")
	}
	if f.ChainIndex > 0 && f.Nonce != 0 {
		bad = append(bad, "chain-nonce")
	}
	if r.TableSeq == 0 {
		bad = append(bad, "no-table-seq")
	} else if !sequence(c.lastSeq, r.TableID, r.TableSeq, 0) {
		bad = append(bad, "table-gap")
	}

	// Cards.
	var logged []string
	var lay layout.Layout
	switch {
	case !positionsOK && r.Double != nil:
		// The dealing order from the button needs valid seats: only the
		// board is compared.
		lay, err = layout.For(r.Game, len(r.Double.Seats))
		require.NoError(c.t, err)
		sch, _ := scheme.Lookup(f.Scheme)
		dealt, err := sch.Deal(scheme.Input{ServerSeed: sd[:], ClientSeeds: f.ClientSeeds, Nonce: f.Nonce}, lay.Count)
		require.NoError(c.t, err)
		for _, x := range dealt[:3*len(r.Double.Seats)] {
			logged = append(logged, card.Card(x).String())
		}
	case r.Double != nil:
		lay, err = layout.For(r.Game, len(r.Double.Seats))
		require.NoError(c.t, err)
		seats := make([]int, len(r.Double.Seats))
		bySeat := map[int][]string{}
		for i, s := range r.Double.Seats {
			seats[i] = s.Seat
			bySeat[s.Seat] = s.Cards
		}
		order, err := layout.DealingOrder(seats, r.Double.Button)
		require.NoError(c.t, err)
		for _, s := range order {
			logged = append(logged, bySeat[s]...)
		}
	default:
		lay, err = layout.For(r.Game, len(r.Boxes))
		require.NoError(c.t, err)
		for _, b := range r.Boxes {
			logged = append(logged, b.Cards...)
		}
		logged = append(logged, r.Dealer...)
	}
	logged = append(logged, r.Board...)
	sch, _ := scheme.Lookup(f.Scheme)
	dealt, err := sch.Deal(scheme.Input{ServerSeed: sd[:], ClientSeeds: f.ClientSeeds, Nonce: f.Nonce}, lay.Count)
	require.NoError(c.t, err)
	cs := make([]card.Card, len(logged))
	for i, l := range logged {
		cs[i], err = card.Parse(l)
		require.NoError(c.t, err)
	}
	dup := card.CheckDistinct(cs) != nil
	if dup {
		bad = append(bad, "duplicate")
	}
	for i, x := range cs {
		if dup {
			break
		}
		if uint8(x) != dealt[i] {
			bad = append(bad, "cards")
			break
		}
	}

	// Settlement and balances.
	if r.Double == nil {
		var res []casino.BoxResult
		if r.Void {
			t, _ := casino.Compile(c.p)
			for _, b := range r.Boxes {
				d := casino.Fold
				if b.Decision == "call" {
					d = casino.Call
				}
				x, err := t.Void(b.Box, casino.Bets{Ante: b.Ante, Bonus: b.Bonus}, d)
				require.NoError(c.t, err)
				res = append(res, x)
			}
		} else if !dup && positionsOK {
			res, err = casino.Settle(c.p, r)
			require.NoError(c.t, err)
		}
		lim := c.p.Casino.Limits
		for i, b := range r.Boxes {
			switch {
			case dup || !positionsOK && !r.Void:
			case b.Ante > lim.AnteMax:
				bad = append(bad, "over-limit")
			case b.Decision == "call" && b.Call != b.Ante*c.p.Casino.CallMultiple:
				bad = append(bad, "call-multiple")
			case res[i].AnteReturn != b.AnteReturn || res[i].CallReturn != b.CallReturn || res[i].BonusReturn != b.BonusReturn:
				bad = append(bad, "returns")
			}
			if b.BalanceBefore-b.Ante-b.Call-b.Bonus+b.AnteReturn+b.CallReturn+b.BonusReturn != b.BalanceAfter {
				bad = append(bad, "balance")
			}
			w := walletOf(r, i, b.PlayerID)
			if prev, ok := c.balances[w]; ok && prev != b.BalanceBefore {
				bad = append(bad, "gap")
			}
			c.balances[w] = b.BalanceAfter
		}
		return bad
	}
	h := r.Double
	res, err := double.Settle(c.p, r)
	switch {
	case dup || !positionsOK:
	case err != nil:
		bad = append(bad, "double-settle: "+err.Error())
	default:
		pots, _ := json.Marshal(res.Pots)
		logged, _ := json.Marshal(h.Pots)
		if string(pots) != string(logged) || res.Rake != h.Rake {
			bad = append(bad, "pots")
		}
		for _, s := range h.Seats {
			if res.StackAfter[s.Seat] != s.StackAfter {
				bad = append(bad, "stacks")
				break
			}
		}
	}
	for i, s := range h.Seats {
		w := walletOf(r, i, s.PlayerID)
		if prev, ok := c.balances[w]; ok && prev != s.StackBefore {
			bad = append(bad, "gap")
		}
		c.balances[w] = s.StackAfter
	}
	return bad
}

// walletOf is whose money box or seat i of r holds: its wallet, or the
// player when the round names no wallets.
func walletOf(r *round.Round, i int, player string) string {
	if len(r.WalletIDs) > 0 {
		return "wallet " + r.WalletIDs[i]
	}
	return "player " + player
}

func simulate(t *testing.T, cfg Config, fn func(*round.Round, []Injection)) {
	s, err := New(cfg)
	require.NoError(t, err)
	for !s.Done() {
		r, inj, err := s.Next()
		require.NoError(t, err)
		fn(r, slices.Clone(inj))
	}
}

func TestHonestRoundsVerify(t *testing.T) {
	n := int64(4000)
	if testing.Short() {
		n = 1000
	}
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			p, err := profile.Builtin(g)
			require.NoError(t, err)
			c := newChecker(t, p)
			var voids, folds, boxes, showdowns, sidePots, allIns int
			simulate(t, Config{Game: g, Rounds: n, Seed: 7}, func(r *round.Round, inj []Injection) {
				assert.Empty(t, inj)
				assert.Empty(t, c.check(r), r.RoundID)
				if r.Void {
					voids++
				}
				for _, b := range r.Boxes {
					boxes++
					if b.Decision == "fold" {
						folds++
					}
				}
				if r.Double != nil {
					if len(r.Board) == 5 {
						showdowns++
					}
					if len(r.Double.Pots) > 1 {
						sidePots++
					}
					for _, a := range r.Double.Actions {
						if a.AllIn {
							allIns++
						}
					}
				}
			})
			if g == round.DoubleHoldem {
				assert.Positive(t, showdowns)
				assert.Positive(t, sidePots)
				assert.Positive(t, allIns)
			} else {
				assert.Positive(t, folds)
				assert.Greater(t, boxes, int(n)-1)
			}
			t.Logf("%s: %d voids, %d folds of %d boxes, %d showdowns, %d side pots, %d all-ins", g, voids, folds, boxes, showdowns, sidePots, allIns)
		})
	}
}

func TestDeterministic(t *testing.T) {
	for _, g := range games {
		var a, b []string
		cfg := Config{Game: g, Rounds: 300, Seed: 42, Faults: []FaultRate{{FaultCardsMismatch, 0.05}}}
		simulate(t, cfg, func(r *round.Round, inj []Injection) {
			j, _ := json.Marshal(struct {
				R *round.Round
				I []Injection
			}{r, inj})
			a = append(a, string(j))
		})
		simulate(t, cfg, func(r *round.Round, inj []Injection) {
			j, _ := json.Marshal(struct {
				R *round.Round
				I []Injection
			}{r, inj})
			b = append(b, string(j))
		})
		assert.Equal(t, a, b, g)
		cfg.Seed++
		var c []string
		simulate(t, cfg, func(r *round.Round, inj []Injection) {
			j, _ := json.Marshal(r)
			c = append(c, string(j))
		})
		assert.NotEqual(t, a[:10], c[:10], g)
	}
}

// expectTags maps each fault to what the independent checker sees.
var expectTags = map[string][]string{
	FaultSeedCommitmentMismatch: {"commitment-mismatch"},
	FaultSeedRevealedEarly:      {"revealed-early"},
	FaultNonceReused:            {"nonce-reused"},
	FaultCommitmentLate:         {"commitment-late"},
	FaultChainLinkBroken:        {"chain-broken"},
	FaultCardsMismatch:          {"cards"},
	FaultCardDuplicate:          {"duplicate"},
	FaultBiasedShuffle:          {"cards"},
	FaultCallNotMultiple:        {"call-multiple"},
	FaultBetOverLimit:           {"over-limit"},
	FaultAnteWrongMultiple:      {"returns"},
	FaultCallPaidNotQualified:   {"returns"},
	FaultDealerQualifiedLow:     {"returns"},
	FaultTieNotPushed:           {"returns"},
	FaultBonusPaidAfterFold:     {"returns"},
	FaultBonusWrongMultiple:     {"returns"},
	FaultMaxPayoutIgnored:       {"returns"},
	FaultVoidNotRefunded:        {"returns"},
	FaultVoidWins:               {}, // a won round voided with a proper refund: nothing wrong on its own (VOID_BIAS per table)
	FaultBalanceOffByOne:        {"balance"},
	FaultDHWrongAutoBonus:       {"double-settle"},
	FaultDHPotWrongWinner:       {"pots", "stacks"},
	FaultDHOddChipWrong:         {"pots", "stacks"},
	FaultDHSidePotWrong:         {"pots", "stacks"},
	FaultDHIllegalRaise:         {"double-settle"},
	FaultDHChipsNotConserved:    {"stacks"},
	FaultDHRakeOverCap:          {"pots", "stacks"},
	FaultNonceSkipped:           {"nonce-sequence"},
	FaultNonceSwapped:           {"nonce-sequence"},
	FaultChainLinkSkipped:       {"chain-skipped"},
	FaultChainNonceChosen:       {"chain-nonce"},
	FaultRoundDropped:           {"table-gap", "nonce-sequence", "chain-skipped"},
	FaultRoundDroppedRenumbered: {"nonce-sequence", "chain-skipped"},
	FaultSchemeSwitched:         {"scheme"},
	FaultProfileSwitched:        {"profile"},
	FaultCurrencySwitched:       {"currency"},
	FaultWalletSkimmed:          {"gap"},
	FaultClientSeedSwitched:     {"client-seed"},
	FaultBoxOutOfRange:          {"position"},
	FaultPositionDuplicate:      {"position"},
	FaultSeedRedealt:            {"seed-reused"},
}

// assertVoidedWin checks a round of the void-wins fault: void, every stake
// refunded (the independent checker sees nothing wrong), and won for the
// players had it been played.
func assertVoidedWin(t *testing.T, p *profile.Profile, r *round.Round, tags []string) {
	t.Helper()
	assert.Empty(t, tags, "a voided win is refunded properly")
	require.True(t, r.Void)
	assert.Equal(t, "connection-lost", r.VoidReason)
	played := *r
	played.Void = false
	res, err := casino.Settle(p, &played)
	require.NoError(t, err)
	var staked, returned int64
	for _, b := range res {
		staked += b.Staked()
		returned += b.Returned()
	}
	assert.Greater(t, returned, staked, "round %s would have been won", r.RoundID)
}

// lowCapLive is the live profile with a max payout low enough to bind.
func lowCapLive(t *testing.T) *profile.Profile {
	p, err := profile.Builtin(round.LiveCasinoHoldem)
	require.NoError(t, err)
	p.Casino.Limits.MaxPayoutPerBox = 2000
	return p
}

func TestFaultsInjectWhatTheySay(t *testing.T) {
	n := int64(3000)
	if testing.Short() {
		n = 1500
	}
	for _, f := range Faults() { // the log's faults: TestCommitLogWritesWhatItSays
		require.Contains(t, expectTags, f.Name, "every fault has an expectation")
		for _, g := range f.Games {
			t.Run(f.Name+"/"+g, func(t *testing.T) {
				cfg := Config{Game: g, Rounds: n, Seed: 3, Faults: []FaultRate{{f.Name, 0.05}}}
				p, err := profile.Builtin(g)
				require.NoError(t, err)
				if f.Name == FaultMaxPayoutIgnored {
					p = lowCapLive(t)
					cfg.Profile = p
				}
				if f.Kind() == "session" {
					cfg.Faults[0].Rate = 1
				}
				c := newChecker(t, p)
				injected := 0
				simulate(t, cfg, func(r *round.Round, inj []Injection) {
					tags := c.check(r)
					if len(inj) == 0 {
						assert.Empty(t, tags, "round %s not injected", r.RoundID)
						return
					}
					injected++
					if f.TableLevel() {
						require.Len(t, inj, 1)
						assert.Equal(t, f.Finding, inj[0].Code)
						assert.Equal(t, r.TableID, inj[0].Table)
						assertVoidedWin(t, p, r, tags)
						return
					}
					// One injection per code the round shows (round-dropped:
					// the table's gap and the session's skip on one round).
					require.LessOrEqual(t, len(inj), len(f.Codes()))
					for _, in := range inj {
						assert.Contains(t, f.Codes(), in.Code)
						assert.Equal(t, r.RoundID, in.RoundID)
					}
					for _, in := range inj {
						assert.Empty(t, in.Table)
					}
					require.NotEmpty(t, tags, "round %s injected with %s", r.RoundID, f.Name)
					for _, tag := range tags {
						ok := false
						for _, want := range expectTags[f.Name] {
							ok = ok || strings.HasPrefix(tag, want)
						}
						assert.True(t, ok, "round %s: %s shows %q, want %v", r.RoundID, f.Name, tag, expectTags[f.Name])
					}
				})
				assert.Positive(t, injected, "no round got %s", f.Name)
			})
		}
	}
}

// parityPolicy calls unless the five cards' indices add up to a multiple
// of 3: a decision no built-in strategy makes.
type parityPolicy struct{ asked int }

func (p *parityPolicy) Call(hole [2]card.Card, flop [3]card.Card) (bool, bool) {
	p.asked++
	sum := int(hole[0]) + int(hole[1]) + int(flop[0]) + int(flop[1]) + int(flop[2])
	return sum%3 != 0, true
}

// TestOptimalPolicyPlayers checks that with Config.Optimal a share of the
// players decide by the policy, and that their rounds still verify.
func TestOptimalPolicyPlayers(t *testing.T) {
	for _, g := range []string{round.CasinoHoldem, round.LiveCasinoHoldem} {
		t.Run(g, func(t *testing.T) {
			p, err := profile.Builtin(g)
			require.NoError(t, err)
			c := newChecker(t, p)
			pol := &parityPolicy{}
			// 20 players: each follows the policy with probability 1/4.
			s, err := New(Config{Game: g, Rounds: 3000, Seed: 11, Players: 20, Optimal: pol})
			require.NoError(t, err)
			var calls, folds int
			for !s.Done() {
				r, _, err := s.Next()
				require.NoError(t, err)
				require.Empty(t, c.check(r), r.RoundID)
				if r.Void || len(r.Board) < 3 {
					continue
				}
				flop, err := card.ParseStrings(r.Board[:3])
				require.NoError(t, err)
				for _, b := range r.Boxes {
					var sl *slot
					for _, x := range s.slots {
						if x.player == b.PlayerID {
							sl = x
						}
					}
					if sl == nil || sl.strategy != StrategyOptimal {
						continue
					}
					hole, err := card.ParseStrings(b.Cards)
					require.NoError(t, err)
					want, _ := (&parityPolicy{}).Call([2]card.Card{hole[0], hole[1]}, [3]card.Card{flop[0], flop[1], flop[2]})
					if want {
						assert.Equal(t, "call", b.Decision, r.RoundID)
						calls++
					} else {
						assert.Equal(t, "fold", b.Decision, r.RoundID)
						folds++
					}
				}
			}
			assert.Positive(t, calls)
			assert.Positive(t, folds)
			assert.GreaterOrEqual(t, pol.asked, calls+folds)
		})
	}
	// Without a policy no player is given the optimal strategy.
	s, err := New(Config{Game: round.CasinoHoldem, Rounds: 500, Seed: 11})
	require.NoError(t, err)
	for !s.Done() {
		_, _, err := s.Next()
		require.NoError(t, err)
	}
	for _, sl := range s.slots {
		assert.NotEqual(t, StrategyOptimal, sl.strategy)
	}
}
