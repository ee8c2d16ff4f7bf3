package audit

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/casino"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/fairhold/fairhold/replay/round"
)

// CasinoRules are the Casino Hold'em settings of a rules profile, with its
// hand thresholds evaluated once.
type CasinoRules struct {
	P          *profile.Casino
	Table      *casino.Table // the rules engine
	Qualifier  hand.Value
	AnteMin    hand.Value
	BonusMin   hand.Value
	MaxBoxes   int
	hasBonus   bool
	forfeit    bool
	callPushNQ bool
}

// NewCasinoRules compiles the Casino Hold'em section of p.
func NewCasinoRules(p *profile.Profile) (*CasinoRules, error) {
	if p == nil || p.Casino == nil {
		return nil, fmt.Errorf("profile has no casino section")
	}
	t, err := casino.Compile(p)
	if err != nil {
		return nil, err
	}
	c := p.Casino
	r := &CasinoRules{Table: t,
		P: c, Qualifier: c.DealerQualifier.Value(), AnteMin: c.AnteMinHand.Value(),
		MaxBoxes: c.Boxes, callPushNQ: c.CallPushWhenDealerNotQualified,
	}
	if c.Bonus != nil {
		r.hasBonus = true
		r.BonusMin = c.Bonus.MinHand.Value()
		r.forfeit = c.Bonus.ForfeitOnFold
	}
	return r, nil
}

// returns are one box's three returns.
type returns struct{ ante, call, bonus int64 }

// facts are what settlement depends on besides the stakes.
type facts struct {
	player, dealer hand.Value // 7-card values
	bonusHand      hand.Value // player's 2 cards + flop
	qualifies      bool
	decision       string // "call", "fold" or "void" after the unfinished-round policy
}

// variant selects a counterfactual settlement.
type variant uint8

const (
	vExact          variant = iota
	vNoCap                  // the max payout not applied
	vFlipQualify            // the dealer's qualification flipped
	vBonusAfterFold         // the bonus paid after a fold
)

// settle returns the box's returns under r for the accepted stakes, and
// whether the max-payout cap changed them.
func (cr *CasinoRules) settle(b *round.Box, f *facts, v variant) (returns, bool, error) {
	var out returns
	if f.decision == "void" {
		return returns{b.Ante, b.Call, b.Bonus}, false, nil
	}
	var err error
	// AA Bonus.
	if b.Bonus > 0 && cr.hasBonus && (f.decision == "call" || !cr.forfeit || v == vBonusAfterFold) {
		if f.bonusHand >= cr.BonusMin {
			m := cr.P.Bonus.Paytable.Pays(f.bonusHand.Category())
			if out.bonus, err = money.Mul(b.Bonus, m+1); err != nil {
				return out, false, err
			}
		}
	}
	if f.decision != "call" {
		return out, false, nil
	}
	m := cr.P.AnteBelowMinHandPays
	if f.player >= cr.AnteMin {
		m = cr.P.AntePaytable.Pays(f.player.Category())
	}
	anteWin, err := money.Mul(b.Ante, m+1)
	if err != nil {
		return out, false, err
	}
	q := f.qualifies
	if v == vFlipQualify {
		q = !q
	}
	switch {
	case !q:
		out.ante = anteWin
		if cr.callPushNQ {
			out.call = b.Call
		}
	case f.player > f.dealer:
		out.ante = anteWin
		if out.call, err = money.Mul(b.Call, 2); err != nil {
			return out, false, err
		}
	case f.player == f.dealer:
		out.ante, out.call = b.Ante, b.Call
	}
	capAmt := cr.P.Limits.MaxPayoutPerBox
	if capAmt <= 0 || v == vNoCap {
		return out, false, nil
	}
	// As package casino: under the "winnings" scope the ANTE winnings are
	// kept first, then the CALL winnings; under "total" the ANTE return
	// first, then the CALL return.
	if cr.P.MaxPayoutScope == profile.PayoutCapTotal {
		if out.ante+out.call <= capAmt {
			return out, false, nil
		}
		out.ante = min(out.ante, capAmt)
		out.call = min(out.call, capAmt-out.ante)
		return out, true, nil
	}
	aw, cw := max(out.ante-b.Ante, 0), max(out.call-b.Call, 0)
	if aw+cw <= capAmt {
		return out, false, nil
	}
	aw = min(aw, capAmt)
	cw = min(cw, capAmt-aw)
	out.ante, out.call = b.Ante+aw, b.Call+cw
	return out, true, nil
}

