"""Batch kernels of the hand advisor and the bid charts, built on
:mod:`whist_sim.compiled.ground.conditional` (dealing) and the one deal loop.

* :func:`advise_kernel` - sampled deal ``j`` of an advice (stream ``(seed, j)``, docs/ENGINE.md
  §2) is dealt with the player's hand (and any other known cards) fixed, by rejection until the
  constraints on the hidden hands hold and, when the model reads the table, the deal is accepted
  with probability ``eps ** k`` (``k``: the earlier contracts the model would have bid otherwise,
  :mod:`whist_sim.compiled.search.inference`; so the accepted deals follow its posterior); then
  every candidate ``(trump, contract)`` of the player is played out on that same deal
  (:func:`eval_candidates`). One output column per deal.
* :func:`accept_kernel` - the acceptance rate of those conditions on independent tries (a pilot
  that tells impossible or too rare constraints before the main run).
* :func:`chart_kernel` - bid charts: for hand ``i``, a full deal of the run is played up to the
  contracts by the bidding strategy (the first of deals ``64 i .. 64 i + 63`` that is not thrown
  in), the seat at bidding position ``i % P`` is the player, and its candidate contracts are
  evaluated on ``deals_per_hand`` deals with its hand fixed, the earlier contracts as they were
  made, declarer and level as in the deal, in the deal's strain or a given one (NT panel).
  Sums per hand and contract are returned. :func:`chart_screen_kernel` gives the class of
  many hands (strain and hand) without evaluating them, for stratified charts.

Every kernel that plays deals takes the address of the shared loop first (``loop``:
:func:`whist_sim.compiled.entry.deal.loop_address` of the seating's mode,
:func:`whist_sim.compiled.strategies.dispatch.loop_mode`, ``BASE`` when no seat searches): the
loop's code is compiled once per mode, not into every kernel. All kernels release the GIL and
allocate nothing: the Python layer (``whist_sim/analyses/advisor/sampling.py``,
``whist_sim/analyses/advisor/bidchart.py``) passes every array.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..ground._numba import jit
from ..ground.bits import ZERO
from ..ground.conditional import deal_hidden, satisfies
from ..ground.layout import (
    H_START,
    PH_DONE,
    PH_PLAY,
    R_NTRICKS,
    R_PLAYERS,
    S_CALLS,
    S_CONTRACT,
    S_DEALER,
    S_DECLARER,
    S_LEVEL,
    S_NCALLS,
    S_OVER,
    S_SCORE,
    S_THROWN,
    S_TRICKS,
    S_TRUMP,
    S_TURN,
    Deal,
    new_deal,
    sampler_scratch,
)
from ..ground.rng import mix64, stream_start_mixed, unit
from ..loop.phases import (
    apply_contract,
    begin_contracts,
    begin_deal,
    deal_cards,
)
from ..search.inference import Replay, forced_mismatches
from .deal import run_shared

CHART_ATTEMPTS = 64  # deals tried per chart hand until one is not thrown in
CHART_SALT = np.uint64(0xB1D0C4A27E5D3F19)  # separates a chart hand's sampled deals from its deal


class Sampling(NamedTuple):
    """What every sampled deal of an advice or a bid chart holds to: the ``known`` cards by seat
    (uint64 ``[P]``) and the ``deck_mask`` (uint64); the constraints ``cons`` (int64,
    :mod:`whist_sim.compiled.ground.conditional`), checked when ``check``; the ``forced``
    contracts of the bidders before the player (int64 ``[P]``, -1: none); the ``model`` that reads
    the table, ``(on, mpol, mpar, eps, calls, dealer)``; ``max_tries``, the deals dealt before
    one counts as not accepted; the deal's ``declarer``, ``trump`` and ``level`` and the player's
    bidding ``position``. The bid chart fills ``known`` and ``forced`` and takes the deal's
    declarer, trump, level and position from each hand's deal (it ignores those four here)."""

    known: np.ndarray
    deck_mask: np.uint64
    cons: np.ndarray
    check: bool
    forced: np.ndarray
    model: tuple
    max_tries: np.int64
    declarer: np.int64
    trump: np.int64
    level: np.int64
    position: np.int64


class Candidates(NamedTuple):
    """The player's candidates: seat ``me``, and the trump ``trump[k]`` and contract ``bid[k]``
    of candidate ``k`` (int64; the bid chart fills both per hand: scratch of length N + 1)."""

    me: np.int64
    trump: np.ndarray
    bid: np.ndarray


