"""Compiled bidding strategies beyond the baseline: ``hcp``, ``ltc``, ``cautious``, ``aggressive``.

A bidding strategy makes three kinds of decision (see
:mod:`whist_sim.compiled.strategies.dispatch`): the auction call, the three Frisch cards, and the
contract. Every strategy here is deterministic: it draws nothing from the deal's random stream
(``rng`` is accepted for the common signature and never touched), so a seat playing one of them
leaves the deal, and every other seat's random decisions, exactly as they would be.

Two families:

* **Estimators** (``hcp``, ``ltc``): a trick estimate per strain in (fractional) tricks, then the
  shared decisions :func:`estimate_call` (bid the best strain at the lowest legal level when the
  rounded estimate reaches the level plus a margin) and :func:`estimate_contract` (the rounded
  estimate; zero for a weak non-declarer; off the forbidden number towards the estimate).
* **Shaded heuristic** (``cautious``, ``aggressive``): the baseline's quarter-trick estimate
  (docs/ENGINE.md §5) with a safety margin in the auction, a shift of the contract and a zero
  threshold, read from the seat's parameter row. The two names are the same function with other
  defaults. They read the estimates and the best strain from the heuristic's per-seat cache
  (:func:`~whist_sim.compiled.strategies.bidding.heuristic.cached_q`): the same function of the
  hand.

Parameters come from ``par[0, seat, j]`` (bidding row of the seat), in the order declared in the
registry (:mod:`whist_sim.compiled.strategies.registry`). Conventions: docs/ENGINE.md §1 (cards ``13
* suit + rank``, hands ``uint64`` masks, strains 0..3 = C, D, H, S and 4 = NT, calls ``5 * n +
strain``).
"""

from __future__ import annotations

import math

import numpy as np

from ...ground._numba import jit
from ...ground.bits import popcount
from ...ground.layout import (
    H_HAND,
    R_LOW_STRAIN,
    R_MAXLEVEL,
    R_NTRICKS,
    R_PLAYERS,
    R_SHARE_GAP_Q,
    S_TRUMP,
    call_floor,
    every_strain_open,
)
from .heuristic import (
    argmax_strain,
    best_bid,
    cached_q,
    nt_hand,
    nt_minimum,
    nt_rule,
    three_lowest,
)

SUIT_BITS = np.uint64(0x1FFF)
ACE, KING, QUEEN, JACK = 12, 11, 10, 9


# ---------------------------------------------------------------------------- shared decisions


@jit(inline="always")
def round_half_up(x):
    """``floor(x + 0.5)`` as an int64."""
    return np.int64(math.floor(x + 0.5))


@jit(inline="always")
def legal_best(st, rp, lo, hi, est):
    """``(strain, estimate)``: the strain with the largest ``est`` (a 5-tuple, strains C, D, H, S,
    NT) among the strains with a legal bid now (``call_floor(st, rp, lo, hi, t) <= max_level``,
    ``lo..hi`` from the loop's ``legal_calls``); ties go to the higher strain. ``(-1, est[0])``
    when none is legal."""
    if every_strain_open(rp, lo, hi):
        return argmax_strain(est)
    top = rp[R_MAXLEVEL]
    best = -1
    best_est = est[0]
    for t in range(5):
        if call_floor(st, rp, lo, hi, t) <= top and (best < 0 or est[t] >= best_est):
            best_est = est[t]
            best = t
    return best, best_est


@jit(forceinline=True)
def estimate_call(st, rp, lo, hi, est, margin):
    """Auction call from trick estimates ``est`` (5-tuple of floats, strains C, D, H, S, NT).

    The best strain is the one with the largest estimate among those with a legal bid now (ties:
    the higher strain). Bid it at its lowest legal level ``n`` (``call_floor``) when
    ``round(est) >= n + margin``; else pass.
    """
    best, best_est = legal_best(st, rp, lo, hi, est)
    if best < 0:
        return 0
    n = call_floor(st, rp, lo, hi, best)
    if round_half_up(best_est) >= n + margin:
        return 5 * n + best
    return 0


