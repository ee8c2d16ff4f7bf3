from casino_gen import *

R_TABLE = "docs/rules/casino-holdem.md: Settlement after CALL, results table"
R_ANTE = "docs/rules/casino-holdem.md: Paytables, Ante paytable"
R_BONUS = "docs/rules/casino-holdem.md: Paytables, AA Bonus paytable"
R_QUAL = "docs/rules/casino-holdem.md: The dealer qualifies with a pair of 4s or better"
R_KICK = "docs/rules/casino-holdem.md: Deck and ranking (only the best five cards count; suits never break ties)"
R_FOLD = "docs/rules/casino-holdem.md: Flow 3 (FOLD loses ANTE and AA BONUS and forfeits AA Bonus winnings)"
R_ADJ = "docs/rules/casino-holdem.md: Bets, Auto-adjust"
R_VOID = "docs/rules/casino-holdem.md: Other rules (malfunction: bets void and refunded)"
R_UNF = "docs/rules/casino-holdem.md: Other rules (unfinished rounds are the operator's terms: profile unfinished_round)"
L_SETTLE = "docs/rules/live-casino-holdem.md: Settlement"
L_CAP = "docs/rules/live-casino-holdem.md: Settlement (Max Payout; Interpretation: the cap applies to the winnings)"
L_PAY = "docs/rules/live-casino-holdem.md: Paytable (ANTE)"
L_VOID = "docs/rules/live-casino-holdem.md: Misdeals (re-deal: the round is void)"
L_TABLE = "docs/rules/live-casino-holdem.md: Table (at most 6 boxes, shared dealer hand and board)"

# --- Results table -------------------------------------------------------
one('casino-table-dealer-not-qualified-high-card', 'Dealer high card (not qualified), player high card: ANTE paid 1:1, CALL returned.', R_TABLE,
    S('As Kd'), S('7c 2d'), S('Qh 9s 5c 3d Jh'), want=('dealer-not-qualified', 'high-card'))
one('casino-table-dealer-not-qualified-player-loses-hand', 'Dealer not qualified pays ANTE even when the dealer\'s high card beats the player\'s.', R_TABLE,
    S('6c 2h'), S('Ac 3d'), S('Qh 9s 5c Td Jh'), want=('dealer-not-qualified', 'high-card'))
one('casino-table-dealer-not-qualified-flush', 'Dealer not qualified, player flush: ANTE paid 2:1, CALL returned.', R_TABLE,
    S('Ac 9c'), S('7d 2d'), S('Kc 6c 3c Qh Js'), want=('dealer-not-qualified', 'flush'))
one('casino-table-dealer-not-qualified-full-house', 'Dealer not qualified, player full house: ANTE paid 3:1, CALL returned.', R_TABLE,
    S('Kc Kd'), S('8s 2d'), S('Kh 3c 3d 9s Qh'), want=('dealer-not-qualified', 'full-house'))
one('casino-table-dealer-not-qualified-royal-flush', 'Dealer not qualified, player royal flush: ANTE paid 100:1, CALL returned.', R_TABLE,
    S('As Ks'), S('8c 2d'), S('Qs Js Ts 6h 3c'), want=('dealer-not-qualified', 'royal-flush'))
one('casino-table-tie', 'Dealer qualifies, equal hands: ANTE and CALL returned.', R_TABLE,
    S('2c 3d'), S('4c 5d'), S('Ah Kh Qd Jc Ts'), want=('tie', 'straight'))
one('casino-table-player-better', 'Dealer qualifies, player better: ANTE per paytable (straight 1:1), CALL 1:1.', R_TABLE,
    S('Tc 9d'), S('Kc 4d'), S('8h 7s 6c Kd 2h'), want=('player-won', 'straight'))
one('casino-table-dealer-better', 'Dealer qualifies, dealer better: ANTE and CALL lost.', R_TABLE,
    S('Qc 7d'), S('Kc 6h'), S('Jh Jd 8c 5s 2h'), want=('dealer-won', 'one-pair'))

