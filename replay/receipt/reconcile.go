package receipt

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/round"
	"github.com/fairhold/fairhold/replay/roundlog"
)

// Summary is the result of a reconciliation.
type Summary struct {
	Files    int   `json:"files"`    // receipts files read
	Receipts int   `json:"receipts"` // receipts compared (a receipt repeated byte for byte counts once)
	Players  int   `json:"players"`
	Rounds   int64 `json:"rounds"`  // rounds of the log read
	Matched  int   `json:"matched"` // receipts whose round the log holds
	// Findings counts the findings per code.
	Findings map[finding.Code]int `json:"findings"`
	// Warnings are the log's damage: a round that could not be read may be
	// a receipt's round reported missing.
	Warnings []string `json:"warnings,omitempty"`
}

// FindingsTotal is the number of findings.
func (s *Summary) FindingsTotal() int {
	n := 0
	for _, c := range s.Findings {
		n += c
	}
	return n
}

// sessionKey is a player's seed session: the player and the commitment.
type sessionKey struct{ player, commitment string }

// entry is one receipt being reconciled.
type entry struct {
	Signed
	log     *Receipt // the log's round as the player's receipt would show it; nil when absent
	logErr  error    // the log's round could not give the player's receipt
	pos     int64    // the log round's position in the scan, from 0
	at      time.Time
	logFile string
	logRow  int64
}

// seedStep is one log round of a tracked session: its position, the
// player's client seed (interned) and net result, and its id.
type seedStep struct {
	pos   int64
	seed  int32
	net   int64
	round string
	at    time.Time
}

// session is what the log holds of a tracked session.
type session struct {
	steps []seedStep
}

// Reconcile compares the receipts with the round log ds (docs/receipts.md
// section 6) and calls emit with every finding, in the order of
// [finding.Compare]. The receipts were verified when read ([ReadFile]).
func Reconcile(ds *roundlog.Dataset, receipts []Signed, emit func(*finding.Finding) error) (*Summary, error) {
	sum := &Summary{Findings: map[finding.Code]int{}}
	files := map[string]bool{}
	byRound := map[string][]*entry{}
	seen := map[string]bool{} // round and player of a receipt: repeated receipts count once
	players := map[string]bool{}
	tracked := map[sessionKey]*session{}
	var entries []*entry
	for i := range receipts {
		s := receipts[i]
		files[s.File] = true
		key := s.body
		if key == "" {
			body, err := s.Marshal()
			if err != nil {
				return nil, fmt.Errorf("%s line %d: %w", s.File, s.Line+1, err)
			}
			key = string(body)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		at, err := time.Parse(time.RFC3339Nano, s.Time)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: time: %w", s.File, s.Line+1, err)
		}
		e := &entry{Signed: s, pos: -1, at: at}
		entries = append(entries, e)
		byRound[s.Round] = append(byRound[s.Round], e)
		players[s.Player] = true
		k := sessionKey{s.Player, s.Commitment}
		if tracked[k] == nil {
			tracked[k] = &session{}
		}
	}
	sum.Files, sum.Receipts, sum.Players = len(files), len(entries), len(players)
	seeds := map[string]int32{}
	intern := func(s string) int32 {
		if x, ok := seeds[s]; ok {
			return x
		}
		x := int32(len(seeds))
		seeds[strings.Clone(s)] = x
		return x
	}
	matchedRound := map[string]bool{}
	var pos int64
	damage, err := ds.Scan(func(rec *roundlog.Record) error {
		r := &rec.Round
		defer func() { pos++ }()
		for _, p := range Players(r) {
			if !players[p] {
				continue
			}
			ss := tracked[sessionKey{p, r.Fairness.Commitment}]
			if ss == nil {
				continue
			}
			seed, net, ok := playerStep(r, p)
			if !ok {
				continue // compared, and reported, where a receipt names the round
			}
			at, _ := time.Parse(time.RFC3339Nano, r.Time)
			ss.steps = append(ss.steps, seedStep{pos: pos, seed: intern(seed), net: net, round: strings.Clone(r.RoundID), at: at})
		}
		es := byRound[r.RoundID]
		if len(es) == 0 || matchedRound[r.RoundID] {
			return nil // a round id seen again is the replay's ROUND_DUPLICATE
		}
		matchedRound[strings.Clone(r.RoundID)] = true
		for _, e := range es {
			e.pos, e.logFile, e.logRow = pos, strings.Clone(rec.File), rec.Row
			e.log, e.logErr = FromRound(r, e.Player, e.Operator)
		}
		return nil
	})
	sum.Rounds = pos
	if err != nil {
		return nil, err
	}
	for _, d := range damage {
		sum.Warnings = append(sum.Warnings, "the log: "+d.Error())
	}
	var out []finding.Finding
	add := func(e *entry, code finding.Code, field, expected, actual, detail string) *finding.Finding {
		f := finding.Finding{
			Code: code, Severity: finding.SeverityOf(code), RoundID: e.Round, File: e.File, Row: int64(e.Line),
			Field: field, Expected: expected, Actual: actual, Detail: detail, PlayerID: e.Player,
		}
		f.SetRound(e.Time, e.Table, e.Game, e.Currency)
		out = append(out, f)
		return &out[len(out)-1]
	}
	for _, e := range entries {
		if e.pos < 0 {
			net, _ := e.Net()
			f := add(e, finding.ReceiptRoundMissing, "net", strconv.FormatInt(net, 10), "0",
				fmt.Sprintf("no round %s in the log; the receipt: stakes %d, returns %d", e.Round, e.Stakes, e.Returns))
			f.SetAmounts(net, 0)
			continue
		}
		sum.Matched++
		compare(e, add)
	}
	tableSeqs(entries, add)
	balances(entries, add)
	sessions(entries, tracked, add)
	rotations(entries, tracked, intern, add)
	slices.SortFunc(out, finding.Compare)
	for i := range out {
		sum.Findings[out[i].Code]++
		if emit != nil {
			if err := emit(&out[i]); err != nil {
				return nil, err
			}
		}
	}
	return sum, nil
}

