from double_gen import *

D_BET = "docs/rules/double-holdem.md: Betting"
D_BLIND = "docs/rules/double-holdem.md: Dealer button and blinds"
D_AUTO = "docs/rules/double-holdem.md: Automatic bonus card"
D_HANDS = "docs/rules/double-holdem.md: Cards and hands"
D_POTS = "docs/rules/double-holdem.md: Showdown and pots"
D_SIDE = "docs/rules/double-holdem.md: Showdown and pots (Interpretation: standard side pots)"
D_RAKE = "docs/rules/double-holdem.md: Betting (the rake is a table setting): profile double.rake"
D_STRUCT = "docs/rules/double-holdem.md: Betting (the betting structure is a table setting): profile double.structure"
D_VOID = "docs/rules/double-holdem.md: Time and history (malfunctions void all hands and payouts)"

HU = {1: 'Ah Kd 7c', 2: 'Qs Qh 3d'}
HU_BOARD = 'As 9c 4d 8h 2s'
CHECKDOWN = "1 sb 50, 2 bb 100, 1 c 50, 2 k | 2 k, 1 k | 2 k, 1 k | 2 k, 1 k"

# --- Heads-up -------------------------------------------------------------
double('double-hu-fold-preflop', 'Heads-up: the button posts the small blind and folds; the big blind wins, its unmatched 50 returned.', D_BLIND,
       HU, 1, "1 sb 50, 2 bb 100, 1 f", '', want_winners=[[2]])
double('double-hu-check-down', 'Heads-up check-down: pair of aces (bonus Ah) beats pair of queens.', D_POTS,
       HU, 1, CHECKDOWN, HU_BOARD, want_winners=[[1]])