# --- Ante paytable, each line, player beats a qualified dealer ------------
one('casino-ante-royal-flush', 'Royal flush pays 100:1 on ANTE.', R_ANTE, S('As Ks'), S('4c 9h'), S('Qs Js Ts 4d 2c'), want=('player-won', 'royal-flush'))
one('casino-ante-straight-flush', 'Straight flush pays 20:1 on ANTE.', R_ANTE, S('9h 8h'), S('4c Qd'), S('7h 6h 5h 4d Kc'), want=('player-won', 'straight-flush'))
one('casino-ante-straight-flush-wheel', 'Five-high straight flush (A-2-3-4-5) pays 20:1.', R_ANTE, S('Ad 2d'), S('Kc Kh'), S('3d 4d 5d 9s Ks'), want=('player-won', 'straight-flush'))
one('casino-ante-four-of-a-kind', 'Four of a kind pays 10:1 on ANTE.', R_ANTE, S('Qc Qd'), S('4c 9s'), S('Qh Qs 7c 4d 2h'), want=('player-won', 'four-of-a-kind'))
one('casino-ante-full-house', 'Full house pays 3:1 on ANTE.', R_ANTE, S('Kc Kd'), S('3c 9s'), S('Kh 7c 7d 3s 2h'), want=('player-won', 'full-house'))
one('casino-ante-flush', 'Flush pays 2:1 on ANTE.', R_ANTE, S('Ac 9c'), S('5s Jd'), S('Kc 7c 2c 5d 8h'), want=('player-won', 'flush'))
one('casino-ante-straight', 'Straight pays 1:1 on ANTE.', R_ANTE, S('Tc 9d'), S('Kc 4d'), S('8h 7s 6c Kd 2h'), ante=250, want=('player-won', 'straight'))
one('casino-ante-wheel-straight', 'Five-high straight (ace low) pays 1:1.', R_ANTE, S('Ah 5d'), S('Kc Kd'), S('2c 3d 4h 9s Jc'), want=('player-won', 'straight'))
one('casino-ante-three-of-a-kind', 'Three of a kind pays 1:1 (straight or less).', R_ANTE, S('8c 8d'), S('4d 9s'), S('8h Ks 4c Jd 2h'), want=('player-won', 'three-of-a-kind'))
one('casino-ante-two-pair', 'Two pair pays 1:1 (straight or less).', R_ANTE, S('Kc 4h'), S('4d 9s'), S('Ks 4c Jd 8h 2s'), want=('player-won', 'two-pair'))
one('casino-ante-one-pair', 'One pair pays 1:1 (straight or less).', R_ANTE, S('Jc Th'), S('4d 9s'), S('Js 4c 8d 6h 2s'), want=('player-won', 'one-pair'))
one('casino-ante-odd-stake', 'An odd ANTE of 137: flush pays 2:1 exactly (411), CALL 274 paid 1:1.', R_ANTE, S('Ac 9c'), S('5s Jd'), S('Kc 7c 2c 5d 8h'), ante=137, want=('player-won', 'flush'))

# --- Qualifier boundary --------------------------------------------------
one('casino-qualifier-pair-of-3s', 'Dealer pair of 3s does not qualify: ANTE paid, CALL returned.', R_QUAL, S('5c 5d'), S('3c 8d'), S('3h Ks 9c 6d 2s'), want=('dealer-not-qualified', 'one-pair'))
one('casino-qualifier-pair-of-4s', 'Dealer pair of 4s qualifies; player pair of 5s wins: CALL paid 1:1.', R_QUAL, S('5c 5d'), S('4c 8d'), S('4h Ks 9c 6d 2s'), want=('player-won', 'one-pair'))
one('casino-qualifier-pair-of-4s-beats-3s', 'Dealer pair of 4s qualifies and beats the player\'s pair of 3s.', R_QUAL, S('3c 3d'), S('4c 8d'), S('4h Ks 9c 6d 2s'), want=('dealer-won', 'one-pair'))
one('casino-qualifier-pair-of-2s', 'Dealer pair of 2s does not qualify.', R_QUAL, S('Ac Jd'), S('2c 8d'), S('2h Ks 9c 6d 4s'), want=('dealer-not-qualified', 'high-card'))
one('casino-qualifier-board-pair-of-4s', 'A pair of 4s on the board qualifies the dealer; the player\'s ace kicker wins.', R_QUAL, S('Ac 6d'), S('7c 8d'), S('4h 4s Kc 9d 2c'), want=('player-won', 'one-pair'))
one('casino-qualifier-board-pair-of-3s', 'A pair of 3s on the board does not qualify the dealer.', R_QUAL, S('Ac 6d'), S('7c 8d'), S('3h 3s Kc 9d 2c'), want=('dealer-not-qualified', 'one-pair'))
one('casino-qualifier-ace-high', 'Dealer ace-king high does not qualify.', R_QUAL, S('Qc Jd'), S('Ac Kd'), S('8h 7s 3c 2d 5h'), want=('dealer-not-qualified', 'high-card'))

