"""The contract model of the ``learned`` bidding strategy, named once (docs/STRATEGIES.md).

The ``learned`` bidder values every legal contract of its seat and bids the best one. Its
values come from a small model of the tricks the seat will take, fitted to the values search
gives every contract of recorded hands (``scripts/train_bidding.py``, ``make train``; the
weights: :mod:`whist_sim.core.bid_model`; the data card: docs/BID_MODEL.md):

* the seat's **position class**: the declarer, a middle bidder, or the last bidder (who may be
  hooked: the contracts may not sum to the tricks of the deal, RULES §4); one row of weights
  each;
* the **hand features** of :data:`BID_FEATURES_TABLE`, integers read from the seat's own hand,
  the trump strain and the earlier contracts (their sum, how many, how many zeros), blind to
  suit names;
* a **trick estimate** ``t = sum_i W[T + i] x_i / SCALE`` (tricks) and a spread
  ``s = exp(W[LOG_SPREAD] / SCALE)`` (tricks);
* for a contract ``b > 0``: the tricks taken are spread as a normal of mean
  ``t + (W[STEER] / SCALE) (b - t)`` and spread ``s``, cut at the half tricks into
  ``0 .. N`` (a cut more than :data:`TAIL` spreads from the mean is taken as the normal's
  end); the value is the rules' score (RULES §6: ``b * b + made_bonus`` when made, else
  ``-miss_per_trick`` per trick off) summed over that spread;
* for a zero: the chance of taking no trick ``p0 = 1 / (1 + exp(-sum_i W[Z + i] x_i / SCALE))``
  times the zero's score (the last bidder knows whether the deal is over; the others weigh
  ``zero_over`` by ``1 / (1 + exp(-W[OVER] / SCALE))``), plus ``1 - p0`` times the failed zero's
  score with :data:`ZERO_FAIL_EXTRA` tricks past the first.

The scoring numbers are read from the rules of the deal, so a change of scoring changes the
contract. The compiled kernel (``whist_sim/compiled/strategies/bidding/learned.py``), its
reference twin (:mod:`whist_sim.engine.learned_bidding`, read by
:func:`whist_sim.engine.policies.learned_contract`) and the training read the
features and the columns of a row through the constants below, never by bare numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .bid_model import FEATURES as _FITTED_FEATURES
from .bid_model import MODELS as _FITTED_MODELS
from .rules import (  # the decks are the rules' (the play model reads them too)
    DECK_FOUR,
    DECK_NO_LOW,
    DECK_NO_SUIT,
    DECK_ONE_RANDOM,
    DECKS,
    deck_of,
)


class BidFeature(NamedTuple):
    """One hand feature of the contract model: its ``name`` and what it holds."""

    name: str
    doc: str


#: the hand features, in the order of a row's trick weights and of its zero weights
BID_FEATURES_TABLE: tuple[BidFeature, ...] = (
    BidFeature("one", "1 (the constant term)"),
    BidFeature("estimate_q", "the heuristic's estimate of the hand in the trump strain, in "
                             "quarter tricks (docs/ENGINE.md §5)"),
    BidFeature("hcp", "high-card points: A 4, K 3, Q 2, J 1"),
    BidFeature("trumps", "the seat's trumps (0 at No Trump)"),
    BidFeature("trump_top", "the seat's A, K and Q of trumps (0 at No Trump)"),
    BidFeature("side_aces", "aces outside the trump suit (every ace at No Trump)"),
    BidFeature("short", "2 per side suit void and 1 per side singleton (0 at No Trump)"),
    BidFeature("earlier", "the sum of the contracts bid before the seat's"),
    BidFeature("no_trump", "1 at No Trump"),
    BidFeature("n_earlier", "the contracts bid before the seat's"),
    BidFeature("earlier_zeros", "the zeros among the contracts bid before the seat's"),
    BidFeature("long_side", "the length of the longest side suit (the longest suit at No Trump)"),
    BidFeature("tens_jacks", "tens and jacks"),
    BidFeature("low_cards", "cards from two to six"),
)

#: the feature names, in the order of a row's weights
BID_FEATURES: tuple[str, ...] = tuple(f.name for f in BID_FEATURES_TABLE)
N_BID_FEATURES = len(BID_FEATURES_TABLE)

# The index of each feature (plain ints: compiled code reads them as constants).
(B_ONE, B_ESTIMATE_Q, B_HCP, B_TRUMPS, B_TRUMP_TOP, B_SIDE_ACES, B_SHORT, B_EARLIER,
 B_NO_TRUMP, B_N_EARLIER, B_EARLIER_ZEROS, B_LONG_SIDE, B_TENS_JACKS,
 B_LOW_CARDS) = range(N_BID_FEATURES)

#: the columns of a row of weights: the trick weights (one per feature), the steer, the log of
#: the spread, the zero weights (one per feature), the over share of a zero's score
COL_T = 0
COL_STEER = N_BID_FEATURES
COL_LOG_SPREAD = N_BID_FEATURES + 1
COL_Z = N_BID_FEATURES + 2
COL_OVER = 2 * N_BID_FEATURES + 2
ROW_LENGTH = 2 * N_BID_FEATURES + 3


#: the position classes, one row of weights each
CLASS_DECLARER, CLASS_MIDDLE, CLASS_LAST = 0, 1, 2
CLASSES: tuple[str, ...] = ("declarer", "middle", "last")

#: the weights are integers in units of 1 / SCALE
SCALE = 10000
#: spreads beyond which a trick count's chance is taken as 0 or 1 (a normal's tail past 8
#: spreads is below 1e-15)
TAIL = 8.0
#: the tricks past the first that a failed zero is scored with (the zero bidder's average)
ZERO_FAIL_EXTRA = 0.5


def position_class(is_declarer: bool, n_earlier: int, players: int) -> int:
    """The position class of a seat to contract: the declarer, the last of the ``players``
    (``n_earlier`` contracts bid before it) or a middle bidder."""
    if is_declarer:
        return CLASS_DECLARER
    return CLASS_LAST if n_earlier == players - 1 else CLASS_MIDDLE


def weight_rows(weights: Sequence[Sequence[int]], features: Sequence[str]
                ) -> tuple[tuple[int, ...], ...]:
    """Rows of weights fitted with the features ``features`` (their columns in that order), laid
    out in the columns of today's table: a feature the fit did not have weighs 0, so that adding
    a feature does not edit a model by hand. A feature the table no longer has, or a row of
    another length, is an error (the model is out of date: ``make train``)."""
    unknown = [f for f in features if f not in BID_FEATURES]
    if unknown:
        raise ValueError(f"the learned bidder's model names features the table does not have: "
                         f"{', '.join(unknown)} (retrain it: make train)")
    n = len(features)
    rows = []
    for row in weights:
        if len(row) != 2 * n + 3:
            raise ValueError(f"the learned bidder's weights must be rows of {2 * n + 3} columns "
                             f"for {n} features, got {len(row)}")
        out = [0] * ROW_LENGTH
        for i, name in enumerate(features):
            j = BID_FEATURES.index(name)
            out[COL_T + j] = int(row[i])
            out[COL_Z + j] = int(row[n + 2 + i])
        out[COL_STEER] = int(row[n])
        out[COL_LOG_SPREAD] = int(row[n + 1])
        out[COL_OVER] = int(row[2 * n + 2])
        rows.append(tuple(out))
    if len(rows) != len(CLASSES):
        raise ValueError(f"the learned bidder's model must have {len(CLASSES)} rows (one per "
                         f"position class), got {len(rows)}")
    return tuple(rows)


def fitted_models(models: Mapping[str, Sequence[Sequence[int]]], features: Sequence[str]
                  ) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The rows of every deck's model (in the order of :data:`DECKS`) in today's columns
    (:func:`weight_rows`); a deck with no model is an error, not a silent stand-in."""
    missing = [d for d in DECKS if d not in models]
    if missing:
        raise ValueError(f"the learned bidder's model has no weights for the deck(s) "
                         f"{', '.join(missing)} (make train)")
    return tuple(weight_rows(models[d], features) for d in DECKS)


