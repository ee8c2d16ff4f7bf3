// Package sim simulates an honest provably-fair operator of the three
// casino Hold'em games, and a dishonest or buggy one by injecting faults
// from a catalogue.
//
// A [Simulator] plays rounds one by one ([Simulator.Next]) and returns each
// as a [round.Round], exactly as an operator would log it: cards dealt by
// the fairhold/v1 scheme (package fairness/scheme) in the game's dealing
// order (package fairness/layout), bets from player strategies within the
// profile's limits (auto-adjusted), settlement by the same rules engine the
// replayer uses (packages replay/casino and replay/double), and wallets with
// balances. The same [Config] gives the same rounds, byte for byte.
//
// # Seeds
//
//   - casino-holdem: every player has a session of [SessionRounds] rounds
//     with one server seed (committed before the session's first round,
//     revealed after its last), the player's client seed and a nonce
//     counting from 0. Players take turns round-robin.
//   - live-casino-holdem: the table commits to a hash chain of
//     [ChainLength] links (package fairness/chain); round k of the chain
//     uses link k as its server seed (chain_index k, commitment = the
//     chain's anchor, nonce 0) and reveals it when the round ends. The
//     client seeds are those of the players at the boxes, in box order.
//   - double-holdem: the table has sessions of [SessionRounds] hands with
//     one server seed and a nonce counting from 0; the client seeds are
//     those of the seated players in seat order.
//
// Every round logs table_seq, its number at its table: 1, 2, 3, ... (the
// simulator plays one table).
//
// # Faults
//
// [Faults] lists the catalogue: each fault names the finding code the
// replayer must raise for it. A fault with rate r is triggered with
// probability r before each round (before each session for the session
// faults) and then applied to the first round it fits (a tie for
// tie-not-pushed, a capped win for max-payout-ignored, ...). Every applied
// fault is returned as an [Injection]: the round and the expected code; a
// fault that shows as several codes ([Fault.Also]: a round left out of the
// log shows in its table's numbering and in its seed's nonces) gives one
// injection per code, possibly on later rounds. At most one round-level
// fault is applied per round.
package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/fairhold/fairhold/fairness/layout"
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/double"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
)

// Sizes of the simulated operator.
const (
	SessionRounds = 100  // rounds per server seed (casino-holdem per player, double-holdem per table)
	ChainLength   = 1000 // links per hash chain (live-casino-holdem)
	VoidRate      = 0.002
)

// Start is the time of the first simulated round.
var Start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Config configures a simulation.
type Config struct {
	Game    string // round.CasinoHoldem, round.LiveCasinoHoldem or round.DoubleHoldem
	Rounds  int64
	Seed    uint64
	Players int // casino-holdem: players taking turns; live: player pool (>= 1); double: seats (2..10). 0: default.
	Faults  []FaultRate
	// Profile is the rules profile; nil takes the built-in profile named
	// like the game.
	Profile *profile.Profile
	// Currency is the currency code (ISO 4217 or crypto, package
	// currency); "" is EUR.
	Currency string
	// Optimal, if not nil, is the optimal call/fold policy of the Casino
	// Hold'em games (the profile's exact solution): a quarter of the
	// players then follow it instead of the simple basic strategy. It must
	// decide every (hole, flop) state.
	Optimal CallPolicy
	// Log, if not nil, makes the simulator publish the sessions'
	// commitments to a commitment log ([Simulator.WriteCommitLog]); the
	// log faults need it.
	Log *LogConfig
}

// CallPolicy decides a Casino Hold'em box after the flop. Call reports
// whether to call with these hole cards and flop, and ok whether the
// policy covers the state. *exact.Decisions (package certify/exact) is
// one, read from a strategy file.
type CallPolicy interface {
	Call(hole [2]card.Card, flop [3]card.Card) (call, ok bool)
}

// FaultRate is a fault to inject and its rate (0 < Rate <= 1).
type FaultRate struct {
	Name string
	Rate float64
}

// Injection records one injected fault: the round that carries it and the
// finding the replayer must raise for that round. It is a line of the
// simulation's faults.jsonl.
type Injection struct {
	// RoundID is the round the fault changed.
	RoundID string `json:"round_id"`
	// Fault is the fault's name.
	Fault string `json:"fault"`
	// Code is the finding the replayer must raise.
	Code finding.Code `json:"code"`
	// Table is set for a fault whose finding names a table, not a round
	// (see [Fault.TableLevel]): the replay reports the table once, with
	// an empty round id; RoundID is then the round the fault changed.
	Table string `json:"table,omitempty"`
}

