"""The compiled ``planner`` play policy (docs/ENGINE.md §7). It makes no random draws.

``expert`` (docs/ENGINE.md §6) with a plan for the tricks it still needs: before every card it
counts its *sure tricks* (the masters it holds, trump length left after the trumps out are drawn,
side-suit masters only as long as the others can be expected to follow while trumps are out) and,
when they cover the tricks it still needs with ``margin`` to spare, it loses the trick in
progress with a card it can spare, rather than taking a trick it does not need and ending over
its contract. Otherwise it plays ``expert``'s card.

Giving up a trick, never with a trump:

* leading (``lead`` 1 or 2; 0: never at the lead): the lowest card of a suit that is not a
  master; among the suits, the one with the most cards still out above that card (``lead=1``,
  the surest loser) or the seat's longest (``lead=2``, a length trick given up);
* following suit: the highest card of the led suit that does not win now;
* discarding (void in the led suit): the highest card of a suit, by rank;

following and discarding, masters are kept unless ``shed=1`` (a sure trick to spare goes).
Ties between suits go to the larger suit picture (as ``expert``), then the lowest card code.
With no such card it plays ``expert``'s. Parameters (the play row, ``par[1, seat, j]``, in the
registry's order): ``margin``, ``side``, ``lead``, ``shed`` (docs/ENGINE.md §7).

The reference engine's ``planner_card`` states the same rule card by card (tested equal).
"""

from __future__ import annotations

import numpy as np

from ...ground._numba import jit
from ...ground.bits import ALL_ONES, ONE, SUIT_MASK, SUIT_OF, ZERO, ctz, highest_bit, popcount
from ...ground.layout import (
    H_HAND,
    H_PLAYED,
    H_TRICK,
    R_DECK_MASK,
    R_PLAYERS,
    S_BEST_CARD,
    S_CONTRACT,
    S_LED,
    S_POS,
    S_TRICKS,
    S_TRUMP,
    S_VOIDS,
)
from .expert import _suit_pattern, expert_card


@jit(inline="always")
def _per_other(n, p):
    """``n // (p - 1)`` for ``0 <= n <= 13``, without a division for three or four players."""
    if p == 4:
        return (n * 11) >> 5
    if p == 3:
        return n >> 1
    return n // (p - 1)


def _keep_mask(k):
    """The bits whose rank plus ``k`` is still of their suit (ranks ``0 .. 12 - k``)."""
    m = 0
    for s in range(4):
        m |= ((1 << (13 - k)) - 1) << (13 * s)
    return np.uint64(m)


_KEEP1, _KEEP2, _KEEP4, _KEEP8 = (_keep_mask(k) for k in (1, 2, 4, 8))


@jit(inline="always")
def _masters(hand, out):
    """The cards of ``hand`` above every card of their suit in ``out`` (all four suits at once:
    ``out`` smeared down within each suit)."""
    x = out
    x |= (x >> np.uint64(1)) & _KEEP1
    x |= (x >> np.uint64(2)) & _KEEP2
    x |= (x >> np.uint64(4)) & _KEEP4
    x |= (x >> np.uint64(8)) & _KEEP8
    return hand & ~x


@jit(inline="always")
def _trick_counts(hand, out, trump, voids, seat, p, side):
    """``(sure, likely, masters)``: the seat's sure tricks, its likely tricks (``learned``'s
    situation, docs/ENGINE.md §8) and the mask of its masters (:func:`_counts`)."""
    masters = _masters(hand, out)
    sure, likely = _counts(hand, out, masters, trump, voids, seat, p, side)
    return sure, likely, masters


@jit(inline="always")
def _counts(hand, out, masters, trump, voids, seat, p, side):
    """``(sure, likely)``: the seat's sure and likely tricks, in one pass over the suits, given
    ``masters = _masters(hand, out)``.

    Per suit of ``L`` cards with ``O`` still out and ``k`` masters (the cards above every card
    of the suit still out). Sure: in trumps and, once no trump is out, in every suit, at least
    the length tricks ``L - O`` (the others' cards all in one hand); in a side suit while trumps
    are out, none if another seat has shown a void there and not in trumps (it may ruff), else
    ``k``, at most ``O // (p - 1) + side`` (the rounds the others can be expected to follow).
    Likely: the others' cards as evenly split as they can be (``m = ceil(O / (p - 1))`` in the
    longest hand): ``max(k, L - m + min(k, m))`` where the sure count has ``L - O``; in a side
    suit while trumps are out none if it may be ruffed, else ``k``, at most
    ``O // (p - 1) + 1``."""
    trumps_out = popcount(out & SUIT_MASK[trump]) if trump < 4 else 0
    sure = 0
    likely = 0
    # every case is computed and one selected, with no branch on the cards: a mispredicted
    # branch costs more than the counts. A suit the seat is void in adds nothing (k = L = 0;
    # the side-suit count tests it, as a negative ``side`` would go below 0).
    for s in range(4):
        hs = hand & SUIT_MASK[s]
        k = popcount(masters & SUIT_MASK[s])
        n_out = popcount(out & SUIT_MASK[s])
        n = popcount(hs)
        side_suit = (s != trump) & (trumps_out > 0)
        # another seat void in s and not in trumps (bit 4 * seat of each seat's nibble)
        ruffable = ((voids >> s) & ~(voids >> trump) & 0x1111 & ~(1 << (4 * seat))) != 0
        per = _per_other(n_out, p)
        m = _per_other(n_out + p - 2, p)
        s_side = 0 if ruffable | (hs == ZERO) else min(k, per + side)
        l_side = 0 if ruffable else min(k, per + 1)
        s_len = max(k, n - n_out)
        l_len = max(k, n - m + min(k, m))
        sure += s_side if side_suit else s_len
        likely += l_side if side_suit else l_len
    return sure, likely


