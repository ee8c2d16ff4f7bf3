package replayer

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/fairhold/fairhold/replay/audit"
	"github.com/fairhold/fairhold/replay/currency"
	"github.com/fairhold/fairhold/replay/finding"
	"github.com/fairhold/fairhold/replay/money"
	"github.com/fairhold/fairhold/replay/round"
)

// Bet types in the totals.
const (
	BetAnte  = "ante"
	BetCall  = "call"
	BetBonus = "aa-bonus"
	BetPot   = "pot" // Double Hold'em: chips that went into the pots (uncalled bets excluded) plus the rake, and the pots' shares won
	BetTotal = "total"
)

// Summary is the result of a replay. Apart from Seconds it depends only on
// the input, the rules and the declared currencies, not on the number of
// workers or the machine.
type Summary struct {
	// Rounds is the number of rounds read and checked.
	Rounds int64 `json:"rounds"`
	// Period is the earliest and the latest round time of the rounds
	// read ([Period]); nil when no round has a readable time.
	Period *Period `json:"period,omitempty"`
	// Findings counts findings by code; Severities by severity.
	Findings   map[finding.Code]int64     `json:"findings"`
	Severities map[finding.Severity]int64 `json:"severities"`
	// Games counts rounds by game.
	Games map[string]int64 `json:"games"`
	// Currencies lists every currency seen, with its decimals: the totals'
	// minor units are 10^-decimals of the currency.
	Currencies map[string]CurrencySeen `json:"currencies"`
	// Wagered and Returned are minor units by game, then currency, then
	// bet type: amounts of different currencies are never added. RTP is
	// returned / wagered for each of them ("total" is ANTE + CALL + AA
	// Bonus for the Casino Hold'em games). Void rounds count: their stakes
	// are wagered and returned.
	Wagered  map[string]map[string]map[string]int64   `json:"wagered"`
	Returned map[string]map[string]map[string]int64   `json:"returned"`
	RTP      map[string]map[string]map[string]float64 `json:"rtp"`
	// LeftOutOfTotals counts the rounds whose amounts are not in the
	// totals: a round whose own sums, or whose addition to a total, would
	// overflow int64 (each an AMOUNT_OVERFLOW finding).
	LeftOutOfTotals int64 `json:"left_out_of_totals,omitempty"`
	// Voids are the void rounds of every table, sorted by table and game;
	// see [TableVoids].
	Voids []TableVoids `json:"voids"`
	// Rotations are the client-seed rotations of every table that logs
	// one (fairness.client_seed_rotated), sorted by table and game, with
	// the rotation test; see [TableRotations].
	Rotations []TableRotations `json:"rotations,omitempty"`
	// PlayerRotations are the rotations of their own client seed of every
	// player who rotated, sorted by player id (docs/replay.md
	// "Rotations").
	PlayerRotations []PlayerRotations `json:"player_rotations,omitempty"`
	// VoidsByGame are the Casino Hold'em games' tables pooled, table
	// [AllTables], sorted by game, with their void-bias tests.
	VoidsByGame []TableVoids `json:"voids_by_game,omitempty"`
	// Warnings say what the replay could not check (a dataset without a
	// manifest, tables that do not number their rounds, an old layout, a
	// currency whose decimals are unknown): sorted, each once. They are
	// not findings.
	Warnings []string `json:"warnings,omitempty"`
	// NotChecked lists checks the replay was not asked to make: without a
	// commitment log (Options.CommitLog), the checks of the seed sessions
	// against it (docs/replay.md, "Commitment log"). Unlike a warning, a
	// check not asked for does not make a certificate incomplete, yet.
	NotChecked []string `json:"not_checked,omitempty"`
	// CommitmentLog is the commitment log's check, when one was given.
	CommitmentLog *CommitmentLogSummary `json:"commitment_log,omitempty"`
	// Seconds is the wall-clock time of the replay: the one field that
	// differs from run to run.
	Seconds float64 `json:"seconds"`

	totals map[moneyKey]*moneySums
	tables map[tableKey]*tableState
	// playerCounts are the Ledger's (or the merge's) players with a rotation.
	playerCounts []audit.PlayerCount
	// The period's bounds in Unix microseconds, while timed.
	first, last int64
	timed       bool
}

// Period is the time the rounds of a log cover: the earliest and the
// latest round time (round.Round.Time) among the rounds read whose time
// parses, as RFC 3339 in UTC to the microsecond (trailing zeros of the
// fraction dropped, as time.RFC3339Nano writes it). Like every time of a
// log, it is the operator's word.
type Period struct {
	First string `json:"first"`
	Last  string `json:"last"`
}

