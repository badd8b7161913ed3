"""The reference ``learned`` bidder's contract model (docs/STRATEGIES.md, docs/BID_MODEL.md):
the hand features and the value of every contract, as :mod:`whist_sim.core.bid_features` states
them; the compiled kernel (``whist_sim/compiled/strategies/bidding/learned.py``) computes the same
in the same order (tests/test_learned_bidding.py), and the decision that reads them is
:func:`whist_sim.engine.policies.learned_contract`."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.bid_features import (
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
    COL_LOG_SPREAD,
    COL_OVER,
    COL_STEER,
    COL_T,
    COL_Z,
    FITTED,
    N_BID_FEATURES,
    ZERO_FAIL_EXTRA,
    deck_of,
)
from ..core.bid_features import SCALE as BID_SCALE
from ..core.bid_features import TAIL as BID_TAIL
from ..core.cards import ACE, KING, NT, QUEEN, hcp, suit_length
from ..core.rules import Rules
from ..core.scoring import score


def contract_features(hand: int, trump: int, earlier: Sequence[int], q: int,
                      rules: Rules | None = None) -> list[int]:
    """The hand features of the ``learned`` contract model (:data:`BID_FEATURES_TABLE`, in its
    order) of ``hand`` with ``trump`` (0..3, 4 = NT), ``earlier`` (the contracts bid before the
    seat's) and ``q`` (the heuristic's estimate in the trump strain,
    :func:`whist_sim.engine.policies.est_q`); ``rules``: the deck (default four players)."""
    f = [0] * N_BID_FEATURES
    f[B_ONE] = 1
    f[B_ESTIMATE_Q] = q
    f[B_HCP] = hcp(hand)
    f[B_EARLIER] = sum(earlier)
    f[B_N_EARLIER] = len(earlier)
    f[B_EARLIER_ZEROS] = sum(1 for c in earlier if c == 0)
    aces = sum(hand >> (13 * s + ACE) & 1 for s in range(4))
    low_strain = 0 if rules is None else rules.lowest_strain
    f[B_LONG_SIDE] = max(suit_length(hand, s) for s in range(low_strain, 4) if s != trump)
    f[B_TENS_JACKS] = sum(hand >> (13 * s + r) & 1 for s in range(4) for r in (8, 9))
    f[B_LOW_CARDS] = sum(hand >> (13 * s + r) & 1 for s in range(4) for r in range(5))
    if trump == NT:
        f[B_SIDE_ACES] = aces
        f[B_NO_TRUMP] = 1
        return f
    f[B_TRUMPS] = suit_length(hand, trump)
    f[B_TRUMP_TOP] = sum(hand >> (13 * trump + r) & 1 for r in (ACE, KING, QUEEN))
    f[B_SIDE_ACES] = aces - (hand >> (13 * trump + ACE) & 1)
    low = 0 if rules is None else rules.lowest_strain
    for s in range(low, 4):
        if s != trump:
            n = suit_length(hand, s)
            f[B_SHORT] += 2 if n == 0 else (1 if n == 1 else 0)
    return f


def _normal_below(x: float, mean: float, spread: float) -> float:
    """P(X < x) for a normal of ``mean`` and ``spread``."""
    return 0.5 * math.erfc((mean - x) / (spread * math.sqrt(2.0)))


def contract_values(feats: list[int], cls: int, legal: list[int], n_tricks: int, over_known: int,
                    rules: Rules, weights: Sequence[Sequence[int]] | None = None
                    ) -> dict[int, float]:
    """The model's value, in points, of each contract of ``legal`` (ascending) for a seat of
    position class ``cls`` with hand features ``feats`` (:mod:`whist_sim.core.bid_features`);
    ``over_known``: 1 (0) when the deal is over (under) with a zero of the seat's, -1 when the
    seat does not know it yet; ``weights``: the model's rows (default: the trained ones of the
    deck of ``rules``). The compiled kernel computes the same, in the same order."""
    if weights is None:
        weights = FITTED[deck_of(rules.players, rules.three_player_deck)]
    w = weights[cls]
    t = 0.0
    z = 0.0
    for i in range(N_BID_FEATURES):
        t += w[COL_T + i] * feats[i]
        z += w[COL_Z + i] * feats[i]
    t /= BID_SCALE
    z /= BID_SCALE
    steer = w[COL_STEER] / BID_SCALE
    spread = math.exp(w[COL_LOG_SPREAD] / BID_SCALE)
    out: dict[int, float] = {}
    for b in legal:
        if b == 0:
            p0 = 1.0 / (1.0 + math.exp(-z))
            if over_known >= 0:
                made = float(score(0, 0, over_known == 1, rules))
            else:
                share = 1.0 / (1.0 + math.exp(-w[COL_OVER] / BID_SCALE))
                made = share * score(0, 0, True, rules) + (1.0 - share) * score(0, 0, False, rules)
            first = score(0, 1, False, rules)
            failed = first + (score(0, 2, False, rules) - first) * ZERO_FAIL_EXTRA
            out[b] = p0 * made + (1.0 - p0) * failed
            continue
        mean = t + steer * (b - t)
        value = 0.0
        below = 0.0
        for k in range(n_tricks + 1):
            x = k + 0.5
            if k == n_tricks or x - mean > BID_TAIL * spread:
                upto = 1.0
            elif mean - x > BID_TAIL * spread:
                upto = 0.0
            else:
                upto = _normal_below(x, mean, spread)
            p = upto - below
            below = upto
            value += p * score(b, k, False, rules)  # a contract's score is the same over
        out[b] = value
    return out


__all__ = ["contract_features", "contract_values"]
