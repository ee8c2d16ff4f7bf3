package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testSeed is a fixed server seed; its commitment is SHA-256 of its bytes.
var testSeed = func() [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = byte(7*i + 1)
	}
	return s
}()

func commitmentOf(s [32]byte) string {
	c := sha256.Sum256(s[:])
	return hex.EncodeToString(c[:])
}

func testConfig(t testing.TB) *Config {
	t.Helper()
	rb, err := NewRulebook(nil)
	require.NoError(t, err)
	return &Config{Dealers: SchemeDealers{}, Rules: rb, Double: DoubleEngine{Rules: rb}}
}

func casinoTable(t testing.TB, name string) (*casino.Table, *profile.Profile) {
	t.Helper()
	p, err := profile.Builtin(name)
	require.NoError(t, err)
	tb, err := casino.Compile(p)
	require.NoError(t, err)
	return tb, p
}

// box is one box to build: stakes and decision.
type box struct {
	ante, bonus int64
	decision    string
}

// honestCasino builds a round an honest operator logs: the cards the seed
// deals for nonce, settled by the rules engine, balances consistent.
// edit, if not nil, changes the round before it is settled (cards,
// stakes), so that the settlement stays consistent with the logged cards.
func honestCasino(t testing.TB, game string, nonce uint64, boxes []box, edit func(r *round.Round)) round.Round {
	t.Helper()
	tb, p := casinoTable(t, game)
	s, err := scheme.Lookup(scheme.FairholdV1Name)
	require.NoError(t, err)
	dealt, err := s.Deal(scheme.Input{ServerSeed: testSeed[:], ClientSeeds: []string{"client"}, Nonce: nonce}, 2*len(boxes)+7)
	require.NoError(t, err)
	cs := func(ix []uint8) []string {
		out := make([]string, len(ix))
		for i, x := range ix {
			out[i] = card.Card(x).String()
		}
		return out
	}
	nb := len(boxes)
	r := round.Round{
		RoundID: fmt.Sprintf("r-%06d", nonce), Game: game, TableID: "t1",
		Time: "2026-11-29T10:01:00Z", Currency: "EUR", Profile: p.Name, ProfileHash: p.Hash(),
		Fairness: round.Fairness{
			Scheme: scheme.FairholdV1Name, Commitment: commitmentOf(testSeed), CommittedAt: "2026-11-29T10:00:00Z",
			ServerSeed: hex.EncodeToString(testSeed[:]), RevealedAt: "2026-11-29T10:02:00Z",
			ClientSeeds: []string{"client"}, Nonce: nonce,
		},
		Dealer: cs(dealt[2*nb : 2*nb+2]),
		Board:  cs(dealt[2*nb+2:]),
	}
	for i, b := range boxes {
		r.Boxes = append(r.Boxes, round.Box{
			Box: i + 1, PlayerID: fmt.Sprintf("p%d", i+1), Cards: cs(dealt[2*i : 2*i+2]),
			AnteRequested: b.ante, Ante: b.ante, BonusRequested: b.bonus, Bonus: b.bonus,
			Decision: b.decision, BalanceBefore: 1_000_000,
		})
	}
	if edit != nil {
		edit(&r)
	}
	settleCasino(t, tb, &r)
	return r
}

// settleCasino fills the returns and balances of every box from its logged
// cards with the rules engine.
func settleCasino(t testing.TB, tb *casino.Table, r *round.Round) {
	t.Helper()
	parse := func(ss []string) []card.Card {
		out := make([]card.Card, len(ss))
		for i, s := range ss {
			c, err := card.Parse(s)
			require.NoError(t, err)
			out[i] = c
		}
		return out
	}
	dl, bd := parse(r.Dealer), parse(r.Board)
	for i := range r.Boxes {
		b := &r.Boxes[i]
		h := parse(b.Cards)
		d := casino.Fold
		if b.Decision == "call" {
			d = casino.Call
		}
		res, err := tb.SettleBox(casino.Bets{Ante: b.Ante, Bonus: b.Bonus}, d, [2]card.Card(h), [2]card.Card(dl), [5]card.Card(bd))
		require.NoError(t, err)
		b.Call = res.Call
		b.AnteReturn, b.CallReturn, b.BonusReturn = res.AnteReturn, res.CallReturn, res.BonusReturn
		b.BalanceAfter = b.BalanceBefore - res.Staked() + res.Returned()
	}
}

