package replayer

// The dishonest operator (docs/threat-model.md). Each subtest of
// TestAdversary takes an honest simulated log, edits it by hand as an
// operator that knows every server seed would (adversary_edit_test.go:
// re-deal, re-settle, re-chain the wallets, renumber the table), replays
// it, and asserts the findings the invariants of issue 15 imply: the
// exact (round, code) pairs, and nothing else, so that no BALANCE_* shows
// where the cheat re-chained the wallets. The tests were written from the
// contract, before the detectors: they are meant to fail until the
// detectors land. TestAdversaryGuard shows that the edit functions alone
// change nothing, so a failure here is a detector's, not the editing's.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	gameCH   = round.CasinoHoldem
	gameLive = round.LiveCasinoHoldem
	gameDH   = round.DoubleHoldem
)

var adversaryGames = []string{gameCH, gameLive, gameDH}

// Honest logs the cheats start from. Casino Hold'em: two players taking
// turns, so a player's seed session of 100 rounds spans 200 rounds of the
// table. Live table: one hash chain of 300 links. Double Hold'em: seed
// sessions of hands 1-100, 101-200, 201-250.
func chLog(t testing.TB) []round.Round {
	return honestLog(t, sim.Config{Game: gameCH, Rounds: 600, Seed: 11, Players: 2})
}

func liveLog(t testing.TB) []round.Round {
	return honestLog(t, sim.Config{Game: gameLive, Rounds: 300, Seed: 12})
}

func dhLog(t testing.TB) []round.Round {
	return honestLog(t, sim.Config{Game: gameDH, Rounds: 250, Seed: 13})
}

func logOf(t testing.TB, game string) []round.Round {
	switch game {
	case gameCH:
		return chLog(t)
	case gameLive:
		return liveLog(t)
	}
	return dhLog(t)
}

// firstSession returns the first seed session of the first player of a
// single-box log, checked to be whole.
func firstSession(t testing.TB, rs []round.Round) (player string, ses []int) {
	t.Helper()
	player = rs[0].Boxes[0].PlayerID
	ss := playerSessions(rs, player)
	require.NotEmpty(t, ss)
	require.Len(t, ss[0], sim.SessionRounds, "%s's first session", player)
	return player, ss[0]
}

// TestAdversaryGuard: the edit functions without an edit change nothing
// and the honest logs replay clean, with and without table_seq; a
// careless cheat (a dropped round, wallets not re-chained) is seen by the
// balance checks that exist today.
func TestAdversaryGuard(t *testing.T) {
	for _, game := range adversaryGames {
		t.Run(game, func(t *testing.T) {
			rs := logOf(t, game)
			// redeal reproduces every honest round byte for byte: it deals
			// and settles as the operator did.
			for i := range rs {
				c := cloneRound(t, &rs[i])
				redeal(t, &c)
				want, err := json.Marshal(&rs[i])
				require.NoError(t, err)
				got, err := json.Marshal(&c)
				require.NoError(t, err)
				require.Equal(t, string(want), string(got), "round %s dealt and settled again", rs[i].RoundID)
			}
			c := cloneLog(t, rs)
			rechain(c)
			renumber(c)
			require.Equal(t, rs, c, "rechain and renumber of an honest log")
			careful(t, rs)
			_, fs := replayLog(t, rs, nil)
			expect(t, fs, nil, nil)
			stripTableSeq(c)
			_, fs = replayLog(t, c, nil)
			expect(t, fs, nil, nil)
		})
	}
	t.Run("careless-drop-is-seen", func(t *testing.T) {
		// Not a careful cheat: a round is dropped and the wallet left as
		// it was. The balance checks of today see it on the player's next
		// round.
		rs := chLog(t)
		p, ses := firstSession(t, rs)
		k := ses[40]
		rs = slices.Delete(rs, k, k+1)
		renumber(rs)
		_, fs := replayLog(t, rs, nil)
		var gaps []string
		for _, f := range fs {
			if f.Code == finding.BalanceGap {
				gaps = append(gaps, f.RoundID)
			}
		}
		assert.Contains(t, gaps, rs[ses[41]-1].RoundID, "%s's next round", p)
	})
}

