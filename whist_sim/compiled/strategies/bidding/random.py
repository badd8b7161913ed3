"""The compiled ``random`` bidding strategy (docs/ENGINE.md §4): uniform over the legal actions.

Every decision consumes exactly one draw ``below(number of legal actions)``, even when only one
action is legal; the legal actions are listed as in ENGINE.md §3 (ascending).
"""

from __future__ import annotations

from ...ground._numba import jit
from ...ground.bits import bit, nth_bit
from ...ground.layout import (
    H_HAND,
    R_CALLS_RUN,
    R_HAND,
    R_MAXLEVEL,
    R_NTRICKS,
    S_FLOOR,
)
from ...ground.rng import below


@jit(inline="always")
def random_call(st, hm, rp, seat, lo, hi, rng):
    """Auction call: pass (index 0) or the k-th legal bid code, ascending (one draw even when
    only pass is legal).

    The legal bids are the levels ``call_floor(st, rp, lo, hi, t)..max_level`` of each strain
    ``t``; when they fill ``lo..hi`` (``rp[R_CALLS_RUN]``: ``bid_order=number`` with every strain
    biddable) the k-th is ``lo + k - 1``, otherwise the codes of ``lo..hi`` are counted off (the
    levels are then ``st[S_FLOOR + t]``, written by the loop's ``legal_calls``).
    """
    if rp[R_CALLS_RUN] != 0:  # every code of lo..hi is legal
        n_bids = hi - lo + 1 if hi >= lo else 0
        k = below(rng, n_bids + 1)
        return 0 if k == 0 else lo + k - 1
    top = rp[R_MAXLEVEL]
    n_bids = 0
    for t in range(5):
        f = st[S_FLOOR + t]
        if f <= top:
            n_bids += top - f + 1
    k = below(rng, n_bids + 1)
    if k == 0:
        return 0
    for c in range(lo, hi + 1):
        if c // 5 >= st[S_FLOOR + c % 5]:
            k -= 1
            if k == 0:
                return c
    return 0


@jit(inline="always")
def random_frisch(st, hm, rp, seat, rng):
    """Frisch: draws ``below(H)``, ``below(H-1)``, ``below(H-2)`` index the ascending hand."""
    rest = hm[H_HAND + seat]
    h = rp[R_HAND]
    out = rest & ~rest
    for j in range(3):
        c = nth_bit(rest, below(rng, h - j))
        b = bit(c)
        rest &= ~b
        out |= b
    return out


@jit(inline="always")
def random_contract(st, hm, rp, seat, lo, forbidden, rng):
    """Contract: the k-th of ``lo..N`` ascending, skipping ``forbidden`` (if in range)."""
    n = rp[R_NTRICKS]
    count = n - lo + 1
    skip = lo <= forbidden <= n
    if skip:
        count -= 1
    v = lo + below(rng, count)
    if skip and v >= forbidden:
        v += 1
    return v


# ---------------------------------------------------------------- its decisions (the registry's)
# In the signatures of the decision points (whist_sim.core.registry.Decisions); numba inlines
# them into the generated dispatch, so they cost nothing.


@jit(inline="always")
def random_decide_call(st, hm, rp, seat, lo, hi, rng, par):
    """:func:`random_call` as the registry's ``call``."""
    return random_call(st, hm, rp, seat, lo, hi, rng)


@jit(inline="always")
def random_decide_frisch(st, hm, rp, seat, rng, par):
    """:func:`random_frisch` as the registry's ``frisch``."""
    return random_frisch(st, hm, rp, seat, rng)


@jit(inline="always")
def random_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par):
    """:func:`random_contract` as the registry's ``contract``."""
    return random_contract(st, hm, rp, seat, lo, forbidden, rng)
