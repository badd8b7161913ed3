"""The compiled ``learned`` play policy (docs/ENGINE.md §8). It makes no random draws.

A play policy learned from search: it scores every legal card with integer weights fitted to the
values search gives every candidate card on recorded deals (``scripts/train_play.py``, ``make
train``; the weights: :mod:`whist_sim.core.play_model`, their data card: docs/PLAY_MODEL.md).
The score of a card is

    ``score = sum_i W[context, i] * feature_i(card)``

where ``context`` is one of :data:`N_CONTEXTS` situations of the seat and the trick
(:func:`context_of`) and the features (:func:`card_features`, :data:`FEATURES`) are integers
read from what the seat may know, blind to suit names. The legal card with the largest score is
played; ties go (same suit) to the lower card, then to the larger suit picture (as ``expert``),
then to the lower card code.

The score is the sum of a part every card of a suit has alike (:func:`suit_score`) and a part
of the card's own (:func:`own_score`); the suit part is computed once per suit.

The reference engine's ``learned_card`` computes the same features and scores (tested equal).
"""

from __future__ import annotations

import numpy as np

from ....core.play_model import WEIGHTS
from ...ground._numba import jit
from ...ground.bits import ALL_ONES, ONE, SUIT_MASK, SUIT_OF, ZERO, ctz, popcount
from ...ground.layout import (
    H_HAND,
    H_PLAYED,
    H_TRICK,
    R_DECK_MASK,
    R_NTRICKS,
    R_PLAYERS,
    S_BEST_CARD,
    S_BEST_SEAT,
    S_CONTRACT,
    S_DECLARER,
    S_LED,
    S_OVER,
    S_POS,
    S_TRICK,
    S_TRICKS,
    S_TRUMP,
    S_VOIDS,
)
from .expert import _later_bits, _suit_pattern, expert_card
from .planner import _counts, _masters

#: the features of a card, in the order of a row of weights (docs/ENGINE.md §8 states each)
FEATURES = (
    "wins",  # 1: it beats the trick's best card now (every card at the lead)
    "sure",  # 1: it wins the trick whatever the later players hold, as far as the seat can tell
    "trump",  # 1: a trump
    "master",  # 1: no card of its suit still out above it
    "higher",  # cards of its suit still out above it (at most 6)
    "lower",  # cards of its suit still out below it (at most 6)
    "rank",  # 0 (two) .. 12 (ace)
    "length",  # the seat's cards in its suit
    "suit_out",  # cards of its suit still out
    "lowest",  # 1: the seat's lowest card of its suit
    "highest",  # 1: the seat's highest card of its suit
    "ruff_risk",  # 1: a later player has shown a void in its suit and may hold a trump
    "masters",  # the seat's masters in its suit
    "discard",  # 1: a side card played on a trick led in another suit
    "singleton",  # 1: the seat's last card of its suit
    "draw",  # 1: a trump led while trumps are still out
    "no_return",  # 1: a lead of a suit without a master, after which the seat holds no trump
    "last_trump",  # 1: the seat's last trump while it holds a side suit without a master
    "side_vs_trumps",  # a lead of a side suit: the trumps still out (at most 6)
)
N_FEATURES = len(FEATURES)
#: situations: position (lead, middle, last) x the seat's need (short of its tricks by its sure
#: tricks and by its likely tricks, covered by its sure tricks exactly, has them, lost, covered
#: with sure tricks to spare, short by its sure tricks but covered by its likely tricks exactly,
#: or with likely tricks to spare) x the trick's winner so far (needs tricks or at the lead, has
#: its tricks, lost) x declarer or not x over or under
N_STATUS = 7
N_CONTEXTS = 3 * N_STATUS * 3 * 2 * 2

_W = np.array(WEIGHTS, dtype=np.int64)  # [N_CONTEXTS, N_FEATURES]: a constant of the compiled code


@jit(forceinline=True)
def context_of(st, hm, rp, seat, hand, out, masters):
    """The seat's situation, ``0 .. N_CONTEXTS - 1`` (:data:`N_CONTEXTS`):
    ``(((position * 7 + need) * 3 + winner) * 2 + declarer) * 2 + over`` (``masters``: the
    seat's masters, ``planner._masters(hand, out)``)."""
    p = rp[R_PLAYERS]
    pos = st[S_POS]
    posc = 0 if pos == 0 else (2 if pos == p - 1 else 1)
    need = st[S_CONTRACT + seat] - st[S_TRICKS + seat]
    left = rp[R_NTRICKS] - st[S_TRICK]
    if need < 0 or need > left:
        status = 3  # lost
    elif need == 0:
        status = 2  # has its tricks (a zero bidder on zero)
    else:  # both cases computed and one selected: no branch on the counts
        sure, likely = _counts(hand, out, masters, st[S_TRUMP], st[S_VOIDS], seat, p, 0)
        # short: by its likely tricks too (0), covered (5), to spare (6); else exact, to spare
        short = 0 if likely < need else (5 if likely == need else 6)
        covered = 1 if sure == need else 4
        status = short if sure < need else covered
    w = st[S_BEST_SEAT] if pos > 0 else seat  # the trick's winner: selected, not branched on
    nw = st[S_CONTRACT + w] - st[S_TRICKS + w]
    winner = 0 if pos == 0 else (1 if nw <= 0 else (2 if nw > left else 0))
    decl = 1 if st[S_DECLARER] == seat else 0
    over = 1 if st[S_OVER] != 0 else 0
    return (((posc * N_STATUS + status) * 3 + winner) * 2 + decl) * 2 + over