func formatMicros(us int64) string {
	return time.UnixMicro(us).UTC().Format(time.RFC3339Nano)
}

// observeTimes widens the period to the traces' round times.
func (s *Summary) observeTimes(traces []audit.Trace) {
	for i := range traces {
		t := &traces[i]
		if !t.TimeOK {
			continue
		}
		s.widenPeriod(t.Time, t.Time)
	}
}

// widenPeriod widens the period to [lo, hi], Unix microseconds.
func (s *Summary) widenPeriod(lo, hi int64) {
	if !s.timed {
		s.first, s.last, s.timed = lo, hi, true
	}
	s.first, s.last = min(s.first, lo), max(s.last, hi)
}

// CurrencySeen is a currency of the log: its decimals (package currency;
// -1 when neither built in nor declared), where they come from
// (currency.SourceISO, ...) and the number of rounds in it.
type CurrencySeen struct {
	Decimals int    `json:"decimals"`
	Source   string `json:"source"`
	Rounds   int64  `json:"rounds"`
}

func newSummary() *Summary {
	return &Summary{
		Findings: map[finding.Code]int64{}, Severities: map[finding.Severity]int64{},
		Games: map[string]int64{}, Currencies: map[string]CurrencySeen{},
		Wagered: map[string]map[string]map[string]int64{}, Returned: map[string]map[string]map[string]int64{},
		RTP: map[string]map[string]map[string]float64{}, Voids: []TableVoids{},
		totals: map[moneyKey]*moneySums{}, tables: map[tableKey]*tableState{},
	}
}

// FindingsTotal returns the number of findings.
func (s *Summary) FindingsTotal() int64 {
	var n int64
	for _, c := range s.Findings {
		n += c
	}
	return n
}

// Warn adds a warning (see [Summary.Warnings]).
func (s *Summary) Warn(w string) {
	if !slices.Contains(s.Warnings, w) {
		s.Warnings = append(s.Warnings, w)
		slices.Sort(s.Warnings)
	}
}

func (s *Summary) count(f *finding.Finding) {
	s.Findings[f.Code]++
	s.Severities[f.Severity]++
}

// finish fills the summary's maps from the totals, runs the void-bias
// test of every table and returns its findings, in the order of the
// tables.
func (s *Summary) finish(currencies *currency.Table) []finding.Finding {
	if currencies == nil {
		currencies = currency.Builtin
	}
	if s.timed {
		s.Period = &Period{First: formatMicros(s.first), Last: formatMicros(s.last)}
	}
	for k, g := range s.totals {
		s.Games[k.game] += g.rounds
		c, known := currencies.Lookup(k.currency)
		seen := s.Currencies[k.currency]
		s.Currencies[k.currency] = CurrencySeen{Decimals: c.Decimals, Source: c.Source, Rounds: seen.Rounds + g.rounds}
		if !known {
			s.Warn(fmt.Sprintf("currency %s is neither an ISO 4217 code nor a built-in crypto currency and was not declared: its decimals are unknown, its amounts are minor units (declare it: --currency %s:DECIMALS)", k.currency, k.currency))
		}
		byBet := func(m map[string]map[string]map[string]int64) map[string]int64 {
			if m[k.game] == nil {
				m[k.game] = map[string]map[string]int64{}
			}
			if m[k.game][k.currency] == nil {
				m[k.game][k.currency] = map[string]int64{}
			}
			return m[k.game][k.currency]
		}
		w, r := byBet(s.Wagered), byBet(s.Returned)
		rtp := map[string]float64{}
		for b := range numBets {
			if g.wagered[b] == 0 && g.returned[b] == 0 {
				continue
			}
			w[betNames[b]], r[betNames[b]] = g.wagered[b], g.returned[b]
			if g.wagered[b] > 0 {
				rtp[betNames[b]] = float64(g.returned[b]) / float64(g.wagered[b])
			}
		}
		if s.RTP[k.game] == nil {
			s.RTP[k.game] = map[string]map[string]float64{}
		}
		s.RTP[k.game][k.currency] = rtp
	}
	var uncommitted []audit.TableRounds
	for _, k := range s.sortedTables() {
		if n := s.tables[k].uncommitted; n > 0 {
			uncommitted = append(uncommitted, audit.TableRounds{Table: k.table, Rounds: n})
		}
	}
	for _, w := range uncommittedWarnings(uncommitted) {
		s.Warn(w)
	}
	if s.LeftOutOfTotals > 0 {
		s.Warn(fmt.Sprintf("%d rounds are left out of the totals: their amounts, or the totals with them, would overflow int64 (AMOUNT_OVERFLOW)", s.LeftOutOfTotals))
	}
	return append(s.finishRotations(), s.finishVoids()...)
}

