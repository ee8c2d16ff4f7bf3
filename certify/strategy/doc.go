// Package strategy reads Casino Hold'em player strategies written as
// readable rules, gives each a canonical text and a SHA-256, and computes
// its exact figures over every deal with the solver of [exact].
//
// A strategy decides, from the player's two hole cards and the flop,
// whether to call (2 antes) or fold. The rules are tried in order; the
// first whose condition holds decides; the last rule says what to do when
// none does:
//
//	# comments run from '#' to the end of the line
//	call if paired hole card or two pair or better
//	call if hole card J or better
//	call if four to a flush; call if straight draw   # ';' also ends a rule
//	otherwise fold
//
// Start with [Load] (a built-in name, [Names], or a file) or [Parse], then
// [Evaluate] over the states of an [exact.Solve] for the exact RTP of the
// main game and of the AA Bonus under forfeit-on-fold. [Strategy.Call]
// decides one deal's hole cards and flop.
//
// # Grammar
//
//	strategy  = { rule sep } last [ sep ]
//	rule      = ( "call" | "fold" ) "if" condition
//	last      = "otherwise" ( "call" | "fold" )
//	condition = conjunct { "or" conjunct }
//	conjunct  = term { "and" term }
//	term      = [ "not" ] phrase
//	sep       = ";" | line break
//
// "and" binds tighter than "or". A phrase is one of a fixed vocabulary,
// listed with its meaning in docs/math.md ("pair or better", "hole card K
// or better", "four to a flush", "open-ended straight draw", "board pair",
// "kicker T or better", "hole AKs", ...). Words are separated by spaces or
// tabs; keywords and ranks may be in either case. Every condition is
// unchanged by a relabelling of the suits, which is what lets [Evaluate]
// decide each suit-isomorphic state of the solver once.
//
// # Errors
//
// [Parse] is strict: an unknown word, a missing or misplaced "otherwise",
// text after it, invalid UTF-8 or control characters are [*ParseError]s
// naming the rule, the line and column, the offending word and what was
// expected there. It never panics (FuzzParse).
//
// # Identity
//
// [Strategy.Canonical] is one rule a line in the canonical spelling, no
// comments; [Strategy.Hash] is the hex SHA-256 of it. Parse(Canonical())
// gives the same canonical text, so two texts that differ only in
// spacing, case, comments or separators have the same hash.
package strategy