@jit(inline="always")
def estimate_contract(rp, est, lo, forbidden, zero_below):
    """Contract from a trick estimate ``est`` in trumps (float tricks).

    ``round(est)`` clipped to ``lo..N``; a non-declarer (``lo == 0``) whose estimate is below
    ``zero_below`` bids zero. If that number is ``forbidden`` (RULES §4, the last bidder), move one
    towards the estimate: up when ``est`` is at or above it (and up is possible), else down (or up
    when down would fall below ``lo``).
    """
    n_tricks = rp[R_NTRICKS]
    want = round_half_up(est)
    if want > n_tricks:
        want = n_tricks
    if want < 0:
        want = 0
    if lo == 0 and est < zero_below:
        want = 0
    if want < lo:
        want = lo
    if want == forbidden:
        if est >= want and want + 1 <= n_tricks:
            want += 1
        elif want - 1 < lo:
            want += 1
        else:
            want -= 1
    return want


@jit(forceinline=True)
def nt_as_best(hand, rp, est, nt_hcp):
    """``est`` (5-tuple of trick estimates, C, D, H, S, NT) with the NT rule of ENGINE.md §5
    applied: for an NT hand (:func:`whist_sim.compiled.strategies.bidding.heuristic.nt_hand`:
    balanced, a stopper in every suit of the deck, ``nt_hcp`` high-card points) NT is worth its best
    suit, so that NT (the higher strain) wins the tie; ``nt_hcp`` 0: the deck's minimum
    (:func:`~whist_sim.compiled.strategies.bidding.heuristic.nt_minimum`). ``nt_hcp < 0``: ``est``
    unchanged."""
    if nt_hcp >= 0 and nt_hand(hand, rp[R_LOW_STRAIN], nt_minimum(nt_hcp, rp[R_PLAYERS])):
        return est[0], est[1], est[2], est[3], max(est[4], est[0], est[1], est[2], est[3])
    return est


@jit(inline="always")
def suit_bits(hand, s):
    """The 13-bit rank pattern of suit ``s`` of ``hand`` (bit ``r`` = rank ``r``, 0 = 2)."""
    return (hand >> np.uint64(13 * s)) & SUIT_BITS


@jit(inline="always")
def has_rank(sb, r):
    """1 if the suit pattern ``sb`` holds rank ``r``, else 0."""
    return np.int64((sb >> np.uint64(r)) & np.uint64(1))


# ---------------------------------------------------------------------------- hcp
# Parameters (registry order): points_per_trick, trump_length, shortness, nt_length, margin,
# zero_below, nt, nt_hcp.