// playerStep returns what a session keeps of player's round r: the
// player's client seed (of their first box, or their seat) and net result
// (returns - stakes, as a receipt has them; [FromRound] without the
// copies). ok is false when r cannot give the player's receipt.
func playerStep(r *round.Round, player string) (seed string, net int64, ok bool) {
	seeds := r.Fairness.ClientSeeds
	var in, out int64
	add := func(acc *int64, vs ...int64) bool {
		for _, v := range vs {
			s, err := money.Add(*acc, v)
			if err != nil {
				return false
			}
			*acc = s
		}
		return true
	}
	if r.Double == nil {
		if len(seeds) != len(r.Boxes) {
			return "", 0, false
		}
		for k, b := range r.Boxes {
			if b.PlayerID != player {
				continue
			}
			if !ok {
				seed, ok = seeds[k], true
			}
			if !add(&in, b.Ante, b.Call, b.Bonus) || !add(&out, b.AnteReturn, b.CallReturn, b.BonusReturn) {
				return "", 0, false
			}
		}
	} else {
		h := r.Double
		if len(seeds) != len(h.Seats) {
			return "", 0, false
		}
		seat := 0
		for k, s := range h.Seats {
			if s.PlayerID == player {
				seed, seat, ok = seeds[k], s.Seat, true
				break
			}
		}
		for _, a := range h.Actions {
			if ok && a.Seat == seat && !add(&in, a.Amount) {
				return "", 0, false
			}
		}
		for _, p := range h.Pots {
			for j, w := range p.Winners {
				if ok && w == seat && j < len(p.Shares) && !add(&out, p.Shares[j]) {
					return "", 0, false
				}
			}
		}
	}
	if !ok {
		return "", 0, false
	}
	n, err := money.Sub(out, in)
	if err != nil {
		return "", 0, false
	}
	return seed, n, true
}

type addFunc func(e *entry, code finding.Code, field, expected, actual, detail string) *finding.Finding