class Scratch(NamedTuple):
    """Scratch of the sampler and of the candidates: the sampler's table ``tab`` (float64,
    :func:`~whist_sim.compiled.ground.layout.sampler_scratch`), snapshots ``snap_st`` /
    ``snap_hm`` of the state (the sizes of ``st`` / ``hm``) and each candidate's tricks, score
    and over flag ``res_t`` / ``res_s`` / ``res_o`` (int64 ``[K]``)."""

    tab: np.ndarray
    snap_st: np.ndarray
    snap_hm: np.ndarray
    res_t: np.ndarray
    res_s: np.ndarray
    res_o: np.ndarray


class AdviceOut(NamedTuple):
    """What :func:`advise_kernel` writes for sampled deal ``j`` (column ``j - start``): the
    tricks (int8 ``[K, count]``), score (int16) and over flag (bool) of every candidate, and the
    deals ``tries`` dealt until one was accepted (int64 ``[count]``; negative: none was)."""

    tricks: np.ndarray
    score: np.ndarray
    over: np.ndarray
    tries: np.ndarray


class ChartHands(NamedTuple):
    """The bid-chart hands of one :func:`chart_kernel` call: ``ids`` (int64), the ``strain`` to
    evaluate each in (int64; -1: the deal's own), and the sampled deals per hand."""

    ids: np.ndarray
    strain: np.ndarray
    deals_per_hand: np.int64


class ChartOut(NamedTuple):
    """What :func:`chart_kernel` writes for hand ``ids[i]`` (row ``i``): ``scen`` (int64
    ``[H, 6]``: deal, declarer (-1: thrown in), strain, level, seat, position), ``hand`` (uint64),
    ``earlier`` (int64 ``[H, P]``: the earlier bidders' contracts, -1 after), per contract ``b``
    (column) ``n`` deals played (0: an illegal bid), ``score_sum`` / ``score_sq`` sums of the
    scores and their squares, ``made`` contracts made, ``tricks`` sum of tricks, ``over`` over
    deals, and ``tries`` deals dealt (negative: a deal was not accepted and the hand was
    abandoned)."""

    scen: np.ndarray
    hand: np.ndarray
    earlier: np.ndarray
    n: np.ndarray
    score_sum: np.ndarray
    score_sq: np.ndarray
    made: np.ndarray
    tricks: np.ndarray
    over: np.ndarray
    tries: np.ndarray


class ScreenOut(NamedTuple):
    """What :func:`chart_screen_kernel` writes for hand ``start + i``: its deal's strain
    (``trump``, 0..4; -1: every attempt thrown in) and the player's ``hand`` (uint64)."""

    trump: np.ndarray
    hand: np.ndarray


def sampling_scratch(k: int) -> tuple[Deal, Scratch]:
    """A fresh :class:`~whist_sim.compiled.ground.layout.Deal` (with the sampler's ``work``) and
    :class:`Scratch` for one thread of sampled deals with ``k`` candidates."""
    work, tab = sampler_scratch()
    deal = new_deal(work)
    res = [np.zeros(k, dtype=np.int64) for _ in range(3)]
    return deal, Scratch(tab, np.zeros_like(deal.st), np.zeros_like(deal.hm), *res)


@jit(inline="always")  # inlined: a cached step would generate the loop's code again
def eval_candidates(loop, table, deal, scratch, forced, me, cand_trump, cand_bid, n_cand):
    """Play the current deal once per candidate ``(cand_trump[k], cand_bid[k])`` of seat ``me``.

    The deal state must be at the start of the contract phase (hands dealt, declarer and level
    set). Every candidate starts from the same snapshot of ``st``, ``hm`` and the random stream
    (common random numbers): trump ``cand_trump[k]``, the bidders before ``me`` bid their
    ``forced`` contracts (``forced[seat] >= 0``, legal: the caller checks; no draw), ``me``
    bids ``cand_bid[k]``, and the deal loop plays the rest (later bidders by their strategy, the
    last one hooked, then the play and the score). Results of ``me`` in ``scratch``:
    ``res_t[k]`` (tricks taken), ``res_s[k]`` (points, RULES §6), ``res_o[k]`` (1 if the
    contracts sum to more than the tricks). On return the state is that of the last candidate's
    finished deal.
    """
    rp, _deck, pol, par = table
    st, hm, rng = deal.st, deal.hm, deal.rng
    snap_st, snap_hm = scratch.snap_st, scratch.snap_hm
    for i in range(st.shape[0]):
        snap_st[i] = st[i]
    for i in range(hm.shape[0]):
        snap_hm[i] = hm[i]
    r0 = rng[0]
    for k in range(n_cand):
        if k > 0:
            for i in range(st.shape[0]):
                st[i] = snap_st[i]
            for i in range(hm.shape[0]):
                hm[i] = snap_hm[i]
            rng[0] = r0
        st[S_TRUMP] = cand_trump[k]
        while st[S_TURN] != me:
            seat = st[S_TURN]
            apply_contract(st, rp, seat, forced[seat])
        apply_contract(st, rp, me, cand_bid[k])
        run_shared(loop, st, hm, rp, pol, par, rng, np.int64(PH_DONE))
        scratch.res_t[k] = st[S_TRICKS + me]
        scratch.res_s[k] = st[S_SCORE + me]
        scratch.res_o[k] = st[S_OVER]