// Totals: each round's stakes and returns by game, currency and bet type.
// A worker computes every round's amounts and the sums of its unit; the
// main goroutine adds the units' sums to the summary in unit order. A
// round whose own sums overflow int64 is left out by the worker; a unit
// whose sums would take a total past int64 is added round by round, so
// that exactly the rounds that would overflow it are left out, whatever
// the number of workers.

type moneyKey struct{ game, currency string }

const (
	iAnte = iota
	iCall
	iBonus
	iPot
	iTotal
	numBets
)

var betNames = [numBets]string{BetAnte, BetCall, BetBonus, BetPot, BetTotal}

// moneySums are the sums of one game and currency.
type moneySums struct {
	rounds            int64 // rounds, left out or not
	wagered, returned [numBets]int64
	overflow          bool // a unit's sums: they overflowed, add its rounds one by one
}

// add adds m's amounts, unless a total would overflow. Every bet's sum is
// at most the total's (amounts are not negative), so checking the totals
// is enough.
func (g *moneySums) add(m *roundMoney) bool {
	if _, err := money.Add(g.wagered[iTotal], m.wagered[iTotal]); err != nil {
		return false
	}
	if _, err := money.Add(g.returned[iTotal], m.returned[iTotal]); err != nil {
		return false
	}
	for b := range numBets {
		g.wagered[b] += m.wagered[b]
		g.returned[b] += m.returned[b]
	}
	return true
}

// addSmall adds m's amounts without checking each sum, when neither the
// sums' totals nor m's reach 2^62 (every bet's amount is at most its
// total's, and two amounts below 2^62 sum below 2^63); it reports whether
// it did. The checked add does the rest.
func (g *moneySums) addSmall(m *roundMoney) bool {
	const half = 1 << 62
	if g.wagered[iTotal] >= half || g.returned[iTotal] >= half || m.wagered[iTotal] >= half || m.returned[iTotal] >= half {
		return false
	}
	for b := range numBets {
		g.wagered[b] += m.wagered[b]
		g.returned[b] += m.returned[b]
	}
	return true
}

// addSums adds a unit's sums o, unless a total would overflow.
func (g *moneySums) addSums(o *moneySums) bool {
	return !o.overflow && g.add(&roundMoney{wagered: o.wagered, returned: o.returned})
}

// put adds a stake w and its return ret to bet b and to the total; it
// reports false when a sum would overflow int64. A negative amount is left
// out (the reader reports it).
func (m *roundMoney) put(b int, w, ret int64) bool {
	if w < 0 || ret < 0 {
		return true
	}
	// The operands are not negative, so a sum past 2^63 - 1 wraps to a
	// negative number.
	wb, rb := m.wagered[b]+w, m.returned[b]+ret
	wt, rt := m.wagered[iTotal]+w, m.returned[iTotal]+ret
	if wb < 0 || rb < 0 || wt < 0 || rt < 0 {
		return false
	}
	m.wagered[b], m.returned[b], m.wagered[iTotal], m.returned[iTotal] = wb, rb, wt, rt
	return true
}

// roundMoney is one round's stakes and returns by bet type.
type roundMoney struct {
	wagered, returned [numBets]int64
	key               int32 // the round's game and currency, in unitTotals.keys
	leftOut           bool  // its own sums overflow int64
}

