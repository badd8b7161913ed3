"""Scoring of one player's deal (RULES.md §6). Units: game points."""

from __future__ import annotations

from .rules import Rules

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
