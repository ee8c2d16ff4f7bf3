package sim

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/fairhold/fairhold/fairness/scheme"
	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
)

// cardText is the canonical text of every card.
var cardText = func() (t [card.DeckSize]string) {
	for c := range card.Card(card.DeckSize) {
		t[c] = c.String()
	}
	return t
}()

func (s *Simulator) texts(cs []card.Card) []string {
	out := s.strs.take(len(cs))
	for i, c := range cs {
		out[i] = cardText[c]
	}
	return out
}

// deal deals n cards with the scheme, or with the biased shuffle when that
// fault is due, then applies the cards-mismatch fault. The first shown
// positions are logged whatever happens in the round: the faults change
// one of them.
func (s *Simulator) deal(r *round.Round, d scheme.Dealer, serverSeed []byte, n, shown int) ([]card.Card, error) {
	f := &r.Fairness
	idx, err := d.Deal(s.dealBuf[:0], f.ClientSeeds, f.Nonce, nil, n)
	if err != nil {
		return nil, err
	}
	s.dealBuf = idx
	cs := make([]card.Card, n)
	for i, x := range idx {
		cs[i] = card.Card(x)
	}
	if bf := s.want(FaultBiasedShuffle); bf != nil {
		b := biasedDeal(serverSeed, f.ClientSeeds, f.Nonce, n)
		same := true
		for i := range shown {
			same = same && b[i] == cs[i]
		}
		if !same {
			cs = b
			s.applied(r, bf)
		}
	}
	if cf := s.want(FaultCardsMismatch); cf != nil {
		used := card.SetOf(cs...)
		free := (card.FullDeck &^ used).Cards()
		cs[s.rng.IntN(shown)] = free[s.rng.IntN(len(free))]
		s.applied(r, cf)
	}
	return cs, nil
}

// biasedDeal is the dishonest operator's shuffle: "swap with any
// position", indices reduced modulo 52 from a SHA-256 stream of the seeds.
func biasedDeal(serverSeed []byte, clientSeeds []string, nonce uint64, n int) []card.Card {
	var deck [card.DeckSize]card.Card
	for i := range deck {
		deck[i] = card.Card(i)
	}
	h := sha256.New()
	h.Write(serverSeed)
	for _, c := range clientSeeds {
		h.Write([]byte(c))
		h.Write([]byte{0})
	}
	var nb [8]byte
	binary.BigEndian.PutUint64(nb[:], nonce)
	h.Write(nb[:])
	stream := h.Sum(nil)
	for len(stream) < 2*card.DeckSize {
		sum := sha256.Sum256(stream[len(stream)-32:])
		stream = append(stream, sum[:]...)
	}
	for i := range deck {
		j := int(binary.BigEndian.Uint16(stream[2*i:])) % card.DeckSize
		deck[i], deck[j] = deck[j], deck[i]
	}
	return append([]card.Card(nil), deck[:n]...)
}

// casinoSeats picks the players of this round and their box numbers.
func (s *Simulator) casinoSeats() ([]int, []int) {
	if s.cfg.Game == round.CasinoHoldem {
		s.permA = append(s.permA[:0], int(s.i%int64(len(s.slots))))
		s.permB = append(s.permB[:0], 1)
		return s.permA, s.permB
	}
	maxBoxes := min(s.p.Casino.Boxes, len(s.slots))
	k := 1 + s.rng.IntN(maxBoxes)
	players := s.perm(&s.permA, len(s.slots))[:k]
	boxes := s.perm(&s.permB, s.p.Casino.Boxes)[:k]
	sortInts(boxes)
	for i := range boxes {
		boxes[i]++
	}
	return players, boxes
}

// perm is rand.Perm(n) into *buf: the same calls to the generator, so the
// same permutation, without a new slice per round.
func (s *Simulator) perm(buf *[]int, n int) []int {
	p := (*buf)[:0]
	for i := range n {
		p = append(p, i)
	}
	s.rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	*buf = p
	return p
}

// boxPlay is a box's player and stakes while a round is played.
type boxPlay struct {
	sl                             *slot
	anteReq, ante, bonusReq, bonus int64
}

func sortInts(v []int) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

