package replayer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// TestAdversaryWallets (issue 24, hole 8): the operator takes money from a
// wallet when a player's session ends and logs the player's next session
// under a fresh player id, starting from the smaller balance. The edits
// are written from the log format (a wallet is what wallet_ids names; a
// balance chains by wallet), apart from the detector: each is careful by
// player id (every player id's balances chain, every box's arithmetic
// holds), which is all a replay that follows player ids could see.
func TestAdversaryWallets(t *testing.T) {
	for _, game := range adversaryGames {
		t.Run(game, func(t *testing.T) {
			rs := logOf(t, game)
			require.NotEmpty(t, rs[0].WalletIDs, "the honest log names wallets")
			_, fs := replayLog(t, rs, nil)
			expect(t, fs, nil, nil)

			k, player, wallet, out := skimAcrossIDs(t, rs, 10)
			t.Logf("round %d (%s): player %s (wallet %s) comes back as %s-2, skimmed", k, rs[k].RoundID, player, wallet, player)

			t.Run("skimmed-under-a-fresh-id", func(t *testing.T) {
				s, fs := replayLog(t, out, nil)
				expect(t, fs, []hit{{out[k].RoundID, finding.BalanceGap}}, nil)
				assert.Empty(t, walletWarnings(s.Warnings))
				shardedToo(t, out, fs)
			})
			t.Run("control-a-fresh-id-without-the-skim", func(t *testing.T) {
				_, _, _, honest := skimAcrossIDs(t, rs, 0)
				s, fs := replayLog(t, honest, nil)
				expect(t, fs, nil, nil)
				assert.Empty(t, walletWarnings(s.Warnings))
			})
			t.Run("same-id-moved-to-a-fresh-wallet", func(t *testing.T) {
				// The player id stays; its wallet id is a fresh one from
				// round k on, which starts from the skimmed balance.
				moved := cloneLog(t, out)
				for i := k; i < len(moved); i++ {
					for j, p := range players(&moved[i]) {
						if p == player+"-2" {
							setPlayer(&moved[i], j, player)
							moved[i].WalletIDs[j] = wallet + "-fresh"
						}
					}
				}
				_, fs := replayLog(t, moved, nil)
				expect(t, fs, []hit{{moved[k].RoundID, finding.WalletChanged}}, nil)
				shardedToo(t, moved, fs)
			})
			t.Run("wallet-ids-left-out", func(t *testing.T) {
				// Without wallet ids the fresh player id starts a fresh
				// balance: nothing to compare. The replay says so for every
				// table, which makes a certificate of the log incomplete.
				bare := cloneLog(t, out)
				for i := range bare {
					bare[i].WalletIDs = nil
				}
				s, fs := replayLog(t, bare, nil)
				expect(t, fs, nil, nil)
				ws := walletWarnings(s.Warnings)
				require.Len(t, ws, 1)
				assert.Contains(t, ws[0], fmt.Sprintf("table %s: %d rounds without wallet_ids", bare[0].TableID, len(bare)))
			})
		})
	}
}

// skimAcrossIDs renames a player who plays before and after a round k
// (the single-box game: at the start of their second seed session, which
// is then the new id's) to player-2 from k on, and takes pct percent of
// their balance (stack) before round k from it and their later rounds.
// It returns the first k a careful cheat can write (by player id: see
// TestAdversaryWallets), the player, their wallet, and the log.
func skimAcrossIDs(t *testing.T, rs []round.Round, pct int64) (int, string, string, []round.Round) {
	t.Helper()
	var ks []int
	if rs[0].Game == round.CasinoHoldem {
		for _, s := range playerSessions(rs, rs[0].Boxes[0].PlayerID)[1:] {
			ks = append(ks, s[0])
		}
	} else {
		ks = between(len(rs)/3, len(rs)-20)
	}
	for _, k := range ks {
		for j, player := range players(&rs[k]) {
			if !playedBefore(rs[:k], player) {
				continue
			}
			wallet := rs[k].WalletIDs[j]
			out := slices.Clone(rs)
			for i := k; i < len(out); i++ {
				out[i] = cloneRound(t, &rs[i])
			}
			skim := balanceBefore(&out[k], j) * pct / 100
			for i := k; i < len(out); i++ {
				for jj, p := range players(&out[i]) {
					if p == player {
						setPlayer(&out[i], jj, player+"-2")
						addBalance(&out[i], jj, -skim)
					}
				}
			}
			// The rounds before k are the honest log's.
			bare := make([]round.Round, len(out)-k)
			for i := range bare {
				bare[i] = out[k+i]
				bare[i].WalletIDs = nil
			}
			if feasible(t, bare) {
				return k, player, wallet, out
			}
		}
	}
	t.Fatalf("no round fits the cheat")
	return 0, "", "", nil
}

func playedBefore(rs []round.Round, player string) bool {
	for i := range rs {
		if plays(&rs[i], player) {
			return true
		}
	}
	return false
}

func setPlayer(r *round.Round, j int, id string) {
	if r.Double != nil {
		r.Double.Seats[j].PlayerID = id
		return
	}
	r.Boxes[j].PlayerID = id
}

func balanceBefore(r *round.Round, j int) int64 {
	if r.Double != nil {
		return r.Double.Seats[j].StackBefore
	}
	return r.Boxes[j].BalanceBefore
}

func addBalance(r *round.Round, j int, d int64) {
	if r.Double != nil {
		r.Double.Seats[j].StackBefore += d
		r.Double.Seats[j].StackAfter += d
		return
	}
	r.Boxes[j].BalanceBefore += d
	r.Boxes[j].BalanceAfter += d
}

// shardedToo replays rs as three parts in 2 and 3 shards, whatever the
// sample of requireShardedCheat: the merges must find what the one-file
// replay found (fs), where the wallet's rounds are split across shards
// (the cut of three parts falls at the cheat's round in two games).
func shardedToo(t *testing.T, rs []round.Round, fs []finding.Finding) {
	t.Helper()
	if shardAdversary {
		return // replayLog did
	}
	n := shardedCheats
	shardedCheats = 0
	defer func() { shardedCheats = n }()
	requireShardedCheat(t, rs, nil, fs)
}

// walletWarnings are the warnings about rounds without wallet ids.
func walletWarnings(ws []string) []string {
	var out []string
	for _, w := range ws {
		if strings.Contains(w, "without wallet_ids") {
			out = append(out, w)
		}
	}
	return out
}
