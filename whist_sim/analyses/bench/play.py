"""The ``play`` section of ``whist-sim bench``: each play policy's deals per second on one thread.

Keys, for every registered play policy ``P`` (``rollout`` as ``rollout:n=16:infer=0``, the spec
its targets are set for: the search without reading the table): ``play_P_1t`` (deals per wall
second, heuristic bidding, ``P`` at every seat, one thread) and ``play_P_vs_heuristic`` (that
rate over the heuristic play's rate in the same run; compare ratios, not absolute rates, on a
shared machine). Besides, the search that reads the table (``rollout:n=16:infer=1``, the
default, docs/STRATEGIES.md): ``play_rollout_infer_1t`` and ``play_rollout_infer_vs_rollout``,
the price of the inference, and ``play_rollout_infer_ess``: the mean effective sample size of
its pool of ``pool x n = 128`` layouts per searching decision (:func:`pool_ess`, on the card
decisions of :data:`ESS_DEALS` deals of heuristic bidding and ``expert`` play; ``n = 16`` would
mean the table narrowed nothing). Not a default section:
``whist-sim bench --only play``.
"""

from __future__ import annotations

import time

import numpy as np

from ...compiled.ground._numba import jit
from ...compiled.ground.layout import (
    HM_SIZE,
    N_PARAMS,
    R_PLAYERS,
    S_NPLAYS,
    SAMPLER_TAB,
    SAMPLER_WORK,
    ST_SIZE,
)
from ...compiled.ground.rng import decision_stream
from ...compiled.ground.sampler import Sampler
from ...compiled.search.inference import Replay, model_rows
from ...compiled.search.rollout import ROLLOUT_DECISION, Draw, Drawn, draw_pool
from ...core.rules import Rules
from .registry import BenchContext, Result, bench_section

#: the spec each play policy is timed with
SPECS = {"rollout": "rollout:n=16:infer=0"}  # the search without reading the table
#: searches timed besides the registered policies: key -> spec
EXTRA = {"rollout_infer": "rollout:n=16:infer=1"}
#: deals whose searching decisions :func:`pool_ess` averages over
ESS_DEALS = 40


def play_rate(rules: Rules, spec: str, seconds: float, chunk: int) -> float:
    """Deals per wall second of ``play_batch`` with heuristic bidding and ``spec`` at every seat."""
    from ...compiled.entry.batch import play_batch

    bid, play = ("heuristic",) * rules.players, (spec,) * rules.players
    play_batch(1, 0, 2, rules, bid, play)  # compile or load first
    deals = 0
    t0 = time.perf_counter()
    while True:
        play_batch(1, deals, chunk, rules, bid, play)
        deals += chunk
        if time.perf_counter() - t0 >= seconds:
            break
    return deals / (time.perf_counter() - t0)


@jit(_nrt=True)
def _decision_ess(pol, par, st, hm, rp, seat):
    """The effective sample size of the pool that ``rollout`` (``par[1, seat]``, reading the
    table) would weight at this card decision of ``seat`` (the policy's own draws)."""
    p = rp[R_PLAYERS]
    n = np.int64(par[1, seat, 0])
    pool = np.int64(par[1, seat, 6])
    sub = np.empty(1, dtype=np.uint64)
    sub[0] = decision_stream(np.uint64(7), seat, ROLLOUT_DECISION + st[S_NPLAYS])
    work = np.empty(SAMPLER_WORK, dtype=np.int64)
    tab = np.empty(SAMPLER_TAB, dtype=np.float64)
    lay = hm.copy()
    rst = np.zeros(ST_SIZE, dtype=np.int64)
    rhm = np.zeros(HM_SIZE, dtype=np.uint64)
    rrng = np.empty(1, dtype=np.uint64)
    mpol = np.empty((2, p), dtype=np.int64)
    mpar = np.zeros((2, p, N_PARAMS), dtype=np.float64)
    model_rows(pol, par, p, np.int64(par[1, seat, 4]), mpol, mpar)
    picks = np.int64(par[1, seat, 7]) * n
    drawn = Drawn(np.empty((n * pool, p), dtype=np.uint64), np.empty(n * pool, dtype=np.uint64),
                  np.empty(n * pool), np.empty(picks, dtype=np.int64),
                  np.empty(picks, dtype=np.int64))
    ess, _count = draw_pool(st, hm, rp, seat, Sampler(sub, work, tab), lay,
                            Draw(n, np.bool_(True), pool, par[1, seat, 5], picks),
                            Replay(mpol, mpar, rst, rhm, rrng), drawn)
    return ess


def pool_ess(rules: Rules, deals: int = ESS_DEALS, spec: str = EXTRA["rollout_infer"],
             seed: int = 1) -> float:
    """Mean effective sample size of ``spec``'s weighted pool over the card decisions with more
    than one legal card of deals ``0 .. deals-1`` (stream ``(seed, d)``), every seat bidding
    ``heuristic`` and playing ``expert`` (the decisions are judged where ``expert`` led them;
    the searching seat would have ``spec``'s parameters)."""
    from ...compiled.entry.decide import KernelSeats
    from ...core.rng import DealRng
    from ...engine.state import DealState

    p = rules.players
    total, count = 0.0, 0
    for d in range(deals):
        rng = DealRng(seed, d)
        state = DealState.deal(rules, rng, d % p)
        table = KernelSeats(rules, ["heuristic"] * p, ["expert"] * p, d % p, state.dealt,
                            rng.state, state.removed_card, d)
        probe = KernelSeats(rules, ["heuristic"] * p, [spec] * p, d % p, state.dealt,
                            rng.state, state.removed_card, d)
        while not state.is_over:
            action = table.decide()
            if state.phase == "play" and len(state.legal_actions()) > 1:
                total += _decision_ess(probe.pol, probe.par, table.st, table.hm, table.rp,
                                       state.to_move)
                count += 1
            state.apply(action)
            table.apply(action)
    return total / max(count, 1)


@bench_section("play", default=False, help="each play policy's deals/s on one thread")
def _play(ctx: BenchContext) -> Result:
    from ...compiled.strategies import play_names

    out: Result = {}
    rates = {}
    for name in play_names():
        spec = SPECS.get(name, name)
        chunk = 200 if name in SPECS else 20_000
        ctx.log(f"play policy {spec}")
        rates[name] = play_rate(ctx.rules, spec, ctx.seconds, chunk)
        out[f"play_{name}_1t"] = rates[name]
    for name, rate in rates.items():
        out[f"play_{name}_vs_heuristic"] = rate / rates["heuristic"]
    for key, spec in EXTRA.items():
        ctx.log(f"play policy {spec}")
        out[f"play_{key}_1t"] = rate = play_rate(ctx.rules, spec, ctx.seconds, 200)
        out[f"play_{key}_vs_rollout"] = rate / rates["rollout"]
    ctx.log(f"effective sample size of {EXTRA['rollout_infer']}'s pool")
    out["play_rollout_infer_ess"] = pool_ess(ctx.rules)
    return out