// stakes returns a box's requested and accepted ante and bonus, replacing
// a player who cannot afford the minimum.
func (s *Simulator) stakes(slotIdx int) (sl *slot, anteReq, ante, bonusReq, bonus int64) {
	c := s.p.Casino
	mult := 1 + c.CallMultiple
	sl = s.slots[slotIdx]
	if sl.balance < mult*c.Limits.AnteMin {
		sl = s.newSlot()
		s.slots[slotIdx] = sl
	}
	anteReq = sl.baseAnte
	if s.rng.IntN(4) == 0 {
		anteReq *= 2
	}
	if anteReq*mult > sl.balance {
		anteReq = sl.balance / mult / c.Limits.AnteMin * c.Limits.AnteMin
	}
	hi := c.Limits.AnteMax
	ante, _, err := casino.Adjust(c.AutoAdjust, anteReq, c.Limits.AnteMin, hi)
	if err != nil {
		anteReq = min(anteReq, hi)
		ante = anteReq
	}
	if b := c.Bonus; b != nil && sl.bonusBet > 0 && sl.balance-ante*mult >= b.Min {
		bonusReq = min(sl.bonusBet, sl.balance-ante*mult)
		bonus, _, err = casino.Adjust(c.AutoAdjust, bonusReq, b.Min, b.Max)
		if err != nil || bonusReq < b.Min {
			bonusReq, bonus = 0, 0
		}
	}
	return sl, anteReq, ante, bonusReq, bonus
}

// decide applies the player's strategy after the flop.
func (s *Simulator) decide(sl *slot, player [2]card.Card, flop []card.Card) casino.Decision {
	switch sl.strategy {
	case StrategyAlwaysCall:
		return casino.Call
	case StrategyRandom:
		if s.rng.IntN(4) == 0 {
			return casino.Fold
		}
		return casino.Call
	case StrategyOptimal:
		// Only given to players when Config.Optimal is set. A state the
		// policy does not cover falls through to the basic strategy.
		if call, ok := s.cfg.Optimal.Call(player, [3]card.Card{flop[0], flop[1], flop[2]}); ok {
			if call {
				return casino.Call
			}
			return casino.Fold
		}
	}
	// Basic: call with a pair or better, an ace or a king, or four to a
	// flush; fold otherwise.
	v := hand.Eval5([5]card.Card{player[0], player[1], flop[0], flop[1], flop[2]})
	if v.Category() >= hand.OnePair || player[0].Rank() >= card.King || player[1].Rank() >= card.King {
		return casino.Call
	}
	var suits [4]int
	for _, c := range []card.Card{player[0], player[1], flop[0], flop[1], flop[2]} {
		suits[c.Suit()]++
	}
	for _, n := range suits {
		if n >= 4 {
			return casino.Call
		}
	}
	return casino.Fold
}