// netDetail says the round's net result for the player by the receipt
// and by the log.
func netDetail(e *entry) string {
	rn, _ := e.Net()
	if e.log == nil {
		return fmt.Sprintf("the player's net result by the receipt %d", rn)
	}
	ln, _ := e.log.Net()
	return fmt.Sprintf("the player's net result by the receipt %d, by the log %d", rn, ln)
}

func u(v uint64) string { return strconv.FormatUint(v, 10) }

// compare reports the fields of e's log round that contradict e, but for
// table_seq and the balance after (tableSeqs, balances).
func compare(e *entry, add addFunc) {
	if e.logErr != nil {
		actual := "the log's round cannot give the player's receipt"
		if errors.Is(e.logErr, ErrNotAtRound) {
			actual = "the player holds no box or seat of the log's round"
		}
		add(e, finding.ReceiptMismatch, "player", e.Player, actual, e.logErr.Error())
		return
	}
	r, l := e.Receipt, e.log
	detail := netDetail(e)
	diff := func(field, want, got string) {
		if want != got {
			add(e, finding.ReceiptMismatch, field, want, got, detail)
		}
	}
	diff("game", r.Game, l.Game)
	diff("table", r.Table, l.Table)
	diff("time", r.Time, l.Time)
	diff("wallet", r.Wallet, l.Wallet)
	diff("currency", r.Currency, l.Currency)
	diff("scheme", r.Scheme, l.Scheme)
	diff("commitment", r.Commitment, l.Commitment)
	diff("chain-index", u(r.ChainIndex), u(l.ChainIndex))
	diff("nonce", u(r.Nonce), u(l.Nonce))
	diff("void", strconv.FormatBool(r.Void), strconv.FormatBool(l.Void))
	if r.Game != "double-holdem" || l.Game != "double-holdem" {
		diff("dealer", cardsText(r.Dealer), cardsText(l.Dealer))
	}
	diff("board", cardsText(r.Board), cardsText(l.Board))
	boxNos := func(bs []Box) string {
		var s []string
		for _, b := range bs {
			s = append(s, strconv.Itoa(b.Box))
		}
		return strings.Join(s, " ")
	}
	if boxNos(r.Boxes) != boxNos(l.Boxes) {
		diff("boxes", boxNos(r.Boxes), boxNos(l.Boxes))
	} else {
		for k := range r.Boxes {
			a, b := r.Boxes[k], l.Boxes[k]
			p := fmt.Sprintf("boxes[box %d].", a.Box)
			diff(p+"client-seed", a.ClientSeed, b.ClientSeed)
			diff(p+"cards", cardsText(a.Cards), cardsText(b.Cards))
			diff(p+"ante", i64(a.Ante), i64(b.Ante))
			diff(p+"bonus", i64(a.Bonus), i64(b.Bonus))
			diff(p+"decision", decisionText(a.Decision), decisionText(b.Decision))
			diff(p+"call", i64(a.Call), i64(b.Call))
			diff(p+"ante-return", i64(a.AnteReturn), i64(b.AnteReturn))
			diff(p+"call-return", i64(a.CallReturn), i64(b.CallReturn))
			diff(p+"bonus-return", i64(a.BonusReturn), i64(b.BonusReturn))
		}
	}
	switch {
	case r.Seat != nil && l.Seat != nil:
		diff("seat", strconv.Itoa(r.Seat.Seat), strconv.Itoa(l.Seat.Seat))
		diff("seat.client-seed", r.Seat.ClientSeed, l.Seat.ClientSeed)
		diff("seat.cards", cardsText(r.Seat.Cards), cardsText(l.Seat.Cards))
		diff("seat.bonus-card", cardsText(nonEmpty(r.Seat.BonusCard)), cardsText(nonEmpty(l.Seat.BonusCard)))
	case r.Seat != nil || l.Seat != nil:
		diff("seat", seatText(r.Seat), seatText(l.Seat))
	}
	money := func(field string, want, got int64) {
		if want != got {
			f := add(e, finding.ReceiptAmountMismatch, field, i64(want), i64(got), detail)
			f.SetAmounts(want, got)
		}
	}
	money("stakes", r.Stakes, l.Stakes)
	money("returns", r.Returns, l.Returns)
}