func TestAdversary(t *testing.T) {
	// Choose among future decks (seed games): the operator knows the
	// server seed and the client seed, so it can compute the deck of every
	// nonce to come and deal the round with a later one. The session's
	// nonces skip.
	for _, skip := range []uint64{1, 3} {
		t.Run(fmt.Sprintf("future-deck/casino-holdem/skip-%d", skip), func(t *testing.T) {
			rs := chLog(t)
			_, ses := firstSession(t, rs)
			// Cheat: from the session's 51st round on, every round is dealt
			// with nonce n+skip instead of n (the operator preferred the
			// deck of a later nonce, and the later rounds move on so that no
			// nonce repeats). Cards, returns and the wallet follow.
			for _, i := range ses[50:] {
				rs[i].Fairness.Nonce += skip
				redeal(t, &rs[i])
			}
			rechain(rs)
			careful(t, rs)
			_, fs := replayLog(t, rs, nil)
			expect(t, fs, []hit{{rs[ses[50]].RoundID, finding.NonceSequence}}, nil)
		})
	}
	t.Run("future-deck/double-holdem", func(t *testing.T) {
		rs := dhLog(t)
		n := len(rs) - 1
		// Cheat: the session's last hand is dealt with the deck of nonce
		// n+3 instead of n; pots and stacks follow.
		rs[n].Fairness.Nonce += 3
		redeal(t, &rs[n])
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[n].RoundID, finding.NonceSequence}}, nil)
	})

	// Reorder: two rounds exchange their nonces (links), and so their
	// decks. The last two rounds of a session, so that no later round of
	// the session is out of sequence as well.
	t.Run("swapped/casino-holdem", func(t *testing.T) {
		rs := chLog(t)
		_, ses := firstSession(t, rs)
		a, b := ses[98], ses[99]
		// Cheat: the session's last two rounds are dealt with each other's
		// nonce.
		rs[a].Fairness.Nonce, rs[b].Fairness.Nonce = rs[b].Fairness.Nonce, rs[a].Fairness.Nonce
		redeal(t, &rs[a])
		redeal(t, &rs[b])
		rechain(rs)
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[a].RoundID, finding.NonceSequence}, {rs[b].RoundID, finding.NonceSequence}}, nil)
	})
	t.Run("swapped/double-holdem", func(t *testing.T) {
		rs := dhLog(t)
		a, b := len(rs)-2, len(rs)-1
		// Cheat: the last two hands of the session are dealt with each
		// other's nonce; the second hand starts from the stacks the first
		// now leaves.
		rs[a].Fairness.Nonce, rs[b].Fairness.Nonce = rs[b].Fairness.Nonce, rs[a].Fairness.Nonce
		redeal(t, &rs[a])
		rechain(rs)
		redeal(t, &rs[b])
		rechain(rs)
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[a].RoundID, finding.NonceSequence}, {rs[b].RoundID, finding.NonceSequence}}, nil)
	})
	t.Run("swapped/live-casino-holdem", func(t *testing.T) {
		rs := liveLog(t)
		a, b := len(rs)-2, len(rs)-1
		// Cheat: the chain's last two rounds use each other's link (each
		// link is still revealed when its round ends).
		fa, fb := &rs[a].Fairness, &rs[b].Fairness
		fa.ChainIndex, fb.ChainIndex = fb.ChainIndex, fa.ChainIndex
		fa.ServerSeed, fb.ServerSeed = fb.ServerSeed, fa.ServerSeed
		redeal(t, &rs[a])
		redeal(t, &rs[b])
		rechain(rs)
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[a].RoundID, finding.ChainLinkSkipped}, {rs[b].RoundID, finding.ChainLinkSkipped}}, nil)
	})

	// Choose among future decks on a hash chain: every link is known to
	// the operator in advance, so it can deal a round with a later link.
	for _, skip := range []int{1, 3} {
		t.Run(fmt.Sprintf("chain-link-skipped/live-casino-holdem/skip-%d", skip), func(t *testing.T) {
			// Cheat: round k is dealt with link k+1+skip instead of link
			// k+1, and every later round moves on by as many links; the
			// chain's last rounds, which have no link left, are not dealt.
			k, rs := firstFeasible(t, liveLog(t), between(150, 200), func(rs []round.Round, k int) []round.Round {
				orig, n := cloneLog(t, rs), len(rs)
				for j := k; j < n-skip; j++ {
					rs[j].Fairness.ChainIndex = orig[j+skip].Fairness.ChainIndex
					rs[j].Fairness.ServerSeed = orig[j+skip].Fairness.ServerSeed
					redeal(t, &rs[j])
				}
				return rs[:n-skip]
			})
			careful(t, rs)
			_, fs := replayLog(t, rs, nil)
			expect(t, fs, []hit{{rs[k].RoundID, finding.ChainLinkSkipped}}, nil)
		})
	}

	// Drop a round the player won, re-chain the wallets. The seed
	// session's nonces (the chain's links) then skip one at the player's
	// next round; with table_seq left as it was, the table's numbers skip
	// one too; renumbered, only the nonces (links) tell; without table_seq
	// (a log from before #15) the same.
	for _, game := range adversaryGames {
		for _, variant := range []string{"renumbered", "not-renumbered", "no-table-seq"} {
			t.Run("round-dropped/"+game+"/"+variant, func(t *testing.T) {
				rs := logOf(t, game)
				// Cheat: round k, which a player won, is removed from the log;
				// the wallets of its players are re-chained.
				k, next, out := pickDrop(t, rs)
				switch variant {
				case "renumbered":
					renumber(out)
				case "no-table-seq":
					stripTableSeq(out)
				}
				careful(t, out)
				code := finding.NonceSequence
				if game == gameLive {
					code = finding.ChainLinkSkipped
				}
				want := []hit{{rs[next].RoundID, code}}
				if variant == "not-renumbered" {
					want = append(want, hit{rs[k+1].RoundID, finding.TableSequenceGap})
				}
				_, fs := replayLog(t, out, nil)
				expect(t, fs, want, nil)
			})
		}
	}

	// The limit of a log alone (docs/threat-model.md): a session's last
	// rounds dropped, wallets re-chained and the table renumbered, leave a
	// complete-looking shorter session. Only the player's receipts or a
	// manifest published at the time show it. This test pins the limit:
	// no finding.
	t.Run("limit/session-tail-dropped/casino-holdem", func(t *testing.T) {
		rs := chLog(t)
		_, ses := firstSession(t, rs)
		// Cheat: the last two rounds of the player's session are removed.
		out := slices.Delete(cloneLog(t, rs), ses[99], ses[99]+1)
		out = slices.Delete(out, ses[98], ses[98]+1)
		renumber(out)
		rechain(out)
		careful(t, out)
		_, fs := replayLog(t, out, nil)
		expect(t, fs, nil, nil)
	})
	t.Run("limit/session-tail-dropped/live-casino-holdem", func(t *testing.T) {
		rs := honestLog(t, sim.Config{Game: gameLive, Rounds: sim.ChainLength + 50, Seed: 14})
		end := sim.ChainLength - 1 // the first chain's last round
		require.NotEqual(t, rs[end].Fairness.Commitment, rs[end+1].Fairness.Commitment)
		// Cheat: the first chain's last two rounds are removed; its
		// unused links are never revealed.
		out := slices.Delete(cloneLog(t, rs), end-1, end+1)
		renumber(out)
		rechain(out)
		careful(t, out)
		_, fs := replayLog(t, out, nil)
		expect(t, fs, nil, nil)
	})

	// Voids as a way out: the operator voids rounds the player would have
	// won (refunding the stakes exactly, wallets re-chained).
	t.Run("void-wins/casino-holdem", func(t *testing.T) {
		rs := honestLog(t, sim.Config{Game: gameCH, Rounds: 4000, Seed: 21})
		// Cheat: 50 rounds the player won are voided ("malfunction"):
		// every stake returned, nothing paid.
		voided := voidSome(t, rs, 50, 0)
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		require.Equal(t, []string{string(finding.VoidBias)}, codesOf(fs), "the voided wins are a VOID_BIAS and nothing else")
		ids := []string{""}
		for _, i := range voided {
			ids = append(ids, rs[i].RoundID)
		}
		for _, f := range fs {
			assert.Contains(t, ids, f.RoundID, "a VOID_BIAS names one of the voided rounds (or none)")
		}
	})
	t.Run("void-wins/control", func(t *testing.T) {
		// Not a cheat: as many voids, falling on wins as often as played
		// rounds are won. No VOID_BIAS.
		rs := honestLog(t, sim.Config{Game: gameCH, Rounds: 4000, Seed: 21})
		var wins, losses int
		for i := 500; i < len(rs); i++ {
			if rs[i].Void {
				continue
			}
			switch n := net(&rs[i], rs[i].Boxes[0].PlayerID); {
			case n > 0:
				wins++
			case n < 0:
				losses++
			}
		}
		w := int(math.Round(50 * float64(wins) / float64(wins+losses)))
		voidSome(t, rs, w, 50-w)
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, nil, nil)
	})

	// Switch the scheme mid-table: stake-compat deals with replacement
	// and from the seed's hex text, another way to pick decks.
	t.Run("scheme-switched/casino-holdem", func(t *testing.T) {
		rs := honestLog(t, sim.Config{Game: gameCH, Rounds: 300, Seed: 31, Players: 1})
		m := -1
		for i := 250; i >= 105 && m < 0; i-- {
			if i%sim.SessionRounds != 0 && i%sim.SessionRounds <= sim.SessionRounds-3 &&
				stakeDistinct(t, &rs[i]) && stakeDistinct(t, &rs[i+1]) && stakeDistinct(t, &rs[i+2]) {
				m = i
			}
		}
		require.GreaterOrEqual(t, m, 0, "three rounds stake-compat deals without a repeated card")
		// Cheat: from round m on the table deals with stake-compat (same
		// seeds and nonces), the log ending two rounds later; round m is in
		// the middle of a seed session.
		rs = rs[:m+3]
		for i := m; i < len(rs); i++ {
			rs[i].Fairness.Scheme = scheme.StakeCompatName
			redeal(t, &rs[i])
		}
		rechain(rs)
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[m].RoundID, finding.SchemeChanged}}, from(rs, m, finding.SchemeChanged))
	})

	// Switch the profile mid-table: the rounds from the middle on name
	// another rules profile (its hash left out). Replayed under the
	// declared profile of the table, every round settles; the switch of
	// what the players were told is the finding.
	for _, game := range adversaryGames {
		t.Run("profile-switched/"+game, func(t *testing.T) {
			rs := logOf(t, game)
			k := len(rs) / 2
			// Cheat: from round k on the table names profile "<game>-promo"
			// with no hash.
			for i := k; i < len(rs); i++ {
				rs[i].Profile = rs[i].Profile + "-promo"
				rs[i].ProfileHash = ""
			}
			_, fs := replayLog(t, rs, builtin(t, game))
			expect(t, fs, []hit{{rs[k].RoundID, finding.ProfileChanged}}, from(rs, k, finding.ProfileChanged))
		})
	}

	// Switch a wallet's currency: the balances carry on as numbers in
	// another currency.
	t.Run("currency-switched/casino-holdem", func(t *testing.T) {
		rs := chLog(t)
		p, ses := firstSession(t, rs)
		k := ses[60]
		// Cheat: the player's rounds from round k on are in USD, the
		// wallet's EUR balance carried over unit for unit.
		for i := k; i < len(rs); i++ {
			if plays(&rs[i], p) {
				rs[i].Currency = "USD"
			}
		}
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[k].RoundID, finding.CurrencyChanged}}, from(rs, k, finding.CurrencyChanged))
	})
	for _, game := range []string{gameLive, gameDH} {
		t.Run("currency-switched/"+game, func(t *testing.T) {
			rs := logOf(t, game)
			k := len(rs) / 2
			// Cheat: the table's rounds from round k on are in USD, every
			// wallet's EUR balance carried over unit for unit.
			for i := k; i < len(rs); i++ {
				rs[i].Currency = "USD"
			}
			careful(t, rs)
			// Each player seen before round k: their first round from k on.
			seen, flagged := map[string]bool{}, map[string]bool{}
			var want []hit
			for i := range rs {
				for _, p := range players(&rs[i]) {
					if i < k {
						seen[p] = true
					} else if seen[p] && !flagged[p] {
						flagged[p] = true
						if !slices.Contains(want, hit{rs[i].RoundID, finding.CurrencyChanged}) {
							want = append(want, hit{rs[i].RoundID, finding.CurrencyChanged})
						}
					}
				}
			}
			require.NotEmpty(t, want)
			_, fs := replayLog(t, rs, nil)
			expect(t, fs, want, from(rs, k, finding.CurrencyChanged))
		})
	}

	// Switch a player's client seed within a seed session: the operator
	// replaces the player's seed by one of its own choosing (another way
	// to pick the deck); the cards are dealt from it.
	for _, rotated := range []bool{false, true} {
		name := "client-seed-switched/casino-holdem"
		if rotated {
			name = "client-seed-rotated/casino-holdem"
		}
		t.Run(name, func(t *testing.T) {
			rs := chLog(t)
			p, ses := firstSession(t, rs)
			k := ses[40]
			// Cheat: from round k on, the player's client seed is one the
			// operator chose. (With rotated: not a cheat, the player rotated
			// the seed and the log says so on round k.)
			for i := k; i < len(rs); i++ {
				if plays(&rs[i], p) {
					rs[i].Fairness.ClientSeeds[0] = "0perator-chosen"
					redeal(t, &rs[i])
				}
			}
			rs[k].Fairness.ClientSeedRotated = rotated
			rechain(rs)
			careful(t, rs)
			_, fs := replayLog(t, rs, nil)
			if rotated {
				expect(t, fs, nil, nil)
			} else {
				expect(t, fs, []hit{{rs[k].RoundID, finding.ClientSeedChanged}}, from(rs, k, finding.ClientSeedChanged))
			}
		})
	}
	t.Run("client-seed-repaired/casino-holdem", func(t *testing.T) {
		rs := chLog(t)
		p, ses := firstSession(t, rs)
		// Cheat: the player's client seed for the session is not UTF-8
		// (it holds the unpaired surrogate U+D800, which a JSON text can
		// only escape); the operator deals with the repaired seed (U+FFFD
		// in its place) and logs the escape the player gave, which
		// encoding/json reads as the repaired seed. Every round of the
		// session verifies against the repaired seed.
		for _, i := range ses {
			rs[i].Fairness.ClientSeeds[0] = "\uFFFD" + rs[i].Fairness.ClientSeeds[0]
			redeal(t, &rs[i])
		}
		rechain(rs)
		careful(t, rs)
		dir := filepath.Join(t.TempDir(), "day")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		fn := filepath.Join(dir, "part-00000.rounds.jsonl")
		writeJSONL(t, fn, rs)
		b, err := os.ReadFile(fn)
		require.NoError(t, err)
		require.Equal(t, len(ses), bytes.Count(b, []byte("\xef\xbf\xbd")))
		require.NoError(t, os.WriteFile(fn, bytes.ReplaceAll(b, []byte("\xef\xbf\xbd"), []byte(`\ud800`)), 0o644))
		_, fs := replayFindings(t, dir, nil)
		var want []hit
		for _, i := range ses {
			require.True(t, plays(&rs[i], p))
			want = append(want, hit{rs[i].RoundID, finding.InputDamaged})
		}
		// The damaged rounds are not read, so the table's rounds that
		// follow them skip numbers.
		expect(t, fs, want, from(rs, ses[0]+1, finding.TableSequenceGap))
		for _, f := range fs {
			if f.Code == finding.InputDamaged {
				assert.Equal(t, "fairness.client_seeds[0]", f.Field)
				assert.Contains(t, f.Actual+f.Detail, `\ud800`)
			}
		}
	})
	t.Run("client-seed-switched/live-casino-holdem", func(t *testing.T) {
		rs := liveLog(t)
		// Rounds k whose first player played earlier in the chain.
		var ks []int
		for i := 100; i < 200; i++ {
			q := rs[i].Boxes[0].PlayerID
			if slices.ContainsFunc(rs[:i], func(r round.Round) bool { return plays(&r, q) }) {
				ks = append(ks, i)
			}
		}
		// Cheat: from round k to the chain's end, the client seed of
		// round k's first player (at their box) is one the operator chose.
		k, rs := firstFeasible(t, rs, ks, func(rs []round.Round, k int) []round.Round {
			p := rs[k].Boxes[0].PlayerID
			for i := k; i < len(rs); i++ {
				for b := range rs[i].Boxes {
					if rs[i].Boxes[b].PlayerID == p {
						rs[i].Fairness.ClientSeeds[b] = "0perator-chosen"
						redeal(t, &rs[i])
					}
				}
			}
			return rs
		})
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[k].RoundID, finding.ClientSeedChanged}}, from(rs, k, finding.ClientSeedChanged))
	})
	t.Run("client-seed-switched/double-holdem", func(t *testing.T) {
		rs := dhLog(t)
		n := len(rs) - 1
		p := rs[n].Double.Seats[0].PlayerID
		require.True(t, plays(&rs[n-1], p), "the player sat in the session's previous hand")
		// Cheat: in the session's last hand, the first seat's client seed
		// is one the operator chose.
		rs[n].Fairness.ClientSeeds[0] = "0perator-chosen"
		redeal(t, &rs[n])
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[n].RoundID, finding.ClientSeedChanged}}, nil)
	})

	// Reuse a revealed seed: an earlier session's seed (revealed, so its
	// decks are public and were known to the operator) deals a later
	// session, with fresh plausible commitment and reveal times and the
	// nonces going on from where the earlier session stopped, so that no
	// (seed, client input, nonce) repeats.
	t.Run("seed-reused/casino-holdem", func(t *testing.T) {
		// A log whose first player stays for three sessions, the third of
		// three rounds at the end of the log.
		var rs []round.Round
		var ss [][]int
		for seed := uint64(41); len(ss) != 3 || len(ss[2]) != 3; seed++ {
			require.Less(t, seed, uint64(80), "no simulated log with a player of three sessions")
			rs = honestLog(t, sim.Config{Game: gameCH, Rounds: 2*2*sim.SessionRounds + 6, Seed: seed, Players: 2})
			ss = playerSessions(rs, rs[0].Boxes[0].PlayerID)
		}
		first := rs[ss[0][0]].Fairness
		// Cheat: the player's third session is dealt with the first
		// session's seed (and commitment), nonces 100, 101, 102; the
		// commitment and reveal times are the third session's own.
		for j, i := range ss[2] {
			f := &rs[i].Fairness
			f.ServerSeed, f.Commitment, f.Nonce = first.ServerSeed, first.Commitment, uint64(len(ss[0])+j)
			redeal(t, &rs[i])
		}
		rechain(rs)
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[ss[2][0]].RoundID, finding.SeedReused}},
			[]hit{{rs[ss[2][1]].RoundID, finding.SeedReused}, {rs[ss[2][2]].RoundID, finding.SeedReused}})
	})
	t.Run("seed-reused/double-holdem", func(t *testing.T) {
		rs := honestLog(t, sim.Config{Game: gameDH, Rounds: 2*sim.SessionRounds + 3, Seed: 42})
		ss := sessions(rs)
		require.Len(t, ss, 3)
		require.Len(t, ss[2], 3)
		first := rs[0].Fairness
		// Cheat: the table's third session is dealt with its first
		// session's seed, nonces 100, 101, 102, its own times.
		for j, i := range ss[2] {
			f := &rs[i].Fairness
			f.ServerSeed, f.Commitment, f.Nonce = first.ServerSeed, first.Commitment, uint64(len(ss[0])+j)
			redeal(t, &rs[i])
			rechain(rs)
		}
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[ss[2][0]].RoundID, finding.SeedReused}},
			[]hit{{rs[ss[2][1]].RoundID, finding.SeedReused}, {rs[ss[2][2]].RoundID, finding.SeedReused}})
	})

	// Positions: a box or seat outside the table's range, or two boxes
	// with one number. The dealing order is unchanged, so the cards still
	// follow from the seeds.
	t.Run("position-invalid/casino-holdem/box-out-of-range", func(t *testing.T) {
		rs := chLog(t)
		k := 100
		// Cheat: the one box of the RNG game is logged as box 2.
		rs[k].Boxes[0].Box = 2
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[k].RoundID, finding.PositionInvalid}}, nil)
	})
	t.Run("position-invalid/live-casino-holdem/box-out-of-range", func(t *testing.T) {
		rs := liveLog(t)
		k := 100
		// Cheat: the round's last box is logged as box 7 of a 6-box table.
		rs[k].Boxes[len(rs[k].Boxes)-1].Box = 7
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[k].RoundID, finding.PositionInvalid}}, nil)
	})
	t.Run("position-invalid/live-casino-holdem/box-doubled", func(t *testing.T) {
		rs := liveLog(t)
		k := slices.IndexFunc(rs[100:], func(r round.Round) bool { return len(r.Boxes) >= 2 }) + 100
		require.GreaterOrEqual(t, k, 100)
		// Cheat: the round's second box has the first box's number.
		rs[k].Boxes[1].Box = rs[k].Boxes[0].Box
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[k].RoundID, finding.PositionInvalid}}, nil)
	})
	t.Run("position-invalid/double-holdem/seat-out-of-range", func(t *testing.T) {
		rs := dhLog(t)
		k := slices.IndexFunc(rs[100:], func(r round.Round) bool { return !r.Void }) + 100
		h := rs[k].Double
		last := h.Seats[len(h.Seats)-1].Seat
		// Cheat: the highest seat is logged as seat 11 of a 10-seat table
		// (its actions, pots and button with it; still the highest, so the
		// dealing order is unchanged). The hand cannot be settled either:
		// INPUT_DAMAGED on the round is allowed.
		renum := func(s int) int {
			if s == last {
				return 11
			}
			return s
		}
		h.Seats[len(h.Seats)-1].Seat = 11
		h.Button = renum(h.Button)
		for i := range h.Actions {
			h.Actions[i].Seat = renum(h.Actions[i].Seat)
		}
		for i := range h.Pots {
			for j := range h.Pots[i].Eligible {
				h.Pots[i].Eligible[j] = renum(h.Pots[i].Eligible[j])
			}
			for j := range h.Pots[i].Winners {
				h.Pots[i].Winners[j] = renum(h.Pots[i].Winners[j])
			}
		}
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{rs[k].RoundID, finding.PositionInvalid}}, []hit{{rs[k].RoundID, finding.InputDamaged}})
	})

	// Duplicate a round under a new id: the same deck dealt and charged
	// twice, the wallet re-chained. Its nonce (link) is used twice; with
	// table_seq left as the original's, the table's number repeats too.
	for _, variant := range []string{"renumbered", "not-renumbered"} {
		t.Run("duplicated/casino-holdem/"+variant, func(t *testing.T) {
			rs := chLog(t)
			_, ses := firstSession(t, rs)
			k := ses[40]
			// Cheat: a copy of round k, new id, dealt a second later.
			c := cloneRound(t, &rs[k])
			c.RoundID = "ch-900001"
			c.Time = shiftTime(t, rs[k].Time, time.Second)
			rs = slices.Insert(rs, k+1, c)
			if variant == "renumbered" {
				renumber(rs)
			}
			rechain(rs)
			careful(t, rs)
			want := []hit{{c.RoundID, finding.NonceReused}}
			if variant == "not-renumbered" {
				want = append(want, hit{c.RoundID, finding.TableSequenceGap})
			}
			_, fs := replayLog(t, rs, nil)
			expect(t, fs, want, []hit{{c.RoundID, finding.NonceSequence}})
		})
	}
	t.Run("duplicated/live-casino-holdem", func(t *testing.T) {
		rs := liveLog(t)
		k := 150
		// Cheat: a copy of round k, new id, dealt ten seconds later with
		// the same link, revealed five seconds after it.
		c := cloneRound(t, &rs[k])
		c.RoundID = "lch-900001"
		c.Time = shiftTime(t, rs[k].Time, 10*time.Second)
		c.Fairness.RevealedAt = shiftTime(t, c.Time, 5*time.Second)
		rs = slices.Insert(rs, k+1, c)
		renumber(rs)
		rechain(rs)
		careful(t, rs)
		_, fs := replayLog(t, rs, nil)
		expect(t, fs, []hit{{c.RoundID, finding.ChainLinkReused}}, []hit{{c.RoundID, finding.ChainLinkSkipped}})
	})
}

