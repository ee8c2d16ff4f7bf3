package receipt_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
)

// Each test edits an honest log after the players' receipts were issued
// (adversary_edit_test.go) and asserts exactly the findings the edit must
// give, derived from the edit: a check removed from the detector leaves
// its expected finding out, and the test fails.

// codes lists the codes of ws, to assert that a test expects its cheat's
// own code.
func codes(ws []want) []finding.Code {
	var out []finding.Code
	for _, w := range ws {
		if !slices.Contains(out, w.code) {
			out = append(out, w.code)
		}
	}
	return out
}

// A return lowered, the wallet re-chained: the receipt's return and the
// balance after differ.
func TestAdversaryReturnLowered(t *testing.T) {
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			rs := honest(t, g, 400, 11)
			recs := issue(t, rs)
			var edited []round.Round
			var ws []want
			for i := len(rs) / 2; i < len(rs) && edited == nil; i++ {
				e := cloneLog(t, rs)
				r := &e[i]
				var player, field string
				if r.Double == nil {
					for k := range r.Boxes {
						b := &r.Boxes[k]
						if b.CallReturn > 1 {
							x := b.CallReturn / 2
							b.CallReturn -= x
							b.BalanceAfter -= x
							player, field = b.PlayerID, fmt.Sprintf("boxes[box %d].call-return", b.Box)
							break
						}
					}
				} else {
				pots:
					for j := range r.Double.Pots {
						p := &r.Double.Pots[j]
						for w, seat := range p.Winners {
							if p.Shares[w] > 1 {
								x := p.Shares[w] / 2
								p.Shares[w] -= x
								p.Amount -= x
								r.Double.Rake += x // the operator keeps it
								for k := range r.Double.Seats {
									if s := &r.Double.Seats[k]; s.Seat == seat {
										s.StackAfter -= x
										player = s.PlayerID
									}
								}
								break pots
							}
						}
					}
				}
				if player == "" {
					continue
				}
				rechain(e)
				if !solvent(e) {
					continue
				}
				edited = e
				ws = append(ws, want{finding.ReceiptAmountMismatch, r.RoundID, player, "returns"})
				if field != "" {
					ws = append(ws, want{finding.ReceiptMismatch, r.RoundID, player, field})
				}
				ws = append(ws, balanceShifts(rs, edited, all)...)
			}
			require.NotNil(t, edited, "no round fits the cheat")
			require.Contains(t, codes(ws), finding.ReceiptAmountMismatch)
			fs, _ := reconcile(t, edited, recs)
			assert.Equal(t, wanted(ws), got(fs))
			for _, f := range fs {
				if f.Code == finding.ReceiptAmountMismatch && f.Field == "returns" {
					require.NotNil(t, f.Difference)
					assert.Negative(t, *f.Difference, "a return lowered is short for the player")
				}
			}
		})
	}
}

// A round the player won dropped, the table renumbered, the wallets
// re-chained: the receipt's round is missing, the table's numbers and
// the player's balance move.
func TestAdversaryWonRoundDropped(t *testing.T) {
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			rs := honest(t, g, 400, 12)
			recs := issue(t, rs)
			var edited []round.Round
			var ws []want
			for i := len(rs) / 2; i < len(rs)-1 && edited == nil; i++ {
				winner := ""
				for _, p := range playersOf(&rs[i]) {
					if playerNet(&rs[i], p) > 0 {
						winner = p
						break
					}
				}
				if winner == "" {
					continue
				}
				e, dropped := without(cloneLog(t, rs), []int{i})
				renumber(e)
				rechain(e)
				if !solvent(e) {
					continue // a Double Hold'em cheat would also rewrite the later hands' bets: reconcile does not settle hands
				}
				edited = e
				ws = append(ws, missing(dropped)...)
				ws = append(ws, sessionShort(rs, edited, dropped)...)
				ws = append(ws, seqShifts(rs, edited)...)
				ws = append(ws, balanceShifts(rs, edited, all)...)
			}
			require.NotNil(t, edited, "no round fits the cheat")
			require.Subset(t, codes(ws), []finding.Code{finding.ReceiptRoundMissing, finding.ReceiptMismatch, finding.ReceiptAmountMismatch})
			fs, _ := reconcile(t, edited, recs)
			assert.Equal(t, wanted(ws), got(fs))
			for _, f := range fs {
				if f.Code == finding.ReceiptRoundMissing {
					require.NotNil(t, f.Difference)
					assert.Equal(t, f.PlayerID != "", true)
				}
			}
		})
	}
}

// longestSession returns the player and commitment with the most rounds of
// rs, the first such in log order.
func longestSession(rs []round.Round) (string, string) {
	type key struct{ p, c string }
	n := map[key]int{}
	var best key
	for i := range rs {
		for _, p := range playersOf(&rs[i]) {
			k := key{p, rs[i].Fairness.Commitment}
			n[k]++
			if n[k] > n[best] {
				best = k
			}
		}
	}
	return best.p, best.c
}

