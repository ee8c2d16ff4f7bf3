package replayer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/finding"
)

// boundaryPlan is the merge's completion of the shards' boundary state
// (docs/sharding.md): the findings the merge adds to the shards' chunks,
// or why it replays the traces instead.
type boundaryPlan struct {
	fallback string // why the traces are replayed; "" for none
	// The findings to add to a chunk: by shard, then by the chunk's index
	// in the shard's part.
	add      []map[int64][]finding.Finding
	warnings []string // the Ledger's warnings
	// players are the players with a rotation of their own client seed,
	// as the Ledger's PlayerRotations.
	players []audit.PlayerCount
}

// gPlayer is a player's state after the segments walked: the wallet of
// their last round with one, and their counts.
type gPlayer struct {
	exit            string
	rounds, rotated int64
}

// The state of the keys after the segments walked so far, as one Ledger
// over them would hold it.
type (
	gTable struct {
		numbered                     bool
		last, max                    uint64
		unnumbered, walletless       int64
		timed                        bool
		lastTime                     int64
		declared                     bool
		scheme, profile, profileHash string
	}
	gSeed struct {
		session    audit.Session
		last, max  uint64
		current    bool
		revealed   bool
		revealAt   int64
		declPerBox bool
	}
	gChain struct {
		session    audit.Session
		index      uint64
		link       [32]byte
		seqOn      bool
		last, max  uint64
		retired    bool
		declPerBox bool
	}
	// gOwner is a session's current seed or chain.
	gOwner struct {
		chain  bool
		seed   uint64
		anchor [32]byte
	}
	// gClients are a session's players' client seeds (digests), and the
	// index of the segment the merge first saw the session in.
	gClients struct {
		players map[string][16]byte
		seg     int
	}
	gWallet struct {
		after    int64
		prevFile string
		prevRow  int64
		prevOK   bool
		currency string
	}
)

