"""The deal loop with every strategy: ``run_full`` and :func:`play_deal`.

:mod:`whist_sim.kernels.loop` holds the rules and the loop; :mod:`whist_sim.strategies.dispatch`
the decision points of the strategies that do not search. This module, one layer up, registers the
decision points of the ``FULL`` loop: the strategies that search (``montecarlo`` bidding,
``rollout`` play: they run ``run_base`` on sampled deals), and every other strategy as in the base
loop. It compiles ``run_full`` from the loop's one text. Every caller that plays deals (batch
simulation, traces, the advisor, the bid charts, tournaments) uses ``run_full``.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..strategies.bidding.montecarlo import mc_call, mc_contract
from ..strategies.dispatch import (
    BASE,
    CHECKED_TYPE,
    FULL,
    FULL_TYPE,
    OVERLOAD_OPTIONS,
    base_call,
    base_card,
    base_contract,
    base_frisch,
    choose_call,
    choose_card,
    choose_contract,
    choose_frisch,
    in_base_loop,
)
from ..strategies.play.rollout import rollout_card
from ..strategies.registry import BID_MONTECARLO, PLAY_ROLLOUT
from ._numba import jit
from .layout import PH_DONE, R_PLAYERS
from .loop import _run, begin_deal, deal_cards, redeal, redeal_due, run_base
from .rng import stream_start_mixed


@overload(choose_call, jit_options=OVERLOAD_OPTIONS)
def _full_choose_call(mode, pol, par, st, hm, rp, seat, lo, hi, rng):
    if mode != FULL_TYPE and mode != CHECKED_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, lo, hi, rng):
        if pol[0, seat] == BID_MONTECARLO:
            return mc_call(pol, par, st, hm, rp, seat, lo, hi, rng)
        return base_call(pol, par, st, hm, rp, seat, lo, hi, rng)

    return impl


@overload(choose_frisch, jit_options=OVERLOAD_OPTIONS)
def _full_choose_frisch(mode, pol, par, st, hm, rp, seat, rng):
    if mode != FULL_TYPE and mode != CHECKED_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, rng):
        return base_frisch(pol, par, st, hm, rp, seat, rng)

    return impl


@overload(choose_contract, jit_options=OVERLOAD_OPTIONS)
def _full_choose_contract(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng):
    if mode != FULL_TYPE and mode != CHECKED_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng):
        if pol[0, seat] == BID_MONTECARLO:
            return mc_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng)
        return base_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng)

    return impl


@overload(choose_card, jit_options=OVERLOAD_OPTIONS)
def _full_choose_card(mode, pol, par, st, hm, rp, seat, legal, rng):
    if mode != FULL_TYPE and mode != CHECKED_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, legal, rng):
        if pol[1, seat] == PLAY_ROLLOUT:
            return rollout_card(pol, par, st, hm, rp, seat, legal, rng)
        return base_card(pol, par, st, hm, rp, seat, legal, rng)

    return impl


@overload(in_base_loop, jit_options=OVERLOAD_OPTIONS)
def _full_in_base_loop(mode, st, hm, rp, pol, par, rng, until):
    if mode != FULL_TYPE:
        return None

    def impl(mode, st, hm, rp, pol, par, rng, until):
        for s in range(rp[R_PLAYERS]):
            if pol[0, s] == BID_MONTECARLO or pol[1, s] == PLAY_ROLLOUT:
                return False
        run_base(BASE, st, hm, rp, pol, par, rng, until)
        return True

    return impl


#: the loop with every strategy (see :func:`whist_sim.kernels.loop._run`), for ``mode`` ``FULL``
#: or ``CHECKED``; for ``BASE`` the base loop's decision points only (:func:`play_deal_in`)
run_full = jit(_run)


@jit(inline="always")
def play_deal_in(mode, seed_mix, deal, st, hm, rp, deck, work, pol, par, rng):
    """Play deal ``deal`` of the run whose seed mixes to ``seed_mix`` from the shuffle to the
    score (dealer ``deal % P``, random stream ``(seed, deal)``, docs/ENGINE.md §2-3), in the
    loop of ``mode``. A deal cancelled after the third Frisch is dealt again from the same stream
    (``after_third_frisch=redeal``; ``st[S_REDEALS]`` counts it).

    ``mode`` ``BASE`` (no searching strategy seated, :func:`~whist_sim.strategies.dispatch.
    loop_mode`) compiles ``run_full`` for the base loop's decision points alone: the entry point
    then holds neither the searching strategies nor their sampler. Inlined into its callers
    (``inline="always"``): a cached function of its own would cost a second code generation of
    the whole loop in every entry point."""
    rng[0] = stream_start_mixed(seed_mix, np.uint64(deal))
    begin_deal(st, hm, rp, deal, deal % rp[R_PLAYERS])
    deal_cards(st, hm, rp, deck, work, rng)
    run_full(mode, st, hm, rp, pol, par, rng, np.int64(PH_DONE))
    while redeal_due(st, rp):  # after_third_frisch=redeal: the same dealer deals again
        redeal(st, hm, rp, deck, work, rng)
        run_full(mode, st, hm, rp, pol, par, rng, np.int64(PH_DONE))


@jit(inline="always")
def play_deal(seed_mix, deal, st, hm, rp, deck, work, pol, par, rng):
    """:func:`play_deal_in` the ``FULL`` loop."""
    play_deal_in(FULL, seed_mix, deal, st, hm, rp, deck, work, pol, par, rng)