// checkCasino checks a Casino Hold'em round (RNG or live table).
func (c *Checker) checkCasino(r *round.Round, t *Trace, dealtOK bool, e *emitter) {
	rules, err := c.ruleEntry.casinoRules(c.ruleErr)
	if err != nil {
		e.add(finding.ProfileMismatch, "profile", "a Casino Hold'em profile", quote(r.Profile), err.Error())
		return
	}
	nb := len(r.Boxes)
	t.perBox = len(r.Fairness.ClientSeeds) == nb
	if nb == 0 || nb > 6 || (rules.MaxBoxes > 0 && nb > rules.MaxBoxes) {
		e.add(finding.InputDamaged, "boxes", fmt.Sprintf("1..%d boxes", max(rules.MaxBoxes, 1)), strconv.Itoa(nb), "")
		return
	}
	// Positions: the RNG game has box 1; a live table the profile's boxes.
	hi := 1
	if r.Game == round.LiveCasinoHoldem {
		hi = cmp.Or(rules.MaxBoxes, 6)
	}
	var nums [6]int
	for i := range r.Boxes {
		nums[i] = r.Boxes[i].Box
	}
	checkPositions(e, nums[:nb], hi, false)
	// Cards: boxes in order (2 each), the dealer (2), the board (5).
	// In the Checker rather than on the stack: slices of them go to the
	// duplicate check, which made them escape, one allocation per round.
	boxCards, dealerP, boardP := &c.boxCards, &c.dealer, &c.board
	*boxCards, *dealerP, *boardP = [6][2]card.Card{}, [2]card.Card{}, [5]card.Card{}
	dealer, board := dealerP[:], boardP[:]
	ok := true
	dealt := dealtCards{e: e}
	dup := dealt.add
	for i := range r.Boxes {
		field := boxField(i, "cards")
		if !parseCards(e, field, r.Boxes[i].Cards, boxCards[i][:], 2, 2) {
			ok = false
			continue
		}
		dup(field, boxCards[i][:])
	}
	nd := len(r.Dealer)
	if !parseCards(e, "dealer", r.Dealer, dealer, 0, 2) {
		ok = false
	} else {
		dup("dealer", dealer[:nd])
	}
	nbd := len(r.Board)
	if !parseCards(e, "board", r.Board, board, 0, 5) {
		ok = false
	} else {
		dup("board", board[:nbd])
	}
	// A duplicate card is the specific explanation of why the cards are
	// not the seeds' deal; it is not reported twice.
	if dealtOK && ok && !dealt.dup {
		d := c.dealt[:]
		for i := range r.Boxes {
			compareCards(e, boxField(i, "cards"), d[2*i:2*i+2], boxCards[i][:])
		}
		compareCards(e, "dealer", d[2*nb:2*nb+nd], dealer[:nd])
		compareCards(e, "board", d[2*nb+2:2*nb+2+nbd], board[:nbd])
	}

	// A round with a repeated card cannot be re-settled: only its stakes
	// and balances are checked.
	settle := ok && !dealt.dup
	complete := settle && nd == 2 && nbd == 5
	c.settled = [6]boxSettled{}
	for i := range r.Boxes {
		c.checkBox(r, i, &r.Boxes[i], rules, boxCards[i], *dealerP, *boardP, nbd, complete, settle, t, e)
	}
	c.settleBest(r, rules, dealtOK, settle)
}

