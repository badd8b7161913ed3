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




# ---------------------------------------------------------------- its decision (the registry's)


@jit(inline="always")
def random_decide_card(st, hm, rp, seat, legal, rng, par):
    """:func:`random_card` as the registry's ``card`` (the signature of the decision points,
    whist_sim.core.registry.Decisions; numba inlines it into the generated dispatch)."""
    return random_card(st, hm, rp, seat, legal, rng)
