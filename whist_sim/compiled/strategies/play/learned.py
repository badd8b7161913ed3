"""The compiled ``learned`` play policy (docs/ENGINE.md §8). It makes no random draws.

A play policy learned from search: it scores every legal card with integer weights fitted to the
values search gives every candidate card on recorded deals (``scripts/train_play.py``, ``make
train``; the weights: :mod:`whist_sim.core.play_model`, their data card: docs/PLAY_MODEL.md).
The score of a card is

    ``score = sum_i W[context, i] * feature_i(card)``

where ``context`` is one of :data:`N_CONTEXTS` situations of the seat and the trick
(:func:`context_of`) and the features (:data:`FEATURES`, named once in
:mod:`whist_sim.core.play_features`, each weight read by its index constant) are integers read
from what the seat may know, blind to suit names. The legal card with the largest score is
played; ties go (same suit) to the lower card, then to the larger suit picture (as ``expert``),
then to the lower card code.

The score is the sum of a part every card of a suit has alike (:func:`suit_score`) and a part
of the card's own (:func:`own_score`); the suit part is computed once per suit.

The reference engine's ``learned_card`` computes the same features and scores (tested equal).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ....core.play_features import (
    F_DISCARD,
    F_DRAW,
    F_HIGHER,
    F_HIGHEST,
    F_LAST_TRUMP,
    F_LENGTH,
    F_LOWER,
    F_LOWEST,
    F_MASTER,
    F_MASTERS,
    F_NO_RETURN,
    F_RANK,
    F_RUFF_RISK,
    F_SIDE_VS_TRUMPS,
    F_SINGLETON,
    F_SUIT_OUT,
    F_SURE,
    F_TRUMP,
    F_WINS,
    FITTED,
    N_FEATURES,
)
from ...ground._numba import jit
from ...ground.bits import ALL_ONES, ONE, SUIT_MASK, SUIT_OF, ZERO, ctz, popcount
from ...ground.layout import (
    H_HAND,
    H_PLAYED,
    H_TRICK,
    R_DECK_MASK,
    R_MODEL_DECK,
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

#: situations: position (lead, middle, last) x the seat's need (short of its tricks by its sure
#: tricks and by its likely tricks, covered by its sure tricks exactly, has them, lost, covered
#: with sure tricks to spare, short by its sure tricks but covered by its likely tricks exactly,
#: or with likely tricks to spare) x the trick's winner so far (needs tricks or at the lead, has
#: its tricks, lost) x declarer or not x over or under
N_STATUS = 7
N_CONTEXTS = 3 * N_STATUS * 3 * 2 * 2

# [decks * N_CONTEXTS, N_FEATURES]: a constant of the compiled code, one block of N_CONTEXTS rows
# per deck (core.rules.DECKS: the rules array's R_MODEL_DECK); rows trained before a feature was
# added get weight 0 for it
_W = np.array(FITTED, dtype=np.int64).reshape(-1, N_FEATURES)
if _W.shape[0] != len(FITTED) * N_CONTEXTS:
    raise ValueError(f"the learned play model has {_W.shape[0] // len(FITTED)} situations a deck, "
                     f"the policy {N_CONTEXTS} (make train)")


class Shared(NamedTuple):
    """What the features of every card of one decision share (:func:`_decision`): the seat's
    situation ``ctx`` (:func:`context_of`), its ``hand``, the cards ``out`` it cannot see and its
    ``masters`` (uint64 masks), its position ``pos`` in the trick, the led suit ``led``, the
    trick's ``best`` card so far, ``trump`` (4: no trump), the trumps out ``trumps_out``, the
    later players' ``follow`` / ``ruff`` suit bits (``expert._later_bits``), the seat's trumps
    ``my_trumps`` and ``side_loser`` (it holds a side suit without a master; read only with a
    single trump)."""

    ctx: np.int64
    hand: np.uint64
    out: np.uint64
    masters: np.uint64
    pos: np.int64
    led: np.int64
    best: np.int64
    trump: np.int64
    trumps_out: np.int64
    follow: np.int64
    ruff: np.int64
    my_trumps: np.int64
    side_loser: bool


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
def suit_features(s, sh):
    """``(trump, length, suit_out, ruff_risk, masters, discard, singleton, draw, no_return,
    last_trump, side_vs_trumps)``: the :data:`FEATURES` that every card of suit ``s`` has alike,
    read from the decision's :class:`Shared` ``sh``."""
    hand = sh.hand
    out = sh.out
    masters = sh.masters
    pos = sh.pos
    led = sh.led
    trump = sh.trump
    trumps_out = sh.trumps_out
    ruff = sh.ruff
    my_trumps = sh.my_trumps
    side_loser = sh.side_loser
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
def write_features(r, o, c, sh):
    """Write the :data:`FEATURES` of card ``c`` into ``r[o + F_...]``, each under its index
    constant: :func:`own_features` and :func:`suit_features` (``sh``: the decision's
    :class:`Shared`)."""
    tr, length, suit_out, rr, ms, disc, single, draw, noret, last, svt = suit_features(
        SUIT_OF[c], sh)
    wins, sure, master, higher, lower, rank, lowest, highest = own_features(
        c, sh.hand, sh.out, sh.pos, sh.led, sh.best, sh.trump, sh.follow, sh.ruff)
    r[o + F_WINS] = wins
    r[o + F_SURE] = sure
    r[o + F_TRUMP] = tr
    r[o + F_MASTER] = master
    r[o + F_HIGHER] = higher
    r[o + F_LOWER] = lower
    r[o + F_RANK] = rank
    r[o + F_LENGTH] = length
    r[o + F_SUIT_OUT] = suit_out
    r[o + F_LOWEST] = lowest
    r[o + F_HIGHEST] = highest
    r[o + F_RUFF_RISK] = rr
    r[o + F_MASTERS] = ms
    r[o + F_DISCARD] = disc
    r[o + F_SINGLETON] = single
    r[o + F_DRAW] = draw
    r[o + F_NO_RETURN] = noret
    r[o + F_LAST_TRUMP] = last
    r[o + F_SIDE_VS_TRUMPS] = svt