// planBoundary walks the shards' segments (bs, by shard index) in input
// order and completes their boundary state.
func planBoundary(bs []*shardBounds) *boundaryPlan {
	type segRef struct {
		shard int
		sg    *segmentBound
	}
	var segs []segRef
	for s, b := range bs {
		for _, sg := range b.segments {
			segs = append(segs, segRef{s, sg})
		}
	}
	slices.SortFunc(segs, func(a, b segRef) int { return a.sg.unit - b.sg.unit })

	p := &boundaryPlan{add: make([]map[int64][]finding.Finding, len(bs))}
	tables := map[string]*gTable{}
	seeds := map[uint64]*gSeed{}
	chains := map[[32]byte]*gChain{}
	owners := map[audit.Session]gOwner{}
	clients := map[gOwner]*gClients{}
	wallets := map[string]*gWallet{}
	binds := map[string]*gPlayer{} // by player id
	player := func(id string) *gPlayer {
		g := binds[id]
		if g == nil {
			g = &gPlayer{}
			binds[id] = g
		}
		return g
	}
	runs := map[audit.IDPrefix][]audit.IDRun{}
	hashes := map[uint64]bool{}
	// The totals: none may overflow (see shardBounds.totals).
	totals := map[moneyKey]*totalSums{}
	var voids totalSums
	for s, b := range bs {
		for k, t := range b.totals {
			g := totals[k]
			if g == nil {
				g = &totalSums{}
				totals[k] = g
			}
			g.add(t.wagered, t.returned)
			if g.overflow || t.overflow {
				return &boundaryPlan{fallback: fmt.Sprintf("shard %d: the %s %s totals overflow", s, k.game, k.currency)}
			}
		}
		voids.add(b.voidSums.wagered, b.voidSums.returned)
		if voids.overflow || b.voidSums.overflow {
			return &boundaryPlan{fallback: fmt.Sprintf("shard %d: the voids' totals as if played overflow", s)}
		}
	}
	for seg, sr := range segs {
		sg, b := sr.sg, sr.sg.b
		first := sg.unit == 0
		fail := func(format string, a ...any) *boundaryPlan {
			return &boundaryPlan{fallback: fmt.Sprintf("shard %d, segment from unit %d: ", sr.shard, sg.unit) + fmt.Sprintf(format, a...)}
		}
		if !first && sg.findings > 0 {
			// The first segment's Ledger is the one Ledger's over the
			// input's first rounds: its findings are exact. Another's
			// name its segment's first rounds where they name a key's
			// first (SCHEME_CHANGED, SEED_REUSED, ...), and start from
			// a state the merge would have to rebuild for each finding.
			return fail("%d findings of the checks that span rounds", sg.findings)
		}

		// Round ids: no id in two segments.
		for pr, rs := range sg.ids.Prefixes {
			have := runs[pr]
			for _, r := range rs {
				i, _ := slices.BinarySearchFunc(have, r.Lo, func(x audit.IDRun, lo uint64) int {
					switch {
					case x.Hi < lo:
						return -1
					case x.Lo > lo:
						return 1
					}
					return 0
				})
				if i < len(have) && have[i].Lo <= r.Hi {
					return fail("round id %s%0*d was in an earlier segment", pr.Prefix, pr.Width, max(r.Lo, have[i].Lo))
				}
			}
			runs[pr] = audit.JoinRuns(append(have, rs...))
		}
		for _, h := range sg.ids.Hashes {
			if hashes[h] {
				return fail("a round id (or its hash) was in an earlier segment")
			}
		}
		for _, h := range sg.ids.Hashes {
			hashes[h] = true
		}

		// Tables.
		for i := range b.Tables {
			tb := &b.Tables[i]
			g := tables[tb.Table]
			if g == nil {
				tables[tb.Table] = &gTable{tb.Numbered, tb.Last, tb.Max, tb.Unnumbered, tb.Walletless, tb.Timed, tb.LastTime, tb.Declared, tb.Scheme, tb.Profile, tb.ProfileHash}
				continue
			}
			n := tb.FirstSeq
			switch {
			case g.numbered && (n == 0 || (n-1 != g.last && n-1 != g.max) || g.max > n):
				return fail("table %q numbered %d after %d (highest %d)", tb.Table, n, g.last, g.max)
			case !g.numbered && n != 0:
				return fail("table %q numbered from %d after unnumbered rounds", tb.Table, n)
			case g.timed && tb.Timed && tb.FirstTime < g.lastTime:
				return fail("table %q: a round before the table's previous one", tb.Table)
			case g.declared && tb.Declared && (g.scheme != tb.Scheme || g.profile != tb.Profile || g.profileHash != tb.ProfileHash):
				return fail("table %q declares another scheme or profile", tb.Table)
			}
			if tb.Numbered {
				g.numbered, g.last, g.max = true, tb.Last, tb.Max
			}
			g.unnumbered += tb.Unnumbered
			g.walletless += tb.Walletless
			if tb.Timed {
				g.timed, g.lastTime = true, tb.LastTime
			}
			if !g.declared && tb.Declared {
				g.declared, g.scheme, g.profile, g.profileHash = true, tb.Scheme, tb.Profile, tb.ProfileHash
			}
		}

		// Seed sessions: each start, in order, against its owner's state.
		seedsIn := map[uint64]*audit.SeedBound{}
		for i := range b.Seeds {
			seedsIn[b.Seeds[i].Seed] = &b.Seeds[i]
		}
		chainsIn := map[[32]byte]*audit.ChainBound{}
		for i := range b.Chains {
			chainsIn[b.Chains[i].Anchor] = &b.Chains[i]
		}
		for _, st := range b.Starts {
			o := gOwner{chain: st.Chain, seed: st.Seed, anchor: st.Anchor}
			cur, owned := owners[st.Session]
			if st.Chain {
				cb := chainsIn[st.Anchor]
				if cb == nil {
					return fail("a chain started without its state")
				}
				if g := chains[st.Anchor]; g != nil {
					switch {
					case g.session != st.Session || !owned || cur != o || g.retired:
						return fail("a hash chain of session %v goes on in another session or after its owner left it", g.session)
					case cb.FirstIndex != g.index+1 || cb.FirstStep != g.link || !g.seqOn || g.last != g.max || g.max != g.index:
						return fail("a hash chain of session %v goes on at link %d after link %d", g.session, cb.FirstIndex, g.index)
					case cb.PerBox != g.declPerBox:
						return fail("a hash chain's client seeds change form")
					}
				} else {
					if !first && cb.FirstIndex != 1 {
						return fail("a hash chain first used at link %d", cb.FirstIndex)
					}
					chains[st.Anchor] = &gChain{session: st.Session, declPerBox: cb.DeclPerBox}
				}
			} else {
				sd := seedsIn[st.Seed]
				if sd == nil {
					return fail("a seed started without its state")
				}
				if g := seeds[st.Seed]; g != nil {
					switch {
					case g.session != st.Session || !owned || cur != o || !g.current:
						return fail("a server seed of session %v goes on in another session or after its owner left it", g.session)
					case sd.FirstNonce != g.max+1 || g.last != g.max:
						return fail("a server seed goes on at nonce %d after %d", sd.FirstNonce, g.last)
					case !sd.RevealCmp || sd.RevealOK != g.revealed || g.revealed && sd.Reveal != g.revealAt:
						return fail("a server seed's reveal time differs between segments")
					case sd.PerBox != g.declPerBox:
						return fail("a server seed's client seeds change form")
					}
				} else {
					if !first && sd.FirstNonce != 0 {
						return fail("a server seed first used at nonce %d", sd.FirstNonce)
					}
					seeds[st.Seed] = &gSeed{session: st.Session, current: true, revealed: sd.Revealed, revealAt: sd.RevealAt, declPerBox: sd.DeclPerBox}
				}
			}
			if owned && cur != o {
				// The owner moves on: its seed or chain is retired.
				if cur.chain {
					if g := chains[cur.anchor]; g != nil {
						g.retired = true
					}
				} else if g := seeds[cur.seed]; g != nil {
					g.current = false
				}
				// Its players are kept: a retired seed or chain that
				// deals again is SEED_REUSED, which the merge does not
				// complete (the start above).
			}
			owners[st.Session] = o
		}
		for i := range b.Seeds {
			sd := &b.Seeds[i]
			g := seeds[sd.Seed]
			if g == nil {
				// A chain link that did not verify, kept as a seed: it
				// opens no session.
				g = &gSeed{session: sd.Session}
				seeds[sd.Seed] = g
			}
			g.last, g.max = sd.Last, sd.Max
		}
		for i := range b.Chains {
			cb := &b.Chains[i]
			g := chains[cb.Anchor]
			if g == nil {
				if !first {
					return fail("a hash chain's links seen without a session")
				}
				g = &gChain{session: cb.Session, declPerBox: cb.DeclPerBox}
				chains[cb.Anchor] = g
			}
			g.index, g.link, g.seqOn, g.last, g.max = cb.Index, cb.Link, cb.SeqOn, cb.Last, cb.Max
			g.retired = g.retired || cb.Retired
		}

		// Client seeds: a player back in a session keeps theirs.
		for _, ev := range b.Clients {
			o := gOwner{chain: ev.Chain, seed: ev.Seed, anchor: ev.Anchor}
			g := clients[o]
			if g == nil {
				g = &gClients{players: map[string][16]byte{}, seg: seg}
				clients[o] = g
			}
			m := g.players
			// Only a session known before the segment: within it, the
			// segment's Ledger checks.
			if c, ok := m[ev.Player]; ok && g.seg < seg && ev.Added && c != ev.Client {
				if !ev.Rotated {
					return fail("player %q's client seed changes between segments", ev.Player)
				}
				// A rotation of the player's own client seed that the
				// segment's Ledger, which did not know the player's seed,
				// did not count.
				if ev.Player != "" {
					player(ev.Player).rotated++
				}
			}
			// Like a session's Ledger, m forgets no player: a change
			// between segments is a change a single Ledger reports, so the
			// merge replays the traces.
			m[ev.Player] = ev.Client
		}

		// Players' wallets: each segment's entries against the wallet of
		// the player's last round in the segments before it.
		for i := range b.Bindings {
			x := &b.Bindings[i]
			g := player(x.Player)
			if f, changed := audit.WalletChangedFinding(x, g.exit); changed {
				if p.add[sr.shard] == nil {
					p.add[sr.shard] = map[int64][]finding.Finding{}
				}
				p.add[sr.shard][x.Tag] = append(p.add[sr.shard][x.Tag], f)
			}
			if x.Exit != "" {
				g.exit = x.Exit
			}
			g.rounds += x.Rounds
			g.rotated += x.Rotated
		}

		// Wallets: each segment's entries against the wallets' state after
		// the segments before it.
		for i := range b.Wallets {
			// A wallet's first round in a segment with a round id seen
			// before is a finding of the segment's Ledger, or an id in two
			// segments: either way the traces are replayed (above).
			w := &b.Wallets[i]
			// A balance chains by wallet when the round names wallets,
			// or else by player id: two name spaces.
			key := "p\x00" + w.Player
			if w.Wallet != "" {
				key = "w\x00" + w.Wallet
			}
			g := wallets[key]
			if g == nil {
				wallets[key] = &gWallet{w.After, w.PrevFile, w.PrevRow, w.PrevOK, w.Currency}
				continue
			}
			if w.Currency != g.currency {
				return fail("wallet %q: another currency", w.Player)
			}
			if f, gap := audit.BalanceGapFinding(w, g.after, g.prevFile, g.prevRow, g.prevOK); gap {
				if p.add[sr.shard] == nil {
					p.add[sr.shard] = map[int64][]finding.Finding{}
				}
				p.add[sr.shard][w.Tag] = append(p.add[sr.shard][w.Tag], f)
			}
			g.after, g.prevFile, g.prevRow, g.prevOK = w.After, w.PrevFile, w.PrevRow, w.PrevOK
		}
	}
	var unnumbered []audit.TableRounds
	for name, g := range tables {
		if g.unnumbered > 0 || g.walletless > 0 {
			unnumbered = append(unnumbered, audit.TableRounds{Table: name, Rounds: g.unnumbered, Walletless: g.walletless})
		}
	}
	slices.SortFunc(unnumbered, func(a, b audit.TableRounds) int { return strings.Compare(a.Table, b.Table) })
	p.warnings = audit.TableWarnings(unnumbered)
	for id, g := range binds {
		if g.rotated > 0 {
			p.players = append(p.players, audit.PlayerCount{Player: id, Rounds: g.rounds, Rotated: g.rotated})
		}
	}
	slices.SortFunc(p.players, func(a, b audit.PlayerCount) int { return strings.Compare(a.Player, b.Player) })
	return p
}
