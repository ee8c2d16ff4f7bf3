// Package exact computes the exact mathematics of Casino Hold'em: the
// optimal call/fold strategy, the outcome table under any strategy and the
// AA Bonus, as integer counts over all 27,813,810,024,000 deals (the
// player's two cards, the flop, the turn and river, the dealer's two
// cards).
//
// # Method
//
// [Solve] enumerates the 1,755 suit-isomorphic flop classes
// ([FlopClasses]). For each flop and each turn-and-river board it
// evaluates the 1,081 two-card holdings from the 47 unseen cards once
// (incrementally, with [hand.Key]), sorts them by value and sweeps them,
// counting for every holding the dealer hands that do not qualify, lose
// to it, tie or beat it, with per-card corrections for the dealer hands
// that share a card with it. Boards that a suit relabelling fixing the
// flop maps onto each other are swept once. The counts of each (hole,
// flop) state over its 1,070,190 completions are kept per the player's
// final hand category, because the ante pays by category; they do not
// depend on any paytable.
//
// [Tally] turns the counts into an [Outcome] for a [Strategy] and a
// paytable ([Params]): [Optimal] calls exactly when EV(call) is at least
// the -1 ante of folding (a tie calls), decided in integers;
// [JointOptimal] adds a forfeitable AA Bonus to the decision.
// [CountBonus] counts the AA Bonus directly over the 2,598,960 five-card
// hands. [WriteStrategy] writes every state's decision and exact EV(call)
// as Parquet; [Canonical] maps any (hole, flop) to its state.
//
// docs/math.md describes the method, its cost and the figures.
package exact
