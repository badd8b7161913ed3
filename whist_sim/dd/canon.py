"""Positions and cards of the double-dummy search: canonical form, tricks, relevance (numba).

Conventions (docs/DD.md tells the whole story):

* A position is four hand masks (bit ``13 * suit + rank``, docs/ENGINE.md §1) at a trick boundary,
  the seat on lead and the trump (0..3, or 4 = no-trump).
* Inside the search the hands are kept in **canonical form**: in every suit the cards still in play
  are moved to the top ranks (the highest live card gets rank 12, the next rank 11, ...). Only the
  order of cards within a suit matters to the play (RULES §5), so a position and its canonical form
  have the same game tree. After each trick the four played cards are squeezed out again. Cards that
  are touching in canonical form are equivalent (equivalent-rank reduction); the transposition table
  is keyed on the canonical form, which merges positions that differ only in played-out ranks.
* A *relevance* mask (canonical positions) holds the cards whose ranks an answer depends on; below
  them every card is a wildcard (``_close_up``, ``_extend_runs``, wildcard siblings ``_note_wild``).

The lowest layer of the solver: it imports only ``_bits``.
"""

from __future__ import annotations

import numba
import numpy as np

from ._bits import INLINE, NJIT, ctz, high_bit, popcount

U = np.uint64
SUIT_BITS = U(0x1FFF)
SUITM = np.array([U(0x1FFF) << U(13 * s) for s in range(4)], dtype=np.uint64)
_TOPS = 0
for _s in range(4):
    _TOPS |= 1 << (13 * _s + 12)
NOT_TOPS = U(((1 << 52) - 1) & ~_TOPS)
FULL = U((1 << 52) - 1)


@numba.njit(**INLINE)
def _suit(card):
    """The suit of a card ``0..51`` (``card // 13`` without the sign handling of a signed
    division: exact for ``0 <= card < 64``)."""
    return (card * 5042) >> 16


@numba.njit(**INLINE)
def _bit(card):
    return U(1) << U(card)


@numba.njit(**NJIT)
def canonical(abs_hands):
    """Canonical form of four disjoint hands (``uint64[4]``): each suit's live cards at the top."""
    out = np.zeros(4, np.uint64)
    for s in range(4):
        pos = 12
        for r in range(12, -1, -1):
            b = U(1) << U(13 * s + r)
            for q in range(4):
                if abs_hands[q] & b:
                    out[q] |= U(1) << U(13 * s + pos)
                    pos -= 1
                    break
    return out


@numba.njit(**INLINE)
def _squeeze_one(h, c):
    """Close the hole of card ``c`` in canonical mask ``h``: the suit's lower cards move up one."""
    below = ((U(1) << U(c)) - U(1)) & SUITM[_suit(c)]
    return (h & ~below) | ((h & below) << U(1))


@numba.njit(**INLINE)
def _squeeze_trick(h0, h1, h2, h3, c0, c1, c2, c3):
    """The four canonical hands with the holes of a trick's four cards closed (``_squeeze_one``
    of each card, lowest first, so that a card's position is not moved before its own hole is
    closed); each card's mask of lower cards is computed once for the four hands."""
    a0, a1, a2, a3 = _sort4(c0, c1, c2, c3)
    for cc in (a0, a1, a2, a3):
        below = ((U(1) << U(cc)) - U(1)) & SUITM[_suit(cc)]
        keep = ~below
        h0 = (h0 & keep) | ((h0 & below) << U(1))
        h1 = (h1 & keep) | ((h1 & below) << U(1))
        h2 = (h2 & keep) | ((h2 & below) << U(1))
        h3 = (h3 & keep) | ((h3 & below) << U(1))
    return h0, h1, h2, h3


@numba.njit(**INLINE)
def _unsqueeze_one(h, c):
    """Inverse of ``_squeeze_one``: open a hole at ``c`` (the suit's cards at or below go down)."""
    le = ((U(2) << U(c)) - U(1)) & SUITM[_suit(c)]
    return (h & ~le) | ((h & le) >> U(1))


@numba.njit(**INLINE)
def _sort4(a0, a1, a2, a3):
    if a0 > a1:
        a0, a1 = a1, a0
    if a2 > a3:
        a2, a3 = a3, a2
    if a0 > a2:
        a0, a2 = a2, a0
    if a1 > a3:
        a1, a3 = a3, a1
    if a1 > a2:
        a1, a2 = a2, a1
    return a0, a1, a2, a3


@numba.njit(**INLINE)
def _beats(c, w, trump):
    """Does card ``c`` beat the card ``w`` currently winning the trick (RULES §5)?"""
    cs = _suit(c)
    ws = _suit(w)
    if cs == ws:
        return c > w
    return cs == trump


@numba.njit(**INLINE)
def _winning_so_far(k, t0, t1, t2, trump):
    """``(card, index)``: the card winning a trick of which ``k >= 1`` cards ``t0..`` are on the
    table, and its index in play order (0 = the lead)."""
    w = t0
    wi = 0
    if k > 1 and _beats(t1, w, trump):
        w = t1
        wi = 1
    if k > 2 and _beats(t2, w, trump):
        w = t2
        wi = 2
    return w, wi


@numba.njit(**INLINE)
def _trick(c0, c1, c2, c3, trump):
    """(index in play order of the winning card, relevance mask) of a complete trick.

    The relevance mask holds the winning card when it beat another card of its own suit by rank
    (then its rank matters to the result); a card that won alone in its suit needs no rank.
    """
    w = c0
    wi = 0
    if _beats(c1, w, trump):
        w = c1
        wi = 1
    if _beats(c2, w, trump):
        w = c2
        wi = 2
    if _beats(c3, w, trump):
        w = c3
        wi = 3
    ws = _suit(w)
    n_same = (_suit(c0) == ws) + (_suit(c1) == ws) + (_suit(c2) == ws) + (_suit(c3) == ws)
    rel = _bit(w) if n_same > 1 else U(0)
    return wi, rel


