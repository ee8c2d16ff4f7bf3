package replayer

import (
	"fmt"
	"slices"
	"sort"

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
// the input and the rules, not on the number of workers or the machine.
type Summary struct {
	// Rounds is the number of rounds read and checked.
	Rounds int64 `json:"rounds"`
	// Findings counts findings by code; Severities by severity.
	Findings   map[finding.Code]int64     `json:"findings"`
	Severities map[finding.Severity]int64 `json:"severities"`
	// Games counts rounds by game.
	Games map[string]int64 `json:"games"`
	// Currencies lists the currencies seen per game: the totals add
	// minor units, so a game played in several currencies mixes them.
	Currencies map[string][]string `json:"currencies"`
	// Wagered and Returned are minor units by game and bet type; RTP is
	// returned / wagered by game and bet type ("total" per game is ANTE +
	// CALL + AA Bonus for the Casino Hold'em games). Void rounds count:
	// their stakes are wagered and returned.
	Wagered  map[string]map[string]int64   `json:"wagered"`
	Returned map[string]map[string]int64   `json:"returned"`
	RTP      map[string]map[string]float64 `json:"rtp"`
	// Warnings say what the replay could not check (a dataset without a
	// manifest, tables that do not number their rounds, an old layout):
	// sorted, each once. They are not findings.
	Warnings []string `json:"warnings,omitempty"`
	// Seconds is the wall-clock time of the replay: the one field that
	// differs from run to run.
	Seconds float64 `json:"seconds"`

	totals Totals
}

func newSummary() *Summary {
	return &Summary{
		Findings: map[finding.Code]int64{}, Severities: map[finding.Severity]int64{},
		Games: map[string]int64{}, Currencies: map[string][]string{},
		Wagered: map[string]map[string]int64{}, Returned: map[string]map[string]int64{},
		RTP: map[string]map[string]float64{},
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

func (s *Summary) finish() {
	for k, g := range s.totals.games {
		s.Games[k.game] += g.rounds
		if !slices.Contains(s.Currencies[k.game], k.currency) {
			s.Currencies[k.game] = append(s.Currencies[k.game], k.currency)
			sort.Strings(s.Currencies[k.game])
		}
		if s.Wagered[k.game] == nil {
			s.Wagered[k.game], s.Returned[k.game], s.RTP[k.game] = map[string]int64{}, map[string]int64{}, map[string]float64{}
		}
		for b := range numBets {
			if g.wagered[b] == 0 && g.returned[b] == 0 {
				continue
			}
			s.Wagered[k.game][betNames[b]] += g.wagered[b]
			s.Returned[k.game][betNames[b]] += g.returned[b]
		}
	}
	for game, w := range s.Wagered {
		for b, x := range w {
			if x > 0 {
				s.RTP[game][b] = float64(s.Returned[game][b]) / float64(x)
			}
		}
	}
}

// Totals accumulate wagers and returns by game, currency and bet type.
type Totals struct {
	games map[gameKey]*gameTotals
	lastG *gameTotals // the totals of the last round's game and currency
}

type gameKey struct{ game, currency string }

const (
	iAnte = iota
	iCall
	iBonus
	iPot
	iTotal
	numBets
)

var betNames = [numBets]string{BetAnte, BetCall, BetBonus, BetPot, BetTotal}

type gameTotals struct {
	key               gameKey
	rounds            int64
	wagered, returned [numBets]int64
}

func (t *Totals) get(game, currency string) *gameTotals {
	if t.games == nil {
		t.games = map[gameKey]*gameTotals{}
	}
	if g := t.lastG; g != nil && g.key.game == game && g.key.currency == currency {
		return g
	}
	g := t.games[gameKey{game, currency}]
	if g == nil {
		g = &gameTotals{key: gameKey{cloneString(game), cloneString(currency)}}
		t.games[g.key] = g
	}
	t.lastG = g
	return g
}

// add adds one round's stakes and returns. Negative amounts are left out
// (the checks report them); a sum that overflows int64 is an error.
func (t *Totals) add(r *round.Round) error {
	g := t.get(r.Game, r.Currency)
	g.rounds++
	var err error
	put := func(b int, w, ret int64) {
		if err != nil || w < 0 || ret < 0 {
			return
		}
		for _, i := range [2]int{b, iTotal} {
			if g.wagered[i], err = money.Add(g.wagered[i], w); err != nil {
				return
			}
			if g.returned[i], err = money.Add(g.returned[i], ret); err != nil {
				return
			}
		}
	}
	for i := range r.Boxes {
		b := &r.Boxes[i]
		put(iAnte, b.Ante, b.AnteReturn)
		put(iCall, b.Call, b.CallReturn)
		if b.Bonus != 0 || b.BonusReturn != 0 {
			put(iBonus, b.Bonus, b.BonusReturn)
		}
	}
	if d := r.Double; d != nil {
		// Wagered: the chips that went into the pots and the rake, that is
		// what the players put in less any uncalled bet handed back.
		// Returned: the pots' shares. RTP is then 1 - the rake's share.
		var in, pots, out int64
		// sum adds the positive amounts (negative ones are reported by the
		// checks) with the overflow check of the other totals.
		sum := func(total *int64, v int64) {
			if v > 0 && err == nil {
				*total, err = money.Add(*total, v)
			}
		}
		for _, a := range d.Actions {
			sum(&in, a.Amount)
		}
		for _, p := range d.Pots {
			sum(&pots, p.Amount)
			for _, s := range p.Shares {
				sum(&out, s)
			}
		}
		sum(&pots, d.Rake)
		put(iPot, min(in, pots), out)
	}
	if err != nil {
		return fmt.Errorf("round %s: totals overflow int64: %w", r.RoundID, err)
	}
	return nil
}

func (t *Totals) merge(o *Totals) error {
	for k, og := range o.games {
		g := t.get(k.game, k.currency)
		g.rounds += og.rounds
		for b := range numBets {
			var err error
			if g.wagered[b], err = money.Add(g.wagered[b], og.wagered[b]); err != nil {
				return fmt.Errorf("totals overflow int64: %w", err)
			}
			if g.returned[b], err = money.Add(g.returned[b], og.returned[b]); err != nil {
				return fmt.Errorf("totals overflow int64: %w", err)
			}
		}
	}
	return nil
}

func cloneString(s string) string { return string([]byte(s)) }

// sortFindings puts findings in the canonical order.
func sortFindings(fs []finding.Finding) {
	slices.SortStableFunc(fs, finding.Compare)
}
