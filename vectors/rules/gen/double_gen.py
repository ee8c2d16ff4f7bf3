from casino_gen import *

STREETS = ['preflop', 'flop', 'turn', 'river']
KINDS = {'sb': 'small-blind', 'bb': 'big-blind', 'f': 'fold', 'k': 'check', 'c': 'call', 'b': 'bet', 'r': 'raise'}


def parse_actions(s):
    acts = []
    for si, part in enumerate(s.split('|')):
        for a in part.split(','):
            a = a.strip()
            if not a:
                continue
            f = a.split()
            seat, kind = int(f[0]), KINDS.get(f[1], f[1])
            amt = f[2] if len(f) > 2 else '0'
            allin = amt.endswith('!')
            x = {'seat': seat, 'street': STREETS[si], 'kind': kind, 'amount': int(amt.rstrip('!'))}
            if allin:
                x['all_in'] = True
            acts.append(x)
    return acts


def auto_bonus(prof, cards):
    d = prof['double']
    cs = [parse(c) for c in cards]
    top = max(r for r, _ in cs)
    tied = [c for c in cs if c[0] == top]
    def sr(s):
        return 3 - d['suit_order'].index(SUITS[s])
    if len(tied) == 2 and d['auto_bonus_tie'] == 'suited-with-third':
        third = [c for c in cs if c[0] != top][0]
        m = [c for c in tied if c[1] == third[1]]
        if len(m) == 1:
            return RANKS[m[0][0]] + SUITS[m[0][1]]
    b = max(tied, key=lambda c: sr(c[1]))
    return RANKS[b[0]] + SUITS[b[1]]


def double(id, desc, rule, seats, button, actions, board, bonus=None, auto=(), patch=None, void=False,
           error=None, want_winners=None, stacks=None, mutate=None):
    """seats: {seat: 'c1 c2 c3'}; stacks: {seat: stack} (default 10000); bonus: {seat: card} chosen;
    auto: seats whose bonus card is logged as automatic (the card filled in)."""
    prof = load_profile('double-holdem', patch)
    d = prof['double']
    stacks = stacks or {}
    acts = parse_actions(actions)
    bonus = bonus or {}
    r = base_round('double-holdem', 'double-holdem', id)
    r['board'] = S(board)
    if void:
        r['void'] = True
        r['void_reason'] = 'malfunction'
    st = []
    for s in sorted(seats):
        x = {'seat': s, 'player_id': f'p{s}', 'cards': S(seats[s])}
        if s in bonus:
            x['bonus_card'] = bonus[s]
        if s in auto:
            x['bonus_card'] = bonus.get(s) or auto_bonus(prof, S(seats[s]))
            x['bonus_auto'] = True
        x['stack_before'] = stacks.get(s, 10000)
        x['stack_after'] = x['stack_before']
        st.append(x)
    r['double'] = {'button': button, 'small_blind': d['small_blind'], 'big_blind': d['big_blind'],
                   'seats': st, 'actions': acts, 'pots': [], 'rake': 0}
    v = {'id': id, 'game': 'double-holdem', 'description': desc, 'rule': rule, 'profile': 'double-holdem'}
    if patch:
        v['profile_patch'] = patch
    if mutate:
        mutate(r)
    v['round'] = r
    if error:
        v['expect'] = {'error': error}
        write(v)
        return
    order = sorted(seats)
    bi = order.index(button)
    clockwise = [order[(bi + k) % len(order)] for k in range(1, len(order) + 1)]  # from button's left
    if void:
        exp = {'pots': [], 'rake': 0, 'uncalled': 0, 'stack_after': {str(s): stacks.get(s, 10000) for s in order},
               'bonus_cards': {}, 'showdown': False}
        v['expect'] = {'double': exp}
        write(v)
        return
    total = {s: 0 for s in order}
    folded, folded_pre = set(), set()
    for a in acts:
        total[a['seat']] += a['amount']
        if a['kind'] == 'fold':
            folded.add(a['seat'])
            if a['street'] == 'preflop':
                folded_pre.add(a['seat'])
    after = {s: stacks.get(s, 10000) - total[s] for s in order}
    srt = sorted(order, key=lambda s: -total[s])
    uncalled = 0
    if total[srt[0]] > total[srt[1]]:
        uncalled = total[srt[0]] - total[srt[1]]
        total[srt[0]] -= uncalled
        after[srt[0]] += uncalled
    live = [s for s in order if s not in folded]
    levels = sorted(set(total[s] for s in live if total[s] > 0))
    pots, prev = [], 0
    for i, lv in enumerate(levels):
        amt = sum(min(total[s], lv) - min(total[s], prev) for s in order)
        if i == len(levels) - 1:
            amt += sum(max(total[s] - lv, 0) for s in order)
        pots.append({'amount': amt, 'eligible': [s for s in order if s in live and total[s] >= lv]})
        prev = lv
    flop = len(board.split()) >= 3
    rake = 0
    if flop or not d['rake']['no_flop_no_drop']:
        rake = sum(p['amount'] for p in pots) * d['rake']['rate_bp'] // 10000
        if d['rake']['cap'] > 0:
            rake = min(rake, d['rake']['cap'])
    left = rake
    for p in pots:
        t = min(left, p['amount'])
        p['amount'] -= t
        left -= t
    showdown = len(live) >= 2
    bcs, vals = {}, {}
    if flop:
        for s in order:
            if s in folded_pre:
                continue
            bc = bonus.get(s) or auto_bonus(prof, S(seats[s]))
            bcs[str(s)] = bc
            if showdown and s not in folded:
                others = [c for c in S(seats[s]) if c != bc]
                vals[s] = max(best([bc, o] + S(board)) for o in others)
    for p in pots:
        el = p['eligible']
        if len(el) == 1:
            w = el
        else:
            bv = max(vals[s] for s in el)
            w = [s for s in clockwise if s in el and vals[s] == bv]
        n = len(w)
        sh = [p['amount'] // n + (1 if k < p['amount'] % n else 0) for k in range(n)]
        p['winners'], p['shares'] = w, sh
        for s, x in zip(w, sh):
            after[s] += x
    assert sum(stacks.get(s, 10000) for s in order) == sum(after.values()) + rake
    if want_winners is not None:
        assert [p['winners'] for p in pots] == want_winners, (id, pots)
    exp = {'pots': pots, 'rake': rake, 'uncalled': uncalled, 'stack_after': {str(s): after[s] for s in order},
           'bonus_cards': bcs, 'showdown': showdown}
    for x in st:
        x['stack_after'] = after[x['seat']]
        if str(x['seat']) in bcs and 'bonus_card' not in x:
            pass
    r['double']['pots'] = pots
    r['double']['rake'] = rake
    v['expect'] = {'double': exp}
    write(v)