@jit(inline="always")  # inlined into each kernel: its code generated once, in theirs
def _sample(table, deal, scratch, smp, d, declarer, trump, level, position, check):
    """Deal ``d`` at the contract phase until accepted; the number of tries, or ``-tries``.

    ``smp``: the :class:`Sampling` (known cards, constraints, forced contracts, the model, the
    most tries); ``declarer``, ``trump``, ``level``, the player's ``position`` and ``check`` (the
    constraints) are the deal's. The model ``(on, mpol, mpar, eps, calls, dealer)``: ``calls``
    are the auction's calls in order from the seat after ``dealer`` (empty: the deal starts at its
    contracts). When on, a deal in which the model would have made ``k`` of the others' calls and
    earlier contracts otherwise is kept with probability ``eps ** k`` (one draw; the snapshots of
    ``scratch`` are its scratch)."""
    rp, _deck, pol, par = table
    st, hm, rng, work = deal
    on, mpol, mpar, eps, calls, dealer = smp.model
    me = (declarer + position) % rp[R_PLAYERS]
    tries = 0
    while tries < smp.max_tries:
        tries += 1
        begin_contracts(st, hm, rp, d, declarer, trump, level)
        if calls.shape[0] > 0:  # the auction as it went (read by the model, not replayed)
            st[S_DEALER] = dealer
            for i in range(calls.shape[0]):
                st[S_CALLS + i] = calls[i]
            st[S_NCALLS] = calls.shape[0]
        deal_hidden(st, hm, rp, smp.known, smp.deck_mask, work, scratch.tab, rng)
        if check and not satisfies(hm, rp, smp.cons):
            continue
        if on and (position > 0 or calls.shape[0] > 0):
            k = forced_mismatches(st, hm, rp, me, smp.forced, position,
                                  Replay(mpol, mpar, scratch.snap_st, scratch.snap_hm, rng))
            if k > 0 and not unit(rng) < eps ** k:
                continue
        return tries
    return -tries


@jit
def advise_kernel(loop, seed_mix, start, count, table, smp, cands, deal, scratch, out):
    """Sampled deals ``start .. start+count-1`` of the advice :class:`Sampling` ``smp``: column
    ``j - start`` of ``out`` (an :class:`AdviceOut`) holds the tricks, score and over flag of
    every candidate of ``cands`` and the deals tried.

    Stops at the first deal not accepted within ``smp.max_tries`` (its ``tries`` is negative) and
    returns the number of deals finished (``count`` when all were).
    """
    n_cand = cands.bid.shape[0]
    for j in range(count):
        d = start + j
        deal.rng[0] = stream_start_mixed(seed_mix, np.uint64(d))
        tries = _sample(table, deal, scratch, smp, d, smp.declarer, smp.trump, smp.level,
                        smp.position, smp.check)
        out.tries[j] = tries
        if tries < 0:
            return j
        eval_candidates(loop, table, deal, scratch, smp.forced, cands.me, cands.trump, cands.bid,
                        n_cand)
        for k in range(n_cand):
            out.tricks[k, j] = scratch.res_t[k]
            out.score[k, j] = scratch.res_s[k]
            out.over[k, j] = scratch.res_o[k] != 0
    return count


@jit
def accept_kernel(seed_mix, count, table, smp, deal, scratch):
    """How many of ``count`` independent tries (stream ``(seed, t)``) meet the conditions of
    ``smp`` (a pilot: ``smp.max_tries`` is 1, one deal per try)."""
    ok = 0
    for t in range(count):
        deal.rng[0] = stream_start_mixed(seed_mix, np.uint64(t))
        if _sample(table, deal, scratch, smp, t, smp.declarer, smp.trump, smp.level,
                   smp.position, smp.check) > 0:
            ok += 1
    return ok


@jit(inline="always")  # inlined, as eval_candidates
def _chart_deal(loop, seed_mix, h, table, deal):
    """Play chart hand ``h``'s deal up to the contracts: the first of deals ``64 h .. 64 h + 63``
    of the run that is not thrown in (the state then holds it; ``st[S_THROWN] != 0`` when every
    attempt was thrown in). Returns the deal index."""
    rp, deck, pol, par = table
    st, hm, rng, work = deal
    p = rp[R_PLAYERS]
    d = h * CHART_ATTEMPTS
    for a in range(CHART_ATTEMPTS):
        d = h * CHART_ATTEMPTS + a
        rng[0] = stream_start_mixed(seed_mix, np.uint64(d))
        begin_deal(st, hm, rp, d, d % p)
        deal_cards(st, hm, rp, deck, work, rng)
        run_shared(loop, st, hm, rp, pol, par, rng, np.int64(PH_PLAY))
        if st[S_THROWN] == 0:
            break
    return d