# --- Kickers and board plays ------------------------------------------------
one('casino-kicker-player-wins', 'Same pair, the player\'s ace kicker beats the dealer\'s king.', R_KICK, S('Ac 7d'), S('Kc 7h'), S('Jh Jd 8c 5s 2h'), want=('player-won', 'one-pair'))
one('casino-kicker-dealer-wins', 'Same pair, the dealer\'s king kicker beats the player\'s queen.', R_KICK, S('Qc 7d'), S('Kc 6h'), S('Jh Jd 8c 5s 2h'), want=('dealer-won', 'one-pair'))
one('casino-kicker-fifth-card-decides', 'Same pair and three kickers, the fifth card decides (8 beats 7).', R_KICK, S('Kc 8d'), S('Kd 7c'), S('Jh Jd Ac 3s 2h'), want=('player-won', 'one-pair'))
one('casino-kicker-sixth-card-ignored', 'Hands equal in the best five cards tie; the sixth card does not count.', R_KICK, S('Kc 3d'), S('Kd 2c'), S('Jh Jd Ac 9s 8h'), want=('tie', 'one-pair'))
one('casino-kicker-two-pair', 'Same two pair, the kicker decides.', R_KICK, S('Ac 3d'), S('Qc 4d'), S('Ks Kd 7h 7c 2s'), want=('player-won', 'two-pair'))
one('casino-kicker-counterfeited-pair', 'The player\'s pair of 5s is counterfeited by two pairs on the board; the dealer\'s queen kicker wins.', R_KICK, S('5c 5d'), S('Qc 4d'), S('Ks Kd 7h 7c 2s'), want=('dealer-won', 'two-pair'))
one('casino-board-plays-straight', 'Both play the board\'s broadway straight: tie.', R_KICK, S('2c 3d'), S('4c 5d'), S('Ah Kh Qd Jc Ts'), want=('tie', 'straight'))
one('casino-board-plays-full-house', 'Both play the board\'s full house: tie.', R_KICK, S('2c 3c'), S('4h 5h'), S('9s 9h 9d Kc Kd'), want=('tie', 'full-house'))
one('casino-board-plays-flush-suits-ignored', 'Both make the same ranks; suits never break ties.', R_KICK, S('Ac Qd'), S('Ad Qc'), S('Kh Jh 9s 5c 2d'), want=('dealer-not-qualified', 'high-card'))
one('casino-tie-same-ranks-different-suits', 'Same two pair with the same kicker from different suits: tie.', R_KICK, S('Ac Kd'), S('Ad Kc'), S('Ah Ks 7c 5d 2h'), want=('tie', 'two-pair'))
one('casino-wheel-loses-to-six-high', 'A five-high straight loses to a six-high straight.', R_KICK, S('Ah 5d'), S('5s 6s'), S('2c 3d 4h 9s Kc'), want=('dealer-won', 'straight'))
one('casino-flush-ace-beats-king', 'Ace-high flush beats king-high flush.', R_KICK, S('Ah 2h'), S('Kh 3h'), S('Qh 9h 5h 7c 8d'), want=('player-won', 'flush'))
one('casino-full-house-trips-decide', 'Full houses: the three of a kind decides (kings full beats queens full).', R_KICK, S('Kc Kd'), S('Qc Qd'), S('Kh Qh 7s 7d 2c'), want=('player-won', 'full-house'))
one('casino-quads-kicker', 'Board quads: the kicker decides.', R_KICK, S('Ac 2d'), S('Kc 3d'), S('9s 9h 9d 9c 5h'), want=('player-won', 'four-of-a-kind'))

# --- AA Bonus --------------------------------------------------------------
def bonus(id, desc, cards, flop, turnriver, dealer, want_b, decision='call', **kw):
    one(id, desc, R_BONUS, S(cards), S(dealer), S(flop) + S(turnriver) if decision == 'call' or turnriver else S(flop),
        bonus=kw.pop('bonus', 100), decision=decision, **kw)
    v = json.load(open(f"{OUT}/{id}.json"))
    if 'boxes' in v['expect']:
        got = v['expect']['boxes'][0]
        assert got['bonus_reason'] == want_b[0], (id, got)
        assert got['bonus_return'] == want_b[1], (id, got)