func i64(v int64) string { return strconv.FormatInt(v, 10) }

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

func seatText(s *Seat) string {
	if s == nil {
		return "none"
	}
	return strconv.Itoa(s.Seat)
}

// matched returns the receipts whose round the log holds, grouped by key
// and each group in log order.
func matched(entries []*entry, key func(*entry) string) (keys []string, groups map[string][]*entry) {
	groups = map[string][]*entry{}
	for _, e := range entries {
		if e.log == nil {
			continue
		}
		k := key(e)
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], e)
	}
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b *entry) int { return cmp.Compare(a.pos, b.pos) })
	}
	slices.Sort(keys)
	return keys, groups
}

// tableSeqs reports the table_seq of a log round that contradicts its
// receipt where the offset (log - receipt) differs from the one at the
// table's previous receipt (0 before the first): a dropped round with the
// table renumbered shows once.
func tableSeqs(entries []*entry, add addFunc) {
	keys, groups := matched(entries, func(e *entry) string { return e.Table })
	for _, k := range keys {
		var prev int64
		var prevRound string
		for _, e := range groups[k] {
			want, got := e.TableSeq, e.log.TableSeq
			if want == 0 || got == 0 || want > 1<<62 || got > 1<<62 {
				if want != got {
					add(e, finding.ReceiptMismatch, "table-seq", u(want), u(got), netDetail(e))
				}
				continue
			}
			off := int64(got) - int64(want)
			if off != prev {
				d := "the table's receipts before agree with the log"
				if prevRound != "" {
					d = fmt.Sprintf("the offset (log - receipt) was %d at the table's previous receipt, round %s", prev, prevRound)
				}
				add(e, finding.ReceiptMismatch, "table-seq", u(want), u(got), fmt.Sprintf("offset %d; %s; %s", off, d, netDetail(e)))
			}
			prev, prevRound = off, e.Round
		}
	}
}

// balances reports a balance after of a log round that contradicts its
// receipt where the offset (log - receipt) differs from the one at the
// wallet's (the player's) previous receipt in the currency, 0 before the
// first.
func balances(entries []*entry, add addFunc) {
	keys, groups := matched(entries, func(e *entry) string { return e.Player + "\x00" + e.Currency })
	for _, k := range keys {
		var prev int64
		var prevRound string
		for _, e := range groups[k] {
			want, got := e.BalanceAfter, e.log.BalanceAfter
			off := got - want
			if (got > 0 && off < -want) || (got < 0 && off > -want) {
				// Overflow: report the values alone.
				f := add(e, finding.ReceiptAmountMismatch, "balance-after", i64(want), i64(got), netDetail(e))
				f.SetAmounts(want, got)
				prevRound = e.Round
				continue
			}
			if off != prev {
				d := "at the player's previous receipts the log agreed"
				if prevRound != "" {
					d = fmt.Sprintf("at the player's previous receipt, round %s, the offset (log - receipt) was %d", prevRound, prev)
				}
				f := add(e, finding.ReceiptAmountMismatch, "balance-after", i64(want), i64(got), fmt.Sprintf("offset %d; %s; %s", off, d, netDetail(e)))
				f.SetAmounts(want, got)
			}
			prev, prevRound = off, e.Round
		}
	}
}

// sessionReceipts groups the receipts (found in the log or not) by
// session, in time order.
func sessionReceipts(entries []*entry) (keys []sessionKey, groups map[sessionKey][]*entry) {
	groups = map[sessionKey][]*entry{}
	for _, e := range entries {
		k := sessionKey{e.Player, e.Commitment}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], e)
	}
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b *entry) int { return a.at.Compare(b.at) })
	}
	slices.SortFunc(keys, func(a, b sessionKey) int {
		return cmp.Or(cmp.Compare(a.player, b.player), cmp.Compare(a.commitment, b.commitment))
	})
	return keys, groups
}

