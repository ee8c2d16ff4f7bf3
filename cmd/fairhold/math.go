package main

import (
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"

	"github.com/fairhold/fairhold/certify/exact"
	"github.com/fairhold/fairhold/certify/rtp"
	"github.com/fairhold/fairhold/certify/strategy"
	"github.com/fairhold/fairhold/replay/atomicfile"
	"github.com/fairhold/fairhold/replay/hand"
	"github.com/fairhold/fairhold/replay/profile"
	"github.com/spf13/cobra"
)

type mathOptions struct {
	profile     string
	asJSON      bool
	strategyOut string
	bonusRatio  string
	workers     int
	maxFlops    int
	strategy    string
}

func newMathCmd() *cobra.Command {
	var o mathOptions
	cmd := &cobra.Command{
		Use:   "math GAME",
		Short: "Compute a game's exact mathematics: optimal strategy, outcome table, RTP",
		Long: `Compute the exact mathematics of Casino Hold'em from a rules profile, over all
27,813,810,024,000 deals (player's cards, flop, turn and river, dealer's cards):
the optimal strategy (call exactly when EV(call) >= -1 ante; an exact tie calls),
the outcome table under it, the house edge, the RTP per unit of total wager and
per unit of ante, the standard deviation of one round, the AA Bonus RTP (every
win collected; forfeited on a fold under the optimal strategy; and under the
jointly optimal strategy for a bonus of --bonus-ratio antes), and the profile's
published RTP claims checked to their precision, under the profile's payout cap:
when the cap binds at some ante the table allows, a claim the cap changes must
state the ante it holds at (at_ante, docs/rules-profiles.md) and is decided
with the cap there; a claim that states none fails.

A declared strategy (--strategy: a built-in name or a file of readable rules,
docs/math.md) is evaluated exactly too: its RTP per total wager and per ante,
its AA Bonus RTP under forfeit-on-fold, the same when it also calls on every
bonus win, and where it departs from the optimal strategy. The profile's
"basic" and "side-bet-optimal" claims are decided under it; without
--strategy, under the built-in pair-jack-draw, which reproduces the seeds'
figures (it is not published: docs/math.md says how it was found).

GAME is casino-holdem or live-casino-holdem; the profile defaults to the built-in
profile of that name. Exit status 3 when a checked claim fails.`,
		Example: `  fairhold math casino-holdem
  fairhold math casino-holdem --json --strategy-out strategy.parquet
  fairhold math casino-holdem --strategy simple
  fairhold math casino-holdem --strategy my-rules.txt
  fairhold math live-casino-holdem --profile my-table.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMath(cmd, args[0], &o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.profile, "profile", "", "rules profile: a built-in name or a JSON file (default: the built-in profile named GAME)")
	f.BoolVar(&o.asJSON, "json", false, "print JSON")
	f.StringVar(&o.strategyOut, "strategy-out", "", "write the optimal strategy (decision and EV(call) of every suit-isomorphic hole+flop state) to this Parquet file")
	f.StringVar(&o.bonusRatio, "bonus-ratio", "1", "AA Bonus stake in antes for the jointly optimal strategy (e.g. 1, 0.5, 1/5)")
	f.IntVar(&o.workers, "workers", 0, "worker goroutines (default: all cores); the result does not depend on it")
	f.StringVar(&o.strategy, "strategy", "", "a declared strategy to evaluate and to decide the basic-strategy claims under: a built-in name ("+strings.Join(strategy.Names(), ", ")+") or a rules `FILE` (default "+strategy.SeedsBasic+")")
	f.IntVar(&o.maxFlops, "max-flop-classes", 0, "solve only the first N of the 1,755 flop classes: a partial run for testing, claims not checked")
	return cmd
}

// mathGame is a profile turned into the engine's parameters.
type mathGame struct {
	game      *rtp.Game
	prof      *profile.Profile
	params    exact.Params
	qualifier hand.Value
	hasBonus  bool
	forfeit   bool
}

// mathParams converts a Casino Hold'em profile into the engine's
// parameters, in antes and without the payout cap (rtp.NewGame).
func mathParams(p *profile.Profile) (*mathGame, error) {
	g, err := rtp.NewGame(p)
	if err != nil {
		return nil, err
	}
	return &mathGame{game: g, prof: p, params: g.Params, qualifier: g.Qualifier, hasBonus: g.HasBonus, forfeit: g.Forfeit}, nil
}

func runMath(cmd *cobra.Command, game string, o *mathOptions) error {
	if game != profile.GameCasinoHoldem && game != profile.GameLiveCasinoHoldem {
		return usageErrorf("math: unknown game %q, want %s or %s", game, profile.GameCasinoHoldem, profile.GameLiveCasinoHoldem)
	}
	name := o.profile
	if name == "" {
		name = game
	}
	prof, err := profile.Load(name)
	if err != nil {
		return usageError(err)
	}
	if prof.Game != game {
		return usageErrorf("math: profile %s is for %s, not %s", prof.Name, prof.Game, game)
	}
	g, err := mathParams(prof)
	if err != nil {
		return usageError(err)
	}
	ratio, ok := new(big.Rat).SetString(o.bonusRatio)
	if !ok || ratio.Sign() < 0 {
		return usageErrorf("math: --bonus-ratio %q, want a non-negative number such as 1, 0.5 or 1/5", o.bonusRatio)
	}
	if o.workers < 0 || o.maxFlops < 0 {
		return usageErrorf("math: --workers and --max-flop-classes must not be negative")
	}
	declared, err := loadDeclared(o.strategy)
	if err != nil {
		return usageError(err)
	}

	if o.strategyOut != "" {
		if err := checkOutputFile("--strategy-out", o.strategyOut); err != nil {
			return err
		}
	}

	start := time.Now()
	classes := exact.FlopClasses()
	partial := o.maxFlops > 0 && o.maxFlops < len(classes)
	if partial {
		classes = classes[:o.maxFlops]
	}
	bar := newProgress(cmd, "math "+game, int64(len(classes)))
	sol, err := exact.Solve(cmd.Context(), g.qualifier, exact.Options{
		Workers: o.workers, Flops: classes, Progress: func(n int) { bar.Add(int64(n)) },
	})
	bar.Done()
	if err != nil {
		return err
	}
	rep, err := buildMathReport(g, sol, ratio, partial, len(classes), declared)
	if err != nil {
		return err
	}
	if o.strategyOut != "" {
		if err := writeStrategyFile(o.strategyOut, sol, g); err != nil {
			return err
		}
	}
	rep.Seconds = time.Since(start).Seconds()

	w := cmd.OutOrStdout()
	if o.asJSON {
		if err := writeResult(w, verdictOf(claimsResult(rep.Claims) == nil, verdictOK), rep); err != nil {
			return err
		}
	} else {
		printMath(w, rep)
	}
	return claimsResult(rep.Claims)
}

// loadDeclared loads the --strategy strategy, the built-in SeedsBasic when
// none is named.
func loadDeclared(nameOrPath string) (*declaredStrategy, error) {
	d := &declaredStrategy{byDefault: nameOrPath == ""}
	if d.byDefault {
		nameOrPath = strategy.SeedsBasic
	}
	s, err := strategy.Load(nameOrPath)
	if err != nil {
		return nil, fmt.Errorf("math: --strategy: %w", err)
	}
	d.s = s
	return d, nil
}

// declaredStrategy is the strategy the basic-strategy claims are decided
// under.
type declaredStrategy struct {
	s         *strategy.Strategy
	byDefault bool // not named by --strategy
}

// claimsResult is errVerificationFailed when a checked claim failed.
func claimsResult(claims []rtp.MathClaim) error {
	for _, c := range claims {
		if c.Status == claimFail {
			return errVerificationFailed
		}
	}
	return nil
}

// writeStrategyFile writes the strategy file under a temporary name and
// renames it once whole: path never holds a torn file.
func writeStrategyFile(path string, sol *exact.Solution, g *mathGame) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("math: failed to create the strategy file: %w", err)
	}
	defer f.Abort()
	if err := exact.WriteStrategy(f, sol.States, g.params, exact.Optimal(g.params),
		exact.MetaProfile, g.prof.Name, exact.MetaProfileHash, g.prof.Hash()); err != nil {
		return fmt.Errorf("math: %s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("math: %w", err)
	}
	return nil
}

// Claim statuses.
const (
	claimPass = "PASS"
	claimFail = "FAIL"
	claimSkip = "SKIP"
)

func ratFloat(r *big.Rat) float64 { f, _ := r.Float64(); return f }

func buildMathReport(g *mathGame, sol *exact.Solution, ratio *big.Rat, partial bool, flops int, declared *declaredStrategy) (*rtp.MathReport, error) {
	p := g.params
	opt := exact.Optimal(p)
	o, err := exact.Tally(sol.States, p, opt)
	if err != nil {
		return nil, err
	}
	if !o.Result.IsInt64() {
		return nil, fmt.Errorf("math: result out of range")
	}
	rep := &rtp.MathReport{
		Game: g.prof.Game, Profile: g.prof.Name, ProfileHash: g.prof.Hash(), Boxes: g.prof.Casino.Boxes,
		Partial: partial, FlopClasses: flops, States: len(sol.States),
		Deals: o.Deals, Fold: o.Fold, CallDealerNotQualified: o.CallNotQualified,
		CallWin: o.CallWin, CallLose: o.CallLose, CallTie: o.CallTie,
		AnteWins:          map[string]int64{},
		PlayerResultAntes: o.Result.Int64(),
		HouseEdgePerAnte:  ratFloat(o.HouseEdge()), HouseEdgeExact: o.HouseEdge().RatString(),
		RTPTotalWager: ratFloat(o.RTPTotalWager()), RTPTotalWagerExact: o.RTPTotalWager().RatString(),
		RTPAnte: ratFloat(o.RTPAnte()), RTPAnteExact: o.RTPAnte().RatString(),
		PCall:             ratFloat(o.CallProbability()),
		PFold:             1 - ratFloat(o.CallProbability()),
		AverageWagerAntes: ratFloat(o.AverageWager()),
		StdDevAntes:       o.StdDev(),
		FoldByFlopHand:    map[string]float64{},
	}
	for _, c := range hand.Categories() {
		rep.AnteWins[c.String()] = o.AnteWins[c-1]
	}
	byHand, grid := exact.FoldSummary(sol.States, opt)
	for _, c := range hand.Categories() {
		if byHand[c-1].States > 0 {
			rep.FoldByFlopHand[c.String()] = byHand[c-1].Percent()
		}
	}
	rep.FoldGrid = grid

	var joint *exact.Outcome
	if g.hasBonus {
		direct := exact.CountBonus(p)
		b := &rtp.MathBonus{
			ForfeitOnFold:          g.forfeit,
			RTPCollectAll:          ratFloat(o.BonusRTPCollectAll()),
			RTPCollectAllExact:     o.BonusRTPCollectAll().RatString(),
			RTPCollectAllDirect:    direct.RTP().RatString(),
			RTPForfeitOptimal:      ratFloat(o.BonusRTPForfeit()),
			RTPForfeitOptimalExact: o.BonusRTPForfeit().RatString(),
		}
		for _, n := range direct.Wins {
			b.WinningHands += n
		}
		if !g.forfeit {
			// Paid whatever the player does.
			b.RTPForfeitOptimal, b.RTPForfeitOptimalExact = b.RTPCollectAll, b.RTPCollectAllExact
		} else {
			joint, err = exact.Tally(sol.States, p, exact.JointOptimal(p, ratio))
			if err != nil {
				return nil, err
			}
			// Combined return per unit of total wager: main game plus a
			// bonus of ratio antes on every round.
			bonusStake := new(big.Rat).Mul(ratio, big.NewRat(joint.States, 1))
			bonusReturn := new(big.Rat).Mul(ratio, big.NewRat(joint.BonusReturnForfeit, 1))
			// Per state, the main game's figures are over Completions deals.
			perState := big.NewRat(1, exact.Completions)
			mainStake := new(big.Rat).Mul(new(big.Rat).SetInt(joint.Wagered), perState)
			mainReturn := new(big.Rat).Mul(new(big.Rat).SetInt(new(big.Int).Add(joint.Wagered, joint.Result)), perState)
			comb := new(big.Rat).Quo(new(big.Rat).Add(mainReturn, bonusReturn), new(big.Rat).Add(mainStake, bonusStake))
			b.Joint = &rtp.MathJoint{
				BonusRatio: ratio.RatString(), Fold: joint.Fold,
				RTPTotalWager: ratFloat(joint.RTPTotalWager()), RTPAABonus: ratFloat(joint.BonusRTPForfeit()),
				RTPCombined: ratFloat(comb), RTPCombinedExact: comb.RatString(),
				FoldsChanged: joint.CallStates - o.CallStates,
			}
		}
		rep.AABonus = b
	}

	if err := addCap(rep, g, sol); err != nil {
		return nil, err
	}
	if declared != nil {
		rep.Strategy, err = strategy.Evaluate(sol.States, p, declared.s)
		if err != nil {
			return nil, err
		}
		rep.StrategyByDefault = declared.byDefault
	}
	var basic *strategy.Strategy
	if declared != nil {
		basic = declared.s
	}
	at := func(ante int64) (*rtp.Figures, error) {
		return rtp.FiguresAt(g.game, sol.States, ante, basic, basicNote(rep.StrategyByDefault))
	}
	if rep.Claims, err = checkClaims(g, o, rep.Strategy, rep.StrategyByDefault, partial, at); err != nil {
		return nil, err
	}
	return rep, nil
}

// addCap reports whether the profile's max payout per box can bind at the
// table's maximum ante and, if so, the figures at that ante with the cap.
func addCap(rep *rtp.MathReport, g *mathGame, sol *exact.Solution) error {
	c := g.prof.Casino
	if c.Limits.MaxPayoutPerBox == 0 {
		return nil
	}
	p := g.params
	mc := &rtp.MathCap{
		MaxPayoutPerBox: c.Limits.MaxPayoutPerBox, Scope: c.MaxPayoutScope, AnteMax: c.Limits.AnteMax,
		BindsAbove: map[string]int64{},
	}
	stakes := int64(0)
	if c.MaxPayoutScope == profile.PayoutCapTotal {
		stakes = 1 + p.CallMultiple
	}
	for _, cat := range hand.Categories() {
		perAnte := p.AntePays[cat-1] + p.CallMultiple + stakes // winnings (or returns) of a win, in antes
		if w := perAnte * c.Limits.AnteMax; w > mc.LargestWin {
			mc.LargestWin = w
		}
		if perAnte*c.Limits.AnteMax > c.Limits.MaxPayoutPerBox {
			mc.BindsAbove[cat.String()] = c.Limits.MaxPayoutPerBox / perAnte
		}
	}
	mc.CanBind = len(mc.BindsAbove) > 0
	if mc.CanBind {
		capped := p
		capped.Ante = c.Limits.AnteMax
		capped.MaxPayout = c.Limits.MaxPayoutPerBox
		capped.CapIncludesStakes = c.MaxPayoutScope == profile.PayoutCapTotal
		o, err := exact.Tally(sol.States, capped, exact.Optimal(capped))
		if err != nil {
			return err
		}
		mc.RTPTotalWagerAtMax = ratFloat(o.RTPTotalWager())
		mc.RTPAnteAtMax = ratFloat(o.RTPAnte())
	} else {
		mc.BindsAbove = nil
	}
	rep.Cap = mc
	return nil
}

// basicNote is the note of the claims decided under the built-in
// strategy fairhold chose (byDefault).
func basicNote(byDefault bool) string {
	if byDefault {
		return "fairhold's default: it reproduces the seeds, it is not published (docs/math.md)"
	}
	return ""
}

// checkClaims checks each published RTP claim to its precision
// (rtp.DecideClaims: under the profile's payout cap; at gives the figures
// at an ante with the cap). The "basic" claims, and the main game's
// "side-bet-optimal" one, are decided under the declared strategy sr
// (byDefault: the built-in one fairhold chose); without it they are
// skipped.
func checkClaims(g *mathGame, o *exact.Outcome, sr *strategy.Result, byDefault, partial bool, at func(int64) (*rtp.Figures, error)) ([]rtp.MathClaim, error) {
	f := &rtp.Figures{Game: g.game, Optimal: o, Basic: sr, BasicNote: basicNote(byDefault)}
	var decided []rtp.Claim
	if !partial {
		var err error
		if decided, err = rtp.DecideClaims(g.game, g.prof.RTPClaims, f, at); err != nil {
			return nil, err
		}
	}
	out := []rtp.MathClaim{}
	for i, cl := range g.prof.RTPClaims {
		mc := rtp.MathClaim{Name: cl.Name, Bet: cl.Bet, Strategy: cl.Strategy, Denominator: cl.Denominator, Claimed: cl.Percent, AtAnte: cl.AtAnte}
		if partial {
			mc.Note, mc.Status = "partial run: not checked", claimSkip
			out = append(out, mc)
			continue
		}
		c := decided[i]
		mc.Computed, mc.ComputedExact, mc.Note = c.Computed, c.ComputedExact, c.Note
		switch c.Status {
		case rtp.ClaimPass:
			mc.Pass, mc.Status = true, claimPass
		case rtp.ClaimFail:
			mc.Status = claimFail
		default:
			mc.Status = claimSkip
		}
		out = append(out, mc)
	}
	return out, nil
}

func pct(f float64, d int) string { return fmt.Sprintf("%.*f%%", d, 100*f) }

func printMath(w io.Writer, r *rtp.MathReport) {
	fmt.Fprintf(w, "%s, profile %s (sha256 %s)\n", r.Game, r.Profile, r.ProfileHash[:16])
	if r.Partial {
		fmt.Fprintf(w, "PARTIAL RUN: %d flop classes of 1,755; figures cover those flops only\n", r.FlopClasses)
	}
	fmt.Fprintf(w, "deals %d; %d suit-isomorphic (hole, flop) states; %.1fs\n\n", r.Deals, r.States, r.Seconds)
	fmt.Fprintf(w, "optimal strategy: call when EV(call) >= -1 ante (a tie calls)\n")
	for _, row := range []struct {
		name string
		n    int64
	}{
		{"fold", r.Fold}, {"call, dealer does not qualify", r.CallDealerNotQualified},
		{"call, player wins", r.CallWin}, {"call, player loses", r.CallLose}, {"call, tie", r.CallTie},
	} {
		fmt.Fprintf(w, "  %-30s %20d  %9s\n", row.name, row.n, pct(float64(row.n)/float64(r.Deals), 4))
	}
	fmt.Fprintf(w, "ante wins by the player's hand:\n")
	cats := hand.Categories()
	for i := len(cats) - 1; i >= 0; i-- {
		fmt.Fprintf(w, "  %-30s %20d\n", cats[i], r.AnteWins[cats[i].String()])
	}
	fmt.Fprintf(w, "player result          %d antes\n", r.PlayerResultAntes)
	fmt.Fprintf(w, "house edge per ante    %s\n", pct(r.HouseEdgePerAnte, 7))
	fmt.Fprintf(w, "RTP per total wager    %s  (ANTE + CALL)\n", pct(r.RTPTotalWager, 5))
	fmt.Fprintf(w, "RTP per ante           %s\n", pct(r.RTPAnte, 5))
	fmt.Fprintf(w, "P(fold)                %s; average wager %.6f antes; std dev %.6f antes per round\n",
		pct(r.PFold, 4), r.AverageWagerAntes, r.StdDevAntes)
	if b := r.AABonus; b != nil {
		fmt.Fprintf(w, "\nAA Bonus (%d winning five-card hands of 2,598,960)\n", b.WinningHands)
		fmt.Fprintf(w, "  every win collected      %s\n", pct(b.RTPCollectAll, 4))
		fmt.Fprintf(w, "  forfeit on fold, optimal %s\n", pct(b.RTPForfeitOptimal, 4))
		if j := b.Joint; j != nil {
			fmt.Fprintf(w, "  jointly optimal with a bonus of %s ante(s): main %s per total wager, bonus %s, combined %s; %d states turn to call\n",
				j.BonusRatio, pct(j.RTPTotalWager, 4), pct(j.RTPAABonus, 4), pct(j.RTPCombined, 4), j.FoldsChanged)
		}
	}
	if c := r.Cap; c != nil {
		fmt.Fprintf(w, "\n%d boxes; each box's figures are the above (own cards and the flop decide)\n", r.Boxes)
		fmt.Fprintf(w, "max payout per box %d (%s); largest win at ante max %d: ", c.MaxPayoutPerBox, c.Scope, c.LargestWin)
		if !c.CanBind {
			fmt.Fprintf(w, "the cap cannot bind\n")
		} else {
			var parts []string
			for _, cat := range hand.Categories() {
				if a, ok := c.BindsAbove[cat.String()]; ok {
					parts = append(parts, fmt.Sprintf("%s above ante %d", cat, a))
				}
			}
			fmt.Fprintf(w, "the cap binds for %s\n", strings.Join(parts, ", "))
			fmt.Fprintf(w, "  at ante max %d with the cap: RTP %s per total wager, %s per ante\n",
				c.AnteMax, pct(c.RTPTotalWagerAtMax, 5), pct(c.RTPAnteAtMax, 5))
		}
	}
	fmt.Fprintf(w, "\nwhere the optimal strategy folds (%% of hole+flop states):\n  by hand on the flop:")
	for _, c := range hand.Categories() {
		if v, ok := r.FoldByFlopHand[c.String()]; ok {
			fmt.Fprintf(w, " %s %.1f;", c, v)
		}
	}
	fmt.Fprintf(w, "\n  by starting hand (suited above the diagonal, offsuit below):\n      ")
	ranks := "AKQJT98765432"
	for _, ch := range ranks {
		fmt.Fprintf(w, "%5c", ch)
	}
	fmt.Fprintln(w)
	for i, ri := range ranks {
		fmt.Fprintf(w, "    %c ", ri)
		for j := range ranks {
			// grid[row][column]: suited hands have the higher rank first,
			// offsuit hands the lower, pairs sit on the diagonal.
			f := r.FoldGrid[12-i][12-j]
			fmt.Fprintf(w, "%5.0f", f.Percent())
		}
		fmt.Fprintln(w)
	}
	if sr := r.Strategy; sr != nil {
		printStrategy(w, sr, r.StrategyByDefault)
	}
	if len(r.Claims) > 0 {
		fmt.Fprintf(w, "\nclaims:\n")
		for _, c := range r.Claims {
			line := fmt.Sprintf("  %-4s %-26s claimed %6s%%", c.Status, c.Name, c.Claimed)
			if c.Computed != "" {
				line += fmt.Sprintf("  computed %s%% (%s%%)", c.Computed, c.ComputedExact)
			}
			if c.Note != "" {
				line += "  " + c.Note
			}
			fmt.Fprintln(w, line)
		}
	}
}

// printStrategy prints the declared strategy's figures.
func printStrategy(w io.Writer, sr *strategy.Result, byDefault bool) {
	how := "--strategy"
	if byDefault {
		how = "the default for the basic-strategy claims; --strategy to choose another"
	}
	fmt.Fprintf(w, "\ndeclared strategy %s (%s), sha256 %.16s:\n", sr.Name, how, sr.SHA256)
	for _, rule := range sr.Rules {
		fmt.Fprintf(w, "  %s\n", rule)
	}
	fmt.Fprintf(w, "  RTP per total wager    %s  (ANTE + CALL)\n", pct(sr.RTPTotalWager, 5))
	fmt.Fprintf(w, "  RTP per ante           %s; house edge per ante %s\n", pct(sr.RTPAnte, 5), pct(sr.HouseEdgePerAnte, 5))
	fmt.Fprintf(w, "  P(fold)                %s; decides %d of %d (hole, flop) states otherwise than the optimal strategy, costing %s per ante\n",
		pct(sr.PFold, 4), sr.DifferFromOptimal, sr.States, pct(sr.ExtraHouseEdge, 5))
	fmt.Fprintf(w, "  AA Bonus, forfeit on fold %s (folds %d of its winning states)\n", pct(sr.BonusRTPForfeit, 4), sr.BonusWinsFolded)
	fmt.Fprintf(w, "  side-bet optimal (call on every bonus win, otherwise this): main %s per total wager, AA Bonus %s\n",
		pct(sr.SideBetOptimal.RTPTotalWager, 5), pct(sr.SideBetOptimal.BonusRTPForfeit, 4))
}
