"""Conditional dealing and counterfactual contracts in the compiled engine (issue 5).

Building blocks for the hand advisor (:mod:`whist_sim.advisor`), the bid charts
(:mod:`whist_sim.bidchart`) and any compiled strategy that samples the hidden hands and plays them
out (a ``montecarlo`` bidding strategy). Everything works on the deal state of
:mod:`whist_sim.kernels.layout` (``st``, ``hm``, ``rp``, ``rng``) plus plain arrays; nothing here
allocates (the caller passes the scratch), so the functions run under the engine's no-NRT options.

Conditional dealing
    :func:`deal_hidden` deals the cards that are not *known* uniformly among the places that are
    not known: seat ``s`` holds ``known[s]`` (any set of cards, up to a full hand) and receives
    ``H - popcount(known[s])`` more cards; with the ``one_random`` three-player deck one more place
    is the removed card. The unknown cards (``deck_mask`` minus every known card, ascending) are
    shuffled exactly like docs/ENGINE.md §3 step 1 (Fisher-Yates from the top, one draw
    ``below(j + 1)`` per position) and handed out in seat order, then the removed-card place. With
    nothing known this is the engine's own deal, draw for draw.

    Constraints on the hands (:func:`satisfies`) are an ``int64[P, N_CONS]`` array, one row per
    seat: minimum suit lengths (columns ``CONS_MIN + suit``), maximum suit lengths
    (``CONS_MAX + suit``), and a high-card-point range (``CONS_HCP_MIN``, ``CONS_HCP_MAX``; A=4,
    K=3, Q=2, J=1). "Void in X" is the length range 0..0. :func:`deal_constrained` deals by
    rejection until the hands satisfy them and returns the number of tries.

Counterfactual contracts (common random numbers)
    With the hands dealt and declarer, trump and level set (:func:`begin_contracts`),
    :func:`eval_candidates` plays the *same* deal once per candidate ``(trump, contract)`` of seat
    ``me``: it snapshots ``st``, ``hm`` and the random stream, and for each candidate restores
    them, runs the contract phase with the earlier bidders' contracts forced
    (:func:`contracts_forced`; later bidders bid by their strategy, the last one hooked, RULES §4),
    then the play and the score. Tricks, score and over/under of ``me`` per candidate go to small
    result vectors. :func:`consistent_bids` tells whether the earlier bidders' strategy would have
    made the contracts actually made (bid-consistent sampling).

    The other seats' contracts come from :func:`model_contract`, which calls the bidding
    strategies that do not simulate (``random``, ``heuristic``, ``hcp``, ``ltc``, ``cautious``,
    ``aggressive``) directly rather than through the dispatcher
    :func:`whist_sim.kernels.policies.choose_contract`: a bidding strategy that itself calls this
    module from its contract decision then keeps the compiled call graph free of cycles (the play
    phase only reaches ``choose_card``).

Import order: this module binds :mod:`whist_sim.kernels.phases` at its end, so a compiled strategy
imported by the dispatchers may import it.

Conventions: docs/ENGINE.md §1 (cards ``13 * suit + rank``, ``uint64`` hands, strains 0..3 =
C, D, H, S and 4 = NT); ``forced[seat] = -1`` means "not forced".
"""

from __future__ import annotations

import numpy as np

