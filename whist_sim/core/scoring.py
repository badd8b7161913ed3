"""Scoring of one player's deal (RULES.md §6). Units: game points."""

from __future__ import annotations

import itertools
from typing import Any

from .rules import MOST_TRICKS, Rules, rule_ranges, scoring_names

_DEFAULT = Rules()


def score(contract: int, tricks: int, over: bool, rules: Rules = _DEFAULT) -> int:
    """Points for a player who bid ``contract`` and took ``tricks`` in an over (``True``) or
    under (``False``) deal, per RULES §6 with the scoring options of ``rules``.

    >>> score(3, 3, over=False), score(4, 6, over=True)
    (19, -20)
    >>> score(0, 0, over=True), score(0, 2, over=False)
    (25, -40)
    """
    b, t = int(contract), int(tricks)
    if b < 0 or t < 0 or b > rules.n_tricks or t > rules.n_tricks:
        raise ValueError(f"contract {b} and tricks {t} must both be in 0..{rules.n_tricks}")
    if b > 0:
        if t == b:
            return t * t + rules.made_bonus
        return -rules.miss_per_trick * abs(t - b)
    if t == 0:
        return rules.zero_over if over else rules.zero_under
    return rules.zero_fail_first + rules.zero_fail_refund * (t - 1)


def score_extremes() -> tuple[int, int]:
    """The lowest and highest score of one deal (RULES §6) over every legal combination of the
    scoring numbers and every contract and trick count (up to :data:`MOST_TRICKS`), by
    :func:`score` itself: the score is linear in each scoring number, so
    the extremes are at the ends of their ranges (every corner of them is tried)."""
    ranges = rule_ranges()
    names = scoring_names()
    scores = []
    for corner in itertools.product(*(ranges[n] for n in names)):
        values: dict[str, Any] = dict(zip(names, corner, strict=True))
        rules = Rules(players=3, three_player_deck="one_random", **values)
        assert rules.n_tricks == MOST_TRICKS
        scores += [score(b, t, over, rules) for b in range(MOST_TRICKS + 1)
                   for t in range(MOST_TRICKS + 1) for over in (False, True)]
    return min(scores), max(scores)
