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
)
from ..ground.rng import mix64, stream_start_mixed, unit
from ..loop.phases import (
    apply_contract,
    begin_contracts,
    begin_deal,
    deal_cards,
)
from ..search.inference import forced_mismatches
from .deal import run_shared

CHART_ATTEMPTS = 64  # deals tried per chart hand until one is not thrown in
CHART_SALT = np.uint64(0xB1D0C4A27E5D3F19)  # separates a chart hand's sampled deals from its deal


@jit(inline="always")  # inlined: a cached step would generate the loop's code again
def eval_candidates(loop, st, hm, rp, pol, par, rng, forced, me, cand_trump, cand_bid, n_cand,
                    snap_st, snap_hm, res_tricks, res_score, res_over):
    """Play the current deal once per candidate ``(cand_trump[k], cand_bid[k])`` of seat ``me``.

    The deal state must be at the start of the contract phase (hands dealt, declarer and level
    set). Every candidate starts from the same snapshot of ``st``, ``hm`` and the random stream
    (common random numbers): trump ``cand_trump[k]``, the bidders before ``me`` bid their
    ``forced`` contracts (``forced[seat] >= 0``, legal: the caller checks; no draw), ``me``
    bids ``cand_bid[k]``, and the deal loop plays the rest (later bidders by their strategy, the
    last one hooked, then the play and the score). Results of ``me``: ``res_tricks[k]`` (tricks
    taken), ``res_score[k]`` (points, RULES §6), ``res_over[k]`` (1 if the contracts sum to more
    than the tricks). ``snap_st`` / ``snap_hm``: scratch of the sizes of ``st`` / ``hm``. On
    return the state is that of the last candidate's finished deal.
    """
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
        res_tricks[k] = st[S_TRICKS + me]
        res_score[k] = st[S_SCORE + me]
        res_over[k] = st[S_OVER]


@jit
def _sample(st, hm, rp, pol, par, rng, deal, known, deck_mask, cons, check, declarer, trump,
            level, forced, model, positions, work, tab, max_tries, snap_st, snap_hm):
    """Deal ``deal`` at the contract phase until accepted; the number of tries, or ``-tries``.

    ``model``: ``(on, mpol, mpar, eps, calls, dealer)``; ``calls``: the auction's calls in
    order from the seat after ``dealer`` (empty: the deal starts at its contracts). When on, a
    deal in which the model would have made ``k`` of the others' calls and earlier contracts
    otherwise is kept with probability ``eps ** k`` (one draw; ``snap_st`` / ``snap_hm``:
    scratch)."""
    on, mpol, mpar, eps, calls, dealer = model
    me = (declarer + positions) % rp[R_PLAYERS]
    tries = 0
    while tries < max_tries:
        tries += 1
        begin_contracts(st, hm, rp, deal, declarer, trump, level)
        if calls.shape[0] > 0:  # the auction as it went (read by the model, not replayed)
            st[S_DEALER] = dealer
            for i in range(calls.shape[0]):
                st[S_CALLS + i] = calls[i]
            st[S_NCALLS] = calls.shape[0]
        deal_hidden(st, hm, rp, known, deck_mask, work, tab, rng)
        if check and not satisfies(hm, rp, cons):
            continue
        if on and (positions > 0 or calls.shape[0] > 0):
            k = forced_mismatches(st, hm, rp, me, forced, positions, mpol, mpar, snap_st,
                                  snap_hm, rng)
            if k > 0 and not unit(rng) < eps ** k:
                continue
        return tries
    return -tries


@jit
def advise_kernel(
    loop, seed_mix, start, count, rp, pol, par, known, deck_mask, cons, check, declarer, trump,
    level, me, forced, model, positions, cand_trump, cand_bid, max_tries,
    st, hm, rng, work, tab, snap_st, snap_hm, res_t, res_s, res_o,
    o_tricks, o_score, o_over, o_tries,
):
    """Sampled deals ``start .. start+count-1``: column ``j - start`` of ``o_*[k, :]`` holds the
    tricks, score and over flag of candidate ``k`` and ``o_tries`` the deals tried.

    Stops at the first deal not accepted within ``max_tries`` (its ``o_tries`` is negative) and
    returns the number of deals finished (``count`` when all were).
    """
    n_cand = cand_bid.shape[0]
    for j in range(count):
        deal = start + j
        rng[0] = stream_start_mixed(seed_mix, np.uint64(deal))
        tries = _sample(st, hm, rp, pol, par, rng, deal, known, deck_mask, cons, check, declarer,
                        trump, level, forced, model, positions, work, tab, max_tries, snap_st,
                        snap_hm)
        o_tries[j] = tries
        if tries < 0:
            return j
        eval_candidates(loop, st, hm, rp, pol, par, rng, forced, me, cand_trump, cand_bid,
                        n_cand, snap_st, snap_hm, res_t, res_s, res_o)
        for k in range(n_cand):
            o_tricks[k, j] = res_t[k]
            o_score[k, j] = res_s[k]
            o_over[k, j] = res_o[k] != 0
    return count


@jit
def accept_kernel(seed_mix, count, rp, pol, par, known, deck_mask, cons, check, declarer, trump,
                  level, forced, model, positions, st, hm, rng, work, tab, snap_st, snap_hm):
    """How many of ``count`` independent tries (stream ``(seed, t)``) meet the conditions."""
    ok = 0
    for t in range(count):
        rng[0] = stream_start_mixed(seed_mix, np.uint64(t))
        if _sample(st, hm, rp, pol, par, rng, t, known, deck_mask, cons, check, declarer, trump,
                   level, forced, model, positions, work, tab, np.int64(1), snap_st, snap_hm) > 0:
            ok += 1
    return ok