@jit
def chart_screen_kernel(loop, seed_mix, start, count, table, deal, out):
    """The class of chart hands ``start .. start+count-1`` without evaluating them (cheap: one
    auction each), into ``out`` (a :class:`ScreenOut`; the player is the seat at bidding
    position ``h % P``)."""
    p = table.rp[R_PLAYERS]
    st, hm = deal.st, deal.hm
    for i in range(count):
        h = start + i
        _chart_deal(loop, seed_mix, h, table, deal)
        if st[S_THROWN] != 0:
            out.trump[i] = -1
            out.hand[i] = ZERO
            continue
        out.trump[i] = st[S_TRUMP]
        out.hand[i] = hm[H_START + (st[S_DECLARER] + h % p) % p]


@jit
def chart_kernel(loop, seed_mix, hands, table, smp, cands, deal, scratch, out):
    """Bid-chart hands ``hands.ids[0], hands.ids[1], ..`` (row ``i`` of every array of ``out``, a
    :class:`ChartOut`, for hand ``ids[i]``).

    ``hands.strain[i]``: -1 evaluates the contracts in the deal's own strain, 0..4 in that strain
    instead (the NT panel: the same hand and sampled deals, the earlier contracts as they were
    bid). Each hand's contracts are played on ``hands.deals_per_hand`` sampled deals (at most
    ``smp.max_tries`` tries each, read by ``smp.model``; ``smp.known``, ``smp.forced`` and the
    arrays of ``cands`` are filled per hand). A hand's sampled deals depend on its deal only, so
    both strains of a hand share them.
    """
    rp = table.rp
    st, hm = deal.st, deal.hm
    known, forced = smp.known, smp.forced
    cand_trump, cand_bid = cands.trump, cands.bid
    p = rp[R_PLAYERS]
    n = rp[R_NTRICKS]
    ids, strain = hands.ids, hands.strain
    for i in range(ids.shape[0]):
        h = ids[i]
        for b in range(n + 1):
            out.n[i, b] = 0
            out.score_sum[i, b] = 0
            out.score_sq[i, b] = 0
            out.made[i, b] = 0
            out.tricks[i, b] = 0
            out.over[i, b] = 0
        for pos in range(p):
            out.earlier[i, pos] = -1
        out.tries[i] = 0
        d = _chart_deal(loop, seed_mix, h, table, deal)
        out.scen[i, 0] = d
        if st[S_THROWN] != 0:
            out.scen[i, 1] = -1
            continue
        decl = st[S_DECLARER]
        trump = st[S_TRUMP]
        level = st[S_LEVEL]
        strain_i = trump if strain[i] < 0 else strain[i]
        position = h % p
        me = (decl + position) % p
        out.scen[i, 1] = decl
        out.scen[i, 2] = strain_i
        out.scen[i, 3] = level
        out.scen[i, 4] = me
        out.scen[i, 5] = position
        out.hand[i] = hm[H_START + me]
        total = 0
        for s in range(p):
            forced[s] = -1
            known[s] = ZERO
        known[me] = hm[H_START + me]
        for pos in range(position):
            seat = (decl + pos) % p
            forced[seat] = st[S_CONTRACT + seat]
            out.earlier[i, pos] = forced[seat]
            total += forced[seat]
        lo = level if position == 0 else 0
        forbidden = n - total if position == p - 1 else -1
        n_cand = 0
        for b in range(lo, n + 1):
            if b != forbidden:
                cand_trump[n_cand] = strain_i
                cand_bid[n_cand] = b
                n_cand += 1
        hand_mix = mix64(stream_start_mixed(seed_mix, np.uint64(d)) ^ CHART_SALT)
        tries_total = 0
        for j in range(hands.deals_per_hand):
            deal.rng[0] = stream_start_mixed(hand_mix, np.uint64(j))
            tries = _sample(table, deal, scratch, smp, j, decl, trump, level, position,
                            np.bool_(False))
            if tries < 0:
                tries_total = -(tries_total - tries)
                break
            tries_total += tries
            eval_candidates(loop, table, deal, scratch, forced, me, cand_trump, cand_bid, n_cand)
            for k in range(n_cand):
                b = cand_bid[k]
                v = scratch.res_s[k]
                out.n[i, b] += 1
                out.score_sum[i, b] += v
                out.score_sq[i, b] += v * v
                out.tricks[i, b] += scratch.res_t[k]
                if scratch.res_t[k] == b:
                    out.made[i, b] += 1
                if scratch.res_o[k] != 0:
                    out.over[i, b] += 1
        out.tries[i] = tries_total