// rebalance recomputes the balances after returns were edited, so that a
// test injects one fault only.
func rebalance(r *round.Round) {
	for i := range r.Boxes {
		b := &r.Boxes[i]
		b.BalanceAfter = b.BalanceBefore - b.Ante - b.Call - b.Bonus + b.AnteReturn + b.CallReturn + b.BonusReturn
	}
}

func check(t testing.TB, cfg *Config, r *round.Round) []finding.Finding {
	t.Helper()
	var tr Trace
	return NewChecker(cfg).Check(r, Source{File: "f", Row: 3}, &tr, nil)
}

func codes(fs []finding.Finding) []finding.Code {
	out := make([]finding.Code, len(fs))
	for i, f := range fs {
		out[i] = f.Code
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// findNonce returns the first nonce whose honest single-box round settles
// with a result pred accepts.
func findNonce(t testing.TB, game string, b box, pred func(res casino.BoxResult, r *round.Round) bool) round.Round {
	t.Helper()
	tb, _ := casinoTable(t, game)
	for n := uint64(0); n < 20000; n++ {
		r := honestCasino(t, game, n, []box{b}, nil)
		bx := &r.Boxes[0]
		h, _ := card.ParseStrings(bx.Cards)
		dl, _ := card.ParseStrings(r.Dealer)
		bd, _ := card.ParseStrings(r.Board)
		d := casino.Fold
		if b.decision == "call" {
			d = casino.Call
		}
		res, err := tb.SettleBox(casino.Bets{Ante: bx.Ante, Bonus: bx.Bonus}, d, [2]card.Card(h), [2]card.Card(dl), [5]card.Card(bd))
		require.NoError(t, err)
		if pred(res, &r) {
			return r
		}
	}
	t.Fatal("no nonce gives the scenario")
	return round.Round{}
}

func TestCheckCleanRounds(t *testing.T) {
	cfg := testConfig(t)
	for n := range uint64(300) {
		for _, d := range []string{"call", "fold"} {
			r := honestCasino(t, round.CasinoHoldem, n, []box{{ante: 100, bonus: 100, decision: d}}, nil)
			assert.Empty(t, check(t, cfg, &r), "nonce %d %s", n, d)
		}
		r := honestCasino(t, round.LiveCasinoHoldem, n, []box{{500, 0, "call"}, {1000, 0, "fold"}, {50000, 0, "call"}}, nil)
		assert.Empty(t, check(t, cfg, &r), "live nonce %d", n)
	}
}

func TestCheckFaults(t *testing.T) {
	cfg := testConfig(t)
	call := box{ante: 100, bonus: 100, decision: "call"}
	fold := box{ante: 100, bonus: 100, decision: "fold"}
	notQualifiedWin := func(res casino.BoxResult, _ *round.Round) bool {
		return res.Reason == casino.ReasonDealerNotQualified && res.PlayerHandValue > res.DealerHandValue
	}
	tests := []struct {
		name  string
		round func() round.Round
		want  finding.Code
		field string
	}{
		{"commitment", func() round.Round {
			r := honestCasino(t, round.CasinoHoldem, 1, []box{call}, nil)
			r.Fairness.Commitment = commitmentOf([32]byte{1})
			return r
		}, finding.SeedCommitmentMismatch, "fairness.server_seed"},
		{"commitment late", func() round.Round {
			r := honestCasino(t, round.CasinoHoldem, 1, []box{call}, nil)
			r.Fairness.CommittedAt = "2026-11-29T10:01:01Z"
			return r
		}, finding.CommitmentLate, "fairness.committed_at"},
		{"revealed early", func() round.Round {
			r := honestCasino(t, round.CasinoHoldem, 1, []box{call}, nil)
			r.Fairness.RevealedAt = "2026-11-29T10:00:59Z"
			return r
		}, finding.SeedRevealedEarly, "fairness.revealed_at"},
		{"cards swapped", func() round.Round {
			return honestCasino(t, round.CasinoHoldem, 2, []box{call}, func(r *round.Round) {
				r.Board[4], r.Dealer[0] = r.Dealer[0], r.Board[4]
			})
		}, finding.CardsMismatch, "dealer"},
		{"duplicate card", func() round.Round {
			return honestCasino(t, round.CasinoHoldem, 3, []box{call}, func(r *round.Round) { r.Board[2] = r.Dealer[1] })
		}, finding.CardDuplicate, "board"},
		{"call not 2x", func() round.Round {
			r := honestCasino(t, round.CasinoHoldem, 4, []box{call}, nil)
			// The operator took 150 and settled on it.
			tb, _ := casinoTable(t, round.CasinoHoldem)
			_ = tb
			b := &r.Boxes[0]
			scale := func(x int64) int64 { return x * 150 / 200 }
			b.Call, b.CallReturn = 150, scale(b.CallReturn)
			rebalance(&r)
			return r
		}, finding.CallNotMultiple, "boxes[0].call"},
		{"over limit", func() round.Round {
			return honestCasino(t, round.CasinoHoldem, 5, []box{{ante: 60000, decision: "call"}}, nil)
		}, finding.BetOverLimit, "boxes[0].ante"},
		{"ante multiple", func() round.Round {
			r := findNonce(t, round.CasinoHoldem, call, func(res casino.BoxResult, _ *round.Round) bool { return res.AnteReturn > res.Ante })
			r.Boxes[0].AnteReturn += 100
			rebalance(&r)
			return r
		}, finding.AntePayoutWrong, "boxes[0].ante_return"},
		{"call paid not qualified", func() round.Round {
			r := findNonce(t, round.CasinoHoldem, call, notQualifiedWin)
			r.Boxes[0].CallReturn *= 2
			rebalance(&r)
			return r
		}, finding.CallPaidNotQualified, "boxes[0].call_return"},
		{"dealer qualified below pair of 4s", func() round.Round {
			r := findNonce(t, round.CasinoHoldem, call, func(res casino.BoxResult, _ *round.Round) bool {
				return res.Reason == casino.ReasonDealerNotQualified && res.PlayerHandValue < res.DealerHandValue
			})
			r.Boxes[0].AnteReturn, r.Boxes[0].CallReturn = 0, 0
			rebalance(&r)
			return r
		}, finding.DealerQualificationWrong, "boxes[0].ante_return"},
		{"tie not pushed", func() round.Round {
			r := findNonce(t, round.CasinoHoldem, call, func(res casino.BoxResult, _ *round.Round) bool { return res.Reason == casino.ReasonTie })
			r.Boxes[0].AnteReturn, r.Boxes[0].CallReturn = 0, 0
			rebalance(&r)
			return r
		}, finding.TieNotPushed, "boxes[0].ante_return"},
		{"bonus after fold", func() round.Round {
			r := findNonce(t, round.CasinoHoldem, fold, func(res casino.BoxResult, _ *round.Round) bool {
				return res.BonusReason == casino.BonusForfeit && res.BonusHand != "high-card" && res.BonusHand != "one-pair"
			})
			r.Boxes[0].BonusReturn = 800
			rebalance(&r)
			return r
		}, finding.BonusPaidAfterFold, "boxes[0].bonus_return"},
		{"bonus multiple", func() round.Round {
			r := findNonce(t, round.CasinoHoldem, call, func(res casino.BoxResult, _ *round.Round) bool { return res.BonusReason == casino.BonusWon })
			r.Boxes[0].BonusReturn += 100
			rebalance(&r)
			return r
		}, finding.BonusPayoutWrong, "boxes[0].bonus_return"},
		{"void not refunded", func() round.Round {
			r := honestCasino(t, round.CasinoHoldem, 6, []box{call}, nil)
			r.Void = true
			b := &r.Boxes[0]
			b.AnteReturn, b.CallReturn, b.BonusReturn = b.Ante, b.Call, 0
			rebalance(&r)
			return r
		}, finding.VoidNotRefunded, "boxes[0].bonus_return"},
		{"balance off by one", func() round.Round {
			r := honestCasino(t, round.CasinoHoldem, 7, []box{call}, nil)
			r.Boxes[0].BalanceAfter++
			return r
		}, finding.BalanceMismatch, "boxes[0].balance_after"},
		{"max payout ignored", func() round.Round {
			r := findNonce(t, round.LiveCasinoHoldem, box{ante: 50000, decision: "call"}, func(res casino.BoxResult, _ *round.Round) bool { return res.Capped })
			b := &r.Boxes[0]
			b.AnteReturn, b.CallReturn = 2*b.Ante, 2*b.Call
			tb, _ := casinoTable(t, round.LiveCasinoHoldem)
			_ = tb
			// Uncapped: re-settle without the cap below.
			r2 := r
			p, _ := profile.Builtin(round.LiveCasinoHoldem)
			p.Casino.Limits.MaxPayoutPerBox = 0
			nc, err := casino.Compile(p)
			require.NoError(t, err)
			r2.Boxes = slices.Clone(r.Boxes)
			settleCasino(t, nc, &r2)
			return r2
		}, finding.MaxPayoutExceeded, "boxes[0].call_return"},
		{"profile hash", func() round.Round {
			r := honestCasino(t, round.CasinoHoldem, 8, []box{call}, nil)
			r.ProfileHash = commitmentOf([32]byte{2})
			return r
		}, finding.ProfileMismatch, "profile_hash"},
		{"bad card", func() round.Round {
			r := honestCasino(t, round.CasinoHoldem, 9, []box{call}, nil)
			r.Board[1] = "Zz"
			return r
		}, finding.InputDamaged, "board"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.round()
			fs := check(t, cfg, &r)
			require.NotEmpty(t, fs)
			assert.Equal(t, []finding.Code{tt.want}, codes(fs), "%+v", fs)
			assert.Equal(t, tt.field, fs[0].Field)
			assert.Equal(t, finding.SeverityOf(tt.want), fs[0].Severity)
			assert.Equal(t, r.RoundID, fs[0].RoundID)
			assert.Equal(t, int64(3), fs[0].Row)
			assert.NotEqual(t, fs[0].Expected, fs[0].Actual)
		})
	}
}

// TestSettleMatchesEngine checks the replayer's counterfactual settlement
// (exact variant) against the rules engine on many deals and stakes.
func TestSettleMatchesEngine(t *testing.T) {
	for _, game := range []string{round.CasinoHoldem, round.LiveCasinoHoldem} {
		tb, p := casinoTable(t, game)
		cr, err := NewCasinoRules(p)
		require.NoError(t, err)
		bonus := int64(0)
		if p.Casino.Bonus != nil {
			bonus = 100
		}
		n := 3000
		if testing.Short() {
			n = 300
		}
		for i := range uint64(n) {
			for _, dec := range []string{"call", "fold"} {
				ante := []int64{100, 5000, 50000}[i%3]
				if game == round.LiveCasinoHoldem && ante < 500 {
					ante = 500
				}
				r := honestCasino(t, game, i, []box{{ante: ante, bonus: bonus, decision: dec}}, nil)
				b := &r.Boxes[0]
				h, _ := card.ParseStrings(b.Cards)
				dl, _ := card.ParseStrings(r.Dealer)
				bd, _ := card.ParseStrings(r.Board)
				f := facts{decision: dec, bonusHand: eval5([2]card.Card(h), [5]card.Card(bd)),
					player: eval7([2]card.Card(h), [5]card.Card(bd)), dealer: eval7([2]card.Card(dl), [5]card.Card(bd))}
				f.qualifies = f.dealer >= cr.Qualifier
				got, _, err := cr.settle(b, &f, vExact)
				require.NoError(t, err)
				d := casino.Fold
				if dec == "call" {
					d = casino.Call
				}
				want, err := tb.SettleBox(casino.Bets{Ante: b.Ante, Bonus: b.Bonus}, d, [2]card.Card(h), [2]card.Card(dl), [5]card.Card(bd))
				require.NoError(t, err)
				require.Equal(t, returns{want.AnteReturn, want.CallReturn, want.BonusReturn}, got, "%s nonce %d %s", game, i, dec)
			}
		}
	}
}

// BenchmarkCheck checks one in-memory single-box Casino Hold'em round
// (seed cached, cards re-dealt, settled by the rules engine): the
// per-round cost of a replay without the reading.
func BenchmarkCheck(b *testing.B) {
	cfg := testConfig(b)
	rs := make([]round.Round, 64)
	for i := range rs {
		rs[i] = honestCasino(b, round.CasinoHoldem, uint64(i), []box{{ante: 100, bonus: 100, decision: "call"}}, nil)
	}
	c := NewChecker(cfg)
	var tr Trace
	out := make([]finding.Finding, 0, 8)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		out = c.Check(&rs[i%len(rs)], Source{File: "f", Row: int64(i)}, &tr, out[:0])
	}
	if len(out) != 0 {
		b.Fatal(out)
	}
}

