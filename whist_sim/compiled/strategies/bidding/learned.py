"""The compiled ``learned`` bidding strategy (docs/STRATEGIES.md). It makes no random draws.

Its auction calls and Frisch passes are the heuristic's; its contract is the legal number the
contract model values highest (:mod:`whist_sim.core.bid_features` states the model; the weights:
:mod:`whist_sim.core.bid_model`, fitted by ``scripts/train_bidding.py``). Ties go to the smaller
number. The reference engine's :mod:`~whist_sim.engine.learned_bidding` computes the same values in
the same order (tested equal).
"""

from __future__ import annotations

import math

import numpy as np

from ....core.bid_features import (
    B_EARLIER,
    B_EARLIER_ZEROS,
    B_ESTIMATE_Q,
    B_HCP,
    B_LONG_SIDE,
    B_LOW_CARDS,
    B_N_EARLIER,
    B_NO_TRUMP,
    B_ONE,
    B_SHORT,
    B_SIDE_ACES,
    B_TENS_JACKS,
    B_TRUMP_TOP,
    B_TRUMPS,
    CLASS_DECLARER,
    CLASS_LAST,
    CLASS_MIDDLE,
    COL_LOG_SPREAD,
    COL_OVER,
    COL_STEER,
    COL_T,
    COL_Z,
    DECKS,
    FITTED,
    N_BID_FEATURES,
    ROW_LENGTH,
    SCALE,
    TAIL,
    ZERO_FAIL_EXTRA,
)
from ...ground._numba import jit
from ...ground.bits import popcount
from ...ground.layout import (
    H_HAND,
    R_LOW_STRAIN,
    R_MODEL_DECK,
    R_NTRICKS,
    R_PLAYERS,
    S_CONTRACT,
    S_DECLARER,
    S_TRUMP,
    contract_score,
)
from .heuristic import cached_q, heuristic_call, heuristic_frisch, nt_rule


def _weights() -> np.ndarray:
    """Every deck's rows, one after the other: row ``3 * deck + class``."""
    rows = np.array(FITTED, dtype=np.int64)
    if rows.shape != (len(DECKS), 3, ROW_LENGTH):
        raise ValueError(f"the learned bidder's weights must be {len(DECKS)} decks of 3 rows of "
                         f"{ROW_LENGTH} columns, got {rows.shape}")
    return rows.reshape(len(DECKS) * 3, ROW_LENGTH)


_W = _weights()
#: the features in the order :func:`contract_features` writes them; a reordered table fails here
_ORDER = (B_ONE, B_ESTIMATE_Q, B_HCP, B_TRUMPS, B_TRUMP_TOP, B_SIDE_ACES, B_SHORT, B_EARLIER,
          B_NO_TRUMP, B_N_EARLIER, B_EARLIER_ZEROS, B_LONG_SIDE, B_TENS_JACKS, B_LOW_CARDS)
if _ORDER != tuple(range(N_BID_FEATURES)):
    raise ImportError("the learned bidder's features are written in another order than "
                      "whist_sim.core.bid_features names them")
_SUIT = np.uint64(0x1FFF)
_TENS_JACKS = np.uint64(0x300)  # ranks T and J of a suit's 13 bits
_LOW = np.uint64(0x1F)  # ranks 2 to 6
_SQRT2 = math.sqrt(2.0)


@jit
def contract_features(hand, trump, earlier, n_earlier, zeros, q, low_strain):
    """The model's hand features (a tuple of ints in the order of the table, no allocation) of
    ``hand`` with ``trump`` (4 = NT), ``earlier`` (the contracts' sum before the seat's),
    ``n_earlier`` (how many), ``zeros`` (how many of them are zeros), ``q`` (the heuristic's
    estimate in the trump strain) and ``low_strain`` (the deck's lowest suit)."""
    aces = 0
    points = 0
    tens_jacks = 0
    low = 0
    long_side = 0
    for s in range(4):
        sb = (hand >> np.uint64(13 * s)) & _SUIT
        tens_jacks += popcount(sb & _TENS_JACKS)
        low += popcount(sb & _LOW)
        if s >= low_strain and s != trump:
            long_side = max(long_side, popcount(sb))
        a = np.int64((sb >> np.uint64(12)) & np.uint64(1))
        aces += a
        points += 4 * a + 3 * np.int64((sb >> np.uint64(11)) & np.uint64(1)) \
            + 2 * np.int64((sb >> np.uint64(10)) & np.uint64(1)) \
            + np.int64((sb >> np.uint64(9)) & np.uint64(1))
    trumps = 0
    top = 0
    side_aces = aces
    short = 0
    no_trump = 1
    if trump != 4:
        no_trump = 0
        tb = (hand >> np.uint64(13 * trump)) & _SUIT
        trumps = popcount(tb)
        top = popcount(tb >> np.uint64(10))
        side_aces = aces - np.int64((tb >> np.uint64(12)) & np.uint64(1))
        for s in range(low_strain, 4):
            if s != trump:
                n = popcount((hand >> np.uint64(13 * s)) & _SUIT)
                if n == 0:
                    short += 2
                elif n == 1:
                    short += 1
    # in the order of the table (checked at import: _ORDER)
    return (np.int64(1), np.int64(q), np.int64(points), np.int64(trumps), np.int64(top),
            np.int64(side_aces), np.int64(short), np.int64(earlier), np.int64(no_trump),
            np.int64(n_earlier), np.int64(zeros), np.int64(long_side), np.int64(tens_jacks),
            np.int64(low))