// set computes r's amounts into m, whose amounts are zero. Negative
// amounts are left out (the reader reports them). When a sum overflows
// int64 it returns the field and the sum, for the AMOUNT_OVERFLOW finding.
func (m *roundMoney) set(r *round.Round) (field, sum string, ok bool) {
	for i := range r.Boxes {
		b := &r.Boxes[i]
		if !m.put(iAnte, b.Ante, b.AnteReturn) || !m.put(iCall, b.Call, b.CallReturn) ||
			((b.Bonus != 0 || b.BonusReturn != 0) && !m.put(iBonus, b.Bonus, b.BonusReturn)) {
			return fmt.Sprintf("boxes[%d]", i), "the round's stakes or returns summed over its boxes", false
		}
	}
	if d := r.Double; d != nil {
		// Wagered: the chips that went into the pots and the rake, that is
		// what the players put in less any uncalled bet handed back.
		// Returned: the pots' shares. RTP is then 1 - the rake's share.
		var in, pots, out int64
		var err error
		sum := func(total *int64, v int64) {
			if v > 0 && err == nil {
				*total, err = money.Add(*total, v)
			}
		}
		for _, a := range d.Actions {
			sum(&in, a.Amount)
		}
		if err != nil {
			return "double.actions", "the actions' amounts", false
		}
		for _, p := range d.Pots {
			sum(&pots, p.Amount)
			for _, s := range p.Shares {
				sum(&out, s)
			}
		}
		sum(&pots, d.Rake)
		if err != nil {
			return "double.pots", "the pots' amounts and the rake, or the pots' shares", false
		}
		if !m.put(iPot, min(in, pots), out) {
			return "double.pots", "the hand's chips", false
		}
	}
	return "", "", true
}

// Tables and their voids.

type tableKey struct{ game, table string }

// tableState is what the summary keeps per table.
type tableState struct {
	rounds, played int64
	playedWins     tiers // played rounds by win tier, settled at their best
	uncommitted    int64 // rounds without fairness.committed_at
	rotations      int64 // rounds logging fairness.client_seed_rotated
	// tails are, by currency, the played and re-settled void rounds by the
	// size of what they win at their best (moneyTail).
	tails    map[tailKey]*moneyTails
	voids    VoidCounts
	reasons  map[string]*VoidCounts
	ifPlayed map[string]*IfPlayedTotals // by currency
}

// unitTable is what a worker counts per table over one unit.
type unitTable struct {
	key            tableKey
	rounds, played int64
	playedWins     tiers
	uncommitted    int64      // rounds without fairness.committed_at
	rotations      int64      // rounds logging fairness.client_seed_rotated
	tails          []unitTail // the played rounds by currency and size of win
}

// voidRound is a void round of a unit, for the main goroutine.
type voidRound struct {
	i        int   // the round's index in the unit (its trace)
	table    int32 // in unitTotals.tables
	key      int32 // game and currency, in unitTotals.keys
	reason   string
	ifPlayed audit.IfPlayed
}

// unitTotals is what a worker accumulates over one chunk of a unit for
// the summary (a round's amounts take about 90 bytes). It is recycled from
// chunk to chunk (see replay).
type unitTotals struct {
	keys     []moneyKey
	sums     []moneySums // by key
	money    []roundMoney
	tables   []unitTable
	voids    []voidRound
	leftOut  int64
	lastKey  int
	lastTab  int
	keyIndex map[moneyKey]int // when a unit has many keys
	tabIndex map[tableKey]int
}

func (u *unitTotals) reset() {
	*u = unitTotals{money: u.money[:0], keys: u.keys[:0], sums: u.sums[:0], tables: u.tables[:0], voids: u.voids[:0], lastKey: -1, lastTab: -1}
}

// key returns the index of (game, currency) in u.keys.
func (u *unitTotals) key(game, cur string) int {
	if i := u.lastKey; i >= 0 && u.keys[i].game == game && u.keys[i].currency == cur {
		return i
	}
	i := -1
	if u.keyIndex != nil {
		if j, ok := u.keyIndex[moneyKey{game, cur}]; ok {
			i = j
		}
	} else {
		for j := range u.keys {
			if u.keys[j].game == game && u.keys[j].currency == cur {
				i = j
				break
			}
		}
	}
	if i < 0 {
		i = len(u.keys)
		k := moneyKey{strings.Clone(game), strings.Clone(cur)}
		u.keys = append(u.keys, k)
		u.sums = append(u.sums, moneySums{})
		if u.keyIndex == nil && len(u.keys) > 8 {
			u.keyIndex = map[moneyKey]int{}
			for j, k := range u.keys {
				u.keyIndex[k] = j
			}
		} else if u.keyIndex != nil {
			u.keyIndex[k] = i
		}
	}
	u.lastKey = i
	return i
}