// checkBox checks one box's stakes, returns and balance.
func (c *Checker) checkBox(r *round.Round, i int, b *round.Box, rules *CasinoRules, hole, dealer [2]card.Card,
	board [5]card.Card, nbd int, complete, cardsOK bool, t *Trace, e *emitter) {
	p := rules.P
	if b.Ante < 0 || b.Call < 0 || b.Bonus < 0 || b.AnteReturn < 0 || b.CallReturn < 0 || b.BonusReturn < 0 {
		e.add(finding.InputDamaged, boxField(i, "stakes"), "amounts >= 0", "a negative amount", "")
		return
	}
	// Limits and auto-adjust.
	if want := adjust(b.AnteRequested, p.Limits.AnteMax, p.AutoAdjust); b.Ante > p.Limits.AnteMax || (b.Ante < p.Limits.AnteMin && !r.Void) || b.Ante != want {
		e.add(finding.BetOverLimit, boxField(i, "ante"), fmt.Sprintf("%d (request %d, limits %d..%d)", want, b.AnteRequested, p.Limits.AnteMin, p.Limits.AnteMax), strconv.FormatInt(b.Ante, 10), "")
	}
	if b.Bonus != 0 || b.BonusRequested != 0 {
		switch {
		case !rules.hasBonus:
			e.add(finding.BetOverLimit, boxField(i, "bonus"), "0 (no AA Bonus at this table)", strconv.FormatInt(b.Bonus, 10), "")
		default:
			bmax := p.Bonus.Max
			if want := adjust(b.BonusRequested, bmax, p.AutoAdjust); b.Bonus > bmax || (b.Bonus > 0 && b.Bonus < p.Bonus.Min && !r.Void) || b.Bonus != want {
				e.add(finding.BetOverLimit, boxField(i, "bonus"), fmt.Sprintf("%d (request %d, max %d)", want, b.BonusRequested, bmax), strconv.FormatInt(b.Bonus, 10), "")
			}
		}
	}
	decision := b.Decision
	if r.Void {
		decision = "void"
	} else if decision == "" {
		decision = p.UnfinishedRound
	}
	switch decision {
	case "call":
		want, err := money.Mul(b.Ante, p.CallMultiple)
		switch {
		case err != nil:
			e.add(finding.AmountOverflow, boxField(i, "call"), "a call below 2^63", fmt.Sprintf("%d x %d", b.Ante, p.CallMultiple), "the call is the ante times the profile's call multiple")
			return
		case b.Call != want:
			e.add(finding.CallNotMultiple, boxField(i, "call"), fmt.Sprintf("%d (%d x ante)", want, p.CallMultiple), strconv.FormatInt(b.Call, 10), "")
		}
	case "fold":
		if b.Call != 0 {
			e.add(finding.CallNotMultiple, boxField(i, "call"), "0 (fold)", strconv.FormatInt(b.Call, 10), "")
		}
	case "void":
	default:
		e.add(finding.InputDamaged, boxField(i, "decision"), `"call", "fold" or ""`, quote(b.Decision), "")
		return
	}
	fp, name := c.player(b.PlayerID)
	wallet, wfp := c.walletAt(r, i)
	t.addPlayer(fp, name, wallet, wfp, clientAt(r, t, i, len(r.Boxes)), b.BalanceBefore, b.BalanceAfter, i, false)

	// Balance arithmetic.
	stakes, err1 := money.Sum(b.Ante, b.Call, b.Bonus)
	rets, err2 := money.Sum(b.AnteReturn, b.CallReturn, b.BonusReturn)
	var after int64
	var err3 error
	if err1 == nil && err2 == nil {
		after, err3 = money.Sub(b.BalanceBefore, stakes)
		if err3 == nil {
			after, err3 = money.Add(after, rets)
		}
	}
	switch {
	case err1 != nil:
		e.add(finding.AmountOverflow, boxField(i, "bonus"), "stakes whose sum is below 2^63", fmt.Sprintf("%d + %d + %d", b.Ante, b.Call, b.Bonus), "ante + call + AA Bonus")
	case err2 != nil:
		e.add(finding.AmountOverflow, boxField(i, "bonus_return"), "returns whose sum is below 2^63", fmt.Sprintf("%d + %d + %d", b.AnteReturn, b.CallReturn, b.BonusReturn), "ante + call + AA Bonus returns")
	case err3 != nil:
		e.add(finding.AmountOverflow, boxField(i, "balance_after"), "a balance below 2^63", fmt.Sprintf("%d - %d + %d", b.BalanceBefore, stakes, rets), "before - stakes + returns")
	case after != b.BalanceAfter:
		e.addAmounts(Amounts{Expected: after, Actual: b.BalanceAfter}, finding.BalanceMismatch, boxField(i, "balance_after"), strconv.FormatInt(after, 10), strconv.FormatInt(b.BalanceAfter, 10),
			fmt.Sprintf("before %d - stakes %d + returns %d", b.BalanceBefore, stakes, rets))
	}

	// Settlement.
	if !cardsOK {
		return
	}
	needFull := decision == "call"
	if needFull && !complete {
		e.add(finding.InputDamaged, "board", "5 board cards and 2 dealer cards after a call", fmt.Sprintf("%d board cards", nbd), "")
		return
	}
	if decision != "void" && nbd < 3 {
		e.add(finding.InputDamaged, "board", "at least the flop (3 cards)", fmt.Sprintf("%d board cards", nbd), "")
		return
	}
	got := returns{b.AnteReturn, b.CallReturn, b.BonusReturn}
	// The rules engine settles the box when its stakes are the ones the
	// profile allows; otherwise (a wrong call stake, a bonus where there
	// is none, already reported) the box is settled on its logged stakes.
	if decision != "void" && b.Ante > 0 && (b.Bonus == 0 || rules.hasBonus) &&
		(decision == "call" && b.Call == b.Ante*p.CallMultiple || decision == "fold" && b.Call == 0) {
		d := casino.Fold
		if decision == "call" {
			d = casino.Call
		}
		res, err := rules.Table.SettleBox(casino.Bets{Ante: b.Ante, Bonus: b.Bonus}, d, hole, dealer, board)
		if err == nil && i < len(c.settled) {
			c.settled[i] = settledOf(&res, hole, dealer, board)
		}
		if errors.Is(err, money.ErrOverflow) {
			e.add(finding.AmountOverflow, boxField(i, "stakes"), "returns below 2^63", "overflow", err.Error())
			return
		}
		if err != nil {
			e.add(finding.InputDamaged, boxField(i, "stakes"), "stakes the rules engine can settle", "error", err.Error())
			return
		}
		if got == (returns{res.AnteReturn, res.CallReturn, res.BonusReturn}) {
			return
		}
	}
	f := facts{decision: decision}
	if decision != "void" && b.Bonus > 0 {
		f.bonusHand = eval5(hole, board)
	}
	if needFull {
		f.player = eval7(hole, board)
		f.dealer = eval7(dealer, board)
		f.qualifies = f.dealer >= rules.Qualifier
	}
	want, capped, err := rules.settle(b, &f, vExact)
	if err != nil {
		e.add(finding.AmountOverflow, boxField(i, "stakes"), "returns below 2^63", "overflow", err.Error())
		return
	}
	if got == want {
		return
	}
	c.diagnose(i, b, rules, &f, want, got, capped, e)
}