func (s *Simulator) playCasino(r *round.Round) error {
	c := s.p.Casino
	players, boxNos := s.casinoSeats()
	plays := s.plays[:0]
	s.newPlayer = false
	for _, pi := range players {
		sl, ar, a, br, b := s.stakes(pi)
		if s.cfg.Game != round.CasinoHoldem {
			s.skimWallet(r, sl, a*(1+c.CallMultiple)+b)
		} else if ps := sl.sess; ps != nil && ps.fault == nil && ps.skipped == nil && ps.swap == nil && s.skimWallet(r, sl, a*(1+c.CallMultiple)+b) {
			// The single-box game's seed session is the player's: the new
			// player id starts a new one (the old seed deals no more).
			ps.last = min(ps.last, s.i-1)
		}
		plays = append(plays, boxPlay{sl, ar, a, br, b})
		s.newPlayer = s.newPlayer || sl.rounds == 0
		sl.rounds++
	}
	s.plays = plays

	// Fairness fields and the dealer of the cards.
	f := &r.Fairness
	f.Scheme = scheme.FairholdV1Name
	var d scheme.Dealer
	var serverSeed []byte
	if s.cfg.Game == round.CasinoHoldem {
		sl := plays[0].sl
		if sl.sess == nil || s.i > sl.sess.last {
			ps, err := s.openSession(s.i, int64(len(s.slots)))
			if err != nil {
				return err
			}
			sl.prev, sl.sess = sl.sess, ps
		}
		ps := sl.sess
		redealt := false
		if rf := s.want(FaultSeedRedealt); rf != nil && sl.prev != nil {
			ps, redealt = sl.prev, true
			s.applied(r, rf)
		}
		usedBefore := sl.lastIn == ps.id
		sl.lastIn = ps.id
		s.sessionNonce(r, ps)
		f.Commitment, f.CommittedAt, f.ServerSeed, f.RevealedAt = ps.commitment, ps.committedAt, ps.serverSeed, ps.revealedAt
		if redealt {
			// A fresh, plausible reveal time: after the round.
			f.RevealedAt = fmtTime(s.at(s.i).Add(time.Second))
		}
		f.ClientSeeds = []string{sl.clientSeed}
		if cf := s.want(FaultClientSeedSwitched); cf != nil && usedBefore {
			f.ClientSeeds[0] = s.randHex(8)
			ps.noReuse = true
			s.applied(r, cf)
		}
		s.sessionFaultRound(r, ps.fault, s.i, ps.first, ps.last)
		d, serverSeed = ps.dealer, ps.seed[:]
	} else {
		if s.live == nil || s.live.next > s.live.links.Len() {
			s.openChain(s.i)
		}
		cs := s.live
		k := cs.next
		cs.next++
		if sf := s.want(FaultChainLinkSkipped); sf != nil && k > 1 && k < cs.links.Len() {
			k++
			cs.next++
			s.applied(r, sf)
		}
		s.sessionSkip(r, &cs.skipped, finding.ChainLinkSkipped)
		link := cs.links.Links[k]
		f.Commitment, f.CommittedAt, f.ChainIndex = cs.commitment, cs.committedAt, uint64(k)
		f.Nonce = 0
		if nf := s.want(FaultChainNonceChosen); nf != nil {
			f.Nonce = 1 + uint64(s.rng.IntN(3))
			s.applied(r, nf)
		}
		f.RevealedAt = fmtTime(s.at(s.i).Add(s.step / 2))
		if cs.fault != nil {
			switch {
			case cs.fault.Name == FaultCommitmentLate && k == 1:
				s.inject(r, cs.fault.Fault)
			case cs.fault.Name == FaultSeedRevealedEarly && k == cs.earlyLink:
				f.RevealedAt = fmtTime(s.at(s.i).Add(-time.Second))
				s.inject(r, cs.fault.Fault)
			}
		}
		// A broken link takes its place in a chain the replayer knows: one
		// of whose links the log shows verified.
		if bf := s.want(FaultChainLinkBroken); bf != nil && k > 1 && cs.verified {
			link = s.randSeed()
			s.applied(r, bf)
		} else if s.dropping == nil {
			cs.verified = true
		}
		f.ServerSeed = link.Hex()
		f.ClientSeeds = s.strs.take(len(plays))
		for k, p := range plays {
			f.ClientSeeds[k] = p.sl.clientSeed
		}
		s.slotBuf = s.slotBuf[:0]
		for _, p := range plays {
			s.slotBuf = append(s.slotBuf, p.sl)
		}
		s.switchClientSeed(r, s.slotBuf, cs.id)
		// Every round has its own link: the table's dealer is rekeyed
		// rather than prepared anew.
		if rk, ok := s.linkDealer.(scheme.Rekeyer); !ok || rk.Rekey(link[:]) != nil {
			var err error
			if s.linkDealer, err = s.dealer.Prepare(link[:]); err != nil {
				return err
			}
		}
		d, serverSeed = s.linkDealer, link[:]
	}
	d, err := s.switchScheme(r, d, serverSeed, len(plays))
	if err != nil {
		return err
	}

	lay, err := s.layoutFor(len(plays))
	if err != nil {
		return err
	}
	dealt, err := s.deal(r, d, serverSeed, lay.Count, lay.Count)
	if err != nil {
		return err
	}
	if len(dealt) < lay.Count || len(lay.Dealer) != 2 || len(lay.Hands) != len(plays) {
		return fmt.Errorf("layout %s does not fit %d boxes", lay.Game, len(plays))
	}
	// The layout's positions index the dealt cards (layout.Split without
	// its slices).
	dealer := [2]card.Card{dealt[lay.Dealer[0]], dealt[lay.Dealer[1]]}
	board := [5]card.Card{dealt[lay.Flop[0]], dealt[lay.Flop[1]], dealt[lay.Flop[2]], dealt[lay.Turn], dealt[lay.River]}
	r.Dealer = s.texts(dealer[:])
	r.Board = s.texts(board[:])

	// Void rounds.
	if vf := s.want(FaultVoidNotRefunded); vf != nil {
		r.Void, r.VoidReason = true, "malfunction"
		s.applied(r, vf)
	} else if s.rng.Float64() < VoidRate {
		r.Void, r.VoidReason = true, "misdeal"
	}

	r.Boxes = s.boxes.take(len(plays))
	r.WalletIDs = make([]string, len(plays))
	for k := range plays {
		r.WalletIDs[k] = plays[k].sl.wallet
	}
	for k := range plays {
		p := &plays[k]
		player := [2]card.Card{dealt[lay.Hands[k][0]], dealt[lay.Hands[k][1]]}
		if bf := s.want(FaultBetOverLimit); bf != nil && !r.Void {
			over := c.Limits.AnteMax + c.Limits.AnteMin
			if p.sl.balance >= over*(1+c.CallMultiple)+p.bonus {
				p.anteReq, p.ante = over, over
				s.applied(r, bf)
			}
		}
		dec := s.decide(p.sl, player, board[:3])
		payBonusAfterFold := false
		if bf := s.want(FaultBonusPaidAfterFold); bf != nil && !r.Void && p.bonus > 0 && c.Bonus.ForfeitOnFold {
			v := hand.Eval5([5]card.Card{player[0], player[1], board[0], board[1], board[2]})
			if v >= c.Bonus.MinHand.Value() {
				dec = casino.Fold
				payBonusAfterFold = true
				s.applied(r, bf)
			}
		}
		bets := casino.Bets{Ante: p.ante, Bonus: p.bonus}
		var res casino.BoxResult
		if r.Void {
			res, err = s.table.Void(boxNos[k], bets, dec)
		} else {
			res, err = s.table.SettleBox(bets, dec, player, dealer, board)
		}
		if err != nil {
			return err
		}
		if payBonusAfterFold {
			v := hand.Eval5([5]card.Card{player[0], player[1], board[0], board[1], board[2]})
			res.BonusReturn = p.bonus * (1 + c.Bonus.Paytable.Pays(v.Category()))
		}
		if r.Void && k == 0 && s.lastApplied(FaultVoidNotRefunded) {
			res.AnteReturn = 0
		}
		if !r.Void {
			if err := s.breakSettlement(r, c, bets, dec, player, dealer, board, &res); err != nil {
				return err
			}
		}
		b := &r.Boxes[k]
		*b = round.Box{
			Box: boxNos[k], PlayerID: p.sl.player, Cards: s.texts(player[:]),
			AnteRequested: p.anteReq, Ante: res.Ante, BonusRequested: p.bonusReq, Bonus: res.Bonus,
			Decision: dec.String(), Call: res.Call,
			AnteReturn: res.AnteReturn, CallReturn: res.CallReturn, BonusReturn: res.BonusReturn,
			BalanceBefore: p.sl.balance,
		}
		b.BalanceAfter = b.BalanceBefore - b.Ante - b.Call - b.Bonus + b.AnteReturn + b.CallReturn + b.BonusReturn
		if b.BalanceAfter < 0 {
			return fmt.Errorf("internal error: box %d balance %d", b.Box, b.BalanceAfter)
		}
		if of := s.want(FaultBalanceOffByOne); of != nil {
			if b.BalanceAfter == 0 || s.rng.IntN(2) == 0 {
				b.BalanceAfter++
			} else {
				b.BalanceAfter--
			}
			s.applied(r, of)
		}
		p.sl.balance = b.BalanceAfter
	}
	if vf := s.want(FaultVoidWins); vf != nil && !r.Void && wonForPlayers(r) {
		// Void the won round with a proper refund: every stake back, every
		// wallet where it was.
		r.Void, r.VoidReason = true, "connection-lost"
		for k := range r.Boxes {
			b := &r.Boxes[k]
			b.AnteReturn, b.CallReturn, b.BonusReturn = b.Ante, b.Call, b.Bonus
			b.BalanceAfter = b.BalanceBefore
			plays[k].sl.balance = b.BalanceBefore
		}
		s.applied(r, vf)
	}
	if df := s.want(FaultCardDuplicate); df != nil {
		// Overwrite a board card with the first box's first card.
		r.Board[s.rng.IntN(5)] = r.Boxes[0].Cards[0]
		s.applied(r, df)
	}
	return nil
}

