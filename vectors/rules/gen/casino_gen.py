import json, os, copy, sys
from evalpoker import *

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
OUT = os.path.join(REPO, 'vectors', 'rules')
BUILTIN = os.path.join(REPO, 'replay', 'profile', 'builtin')


def merge(a, p):
    if not isinstance(p, dict):
        return copy.deepcopy(p)
    a = copy.deepcopy(a) if isinstance(a, dict) else {}
    for k, v in p.items():
        if v is None:
            a.pop(k, None)
        else:
            a[k] = merge(a.get(k), v)
    return a


def load_profile(name, patch):
    p = json.load(open(f'{BUILTIN}/{name}.json'))
    return merge(p, patch) if patch else p


def thr(t):
    return (CATS.index(t['category']), RANKS.index(t['pair']) if t.get('pair') else None)


written = []


def write(v):
    fn = f"{OUT}/{v['id']}.json"
    assert v['id'] not in written, v['id']
    written.append(v['id'])
    with open(fn, 'w') as f:
        json.dump(v, f, indent=2, ensure_ascii=False)
        f.write('\n')


def base_round(game, profile, rid):
    return {
        'round_id': rid, 'game': game, 'table_id': 'vector-table', 'time': '2026-01-01T00:00:00Z',
        'currency': 'EUR', 'profile': profile,
        'fairness': {'scheme': 'fairhold/v1', 'commitment': '', 'server_seed': '', 'client_seeds': [], 'nonce': 0},
        'board': [],
    }


def settle_box(prof, b, dealer, board, void):
    c = prof['casino']
    lim = c['limits']
    out = {'box': b['box']}

    def adjust(req, acc, lo, hi):
        if req:
            if req < lo:
                raise ValueError('below min')
            if req > hi:
                if c['auto_adjust'] != 'reduce-to-max':
                    raise ValueError('above max')
                return hi
            return req
        return acc
    ante = adjust(b.get('ante_requested', 0), b.get('ante', 0), lim['ante_min'], lim['ante_max'])
    bonus = 0
    if b.get('bonus') or b.get('bonus_requested'):
        bonus = adjust(b.get('bonus_requested', 0), b.get('bonus', 0), c['aa_bonus']['min'], c['aa_bonus']['max'])
    d = b['decision']
    if d == '':
        if c['unfinished_round'] == 'void':
            void = True
        else:
            d = c['unfinished_round']
    call = ante * c['call_multiple'] if d == 'call' else 0
    out.update(ante=ante, call=call, bonus=bonus, capped=False, player_hand='', bonus_reason='')
    if void:
        out.update(ante_return=ante, call_return=call, bonus_return=bonus, reason='void',
                   bonus_reason='void' if bonus else '')
        return out
    br = 0
    if bonus:
        bv = best(b['cards'] + board[:3])
        bb = c['aa_bonus']
        if d == 'fold' and bb['forfeit_on_fold']:
            out['bonus_reason'] = 'bonus-forfeited'
        elif at_least(bv, thr(bb['min_hand'])):
            out['bonus_reason'] = 'bonus-won'
            br = bonus * (1 + bb['paytable'][CATS[bv[0]]])
        else:
            out['bonus_reason'] = 'bonus-lost'
    out['bonus_return'] = br
    if d == 'fold':
        out.update(ante_return=0, call_return=0, reason='fold')
        return out
    pv = best(b['cards'] + board)
    dv = best(dealer + board)
    out['player_hand'] = CATS[pv[0]]
    pays = c['ante_paytable'][CATS[pv[0]]] if at_least(pv, thr(c['ante_min_hand'])) else c['ante_below_min_hand_pays']
    if not at_least(dv, thr(c['dealer_qualifier'])):
        reason = 'dealer-not-qualified'
        ar = ante * (1 + pays)
        cr = call if c['call_push_when_dealer_not_qualified'] else 0
    elif pv > dv:
        reason, ar, cr = 'player-won', ante * (1 + pays), 2 * call
    elif pv == dv:
        reason, ar, cr = 'tie', ante, call
    else:
        reason, ar, cr = 'dealer-won', 0, 0
    cap = lim['max_payout_per_box']
    if cap > 0:
        if c['max_payout_scope'] == 'total':
            if ar + cr > cap:
                out['capped'] = True
                ar = min(ar, cap)
                cr = min(cr, cap - ar)
        else:
            aw, cw = max(ar - ante, 0), max(cr - call, 0)
            if aw + cw > cap:
                out['capped'] = True
                aw = min(aw, cap)
                cw = min(cw, cap - aw)
                ar, cr = ante + aw, call + cw
    out.update(ante_return=ar, call_return=cr, reason=reason)
    return out