bonus('casino-bonus-pair-of-kings-loses', 'AA Bonus: a pair of kings loses.', 'Kc Kd', '7h 4s 2c', '9d Jh', '3c 5d', ('bonus-lost', 0))
bonus('casino-bonus-pair-of-aces', 'AA Bonus: a pair of aces pays 7:1.', 'Ac Ad', '7h 4s 2c', '9d Jh', '3c 5d', ('bonus-won', 800))
bonus('casino-bonus-pair-of-aces-one-on-flop', 'AA Bonus: one ace in hand, one on the flop, pays 7:1.', 'Ac 9d', 'Ah 5s 2c', 'Td Jh', '3c 6d', ('bonus-won', 800))
bonus('casino-bonus-pair-of-aces-on-flop', 'AA Bonus: a pair of aces on the flop alone counts (2 cards + flop).', '9c 8d', 'Ah As 2c', 'Td Jh', '3c 6d', ('bonus-won', 800))
bonus('casino-bonus-two-pair', 'AA Bonus: two pair pays 7:1.', 'Kc 7d', 'Kh 7s 2c', '9d Jh', '3c 5d', ('bonus-won', 800))
bonus('casino-bonus-two-pair-low', 'AA Bonus: two pair below aces (3s and 2s) still pays 7:1.', '3c 2d', '3h 2s Kc', '9d Jh', '4c 5d', ('bonus-won', 800))
bonus('casino-bonus-three-of-a-kind', 'AA Bonus: three of a kind pays 7:1.', '9c 9d', '9h 5s 2c', 'Td Jh', '3c 6d', ('bonus-won', 800))
bonus('casino-bonus-straight', 'AA Bonus: a straight pays 7:1.', '5c 6d', '7h 8s 9c', '2d Jh', '3c Kd', ('bonus-won', 800))
bonus('casino-bonus-wheel', 'AA Bonus: a five-high straight pays 7:1.', 'Ac 2d', '3h 4s 5c', '9d Jh', '7c Kd', ('bonus-won', 800))
bonus('casino-bonus-flush', 'AA Bonus: a flush pays 25:1.', 'Ac 9c', 'Kc 7c 2c', '5d 8h', '5s Jd', ('bonus-won', 2600))
bonus('casino-bonus-full-house', 'AA Bonus: a full house pays 25:1 (flush or better).', 'Kc Kd', 'Kh 7s 7c', '5d 8h', '5s Jd', ('bonus-won', 2600))
bonus('casino-bonus-four-of-a-kind', 'AA Bonus: four of a kind pays 25:1.', '7c 7d', '7h 7s 2c', '5d 8h', '5s Jd', ('bonus-won', 2600))
bonus('casino-bonus-straight-flush', 'AA Bonus: a straight flush pays 25:1.', '5h 6h', '7h 8h 9h', '2d Jc', '3c Kd', ('bonus-won', 2600))
bonus('casino-bonus-royal-flush', 'AA Bonus: a royal flush pays 25:1.', 'Ah Kh', 'Qh Jh Th', '2d 3c', '4c 8d', ('bonus-won', 2600))
bonus('casino-bonus-high-card', 'AA Bonus: ace-king high loses.', 'Ac Kd', '9h 5s 2c', 'Td 8h', '3c 6d', ('bonus-lost', 0))
bonus('casino-bonus-ace-on-turn-loses', 'AA Bonus: an ace paired on the turn does not count (decided on the flop).', 'Ac Kd', '9h 5s 2c', 'Ah 8h', '3c 6d', ('bonus-lost', 0))
bonus('casino-bonus-pair-of-nines-on-flop', 'AA Bonus: a pair of 9s on the flop loses.', 'Ac Kd', '9h 9s 2c', 'Td 8h', '3c 6d', ('bonus-lost', 0))
bonus('casino-bonus-paid-when-main-loses', 'AA Bonus win is paid even when ANTE and CALL lose to the dealer.', 'Ac Ad', '7h 4s 2c', '9d 9h', '9c 9s', ('bonus-won', 800))
bonus('casino-bonus-fold-forfeits-win', 'FOLD after an AA Bonus win forfeits it: ANTE and AA BONUS lost.', 'Ac Ad', '7h 4s 2c', '', '', ('bonus-forfeited', 0), decision='fold')
bonus('casino-bonus-fold-no-forfeit-setting', 'With aa_bonus.forfeit_on_fold false, a fold still collects the AA Bonus win.', 'Ac Ad', '7h 4s 2c', '', '', ('bonus-won', 800), decision='fold',
      patch={'casino': {'aa_bonus': {'forfeit_on_fold': False}}})