// Default numbers of players.
const (
	DefaultCasinoPlayers = 10
	DefaultLivePlayers   = 8
	DefaultDoubleSeats   = 6
)

// ErrConfig is wrapped by the errors of [New] for a bad configuration.
var ErrConfig = errors.New("invalid simulation")

// Simulator plays rounds. It is not safe for concurrent use.
type Simulator struct {
	cfg        Config
	p          *profile.Profile
	pHash      string
	table      *casino.Table // casino games
	uncapped   *casino.Table // casino games: the table without max payout
	dealer     scheme.Scheme
	linkDealer scheme.Dealer // the live table's, rekeyed for every link
	rng        *rand.Rand
	step       time.Duration
	prefix     string

	i       int64 // index of the next round
	slots   []*slot
	nextID  int // next player number
	renamed int // players renamed by wallet-skimmed
	live    *chainSession
	table2  *tableSession // double-holdem: the table's seed session
	// Storage handed out to rounds (see slab), and scratch reused from
	// round to round.
	actions      slab[round.Action] // a hand's actions: open, then keep
	strs         slab[string]
	boxes        slab[round.Box]
	rounds       slab[round.Round]
	plays        []boxPlay
	permA, permB []int
	button       int            // double-holdem: index of the button seat
	settler      double.Settler // lean: the simulator reads the pots, the rake and the stacks after

	faults       []*activeFault
	layouts      map[int]layout.Layout
	dealBuf      []uint8
	inj          []Injection
	roundFaulted bool
	seatsChanged bool

	// The table's round numbering (table_seq of the last round dealt), the
	// round-dropped fault of a round left out of the log whose gap the
	// table's next round shows (nil for none), and the fault dropping the
	// round being played.
	tableSeq  uint64
	tableGap  *Fault
	dropping  *activeFault
	logged    bool          // a round was returned
	sessions  int64         // seed sessions and chains opened
	clog      *logBuilder   // the commitment log's sessions (Config.Log)
	prevTable *tableSession // double-holdem: the table's session before table2
	altHash   string        // profile-switched: the hash of another version of the profile
	newPlayer bool          // a player of the round plays their first round
	slotBuf   []*slot
}

