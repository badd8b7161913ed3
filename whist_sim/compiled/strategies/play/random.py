"""The compiled ``random`` play policy (docs/ENGINE.md §4): uniform over the legal cards, one
draw ``below(number of legal cards)`` per card, the cards listed by ascending code.
"""

from __future__ import annotations

from ...ground._numba import jit
from ...ground.bits import nth_bit, popcount
from ...ground.rng import below


@jit(inline="always")
def random_card(st, hm, rp, seat, legal, rng):
    """Card: the k-th legal card, ascending card code."""
    return nth_bit(legal, below(rng, popcount(legal)))