// pickDrop drops a round a player won (k) and re-chains the wallets
// (out); next is the round whose nonce (link) then skips: the same
// player's next round of the seed session at the RNG game, the next round
// of the table otherwise. The dropped round is one whose removal leaves
// every wallet solvent and every later Double Hold'em hand settling to the
// same pots (so near the end of the log there).
func pickDrop(t testing.TB, rs []round.Round) (k, next int, out []round.Round) {
	t.Helper()
	drop := func(rs []round.Round, k int) []round.Round { return slices.Delete(rs, k, k+1) }
	var ks []int
	switch rs[0].Game {
	case gameCH:
		p, ses := firstSession(t, rs)
		for j := 10; j < 90; j++ {
			if net(&rs[ses[j]], p) > 0 {
				ks = append(ks, ses[j])
			}
		}
		k, out = firstFeasible(t, rs, ks, drop)
		return k, ses[slices.Index(ses, k)+1], out
	case gameLive:
		for k := 100; k < 200; k++ {
			if someoneWon(&rs[k]) {
				ks = append(ks, k)
			}
		}
	case gameDH:
		// The last session's hands, from the end: the later hands are few.
		for k := len(rs) - 2; k > len(rs)-40; k-- {
			if !rs[k].Void && someoneWon(&rs[k]) {
				ks = append(ks, k)
			}
		}
	}
	k, out = firstFeasible(t, rs, ks, drop)
	return k, k + 1, out
}