@jit(inline="always")
def suit_features(s, hand, out, masters, pos, led, trump, trumps_out, ruff, my_trumps,
                  side_loser):
    """``(trump, length, suit_out, ruff_risk, masters, discard, singleton, draw, no_return,
    last_trump, side_vs_trumps)``: the :data:`FEATURES` that every card of suit ``s`` has alike
    (``masters``: the seat's masters in every suit; ``my_trumps``: its trumps; ``side_loser``:
    it holds a side suit without a master)."""
    o = out & SUIT_MASK[s]
    hs = hand & SUIT_MASK[s]
    is_trump = 1 if s == trump else 0
    n_s = popcount(hs)
    ms = popcount(masters & SUIT_MASK[s])
    lead = pos == 0
    side = s != trump
    return (is_trump, n_s, popcount(o), (ruff >> s) & 1, ms,
            1 if (not lead) & (s != led) & side else 0, 1 if n_s == 1 else 0,
            1 if lead & (not side) & (trumps_out > 0) else 0,
            1 if lead & (ms == 0) & (my_trumps == is_trump) else 0,
            1 if (not side) & (my_trumps == 1) & side_loser else 0,
            min(trumps_out, 6) if lead & side else 0)


@jit(forceinline=True)
def own_features(c, hand, out, pos, led, best, trump, follow, ruff):
    """``(wins, sure, master, higher, lower, rank, lowest, highest)``: the :data:`FEATURES` of
    card ``c`` that differ between the cards of its suit."""
    s = SUIT_OF[c]
    o = out & SUIT_MASK[s]
    hs = hand & SUIT_MASK[s]
    above = ALL_ONES << np.uint64(c + 1)
    higher = popcount(o & above)
    # bitwise rather than short-circuit logic: selects, not branches, in the compiled loop
    no_ruff = (ruff >> s) & 1 == 0
    safe = (higher == 0) | ((follow >> s) & 1 == 0)  # a master, or no later player may follow
    if pos == 0:
        wins = 1
        sure = 1 if safe & no_ruff else 0
    else:
        beats = (c > best) if s == SUIT_OF[best] else (s == trump)
        # following: sure as at the lead; a ruff: over-ruffed only by a later player void in
        # the led suit
        holds = (safe & no_ruff) if s == led else ((higher == 0) | ((ruff >> led) & 1 == 0))
        wins = 1 if beats else 0
        sure = 1 if beats & holds else 0
    return (wins, sure, 1 if higher == 0 else 0, min(higher, 6),
            min(popcount(o) - higher, 6), c - 13 * s,
            1 if hs & ~above & ~(ONE << np.uint64(c)) == ZERO else 0,
            1 if hs & above == ZERO else 0)


@jit(inline="always")
def card_features(c, hand, out, masters, pos, led, best, trump, trumps_out, follow, ruff,
                  my_trumps, side_loser):
    """The :data:`FEATURES` of card ``c``, a tuple of ints, in their order: :func:`own_features`
    and :func:`suit_features` interleaved."""
    tr, length, suit_out, rr, ms, disc, single, draw, noret, last, svt = suit_features(
        SUIT_OF[c], hand, out, masters, pos, led, trump, trumps_out, ruff, my_trumps,
        side_loser)
    wins, sure, master, higher, lower, rank, lowest, highest = own_features(
        c, hand, out, pos, led, best, trump, follow, ruff)
    return (wins, sure, tr, master, higher, lower, rank, length, suit_out, lowest, highest,
            rr, ms, disc, single, draw, noret, last, svt)


@jit(inline="always")
def suit_score(w, s, hand, out, masters, pos, led, trump, trumps_out, ruff, my_trumps,
               side_loser):
    """The part of a card's score that every card of suit ``s`` has alike (row ``w``)."""
    tr, length, suit_out, rr, ms, disc, single, draw, noret, last, svt = suit_features(
        s, hand, out, masters, pos, led, trump, trumps_out, ruff, my_trumps, side_loser)
    return (w[2] * tr + w[7] * length + w[8] * suit_out + w[11] * rr + w[12] * ms
            + w[13] * disc + w[14] * single + w[15] * draw + w[16] * noret + w[17] * last
            + w[18] * svt)