// New validates cfg and returns a simulator positioned before the first
// round.
func New(cfg Config) (*Simulator, error) {
	if cfg.Rounds < 0 {
		return nil, fmt.Errorf("%w: rounds %d: want >= 0", ErrConfig, cfg.Rounds)
	}
	if cfg.Currency == "" {
		cfg.Currency = "EUR"
	}
	p := cfg.Profile
	if p == nil {
		var err error
		if p, err = profile.Builtin(cfg.Game); err != nil {
			return nil, fmt.Errorf("%w: game %q: want casino-holdem, live-casino-holdem or double-holdem", ErrConfig, cfg.Game)
		}
	}
	if p.Game != cfg.Game {
		return nil, fmt.Errorf("%w: profile %s is for %s, not %s", ErrConfig, p.Name, p.Game, cfg.Game)
	}
	sch, err := scheme.Lookup(scheme.FairholdV1Name)
	if err != nil {
		return nil, err
	}
	s := &Simulator{cfg: cfg, p: p, pHash: p.Hash(), dealer: sch, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		settler: double.Settler{Lean: true}}
	s.strs.size, s.boxes.size, s.rounds.size, s.actions.size = 8192, 1024, 1024, 4096
	switch cfg.Game {
	case round.CasinoHoldem, round.LiveCasinoHoldem:
		if s.table, err = casino.Compile(p); err != nil {
			return nil, err
		}
		q := p.Clone()
		q.Casino.Limits.MaxPayoutPerBox = 0
		if s.uncapped, err = casino.Compile(q); err != nil {
			return nil, err
		}
	}
	// Per game: time between rounds, round-id prefix, default and allowed
	// number of players (seats for Double Hold'em).
	var def, lo, hi int
	what := "players"
	switch cfg.Game {
	case round.CasinoHoldem:
		s.step, s.prefix = 2*time.Second, "ch-"
		def, lo, hi = DefaultCasinoPlayers, 1, 100000
	case round.LiveCasinoHoldem:
		s.step, s.prefix = 40*time.Second, "lch-"
		def, lo, hi = DefaultLivePlayers, 1, 1000
	case round.DoubleHoldem:
		s.step, s.prefix = 30*time.Second, "dh-"
		def, lo, hi = DefaultDoubleSeats, p.Double.SeatsMin, p.Double.SeatsMax
		what = "double-holdem seats"
	}
	n := cfg.Players
	if n == 0 {
		n = def
	}
	if n < lo || n > hi {
		return nil, fmt.Errorf("%w: players %d: want %s %d..%d", ErrConfig, n, what, lo, hi)
	}
	for range n {
		s.slots = append(s.slots, s.newSlot())
	}
	for _, fr := range cfg.Faults {
		f, ok := lookupFault(fr.Name)
		if !ok {
			return nil, fmt.Errorf("%w: unknown fault %q (see --list-faults)", ErrConfig, fr.Name)
		}
		if !f.appliesTo(cfg.Game) {
			return nil, fmt.Errorf("%w: fault %q does not apply to %s (it applies to %v)", ErrConfig, fr.Name, cfg.Game, f.Games)
		}
		if !(fr.Rate > 0 && fr.Rate <= 1) {
			return nil, fmt.Errorf("%w: fault %q: rate %v: want 0 < rate <= 1", ErrConfig, fr.Name, fr.Rate)
		}
		af := &activeFault{Fault: f, rate: fr.Rate}
		if f.kind == logFault {
			if cfg.Log == nil {
				return nil, fmt.Errorf("%w: fault %q needs a commitment log (--commitment-log)", ErrConfig, fr.Name)
			}
			continue
		}
		s.faults = append(s.faults, af)
	}
	if lc := cfg.Log; lc != nil {
		c := *lc
		if c.Dir == "" {
			return nil, fmt.Errorf("%w: commitment log: no directory", ErrConfig)
		}
		if c.Origin == "" {
			c.Origin = DefaultLogOrigin
		}
		if c.Operator == "" {
			c.Operator = DefaultOperator
		}
		if c.WitnessName == "" {
			c.WitnessName = DefaultWitnessName
		}
		s.clog = &logBuilder{seen: map[[32]byte]bool{}}
		for _, fr := range cfg.Faults {
			if f, _ := lookupFault(fr.Name); f.kind == logFault {
				s.clog.faults = append(s.clog.faults, &activeFault{Fault: f, rate: fr.Rate})
			}
		}
		if c.Window <= 0 {
			// A late entry moves one window on: a window holds at most
			// one session of a stream (100 rounds) when faults apply.
			c.Window = 100
			if len(s.clog.faults) == 0 {
				c.Window = max(100, cfg.Rounds/1000)
			}
		}
		s.clog.cfg = c
	}
	q := p.Clone()
	q.Version++
	s.altHash = q.Hash()
	return s, nil
}

// Profile returns the rules profile the rounds are played under.
func (s *Simulator) Profile() *profile.Profile { return s.p }

// Done reports whether every configured round has been played.
func (s *Simulator) Done() bool { return s.i >= s.cfg.Rounds }

// Next plays the next round. The injections are the faults applied to it
// (and, for a session fault, possibly recorded on this round of the
// session); they stay valid until the next call. A round the round-dropped
// faults leave out of the log is played (its table number, nonce or chain
// link, and its deck are used) but not returned: Next returns the round
// after it.
func (s *Simulator) Next() (*round.Round, []Injection, error) {
	if s.Done() {
		return nil, nil, errors.New("sim: no more rounds")
	}
	for {
		r, err := s.play()
		if err != nil {
			return nil, nil, err
		}
		if r != nil {
			if s.clog != nil {
				if err := s.clog.observe(r); err != nil {
					return nil, nil, fmt.Errorf("sim: round %s: %w", r.RoundID, err)
				}
			}
			return r, s.inj, nil
		}
	}
}