from ..policies import BID_AGGRESSIVE, BID_CAUTIOUS, BID_HCP, BID_HEURISTIC, BID_LTC
from ._numba import jit
from .bits import ONE, SUIT_MASK, ZERO, bit, ctz, popcount
from .heuristic import heuristic_contract
from .layout import (
    H_DEALT,
    H_HAND,
    H_START,
    R_HAND,
    R_NTRICKS,
    R_ONE_RANDOM,
    R_PLAYERS,
    S_BIDSUM,
    S_CONTRACT,
    S_DECLARER,
    S_LEVEL,
    S_NCONTRACTS,
    S_OVER,
    S_REMOVED,
    S_SCORE,
    S_TRICKS,
    S_TRUMP,
)
from .random_policy import random_contract
from .rng import below
from .strategies import hcp_contract, ltc_contract, shaded_contract

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
def deal_hidden(st, hm, rp, known, deck_mask, work, rng):
    """Deal every card of ``deck_mask`` that is not in ``known`` to the places not known.

    ``known``: ``uint64[P]``, the cards known to be in each seat's hand (disjoint, inside
    ``deck_mask``, at most ``H`` per seat: the caller checks). ``work``: ``int64`` scratch of at
    least 52. Writes the hands (``H_DEALT``, ``H_HAND`` and ``H_START`` of every seat) and, with
    the ``one_random`` deck, ``S_REMOVED``. Uses ``(number of unknown cards) - 1`` draws.
    """
    p = rp[R_PLAYERS]
    h = rp[R_HAND]
    taken = ZERO
    for s in range(p):
        taken |= known[s]
    x = deck_mask & ~taken
    m = 0
    while x != ZERO:
        work[m] = ctz(x)
        x &= x - ONE
        m += 1
    for j in range(m - 1, 0, -1):
        k = below(rng, j + 1)
        t = work[j]
        work[j] = work[k]
        work[k] = t
    i = 0
    for s in range(p):
        hand = known[s]
        for _ in range(h - popcount(known[s])):
            hand |= bit(work[i])
            i += 1
        hm[H_DEALT + s] = hand
        hm[H_HAND + s] = hand
        hm[H_START + s] = hand
    if rp[R_ONE_RANDOM] != 0:
        st[S_REMOVED] = work[i] if i < m else -1


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
def deal_constrained(st, hm, rp, known, deck_mask, cons, check, work, rng, max_tries):
    """:func:`deal_hidden` until the hands satisfy ``cons`` (skipped when ``check`` is false).

    Returns the number of deals tried (``>= 1``) when one was accepted, or ``-max_tries`` when
    none of ``max_tries`` was. Rejected deals keep drawing from the same stream.
    """
    for tries in range(1, max_tries + 1):
        deal_hidden(st, hm, rp, known, deck_mask, work, rng)
        if not check or satisfies(hm, rp, cons):
            return tries
    return -max_tries


# ---------------------------------------------------------------- contracts and play


@jit
def begin_contracts(st, hm, rp, deal, declarer, trump, level):
    """Reset the deal state for a deal that starts at the contract phase.

    The auction is taken as over: ``declarer`` won it in strain ``trump`` at ``level`` (the dealer
    is set to the declarer's right, so the declarer was the first caller). Deal the hands
    afterwards (:func:`deal_hidden`).
    """
    p = rp[R_PLAYERS]
    _phases.begin_deal(st, hm, rp, deal, (declarer + p - 1) % p)
    st[S_DECLARER] = declarer
    st[S_TRUMP] = trump
    st[S_LEVEL] = level


@jit(inline="always")
def model_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng):
    """Contract of ``seat`` by its bidding strategy: ``heuristic``, ``hcp``, ``ltc``,
    ``cautious``, ``aggressive``, else ``random`` (strategies that simulate, such as
    ``montecarlo``, are not modelled: the caller refuses them)."""
    pid = pol[0, seat]
    if pid == BID_HEURISTIC:
        return heuristic_contract(st, hm, rp, seat, lo, forbidden, rng)
    elif pid == BID_HCP:
        return hcp_contract(st, hm, rp, seat, lo, forbidden, par)
    elif pid == BID_LTC:
        return ltc_contract(st, hm, rp, seat, lo, forbidden, par)
    elif pid == BID_CAUTIOUS or pid == BID_AGGRESSIVE:
        return shaded_contract(st, hm, rp, seat, lo, forbidden, par)
    return random_contract(st, hm, rp, seat, lo, forbidden, rng)


