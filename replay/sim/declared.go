package sim

import (
	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/round"
	"strconv"
)

// The faults of what a table, a seed session or a wallet declared
// (docs/replay.md, "What stays fixed"). Each applies from the log's second
// round on: the first round is the declaration.

// switchScheme applies scheme-switched: the round, of one box, is dealt
// and logged under stake-compat instead of the table's fairhold/v1, when
// stake-compat (which draws with replacement) deals it distinct cards. It
// returns the dealer to deal the round with.
func (s *Simulator) switchScheme(r *round.Round, d scheme.Dealer, serverSeed []byte, boxes int) (scheme.Dealer, error) {
	sf := s.want(FaultSchemeSwitched)
	if sf == nil || s.i == 0 || boxes != 1 {
		return d, nil
	}
	sc, err := scheme.Lookup(scheme.StakeCompatName)
	if err != nil {
		return nil, err
	}
	sd, err := sc.Prepare(serverSeed)
	if err != nil {
		return nil, err
	}
	f := &r.Fairness
	idx, err := sd.Deal(s.dealBuf[:0], f.ClientSeeds, f.Nonce, nil, 2*boxes+7)
	if err != nil {
		return nil, err
	}
	s.dealBuf = idx
	var seen card.Set
	for _, x := range idx {
		if seen.Has(card.Card(x)) {
			return d, nil
		}
		seen = seen.Add(card.Card(x))
	}
	d = sd
	r.Fairness.Scheme = scheme.StakeCompatName
	s.applied(r, sf)
	return d, nil
}

// switchClientSeed applies client-seed-switched at a table: the first
// player of the round (slots, in box or seat order) who played earlier in
// the seed session or chain id gets a fresh client seed for this round
// only. Every player of the round is then marked as having played in id.
// It reports whether it switched one.
func (s *Simulator) switchClientSeed(r *round.Round, slots []*slot, id int64) bool {
	switched := false
	if cf := s.want(FaultClientSeedSwitched); cf != nil {
		for k, sl := range slots {
			if sl.lastIn == id {
				r.Fairness.ClientSeeds[k] = s.randHex(8)
				s.applied(r, cf)
				switched = true
				break
			}
		}
	}
	for _, sl := range slots {
		sl.lastIn = id
	}
	return switched
}

// skimWallet applies wallet-skimmed to sl, a player about to play the
// round r, whose stakes need at least need: when they played before and
// keep enough, a tenth of their wallet is taken and they play on under a
// fresh player id, the wallet id unchanged. It reports whether it did.
func (s *Simulator) skimWallet(r *round.Round, sl *slot, need int64) bool {
	f := s.want(FaultWalletSkimmed)
	if f == nil || sl.rounds == 0 {
		return false
	}
	skim := sl.balance / 10
	if skim < 1 || sl.balance-skim < need {
		return false
	}
	s.renamed++
	sl.player = sl.player + "r" + strconv.Itoa(s.renamed)
	sl.balance -= skim
	s.applied(r, f)
	return true
}

// breakDeclared applies the due fault of a played round's declarations:
// its profile, its currency, its box or seat numbers.
func (s *Simulator) breakDeclared(r *round.Round) {
	if s.i == 0 {
		return
	}
	if f := s.want(FaultProfileSwitched); f != nil {
		r.ProfileHash = s.altHash
		s.applied(r, f)
		s.injectAs(r, f.Fault, finding.ProfileMismatch)
		return
	}
	if f := s.want(FaultCurrencySwitched); f != nil && !s.newPlayer {
		r.Currency = "USD"
		if s.cfg.Currency == "USD" {
			r.Currency = "EUR"
		}
		s.applied(r, f)
		return
	}
	if f := s.want(FaultBoxOutOfRange); f != nil {
		s.positionOutOfRange(r)
		s.applied(r, f)
		return
	}
	if f := s.want(FaultPositionDuplicate); f != nil && s.duplicatePosition(r) {
		s.applied(r, f)
	}
}

// positionOutOfRange numbers the round's last box (seat) one past the
// table's range.
func (s *Simulator) positionOutOfRange(r *round.Round) {
	switch r.Game {
	case round.CasinoHoldem:
		r.Boxes[len(r.Boxes)-1].Box = 2
	case round.LiveCasinoHoldem:
		r.Boxes[len(r.Boxes)-1].Box = s.p.Casino.Boxes + 1
	default:
		h := r.Double
		renumberSeat(h, h.Seats[len(h.Seats)-1].Seat, s.p.Double.SeatsMax+1)
	}
}

// duplicatePosition gives a box (seat) the number of the one before it,
// and reports whether the round has one. At a Double Hold'em table the
// two seats are on the same side of the button, so that the dealing order
// (from the left of the button) is unchanged.
func (s *Simulator) duplicatePosition(r *round.Round) bool {
	if r.Double == nil {
		if len(r.Boxes) < 2 {
			return false
		}
		r.Boxes[1].Box = r.Boxes[0].Box
		return true
	}
	h := r.Double
	for k := 1; k < len(h.Seats); k++ {
		if a, b := h.Seats[k-1].Seat, h.Seats[k].Seat; (a > h.Button) == (b > h.Button) {
			h.Seats[k].Seat = a
			return true
		}
	}
	return false
}

// renumberSeat renumbers seat from as to everywhere in the hand.
func renumberSeat(h *round.DoubleHand, from, to int) {
	re := func(x *int) {
		if *x == from {
			*x = to
		}
	}
	re(&h.Button)
	for k := range h.Seats {
		re(&h.Seats[k].Seat)
	}
	for k := range h.Actions {
		re(&h.Actions[k].Seat)
	}
	for k := range h.Pots {
		for j := range h.Pots[k].Eligible {
			re(&h.Pots[k].Eligible[j])
		}
		for j := range h.Pots[k].Winners {
			re(&h.Pots[k].Winners[j])
		}
	}
}
