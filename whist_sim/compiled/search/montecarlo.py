"""The compiled ``montecarlo`` bidding strategy: pick the call or contract with the best mean score
over a quick self-simulation of the seat's own hand.

At a decision, the seat samples ``n`` layouts of the hidden cards given its own hand (the cards of
the deck it does not hold are dealt to the other seats by the one sampler of hidden hands,
:mod:`whist_sim.compiled.ground.sampler`, each getting as many cards as it holds now; with the
``one_random`` deck the card left over is the removed one). With ``infer`` (the default) it reads
the table: it draws :data:`POOL` times as many layouts, weights each by how well it explains the
others' calls and contracts so far under the ``model`` (``eps`` per decision the model would
have made otherwise, :mod:`whist_sim.compiled.search.inference`) and resamples ``n`` of them. For
every candidate action it plays each sample out from the current state with ``heuristic`` bidding
at every seat (its own later decisions included) and the play policy ``play`` (``own``: the
seat's own play policy, or the base of a searching one) and adds up its own score (RULES §6; a
thrown-in deal scores 0). The candidate with the best total wins; ties go to the first candidate
(pass, or the lowest contract). All candidates are evaluated on the *same* samples (common random
numbers), so their comparison is not blurred by sampling noise.

* **Auction call**: candidates are pass and, for every strain whose heuristic estimate
  (docs/ENGINE.md §5) is at least the lowest legal level minus ``slack``, the bid in that strain at
  the lowest legal level. The sampled deal is continued from the current auction round: the rest of
  the auction (and any Frisch) by the heuristic, then contracts, play and score.
* **Contract**: candidates are the legal contracts within ``span`` of the heuristic's contract
  (``span = 13``: all of them); the trump, declarer, level and earlier contracts are those of the
  real deal, the later bidders bid by the heuristic (the last one hooked, RULES §4).
* **Frisch**: the heuristic's three cards (no simulation).

Parameters (``par[0, seat, j]``, registry order): ``n`` samples per decision (0 = play as the
heuristic), ``calls`` (1 = simulate the auction calls, 0 = heuristic calls), ``span``, ``slack``,
``play`` (a play policy id; -1: ``own``), ``infer`` (1: read the table), ``model`` (a bidding
strategy id; -1: ``table``, each seat's own) and ``eps``.

Random numbers: the strategy never draws from the deal's stream (drawing would change the deal for
every later random decision). Each decision has its own counter-based sub-stream, started from
``mix64(rng_state ^ mix64((seat + 1) * K + (decision + 1) * GOLDEN))`` where ``rng_state`` is the
deal stream's state at the decision (read, not advanced) and ``decision`` is the index of the call
in the deal (``S_NCALLS``) or ``MAX_CALLS + bidding position`` for the contract. Results therefore
depend only on ``(seed, deal)`` and the seating, never on chunking or threads.

What it reads: its own hand and the cards it passed in the last Frisch (pinned at their
receiver); with ``infer``, the calls made so far and the contracts before its own. The Frisch
passes of the others are unknown to it (docs/STRATEGIES.md, "Reading the table", has the
approximation this makes for the calls of earlier rounds).

Implementation: the decisions allocate their scratch (a few small arrays) per decision, so they
are inlined into the strategy's C function, which is compiled with numba's reference counting on
(:mod:`whist_sim.compiled.entry.deal`); the deal loop itself stays allocation-free. A candidate
is applied to a copy of the state with the loop's own transition
(:func:`~whist_sim.compiled.loop.phases.apply_call` / ``apply_contract``) and the copy is played
to the end by the loop (through its address), so the strategy holds no rules of its own and the
compiled call graph has no cycle.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..ground._numba import jit
from ..ground.bits import ZERO, bit, popcount
from ..ground.layout import (
    H_FRISCH,
    H_HAND,
    HM_SIZE,
    MAX_CALLS,
    N_PARAMS,
    PH_DONE,
    R_DIR,
    R_MAXLEVEL,
    R_NTRICKS,
    R_PLAYERS,
    S_NCALLS,
    S_NCONTRACTS,
    S_NFRISCH,
    S_REMOVED,
    S_SCORE,
    S_THROWN,
    SAMPLER_WORK,
    ST_SIZE,
    call_floor,
)
from ..ground.rng import decision_stream, unit
from ..ground.sampler import W_NEED, Sampler, deal_pool
from ..loop.phases import apply_call, apply_contract
from ..loop.shared import run_base_at
from ..strategies.bidding.heuristic import (
    NT_HCP,
    est_from_q,
    est_q_deck,
    heuristic_call,
    heuristic_contract,
)
from ..strategies.registry import BID_HEURISTIC, PLAY_ROLLOUT
from .inference import Replay, mismatches, model_rows, resample
from .rollout import Draw

CONTRACT_DECISION = MAX_CALLS  # + bidding position: decision index of a contract
POOL = 4  # with infer: layouts drawn per layout kept (weighted by the table, then resampled)


class Ask(NamedTuple):
    """One decision of the search: its candidates ``cands[:n_cands]`` (int64: auction calls when
    ``is_call``, else contracts) and its index ``decision`` in the deal (the sub-stream's, module
    doc)."""

    cands: np.ndarray
    n_cands: np.int64
    is_call: np.bool_
    decision: np.int64


class Scratch(NamedTuple):
    """The scratch of :func:`evaluate`: the state ``base_st`` / ``base_hm`` (a copy of the
    decision's, each layout dealt into its hands), the layouts ``lays`` (uint64 ``[m, P]``),
    their weights ``w`` and picks ``picks``, the candidates' ``totals`` (float64) and the
    seating ``rpol`` / ``rpar`` that plays each layout out (heuristic bidding, the rollout play
    policy)."""

    base_st: np.ndarray
    base_hm: np.ndarray
    lays: np.ndarray
    w: np.ndarray
    picks: np.ndarray
    totals: np.ndarray
    rpol: np.ndarray
    rpar: np.ndarray


@jit
def sample_hidden(st, hm, rp, seat, sub, work, tab, out_hm):
    """Deal the cards ``seat`` does not hold uniformly to the other seats into ``out_hm``.

    Every other seat ``s`` gets ``popcount(hm[H_HAND + s])`` cards (``out_hm[H_HAND + s]``); the
    seat's own hand is copied. The pool is every card in a hand now plus the removed card of the
    ``one_random`` deck (its composition is public), which is left over again. The cards the seat
    passed in the last Frisch are pinned at their receiver (nothing is played before the contracts,
    so they are still there). The one sampler of
    hidden hands (:func:`whist_sim.compiled.ground.sampler.deal_pool`, no voids) draws from the
    sub-stream ``sub`` only; ``work`` / ``tab``: its scratch.
    """
    p = rp[R_PLAYERS]
    pool = ZERO
    for s in range(p):
        pool |= hm[H_HAND + s]
        out_hm[H_HAND + s] = ZERO
        work[W_NEED + s] = popcount(hm[H_HAND + s])
    if st[S_REMOVED] >= 0:
        pool |= bit(st[S_REMOVED])
    out_hm[H_HAND + seat] = hm[H_HAND + seat]
    nf = st[S_NFRISCH]
    if nf > 0:  # the cards it passed in the last Frisch are at the receiver
        f = nf - 1
        out_hm[H_HAND + (seat + rp[R_DIR + f]) % p] = hm[H_FRISCH + 4 * f + seat]
    deal_pool(p, pool, out_hm, np.int64(H_HAND), np.int64(0), work, tab, np.bool_(False), sub)


@jit(cache=False)
def _finish(st, hm, rp, rpol, rpar, rrng, seat):
    """Play the deal in ``st``/``hm`` to the end with the base loop; ``seat``'s score (0 if the
    deal is thrown in)."""
    run_base_at(st, hm, rp, rpol, rpar, rrng, np.int64(PH_DONE))
    if st[S_THROWN] != 0:
        return 0
    return st[S_SCORE + seat]


@jit(cache=False)
def evaluate(st, hm, rp, seat, rng, ask, draw, smp, replay, sc):
    """Total score of ``seat`` per candidate of ``ask`` (an :class:`Ask`) over the sampled
    layouts; the best one.

    ``draw`` (a :class:`~whist_sim.compiled.search.rollout.Draw`): ``n_layouts`` layouts, or with
    ``infer`` ``n_picks`` resampled from ``pool`` times as many, weighted by how well they
    explain the others' calls and contracts so far under the model of ``replay``
    (:mod:`whist_sim.compiled.search.inference`). ``smp``: the sampler's stream and scratch (its
    ``sub`` is started here); ``sc``: a :class:`Scratch`. Returns the candidate (not its index)
    with the largest total; ties go to the first.
    """
    p = rp[R_PLAYERS]
    cands, n_cands, is_call, decision = ask
    n_layouts, infer, pool, eps, n_picks = draw
    sub, work, tab = smp
    base_st, base_hm, lays, w, picks, totals, rpol, rpar = sc
    rst = replay.st
    rhm = replay.hm
    rrng = replay.rng
    for i in range(ST_SIZE):
        base_st[i] = st[i]
    for i in range(HM_SIZE):
        base_hm[i] = hm[i]
    sub[0] = decision_stream(rng[0], seat, decision)
    for c in range(n_cands):
        totals[c] = 0.0
    m = n_layouts * pool if infer else n_layouts
    for i in range(m):
        sample_hidden(st, hm, rp, seat, sub, work, tab, base_hm)
        for o in range(p):
            lays[i, o] = base_hm[H_HAND + o]
        if infer:
            w[i] = eps ** mismatches(st, hm, rp, seat, base_hm, replay.pol, replay.par, rst, rhm,
                                     rrng)
    if infer:
        resample(w, m, n_picks, unit(sub), picks)
    for i in range(n_picks):
        j = picks[i] if infer else i
        for o in range(p):
            base_hm[H_HAND + o] = lays[j, o]
        for c in range(n_cands):
            for i in range(ST_SIZE):
                rst[i] = base_st[i]
            for i in range(HM_SIZE):
                rhm[i] = base_hm[i]
            if is_call:
                apply_call(rst, rhm, rp, seat, cands[c])
            else:
                apply_contract(rst, rp, seat, cands[c])
            totals[c] += _finish(rst, rhm, rp, rpol, rpar, rrng, seat)
    best = 0
    for c in range(1, n_cands):
        if totals[c] > totals[best]:
            best = c
    return cands[best]


@jit(inline="always")
def rollout_play(pol, par, seat):
    """The play policy of the rollouts of ``seat``'s decisions: its ``play`` parameter, or (-1)
    the seat's own play policy; a searching one is replaced by its base policy."""
    pid = np.int64(par[0, seat, 4])
    if pid < 0:
        pid = pol[1, seat]
        if pid == PLAY_ROLLOUT:
            pid = np.int64(par[1, seat, 1])
    return pid