@numba.njit(**INLINE)
def _close_up(rel, h0, h1, h2, h3):
    """Close a relevance mask upwards in each suit: every live card above a relevant one too.

    Inside a trick the relevant cards may include cards already on the table (not in any hand):
    they are kept.
    """
    out = rel
    live = h0 | h1 | h2 | h3
    for s in range(4):
        x = rel & SUITM[s]
        if x:
            low = U(ctz(x))
            out |= live & SUITM[s] & ~((U(1) << low) - U(1))
    return out


@numba.njit(**INLINE)
def _legal(h, led):
    """Legal cards of hand ``h`` when suit ``led`` was led (-1: leading), RULES §5."""
    if led < 0:
        return h
    follow = h & SUITM[led]
    return follow if follow else h


@numba.njit(**INLINE)
def _extend_runs(rel, legal):
    """Extend the closed relevance ``rel`` of a node whose moves were all searched.

    The search tried one card of each run of touching legal cards. Below the relevant cards every
    card is a wildcard and any one stands for any other, but a run that crosses the lowest relevant
    card was searched as one move only because its cards touch: the whole run becomes relevant.
    """
    out = rel
    for s in range(4):
        x = rel & SUITM[s]
        if x == 0:
            continue
        low = ctz(x)
        if low == 13 * s or not (legal >> U(low)) & U(1) or not (legal >> U(low - 1)) & U(1):
            continue
        gaps = ~legal & ((U(1) << U(low)) - U(1)) & SUITM[s]
        bottom = high_bit(gaps) + 1 if gaps else 13 * s
        out |= ((U(1) << U(low)) - U(1)) & ~((U(1) << U(bottom)) - U(1))
    return out


@numba.njit(**INLINE)
def _note_wild(wild, c, rel):
    """Update ``wild`` after move ``c`` was searched and failed with relevance ``rel``.

    ``wild`` packs, per suit ``s`` (bits ``8s..8s+7``), a rank threshold: every card of suit ``s``
    below it is a *wildcard sibling* of a move already searched (see ``_is_wild``). When ``c`` lies
    below the lowest card of its suit in ``rel`` (the threshold ``T``; 13 if ``rel`` names no card
    of the suit), the suit's threshold becomes at least ``T``.
    """
    s = _suit(c)
    x = rel & SUITM[s]
    t = (ctz(x) - 13 * s) if x else 13
    if c - 13 * s < t:
        old = np.int64((wild >> U(8 * s)) & U(0xFF))
        if t > old:
            wild = (wild & ~(U(0xFF) << U(8 * s))) | (U(t) << U(8 * s))
    return wild


@numba.njit(**INLINE)
def _is_wild(wild, c):
    """Does move ``c`` fail for the same reason as a sibling already searched (``_note_wild``)?

    Soundness (wildcard siblings): sibling ``c0`` of suit ``s`` was searched and failed, its proof
    relying on the owners of the cards ``R`` (closed up: every card of ``s`` from its threshold
    ``T`` upward) and on the suit lengths. When ``c0`` and ``c`` both lie below ``T``, the position
    after ``c`` differs from the one after ``c0`` only in those two cards (one on the table, the
    other in the mover's hand), neither in ``R``, with every suit length the same: it matches the
    pattern of ``c0``'s proof, so ``c`` fails too, with the same relevance (already gathered). A
    card below ``T`` cannot have won the trick by rank either (the winner by rank is in ``R``).
    """
    s = _suit(c)
    return c - 13 * s < np.int64((wild >> U(8 * s)) & U(0xFF))


@numba.njit(**INLINE)
def _len_sig(h0, h1, h2, h3):
    """The 16 suit lengths of the four hands, one nibble each."""
    sig = U(0)
    for s in range(4):
        m = SUITM[s]
        sig |= U(popcount(h0 & m)) << U(16 * s)
        sig |= U(popcount(h1 & m)) << U(16 * s + 4)
        sig |= U(popcount(h2 & m)) << U(16 * s + 8)
        sig |= U(popcount(h3 & m)) << U(16 * s + 12)
    return sig


@numba.njit(**INLINE)
def _sig_after(sig, leader, c0, c1, c2, c3):
    """The suit lengths (``_len_sig``) after a trick: ``sig`` with one card fewer in the suit of
    ``c{i}`` for seat ``leader + i``. (Squeezing keeps every suit length, so the next trick's
    signature is updated, not recounted.)"""
    for i, c in enumerate((c0, c1, c2, c3)):
        sig -= U(1) << U(16 * (_suit(c)) + 4 * ((leader + i) & 3))
    return sig


@numba.njit(**INLINE)
def _top_run(x):
    """Length of the run of set bits of the 13-bit suit ``x`` downwards from rank 12."""
    y = (~x) & SUIT_BITS
    if y == 0:
        return 13
    return 12 - high_bit(y)


@numba.njit(**INLINE)
def _above(b):
    """Mask of the bits strictly above bit ``b`` (all 52 bits when ``b < 0``)."""
    if b < 0:
        return FULL
    return FULL & ~((U(2) << U(b)) - U(1))


@numba.njit(**INLINE)
def _hand(h0, h1, h2, h3, q):
    if q == 0:
        return h0
    if q == 1:
        return h1
    if q == 2:
        return h2
    return h3