// table returns the index of (game, table) in u.tables.
func (u *unitTotals) table(game, table string) int {
	if i := u.lastTab; i >= 0 && u.tables[i].key.game == game && u.tables[i].key.table == table {
		return i
	}
	i := -1
	if u.tabIndex != nil {
		if j, ok := u.tabIndex[tableKey{game, table}]; ok {
			i = j
		}
	} else {
		for j := range u.tables {
			if u.tables[j].key.game == game && u.tables[j].key.table == table {
				i = j
				break
			}
		}
	}
	if i < 0 {
		i = len(u.tables)
		k := tableKey{strings.Clone(game), strings.Clone(table)}
		u.tables = append(u.tables, unitTable{key: k})
		if u.tabIndex == nil && len(u.tables) > 8 {
			u.tabIndex = map[tableKey]int{}
			for j := range u.tables {
				u.tabIndex[u.tables[j].key] = j
			}
		} else if u.tabIndex != nil {
			u.tabIndex[k] = i
		}
	}
	u.lastTab = i
	return i
}

// add accounts for the round r, checked into t with ifPlayed (the
// Checker's re-settlement of a void round). from is the index in out of
// the round's first finding: an AMOUNT_OVERFLOW for a sum that overflows
// is added unless the checks raised one already.
func (u *unitTotals) add(r *round.Round, ifPlayed audit.IfPlayed, t *audit.Trace, out []finding.Finding, from int) []finding.Finding {
	k := u.key(r.Game, r.Currency)
	u.money = append(u.money, roundMoney{key: int32(k)})
	m := &u.money[len(u.money)-1]
	sums := &u.sums[k]
	sums.rounds++
	if field, what, ok := m.set(r); !ok {
		m.leftOut = true
		u.leftOut++
		if !hasCode(out[from:], finding.AmountOverflow) {
			out = append(out, overflowFinding(t, field, "a sum below 2^63", "overflow",
				what+" overflow int64: the round is left out of the totals"))
		}
	} else if !sums.overflow && !sums.addSmall(m) && !sums.add(m) {
		sums.overflow = true
	}
	ti := u.table(r.Game, r.TableID)
	tb := &u.tables[ti]
	tb.rounds++
	if r.Fairness.CommittedAt == "" {
		tb.uncommitted++
	}
	if r.Fairness.ClientSeedRotated {
		tb.rotations++
	}
	switch {
	case r.Void:
		reason := r.VoidReason
		if reason == "" {
			reason = NoVoidReason
		}
		u.voids = append(u.voids, voidRound{i: len(u.money) - 1, table: int32(ti), key: int32(k), reason: strings.Clone(reason), ifPlayed: ifPlayed})
	case !m.leftOut && ifPlayed.Settled:
		// Played rounds are judged as voids are, from their cards at
		// their best: what the operator logs after the deal (the
		// decisions) enters neither side of the void tests.
		tb.played++
		tb.playedWins.add(ifPlayed.Tier())
		tb.tail(int32(k), uint8(tailBucket(ifPlayed.Base)))[tailBucket(ifPlayed.Net())]++
	}
	return out
}

// overflowFinding returns the AMOUNT_OVERFLOW of a round the totals
// cannot hold, t's.
func overflowFinding(t *audit.Trace, field, expected, actual, detail string) finding.Finding {
	f := []finding.Finding{{
		Code: finding.AmountOverflow, Severity: finding.SeverityOf(finding.AmountOverflow),
		RoundID: t.RoundID, File: t.Src.File, Row: t.Src.Row, Field: field,
		Expected: expected, Actual: actual, Detail: detail,
	}}
	t.Locate(f)
	return f[0]
}

func hasCode(fs []finding.Finding, c finding.Code) bool {
	for i := range fs {
		if fs[i].Code == c {
			return true
		}
	}
	return false
}

