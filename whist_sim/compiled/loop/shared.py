"""Calling the compiled deal loop through its address, from inside a compiled function.

The loop is compiled once, as a C function of
:data:`~whist_sim.compiled.ground.addresses.LOOP_SIGNATURE` (:mod:`whist_sim.compiled.entry.deal`
compiles it and hands out its loop table), and its callers hold one indirect call: the entry
points (``run_shared``) and the searching strategies' rollouts (:func:`run_base_at`), so that a
search's compile does not generate the loop again.
"""

from __future__ import annotations

from ..ground._numba import jit
from ..ground.addresses import LOOP_SIGNATURE, T_LOOP, call_loop_at, views, word_at
from ..ground.layout import S_LOOP_TABLE


@jit(inline="always")
def run_base_at(st, hm, rp, pol, par, rng, until):
    """The loop from the deal's current phase until ``until``, called through the loop table at
    ``st[S_LOOP_TABLE]``, which the shared loop sets while it runs (and
    :class:`~whist_sim.compiled.entry.decide.KernelSeats` for one decision asked alone): the
    searching strategies' rollouts (``pol``: their base strategies)."""
    table = st[S_LOOP_TABLE]
    call_loop_at(word_at(table, T_LOOP), st, hm, rp, pol, par, rng, until, table)


__all__ = ["LOOP_SIGNATURE", "call_loop_at", "run_base_at", "views", "word_at"]
