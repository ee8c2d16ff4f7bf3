package rtp

import (
	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/certify/strategy"
)

// MathReport is the exact mathematics of a Casino Hold'em profile over
// every deal: the JSON of `fairhold math --json` (docs/report-format.md,
// "Machine output of the commands"). It holds more than [Math], the
// result of a suite's "math-claims" requirement: the outcome table, the
// AA Bonus under every strategy, the payout cap and where the optimal
// strategy folds. Deal counts are over the flop classes solved; figures in
// antes are per unit of ante; an "exact" figure is a fraction (a/b).
type MathReport struct {
	// Game, Profile and ProfileHash name the game and the rules profile
	// (its SHA-256); Boxes is the table's number of boxes.
	Game        string `json:"game"`
	Profile     string `json:"profile"`
	ProfileHash string `json:"profile_hash"`
	Boxes       int    `json:"boxes"`
	// Partial is true for a run over the first FlopClasses of the 1,755
	// flop classes only: no claim is checked.
	Partial     bool `json:"partial,omitempty"`
	FlopClasses int  `json:"flop_classes"`
	// States is the number of suit-isomorphic (hole, flop) states solved.
	States int `json:"states"`

	// Deals is the number of deals; Fold, CallDealerNotQualified, CallWin,
	// CallLose and CallTie split them by outcome under the optimal
	// strategy.
	Deals                  int64 `json:"deals"`
	Fold                   int64 `json:"fold"`
	CallDealerNotQualified int64 `json:"call_dealer_not_qualified"`
	CallWin                int64 `json:"call_win"`
	CallLose               int64 `json:"call_lose"`
	CallTie                int64 `json:"call_tie"`
	// AnteWins is the number of deals whose ANTE wins, by the player's
	// hand category.
	AnteWins map[string]int64 `json:"ante_wins"`
	// PlayerResultAntes is the player's net result over every deal.
	PlayerResultAntes int64 `json:"player_result_antes"`
	// HouseEdgePerAnte is the house edge per unit of ante.
	HouseEdgePerAnte float64 `json:"house_edge_per_ante"`
	HouseEdgeExact   string  `json:"house_edge_per_ante_exact"`
	// RTPTotalWager is the return per unit of total wager (ANTE + CALL).
	RTPTotalWager      float64 `json:"rtp_total_wager"`
	RTPTotalWagerExact string  `json:"rtp_total_wager_exact"`
	// RTPAnte is the return per unit of ante.
	RTPAnte      float64 `json:"rtp_ante"`
	RTPAnteExact string  `json:"rtp_ante_exact"`
	// PCall and PFold are the probabilities of calling and folding.
	PCall float64 `json:"p_call"`
	PFold float64 `json:"p_fold"`
	// AverageWagerAntes is the average total wager of a round.
	AverageWagerAntes float64 `json:"average_wager_antes"`
	// StdDevAntes is the standard deviation of one round's result.
	StdDevAntes float64 `json:"std_dev_antes"`

	// AABonus is the AA Bonus's figures, when the profile has one.
	AABonus *MathBonus `json:"aa_bonus,omitempty"`
	// Strategy is the declared strategy's exact figures: --strategy, or
	// the built-in one the basic-strategy claims are decided under.
	Strategy *strategy.Result `json:"strategy,omitempty"`
	// StrategyByDefault is true when --strategy named none.
	StrategyByDefault bool `json:"strategy_by_default,omitempty"`
	// Cap says whether the payout cap can bind, when the profile has one.
	Cap *MathCap `json:"max_payout,omitempty"`
	// Claims are the profile's published RTP claims, in its order.
	Claims []MathClaim `json:"claims"`

	// FoldByFlopHand is the share of (hole, flop) states folded by the
	// optimal strategy, in percent, by the category of hole + flop.
	FoldByFlopHand map[string]float64 `json:"fold_percent_by_flop_hand"`
	// FoldGrid is the share folded by starting hand ([exact.FoldSummary]);
	// printed for people, not in the JSON.
	FoldGrid [13][13]exact.FoldShare `json:"-"`

	// Seconds is how long the run took, wall time.
	Seconds float64 `json:"seconds"`
}