bonus('casino-bonus-fold-losing-bonus', 'FOLD with a losing AA Bonus: everything lost.', 'Kc Qd', '7h 4s 2c', '', '', ('bonus-forfeited', 0), decision='fold')
bonus('casino-bonus-odd-stake', 'AA Bonus stake 123 on a flush: 123 + 25 x 123 = 3198.', 'Ac 9c', 'Kc 7c 2c', '5d 8h', '5s Jd', ('bonus-won', 3198), bonus=123)
bonus('casino-bonus-auto-adjust', 'AA Bonus requested 25000 above the 10000 maximum is reduced to 10000; pair of aces pays 80000.', 'Ac Ad', '7h 4s 2c', '9d Jh', '3c 5d', ('bonus-won', 80000), bonus=10000, bonus_requested=25000)
bonus('casino-bonus-custom-paytable', 'A profile with the live-dealer AA Bonus table (RF 100, SF 50, quads 40, FH 30, flush 20, 7 otherwise): full house pays 30:1.', 'Kc Kd', 'Kh 7s 7c', '5d 8h', '5s Jd', ('bonus-won', 3100),
      patch={'casino': {'aa_bonus': {'paytable': {'royal-flush': 100, 'straight-flush': 50, 'four-of-a-kind': 40, 'full-house': 30, 'flush': 20}}}})

# --- Fold, unfinished, void, auto-adjust --------------------------------------------
one('casino-fold', 'FOLD: ANTE lost, no CALL; the turn, river and dealer cards are not needed.', R_FOLD, S('7c 2d'), [], S('Kh 9s 4c'), decision='fold', want=('fold', ''))
one('casino-fold-full-board', 'FOLD with the full board logged: ANTE lost whatever the cards.', R_FOLD, S('7c 2d'), S('3c 5d'), S('Kh 9s 4c Qd 8h'), decision='fold', want=('fold', ''))
one('casino-unfinished-default-fold', 'Unfinished round under the default policy (fold): ANTE lost.', R_UNF, S('Ac Ad'), [], S('Kh 9s 4c'), decision='', bonus=100, want=('fold', '', 'bonus-forfeited'))
one('casino-unfinished-policy-call', 'Unfinished round with unfinished_round "call": settled as a CALL.', R_UNF, S('Ac Ad'), S('3c 5d'), S('Kh 9s 4c Qd 8h'), decision='', bonus=100,
    patch={'casino': {'unfinished_round': 'call'}}, want=('dealer-not-qualified', 'one-pair', 'bonus-won'))
one('casino-unfinished-policy-void', 'Unfinished round with unfinished_round "void": every stake returned.', R_UNF, S('Ac Ad'), [], S('Kh 9s 4c'), decision='', bonus=100,
    patch={'casino': {'unfinished_round': 'void'}}, want=('void', '', 'void'))
one('casino-void-after-call', 'Void round (malfunction) after CALL: ANTE, CALL and AA BONUS returned, nothing paid.', R_VOID, S('As Ks'), S('4c 9h'), S('Qs Js Ts 4d 2c'), bonus=100, void=True, want=('void', '', 'void'))
one('casino-void-after-fold', 'Void round after a fold: ANTE and AA BONUS returned.', R_VOID, S('7c 2d'), [], S('Kh 9s 4c'), decision='fold', bonus=100, void=True, want=('void', '', 'void'))
one('casino-void-no-cards', 'Void round with no cards logged (malfunction before the deal): stakes returned.', R_VOID, [], [], [], decision='', void=True, want=('void', ''))
one('casino-auto-adjust-ante', 'ANTE requested 70000 above the 50000 maximum is reduced to 50000; CALL is 100000.', R_ADJ, S('Tc 9d'), S('Kc 4d'), S('8h 7s 6c Kd 2h'), ante=50000, ante_requested=70000, want=('player-won', 'straight'))
one('casino-auto-adjust-at-max', 'ANTE requested exactly at the maximum is accepted as is.', R_ADJ, S('Tc 9d'), S('Kc 4d'), S('8h 7s 6c Kd 2h'), ante=50000, want=('player-won', 'straight'))
one('casino-accepted-stake-without-request', 'Only the accepted ANTE is logged (ante_requested 0): it is used as is.', R_ADJ, S('Tc 9d'), S('Kc 4d'), S('8h 7s 6c Kd 2h'), ante=300, no_request=True, want=('player-won', 'straight'))
one('casino-call-multiple-setting', 'A profile with call_multiple 3: CALL = 3 x ANTE, paid 1:1.', "profile casino.call_multiple", S('Tc 9d'), S('Kc 4d'), S('8h 7s 6c Kd 2h'),
    patch={'casino': {'call_multiple': 3}}, want=('player-won', 'straight'))