// voidSome voids, in place, wins rounds a player won and losses rounds
// the player lost, from round 500 on, at least 20 rounds apart, none void
// before, re-chaining the wallets; a round whose void would leave a wallet
// negative is skipped. It returns the voided rounds.
func voidSome(t testing.TB, rs []round.Round, wins, losses int) []int {
	t.Helper()
	var out []int
	last := -100
	for i := 500; i < len(rs) && (wins > 0 || losses > 0); i++ {
		if rs[i].Void || i-last < 20 {
			continue
		}
		n := net(&rs[i], rs[i].Boxes[0].PlayerID)
		if !(n > 0 && wins > 0) && !(n < 0 && losses > 0) {
			continue
		}
		saved := cloneRound(t, &rs[i])
		cheatVoid(t, &rs[i])
		rechain(rs)
		if !feasible(t, rs) {
			rs[i] = saved
			rechain(rs)
			continue
		}
		if n > 0 {
			wins--
		} else {
			losses--
		}
		out = append(out, i)
		last = i
	}
	require.Zero(t, wins+losses, "not enough rounds to void")
	return out
}

// cheatVoid voids r for a "malfunction": every stake returned, nothing
// paid (the cards stay as dealt).
func cheatVoid(t testing.TB, r *round.Round) {
	r.Void, r.VoidReason = true, "malfunction"
	redeal(t, r)
}

// stakeDistinct reports whether r's seeds deal its cards without a
// repeated card under stake-compat (which draws with replacement).
func stakeDistinct(t testing.TB, r *round.Round) bool {
	t.Helper()
	sch, err := scheme.Lookup(scheme.StakeCompatName)
	require.NoError(t, err)
	seed, err := hex.DecodeString(r.Fairness.ServerSeed)
	require.NoError(t, err)
	idx, err := sch.Deal(scheme.Input{ServerSeed: seed, ClientSeeds: r.Fairness.ClientSeeds, Nonce: r.Fairness.Nonce}, 9)
	require.NoError(t, err)
	slices.Sort(idx)
	return len(slices.Compact(idx)) == len(r.Boxes[0].Cards)+len(r.Dealer)+len(r.Board)
}

// from lists (round, code) for every round from k on: a declaration that
// was switched stays declared (docs/replay.md, "What stays fixed"), so
// the replay reports the first round of a switch and may report every
// later round that keeps it.
func from(rs []round.Round, k int, code finding.Code) []hit {
	var out []hit
	for i := k; i < len(rs); i++ {
		out = append(out, hit{rs[i].RoundID, code})
	}
	return out
}
