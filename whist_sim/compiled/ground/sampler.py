"""The one sampler of hidden hands: deal a pool of unseen cards to the seats.

Every user of hidden hands deals them with :func:`deal_pool`: the advisor and the bid charts
(:func:`whist_sim.compiled.ground.conditional.deal_hidden`: the hands around the player's known
cards), the ``montecarlo`` bidding strategy (the others' hands given its own, and the Frisch cards
it passed) and the ``rollout`` play policy (the others' hands given everything the seat has seen,
voids included).

The problem
    A *pool* of cards is dealt to the seats: seat ``s`` ends with ``need[s]`` cards, of which its
    *pinned* cards (known to be there) are some, and receives no card of a suit it is known to be
    void in (``voids``: bit ``4 * s + suit``, the layout of ``st[S_VOIDS]``). Pool cards beyond the
    needs are *left over* (the removed card of the ``one_random`` deck); the leftover place takes
    any suit. Every layout meeting those conditions is equally likely.

Draws (docs/ENGINE.md §2 stream, ``below``)
    *No void binds* (no seat that receives cards is void in a suit of the pool): the pool cards,
    ascending, are shuffled by Fisher-Yates from the top (one ``below(j + 1)`` for ``j`` from
    ``m - 1`` down to 1) and handed out in seat order, the leftover last. With nothing pinned and
    the whole deck as the pool this is the engine's own deal (docs/ENGINE.md §3 step 1), draw for
    draw.

    *A void binds* (suits ``t_1 < ... < t_k`` have pool cards and a receiving seat void in them):
    the layouts are counted exactly. The *places* are the seats that receive cards, in seat order,
    then the leftover; a place takes ``rem`` more cards. For each bound suit in turn, how many of
    its cards go to each place (a *split*) is drawn with probability proportional to the number of
    layouts that complete it (a split gives ``c! / prod y_j!`` ways for the suit, times the ways of
    the suits after it: a table computed once from the last suit back, the free cards counting
    ``F! / prod n_j!``); one uniform draw ``(draw >> 11) / 2**53`` per bound suit picks the split.
    The suit's cards are then shuffled as above and handed out by the split, in place order. The
    cards of the free suits go last, shuffled and handed out as in the case without voids. At most
    four places when a void binds, and a table within ``tab`` (always so in the game: a seat
    deals to three others of at most 13 cards, or to two of at most 17 and the leftover).

Scratch (the caller's, nothing allocates): ``work`` int64[:data:`WORK_SIZE`], whose slots
``W_NEED + s`` hold the needs on entry; ``tab`` float64[:data:`TAB_SIZE`], the table of layout
counts, used only when a void binds and rebuilt when ``fresh`` (a caller that samples many layouts
of one situation builds it once).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._numba import jit
from .bits import ONE, SUIT_MASK, ZERO, bit, ctz, popcount
from .layout import SAMPLER_TAB, SAMPLER_WORK
from .rng import below, unit

W_CARDS = 0  # + i: the cards being shuffled
W_NEED = 52  # + seat: the cards the seat ends with, pinned ones included (input)
W_REM = 56  # + seat: cards still to deal to the seat; + players: to the leftover place
W_PLACE = 61  # + j: the seat of place j (players: the leftover place)
WORK_SIZE = SAMPLER_WORK

MAX_PLACES = 4
TAB_SIZE = SAMPLER_TAB

#: returned when no layout meets the voids
NO_LAYOUT = np.uint64(1) << np.uint64(63)

class Sampler(NamedTuple):
    """A search's draws of one decision: its sub-stream ``sub`` (uint64 ``[1]``, the decision's
    own, ``whist_sim.compiled.ground.rng.decision_stream``) and the sampler's scratch ``work``
    (int64 ``[WORK_SIZE]``) and ``tab`` (float64, :data:`TAB_SIZE` or one slot when no void can
    bind)."""

    sub: np.ndarray
    work: np.ndarray
    tab: np.ndarray


FACT = np.array([float(math.factorial(i)) for i in range(53)], dtype=np.float64)


@jit(inline="always")
def _shuffle(x, work, rng):
    """The cards of mask ``x``, ascending, into ``work[0:m]``, shuffled (Fisher-Yates from the
    top, ``m - 1`` draws). Returns ``m``."""
    m = 0
    while x != ZERO:
        work[W_CARDS + m] = ctz(x)
        x &= x - ONE
        m += 1
    for j in range(m - 1, 0, -1):
        k = below(rng, j + 1)
        t = work[W_CARDS + j]
        work[W_CARDS + j] = work[W_CARDS + k]
        work[W_CARDS + k] = t
    return m


@jit(inline="always")
def _ways(c, y0, y1, y2, y3):
    """``c! / (y0! y1! y2! y3!)`` (``y0 + y1 + y2 + y3 = c``)."""
    return FACT[c] / (FACT[y0] * FACT[y1] * FACT[y2] * FACT[y3])


@jit(inline="always")
def _at(layer, n0, n1, n2, d0, d1, d2):
    """Slot of layer ``layer``, state ``(n0, n1, n2)`` in a table of ``d0 * d1 * d2`` states a
    layer (``d = r + 1``: places 0, 1, 2 take ``0..r`` more cards)."""
    return ((layer * d0 + n0) * d1 + n1) * d2 + n2


@jit(inline="always")
def _split_ways(tab, layer, k, c, split, left, dims):
    """Layouts in which the ``c`` cards of bound suit ``layer`` go ``split = (y0, y1, y2, yl)``
    to places 0, 1, 2 and the last, times the layouts of what is left of ``left = (n0, n1, n2,
    nl)`` (the next layer's count in ``tab``, of ``dims = (d0, d1, d2)`` states, or the free
    cards' multinomial after the last layer)."""
    y0, y1, y2, yl = split
    n0, n1, n2, nl = left
    d0, d1, d2 = dims
    if layer + 1 == k:
        rest = _ways(n0 - y0 + n1 - y1 + n2 - y2 + nl - yl, n0 - y0, n1 - y1, n2 - y2, nl - yl)
    else:
        rest = tab[_at(layer + 1, n0 - y0, n1 - y1, n2 - y2, d0, d1, d2)]
    return _ways(c, y0, y1, y2, yl) * rest


@jit
def _count(tab, layer, k, left, cnt, allow, q, dims):
    """Layouts of the bound suits ``layer..k-1`` and the free cards with ``left = (n0, n1, n2,
    nl)`` cards still to deal to places 0, 1, 2 and the last (``tab`` holds the layers after
    ``layer``, ``dims = (d0, d1, d2)`` states a layer)."""
    n0, n1, n2, nl = left
    if layer == k:  # the free cards: a multinomial
        return _ways(n0 + n1 + n2 + nl, n0, n1, n2, nl)
    c = cnt[layer]
    a = allow[layer]
    last = q - 1
    total = 0.0
    for y0 in range(min(c, n0) + 1 if (a & 1) != 0 and last > 0 else 1):
        for y1 in range(min(c - y0, n1) + 1 if (a & 2) != 0 and last > 1 else 1):
            for y2 in range(min(c - y0 - y1, n2) + 1 if (a & 4) != 0 and last > 2 else 1):
                yl = c - y0 - y1 - y2
                if yl > nl or (yl > 0 and (a >> last) & 1 == 0):
                    continue
                total += _split_ways(tab, layer, k, c, (y0, y1, y2, yl), left, dims)
    return total


@jit(inline="always")
def _dealt(p, out, off):
    x = ZERO
    for s in range(p):
        x |= out[off + s]
    return x


@jit
def deal_pool(p, pool, out, off, voids, work, tab, fresh, rng):
    """Deal the cards of ``pool`` to seats ``0..p-1`` (see the module doc).

    ``out[off + s]``: on entry the cards pinned at seat ``s`` (they leave the pool), on return its
    hand; ``work[W_NEED + s]``: the number of cards seat ``s`` ends with. ``voids``: bit
    ``4 * s + suit``, seat ``s`` receives no card of that suit. Returns the mask of the cards left
    over, or :data:`NO_LAYOUT` when no layout meets the voids (``out`` is then incomplete).
    """
    taken = ZERO
    for s in range(p):
        taken |= out[off + s]
    pool &= ~taken
    spare = popcount(pool)
    for s in range(p):
        r = work[W_NEED + s] - popcount(out[off + s])
        work[W_REM + s] = r
        spare -= r
    work[W_REM + p] = spare
    # the suits whose cards a void keeps from some receiving seat
    bound = 0
    for t in range(4):
        if pool & SUIT_MASK[t] != ZERO:
            for s in range(p):
                if work[W_REM + s] > 0 and (voids >> (4 * s + t)) & 1 != 0:
                    bound |= 1 << t
    if bound != 0 and not _deal_bound(p, pool, out, off, voids, np.int64(bound), work, tab, fresh,
                                      rng):
        return NO_LAYOUT
    free = pool
    for t in range(4):
        if (bound >> t) & 1 != 0:
            free &= ~SUIT_MASK[t]
    m = _shuffle(free, work, rng)
    i = 0
    for s in range(p):
        hand = out[off + s]
        for _ in range(work[W_REM + s]):
            hand |= bit(work[W_CARDS + i])
            i += 1
        out[off + s] = hand
    left = ZERO
    for j in range(i, m):
        left |= bit(work[W_CARDS + j])
    return left | (pool & ~free & ~taken & ~_dealt(p, out, off))


@jit
def _deal_bound(p, pool, out, off, voids, bound, work, tab, fresh, rng):
    """Deal the cards of the bound suits (module doc); ``work[W_REM + s]`` becomes what each seat
    still takes of the free cards. False when no layout meets the voids (or too many places)."""
    q = np.int64(0)  # int64 from the start: a literal 0 would compile _count for it too
    for s in range(p + 1):
        if work[W_REM + s] > 0:
            if q == MAX_PLACES:
                return False
            work[W_PLACE + q] = s
            q += 1
    # bound suits in order: their card counts and the places allowed to take them (bit j)
    k = np.int64(0)
    cnt0 = cnt1 = cnt2 = cnt3 = np.int64(0)
    al0 = al1 = al2 = al3 = np.int64(0)
    for t in range(4):
        if (bound >> t) & 1 == 0:
            continue
        c = popcount(pool & SUIT_MASK[t])
        a = np.int64(0)
        for j in range(q):
            s = work[W_PLACE + j]
            if s == p or (voids >> (4 * s + t)) & 1 == 0:
                a |= 1 << j
        if k == 0:
            cnt0, al0 = c, a
        elif k == 1:
            cnt1, al1 = c, a
        elif k == 2:
            cnt2, al2 = c, a
        else:
            cnt3, al3 = c, a
        k += 1
    cnt = (cnt0, cnt1, cnt2, cnt3)
    allow = (al0, al1, al2, al3)
    r0 = work[W_REM + work[W_PLACE + 0]] if q > 1 else 0
    r1 = work[W_REM + work[W_PLACE + 1]] if q > 2 else 0
    r2 = work[W_REM + work[W_PLACE + 2]] if q > 3 else 0
    rl = work[W_REM + work[W_PLACE + q - 1]]
    d0, d1, d2 = r0 + 1, r1 + 1, r2 + 1
    if k * d0 * d1 * d2 > tab.shape[0]:
        return False
    # every card count from the layer on: cards of the bound suits from it plus the free cards
    below_k = popcount(pool) - (cnt0 + cnt1 + cnt2 + cnt3)
    if fresh:
        left = below_k
        for layer in range(k - 1, 0, -1):
            left += cnt[layer]
            for n0 in range(min(r0, left) + 1):
                for n1 in range(min(r1, left - n0) + 1):
                    for n2 in range(min(r2, left - n0 - n1) + 1):
                        nl = left - n0 - n1 - n2
                        if nl > rl:
                            continue
                        tab[_at(layer, n0, n1, n2, d0, d1, d2)] = _count(
                            tab, layer, k, (n0, n1, n2, nl), cnt, allow, q, (d0, d1, d2))
        tab[_at(0, r0, r1, r2, d0, d1, d2)] = _count(tab, np.int64(0), k, (r0, r1, r2, rl), cnt,
                                                     allow, q, (d0, d1, d2))
    n0, n1, n2, nl = r0, r1, r2, rl
    last = q - 1
    ti = 0
    for layer in range(k):
        while (bound >> ti) & 1 == 0:
            ti += 1
        t = ti
        ti += 1
        c = cnt[layer]
        a = allow[layer]
        total = tab[_at(layer, n0, n1, n2, d0, d1, d2)]
        if not total > 0.0:
            return False
        u = unit(rng) * total
        acc = 0.0
        p0 = p1 = p2 = pl = -1
        done = False
        for y0 in range(min(c, n0) + 1 if (a & 1) != 0 and last > 0 else 1):
            for y1 in range(min(c - y0, n1) + 1 if (a & 2) != 0 and last > 1 else 1):
                for y2 in range(min(c - y0 - y1, n2) + 1 if (a & 4) != 0 and last > 2 else 1):
                    yl = c - y0 - y1 - y2
                    if yl > nl or (yl > 0 and (a >> last) & 1 == 0):
                        continue
                    w = _split_ways(tab, layer, k, c, (y0, y1, y2, yl), (n0, n1, n2, nl),
                                    (d0, d1, d2))
                    if w > 0.0:
                        p0, p1, p2, pl = y0, y1, y2, yl
                        acc += w
                        if acc > u:
                            done = True
                            break
                if done:
                    break
            if done:
                break
        if p0 < 0:
            return False
        # the suit's cards, shuffled, handed out by the split in place order
        _shuffle(pool & SUIT_MASK[t], work, rng)
        i = 0
        for j in range(q):
            y = p0 if j == 0 and last > 0 else (p1 if j == 1 and last > 1 else (
                p2 if j == 2 and last > 2 else (pl if j == last else 0)))
            s = work[W_PLACE + j]
            for _ in range(y):
                if s < p:
                    out[off + s] |= bit(work[W_CARDS + i])
                i += 1
        n0 -= p0 if last > 0 else 0
        n1 -= p1 if last > 1 else 0
        n2 -= p2 if last > 2 else 0
        nl -= pl
    # what each place still takes, of the free cards
    for j in range(q):
        s = work[W_PLACE + j]
        work[W_REM + s] = n0 if j == 0 and last > 0 else (n1 if j == 1 and last > 1 else (
            n2 if j == 2 and last > 2 else nl))
    return True
