"""The deal loop's dispatch: which compiled function decides, by the seat's policy id.

GENERATED from the registry (whist_sim/core/registry.py) by
``python -m whist_sim.compiled.strategies.generate`` (``make dispatch``): do not edit by hand;
tests/test_dispatch_table.py fails when it is stale, and
:mod:`whist_sim.compiled.strategies.dispatch` refuses to load it then.

Each ``base_*`` function is compiled once and inlined by LLVM (``forceinline``) into the loop's
decision points (:mod:`whist_sim.compiled.strategies.dispatch`); the registry's decision functions
it calls are inlined into it by numba. ``pol[0, seat]`` is the seat's bidding strategy id,
``pol[1, seat]`` its play policy id; the last branch, with no test, is the entry of id 0.
"""

from __future__ import annotations

import numpy as np

from ..ground._numba import jit
from ..ground.addresses import K_CALL, K_CARD, K_CONTRACT, searched
from .bidding.estimators import (
    hcp_decide_call,
    hcp_decide_contract,
    ltc_decide_call,
    ltc_decide_contract,
    ltc_decide_frisch,
    shaded_decide_call,
    shaded_decide_contract,
)
from .bidding.heuristic import (
    heuristic_decide_call,
    heuristic_decide_contract,
    heuristic_decide_frisch,
)
from .bidding.learned import learned_decide_call, learned_decide_contract, learned_decide_frisch
from .bidding.random import random_decide_call, random_decide_contract, random_decide_frisch
from .play.expert import expert_decide_card
from .play.heuristic import heuristic_decide_card
from .play.learned import learned_decide_card
from .play.planner import planner_card
from .play.random import random_decide_card

#: the registry this module was generated from (whist_sim.core.registry.registry_key)
REGISTRY_KEY = (
    ('bid', 0, 'random', 'bidding.random:random_decide_call',
     'bidding.random:random_decide_frisch', 'bidding.random:random_decide_contract', None, None),
    ('bid', 1, 'heuristic', 'bidding.heuristic:heuristic_decide_call',
     'bidding.heuristic:heuristic_decide_frisch', 'bidding.heuristic:heuristic_decide_contract',
     None, None),
    ('bid', 2, 'hcp', 'bidding.estimators:hcp_decide_call',
     'bidding.heuristic:heuristic_decide_frisch', 'bidding.estimators:hcp_decide_contract', None,
     None),
    ('bid', 3, 'ltc', 'bidding.estimators:ltc_decide_call',
     'bidding.estimators:ltc_decide_frisch', 'bidding.estimators:ltc_decide_contract', None, None),
    ('bid', 4, 'cautious', 'bidding.estimators:shaded_decide_call',
     'bidding.heuristic:heuristic_decide_frisch', 'bidding.estimators:shaded_decide_contract',
     None, None),
    ('bid', 5, 'aggressive', 'bidding.estimators:shaded_decide_call',
     'bidding.heuristic:heuristic_decide_frisch', 'bidding.estimators:shaded_decide_contract',
     None, None),
    ('bid', 6, 'montecarlo', None, 'bidding.heuristic:heuristic_decide_frisch', None, None, 3),
    ('bid', 7, 'learned', 'bidding.learned:learned_decide_call',
     'bidding.learned:learned_decide_frisch', 'bidding.learned:learned_decide_contract', None,
     None),
    ('play', 0, 'random', None, None, None, 'play.random:random_decide_card', None),
    ('play', 1, 'heuristic', None, None, None, 'play.heuristic:heuristic_decide_card', None),
    ('play', 2, 'expert', None, None, None, 'play.expert:expert_decide_card', None),
    ('play', 3, 'rollout', None, None, None, None, 2),
    ('play', 4, 'planner', None, None, None, 'play.planner:planner_card', None),
    ('play', 5, 'learned', None, None, None, 'play.learned:learned_decide_card', None),
)


@jit(forceinline=True)
def base_call(pol, par, st, hm, rp, seat, lo, hi, rng):
    """Auction call by the seat's bidding strategy (generated)."""
    pid = pol[0, seat]
    # heuristic
    if pid == 1:
        return heuristic_decide_call(st, hm, rp, seat, lo, hi, rng, par)
    # hcp
    elif pid == 2:
        return hcp_decide_call(st, hm, rp, seat, lo, hi, rng, par)
    # ltc
    elif pid == 3:
        return ltc_decide_call(st, hm, rp, seat, lo, hi, rng, par)
    # cautious, aggressive
    elif pid == 4 or pid == 5:
        return shaded_decide_call(st, hm, rp, seat, lo, hi, rng, par)
    # montecarlo
    elif pid == 6:
        return searched(st, hm, rp, pol, par, rng, seat, np.int64(3), (np.int64(K_CALL), lo, hi))
    # learned
    elif pid == 7:
        return learned_decide_call(st, hm, rp, seat, lo, hi, rng, par)
    # random: id 0, the last branch
    return random_decide_call(st, hm, rp, seat, lo, hi, rng, par)


@jit(forceinline=True)
def base_frisch(pol, par, st, hm, rp, seat, rng):
    """The three cards passed in a Frisch by the seat's bidding strategy (generated)."""
    pid = pol[0, seat]
    # heuristic, hcp, cautious, aggressive, montecarlo
    if pid == 1 or pid == 2 or pid == 4 or pid == 5 or pid == 6:
        return heuristic_decide_frisch(st, hm, rp, seat, rng, par)
    # ltc
    elif pid == 3:
        return ltc_decide_frisch(st, hm, rp, seat, rng, par)
    # learned
    elif pid == 7:
        return learned_decide_frisch(st, hm, rp, seat, rng, par)
    # random: id 0, the last branch
    return random_decide_frisch(st, hm, rp, seat, rng, par)


@jit(forceinline=True)
def base_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng):
    """Contract by the seat's bidding strategy (generated)."""
    pid = pol[0, seat]
    # heuristic
    if pid == 1:
        return heuristic_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par)
    # hcp
    elif pid == 2:
        return hcp_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par)
    # ltc
    elif pid == 3:
        return ltc_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par)
    # cautious, aggressive
    elif pid == 4 or pid == 5:
        return shaded_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par)
    # montecarlo
    elif pid == 6:
        return searched(st, hm, rp, pol, par, rng, seat, np.int64(3), (np.int64(K_CONTRACT), lo,
                        forbidden))
    # learned
    elif pid == 7:
        return learned_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par)
    # random: id 0, the last branch
    return random_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par)


@jit(forceinline=True)
def base_card(pol, par, st, hm, rp, seat, legal, rng):
    """Card by the seat's play policy (generated)."""
    pid = pol[1, seat]
    # heuristic
    if pid == 1:
        return heuristic_decide_card(st, hm, rp, seat, legal, rng, par)
    # expert
    elif pid == 2:
        return expert_decide_card(st, hm, rp, seat, legal, rng, par)
    # rollout
    elif pid == 3:
        return searched(st, hm, rp, pol, par, rng, seat, np.int64(2), (np.int64(K_CARD),
                        np.int64(legal), np.int64(0)))
    # planner
    elif pid == 4:
        return planner_card(st, hm, rp, seat, legal, rng, par)
    # learned
    elif pid == 5:
        return learned_decide_card(st, hm, rp, seat, legal, rng, par)
    # random: id 0, the last branch
    return random_decide_card(st, hm, rp, seat, legal, rng, par)
