"""Conditional dealing in the compiled engine: hands dealt around known cards, under constraints.

Building blocks for the hand advisor (:mod:`whist_sim.analyses.advisor`) and the bid charts
(:mod:`whist_sim.analyses.advisor.bidchart`). Everything works on the deal state of
:mod:`whist_sim.compiled.ground.layout` (``st``, ``hm``, ``rp``, ``rng``) plus plain arrays; nothing
here allocates (the caller passes the scratch), so the functions run under the engine's no-NRT
options.

Conditional dealing
    :func:`deal_hidden` deals the cards that are not *known* uniformly among the places that are
    not known: seat ``s`` holds ``known[s]`` (any set of cards, up to a full hand) and receives
    ``H - popcount(known[s])`` more cards; with the ``one_random`` three-player deck one more place
    is the removed card. It is the one sampler of hidden hands
    (:mod:`whist_sim.compiled.ground.sampler`) with the known cards pinned and no voids: the unknown
    cards (``deck_mask`` minus every known card, ascending) are shuffled exactly like docs/ENGINE.md
    §3 step 1 (Fisher-Yates from the top, one draw ``below(j + 1)`` per position) and handed out in
    seat order, then the removed-card place. With nothing known this is the engine's own deal, draw
    for draw.

    Constraints on the hands (:func:`satisfies`) are an ``int64[P, N_CONS]`` array, one row per
    seat: minimum suit lengths (columns ``CONS_MIN + suit``), maximum suit lengths
    (``CONS_MAX + suit``), and a high-card-point range (``CONS_HCP_MIN``, ``CONS_HCP_MAX``; A=4,
    K=3, Q=2, J=1). "Void in X" is the length range 0..0. :func:`deal_constrained` deals by
    rejection until the hands satisfy them and returns the number of tries.

The counterfactual contracts of the advisor and the bid charts (every candidate played on the
same deal) are in :mod:`whist_sim.compiled.entry.advise`; they play through the one deal loop.

Conventions: docs/ENGINE.md §1 (cards ``13 * suit + rank``, ``uint64`` hands, strains 0..3 =
C, D, H, S and 4 = NT).
"""

from __future__ import annotations

import numpy as np

from ._numba import jit
from .bits import SUIT_MASK, ZERO, ctz, popcount
from .layout import (
    H_DEALT,
    H_HAND,
    H_START,
    R_HAND,
    R_ONE_RANDOM,
    R_PLAYERS,
    S_REMOVED,
)
from .sampler import W_NEED, deal_pool

# ---------------------------------------------------------------- constraint array columns
CONS_MIN = 0  # + suit: minimum length of that suit
CONS_MAX = 4  # + suit: maximum length
CONS_HCP_MIN = 8
CONS_HCP_MAX = 9
N_CONS = 10
HCP_MAX = 40  # all honours of the deck: no hand exceeds it

_ACES = np.uint64(sum(1 << (13 * s + 12) for s in range(4)))
_KINGS = np.uint64(sum(1 << (13 * s + 11) for s in range(4)))
_QUEENS = np.uint64(sum(1 << (13 * s + 10) for s in range(4)))
_JACKS = np.uint64(sum(1 << (13 * s + 9) for s in range(4)))


def unconstrained(players: int, hand_size: int) -> np.ndarray:
    """A constraint array (``int64[players, N_CONS]``) that every hand satisfies."""
    cons = np.zeros((players, N_CONS), dtype=np.int64)
    cons[:, CONS_MAX:CONS_MAX + 4] = hand_size
    cons[:, CONS_HCP_MAX] = HCP_MAX
    return cons


@jit(inline="always")
def hcp(hand):
    """High-card points of ``hand`` (A=4, K=3, Q=2, J=1)."""
    return (4 * popcount(hand & _ACES) + 3 * popcount(hand & _KINGS)
            + 2 * popcount(hand & _QUEENS) + popcount(hand & _JACKS))


@jit
def deal_hidden(st, hm, rp, known, deck_mask, work, tab, rng):
    """Deal every card of ``deck_mask`` that is not in ``known`` to the places not known.

    ``known``: ``uint64[P]``, the cards known to be in each seat's hand (disjoint, inside
    ``deck_mask``, at most ``H`` per seat: the caller checks). ``work`` / ``tab``: the sampler's
    scratch (:func:`whist_sim.compiled.ground.layout.sampler_scratch`). Writes the hands
    (``H_DEALT``, ``H_HAND`` and ``H_START`` of every seat) and, with the ``one_random`` deck,
    ``S_REMOVED``. Uses ``(number of unknown cards) - 1`` draws
    (:func:`whist_sim.compiled.ground.sampler.deal_pool` without voids).
    """
    p = rp[R_PLAYERS]
    h = rp[R_HAND]
    for s in range(p):
        hm[H_HAND + s] = known[s]
        work[W_NEED + s] = h
    left = deal_pool(p, deck_mask, hm, np.int64(H_HAND), np.int64(0), work, tab, np.bool_(False),
                     rng)
    for s in range(p):
        hm[H_DEALT + s] = hm[H_HAND + s]
        hm[H_START + s] = hm[H_HAND + s]
    if rp[R_ONE_RANDOM] != 0:
        st[S_REMOVED] = ctz(left) if left != ZERO else -1


@jit
def satisfies(hm, rp, cons):
    """True when every seat's current hand (``H_HAND``) meets its row of ``cons``."""
    p = rp[R_PLAYERS]
    for s in range(p):
        hand = hm[H_HAND + s]
        for t in range(4):
            n = popcount(hand & SUIT_MASK[t])
            if n < cons[s, CONS_MIN + t] or n > cons[s, CONS_MAX + t]:
                return False
        v = hcp(hand)
        if v < cons[s, CONS_HCP_MIN] or v > cons[s, CONS_HCP_MAX]:
            return False
    return True


@jit
def deal_constrained(st, hm, rp, known, deck_mask, cons, check, scratch, rng, max_tries):
    """:func:`deal_hidden` until the hands satisfy ``cons`` (skipped when ``check`` is false);
    ``scratch``: the sampler's ``(work, tab)`` (:func:`~.layout.sampler_scratch`).

    Returns the number of deals tried (``>= 1``) when one was accepted, or ``-max_tries`` when
    none of ``max_tries`` was. Rejected deals keep drawing from the same stream.
    """
    work, tab = scratch
    for tries in range(1, max_tries + 1):
        deal_hidden(st, hm, rp, known, deck_mask, work, tab, rng)
        if not check or satisfies(hm, rp, cons):
            return tries
    return -max_tries