double('double-hu-bb-raises-fold-flop', 'Big blind raises its option, the flop bet is not called and is returned.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 50, 2 r 200, 1 c 200 | 2 b 300, 1 f", 'As 9c 4d', want_winners=[[2]])
double('double-hu-all-in-preflop', 'Heads-up all-in pre-flop: both get the automatic bonus card; the board runs out.', D_SIDE,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 1950!, 2 c 1900", 'Ks 9c 4d 8h 2s', stacks={1: 2000, 2: 5000}, want_winners=[[1]])
double('double-hu-button-2', 'Heads-up with the button on seat 2: seat 2 posts the small blind and acts first pre-flop, last after the flop.', D_BLIND,
       HU, 2, "2 sb 50, 1 bb 100, 2 c 50, 1 k | 1 b 100, 2 c 100 | 1 k, 2 k | 1 k, 2 k", HU_BOARD, want_winners=[[1]])
double('double-hu-chosen-bonus', 'Players choose their bonus cards: seat 2 picks 3d and plays Qx + 3d, the pairs of queens never play together.', D_HANDS,
       HU, 1, CHECKDOWN, 'Qd 3c 4d 8h 2s', bonus={1: 'Kd', 2: '3d'}, want_winners=[[2]])

# --- Automatic bonus card -----------------------------------------------
AUTO_BOARD = 'Qs 9s 2s 7d 3h'
double('double-auto-bonus-example-kc-ks-6s', 'Worked example: Kc Ks 6s selects Ks (suited with the third card); Ks + 6s makes a spade flush and wins.', D_AUTO,
       {1: 'Kc Ks 6s', 2: 'Ah Ad 8c'}, 1, CHECKDOWN, AUTO_BOARD, auto=(1, 2), want_winners=[[1]])
double('double-auto-bonus-example-ks-kh-6c', 'Worked example: Ks Kh 6c selects Ks (no king suited with 6c; spades highest).', D_AUTO,
       {1: 'Ks Kh 6c', 2: 'Ac Ad 8c'}, 1, CHECKDOWN, 'Qd 9c 2h 7d 3h', auto=(1, 2), want_winners=[[2]])
double('double-auto-bonus-three-of-a-rank', 'Interpretation: three cards of one rank select the highest suit (Kc Kd Kh -> Kh).', D_AUTO,
       {1: 'Kc Kd Kh', 2: 'Ac Ad 8c'}, 1, CHECKDOWN, 'Qd 9c 2h 7d 3h', auto=(1,), want_winners=[[2]])
double('double-auto-bonus-timeout-unlogged', 'A bonus card left empty in the log is selected automatically (Kc Ks 6s -> Ks).', D_AUTO,
       {1: 'Kc Ks 6s', 2: 'Ah Ad 8c'}, 1, CHECKDOWN, AUTO_BOARD, want_winners=[[1]])
double('double-auto-bonus-suit-order-setting', 'With auto_bonus_tie "suit-order", Kc Kh 6c selects Kh (higher suit) instead of Kc (suited with 6c).', D_AUTO,
       {1: 'Kc Kh 6c', 2: 'Ac Ad 8s'}, 1, CHECKDOWN, 'Qd 9c 2h 7d 3h', auto=(1,), patch={'double': {'auto_bonus_tie': 'suit-order'}}, want_winners=[[2]])
double('double-auto-bonus-suited-setting-default', 'Default auto_bonus_tie: Kc Kh 6c selects Kc, suited with 6c.', D_AUTO,
       {1: 'Kc Kh 6c', 2: 'Ac Ad 8s'}, 1, CHECKDOWN, 'Qd 9c 2h 7d 3h', auto=(1,), want_winners=[[2]])
double('double-auto-bonus-flush-matters', 'Kc Kh 6c with a club board: the automatic Kc makes Kc + 6c a flush.', D_AUTO,
       {1: 'Kc Kh 6c', 2: 'Ac Ad 8s'}, 1, CHECKDOWN, 'Qc 9c 2c 7d 3h', auto=(1, 2), want_winners=[[1]])
double('double-auto-bonus-suit-order-reversed', 'A profile suit order "cdhs" (clubs highest): Ks Kh 6d selects... the clubs-first order picks Kh over Ks.', D_AUTO,
       {1: 'Ks Kh 6d', 2: 'Ac Ad 8s'}, 1, CHECKDOWN, 'Qd 9c 2h 7d 3c', auto=(1,), patch={'double': {'suit_order': 'chds'}}, want_winners=[[2]])
double('double-nonbonus-cards-never-together', 'Seat 1 chooses Kc: Ks and 6s, both non-bonus, never play together, so no flush; the aces win.', D_HANDS,
       {1: 'Kc Ks 6s', 2: 'Ah Ad 8c'}, 1, CHECKDOWN, AUTO_BOARD, bonus={1: 'Kc'}, want_winners=[[2]])
double('double-error-bonus-marked-auto-wrong', 'A bonus card marked automatic that the rule would not select (Kc for Kc Ks 6s) is rejected.', D_AUTO,
       {1: 'Kc Ks 6s', 2: 'Ah Ad 8c'}, 1, CHECKDOWN, AUTO_BOARD, bonus={1: 'Kc'}, auto=(1,),
       error={'kind': 'round', 'field': 'double.seats[0].bonus_card', 'reason_contains': 'automatic rule selects Ks'})
double('double-error-bonus-not-held', 'A bonus card that is not one of the player\'s cards is rejected.', D_HANDS,
       {1: 'Kc Ks 6s', 2: 'Ah Ad 8c'}, 1, CHECKDOWN, AUTO_BOARD, bonus={1: 'Qs'},
       error={'kind': 'round', 'field': 'double.seats[0].bonus_card'})
double('double-error-bonus-folded-preflop', 'A player who folded before the flop cannot have chosen a bonus card.', D_HANDS,
       HU, 1, "1 sb 50, 2 bb 100, 1 f", '', bonus={1: 'Ah'}, error={'kind': 'round', 'field': 'double.seats[0].bonus_card'})

# --- Six-way ----------------------------------------------------------------
SIX = {1: '2c 7d 9h', 2: 'Jc Jd 4s', 3: 'Ac Qh 5d', 4: '8c 8d Th', 5: 'Kd 6h 3c', 6: 'As Ts 4c'}
double('double-6way-showdown', 'Six players, button on seat 3: UTG raises, two callers, a flop bet, showdown of two.', D_BET,
       SIX, 3, "4 sb 50, 5 bb 100, 6 r 300, 1 f, 2 c 300, 3 f, 4 f, 5 c 200 | 5 k, 6 b 500, 2 c 500, 5 f | 6 k, 2 k | 6 b 1000, 2 c 1000",
       'Kh 9d 8s 2h 5c', want_winners=[[2]])
double('double-6way-fold-to-big-blind', 'Six players fold to the big blind, who wins the small blind; no flop, no bonus cards.', D_BLIND,
       SIX, 3, "4 sb 50, 5 bb 100, 6 f, 1 f, 2 f, 3 f, 4 f", '', want_winners=[[5]])
double('double-6way-limped-big-blind-checks', 'Six players limp; the big blind checks its option; checked to the river; seat 1\'s bonus 9h makes two pair with 2c (9h 9d 2c 2h).', D_BET,
       SIX, 3, "4 sb 50, 5 bb 100, 6 c 100, 1 c 100, 2 c 100, 3 c 100, 4 c 50, 5 k | 4 k, 5 k, 6 k, 1 k, 2 k, 3 k | 4 k, 5 k, 6 k, 1 k, 2 k, 3 k | 4 k, 5 k, 6 k, 1 k, 2 k, 3 k",
       'Kh 9d 8s 2h 5c', want_winners=[[1]])
double('double-6way-button-wraps', 'Six players with the button on seat 6: seat 1 posts the small blind, seat 3 acts first.', D_BLIND,
       SIX, 6, "1 sb 50, 2 bb 100, 3 r 200, 4 f, 5 f, 6 f, 1 f, 2 c 100 | 2 k, 3 b 300, 2 f", 'Kh 9d 8s', want_winners=[[3]])
double('double-6way-multiway-all-in', 'Six players, four all-in for different amounts (one a short all-in raise): main pot, two side pots, an unmatched 800 returned.', D_SIDE,
       SIX, 3, "4 sb 50, 5 bb 100, 6 r 800!, 1 r 2200!, 2 c 1500!, 3 f, 4 r 2950!, 5 f",
       'Ad Td 8s 3h 5c', stacks={6: 800, 1: 2200, 2: 1500, 4: 3000}, want_winners=[[6], [4], [4]])

# --- Side pots, uncalled bets, splits --------------------------------------
THREE = {1: 'Ah Ad 2c', 2: 'Kh Kd 3c', 3: 'Qh Qd 4c'}
double('double-three-way-all-in-side-pot', 'Three-way all-in 1000 / 3000 / 6000: main pot 3000 to the aces, side pot 4000 to the kings.', D_SIDE,
       THREE, 1, "2 sb 50, 3 bb 100, 1 r 1000!, 2 r 2950!, 3 c 2900", '9s 7c 5h Jd 2s', stacks={1: 1000, 2: 3000, 3: 6000}, want_winners=[[1], [2]])
double('double-three-way-all-in-uncalled', 'Three-way all-in where the largest stake is not matched: 2000 returned, main pot and one side pot.', D_SIDE,
       {1: 'Kh Kd 3c', 2: 'Qh Qd 4c', 3: 'Ah Ad 2c'}, 1, "2 sb 50, 3 bb 100, 1 r 1000!, 2 r 3950!, 3 c 1900!", '9s 7c 5h Jd 2s',
       stacks={1: 1000, 2: 4000, 3: 2000}, want_winners=[[3], [3]])
double('double-three-way-all-in-short-stack-loses', 'Three-way all-in: the short stack loses, the side pot goes to the best of the other two.', D_SIDE,
       {1: 'Qh Qd 4c', 2: 'Ah Ad 2c', 3: 'Kh Kd 3c'}, 1, "2 sb 50, 3 bb 100, 1 r 1000!, 2 r 2950!, 3 c 2900", '9s 7c 5h Jd 2s',
       stacks={1: 1000, 2: 3000, 3: 6000}, want_winners=[[2], [2]])
double('double-all-in-split-two-of-three', 'Three-way all-in for 1000 each: two equal hands split the pot, listed from the button\'s left.', D_SIDE,
       {1: 'Ah 2c 3d', 2: 'Ad 2h 3c', 3: 'Kh Kd 4c'}, 1, "2 sb 50, 3 bb 100, 1 r 1000!, 2 c 950!, 3 c 900", '9s 7c 5h Jd As',
       stacks={1: 1000, 2: 1000, 3: 6000}, want_winners=[[2, 1]])
double('double-split-odd-chip', 'Both remaining players play a royal flush on the board; pot 125 splits 63 / 62, the odd chip to seat 3, first left of the button.', D_POTS,
       {1: '2c 3d 4h', 2: '5c 6d 7h', 3: '8c 9d 2h'}, 1, "2 sb 25, 3 bb 50, 1 c 50, 2 f, 3 k | 3 k, 1 k | 3 k, 1 k | 3 k, 1 k",
       'As Ks Qs Js Ts', patch={'double': {'small_blind': 25, 'big_blind': 50}}, want_winners=[[3, 1]])
double('double-split-three-way-odd-chip', 'Three players tie on the board; pot 700 splits 234 / 233 / 233, the odd chip to seat 2, first left of the button.', D_POTS,
       {1: '2c 3d 4h', 2: '5c 6d 7h', 3: '8c 9d 2h', 4: '3c 4d 5h'}, 1,
       "2 sb 50, 3 bb 100, 4 c 100, 1 c 100, 2 c 50, 3 k | 2 k, 3 k, 4 b 100, 1 f, 2 c 100, 3 c 100 | 2 k, 3 k, 4 k | 2 k, 3 k, 4 k",
       'As Ks Qs Js Ts', want_winners=[[2, 3, 4]])
double('double-split-odd-chip-button-wrap', 'Split of 125 with the button on seat 3: the odd chip goes to seat 1, the first winner to its left.', D_POTS,
       {1: '2c 3d 4h', 2: '5c 6d 7h', 3: '8c 9d 2h'}, 3, "1 sb 25, 2 bb 50, 3 c 50, 1 f, 2 k | 2 k, 3 k | 2 k, 3 k | 2 k, 3 k",
       'As Ks Qs Js Ts', patch={'double': {'small_blind': 25, 'big_blind': 50}}, want_winners=[[2, 3]])
double('double-board-plays', 'The board\'s two pair with an ace kicker plays for both; split pot.', D_POTS,
       {1: '2c 3d 4h', 2: '5c 6d 7h'}, 1, CHECKDOWN, 'Ah Ad Kc Ks Qh', want_winners=[[2, 1]])
double('double-kicker-from-hole', 'Both have two pair on the board; seat 1\'s king kicker (bonus Kd) beats seat 2\'s queen.', D_POTS,
       {1: 'Kd 3c 2h', 2: 'Qd 3d 2d'}, 1, CHECKDOWN, 'Ah Ad 9c 9s 5h', want_winners=[[1]])
double('double-best-of-two-hands', 'Seat 1\'s better hand is bonus + right card (a straight), not bonus + left card.', D_HANDS,
       {1: 'Kc 9h Jd', 2: 'Ac Ad 8s'}, 1, CHECKDOWN, 'Th Qs 2c 9d 3h', bonus={1: 'Kc'}, want_winners=[[1]])

# --- Rake ---------------------------------------------------------------------
RAKE = {'double': {'rake': {'rate_bp': 500, 'cap': 300, 'no_flop_no_drop': True}}}
double('double-rake-percent', 'Rake 5% of a 200 pot is 10; the winner gets 190.', D_RAKE, HU, 1, CHECKDOWN, HU_BOARD, patch=RAKE, want_winners=[[1]])
double('double-rake-rounds-down', 'Rake 5% of a 610 pot is 30.5, rounded down to 30.', D_RAKE,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 50, 2 k | 2 b 205, 1 c 205 | 2 k, 1 k | 2 k, 1 k", HU_BOARD, patch=RAKE, want_winners=[[1]])
double('double-rake-cap', 'Rake 5% of a 20000 pot would be 1000; the cap of 300 applies.', D_RAKE,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 9950!, 2 c 9900!", HU_BOARD, patch=RAKE, want_winners=[[1]])
double('double-rake-no-flop-no-drop', 'No flop, no drop: a hand won before the flop is not raked.', D_RAKE,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 200, 2 f", '', patch=RAKE, want_winners=[[1]])
double('double-rake-no-flop-drop-setting', 'With no_flop_no_drop false, a pre-flop pot of 200 is raked 10.', D_RAKE,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 50, 2 r 100, 1 f", '', patch={'double': {'rake': {'rate_bp': 500, 'cap': 300, 'no_flop_no_drop': False}}}, want_winners=[[2]])
double('double-rake-from-main-pot', 'Rake is taken from the main pot first: three-way all-in, rake 300 (capped) from the 3000 main pot.', D_RAKE,
       THREE, 1, "2 sb 50, 3 bb 100, 1 r 1000!, 2 r 2950!, 3 c 2900", '9s 7c 5h Jd 2s', stacks={1: 1000, 2: 3000, 3: 6000}, patch=RAKE, want_winners=[[1], [2]])
double('double-rake-all-in-preflop-with-flop', 'A hand all-in before the flop that deals the flop is raked (the flop was dealt).', D_RAKE,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 1950!, 2 c 1900", 'Ks 9c 4d 8h 2s', stacks={1: 2000, 2: 5000}, patch=RAKE, want_winners=[[1]])

# --- Betting structures -------------------------------------------------------
PL = {'double': {'structure': 'pot-limit'}}
FL = {'double': {'structure': 'fixed-limit', 'fixed_limit': {'small_bet': 100, 'big_bet': 200, 'max_bets': 4}}}
double('double-pot-limit-max-raise', 'Pot-limit: the small blind raises the pot, to 300; a flop bet of the full pot (600) is legal.', D_STRUCT,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 250, 2 c 200 | 2 b 600, 1 f", 'As 9c 4d', patch=PL, want_winners=[[2]])
double('double-error-pot-limit-raise-over', 'Pot-limit: a raise to 301, one chip over the pot, is illegal.', D_STRUCT,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 251", '', patch=PL, error={'kind': 'action', 'index': 2, 'seat': 1, 'reason_contains': 'pot limit'})
double('double-error-pot-limit-bet-over', 'Pot-limit: a flop bet of 601 into a 600 pot is illegal.', D_STRUCT,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 250, 2 c 200 | 2 b 601", 'As 9c 4d', patch=PL, error={'kind': 'action', 'index': 4, 'seat': 2, 'reason_contains': 'pot limit'})
double('double-pot-limit-reraise', 'Pot-limit re-raise: after a raise to 300, the big blind may re-raise to 900 (pot 400 + call 200 on top of 300).', D_STRUCT,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 250, 2 r 800, 1 f", '', patch=PL, want_winners=[[2]])
double('double-fixed-limit-hand', 'Fixed-limit: small bets pre-flop and on the flop, big bets on the turn and river.', D_STRUCT,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 150, 2 c 100 | 2 b 100, 1 r 200, 2 c 100 | 2 b 200, 1 c 200 | 2 k, 1 b 200, 2 c 200", HU_BOARD, patch=FL, want_winners=[[1]])
double('double-fixed-limit-cap', 'Fixed-limit: blind plus three raises reach the cap of four bets; the fourth raise is illegal.', D_STRUCT,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 150, 2 r 200, 1 r 200, 2 r 200", '', patch=FL, error={'kind': 'action', 'index': 5, 'seat': 2, 'reason_contains': 'cap'})
double('double-fixed-limit-capped-call', 'Fixed-limit: after the cap the last raise is called and the hand goes on.', D_STRUCT,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 150, 2 r 200, 1 r 200, 2 c 100 | 2 k, 1 k | 2 k, 1 k | 2 k, 1 k", HU_BOARD, patch=FL, want_winners=[[1]])
double('double-error-fixed-limit-size', 'Fixed-limit: a pre-flop raise of two small bets at once is illegal.', D_STRUCT,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 250", '', patch=FL, error={'kind': 'action', 'index': 2, 'reason_contains': 'fixed-limit'})
double('double-error-fixed-limit-turn-small-bet', 'Fixed-limit: a turn bet of a small bet (100) is below the big bet.', D_STRUCT,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 50, 2 k | 2 k, 1 k | 2 b 100", 'As 9c 4d 8h', patch=FL, error={'kind': 'action', 'index': 6, 'reason_contains': 'below the minimum'})

# --- All-in for less than a full raise ---------------------------------------------
SHORT = {1: 'Ah Kd 7c', 2: 'Qs Qh 3d', 3: 'Jc Tc 9d'}
double('double-error-short-all-in-does-not-reopen', 'An all-in for less than a full raise does not reopen the betting: the original bettor may not re-raise.', D_BET,
       SHORT, 1, "2 sb 50, 3 bb 100, 1 c 100, 2 c 50, 3 k | 2 k, 3 b 1000, 1 c 1000, 2 r 1400!, 3 r 2000", 'As 9c 4d', stacks={2: 1500},
       error={'kind': 'action', 'index': 9, 'seat': 3, 'reason_contains': 'not reopened'})
double('double-short-all-in-called', 'After a short all-in raise the players who acted call the extra 400; three-way showdown with a side pot.', D_SIDE,
       SHORT, 1, "2 sb 50, 3 bb 100, 1 c 100, 2 c 50, 3 k | 2 k, 3 b 1000, 1 c 1000, 2 r 1400!, 3 c 400, 1 c 400 | 3 k, 1 k | 3 k, 1 k",
       'As 9c 4d 8h 2s', stacks={2: 1500}, want_winners=[[1]])
double('double-full-raise-reopens', 'An all-in that is a full raise reopens the betting: the first bettor may re-raise.', D_BET,
       SHORT, 1, "2 sb 50, 3 bb 100, 1 c 100, 2 c 50, 3 k | 2 k, 3 b 500, 1 c 500, 2 r 1400!, 3 r 2000, 1 f", 'As 9c 4d 8h 2s',
       stacks={2: 1500}, want_winners=[[2]])
double('double-short-all-in-unacted-may-raise', 'After a short all-in, a player who has not yet acted may still raise.', D_BET,
       {1: 'Ah Kd 7c', 2: 'Qs Qh 3d', 3: 'Jc Tc 9d', 4: '5c 5d 6h'}, 1,
       "2 sb 50, 3 bb 100, 4 c 100, 1 c 100, 2 c 50, 3 k | 2 b 1000, 3 r 1400!, 4 r 2400, 1 f, 2 c 1400 | 2 k, 4 k | 2 k, 4 k",
       'As 9c 4d 8h 2s', stacks={3: 1500}, want_winners=[[2], [2]])

# --- Illegal actions ---------------------------------------------------------------
double('double-error-raise-below-minimum', 'Raise to 150 facing the big blind of 100: the minimum raise is to 200.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 100", '', error={'kind': 'action', 'index': 2, 'seat': 1, 'reason_contains': 'below the minimum raise to 200'})
double('double-error-reraise-below-last-raise', 'After a raise of 300 (to 600), a re-raise to 800 is below the minimum re-raise to 900.', D_BET,
       SIX, 3, "4 sb 50, 5 bb 100, 6 r 300, 1 r 600, 2 r 800", '', error={'kind': 'action', 'index': 4, 'seat': 2, 'reason_contains': 'minimum raise to 900'})
double('double-error-bet-below-big-blind', 'A flop bet of 50 is below the minimum bet of one big blind.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 50, 2 k | 2 b 50", 'As 9c 4d', error={'kind': 'action', 'index': 4, 'reason_contains': 'below the minimum'})
double('double-error-out-of-turn-preflop', 'Seat 1 acts before seat 6, who is first to act left of the big blind.', D_BET,
       SIX, 3, "4 sb 50, 5 bb 100, 1 c 100", '', error={'kind': 'action', 'index': 2, 'seat': 1, 'reason_contains': 'out of turn'})
double('double-error-out-of-turn-flop', 'Heads-up after the flop the big blind acts first; the button acting first is out of turn.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 50, 2 k | 1 b 100", 'As 9c 4d', error={'kind': 'action', 'index': 4, 'seat': 1, 'reason_contains': 'out of turn'})
double('double-error-check-facing-bet', 'A check facing a flop bet is illegal.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 50, 2 k | 2 b 200, 1 k", 'As 9c 4d', error={'kind': 'action', 'index': 5, 'seat': 1, 'reason_contains': 'check facing a bet'})
double('double-error-small-blind-checks', 'The small blind may not check facing the big blind.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 k", '', error={'kind': 'action', 'index': 2, 'reason_contains': 'check facing a bet'})
double('double-error-bet-facing-bet', 'A "bet" facing a bet must be a raise.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 50, 2 k | 2 b 200, 1 b 400", 'As 9c 4d', error={'kind': 'action', 'index': 5, 'reason_contains': 'bet facing a bet'})
double('double-error-call-wrong-amount', 'The small blind calling 100 instead of the 50 it owes.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 100", '', error={'kind': 'action', 'index': 2, 'reason_contains': 'want 50'})
double('double-error-more-than-stack', 'A raise larger than the stack.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 600", '', stacks={1: 500}, error={'kind': 'action', 'index': 2, 'reason_contains': 'more than the stack'})
double('double-error-all-in-flag-missing', 'A raise of the whole stack not marked all_in.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 9950", '', error={'kind': 'action', 'index': 2, 'reason_contains': 'all_in is false'})
double('double-error-action-after-hand-over', 'No action may follow the last fold.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 f, 2 k", '', error={'kind': 'action', 'index': 3, 'reason_contains': 'no action expected'})
double('double-error-incomplete-hand', 'The log ends while the big blind still has its option.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 50", '', error={'kind': 'action', 'index': 3, 'seat': 2, 'reason_contains': 'incomplete'})
double('double-error-blind-amount', 'The small blind posted 100 instead of 50.', D_BLIND,
       HU, 1, "1 sb 100, 2 bb 100", '', error={'kind': 'action', 'index': 0})
double('double-error-blind-seat', 'Heads-up the button posts the small blind; seat 2 posting it is wrong.', D_BLIND,
       HU, 1, "2 sb 50, 1 bb 100", '', error={'kind': 'action', 'index': 0, 'reason_contains': 'want small-blind by seat 1'})
double('double-error-wrong-street', 'An action labelled pre-flop after the pre-flop betting closed.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 c 50, 2 k, 2 b 100", '', error={'kind': 'action', 'index': 4, 'reason_contains': 'the hand is on the flop'})
double('double-error-raise-all-others-all-in', 'Raising when every other player is all-in is not allowed; only call or fold.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 950!, 2 r 2000", '', stacks={1: 1000},
       error={'kind': 'action', 'index': 3, 'reason_contains': 'every other player is all-in'})
double('double-error-unknown-kind', 'An unknown action kind is rejected.', D_BET,
       HU, 1, "1 sb 50, 2 bb 100, 1 shove 9950!", '', error={'kind': 'action', 'index': 2, 'reason_contains': 'unknown action kind'})

# --- Malformed hands -----------------------------------------------------------
def set_blinds(r):
    r['double']['small_blind'] = 25
double('double-error-blinds-not-profile', 'The hand\'s blinds differ from the profile\'s.', D_BLIND,
       HU, 1, CHECKDOWN, HU_BOARD, mutate=set_blinds, error={'kind': 'round', 'field': 'double.small_blind'})
double('double-error-short-board', 'A showdown with four board cards cannot be settled.', D_POTS,
       HU, 1, CHECKDOWN, 'As 9c 4d 8h', error={'kind': 'round', 'field': 'board'})
double('double-error-duplicate-card', 'A card dealt twice.', D_HANDS,
       {1: 'Ah Kd 7c', 2: 'Ah Qh 3d'}, 1, CHECKDOWN, '5s 9c 4d 8h 2s', error={'kind': 'round', 'field': 'double.seats[1].cards[0]'})
double('double-error-one-seat', 'A hand needs at least two players.', D_BLIND,
       {1: 'Ah Kd 7c'}, 1, "1 sb 50", '', error={'kind': 'round', 'field': 'double.seats'})
double('double-error-button-empty-seat', 'The button must be on a seated player.', D_BLIND,
       HU, 5, CHECKDOWN, HU_BOARD, error={'kind': 'round', 'field': 'double.button'})
double('double-error-two-hole-cards', 'Each player has three hole cards.', D_HANDS,
       {1: 'Ah Kd', 2: 'Qs Qh 3d'}, 1, CHECKDOWN, HU_BOARD, error={'kind': 'round', 'field': 'double.seats[0].cards'})

# --- Void ------------------------------------------------------------------
double('double-void', 'A malfunction voids the hand: every stack is restored, no pot, no rake.', D_VOID,
       HU, 1, "1 sb 50, 2 bb 100, 1 r 1950!, 2 c 1900", 'Ks 9c 4d 8h 2s', stacks={1: 2000, 2: 5000}, void=True, patch=RAKE)

# --- Short blinds ---------------------------------------------------------------
double('double-bb-all-in-short-blind', 'The big blind has only 60: it is all-in posting; the small blind owes 10 and may only call or fold.', D_SIDE,
       HU, 1, "1 sb 50, 2 bb 60!, 1 c 10", HU_BOARD, stacks={2: 60}, want_winners=[[1]])
double('double-error-raise-over-all-in-blind', 'Facing a big blind that is all-in, the small blind may not raise.', D_BET,
       HU, 1, "1 sb 50, 2 bb 60!, 1 r 200", '', stacks={2: 60}, error={'kind': 'action', 'index': 2, 'reason_contains': 'every other player is all-in'})
double('double-sb-all-in-short-blind', 'The small blind has only 30 and is all-in posting: a main pot of 90 for three and a side pot for the other two.', D_SIDE,
       {1: 'Qh Qd 4c', 2: 'Ah Ad 2c', 3: 'Kh Kd 3c'}, 1, "2 sb 30!, 3 bb 100, 1 c 100, 3 k | 3 k, 1 k | 3 k, 1 k | 3 k, 1 k",
       '9s 7c 5h Jd 2s', stacks={2: 30}, want_winners=[[2], [3]])
# A big blind all-in for less than the full blind: with three players the others still owe the
# full big blind (the standard rule), and the part above the short blind makes a side pot.
SHORT_BB = {1: 'Kh Kd 4c', 2: '3h 3d Tc', 3: 'Ah Ad 3c'}
double('double-bb-short-all-in-three-way', 'Three players, the big blind all-in posting 60: the others must call the full big blind of 100; a main pot of 180 for three and a side pot of 80 for the other two.', D_SIDE,
       SHORT_BB, 1, "2 sb 50, 3 bb 60!, 1 c 100, 2 c 50 | 2 k, 1 k | 2 k, 1 k | 2 k, 1 k",
       '9s 7c 5h Jd 2s', stacks={3: 60}, want_winners=[[3], [1]])
double('double-error-call-short-big-blind', 'Three players, the big blind all-in posting 60: a call of 60 is short; the others owe the full big blind of 100.', D_BET,
       SHORT_BB, 1, "2 sb 50, 3 bb 60!, 1 c 60", '', stacks={3: 60}, error={'kind': 'action', 'index': 2, 'reason_contains': 'call of 60; want 100'})
double('double-error-bonus-without-flop', 'No bonus card can be chosen in a hand that ended before the flop.', D_HANDS,
       HU, 1, "1 sb 50, 2 bb 100, 1 f", '', bonus={2: 'Qs'}, error={'kind': 'round', 'field': 'double.seats[1].bonus_card'})
