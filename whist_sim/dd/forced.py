"""whist-min's sure bounds of the double-dummy search (numba): the tricks a seat that wants few
tricks is forced to take (``_min_floor``), whether it can duck every trick (``_min_duck``) or
surely take none (``_min_zero``). Conventions as in :mod:`whist_sim.dd.bounds`: a canonical
position in, ``(tricks or yes, relevance)`` out, where the relevance mask holds the cards whose
ranks the answer relies on.
"""

from __future__ import annotations

import numba

from ._bits import INLINE, NJIT, ctz, high_bit, popcount
from .canon import SUITM, U, _hand


@numba.njit(**INLINE)
def _forced_ruffer(h0, h1, h2, h3, s, trump, side):
    """Is some seat of ``side`` void in suit ``s`` (not trumps) with nothing but trumps left?

    Such a seat must ruff when ``s`` is led (RULES §5); any other seat of ``side`` either follows
    suit or may discard a card of a plain suit (which never wins the trick).
    """
    if trump < 4 and s != trump:
        for q in range(4):
            hq = _hand(h0, h1, h2, h3, q)
            if (side >> q) & 1 and hq and hq & SUITM[s] == 0 and hq & ~SUITM[trump] == 0:
                return True
    return False


@numba.njit(**NJIT)
def _min_floor(h0, h1, h2, h3, p, leader, trump):
    """``(tricks, relevance)``: whist-min (the other three push tricks on p), tricks p surely
    takes from here because of the current trick alone (0 or 1; ``r`` in the case below).

    A suit ``s`` *forces* p when p holds cards of ``s``, every card of ``s`` the other three hold
    is below p's lowest one, and none of them is void in ``s`` with only trumps left (a forced
    ruff). Then, ``s`` being led, the others follow below p or discard a plain card, and whatever
    card of ``s`` p plays is the highest of the suit with no trump in the trick (or is a trump
    above every other trump): p wins. A lower bound needs one plan of the pushing side only:
    * another seat leads and holds a forcing suit: it leads it -> 1 trick;
    * p leads and every suit p holds forces p -> 1 trick; with no-trump, or no trump among the
      other three, nothing ever changes that (cards only leave; nobody can ruff): p wins all ``r``.
    Relevance: p's lowest card of each forcing suit used (closed up by the caller: the owners of
    every card of ``s`` from there up, with the suit lengths, fix that p's cards of ``s`` are
    exactly those and the others' are all below); the forced-ruff test needs only lengths.
    """
    hp = _hand(h0, h1, h2, h3, p)
    side = 15 ^ (1 << p)
    oth = U(0)
    for q in range(4):
        if q != p:
            oth |= _hand(h0, h1, h2, h3, q)
    if leader != p:
        hl = _hand(h0, h1, h2, h3, leader)
        for s in range(4):
            m = SUITM[s]
            if hl & m == 0 or hp & m == 0:
                continue
            low = ctz(hp & m)
            if high_bit(oth & m) < low and not _forced_ruffer(h0, h1, h2, h3, s, trump, side):
                return 1, U(1) << U(low)
        return 0, U(0)
    rel = U(0)
    for s in range(4):
        m = SUITM[s]
        if hp & m == 0:
            continue
        low = ctz(hp & m)
        if high_bit(oth & m) >= low or _forced_ruffer(h0, h1, h2, h3, s, trump, side):
            return 0, U(0)
        rel |= U(1) << U(low)
    if trump == 4 or oth & SUITM[trump] == 0:
        return popcount(hp), rel
    return 1, rel


@numba.njit(**NJIT)
def _min_duck(h0, h1, h2, h3, p, leader, trump):
    """``(yes, relevance)``: whist-min, can p surely lose the current trick (an upper bound of
    ``r - 1`` on p's tricks)?

    * p leads: p holds a card below every card of suit ``s`` of some other seat ``q`` holding
      ``s``. p leads its lowest card of ``s``; ``q`` must follow with a higher card of ``s``, so p
      loses (a trump by anyone else beats it too). Relevance: ``q``'s lowest card of ``s`` (closed
      up: ``q``'s cards of ``s`` are exactly those named, p's count above it is fixed, so p still
      has a card below it).
    * another seat leads: for every suit ``s`` the leader holds, p holds a card of ``s`` below the
      leader's lowest one (p plays it under the card led), or p is void in ``s`` and can discard a
      card that cannot win (``s`` is trumps, no-trump, or p holds a plain card). Relevance: the
      leader's lowest card of each suit where p follows (closed up, as above); the rest is lengths.
    """
    hp = _hand(h0, h1, h2, h3, p)
    if leader == p:
        for q in range(4):
            if q == p:
                continue
            hq = _hand(h0, h1, h2, h3, q)
            for s in range(4):
                m = SUITM[s]
                if hq & m and hp & m and ctz(hp & m) < ctz(hq & m):
                    return True, U(1) << U(ctz(hq & m))
        return False, U(0)
    hl = _hand(h0, h1, h2, h3, leader)
    rel = U(0)
    plain = trump == 4 or hp & ~SUITM[trump] != 0
    for s in range(4):
        m = SUITM[s]
        if hl & m == 0:
            continue
        if hp & m:
            low = ctz(hl & m)
            if ctz(hp & m) > low:
                return False, U(0)
            rel |= U(1) << U(low)
        elif not (s == trump or plain):
            return False, U(0)
    return True, rel


@numba.njit(**NJIT)
def _min_zero(h0, h1, h2, h3, p, leader, trump):
    """``(yes, relevance)``: whist-min, can p surely lose every remaining trick (an upper bound of
    0 on p's tricks)?

    Yes when another seat is on lead, p holds no trump (or the deal is no-trump), and in every suit
    ``s`` p's ``j``-th lowest card is below the others' ``j``-th lowest card of ``s`` for every
    ``j`` up to the shorter of the two holdings. p's plan: follow suit with his lowest card;
    when void, discard his highest card of any suit (a plain card: it never wins). As long as p
    wins nothing he never leads, so the ``j``-th lead of ``s`` comes from the others after they
    have played at least ``j - 1`` cards of ``s``: the card led is at least their original
    ``j``-th lowest, and p's lowest left is his ``j``-th lowest (his discards take his highest
    cards), so p plays under the card led and loses the trick. Once they are out of ``s`` it is
    never led again.
    Relevance: p's lowest card of each suit both sides hold, the lowest of that suit (closed up by
    the caller: the owners of the whole suit); the rest is lengths.
    """
    if leader == p:
        return False, U(0)
    hp = _hand(h0, h1, h2, h3, p)
    if trump < 4 and hp & SUITM[trump]:
        return False, U(0)
    oth = U(0)
    for q in range(4):
        if q != p:
            oth |= _hand(h0, h1, h2, h3, q)
    rel = U(0)
    for s in range(4):
        mp = hp & SUITM[s]
        mo = oth & SUITM[s]
        if mp == 0 or mo == 0:
            continue
        rel |= U(1) << U(ctz(mp))
        while mp and mo:
            if ctz(mp) > ctz(mo):
                return False, U(0)
            mp &= mp - U(1)
            mo &= mo - U(1)
    return True, rel