// BenchmarkDealOnly re-derives the same rounds' cards alone with a
// prepared dealer: the cryptographic floor BenchmarkCheck is compared
// with.
func BenchmarkDealOnly(b *testing.B) {
	rs := make([]round.Round, 64)
	for i := range rs {
		rs[i] = honestCasino(b, round.CasinoHoldem, uint64(i), []box{{ante: 100, bonus: 100, decision: "call"}}, nil)
	}
	d, err := SchemeDealers{}.Prepare(scheme.FairholdV1Name, testSeed[:])
	require.NoError(b, err)
	var dst [9]uint8
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		f := &rs[i%len(rs)].Fairness
		if err := d.Deal(dst[:], f.ClientSeeds, f.Nonce, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// fakeBeacons deals with the real scheme and answers every beacon with
// no randomness (so the cards stay those dealt without one), published at
// a fixed time, or fails.
type fakeBeacons struct {
	SchemeDealers
	published time.Time
	err       error
}

func (f fakeBeacons) Beacon(string, uint64, []byte, []byte) ([]byte, time.Time, error) {
	return nil, f.published, f.err
}

func TestCheckBeacon(t *testing.T) {
	rb, err := NewRulebook(nil)
	require.NoError(t, err)
	withBeacon := func() round.Round {
		r := honestCasino(t, round.CasinoHoldem, 11, []box{{ante: 100, decision: "call"}}, nil)
		r.Fairness.BeaconChain, r.Fairness.BeaconRound, r.Fairness.BeaconSignature = "quicknet", 1000, "abcd"
		return r
	}
	committed := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		d    Dealers
		want []finding.Code
	}{
		{"valid, after the commitment", fakeBeacons{published: committed.Add(time.Second)}, []finding.Code{}},
		{"published before the commitment", fakeBeacons{published: committed.Add(-time.Second)}, []finding.Code{finding.BeaconTooEarly}},
		{"invalid signature", fakeBeacons{err: errors.New("bad signature")}, []finding.Code{finding.BeaconInvalid}},
		// quicknet publishes every 3 s: a round published 3 s after the
		// commitment or later is not the first after it.
		{"the first round after the commitment, to the second", fakeBeacons{published: committed.Add(3 * time.Second)}, []finding.Code{}},
		{"a later round than the first after the commitment", fakeBeacons{published: committed.Add(4 * time.Second)}, []finding.Code{finding.BeaconRoundChosen}},
		{"a round long after the commitment", fakeBeacons{published: committed.Add(50 * time.Second)}, []finding.Code{finding.BeaconRoundChosen}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := withBeacon()
			fs := check(t, &Config{Dealers: tt.d, Rules: rb}, &r)
			assert.Equal(t, tt.want, codes(fs), "%+v", fs)
		})
	}
	// A beacon published after the round was dealt (the commitment a
	// second before the round, the beacon the first after it).
	r0 := withBeacon()
	r0.Fairness.CommittedAt = "2026-11-29T10:00:59Z"
	fs0 := check(t, &Config{Dealers: fakeBeacons{published: time.Date(2026, 11, 29, 10, 1, 1, 0, time.UTC)}, Rules: rb}, &r0)
	assert.Equal(t, []finding.Code{finding.BeaconAfterRound}, codes(fs0), "%+v", fs0)

	// The real drand verification rejects a signature of the wrong length.
	r := withBeacon()
	fs := check(t, testConfig(t), &r)
	assert.Equal(t, []finding.Code{finding.BeaconInvalid}, codes(fs))
}
