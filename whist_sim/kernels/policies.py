"""Dispatchers of the compiled engine: one per decision kind, switching on the policy id.

The deal loop (:mod:`whist_sim.kernels.phases`) asks these four functions for every decision; each
switches on the integer id of the seat's policy, ``pol[0, seat]`` for bidding decisions and
``pol[1, seat]`` for cards (:mod:`whist_sim.policies` holds the registry of ids). Parameterised
policies read their parameters from ``par[0, seat, j]`` (bidding) or ``par[1, seat, j]`` (play),
``j < N_PARAMS``; pass ``par`` on, do not slice it (a slice costs a reference count per decision).

Every compiled policy sees the whole deal state (``st``, ``hm``, ``rp``: see
:mod:`whist_sim.kernels.layout`) and the random stream ``rng``, and must only read what its seat may
know (its own hand, the calls, the contracts, the cards played). A policy may keep per-seat caches
in its seat's scratch slots: bidding strategies use scratch slots 0..7, play policies 8..15.

Signatures (all ints are int64):

* ``choose_call(pol, par, st, hm, rp, seat, rng) -> call`` (0 = pass, else ``5 * n + strain``);
* ``choose_frisch(pol, par, st, hm, rp, seat, rng) -> uint64`` mask of the three cards passed;
* ``choose_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng) -> contract`` in ``lo..N``,
  not ``forbidden`` (``-1`` when nothing is forbidden);
* ``choose_card(pol, par, st, hm, rp, seat, legal, rng) -> card`` from the mask ``legal``.

They are inlined into the deal loop by LLVM (``forceinline=True``): a real call per decision would
cost more than the decision itself. The built-in policies are inlined into the dispatchers by numba
(``inline="always"``), once per dispatcher rather than once per call site, which keeps compile
time down.

To add a policy: one ``elif pid == ...`` branch per decision kind it makes. Keep bidding and play
dispatch separate: a bidding strategy that simulates play (``montecarlo``) calls the play phase,
which only reaches ``choose_card``, so the compiled call graph stays free of cycles.
"""

from __future__ import annotations

from ..policies import (
    BID_AGGRESSIVE,
    BID_CAUTIOUS,
    BID_HCP,
    BID_HEURISTIC,
    BID_LTC,
    BID_MONTECARLO,
    PLAY_HEURISTIC,
)
from ._numba import jit
from .heuristic import heuristic_call, heuristic_card, heuristic_contract, heuristic_frisch
from .random_policy import random_call, random_card, random_contract, random_frisch
from .strategies import (
    hcp_call,
    hcp_contract,
    ltc_call,
    ltc_contract,
    ltc_frisch,
    shaded_call,
    shaded_contract,
)


@jit(forceinline=True)
def choose_call(pol, par, st, hm, rp, seat, rng):
    """Auction call of ``seat`` under its bidding strategy."""
    if pol[0, seat] == BID_HEURISTIC:
        return heuristic_call(st, hm, rp, seat, rng)
    elif pol[0, seat] == BID_HCP:
        return hcp_call(st, hm, rp, seat, par)
    elif pol[0, seat] == BID_LTC:
        return ltc_call(st, hm, rp, seat, par)
    elif pol[0, seat] == BID_CAUTIOUS or pol[0, seat] == BID_AGGRESSIVE:
        return shaded_call(st, hm, rp, seat, par)
    elif pol[0, seat] == BID_MONTECARLO:
        return _mc.mc_call(par, st, hm, rp, seat, rng)
    return random_call(st, hm, rp, seat, rng)


@jit(forceinline=True)
def choose_frisch(pol, par, st, hm, rp, seat, rng):
    """The three cards ``seat`` passes in a Frisch, under its bidding strategy."""
    if pol[0, seat] == BID_HEURISTIC:
        return heuristic_frisch(st, hm, rp, seat, rng)
    elif pol[0, seat] == BID_LTC:
        return ltc_frisch(st, hm, rp, seat)
    elif (pol[0, seat] == BID_HCP or pol[0, seat] == BID_CAUTIOUS
          or pol[0, seat] == BID_AGGRESSIVE or pol[0, seat] == BID_MONTECARLO):
        return heuristic_frisch(st, hm, rp, seat, rng)
    return random_frisch(st, hm, rp, seat, rng)


@jit(forceinline=True)
def choose_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng):
    """Contract of ``seat`` under its bidding strategy."""
    if pol[0, seat] == BID_HEURISTIC:
        return heuristic_contract(st, hm, rp, seat, lo, forbidden, rng)
    elif pol[0, seat] == BID_HCP:
        return hcp_contract(st, hm, rp, seat, lo, forbidden, par)
    elif pol[0, seat] == BID_LTC:
        return ltc_contract(st, hm, rp, seat, lo, forbidden, par)
    elif pol[0, seat] == BID_CAUTIOUS or pol[0, seat] == BID_AGGRESSIVE:
        return shaded_contract(st, hm, rp, seat, lo, forbidden, par)
    elif pol[0, seat] == BID_MONTECARLO:
        return _mc.mc_contract(par, st, hm, rp, seat, lo, forbidden, rng)
    return random_contract(st, hm, rp, seat, lo, forbidden, rng)


@jit(forceinline=True)
def choose_card(pol, par, st, hm, rp, seat, legal, rng):
    """Card played by ``seat`` under its play policy (``legal``: mask of legal cards)."""
    if pol[1, seat] == PLAY_HEURISTIC:
        return heuristic_card(st, hm, rp, seat, legal, rng)
    return random_card(st, hm, rp, seat, legal, rng)


# The montecarlo strategy simulates deals through the play phase, and the phases import this module:
# its module is bound here, after the dispatchers exist, and numba looks up ``_mc.mc_call`` /
# ``_mc.mc_contract`` when it compiles them (any import order works).
from . import strategy_montecarlo as _mc  # noqa: E402
