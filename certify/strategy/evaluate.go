package strategy

import (
	"math/big"

	"github.com/fairhold/fairhold/certify/exact"
)

// Result is the exact outcome of a declared strategy over every deal of
// the states evaluated (all 27,813,810,024,000 deals when they are all the
// 1,286,792 states of a full [exact.Solve]). Probabilities and returns are
// exact fractions (the *Exact fields, as "num/den"); the floats beside them
// are for display.
type Result struct {
	// Name, SHA256 and Rules identify the strategy: its name, the hex
	// SHA-256 of its canonical text and its canonical rules.
	Name   string   `json:"name"`
	Source string   `json:"source,omitempty"`
	SHA256 string   `json:"sha256"`
	Rules  []string `json:"rules"`

	// States and CallStates count the (hole, flop) states, and those where
	// the strategy calls.
	States     int64   `json:"states"`
	CallStates int64   `json:"call_states"`
	PFold      float64 `json:"p_fold"`

	// The main game (ANTE + CALL).
	PlayerResultAntes  int64   `json:"player_result_antes"`
	HouseEdgePerAnte   float64 `json:"house_edge_per_ante"`
	HouseEdgeExact     string  `json:"house_edge_per_ante_exact"`
	RTPTotalWager      float64 `json:"rtp_total_wager"`
	RTPTotalWagerExact string  `json:"rtp_total_wager_exact"`
	RTPAnte            float64 `json:"rtp_ante"`
	RTPAnteExact       string  `json:"rtp_ante_exact"`

	// AA Bonus RTP when a fold forfeits it (the bonus is lost on every
	// state the strategy folds), per unit of AA Bonus stake.
	BonusRTPForfeit      float64 `json:"aa_bonus_rtp_forfeit"`
	BonusRTPForfeitExact string  `json:"aa_bonus_rtp_forfeit_exact"`
	// BonusWinsFolded counts the (hole, flop) states that win the AA Bonus
	// and that the strategy folds.
	BonusWinsFolded int64 `json:"aa_bonus_wins_folded"`

	// SideBetOptimal is the strategy that calls on every AA Bonus win and
	// follows this one otherwise (the seeds' "side-bet optimal strategy").
	SideBetOptimal SideBetOptimal `json:"side_bet_optimal"`

	// DifferFromOptimal counts the (hole, flop) states where the strategy
	// decides otherwise than the optimal one; ExtraHouseEdge is what those
	// decisions cost, per ante: HouseEdgePerAnte minus the optimal house
	// edge.
	DifferFromOptimal   int64   `json:"states_differing_from_optimal"`
	ExtraHouseEdge      float64 `json:"extra_house_edge_per_ante"`
	ExtraHouseEdgeExact string  `json:"extra_house_edge_per_ante_exact"`

	// Outcome is the full outcome table under the strategy.
	Outcome *exact.Outcome `json:"-"`
}

// SideBetOptimal holds the figures of a strategy that also calls on every
// AA Bonus win.
type SideBetOptimal struct {
	RTPTotalWager        float64 `json:"rtp_total_wager"`
	RTPTotalWagerExact   string  `json:"rtp_total_wager_exact"`
	BonusRTPForfeit      float64 `json:"aa_bonus_rtp_forfeit"`
	BonusRTPForfeitExact string  `json:"aa_bonus_rtp_forfeit_exact"`
	// Outcome is the full outcome table.
	Outcome *exact.Outcome `json:"-"`
}

// Evaluate computes st's exact figures over the states with paytables p:
// it decides every state with st and totals the solver's counts (see
// [exact.Tally]), so nothing is sampled or rounded.
func Evaluate(states []exact.State, p exact.Params, st *Strategy) (*Result, error) {
	decide := st.Func()
	o, err := exact.Tally(states, p, decide)
	if err != nil {
		return nil, err
	}
	sbo := func(s *exact.State) bool { return p.BonusPay(s.FlopValue) >= 0 || decide(s) }
	so, err := exact.Tally(states, p, sbo)
	if err != nil {
		return nil, err
	}
	r := &Result{
		Name: st.Name, Source: st.Source, SHA256: st.Hash(), Rules: st.Rules(),
		States: o.States, CallStates: o.CallStates,
		HouseEdgeExact:       o.HouseEdge().RatString(),
		RTPTotalWagerExact:   o.RTPTotalWager().RatString(),
		RTPAnteExact:         o.RTPAnte().RatString(),
		BonusRTPForfeitExact: o.BonusRTPForfeit().RatString(),
		Outcome:              o,
		SideBetOptimal: SideBetOptimal{
			RTPTotalWager: ratFloat(so.RTPTotalWager()), RTPTotalWagerExact: so.RTPTotalWager().RatString(),
			BonusRTPForfeit: ratFloat(so.BonusRTPForfeit()), BonusRTPForfeitExact: so.BonusRTPForfeit().RatString(),
			Outcome: so,
		},
	}
	if o.States > 0 {
		r.PFold = 1 - ratFloat(o.CallProbability())
	}
	r.HouseEdgePerAnte = ratFloat(o.HouseEdge())
	r.RTPTotalWager = ratFloat(o.RTPTotalWager())
	r.RTPAnte = ratFloat(o.RTPAnte())
	r.BonusRTPForfeit = ratFloat(o.BonusRTPForfeit())
	if o.Result.IsInt64() {
		r.PlayerResultAntes = new(big.Int).Quo(o.Result, big.NewInt(o.Ante)).Int64()
	}

	// Where the strategy departs from the optimal one, and what it costs:
	// a state decided otherwise loses |CallSum + Ante x Completions| per
	// completion against the optimal decision.
	optimal := exact.Optimal(p)
	ante := p.Ante
	if ante == 0 {
		ante = 1
	}
	extra := new(big.Int)
	for i := range states {
		s := &states[i]
		mine := decide(s)
		if p.BonusPay(s.FlopValue) >= 0 && !mine {
			r.BonusWinsFolded += s.Weight
		}
		if mine == optimal(s) {
			continue
		}
		r.DifferFromOptimal += s.Weight
		d := p.CallSum(s) + ante*exact.Completions
		if d < 0 {
			d = -d
		}
		extra.Add(extra, new(big.Int).Mul(big.NewInt(d), big.NewInt(s.Weight)))
	}
	if o.Deals > 0 {
		ex := new(big.Rat).SetFrac(extra, new(big.Int).Mul(big.NewInt(o.Deals), big.NewInt(ante)))
		r.ExtraHouseEdge, r.ExtraHouseEdgeExact = ratFloat(ex), ex.RatString()
	}
	return r, nil
}

func ratFloat(r *big.Rat) float64 { f, _ := r.Float64(); return f }