@jit(inline="always")
def _sure_tricks(hand, out, trump, voids, seat, p, side):
    """``(sure, masters)``: the seat's sure tricks and the mask of its masters
    (:func:`_trick_counts`)."""
    sure, _, masters = _trick_counts(hand, out, trump, voids, seat, p, side)
    return sure, masters


@jit(inline="always")
def _best_of_suits(cands, keys_high, hand, out, voids, seat, p):
    """The card of ``cands`` (at most one per suit) with the largest key, then the largest suit
    picture, then the lowest card code; ``keys_high[s]`` is the key of suit ``s``'s card."""
    best_card = -1
    best_key = -1
    best_pat = np.int64(-1)
    for s in range(4):
        m = cands & SUIT_MASK[s]
        if m == ZERO:
            continue
        c = ctz(m)
        k = keys_high[s]
        if k > best_key:
            best_key = k
            best_card = c
            best_pat = -1
        elif k == best_key:
            if best_pat < 0:
                best_pat = _suit_pattern(SUIT_OF[best_card], hand, out, voids, seat, p)
            pat = _suit_pattern(s, hand, out, voids, seat, p)
            if pat > best_pat:
                best_card = c
                best_pat = pat
    return best_card


@jit(forceinline=True)
def _give_up(st, hm, rp, seat, legal, need, margin, side, lead, shed):
    """The card with which the seat loses the trick in progress, or -1 to play ``expert``'s
    (the module doc)."""
    p = rp[R_PLAYERS]
    hand = hm[H_HAND + seat]
    out = np.uint64(rp[R_DECK_MASK]) & ~(hm[H_PLAYED] | hm[H_TRICK] | hand)
    trump = st[S_TRUMP]
    voids = st[S_VOIDS]
    sure, masters = _sure_tricks(hand, out, trump, voids, seat, p, side)
    if sure < need + margin:
        return -1
    side_cards = legal
    if trump < 4:
        side_cards &= ~SUIT_MASK[trump]
    free = side_cards & ~masters
    pos = st[S_POS]
    cands = ZERO
    k0 = -1
    k1 = -1
    k2 = -1
    k3 = -1
    if pos == 0:  # lead: the lowest free card of a suit
        if lead == 0 or free == ZERO:
            return -1
        for s in range(4):
            m = free & SUIT_MASK[s]
            if m == ZERO:
                continue
            c = ctz(m)
            cands |= ONE << np.uint64(c)
            if lead == 1:  # the surest loser: the most cards out above it
                k = popcount(out & SUIT_MASK[s] & (ALL_ONES << np.uint64(c + 1)))
            else:  # from the longest suit: a length trick given up
                k = popcount(hand & SUIT_MASK[s])
            if s == 0:
                k0 = k
            elif s == 1:
                k1 = k
            elif s == 2:
                k2 = k
            else:
                k3 = k
        return _best_of_suits(cands, (k0, k1, k2, k3), hand, out, voids, seat, p)
    pool = side_cards if shed != 0 else free  # shed=1: a master may go too
    led = st[S_LED]
    best = st[S_BEST_CARD]
    lm = SUIT_MASK[led]
    if legal & lm != ZERO:  # following suit: the highest card that loses now
        m = pool & lm
        if SUIT_OF[best] == led:
            m &= ~(ALL_ONES << np.uint64(best + 1))
        if m == ZERO:
            return -1
        return highest_bit(m)
    for s in range(4):  # discarding: the highest card of a suit, keyed by its rank
        m = pool & SUIT_MASK[s]
        if m == ZERO:
            continue
        c = highest_bit(m)
        cands |= ONE << np.uint64(c)
        k = c - 13 * s
        if s == 0:
            k0 = k
        elif s == 1:
            k1 = k
        elif s == 2:
            k2 = k
        else:
            k3 = k
    if cands == ZERO:
        return -1
    return _best_of_suits(cands, (k0, k1, k2, k3), hand, out, voids, seat, p)


@jit
def planner_card(st, hm, rp, seat, legal, rng, par):
    """``planner`` card of ``seat`` (the module doc): a trick given up while its sure tricks
    cover the tricks it needs with ``margin`` to spare, else ``expert``'s card."""
    if legal & (legal - ONE) == ZERO:
        return ctz(legal)
    need = st[S_CONTRACT + seat] - st[S_TRICKS + seat]
    if need > 0:
        c = _give_up(st, hm, rp, seat, legal, need, np.int64(par[1, seat, 0]),
                     np.int64(par[1, seat, 1]), np.int64(par[1, seat, 2]),
                     np.int64(par[1, seat, 3]))
        if c >= 0:
            return c
    return expert_card(st, hm, rp, seat, legal, rng)