@jit(forceinline=True)
def own_score(w, c, hand, out, pos, led, best, trump, follow, ruff):
    """The part of card ``c``'s score of its own (row ``w``)."""
    wins, sure, master, higher, lower, rank, lowest, highest = own_features(
        c, hand, out, pos, led, best, trump, follow, ruff)
    return (w[0] * wins + w[1] * sure + w[3] * master + w[4] * higher + w[5] * lower
            + w[6] * rank + w[9] * lowest + w[10] * highest)


@jit(forceinline=True)
def _decision(st, hm, rp, seat):
    """``(ctx, hand, out, masters, pos, led, best, trump, trumps_out, follow, ruff, my_trumps,
    side_loser)``: what the features of every card of one decision share."""
    p = rp[R_PLAYERS]
    hand = hm[H_HAND + seat]
    out = np.uint64(rp[R_DECK_MASK]) & ~(hm[H_PLAYED] | hm[H_TRICK] | hand)
    pos = st[S_POS]
    trump = st[S_TRUMP]
    trumps_out = popcount(out & SUIT_MASK[trump]) if trump < 4 else 0
    follow, ruff = _later_bits(st[S_VOIDS], seat, p, pos, trump, trumps_out)
    masters = _masters(hand, out)
    ctx = context_of(st, hm, rp, seat, hand, out, masters)
    my_trumps = popcount(hand & SUIT_MASK[trump]) if trump < 4 else 0
    side_loser = False  # only read with a single trump
    if my_trumps == 1:
        for s in range(4):
            hs = hand & SUIT_MASK[s]
            if s != trump and hs != ZERO and hs & masters == ZERO:
                side_loser = True
    return (ctx, hand, out, masters, pos, st[S_LED], st[S_BEST_CARD], trump, trumps_out, follow,
            ruff, my_trumps, side_loser)


@jit
def learned_card(st, hm, rp, seat, legal, rng):
    """``learned`` card of ``seat``: the legal card with the largest score (the module doc)."""
    if legal & (legal - ONE) == ZERO:
        return ctz(legal)
    (ctx, hand, out, masters, pos, led, best, trump, trumps_out, follow, ruff, my_trumps,
     side_loser) = _decision(st, hm, rp, seat)
    w = _W[ctx]
    # one pass: the top score, its first card, and whether a card of another suit ties it
    best_card = -1
    best_suit = -1
    best_score = np.int64(-(1 << 62))
    tie = False
    suit = -1
    base = np.int64(0)
    m = legal
    while m != ZERO:  # the cards in increasing code: suit by suit, low to high
        c = ctz(m)
        m &= m - ONE
        s = SUIT_OF[c]
        if s != suit:
            suit = s
            base = suit_score(w, s, hand, out, masters, pos, led, trump, trumps_out, ruff,
                              my_trumps, side_loser)
        score = base + own_score(w, c, hand, out, pos, led, best, trump, follow, ruff)
        gt = score > best_score
        tie = (tie & (not gt)) | ((score == best_score) & (s != best_suit))
        best_card = c if gt else best_card
        best_suit = s if gt else best_suit
        best_score = score if gt else best_score
    if tie:  # the top score in two suits or more: the larger suit picture
        p = rp[R_PLAYERS]
        voids = st[S_VOIDS]
        m = legal & ~SUIT_MASK[best_suit]
        top = _suit_pattern(best_suit, hand, out, voids, seat, p)
        while m != ZERO:
            c = ctz(m)
            m &= m - ONE
            s = SUIT_OF[c]
            score = (suit_score(w, s, hand, out, masters, pos, led, trump, trumps_out, ruff,
                                my_trumps, side_loser)
                     + own_score(w, c, hand, out, pos, led, best, trump, follow, ruff))
            if score == best_score:
                pat = _suit_pattern(s, hand, out, voids, seat, p)
                if pat > top:
                    best_card = c
                    top = pat
                m &= ~SUIT_MASK[s]  # the first card of a suit with the top score stands for it
    return best_card


@jit
def decision_rows(st, hm, rp, seat, legal, rng, rows):
    """Training data: for each legal card, ``rows[k] = (card, context, expert, features...)``
    (``expert``: 1 for ``expert``'s card, kept to measure the fit against it, not a feature);
    returns the number of rows written (the legal cards, lowest code first)."""
    (ctx, hand, out, masters, pos, led, best, trump, trumps_out, follow, ruff, my_trumps,
     side_loser) = _decision(st, hm, rp, seat)
    ec = expert_card(st, hm, rp, seat, legal, rng)
    k = 0
    rest = legal
    while rest != ZERO:
        c = ctz(rest)
        rest &= rest - ONE
        fe = card_features(c, hand, out, masters, pos, led, best, trump, trumps_out, follow,
                           ruff, my_trumps, side_loser)
        rows[k, 0] = c
        rows[k, 1] = ctx
        rows[k, 2] = 1 if c == ec else 0
        for i in range(N_FEATURES):
            rows[k, 3 + i] = fe[i]
        k += 1
    return k