@jit(_nrt=True, cache=False)
def _run(pol, par, st, hm, rp, seat, rng, ask, n_samples):
    """Allocate the scratch of one decision (an :class:`Ask`, ``n_samples`` layouts) and
    :func:`evaluate` it."""
    p = rp[R_PLAYERS]
    play = rollout_play(pol, par, seat)
    rpol = np.empty((2, p), dtype=np.int64)
    for s in range(p):
        rpol[0, s] = BID_HEURISTIC
        rpol[1, s] = play
    rpar = np.zeros((2, p, N_PARAMS), dtype=np.float64)
    for s in range(p):  # the heuristic's defaults: the NT rule on (nt = 1, nt_hcp)
        rpar[0, s, 0] = 1.0
        rpar[0, s, 1] = NT_HCP
    infer = par[0, seat, 5] != 0.0
    m = n_samples * POOL if infer else n_samples
    mpol = np.empty((2, p), dtype=np.int64)
    mpar = np.zeros((2, p, N_PARAMS), dtype=np.float64)
    if infer:
        model_rows(pol, par, p, np.int64(par[0, seat, 6]), mpol, mpar)
    # the sampler's table of layout counts serves voids only: one slot stands in for it
    smp = Sampler(np.empty(1, dtype=np.uint64), np.empty(SAMPLER_WORK, dtype=np.int64),
                  np.empty(1, dtype=np.float64))
    replay = Replay(mpol, mpar, np.zeros(ST_SIZE, dtype=np.int64),
                    np.zeros(HM_SIZE, dtype=np.uint64), np.zeros(1, dtype=np.uint64))
    sc = Scratch(np.empty(ST_SIZE, dtype=np.int64), np.empty(HM_SIZE, dtype=np.uint64),
                 np.empty((m, p), dtype=np.uint64), np.empty(m, dtype=np.float64),
                 np.empty(n_samples, dtype=np.int64), np.empty(ask.n_cands, dtype=np.float64),
                 rpol, rpar)
    draw = Draw(n_samples, infer, np.int64(POOL), par[0, seat, 7], n_samples)
    return evaluate(st, hm, rp, seat, rng, ask, draw, smp, replay, sc)