// merge adds a unit's totals to the summary, in unit order. traces are
// the unit's traces (the rounds' ids and places); the AMOUNT_OVERFLOW
// findings of rounds that would take a total past int64 are appended to
// out.
func (s *Summary) merge(u *unitTotals, traces []audit.Trace, out []finding.Finding) []finding.Finding {
	s.LeftOutOfTotals += u.leftOut
	for k := range u.keys {
		key, us := u.keys[k], &u.sums[k]
		g := s.totals[key]
		if g == nil {
			g = &moneySums{}
			s.totals[key] = g
		}
		g.rounds += us.rounds
		if g.addSums(us) {
			continue
		}
		// The unit would take a total past int64: add its rounds one by
		// one, leaving out those that would.
		for i := range u.money {
			m := &u.money[i]
			if int(m.key) != k || m.leftOut || g.add(m) {
				continue
			}
			s.LeftOutOfTotals++
			t := &traces[i]
			out = append(out, overflowFinding(t, "totals", fmt.Sprintf("%s %s totals below 2^63", key.game, key.currency),
				fmt.Sprintf("wagered %d + %d, returned %d + %d", g.wagered[iTotal], m.wagered[iTotal], g.returned[iTotal], m.returned[iTotal]),
				"the totals of the log's rounds so far with this round's would overflow int64: the round is left out of the totals"))
		}
	}
	for i := range u.tables {
		ut := &u.tables[i]
		ts := s.table(ut.key)
		ts.rounds += ut.rounds
		ts.played += ut.played
		ts.uncommitted += ut.uncommitted
		ts.rotations += ut.rotations
		ts.playedWins.merge(ut.playedWins)
		for _, tl := range ut.tails {
			mt := ts.tail(tailKey{u.keys[tl.key].currency, tl.stake})
			for b, n := range tl.h {
				mt.played[b] += n
			}
		}
	}
	for i := range u.voids {
		v := &u.voids[i]
		ts := s.table(u.tables[v.table].key)
		rc := ts.reasons[v.reason]
		if rc == nil {
			rc = &VoidCounts{}
			ts.reasons[v.reason] = rc
		}
		for _, c := range [2]*VoidCounts{&ts.voids, rc} {
			c.Voids++
			if v.ifPlayed.Settled {
				c.Resettled++
				c.resettledWins().add(v.ifPlayed.Tier())
			}
		}
		if v.ifPlayed.Settled {
			ts.tail(tailKey{u.keys[v.key].currency, uint8(tailBucket(v.ifPlayed.Base))}).voids[tailBucket(v.ifPlayed.Net())]++
		}
		if !v.ifPlayed.Settled {
			continue
		}
		cur := u.keys[v.key].currency
		ip := ts.ifPlayed[cur]
		if ip == nil {
			ip = &IfPlayedTotals{}
			ts.ifPlayed[cur] = ip
		}
		w, err1 := money.Add(ip.Wagered, v.ifPlayed.Wagered)
		r, err2 := money.Add(ip.Returned, v.ifPlayed.Returned)
		worst, err3 := money.Add(ip.NetWorst, v.ifPlayed.Worst)
		if err1 != nil || err2 != nil || err3 != nil {
			t := &traces[v.i]
			out = append(out, overflowFinding(t, "void", "if-played totals below 2^63",
				fmt.Sprintf("wagered %d + %d, returned %d + %d", ip.Wagered, v.ifPlayed.Wagered, ip.Returned, v.ifPlayed.Returned),
				"the void rounds' stakes and returns as if played would overflow int64: the round is left out of them"))
			continue
		}
		ip.Wagered, ip.Returned, ip.Net, ip.NetWorst = w, r, r-w, worst
	}
	return out
}

func (s *Summary) table(k tableKey) *tableState {
	ts := s.tables[k]
	if ts == nil {
		ts = &tableState{reasons: map[string]*VoidCounts{}, ifPlayed: map[string]*IfPlayedTotals{}, tails: map[tailKey]*moneyTails{}}
		s.tables[k] = ts
	}
	return ts
}

// sortedTables returns the summary's tables sorted by table, then game.
func (s *Summary) sortedTables() []tableKey {
	return slices.SortedFunc(maps.Keys(s.tables), func(a, b tableKey) int {
		if c := strings.Compare(a.table, b.table); c != 0 {
			return c
		}
		return strings.Compare(a.game, b.game)
	})
}

// sortFindings puts findings in the canonical order.
func sortFindings(fs []finding.Finding) {
	slices.SortStableFunc(fs, finding.Compare)
}

// maxUncommittedWarnings is how many tables without committed_at the
// warnings name.
const maxUncommittedWarnings = 10

// uncommittedWarnings say which tables log rounds without committed_at:
// for those rounds neither COMMITMENT_LATE nor BEACON_TOO_EARLY nor the
// beacon's round rule could be checked (issue 24, hole 11).
func uncommittedWarnings(ts []audit.TableRounds) []string {
	var out []string
	var rounds int64
	for _, t := range ts {
		rounds += t.Rounds
	}
	const what = "the commitment's time was not checked against the round (COMMITMENT_LATE) nor the beacon's (BEACON_TOO_EARLY, BEACON_ROUND_CHOSEN)"
	for i, t := range ts {
		if i == maxUncommittedWarnings {
			out = append(out, fmt.Sprintf("%d more tables: %d rounds without committed_at in all: %s", len(ts)-i, rounds, what))
			break
		}
		rounds -= t.Rounds
		out = append(out, fmt.Sprintf("table %s: %d rounds without committed_at: %s", t.Table, t.Rounds, what))
	}
	return out
}