@jit
def _below(x, mean, spread):
    """P(X < x) for a normal of ``mean`` and ``spread``."""
    return 0.5 * math.erfc((mean - x) / (spread * _SQRT2))


@jit(inline="always")
def deck_row(rp, cls):
    """The row of weights of position class ``cls`` in the model of the deck of ``rp``
    (:data:`~whist_sim.core.rules.DECKS`, the rules array's ``R_MODEL_DECK``)."""
    return 3 * rp[R_MODEL_DECK] + cls


@jit
def model_terms(f, cls):
    """The model's terms of a decision, computed once for all its contracts: the trick estimate
    ``t`` and the zero's logit ``z`` of features ``f`` in row ``cls`` (:func:`deck_row`), the
    steer and the spread (tricks)."""
    t = 0.0
    z = 0.0
    for i in range(N_BID_FEATURES):
        t += _W[cls, COL_T + i] * f[i]
        z += _W[cls, COL_Z + i] * f[i]
    return (t / SCALE, z / SCALE, _W[cls, COL_STEER] / SCALE,
            math.exp(_W[cls, COL_LOG_SPREAD] / SCALE))


@jit
def contract_value(terms, cls, b, n_tricks, over_known, rp):
    """The model's value in points of contract ``b`` with the decision's :func:`model_terms` of
    row ``cls`` (:func:`deck_row`; ``over_known``: 1/0 when the seat knows the deal over/under
    with its zero, else -1); the reference's ``contract_values`` in the same order of
    operations."""
    t, z, steer, spread = terms
    if b == 0:
        p0 = 1.0 / (1.0 + math.exp(-z))
        if over_known >= 0:
            made = float(contract_score(0, 0, over_known == 1, rp))
        else:
            share = 1.0 / (1.0 + math.exp(-_W[cls, COL_OVER] / SCALE))
            made = (share * contract_score(0, 0, True, rp)
                    + (1.0 - share) * contract_score(0, 0, False, rp))
        first = contract_score(0, 1, False, rp)
        failed = first + (contract_score(0, 2, False, rp) - first) * ZERO_FAIL_EXTRA
        return p0 * made + (1.0 - p0) * failed
    mean = t + steer * (b - t)
    value = 0.0
    below = 0.0
    for k in range(n_tricks + 1):
        x = k + 0.5
        if k == n_tricks or x - mean > TAIL * spread:
            upto = 1.0
        elif mean - x > TAIL * spread:
            upto = 0.0
        else:
            upto = _below(x, mean, spread)
        p = upto - below
        below = upto
        value += p * contract_score(b, k, False, rp)  # the same over or under
    return value


@jit
def learned_contract(st, hm, rp, seat, lo, forbidden, nt_hcp):
    """The legal contract (``lo..N`` less ``forbidden``) of the largest model value; ties go to
    the smaller number. ``nt_hcp``: the NT rule of the heuristic's estimate, a feature (as in
    :func:`~.heuristic.heuristic_call`)."""
    n_tricks = rp[R_NTRICKS]
    players = rp[R_PLAYERS]
    trump = st[S_TRUMP]
    earlier = 0
    n_earlier = 0
    zeros = 0
    for s in range(players):
        c = st[S_CONTRACT + s]
        if c >= 0:
            earlier += c
            n_earlier += 1
            if c == 0:
                zeros += 1
    if seat == st[S_DECLARER]:
        cls = CLASS_DECLARER
    elif n_earlier == players - 1:
        cls = CLASS_LAST
    else:
        cls = CLASS_MIDDLE
    over_known = -1
    if cls == CLASS_LAST:
        over_known = 1 if earlier > n_tricks else 0
    row = deck_row(rp, cls)
    q = st[cached_q(st, hm, rp, seat, nt_hcp) + trump]
    terms = model_terms(contract_features(hm[H_HAND + seat], trump, earlier, n_earlier, zeros,
                                          q, rp[R_LOW_STRAIN]), row)
    best = -1
    best_value = 0.0
    for b in range(lo, n_tricks + 1):
        if b == forbidden:
            continue
        v = contract_value(terms, row, b, n_tricks, over_known, rp)
        if best < 0 or v > best_value:
            best = b
            best_value = v
    return best


# ---------------------------------------------------------------- its decisions (the registry's)


@jit(inline="always")
def learned_decide_call(st, hm, rp, seat, lo, hi, rng, par):
    """The heuristic's auction call with the seat's NT rule as the registry's ``call``."""
    return heuristic_call(st, hm, rp, seat, lo, hi, nt_rule(par, seat, 0))


@jit(inline="always")
def learned_decide_frisch(st, hm, rp, seat, rng, par):
    """The heuristic's Frisch passes as the registry's ``frisch``."""
    return heuristic_frisch(st, hm, rp, seat, rng)


@jit(inline="always")
def learned_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par):
    """:func:`learned_contract` as the registry's ``contract``."""
    return learned_contract(st, hm, rp, seat, lo, forbidden, nt_rule(par, seat, 0))