// play plays round s.i and returns it, or nil when it was dropped from the
// log.
func (s *Simulator) play() (*round.Round, error) {
	s.inj = s.inj[:0]
	s.roundFaulted = false
	for _, f := range s.faults {
		if f.kind != sessionFault && s.rng.Float64() < f.rate {
			f.pending++
		}
	}
	s.dropping = nil
	if s.i+1 < s.cfg.Rounds {
		// A round is dropped only when a round follows it in the log.
		if f := s.want(FaultRoundDropped); f != nil {
			s.dropping = f
		} else if f := s.want(FaultRoundDroppedRenumbered); f != nil {
			s.dropping = f
		}
		if s.dropping != nil {
			s.dropping.pending--
			s.roundFaulted = true // the dropped round carries no other fault
		}
	}
	s.tableSeq++
	r := s.rounds.one()
	*r = round.Round{
		RoundID:     s.roundID(s.i),
		Game:        s.cfg.Game,
		TableID:     s.tableID(),
		TableSeq:    s.tableSeq,
		Time:        s.timeOf(s.i),
		Currency:    s.cfg.Currency,
		Profile:     s.p.Name,
		ProfileHash: s.pHash,
	}
	var err error
	switch s.cfg.Game {
	case round.DoubleHoldem:
		err = s.playDouble(r)
	default:
		err = s.playCasino(r)
	}
	if err != nil {
		return nil, fmt.Errorf("sim: round %s: %w", r.RoundID, err)
	}
	s.breakDeclared(r)
	s.i++
	if f := s.dropping; f != nil {
		s.unplayWallets(r)
		switch {
		case f.Name == FaultRoundDroppedRenumbered:
			s.tableSeq-- // the next round takes the dropped round's number
		case s.logged:
			// The table's first round in the log starts its numbering: a
			// log that starts after a dropped round shows no gap there.
			s.tableGap = f.Fault
		}
		s.dropping = nil
		return nil, nil
	}
	if s.tableGap != nil {
		s.inject(r, s.tableGap)
		s.tableGap = nil
	}
	s.logged = true
	return r, nil
}

// unplayWallets puts the wallets (stacks) of a dropped round's players back
// as they were before it, as an operator hiding the round would: their
// next rounds show no balance gap. The round does not count as played: a
// player whose first round it was is new to the log at their next.
func (s *Simulator) unplayWallets(r *round.Round) {
	for k, p := range s.plays {
		if k < len(r.Boxes) && r.Double == nil {
			p.sl.balance = r.Boxes[k].BalanceBefore
			p.sl.rounds--
		}
	}
	if h := r.Double; h != nil {
		for k := range h.Seats {
			s.slots[k].balance = h.Seats[k].StackBefore
			s.slots[k].rounds--
		}
	}
}

// sessionSkip keeps, in *pending, that the round being played is dropped
// from the log, or records on a logged round that the seed session's or
// chain's previous round was dropped: the replayer sees the sequence skip
// (code) on it.
func (s *Simulator) sessionSkip(r *round.Round, pending **Fault, code finding.Code) {
	switch {
	case s.dropping != nil:
		*pending = s.dropping.Fault
	case *pending != nil:
		s.injectAs(r, *pending, code)
		*pending = nil
	}
}

func (s *Simulator) roundID(i int64) string {
	return s.prefix + strconv.FormatInt(i+1, 10)
}

func (s *Simulator) tableID() string {
	switch s.cfg.Game {
	case round.CasinoHoldem:
		return "rng-1"
	case round.LiveCasinoHoldem:
		return "live-1"
	}
	return "double-1"
}

func (s *Simulator) at(i int64) time.Time { return Start.Add(time.Duration(i) * s.step) }

func (s *Simulator) timeOf(i int64) string { return fmtTime(s.at(i)) }

func fmtTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// layoutFor returns the game's dealing layout for hands boxes or seats.
func (s *Simulator) layoutFor(hands int) (layout.Layout, error) {
	if l, ok := s.layouts[hands]; ok {
		return l, nil
	}
	l, err := layout.For(s.cfg.Game, hands)
	if err != nil {
		return l, err
	}
	if s.layouts == nil {
		s.layouts = map[int]layout.Layout{}
	}
	s.layouts[hands] = l
	return l, nil
}

// inject records an applied fault on the round.
func (s *Simulator) inject(r *round.Round, f *Fault) { s.injectAs(r, f, f.Code) }

// injectAs records an applied fault on the round with one of its codes.
func (s *Simulator) injectAs(r *round.Round, f *Fault, code finding.Code) {
	in := Injection{RoundID: r.RoundID, Fault: f.Name, Code: code}
	if f.tableLevel {
		in.Table = r.TableID
	}
	s.inj = append(s.inj, in)
}