@jit
def contracts_forced(st, hm, rp, pol, par, rng, forced, me, my_bid):
    """The contract phase (docs/ENGINE.md §3.4) with some contracts given.

    Declarer first, then clockwise. Seat ``me`` bids ``my_bid``; a seat with ``forced[seat] >= 0``
    bids that; every other seat bids by :func:`model_contract` (the last bidder may not make the
    sum ``N``). Given contracts must be legal (the caller checks) and consume no draw.
    """
    p = rp[R_PLAYERS]
    n = rp[R_NTRICKS]
    decl = st[S_DECLARER]
    total = 0
    for pos in range(p):
        seat = (decl + pos) % p
        lo = st[S_LEVEL] if pos == 0 else 0
        forbidden = n - total if pos == p - 1 else -1
        st[S_NCONTRACTS] = pos
        if seat == me:
            c = my_bid
        elif forced[seat] >= 0:
            c = forced[seat]
        else:
            c = model_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng)
        st[S_CONTRACT + seat] = c
        total += c
    st[S_NCONTRACTS] = p
    st[S_BIDSUM] = total
    st[S_OVER] = 1 if total > n else 0


@jit
def consistent_bids(st, hm, rp, pol, par, rng, forced, positions):
    """Would the first ``positions`` bidders' strategy have bid their ``forced`` contracts?

    Runs :func:`model_contract` for bidding positions ``0 .. positions-1`` on the dealt hands
    (each seeing the contracts before it) and compares. Leaves those contracts in ``st`` and
    resets them to ``-1`` before returning.
    """
    p = rp[R_PLAYERS]
    n = rp[R_NTRICKS]
    decl = st[S_DECLARER]
    total = 0
    ok = True
    for pos in range(positions):
        seat = (decl + pos) % p
        lo = st[S_LEVEL] if pos == 0 else 0
        forbidden = n - total if pos == p - 1 else -1
        st[S_NCONTRACTS] = pos
        c = model_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng)
        if c != forced[seat]:
            ok = False
            break
        st[S_CONTRACT + seat] = c
        total += c
    for pos in range(positions):
        st[S_CONTRACT + (decl + pos) % p] = -1
    st[S_NCONTRACTS] = 0
    return ok


@jit
def eval_candidates(st, hm, rp, pol, par, rng, forced, me, cand_trump, cand_bid, n_cand,
                    snap_st, snap_hm, res_tricks, res_score, res_over):
    """Play the current deal once per candidate ``(cand_trump[k], cand_bid[k])`` of seat ``me``.

    The deal state must be at the start of the contract phase (hands dealt, declarer and level
    set). Every candidate starts from the same snapshot of ``st``, ``hm`` and the random stream
    (common random numbers): trump ``cand_trump[k]``, ``me`` contracts ``cand_bid[k]``, the other
    contracts by :func:`contracts_forced`, then play and score. Results of ``me``:
    ``res_tricks[k]`` (tricks taken), ``res_score[k]`` (points, RULES §6), ``res_over[k]`` (1 if
    the contracts sum to more than the tricks). ``snap_st`` / ``snap_hm``: scratch of the sizes
    of ``st`` / ``hm``. On return the state is that of the last candidate's finished deal.
    """
    for i in range(st.shape[0]):
        snap_st[i] = st[i]
    for i in range(hm.shape[0]):
        snap_hm[i] = hm[i]
    r0 = rng[0]
    for k in range(n_cand):
        if k > 0:
            for i in range(st.shape[0]):
                st[i] = snap_st[i]
            for i in range(hm.shape[0]):
                hm[i] = snap_hm[i]
            rng[0] = r0
        st[S_TRUMP] = cand_trump[k]
        contracts_forced(st, hm, rp, pol, par, rng, forced, me, cand_bid[k])
        _phases.play(st, hm, rp, pol, par, rng)
        _phases.score(st, hm, rp)
        res_tricks[k] = st[S_TRICKS + me]
        res_score[k] = st[S_SCORE + me]
        res_over[k] = st[S_OVER]


# The phase functions are reached through their module, bound here at the end: the dispatchers
# (kernels/policies.py) import compiled strategies, which may import this module, and phases.py
# imports the dispatchers; binding the module last makes every import order work, and numba looks
# up ``_phases.play`` etc. when it compiles the functions above.
from . import phases as _phases  # noqa: E402