@jit
def hcp_estimates(hand, rp, par, seat):
    """Tricks per strain from high-card points (A=4, K=3, Q=2, J=1) plus distribution points.

    Suit strain ``t`` with ``T`` trumps: HCP + ``trump_length`` per trump beyond three +
    ``shortness`` x (void 3, singleton 2, doubleton 1) over the side suits, the shortness points
    capped at ``3 * (T - 2)`` (none with two trumps or fewer). NT: HCP + ``nt_length`` per card
    beyond four in every suit. Tricks = points / ``points_per_trick``. Then the NT rule
    (:func:`nt_as_best`, parameters ``nt`` and ``nt_hcp``).
    """
    ppt = par[0, seat, 0]
    trump_len = par[0, seat, 1]
    short_w = par[0, seat, 2]
    nt_len = par[0, seat, 3]
    hcp = 0.0
    long_nt = 0.0
    l0 = popcount(suit_bits(hand, 0))
    l1 = popcount(suit_bits(hand, 1))
    l2 = popcount(suit_bits(hand, 2))
    l3 = popcount(suit_bits(hand, 3))
    lens = (l0, l1, l2, l3)
    s0 = 3.0 if l0 == 0 else (2.0 if l0 == 1 else (1.0 if l0 == 2 else 0.0))
    s1 = 3.0 if l1 == 0 else (2.0 if l1 == 1 else (1.0 if l1 == 2 else 0.0))
    s2 = 3.0 if l2 == 0 else (2.0 if l2 == 1 else (1.0 if l2 == 2 else 0.0))
    s3 = 3.0 if l3 == 0 else (2.0 if l3 == 1 else (1.0 if l3 == 2 else 0.0))
    short = (s0, s1, s2, s3)
    for s in range(4):
        sb = suit_bits(hand, s)
        hcp += 4 * has_rank(sb, ACE) + 3 * has_rank(sb, KING) + 2 * has_rank(sb, QUEEN) \
            + has_rank(sb, JACK)
        if lens[s] > 4:
            long_nt += lens[s] - 4
    total_short = s0 + s1 + s2 + s3
    e0 = _hcp_suit(hcp, lens[0], total_short - short[0], trump_len, short_w) / ppt
    e1 = _hcp_suit(hcp, lens[1], total_short - short[1], trump_len, short_w) / ppt
    e2 = _hcp_suit(hcp, lens[2], total_short - short[2], trump_len, short_w) / ppt
    e3 = _hcp_suit(hcp, lens[3], total_short - short[3], trump_len, short_w) / ppt
    e4 = (hcp + nt_len * long_nt) / ppt
    return nt_as_best(hand, rp, (e0, e1, e2, e3, e4), nt_rule(par, seat, 6))


@jit(inline="always")
def _hcp_suit(hcp, trumps, side_short, trump_len, short_w):
    pts = hcp
    if trumps > 3:
        pts += trump_len * (trumps - 3)
    if trumps > 2:
        cap = 3.0 * (trumps - 2)
        v = short_w * side_short
        pts += v if v < cap else cap
    return pts


@jit
def hcp_call(st, hm, rp, seat, lo, hi, par):
    """``hcp`` auction call: :func:`estimate_call` on :func:`hcp_estimates`."""
    est = hcp_estimates(hm[H_HAND + seat], rp, par, seat)
    return estimate_call(st, rp, lo, hi, est, par[0, seat, 4])


@jit
def hcp_contract(st, hm, rp, seat, lo, forbidden, par):
    """``hcp`` contract: :func:`estimate_contract` on the estimate in trumps."""
    est = hcp_estimates(hm[H_HAND + seat], rp, par, seat)
    return estimate_contract(rp, est[st[S_TRUMP]], lo, forbidden, par[0, seat, 5])


# ---------------------------------------------------------------------------- ltc
# Parameters (registry order): side_weight, nt_length, margin, zero_below, nt, nt_hcp.


@jit(inline="always")
def ltc_losers(sb):
    """Losing-trick count of one suit: missing A, K, Q among its first ``min(length, 3)`` cards.

    Void 0; singleton: 0 with the ace, else 1; doubleton: AK 0, A or K 1, else 2; three or more:
    3 minus the number of A, K, Q held.
    """
    n = popcount(sb)
    a = has_rank(sb, ACE)
    k = has_rank(sb, KING)
    q = has_rank(sb, QUEEN)
    if n == 0:
        return 0
    if n == 1:
        return 1 - a
    if n == 2:
        return 2 - a - k
    return 3 - a - k - q