one('casino-call-lost-when-not-qualified-setting', 'With call_push_when_dealer_not_qualified false, CALL is lost when the dealer does not qualify.', "profile casino.call_push_when_dealer_not_qualified",
    S('As Kd'), S('7c 2d'), S('Qh 9s 5c 3d Jh'), patch={'casino': {'call_push_when_dealer_not_qualified': False}}, want=('dealer-not-qualified', 'high-card'))
one('casino-dealer-qualifier-setting', 'A profile whose dealer qualifies on ace-king or better: ace-king high qualifies.', "profile casino.dealer_qualifier",
    S('Qc Jd'), S('Ac Kd'), S('8h 7s 3c 2d 5h'), patch={'casino': {'dealer_qualifier': {'category': 'high-card', 'pair': None}}}, want=('dealer-won', 'high-card'))

# --- Errors ---------------------------------------------------------------
def err(id, desc, rule, cards, dealer, board, error, **kw):
    one(id, desc, rule, cards, dealer, board, error=error, **kw)

err('casino-error-auto-adjust-reject', 'With auto_adjust "reject", an ANTE request above the maximum is refused.', R_ADJ, S('Tc 9d'), S('Kc 4d'), S('8h 7s 6c Kd 2h'),
    {'kind': 'round', 'field': 'boxes[0].ante', 'reason_contains': 'above the maximum'}, ante=50000, ante_requested=70000, patch={'casino': {'auto_adjust': 'reject'}})
err('casino-error-ante-below-min', 'An ANTE request below the minimum is not a valid bet.', R_ADJ, S('Tc 9d'), S('Kc 4d'), S('8h 7s 6c Kd 2h'),
    {'kind': 'round', 'field': 'boxes[0].ante', 'reason_contains': 'below the minimum'}, ante=50)
err('casino-error-accepted-above-max', 'An accepted ANTE above the maximum (no request logged) is against the profile.', R_ADJ, S('Tc 9d'), S('Kc 4d'), S('8h 7s 6c Kd 2h'),
    {'kind': 'round', 'field': 'boxes[0].ante', 'reason_contains': 'outside the limits'}, ante=60000, no_request=True)
err('casino-error-duplicate-card', 'A card dealt twice (player and board) is rejected.', "docs/rules/casino-holdem.md: one 52-card deck", S('As Kd'), S('7c 2d'), S('As 9s 5c 3d Jh'),
    {'kind': 'round', 'field': 'board[0]', 'reason_contains': 'dealt twice'})
err('casino-error-bad-card', 'A malformed card is rejected with its field.', "round record", S('As 1d'), S('7c 2d'), S('Qh 9s 5c 3d Jh'),
    {'kind': 'round', 'field': 'boxes[0].cards[1]'})
err('casino-error-bad-decision', 'A decision other than call, fold or "" is rejected.', "round record", S('As Kd'), S('7c 2d'), S('Qh 9s 5c 3d Jh'),
    {'kind': 'round', 'field': 'boxes[0].decision'}, decision='raise')
err('casino-error-missing-dealer', 'A CALL without the dealer\'s two cards cannot be settled.', "round record", S('As Kd'), [], S('Qh 9s 5c 3d Jh'),
    {'kind': 'round', 'field': 'dealer'})
err('casino-error-short-board', 'A CALL with four board cards cannot be settled.', "round record", S('As Kd'), S('7c 2d'), S('Qh 9s 5c 3d'),
    {'kind': 'round', 'field': 'board'})
err('casino-error-profile-not-monotone', 'A profile whose flush pays less than a straight is invalid.', "issue: profiles are validated on load", S('As Kd'), S('7c 2d'), S('Qh 9s 5c 3d Jh'),
    {'kind': 'profile', 'field': 'casino.ante_paytable.flush', 'reason_contains': 'not monotone'}, patch={'casino': {'ante_paytable': {'flush': 0}}})
err('casino-error-profile-overflow', 'A profile whose largest return overflows int64 is invalid.', "issue: a multiplier that would overflow is an error", S('As Kd'), S('7c 2d'), S('Qh 9s 5c 3d Jh'),
    {'kind': 'profile', 'field': 'casino.limits.ante_max', 'reason_contains': 'overflows'}, patch={'casino': {'limits': {'ante_max': 4000000000000000000}}})