// diagnose names why a box's returns differ from the re-settlement, by
// re-settling it counterfactually.
func (c *Checker) diagnose(i int, b *round.Box, rules *CasinoRules, f *facts, want, got returns, capped bool, e *emitter) {
	// Each finding is about one return: its amounts are the return
	// re-settled and the return logged.
	ret := func(code finding.Code, name string, want, got int64, detail string) {
		e.addAmounts(Amounts{Expected: want, Actual: got}, code, boxField(i, name), strconv.FormatInt(want, 10), strconv.FormatInt(got, 10), detail)
	}
	report := func(code finding.Code, detail string) {
		if got.ante != want.ante {
			ret(code, "ante_return", want.ante, got.ante, detail)
		}
		if got.call != want.call {
			ret(code, "call_return", want.call, got.call, detail)
		}
	}
	if f.decision == "void" {
		if got.bonus != want.bonus {
			ret(finding.VoidNotRefunded, "bonus_return", want.bonus, got.bonus, "void: every stake returned")
		}
		report(finding.VoidNotRefunded, "void: every stake returned")
		return
	}
	if got.bonus != want.bonus {
		code, detail := finding.BonusPayoutWrong, "bonus hand "+f.bonusHand.Category().String()
		if f.decision != "call" && rules.forfeit && got.bonus > 0 {
			code, detail = finding.BonusPaidAfterFold, "fold forfeits the AA Bonus"
		}
		ret(code, "bonus_return", want.bonus, got.bonus, detail)
	}
	if got.ante == want.ante && got.call == want.call {
		return
	}
	hands := fmt.Sprintf("player %s, dealer %s", f.player.Category(), f.dealer.Category())
	if f.decision != "call" {
		report(finding.ReturnMismatch, "fold: ante and call lost")
		return
	}
	if capped {
		if nc, _, err := rules.settle(b, f, vNoCap); err == nil && nc.ante == got.ante && nc.call == got.call {
			report(finding.MaxPayoutExceeded, fmt.Sprintf("max payout %d per box", rules.P.Limits.MaxPayoutPerBox))
			return
		}
	}
	if !f.qualifies && got.call > b.Call && got.call > want.call {
		report(finding.CallPaidNotQualified, "dealer not qualified ("+f.dealer.Category().String()+")")
		return
	}
	if fq, _, err := rules.settle(b, f, vFlipQualify); err == nil && fq.ante == got.ante && fq.call == got.call {
		what := "settled as if the dealer qualified"
		if f.qualifies {
			what = "settled as if the dealer did not qualify"
		}
		report(finding.DealerQualificationWrong, what+"; "+hands)
		return
	}
	if f.qualifies && f.player == f.dealer {
		report(finding.TieNotPushed, "exact tie; "+hands)
		return
	}
	if got.call == want.call {
		report(finding.AntePayoutWrong, hands)
		return
	}
	report(finding.ReturnMismatch, hands)
}