@jit
def ltc_estimates(hand, rp, par, seat):
    """Tricks per strain from the losing-trick count.

    A suit's *winners* are its first ``min(length, 3)`` cards minus its losers. Suit strain ``t``:
    every trump that is not a loser (``T - losers``) plus ``side_weight`` x the winners of the
    side suits. NT: ``side_weight`` x all winners + ``nt_length`` per card beyond four. Then the
    NT rule (:func:`nt_as_best`, parameters ``nt`` and ``nt_hcp``).
    """
    side_w = par[0, seat, 0]
    nt_len = par[0, seat, 1]
    sb0 = suit_bits(hand, 0)
    sb1 = suit_bits(hand, 1)
    sb2 = suit_bits(hand, 2)
    sb3 = suit_bits(hand, 3)
    lens = (popcount(sb0), popcount(sb1), popcount(sb2), popcount(sb3))
    loss = (ltc_losers(sb0), ltc_losers(sb1), ltc_losers(sb2), ltc_losers(sb3))
    w = (min(lens[0], 3) - loss[0], min(lens[1], 3) - loss[1], min(lens[2], 3) - loss[2],
         min(lens[3], 3) - loss[3])
    total_w = w[0] + w[1] + w[2] + w[3]
    long_nt = 0
    for s in range(4):
        if lens[s] > 4:
            long_nt += lens[s] - 4
    e0 = (lens[0] - loss[0]) + side_w * (total_w - w[0])
    e1 = (lens[1] - loss[1]) + side_w * (total_w - w[1])
    e2 = (lens[2] - loss[2]) + side_w * (total_w - w[2])
    e3 = (lens[3] - loss[3]) + side_w * (total_w - w[3])
    e4 = side_w * total_w + nt_len * long_nt
    return nt_as_best(hand, rp, (e0, e1, e2, e3, e4), nt_rule(par, seat, 4))


@jit
def ltc_call(st, hm, rp, seat, lo, hi, par):
    """``ltc`` auction call: :func:`estimate_call` on :func:`ltc_estimates`."""
    est = ltc_estimates(hm[H_HAND + seat], rp, par, seat)
    return estimate_call(st, rp, lo, hi, est, par[0, seat, 2])


@jit
def ltc_contract(st, hm, rp, seat, lo, forbidden, par):
    """``ltc`` contract: :func:`estimate_contract` on the estimate in trumps."""
    est = ltc_estimates(hm[H_HAND + seat], rp, par, seat)
    return estimate_contract(rp, est[st[S_TRUMP]], lo, forbidden, par[0, seat, 3])


@jit
def ltc_frisch(st, hm, rp, seat):
    """``ltc`` Frisch: the three cards with the smallest ``suit_length * 64 + rank * 4 + suit``.

    Shortest suits first (lowest card first within a suit), to make voids and singletons, which
    the losing-trick count values; lengths are taken before passing.
    """
    return three_lowest(hm[H_HAND + seat], True)


# ---------------------------------------------------------------------------- shaded heuristic
# Parameters (registry order): margin_q, shift_q, zero_below_q, forbidden_up, nt, nt_hcp.


@jit(inline="always")
def _tricks_q(q, n_tricks):
    """``clip((q + 2) // 4, 0, n_tricks)``: tricks from quarter tricks, rounded half up."""
    e = (q + 2) // 4
    if e < 0:
        return 0
    return e if e < n_tricks else n_tricks


@jit
def shaded_call(st, hm, rp, seat, lo, hi, par):
    """Auction: the heuristic's best strain, bid when ``est(q - margin_q)`` reaches the level.

    ``margin_q`` > 0 asks for a safety margin (``cautious``), < 0 bids above the estimate
    (``aggressive``); 0 is the heuristic's auction. The strain and its lowest legal level are
    the heuristic's (:func:`~whist_sim.compiled.strategies.bidding.heuristic.best_bid`): no estimate
    is below -2 quarter tricks, so rounding with a clip at 0 (:func:`_tricks_q`) would rank the
    strains the same.
    """
    n_tricks = rp[R_NTRICKS]
    base, best, n = best_bid(st, hm, rp, seat, lo, hi, nt_rule(par, seat, 4))
    if best < 0:
        return 0
    best_q = st[base + best]
    margin = np.int64(par[0, seat, 0])
    if _tricks_q(best_q - margin, n_tricks) >= n:
        return 5 * n + best
    return 0