@jit(inline="always")
def mc_call(pol, par, st, hm, rp, seat, lo, hi, rng):
    """``montecarlo`` auction call of ``seat``: pass or a legal bid (the lowest
    legal level of each strain, ``call_floor``; see the module doc).
    Draws nothing from ``rng``."""
    n_samples = np.int64(par[0, seat, 0])
    if n_samples < 1 or par[0, seat, 1] == 0.0:
        return heuristic_call(st, hm, rp, seat, lo, hi, np.int64(NT_HCP))
    slack = np.int64(par[0, seat, 3])
    n_tricks = rp[R_NTRICKS]
    q = est_q_deck(hm[H_HAND + seat], rp, np.int64(NT_HCP))
    cands = np.empty(6, dtype=np.int64)
    cands[0] = 0
    n_cands = 1
    top = rp[R_MAXLEVEL]
    for t in range(5):
        n = call_floor(st, rp, lo, hi, t)  # the lowest legal level in strain t
        if n <= top and est_from_q(q[t], n_tricks) >= n - slack:
            cands[n_cands] = 5 * n + t
            n_cands += 1
    if n_cands == 1:
        return 0
    return _run(pol, par, st, hm, rp, seat, rng,
                Ask(cands, np.int64(n_cands), np.bool_(True), st[S_NCALLS]), n_samples)


@jit(inline="always")
def mc_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng):
    """``montecarlo`` contract of ``seat`` in ``lo..N``, not ``forbidden``. Draws nothing."""
    want = heuristic_contract(st, hm, rp, seat, lo, forbidden, np.int64(NT_HCP))
    n_samples = np.int64(par[0, seat, 0])
    if n_samples < 1:
        return want
    span = np.int64(par[0, seat, 2])
    n_tricks = rp[R_NTRICKS]
    cands = np.empty(n_tricks + 1, dtype=np.int64)
    n_cands = 0
    for c in range(lo, n_tricks + 1):
        if c != forbidden and abs(c - want) <= span:
            cands[n_cands] = c
            n_cands += 1
    if n_cands == 1:
        return cands[0]
    decision = CONTRACT_DECISION + st[S_NCONTRACTS]
    return _run(pol, par, st, hm, rp, seat, rng,
                Ask(cands, np.int64(n_cands), np.bool_(False), decision), n_samples)