@jit(inline="always")
def suit_score(w, s, sh):
    """The part of a card's score that every card of suit ``s`` has alike (row ``w``; ``sh``:
    the decision's :class:`Shared`)."""
    tr, length, suit_out, rr, ms, disc, single, draw, noret, last, svt = suit_features(s, sh)
    return (w[F_TRUMP] * tr + w[F_LENGTH] * length + w[F_SUIT_OUT] * suit_out
            + w[F_RUFF_RISK] * rr + w[F_MASTERS] * ms + w[F_DISCARD] * disc
            + w[F_SINGLETON] * single + w[F_DRAW] * draw + w[F_NO_RETURN] * noret
            + w[F_LAST_TRUMP] * last + w[F_SIDE_VS_TRUMPS] * svt)


@jit(forceinline=True)
def own_score(w, c, hand, out, pos, led, best, trump, follow, ruff):
    """The part of card ``c``'s score of its own (row ``w``)."""
    wins, sure, master, higher, lower, rank, lowest, highest = own_features(
        c, hand, out, pos, led, best, trump, follow, ruff)
    return (w[F_WINS] * wins + w[F_SURE] * sure + w[F_MASTER] * master + w[F_HIGHER] * higher
            + w[F_LOWER] * lower + w[F_RANK] * rank + w[F_LOWEST] * lowest
            + w[F_HIGHEST] * highest)


@jit(forceinline=True)
def _decision(st, hm, rp, seat):
    """The :class:`Shared` of ``seat``'s decision: what the features of every card share."""
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
    return Shared(ctx, hand, out, masters, pos, st[S_LED], st[S_BEST_CARD], trump, trumps_out,
                  follow, ruff, my_trumps, side_loser)


@jit
def learned_card(st, hm, rp, seat, legal, rng):
    """``learned`` card of ``seat``: the legal card with the largest score (the module doc)."""
    if legal & (legal - ONE) == ZERO:
        return ctz(legal)
    sh = _decision(st, hm, rp, seat)
    hand, out, pos, led, best, trump = sh.hand, sh.out, sh.pos, sh.led, sh.best, sh.trump
    follow, ruff = sh.follow, sh.ruff
    w = _W[rp[R_MODEL_DECK] * N_CONTEXTS + sh.ctx]
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
            base = suit_score(w, s, sh)
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
            score = (suit_score(w, s, sh)
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
    sh = _decision(st, hm, rp, seat)
    ec = expert_card(st, hm, rp, seat, legal, rng)
    k = 0
    rest = legal
    while rest != ZERO:
        c = ctz(rest)
        rest &= rest - ONE
        rows[k, 0] = c
        rows[k, 1] = sh.ctx
        rows[k, 2] = 1 if c == ec else 0
        write_features(rows[k], 3, c, sh)
        k += 1
    return k


# ---------------------------------------------------------------- its decision (the registry's)


@jit(inline="always")
def learned_decide_card(st, hm, rp, seat, legal, rng, par):
    """:func:`learned_card` as the registry's ``card`` (the signature of the decision points,
    whist_sim.core.registry.Decisions; numba inlines it into the generated dispatch)."""
    return learned_card(st, hm, rp, seat, legal, rng)