// A player's client seed switched for some rounds between two of their
// receipts, with logged rotations there and back (the player kept no
// receipt of those rounds), the rounds dealt and settled again, the
// wallets re-chained: only the rotations show. The cheat takes the first
// window of the player's longest session (and the first of 4 seeds) whose
// log stays one a careful operator can write (no negative balance; every
// later Double Hold'em hand still settles to its stacks).
func TestAdversaryRotationNotShown(t *testing.T) {
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			rs := honest(t, g, 400, 13)
			recs := issue(t, rs)
			p, c := longestSession(rs)
			l := sessionOf(rs, p, c)
			width := 10 // rounds dealt from the operator's seed
			if g == round.DoubleHoldem {
				width = 3 // a hand re-dealt moves stacks that later all-ins must match
			}
			require.GreaterOrEqual(t, len(l), width+4)
			var edited []round.Round
			var a, b int
			var between []int
		search:
			for start := 1; start+width+1 < len(l); start++ {
				for try := range 4 {
					a, b, between = l[start], l[start+width+1], l[start+1:start+width+1]
					e := cloneLog(t, rs)
					for _, i := range between {
						r := &e[i]
						k := -1
						for j, q := range playersOf(r) {
							if q == p && k < 0 {
								k = j
							}
						}
						if r.Double == nil {
							for j, bx := range r.Boxes {
								if bx.PlayerID == p {
									k = j
									break
								}
							}
						}
						r.Fairness.ClientSeeds[k] = fmt.Sprintf("operator-chosen-%d", try)
						redeal(t, r)
					}
					e[between[0]].Fairness.ClientSeedRotated = true
					e[b].Fairness.ClientSeedRotated = true // and back
					rechain(e)
					if solvent(e) && settles(t, e) {
						edited = e
						break search
					}
				}
			}
			require.NotNil(t, edited, "no window fits the cheat")
			inBetween := map[string]bool{}
			for _, i := range between {
				inBetween[rs[i].RoundID] = true
			}
			kept := func(roundID, player string) bool { return player == p && !inBetween[roundID] }
			ws := []want{{finding.ReceiptRotationNotShown, rs[b].RoundID, p, "client-seed"}}
			ws = append(ws, balanceShifts(rs, edited, kept)...)
			fs, _ := reconcile(t, edited, only(recs, kept))
			assert.Equal(t, wanted(ws), got(fs), "player %s, receipts at %s and %s", p, rs[a].RoundID, rs[b].RoundID)
		})
	}
}

// sessionShort expects a RECEIPT_SESSION_SHORT on the last receipt of
// every session of a dropped round's player that has fewer rounds in
// edited than in orig (every round has its receipts), or whose last round
// in edited is not orig's.
func sessionShort(orig, edited []round.Round, dropped []round.Round) []want {
	var out []want
	done := map[string]bool{}
	for i := range dropped {
		c := dropped[i].Fairness.Commitment
		for _, p := range playersOf(&dropped[i]) {
			if done[p+" "+c] {
				continue
			}
			done[p+" "+c] = true
			lo, le := sessionOf(orig, p, c), sessionOf(edited, p, c)
			last := orig[lo[len(lo)-1]]
			if len(le) < len(lo) || edited[le[len(le)-1]].RoundID != last.RoundID {
				out = append(out, want{finding.ReceiptSessionShort, last.RoundID, p, "session"})
			}
		}
	}
	return out
}

// The last rounds of a seed session (a hash chain at the live table)
// dropped, the table renumbered and the wallets re-chained: the session
// looks complete in the log, and shorter.
func TestAdversarySessionTailDropped(t *testing.T) {
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			n := map[string]int64{round.CasinoHoldem: 1100, round.LiveCasinoHoldem: 1003, round.DoubleHoldem: 150}[g]
			if testing.Short() && g == round.CasinoHoldem {
				n = 1010 // the first session of the first player ends at round 991
			}
			var rs, e, dropped []round.Round
			for seed := uint64(14); seed < 40 && e == nil; seed++ {
				rs = honest(t, g, n, seed)
				c := rs[0].Fairness.Commitment
				var drop []int
				if g == round.CasinoHoldem {
					l := sessionOf(rs, rs[0].Boxes[0].PlayerID, c)
					require.Len(t, l, 100, "a whole session")
					drop = l[len(l)-3:]
				} else {
					var l []int
					for i := range rs {
						if rs[i].Fairness.Commitment == c {
							l = append(l, i)
						}
					}
					require.Less(t, l[len(l)-1], len(rs)-1, "rounds after the session")
					drop = l[len(l)-3:]
				}
				var ed []round.Round
				ed, dropped = without(cloneLog(t, rs), drop)
				renumber(ed)
				rechain(ed)
				if solvent(ed) {
					e = ed
				}
			}
			require.NotNil(t, e, "no simulation fits the cheat")
			recs := issue(t, rs)
			ws := missing(dropped)
			ws = append(ws, sessionShort(rs, e, dropped)...)
			ws = append(ws, seqShifts(rs, e)...)
			ws = append(ws, balanceShifts(rs, e, all)...)
			require.Subset(t, codes(ws), []finding.Code{finding.ReceiptRoundMissing, finding.ReceiptSessionShort})
			fs, _ := reconcile(t, e, recs)
			assert.Equal(t, wanted(ws), got(fs))
		})
	}
}
