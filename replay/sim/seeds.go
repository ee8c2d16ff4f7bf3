package sim

import (
	"encoding/hex"
	"strconv"
	"time"

	"github.com/fairhold/fairhold/fairness/chain"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/fairness/seed"
	"github.com/fairhold/fairhold/replay/round"
)

// Strategies a simulated Casino Hold'em player follows.
const (
	StrategyAlwaysCall = "always-call"
	StrategyBasic      = "basic"
	StrategyRandom     = "random"
	// StrategyOptimal follows Config.Optimal: the optimal strategy of the
	// exact analysis (`fairhold math --strategy-out`).
	StrategyOptimal = "optimal"
)

// slot is one player position: the player sitting there, their wallet,
// client seed, strategy and (casino-holdem) seed session.
type slot struct {
	player     string
	wallet     string // the player's wallet id
	balance    int64  // wallet (casino games) or stack (double-holdem)
	clientSeed string
	strategy   string
	bonusBet   int64 // AA Bonus the player asks for each round (0: none)
	baseAnte   int64
	sess       *playerSession
	prev       *playerSession // casino-holdem: the session before sess
	rounds     int64          // rounds played and logged
	lastIn     int64          // the id of the seed session (or chain) of the player's last round
}

// playerSession is a casino-holdem player's server seed session.
type playerSession struct {
	seed        seed.Seed
	serverSeed  string
	commitment  string
	committedAt string
	revealedAt  string
	dealer      scheme.Dealer
	nonce       uint64
	used        int   // rounds dealt
	first, last int64 // planned first and last round index
	fault       *activeFault
	skipped     *Fault // the fault that dropped the session's last round dealt from the log (see sessionSkip)
	// A nonce-swapped fault under way: the nonce held back for the
	// session's next round.
	swap *Fault
	held uint64
	// The session's previous round cannot be repeated by nonce-reused
	// (see sessionNonce).
	noReuse bool
	id      int64 // the simulator's number of the session, from 1
}

// tableSession is the double-holdem table's server seed session.
type tableSession = playerSession

// chainSession is the live table's hash chain.
type chainSession struct {
	links       chain.Chain
	commitment  string
	committedAt string
	next        int // index of the next link to use (from 1)
	first       int64
	fault       *activeFault
	earlyLink   int    // link whose reveal comes early (seed-revealed-early), 0 for none
	skipped     *Fault // the fault that dropped the chain's last round dealt from the log (see sessionSkip)
	verified    bool   // a round of the chain is in the log with its link
	id          int64
}

func (s *Simulator) randSeed() seed.Seed {
	var sd seed.Seed
	for i := 0; i < seed.Size; i += 8 {
		v := s.rng.Uint64()
		for j := range 8 {
			sd[i+j] = byte(v >> (8 * j))
		}
	}
	return sd
}

func (s *Simulator) randHex(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(s.rng.Uint32())
	}
	return hex.EncodeToString(b)
}

// newSlot seats a new player.
func (s *Simulator) newSlot() *slot {
	s.nextID++
	sl := &slot{player: "p" + strconv.Itoa(s.nextID), wallet: "w" + strconv.Itoa(s.nextID), clientSeed: s.randHex(8)}
	switch s.cfg.Game {
	case round.DoubleHoldem:
		bb := s.p.Double.BigBlind
		sl.balance = bb*(40+s.rng.Int64N(160)) + s.rng.Int64N(bb)
	default:
		c := s.p.Casino
		strategies := [...]string{StrategyAlwaysCall, StrategyBasic, StrategyBasic, StrategyRandom}
		if s.cfg.Optimal != nil {
			strategies[2] = StrategyOptimal
		}
		sl.strategy = strategies[s.rng.IntN(4)]
		sl.baseAnte = c.Limits.AnteMin * (1 + s.rng.Int64N(20))
		if s.rng.IntN(20) == 0 {
			sl.baseAnte = c.Limits.AnteMax + c.Limits.AnteMin // asks above the maximum: auto-adjusted
		}
		if c.Bonus != nil && s.rng.IntN(3) == 0 {
			sl.bonusBet = c.Bonus.Min * (1 + s.rng.Int64N(5))
		}
		sl.balance = sl.baseAnte * (30 + s.rng.Int64N(300))
	}
	return sl
}

// openSession starts a server seed session for rounds first, first+stride,
// ... (at most SessionRounds of them, none past the last round).
func (s *Simulator) openSession(first, stride int64) (*playerSession, error) {
	last := first + (SessionRounds-1)*stride
	if end := s.cfg.Rounds - 1; last > end {
		last = first + (end-first)/stride*stride
	}
	sd := s.randSeed()
	d, err := s.dealer.Prepare(sd[:])
	if err != nil {
		return nil, err
	}
	s.sessions++
	ps := &playerSession{
		seed: sd, serverSeed: sd.Hex(), commitment: seed.Commit(sd).Hex(), dealer: d,
		first: first, last: last, id: s.sessions,
		committedAt: fmtTime(s.at(first).Add(-time.Second)),
		revealedAt:  fmtTime(s.at(last).Add(time.Second)),
	}
	s.pickSessionFault(&ps.fault)
	if f := ps.fault; f != nil {
		switch f.Name {
		case FaultSeedCommitmentMismatch:
			other := s.randSeed()
			ps.commitment = seed.Commit(other).Hex()
		case FaultCommitmentLate:
			ps.committedAt = fmtTime(s.at(first).Add(time.Second))
		case FaultSeedRevealedEarly:
			// Revealed before the session's last round is dealt.
			ps.revealedAt = fmtTime(s.at(last).Add(-time.Second))
		}
	}
	return ps, nil
}

// sessionFaultRound reports whether the session's fault shows on round i
// (the rounds the replayer must flag) and records it.
func (s *Simulator) sessionFaultRound(r *round.Round, f *activeFault, i, first, last int64) {
	if f == nil {
		return
	}
	switch f.Name {
	case FaultSeedCommitmentMismatch:
		s.inject(r, f.Fault)
	case FaultCommitmentLate:
		if i == first {
			s.inject(r, f.Fault)
		}
	case FaultSeedRevealedEarly:
		if i == last {
			s.inject(r, f.Fault)
		}
	}
}

func (s *Simulator) pickSessionFault(dst **activeFault) {
	for _, f := range s.faults {
		if f.kind == sessionFault && s.rng.Float64() < f.rate && *dst == nil {
			*dst = f
		}
	}
}

// openChain starts a hash chain for the live table at round first.
func (s *Simulator) openChain(first int64) {
	n := int64(ChainLength)
	if rest := s.cfg.Rounds - first; rest < n {
		n = rest
	}
	c := chain.FromLast(s.randSeed(), int(n))
	s.sessions++
	cs := &chainSession{links: c, commitment: c.Anchor().Hex(), next: 1, first: first, id: s.sessions,
		committedAt: fmtTime(s.at(first).Add(-time.Second))}
	s.pickSessionFault(&cs.fault)
	if f := cs.fault; f != nil {
		switch f.Name {
		case FaultCommitmentLate:
			cs.committedAt = fmtTime(s.at(first).Add(time.Second))
		case FaultSeedRevealedEarly:
			cs.earlyLink = 1 + s.rng.IntN(int(n))
		}
	}
	s.live = cs
}