// sessions reports a session whose log has fewer rounds of the player than
// the player's receipts of it, or ends before the last receipt.
func sessions(entries []*entry, tracked map[sessionKey]*session, add addFunc) {
	keys, groups := sessionReceipts(entries)
	for _, k := range keys {
		g := groups[k]
		last := g[len(g)-1]
		steps := tracked[k].steps
		n := len(steps)
		rounds := map[string]bool{}
		for _, e := range g {
			rounds[e.Round] = true
		}
		short := n < len(rounds)
		var logLast seedStep
		if n > 0 {
			logLast = steps[n-1]
			for _, s := range steps {
				if s.at.After(logLast.at) {
					logLast = s
				}
			}
		}
		if n == 0 || logLast.at.Before(last.at) {
			short = true
		}
		if !short {
			continue
		}
		var tail int64
		var tailN int
		for _, e := range g {
			if n == 0 || e.at.After(logLast.at) {
				net, _ := e.Net()
				tail += net
				tailN++
			}
		}
		want := fmt.Sprintf("at least %d rounds, the last at %s (round %s)", len(rounds), last.Time, last.Round)
		got := "no round"
		if n > 0 {
			got = fmt.Sprintf("%d rounds, the last at %s (round %s)", n, logLast.at.UTC().Format(time.RFC3339Nano), logLast.round)
		}
		add(last, finding.ReceiptSessionShort, "session", want, got,
			fmt.Sprintf("commitment %s; %d receipts after the log's last round of the session, net result %d by the receipts", k.commitment, tailN, tail))
	}
}

// rotations reports, for each two consecutive receipts of a player in a
// session that the log holds, the log's changes of the player's client
// seed between them beyond those the receipts show.
func rotations(entries []*entry, tracked map[sessionKey]*session, intern func(string) int32, add addFunc) {
	keys, groups := sessionReceipts(entries)
	for _, k := range keys {
		steps := tracked[k].steps
		var g []*entry
		for _, e := range groups[k] {
			if e.log != nil {
				g = append(g, e)
			}
		}
		slices.SortStableFunc(g, func(a, b *entry) int { return cmp.Compare(a.pos, b.pos) })
		idx := func(pos int64) int {
			i, found := slices.BinarySearchFunc(steps, pos, func(s seedStep, p int64) int { return cmp.Compare(s.pos, p) })
			if !found {
				return -1
			}
			return i
		}
		for j := 1; j < len(g); j++ {
			a, b := g[j-1], g[j]
			ia, ib := idx(a.pos), idx(b.pos)
			if ia < 0 || ib < 0 || ib <= ia {
				continue
			}
			// The client seeds from receipt a to receipt b: a's, the log's
			// between them, b's. A receipt the log contradicts is reported
			// as such (RECEIPT_MISMATCH), not again here.
			var changed []string
			var net int64
			prev := intern(a.ClientSeed())
			for i := ia + 1; i < ib; i++ {
				if steps[i].seed != prev {
					changed = append(changed, steps[i].round)
					prev = steps[i].seed
				}
				net += steps[i].net
			}
			if intern(b.ClientSeed()) != prev {
				changed = append(changed, b.Round)
			}
			shown := 0
			if a.ClientSeed() != b.ClientSeed() {
				shown = 1
			}
			if len(changed) <= shown {
				continue
			}
			want := fmt.Sprintf("no change of client seed (the receipts of rounds %s and %s show the same)", a.Round, b.Round)
			if shown == 1 {
				want = fmt.Sprintf("one change of client seed (from the receipt of round %s to that of round %s)", a.Round, b.Round)
			}
			list := changed
			if len(list) > 5 {
				list = append(slices.Clone(list[:5]), "...")
			}
			got := fmt.Sprintf("%d changes in the log (at rounds %s)", len(changed), strings.Join(list, ", "))
			add(b, finding.ReceiptRotationNotShown, "client-seed", want, got,
				fmt.Sprintf("commitment %s; %d rounds of the player between the two receipts, net result %d by the log", k.commitment, ib-ia-1, net))
		}
	}
}
