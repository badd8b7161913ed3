"""Compiled duplicate-tournament loop: every deal of a chunk played under every seating.

:func:`tournament_kernel` plays deals ``start .. start+count-1`` of a run, each once per seating
``k`` (``pols[k]`` / ``pars[k]``: the policy ids and parameter rows by seat of that seating, as
the deal loop takes them, see :mod:`whist_sim.compiled.loop.phases`). In the **duplicate** design
every seating of deal ``i`` replays the random stream ``(seed, i)``, so the cards (and the dealer,
``i % P``) are the same under every seating; only the decisions of seats whose policy draws from the
stream (``random``) can differ. In the **independent** design seating ``k`` of deal ``i`` plays the
fresh deal ``i * S + k`` (``S`` seatings) instead: as many plays, no cards replayed.

The kernel aggregates as it goes, per deal and per tournament *entry* (``ent[k, s]``: the entry
sitting in seat ``s`` under seating ``k``; an entry may hold several seats, ``inv_m[e]`` = 1 / its
number of seats):

* ``o_ysum[j, e]``: sum over the seatings of the entry's per-play score ``y`` (the mean score of
  its seats in one play, points); ``o_ysum / S`` is the entry's duplicate score of the deal;
* ``o_yy[j, e, f]``: sum over the seatings of ``y_e * y_f`` (the spread of single plays and of
  single-play differences, for the comparison with independent deals);
* ``o_tally[j, e, T_*]``: counts over the entry's seat-plays (see the ``T_*`` constants);
* ``o_thrown[j]``: plays of the deal that were thrown in.

Single-threaded, allocation-free (``y`` is caller scratch), releases the GIL.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..ground._numba import jit
from ..ground.layout import (
    R_PLAYERS,
    S_CONTRACT,
    S_DECLARER,
    S_LEVEL,
    S_OVER,
    S_SCORE,
    S_THROWN,
    S_TRICKS,
)
from .deal import play_deal_in

# tally columns: counts over an entry's seat-plays in one deal
T_PLAYS = 0  # seat-plays (thrown-in plays included)
T_CONTRACTS = 1  # seat-plays with a contract (not thrown in)
T_HITS = 2  # contract made (tricks == contract)
T_ZEROS = 3  # contract 0
T_ZERO_HITS = 4  # contract 0 made
T_OVER = 5  # seat-plays in over deals (sum of contracts > tricks)
T_OVER_HITS = 6  # contracts made in over deals
T_OVERTRICKS = 7  # took more tricks than the contract
T_UNDERTRICKS = 8  # took fewer tricks than the contract
T_DECLARER = 9  # won the auction
T_LEVEL_SUM = 10  # sum of the auction level when declarer
T_CONTRACT_SUM = 11  # sum of the contracts
T_TRICKS_SUM = 12  # sum of the tricks taken
T_DECLARER_HITS = 13  # contract made as declarer
N_TALLY = 14
TALLY_NAMES = (
    "plays", "contracts", "hits", "zeros", "zero_hits", "over", "over_hits", "overtricks",
    "undertricks", "declarer", "level_sum", "contract_sum", "tricks_sum", "declarer_hits",
)


class Entrants(NamedTuple):
    """Who sits where in each seating of a tournament: ``ent[k, s]`` the entrant at seat ``s``
    of seating ``k`` (int64), ``inv_m[e]`` one over the seats entrant ``e`` holds per seating
    (float64, to average its score), ``independent`` (bool: each seating plays its own deals,
    ``deal * seatings + k``, instead of the same deal)."""

    ent: np.ndarray
    inv_m: np.ndarray
    independent: bool


class TallyOut(NamedTuple):
    """What :func:`tournament_kernel` sums per deal ``j`` and entrant ``e``: ``ysum`` (float64
    ``[count, E]``) and ``yy`` (float64 ``[count, E, E]``) the entrants' mean scores and their
    products, ``tally`` (int32 ``[count, E, N_TALLY]``, ``TALLY_NAMES``), ``thrown`` (int32
    ``[count]``: seatings thrown in); all zero on entry. ``y``: float64 scratch of length E."""

    y: np.ndarray
    ysum: np.ndarray
    yy: np.ndarray
    tally: np.ndarray
    thrown: np.ndarray


@jit
def tournament_kernel(loop, seed_mix, start, count, table, entrants, deal, out):
    """Play ``count`` deals from ``start`` under each of the seatings of ``table`` (its ``pol``
    and ``par`` hold one row per seating), in the shared loop at address ``loop``
    (:func:`whist_sim.compiled.entry.deal.loop_address` of ``BASE`` when no seat of any seating
    searches: :func:`whist_sim.compiled.strategies.dispatch.loop_mode`), and sum the entrants'
    results into ``out`` (a :class:`TallyOut`)."""
    rp, deck, pols, pars = table
    ent, inv_m, independent = entrants
    y, o_ysum, o_yy, o_tally, o_thrown = out
    st = deal.st
    p = rp[R_PLAYERS]
    n_seatings = pols.shape[0]
    n_entries = inv_m.shape[0]
    for j in range(count):
        for k in range(n_seatings):
            d = start + j
            if independent:
                d = d * n_seatings + k
            play_deal_in(loop, seed_mix, d, rp, deck, pols[k], pars[k], deal)
            for e in range(n_entries):
                y[e] = 0.0
            thrown = st[S_THROWN] != 0
            if thrown:
                o_thrown[j] += 1
            decl = st[S_DECLARER]
            over = st[S_OVER] != 0
            for s in range(p):
                e = ent[k, s]
                y[e] += st[S_SCORE + s] * inv_m[e]
                o_tally[j, e, T_PLAYS] += 1
                if thrown:
                    continue
                c = st[S_CONTRACT + s]
                t = st[S_TRICKS + s]
                o_tally[j, e, T_CONTRACTS] += 1
                o_tally[j, e, T_CONTRACT_SUM] += c
                o_tally[j, e, T_TRICKS_SUM] += t
                if c == 0:
                    o_tally[j, e, T_ZEROS] += 1
                if t == c:
                    o_tally[j, e, T_HITS] += 1
                    if c == 0:
                        o_tally[j, e, T_ZERO_HITS] += 1
                    if over:
                        o_tally[j, e, T_OVER_HITS] += 1
                elif t > c:
                    o_tally[j, e, T_OVERTRICKS] += 1
                else:
                    o_tally[j, e, T_UNDERTRICKS] += 1
                if over:
                    o_tally[j, e, T_OVER] += 1
                if s == decl:
                    o_tally[j, e, T_DECLARER] += 1
                    o_tally[j, e, T_LEVEL_SUM] += st[S_LEVEL]
                    if t == c:
                        o_tally[j, e, T_DECLARER_HITS] += 1
            for e in range(n_entries):
                o_ysum[j, e] += y[e]
                for f in range(n_entries):
                    o_yy[j, e, f] += y[e] * y[f]