#: the trained weights (:mod:`whist_sim.core.bid_model`) of every deck, in today's columns
FITTED: tuple[tuple[tuple[int, ...], ...], ...] = fitted_models(_FITTED_MODELS, _FITTED_FEATURES)
#: the four-player model's rows
FITTED_ROWS = FITTED[DECK_FOUR]

__all__ = [
    "BID_FEATURES",
    "BID_FEATURES_TABLE",
    "BidFeature",
    "CLASSES",
    "CLASS_DECLARER",
    "CLASS_LAST",
    "CLASS_MIDDLE",
    "COL_LOG_SPREAD",
    "COL_OVER",
    "COL_STEER",
    "COL_T",
    "COL_Z",
    "N_BID_FEATURES",
    "ROW_LENGTH",
    "SCALE",
    "TAIL",
    "ZERO_FAIL_EXTRA",
    "DECKS",
    "DECK_FOUR",
    "DECK_NO_LOW",
    "DECK_NO_SUIT",
    "DECK_ONE_RANDOM",
    "FITTED",
    "FITTED_ROWS",
    "deck_of",
    "fitted_models",
    "position_class",
    "weight_rows",
    "B_EARLIER",
    "B_EARLIER_ZEROS",
    "B_N_EARLIER",
    "B_ESTIMATE_Q",
    "B_HCP",
    "B_NO_TRUMP",
    "B_ONE",
    "B_SHORT",
    "B_SIDE_ACES",
    "B_TRUMPS",
    "B_TRUMP_TOP",
]
