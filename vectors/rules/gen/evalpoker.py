"""Independent reference for the rules vectors: a brute-force poker evaluator
and direct settlement arithmetic, written apart from the Go engine."""
from collections import Counter
from itertools import combinations

RANKS = '23456789TJQKA'
SUITS = 'cdhs'
CATS = ['', 'high-card', 'one-pair', 'two-pair', 'three-of-a-kind', 'straight', 'flush',
        'full-house', 'four-of-a-kind', 'straight-flush', 'royal-flush']


def parse(c):
    return (RANKS.index(c[0]), SUITS.index(c[1]))


def eval5(cs):
    ranks = sorted([r for r, _ in cs], reverse=True)
    flush = len(set(s for _, s in cs)) == 1
    uniq = sorted(set(ranks), reverse=True)
    sh = None
    if len(uniq) == 5:
        if uniq[0] - uniq[4] == 4:
            sh = uniq[0]
        elif uniq == [12, 3, 2, 1, 0]:
            sh = 3
    cnt = Counter(ranks)
    g = sorted(cnt.items(), key=lambda x: (x[1], x[0]), reverse=True)
    gr = [r for r, _ in g]
    if sh is not None and flush:
        return (10 if sh == 12 else 9, (sh,))
    if g[0][1] == 4:
        return (8, tuple(gr))
    if g[0][1] == 3 and g[1][1] == 2:
        return (7, tuple(gr))
    if flush:
        return (6, tuple(ranks))
    if sh is not None:
        return (5, (sh,))
    if g[0][1] == 3:
        return (4, tuple(gr))
    if g[0][1] == 2 and g[1][1] == 2:
        return (3, tuple(gr))
    if g[0][1] == 2:
        return (2, tuple(gr))
    return (1, tuple(ranks))


def best(cards):
    cs = [parse(c) for c in cards]
    return max(eval5(list(x)) for x in combinations(cs, 5))


def pair_rank(v):
    return v[1][0] if v[0] == 2 else None


def at_least(v, thr):
    """thr = (category, pair rank or None)"""
    cat, pr = thr
    if v[0] != cat:
        return v[0] > cat
    if pr is None:
        return True
    return v[1][0] >= pr
