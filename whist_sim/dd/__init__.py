"""Double-dummy solver: every hand visible, every player playing perfectly (docs/DD.md).

Objectives (RULES §5 trick play; hands are ``uint64`` masks by seat, docs/ENGINE.md §1):

* ``bridge``: tricks of a partnership (seats ``s`` and ``s+2``) against the other two;
* ``whist-max``: the most tricks seat ``p`` can guarantee against the other three together;
* ``whist-min``: the fewest tricks seat ``p`` can hold itself to when the other three push tricks
  on it;
* ``whist-exact``: for each ``k``, whether ``p`` can make exactly ``k`` tricks against the other
  three.

>>> from whist_sim.core.cards import parse_deal
>>> from whist_sim.dd import solve
>>> solve(parse_deal("0:AKQJ... ...AKQJ .AKQJ.. ..AKQJ."), trump=4, leader=0, objective="whist-max")
4
"""

from .solver import (
    DEFAULT_TT_BITS,
    OBJECTIVES,
    SOLVER_VERSION,
    UNSOLVED,
    DDError,
    bridge_table,
    solve,
    solve_batch,
    warm_up,
    whist_summary,
    whist_table,
)

__all__ = [
    "DEFAULT_TT_BITS",
    "DDError",
    "OBJECTIVES",
    "SOLVER_VERSION",
    "UNSOLVED",
    "bridge_table",
    "solve",
    "solve_batch",
    "warm_up",
    "whist_summary",
    "whist_table",
]