// wonForPlayers reports whether the round's boxes together return more
// than they stake.
func wonForPlayers(r *round.Round) bool {
	var staked, returned int64
	for _, b := range r.Boxes {
		staked += b.Ante + b.Call + b.Bonus
		returned += b.AnteReturn + b.CallReturn + b.BonusReturn
	}
	return returned > staked
}

// lastApplied reports whether the named fault was applied to this round.
func (s *Simulator) lastApplied(name string) bool {
	for _, in := range s.inj {
		if in.Fault == name {
			return true
		}
	}
	return false
}

// breakSettlement applies the due settlement fault that fits the box.
func (s *Simulator) breakSettlement(r *round.Round, c *profile.Casino, bets casino.Bets, dec casino.Decision, player, dealer [2]card.Card, board [5]card.Card, res *casino.BoxResult) error {
	capOK := func(anteRet, callRet int64) bool {
		lim := c.Limits.MaxPayoutPerBox
		if lim <= 0 {
			return true
		}
		if c.MaxPayoutScope == profile.PayoutCapTotal {
			return anteRet+callRet <= lim
		}
		return max(anteRet-res.Ante, 0)+max(callRet-res.Call, 0) <= lim
	}
	won := res.Reason == casino.ReasonPlayerWon || res.Reason == casino.ReasonDealerNotQualified
	switch {
	case won && !res.Capped && capOK(res.AnteReturn+res.Ante, res.CallReturn) && s.want(FaultAnteWrongMultiple) != nil:
		res.AnteReturn += res.Ante
		s.applied(r, s.want(FaultAnteWrongMultiple))
	case res.Reason == casino.ReasonDealerNotQualified && res.Call > 0 && res.CallReturn == res.Call && capOK(res.AnteReturn, 2*res.Call) && s.want(FaultCallPaidNotQualified) != nil:
		res.CallReturn = 2 * res.Call
		s.applied(r, s.want(FaultCallPaidNotQualified))
	case res.Reason == casino.ReasonDealerNotQualified && res.Call > 0 && res.PlayerHandValue < res.DealerHandValue && s.want(FaultDealerQualifiedLow) != nil:
		res.AnteReturn, res.CallReturn = 0, 0
		s.applied(r, s.want(FaultDealerQualifiedLow))
	case res.Reason == casino.ReasonTie && s.want(FaultTieNotPushed) != nil:
		res.AnteReturn, res.CallReturn = 0, 0
		s.applied(r, s.want(FaultTieNotPushed))
	case res.BonusReason == casino.BonusWon && s.want(FaultBonusWrongMultiple) != nil:
		res.BonusReturn += res.Bonus
		s.applied(r, s.want(FaultBonusWrongMultiple))
	case res.Capped && s.want(FaultMaxPayoutIgnored) != nil:
		u, err := s.uncapped.SettleBox(bets, dec, player, dealer, board)
		if err != nil {
			return err
		}
		res.AnteReturn, res.CallReturn = u.AnteReturn, u.CallReturn
		s.applied(r, s.want(FaultMaxPayoutIgnored))
	case dec == casino.Call && !res.Capped && res.Ante >= 2 && s.want(FaultCallNotMultiple) != nil:
		wrong := res.Ante + res.Ante/2
		switch res.CallReturn {
		case res.Call:
			res.CallReturn = wrong
		case 2 * res.Call:
			res.CallReturn = 2 * wrong
		}
		res.Call = wrong
		s.applied(r, s.want(FaultCallNotMultiple))
	}
	return nil
}