@jit(inline="always")  # inlined, as eval_candidates
def _chart_deal(loop, seed_mix, h, rp, deck, pol, par, st, hm, rng, work):
    """Play chart hand ``h``'s deal up to the contracts: the first of deals ``64 h .. 64 h + 63``
    of the run that is not thrown in (the state then holds it; ``st[S_THROWN] != 0`` when every
    attempt was thrown in). Returns the deal index."""
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
def chart_screen_kernel(loop, seed_mix, start, count, rp, deck, pol, par, st, hm, rng, work,
                        o_trump, o_hand):
    """The class of chart hands ``start .. start+count-1`` without evaluating them (cheap: one
    auction each). ``o_trump[i]``: the deal's strain (0..4; -1: every attempt thrown in);
    ``o_hand[i]``: the hand of the player (the seat at bidding position ``h % P``)."""
    p = rp[R_PLAYERS]
    for i in range(count):
        h = start + i
        _chart_deal(loop, seed_mix, h, rp, deck, pol, par, st, hm, rng, work)
        if st[S_THROWN] != 0:
            o_trump[i] = -1
            o_hand[i] = ZERO
            continue
        o_trump[i] = st[S_TRUMP]
        o_hand[i] = hm[H_START + (st[S_DECLARER] + h % p) % p]


@jit
def chart_kernel(
    loop, seed_mix, ids, strain, deals_per_hand, rp, deck, deck_mask, pol, par, model, max_tries,
    st, hm, rng, work, tab, snap_st, snap_hm, known, forced, cons, cand_trump, cand_bid,
    res_t, res_s, res_o,
    o_scen, o_hand, o_earlier, o_n, o_sum, o_sq, o_made, o_tricks, o_over, o_tries,
):
    """Bid-chart hands ``ids[0], ids[1], ..`` (row ``i`` of every output for hand ``ids[i]``).

    ``strain[i]``: -1 evaluates the contracts in the deal's own strain, 0..4 in that strain
    instead (the NT panel: the same hand and sampled deals, the earlier contracts as they were
    bid). ``o_scen[i]``: deal index, declarer (-1: every attempt thrown in), evaluated strain,
    level, seat, position; ``o_hand[i]``: the player's hand; ``o_earlier[i, pos]``: contracts of
    the bidders before it (-1 after). Per contract ``b`` (column): ``o_n`` deals played (0 =
    illegal bid), ``o_sum`` / ``o_sq`` sum of scores / squared scores, ``o_made`` contracts
    made, ``o_tricks`` sum of tricks, ``o_over`` over deals. ``o_tries``: deals dealt
    (negative: a deal was not accepted within ``max_tries`` and the hand was abandoned). A
    hand's sampled deals depend on its deal only, so both strains of a hand share them.
    """
    p = rp[R_PLAYERS]
    n = rp[R_NTRICKS]
    for i in range(ids.shape[0]):
        h = ids[i]
        for b in range(n + 1):
            o_n[i, b] = 0
            o_sum[i, b] = 0
            o_sq[i, b] = 0
            o_made[i, b] = 0
            o_tricks[i, b] = 0
            o_over[i, b] = 0
        for pos in range(p):
            o_earlier[i, pos] = -1
        o_tries[i] = 0
        d = _chart_deal(loop, seed_mix, h, rp, deck, pol, par, st, hm, rng, work)
        o_scen[i, 0] = d
        if st[S_THROWN] != 0:
            o_scen[i, 1] = -1
            continue
        decl = st[S_DECLARER]
        trump = st[S_TRUMP]
        level = st[S_LEVEL]
        strain_i = trump if strain[i] < 0 else strain[i]
        position = h % p
        me = (decl + position) % p
        o_scen[i, 1] = decl
        o_scen[i, 2] = strain_i
        o_scen[i, 3] = level
        o_scen[i, 4] = me
        o_scen[i, 5] = position
        o_hand[i] = hm[H_START + me]
        total = 0
        for s in range(p):
            forced[s] = -1
            known[s] = ZERO
        known[me] = hm[H_START + me]
        for pos in range(position):
            seat = (decl + pos) % p
            forced[seat] = st[S_CONTRACT + seat]
            o_earlier[i, pos] = forced[seat]
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
        for j in range(deals_per_hand):
            rng[0] = stream_start_mixed(hand_mix, np.uint64(j))
            tries = _sample(st, hm, rp, pol, par, rng, j, known, deck_mask, cons, np.bool_(False),
                            decl, trump, level, forced, model, position, work, tab, max_tries,
                            snap_st, snap_hm)
            if tries < 0:
                tries_total = -(tries_total - tries)
                break
            tries_total += tries
            eval_candidates(loop, st, hm, rp, pol, par, rng, forced, me, cand_trump, cand_bid,
                            n_cand, snap_st, snap_hm, res_t, res_s, res_o)
            for k in range(n_cand):
                b = cand_bid[k]
                v = res_s[k]
                o_n[i, b] += 1
                o_sum[i, b] += v
                o_sq[i, b] += v * v
                o_tricks[i, b] += res_t[k]
                if res_t[k] == b:
                    o_made[i, b] += 1
                if res_o[k] != 0:
                    o_over[i, b] += 1
        o_tries[i] = tries_total