// adjust applies the auto-adjust policy to a requested stake.
func adjust(req, maxStake int64, policy string) int64 {
	if req > maxStake && policy == profile.AdjustReduceToMax {
		return maxStake
	}
	return req
}

// boxField returns "boxes[i].name" without allocating for the usual names.
func boxField(i int, name string) string {
	if name == "cards" && i < len(boxCards) {
		return boxCards[i]
	}
	return "boxes[" + strconv.Itoa(i) + "]." + name
}

// boxCards and seatCards are the names of the cards fields, made once:
// they are passed with every parse.
var boxCards, seatCards = func() (b, s [10]string) {
	for i := range b {
		b[i] = "boxes[" + strconv.Itoa(i) + "].cards"
		s[i] = "double.seats[" + strconv.Itoa(i) + "].cards"
	}
	return b, s
}()

func eval7(hole [2]card.Card, board [5]card.Card) hand.Value {
	return hand.Eval7([7]card.Card{hole[0], hole[1], board[0], board[1], board[2], board[3], board[4]})
}

func eval5(hole [2]card.Card, board [5]card.Card) hand.Value {
	return hand.Eval5([5]card.Card{hole[0], hole[1], board[0], board[1], board[2]})
}

// parseCards parses between lo and hi cards of ss into dst.
// dealtCards tracks the cards of one round as they are parsed and raises
// CARD_DUPLICATE for each card seen twice.
type dealtCards struct {
	e    *emitter
	seen card.Set
	dup  bool
}

func (d *dealtCards) add(field string, cs []card.Card) {
	for _, x := range cs {
		if d.seen.Has(x) {
			d.dup = true
			d.e.add(finding.CardDuplicate, field, "distinct cards", x.String()+" twice", "")
		}
		d.seen = d.seen.Add(x)
	}
}

func parseCards(e *emitter, field string, ss []string, dst []card.Card, lo, hi int) bool {
	if len(ss) < lo || len(ss) > hi {
		e.add(finding.InputDamaged, field, fmt.Sprintf("%d..%d cards", lo, hi), strconv.Itoa(len(ss)), "")
		return false
	}
	for j, s := range ss {
		x, ok := fastCard(s)
		if !ok {
			var err error
			if x, err = card.Parse(s); err != nil {
				e.add(finding.InputDamaged, field, `a card such as "As"`, quote(s), err.Error())
				return false
			}
		}
		dst[j] = x
	}
	return true
}

// cardIndex maps the canonical two-byte notation to card index + 1.
var cardIndex = func() (t [256][256]uint8) {
	for i := range card.DeckSize {
		s := card.Card(i).String()
		t[s[0]][s[1]] = uint8(i) + 1
	}
	return t
}()

// fastCard parses a card in canonical notation without allocating.
func fastCard(s string) (card.Card, bool) {
	if len(s) != 2 {
		return 0, false
	}
	x := cardIndex[s[0]][s[1]]
	return card.Card(x - 1), x != 0
}