def casino(id, desc, rule, boxes, dealer, board, profile='casino-holdem', patch=None, void=False,
           want=None, error=None, game=None):
    """want: list per box of (reason, player_hand or None, bonus_reason or None, capped or None) the
    author intends; the script checks the computed settlement agrees."""
    prof = load_profile(profile, patch)
    game = game or prof['game']
    r = base_round(game, profile, id)
    r['dealer'] = dealer
    r['board'] = board
    if void:
        r['void'] = True
        r['void_reason'] = 'misdeal'
    rb = []
    for b in boxes:
        x = {'box': b['box'], 'player_id': f"p{b['box']}", 'cards': b['cards'],
             'ante_requested': b.get('ante_requested', b['ante']), 'ante': b['ante']}
        bon = b.get('bonus', 0)
        if bon or b.get('bonus_requested'):
            x['bonus_requested'] = b.get('bonus_requested', bon)
            x['bonus'] = bon
        if b.get('no_request'):
            x['ante_requested'] = 0
            if 'bonus_requested' in x:
                x['bonus_requested'] = 0
        x.update({'decision': b['decision'], 'call': 0, 'ante_return': 0, 'call_return': 0,
                  'bonus_return': 0, 'balance_before': 1000000, 'balance_after': 1000000})
        rb.append(x)
    r['boxes'] = rb
    v = {'id': id, 'game': prof['game'], 'description': desc, 'rule': rule, 'profile': profile}
    if patch:
        v['profile_patch'] = patch
    if error:
        v['round'] = r
        v['expect'] = {'error': error}
        write(v)
        return
    exp = []
    for b, x in zip(boxes, rb):
        e = settle_box(prof, x, dealer, board, void)
        exp.append(e)
        # Make the operator's record consistent with the settlement.
        x['ante'], x['bonus'] = e['ante'], e['bonus']
        if not x['bonus']:
            x.pop('bonus', None)
        x['call'] = e['call']
        x['ante_return'], x['call_return'], x['bonus_return'] = e['ante_return'], e['call_return'], e['bonus_return']
        x['balance_after'] = x['balance_before'] - e['ante'] - e['call'] - e['bonus'] + e['ante_return'] + e['call_return'] + e['bonus_return']
    if want:
        for e, w in zip(exp, want):
            reason, ph, brs, capped = (list(w) + [None] * 4)[:4]
            assert e['reason'] == reason, (id, e, w)
            if ph is not None:
                assert e['player_hand'] == ph, (id, e, w)
            if brs is not None:
                assert e['bonus_reason'] == brs, (id, e, w)
            if capped is not None:
                assert e['capped'] == capped, (id, e, w)
    v['round'] = r
    v['expect'] = {'boxes': sorted(exp, key=lambda e: e['box'])}
    write(v)


def one(id, desc, rule, cards, dealer, board, ante=100, bonus=0, decision='call', want=None, **kw):
    b = {'box': 1, 'cards': cards, 'ante': ante, 'decision': decision}
    if bonus:
        b['bonus'] = bonus
    for k in ('ante_requested', 'bonus_requested', 'no_request'):
        if k in kw:
            b[k] = kw.pop(k)
    casino(id, desc, rule, [b], dealer, board, want=[want] if want else None, **kw)


def S(s):
    return s.split()