// sessionNonce sets the round's nonce from its seed session, applying the
// nonce faults that are due: nonce-reused (the previous round's nonce
// again; not after a round dropped from the log, whose nonce and client
// input the log does not show, nor after the second round of a swap,
// whose nonce is not the one before the session's next), nonce-skipped,
// and nonce-swapped (this round takes the next nonce but one, the
// session's next round the one held back).
func (s *Simulator) sessionNonce(r *round.Round, ps *playerSession) {
	f := &r.Fairness
	f.Nonce = ps.nonce
	ps.used++
	if ps.swap != nil {
		// The second round of a swap. Dropped from the log, it leaves only
		// the first out of sequence.
		f.Nonce = ps.held
		if s.dropping == nil {
			s.injectAs(r, ps.swap, finding.NonceSequence)
			s.sessionSkip(r, &ps.skipped, finding.NonceSequence)
		}
		ps.swap, ps.noReuse = nil, true
		return
	}
	nf, sf, wf := s.want(FaultNonceReused), s.want(FaultNonceSkipped), s.want(FaultNonceSwapped)
	switch {
	case nf != nil && ps.used > 1 && ps.skipped == nil && !ps.noReuse && (s.cfg.Game != round.DoubleHoldem || !s.seatsChanged):
		// Double Hold'em: the same client input as the previous hand (no
		// player came or went), or it would not repeat a deck.
		f.Nonce = ps.nonce - 1
		s.applied(r, nf)
	case sf != nil:
		f.Nonce = ps.nonce + 1
		ps.nonce += 2
		s.applied(r, sf)
	case wf != nil && s.sessionGoesOn(ps):
		f.Nonce = ps.nonce + 1
		ps.held, ps.swap = ps.nonce, wf.Fault
		ps.nonce += 2
		s.applied(r, wf)
	default:
		ps.nonce++
	}
	ps.noReuse = s.dropping != nil
	s.sessionSkip(r, &ps.skipped, finding.NonceSequence)
}

// sessionGoesOn reports whether the seed session deals another round after
// this one (casino-holdem: the player's next turn; double-holdem: the
// table's next hand).
func (s *Simulator) sessionGoesOn(ps *playerSession) bool {
	stride := int64(1)
	if s.cfg.Game == round.CasinoHoldem {
		stride = int64(len(s.slots))
	}
	return s.i+stride <= ps.last
}