err('casino-error-game-mismatch', 'A live-table round settled under the RNG profile is rejected.', "round record", S('As Kd'), S('7c 2d'), S('Qh 9s 5c 3d Jh'),
    {'kind': 'round', 'field': 'game'}, game='live-casino-holdem')

# --- Live table --------------------------------------------------------------
def live(id, desc, rule, boxes, dealer, board, want=None, **kw):
    casino(id, desc, rule, boxes, S(dealer), S(board), profile='live-casino-holdem', want=want, **kw)

def B(n, cards, ante=500, decision='call', **kw):
    return {'box': n, 'cards': S(cards), 'ante': ante, 'decision': decision, **kw}

live('live-six-boxes-dealer-qualifies', 'Six boxes against a dealer with a pair of jacks: each box settled on its own.', L_TABLE,
     [B(1, 'Ac Kc'), B(2, '2c 3d'), B(3, 'Jc Qd'), B(4, '9h 8h'), B(5, '7c 7s', decision='fold'), B(6, 'Jh 5d')],
     'Js Td', 'Kh 6h 4h Jd 2s',
     want=[('player-won', 'one-pair'), ('dealer-won', 'one-pair'), ('player-won', 'one-pair'), ('player-won', 'flush'), ('fold', ''), ('dealer-won', 'one-pair')])
live('live-six-boxes-dealer-not-qualified', 'Six boxes, dealer not qualified: every calling box\'s ANTE paid per the paytable and BET returned.', L_SETTLE,
     [B(1, 'Ac Kc'), B(2, '2c 3d'), B(3, 'Jc Qd'), B(4, '9h 8h'), B(5, '7c 7s'), B(6, '5d 5c', decision='fold')],
     'Js Td', 'Kh 6h 4h Qs 2s',
     want=[('dealer-not-qualified', 'one-pair'), ('dealer-not-qualified', 'one-pair'), ('dealer-not-qualified', 'one-pair'), ('dealer-not-qualified', 'flush'), ('dealer-not-qualified', 'one-pair'), ('fold', '')])
live('live-below-pair-of-4s-pays-1-to-1', 'Interpretation: dealer not qualified, box with high card: ANTE pays 1:1 (ante_below_min_hand_pays 1).', L_PAY,
     [B(1, 'Ac 9d')], '7c 2d', 'Qh Ts 5c 3d Jh', want=[('dealer-not-qualified', 'high-card')])
live('live-pair-of-3s-pays-1-to-1', 'Interpretation: dealer not qualified, box with a pair of 3s (below the paytable\'s pair of 4s) pays 1:1.', L_PAY,
     [B(1, '3c 3s')], '7c 2d', 'Qh Ts 5c 4d 8h', want=[('dealer-not-qualified', 'one-pair')])
live('live-below-pair-of-4s-setting-push', 'With ante_below_min_hand_pays 0, a high-card box is only returned its ANTE when the dealer does not qualify.', L_PAY,
     [B(1, 'Ac 9d')], '7c 2d', 'Qh Ts 5c 3d Jh', patch={'casino': {'ante_below_min_hand_pays': 0}}, want=[('dealer-not-qualified', 'high-card')])
live('live-bet-push-interpretation', 'Interpretation: dealer not qualified, BET is returned (push).', L_SETTLE,
     [B(1, 'Kc Kd')], '8s 2d', 'Kh 3c 3d 9s Qh', want=[('dealer-not-qualified', 'full-house')])
live('live-bet-lost-setting', 'With call_push_when_dealer_not_qualified false the BET is lost when the dealer does not qualify.', L_SETTLE,
     [B(1, 'Kc Kd')], '8s 2d', 'Kh 3c 3d 9s Qh', patch={'casino': {'call_push_when_dealer_not_qualified': False}}, want=[('dealer-not-qualified', 'full-house')])
live('live-standoff', 'Exactly equal five-card hands: stand-off, ANTE and BET returned.', L_SETTLE,
     [B(1, '2c 3d'), B(2, '2d 3c')], '4c 5d', 'Ah Kh Qd Jc Ts', want=[('tie', 'straight'), ('tie', 'straight')])
live('live-max-payout-royal-flush', 'Royal flush on a 50000 ANTE wins 5,000,000 + 100,000; the 1,000,000 max payout caps the winnings, the stakes come back in full.', L_CAP,
     [B(1, 'As Ks', ante=50000)], '4c 9h', 'Qs Js Ts 4d 2c', want=[('player-won', 'royal-flush', None, True)])