@jit(inline="always")
def share_gap_q(rp):
    """Quarter tricks of a player's share of the tricks that the heuristic's estimate does not
    see on the deck of ``rp``: ``4 * N // P - 13 - deck_adjust_q`` (0 with four players; 4 with
    ``no_suit`` and ``one_random``, 5 with ``no_low``). With three players a hand has fewer idle
    cards to shed, so a low contract is harder to make than its estimate says. Computed once by
    ``rules_array`` (``rp[R_SHARE_GAP_Q]``)."""
    return rp[R_SHARE_GAP_Q]


@jit
def shaded_contract(st, hm, rp, seat, lo, forbidden, par):
    """Contract: ``est(q - shift_q)`` in trumps; zero for a non-declarer below ``zero_below_q``.

    On a deck with a share gap (:func:`share_gap_q`, three players) the shading is eased:
    ``zero_below_q - gap``, and ``shift_q`` moves ``gap // 2`` towards 0 (not past it): fewer
    idle cards make a low contract harder, and three upward-shaded contracts overshoot ``N``.

    A forbidden number (the last bidder) moves up when ``forbidden_up`` is 1 (and up is possible),
    else down (up when down would fall below ``lo``).
    """
    n_tricks = rp[R_NTRICKS]
    q = st[cached_q(st, hm, rp, seat, nt_rule(par, seat, 4)) + st[S_TRUMP]]  # est_q_deck, trumps
    gap = share_gap_q(rp)
    shift = np.int64(par[0, seat, 1])
    if shift > 0:
        shift = max(shift - gap // 2, 0)
    elif shift < 0:
        shift = min(shift + gap // 2, 0)
    want = _tricks_q(q - shift, n_tricks)
    if lo == 0 and q < np.int64(par[0, seat, 2]) - gap:
        want = 0
    if want < lo:
        want = lo
    if want == forbidden:
        up = par[0, seat, 3] != 0.0
        if (up and want + 1 <= n_tricks) or want - 1 < lo:
            want += 1
        else:
            want -= 1
    return want


# ---------------------------------------------------------------- their decisions (the registry's)
# In the signatures of the decision points (whist_sim.core.registry.Decisions); numba inlines
# them into the generated dispatch, so they cost nothing.


@jit(inline="always")
def hcp_decide_call(st, hm, rp, seat, lo, hi, rng, par):
    """:func:`hcp_call` as the registry's ``call``."""
    return hcp_call(st, hm, rp, seat, lo, hi, par)


@jit(inline="always")
def hcp_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par):
    """:func:`hcp_contract` as the registry's ``contract``."""
    return hcp_contract(st, hm, rp, seat, lo, forbidden, par)


@jit(inline="always")
def ltc_decide_call(st, hm, rp, seat, lo, hi, rng, par):
    """:func:`ltc_call` as the registry's ``call``."""
    return ltc_call(st, hm, rp, seat, lo, hi, par)


@jit(inline="always")
def ltc_decide_frisch(st, hm, rp, seat, rng, par):
    """:func:`ltc_frisch` as the registry's ``frisch``."""
    return ltc_frisch(st, hm, rp, seat)


@jit(inline="always")
def ltc_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par):
    """:func:`ltc_contract` as the registry's ``contract``."""
    return ltc_contract(st, hm, rp, seat, lo, forbidden, par)


@jit(inline="always")
def shaded_decide_call(st, hm, rp, seat, lo, hi, rng, par):
    """:func:`shaded_call` as the registry's ``call`` (``cautious`` and ``aggressive``)."""
    return shaded_call(st, hm, rp, seat, lo, hi, par)


@jit(inline="always")
def shaded_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par):
    """:func:`shaded_contract` as the registry's ``contract`` (``cautious`` and
    ``aggressive``)."""
    return shaded_contract(st, hm, rp, seat, lo, forbidden, par)