// MathClaim is one published RTP claim of a profile, checked to its
// precision. It is [Claim] as the math command prints it: Status in
// capitals and Pass beside it.
type MathClaim struct {
	// Name, Bet, Strategy, Denominator and Claimed are the claim's, as
	// the profile publishes it (see [Claim]).
	Name        string `json:"name"`
	Bet         string `json:"bet"`
	Strategy    string `json:"strategy"`
	Denominator string `json:"denominator"`
	Claimed     string `json:"claimed"`
	// AtAnte is the ante the claim is stated at, 0 for none (see
	// [Claim]).
	AtAnte int64 `json:"at_ante,omitempty"`
	// Computed is the exact figure in percent rounded to the claim's
	// precision; ComputedExact to 6 decimals more.
	Computed      string `json:"computed,omitempty"`
	ComputedExact string `json:"computed_exact,omitempty"`
	// Pass is true when Status is PASS.
	Pass bool `json:"pass"`
	// Status is PASS, FAIL or SKIP (not decided: Note says why).
	Status string `json:"status"`
	// Note says why a claim was skipped, or under which strategy it was
	// decided.
	Note string `json:"note,omitempty"`
}

// MathBonus is the AA Bonus's return per unit of bonus stake.
type MathBonus struct {
	// ForfeitOnFold is the profile's rule: a fold forfeits the bonus.
	ForfeitOnFold bool `json:"forfeit_on_fold"`
	// RTPCollectAll: every bonus win collected (the player calls on every
	// bonus win), from the decision states; RTPCollectAllDirect: the same
	// by direct count over the 2,598,960 five-card hands.
	RTPCollectAll       float64 `json:"rtp_collect_all"`
	RTPCollectAllExact  string  `json:"rtp_collect_all_exact"`
	RTPCollectAllDirect string  `json:"rtp_collect_all_direct_exact"`
	// WinningHands is the number of five-card hands the bonus pays.
	WinningHands int64 `json:"winning_hands"`
	// RTPForfeitOptimal: a fold forfeits the bonus, the player follows the
	// main game's optimal strategy.
	RTPForfeitOptimal      float64 `json:"rtp_forfeit_optimal"`
	RTPForfeitOptimalExact string  `json:"rtp_forfeit_optimal_exact"`
	// Joint is the jointly optimal strategy, when a fold forfeits the
	// bonus.
	Joint *MathJoint `json:"jointly_optimal,omitempty"`
}

// MathJoint is the strategy that maximises ANTE + CALL + AA Bonus when
// the bonus stake is BonusRatio antes and a fold forfeits it.
type MathJoint struct {
	// BonusRatio is the bonus stake in antes, a fraction.
	BonusRatio string `json:"bonus_ratio"`
	// Fold is the number of deals it folds.
	Fold int64 `json:"fold"`
	// RTPTotalWager is the main game's return per total wager under it,
	// RTPAABonus the bonus's, RTPCombined both together.
	RTPTotalWager    float64 `json:"rtp_total_wager"`
	RTPAABonus       float64 `json:"rtp_aa_bonus"`
	RTPCombined      float64 `json:"rtp_combined"`
	RTPCombinedExact string  `json:"rtp_combined_exact"`
	// FoldsChanged counts the (hole, flop) states (of 25,989,600) the
	// bonus turns from fold into call.
	FoldsChanged int64 `json:"states_changed_to_call"`
}

// MathCap says whether the live table's payout cap can bind.
type MathCap struct {
	// MaxPayoutPerBox is the cap, Scope what it caps (the profile's
	// max_payout_scope), AnteMax the table's maximum ante.
	MaxPayoutPerBox int64  `json:"max_payout_per_box"`
	Scope           string `json:"scope"`
	AnteMax         int64  `json:"ante_max"`
	// LargestWin is the largest win of a box at the maximum ante.
	LargestWin int64 `json:"largest_win_at_ante_max"`
	// CanBind is true when some win at the maximum ante exceeds the cap.
	CanBind bool `json:"can_bind"`
	// BindsAbove gives, per category whose win the cap can reduce, the
	// largest ante at which it does not bind.
	BindsAbove map[string]int64 `json:"binds_above_ante,omitempty"`
	// At the maximum ante, with the cap applied (optimal strategy for the
	// capped payoffs): the return per total wager and per ante.
	RTPTotalWagerAtMax float64 `json:"rtp_total_wager_at_ante_max"`
	RTPAnteAtMax       float64 `json:"rtp_ante_at_ante_max"`
}