live('live-max-payout-caps-call-win', 'Max payout 1000, flush on ANTE 500: ANTE wins 1000, the BET win is cut to 0.', L_CAP,
     [B(1, 'Ac 9c')], '5s Jd', 'Kc 7c 2c 5d 8h', patch={'casino': {'limits': {'max_payout_per_box': 1000}}}, want=[('player-won', 'flush', None, True)])
live('live-max-payout-partial', 'Max payout 1500, flush on ANTE 500: ANTE wins 1000, BET wins 500 of 1000.', L_CAP,
     [B(1, 'Ac 9c')], '5s Jd', 'Kc 7c 2c 5d 8h', patch={'casino': {'limits': {'max_payout_per_box': 1500}}}, want=[('player-won', 'flush', None, True)])
live('live-max-payout-exactly-at-cap', 'Max payout 2000, winnings of exactly 2000 are not capped.', L_CAP,
     [B(1, 'Ac 9c')], '5s Jd', 'Kc 7c 2c 5d 8h', patch={'casino': {'limits': {'max_payout_per_box': 2000}}}, want=[('player-won', 'flush', None, False)])
live('live-max-payout-scope-total', 'With max_payout_scope "total", the cap limits ANTE + BET returns, stakes included.', L_CAP,
     [B(1, 'Ac 9c')], '5s Jd', 'Kc 7c 2c 5d 8h', patch={'casino': {'max_payout_scope': 'total', 'limits': {'max_payout_per_box': 2000}}}, want=[('player-won', 'flush', None, True)])
live('live-max-payout-per-box', 'The cap applies to each box on its own: a capped royal flush and an uncapped straight at one table.', L_CAP,
     [B(1, 'As Ks', ante=50000), B(3, 'Tc 9d', ante=50000)], '4c 2h', 'Qs Js Ts 4d 8c', want=[('player-won', 'royal-flush', None, True), ('player-won', 'straight', None, False)])
live('live-void-misdeal', 'Misdeal (re-deal): the round is void, every ANTE and BET returned, nothing paid.', L_VOID,
     [B(1, 'As Ks'), B(2, '2c 3d', decision='fold'), B(4, 'Tc 9d')], '4c 9h', 'Qs Js Ts 4d 2c', void=True, want=[('void', ''), ('void', ''), ('void', '')])
live('live-boxes-unordered', 'Boxes logged out of order are settled the same; results are in box order.', L_TABLE,
     [B(6, 'Ac Kc'), B(2, '2c 3d'), B(4, 'Jc Qd')], 'Js Td', 'Kh 6h 4h Jd 2s', want=[('player-won', 'one-pair'), ('dealer-won', 'one-pair'), ('player-won', 'one-pair')])
live('live-auto-adjust', 'Live table: ANTE requested 80000 above the 50000 maximum is reduced.', L_SETTLE,
     [B(1, 'Tc 9d', ante=50000, ante_requested=80000)], 'Kc 4d', '8h 7s 6c Kd 2h', want=[('player-won', 'straight')])
live('live-error-aa-bonus', 'The live table has no AA Bonus: a bonus stake is rejected.', "docs/rules/live-casino-holdem.md: There is no AA Bonus on this table",
     [B(1, 'Tc 9d', bonus=100)], 'Kc 4d', '8h 7s 6c Kd 2h', error={'kind': 'round', 'field': 'boxes[0].bonus'})
live('live-error-box-7', 'A seventh box does not exist.', L_TABLE,
     [B(7, 'Tc 9d')], 'Kc 4d', '8h 7s 6c Kd 2h', error={'kind': 'round', 'field': 'boxes[0].box'})
live('live-error-box-twice', 'A box number used twice is rejected.', L_TABLE,
     [B(2, 'Tc 9d'), B(2, 'Ac Ad')], 'Kc 4d', '8h 7s 6c Kd 2h', error={'kind': 'round', 'field': 'boxes[1].box'})
live('live-error-shared-card', 'Two boxes holding the same card is a misdeal the round log must not hide.', L_TABLE,
     [B(1, 'Tc 9d'), B(2, 'Tc Ad')], 'Kc 4d', '8h 7s 6c Kd 2h', error={'kind': 'round', 'field': 'boxes[1].cards[0]'})
casino('casino-error-two-boxes', 'The RNG game has exactly one box.', "profile casino.boxes",
       [B(1, 'Tc 9d', ante=100), B(2, 'Ac Ad', ante=100)], S('Kc 4d'), S('8h 7s 6c Kd 2h'), error={'kind': 'round', 'field': 'boxes'})
