"""Bid charts: the expected-score-optimal contract by hand class.

For hand ``i`` of a chart (seed ``S``) a full deal is played up to the contracts by the bidding
strategy (the first of the deals ``64 i .. 64 i + 63`` of run ``S`` that is not thrown in), so
declarer, trump, level and the earlier contracts are realistic. The player is the seat at bidding
position ``i % P`` (0 = declarer ... ``P-1`` = the hooked last bidder). Hands are **stratified**
(:mod:`whist_sim.analyses.advisor.chart_strata`): many hands are classed by position, high-card
points and trump length (one auction each), and the first ``min_hands`` of every class are
evaluated, weighted back to the natural distribution. An evaluated hand is fixed at the start of
play, the other hands are re-sampled ``deals_per_hand`` times (uniformly, or bid-consistently), and
every legal contract is played out on the same sampled deals
(:mod:`whist_sim.compiled.entry.advise`), in the deal's strain and (the NT panel) at no-trump. Per
hand: the expected score (points), P(make), expected tricks and P(over) of every contract, the
optimal contract (highest expected score; ties: the lower) and whether bidding zero beats every
other contract.

:func:`bid_chart` runs the hands in chunks on an executor (local threads or a Dask cluster:
:mod:`whist_sim.runs.executors`); results depend only on the seed and the options.
:func:`chart_tables` aggregates them by hand class (per position: high-card points x trump
length; the cell's optimal bid and how sure it is, :mod:`whist_sim.analyses.advisor.chart_cells`)
and :func:`write_chart_report` (:mod:`whist_sim.analyses.advisor.chart_report`) writes Markdown,
``cells.csv``, heat maps (PNG), the A4 cheat sheet (PNG, PDF;
:mod:`whist_sim.analyses.advisor.chart_plots`) and optionally the per-hand Parquet.

Conventions: positions are bidding positions ``0..P-1`` (0 = declarer); per contract ``b`` the
columns hold raw values (points, fractions), NaN where ``b`` is illegal; means and standard errors
come from sums (:func:`whist_sim.core.stats.mean_interval_from_sums`); bad options raise
:class:`ChartError`. This module uses the advisor's policy arrays
(:mod:`whist_sim.analyses.advisor.sampling`) and nothing else of the advisor; the compiled kernels,
matplotlib and tqdm are imported where used.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...compiled.ground.layout import Table, deck_array, rules_array
from ...compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY, PolicyError
from ...compiled.strategies.seating import Seating
from ...compiled.strategies.spec import check_play
from ...core.cards import NT, STRAINS, SUIT_MASKS
from ...core.rng import mix64
from ...core.rules import Rules
from ...runs.executors import Executor, ExecutorError, check_executor_options, make_executor
from .chart_cells import chart_tables
from .chart_options import (
    DEFAULT_CHUNK,
    DEFAULT_DEALS_PER_HAND,
    DEFAULT_HANDS,
    DEFAULT_MIN_HANDS,
    ChartOptions,
)
from .chart_report import chart_meta, write_chart_report
from .chart_strata import HCP_BANDS, MIN_PROB
from .sampling import DEFAULT_EPS, NO_CALLS, check_model, model_arrays

__all__ = [
    "DEFAULT_CHUNK",
    "DEFAULT_DEALS_PER_HAND",
    "DEFAULT_HANDS",
    "DEFAULT_MIN_HANDS",
    "HCP_BANDS",
    "ChartError",
    "ChartOptions",
    "ChartTask",
    "bid_chart",
    "chart_tables",
    "default_hands",
    "paired_zero_value",
    "run_chart_chunk",
    "chart_meta",
    "write_chart_report",
]

SCREEN_CHUNK = 200_000  # hands screened per task (one auction each)
MAX_TRIES = 200_000  # per sampled deal with --consistent; a hand that needs more is dropped
class ChartError(ValueError):
    """Bad options for a bid chart."""


def default_hands(min_hands: int, players: int) -> int:
    """Screened hands that give a cell of probability :data:`MIN_PROB` about ``min_hands``
    hands at every position: ``players * ceil(min_hands / MIN_PROB)``."""
    return players * math.ceil(min_hands / MIN_PROB)


@dataclass(frozen=True)
class ChartTask:
    """The options of one chart run, shipped to every task (picklable): the hands ``ids``
    (int64) evaluated in strain ``strain`` (-1: the deal's own; 4: NT), ``chunk_size`` a task."""

    ids: np.ndarray
    strain: np.ndarray
    deals_per_hand: int
    seed: int
    rules: Rules
    bid: str
    play: str
    consistent: bool
    chunk_size: int
    #: ``bid`` and ``play`` at every seat, parsed once when the task is made
    seating: Seating = field(init=False)

    def __post_init__(self) -> None:
        p = self.rules.players
        object.__setattr__(self, "seating", Seating.of((self.bid,) * p, (self.play,) * p, p))


def run_chart_chunk(task: ChartTask, index: int) -> dict[str, np.ndarray]:
    """Entries ``index * chunk_size ..`` (at most ``chunk_size``) of ``task.ids``: raw arrays.

    Keys: ``hand_index``, ``deal``, ``declarer`` (-1: thrown in every time), ``trump`` (the
    evaluated strain), ``level``, ``seat``, ``position``, ``hand`` (uint64), ``earlier``
    (``[n, P]``, -1 after the player), ``tries``, and per contract (``[n, N+1]``) ``n``,
    ``sum``, ``sq``, ``made``, ``tricks``, ``over`` (see
    :func:`whist_sim.compiled.entry.advise.chart_kernel`).
    """
    from ...compiled.entry.advise import (
        Candidates,
        ChartHands,
        ChartOut,
        Sampling,
        chart_kernel,
        sampling_scratch,
    )
    from ...compiled.entry.deal import loop_address
    from ...compiled.ground.conditional import unconstrained
    from ...compiled.strategies.dispatch import loop_mode

    rules = task.rules
    p, n = rules.players, rules.n_tricks
    sl = slice(index * task.chunk_size, (index + 1) * task.chunk_size)
    ids = np.ascontiguousarray(task.ids[sl], dtype=np.int64)
    strain = np.ascontiguousarray(task.strain[sl], dtype=np.int64)
    count = len(ids)
    pol, par = task.seating.arrays()
    k = n + 1
    out = {
        "scen": np.zeros((count, 6), dtype=np.int64),
        "hand": np.zeros(count, dtype=np.uint64),
        "earlier": np.zeros((count, p), dtype=np.int64),
        **{name: np.zeros((count, k), dtype=np.int64)
           for name in ("n", "sum", "sq", "made", "tricks", "over")},
        "tries": np.zeros(count, dtype=np.int64),
    }
    smp = Sampling(
        np.zeros(p, dtype=np.uint64), np.uint64(rules.deck_mask), unconstrained(p, rules.hand_size),
        False, np.zeros(p, dtype=np.int64),
        (bool(task.consistent), *model_arrays(p, task.bid), DEFAULT_EPS, NO_CALLS, np.int64(0)),
        np.int64(MAX_TRIES), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    deal, scratch = sampling_scratch(k)
    chart_kernel(
        loop_address(loop_mode(pol), pol), np.uint64(mix64(task.seed)),
        ChartHands(ids, strain, np.int64(task.deals_per_hand)),
        Table(rules_array(rules), deck_array(rules), pol, par), smp,
        Candidates(np.int64(-1), np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64)),
        deal, scratch,
        ChartOut(out["scen"], out["hand"], out["earlier"], out["n"], out["sum"], out["sq"],
                 out["made"], out["tricks"], out["over"], out["tries"]),
    )
    scen = out.pop("scen")
    out["hand_index"] = ids
    for j, name in enumerate(("deal", "declarer", "trump", "level", "seat", "position")):
        out[name] = scen[:, j]
    return out


def _check(name: str, v: Any, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
        raise ChartError(f"{name} must be a whole number in {lo}..{hi}, got {v!r}")
    return int(v)


def _check_tasks(hands: int, min_hands: int, chunk_size: int, players: int, nt: bool) -> None:
    """Refuse, before anything runs, a chart whose evaluation could need more tasks than a run
    can keep (:data:`~whist_sim.runs.dataset.MAX_CHUNKS`): at most every cell's ``min_hands``
    hands (and no more than the hands screened) are evaluated, in each panel."""
    from ...runs.dataset import MAX_CHUNKS, n_chunks
    from .chart_strata import HCP_BANDS, N_CLASSES

    panels = 2 if nt else 1
    most = min(hands, players * len(HCP_BANDS) * N_CLASSES * min_hands) * panels
    if n_chunks(most, chunk_size) > MAX_CHUNKS:
        raise ChartError(
            f"--min-hands {min_hands:,} (of --hands {hands:,}) may evaluate up to {most:,} hands: "
            f"in chunks of --chunk-size {chunk_size:,} that is {n_chunks(most, chunk_size):,} "
            f"tasks; a run has at most {MAX_CHUNKS:,}: give --chunk-size "
            f"{-(-most // MAX_CHUNKS):,} or more")


def _run_tasks(ex: Executor, fn, n_chunks: int, bar, store: Any = None,
               phase: str = "") -> list[dict[str, np.ndarray]]:
    """Every chunk's result, in chunk order (whatever order they finish in); with ``store`` (a
    :class:`~whist_sim.runs.checkpoint.ChunkStore`) the chunks kept there are read back and every
    chunk played is kept as it finishes."""
    parts: dict[int, dict[str, np.ndarray]] = {}
    if store is not None:
        for i in range(n_chunks):
            kept = store.get(phase, i)
            if kept is not None:
                parts[i] = kept
                if bar is not None:
                    bar.update(len(next(iter(kept.values()))))
    for idx, res in ex.map_unordered(fn, [i for i in range(n_chunks) if i not in parts]):
        parts[idx] = res
        if store is not None:
            store.put(phase, idx, res)
        if bar is not None:
            bar.update(len(next(iter(res.values()))))
    return [parts[i] for i in range(n_chunks)]


def bid_chart(options: ChartOptions | None = None, *, progress: bool = True,
              **fields: Any) -> pd.DataFrame:
    """A stratified chart (its options: a :class:`~whist_sim.analyses.advisor.chart_options.
    ChartOptions`, or its fields as keywords): screen ``hands`` hands of the natural
    distribution, evaluate the first
    ``min_hands`` of every cell with ``deals_per_hand`` deals each (see the module doc and
    :mod:`whist_sim.analyses.advisor.chart_strata`).

    ``hands``: hands screened (one auction each; default :func:`default_hands`, enough for cells
    of probability :data:`~whist_sim.analyses.advisor.chart_strata.MIN_PROB`); when no cell has more
    than ``min_hands`` hands, every screened hand is evaluated, as in an unstratified chart. ``nt``:
    also evaluate the NT panel (the cell's hands at no-trump). ``positions``: evaluate only the
    hands of these bidding positions (default: every one). ``bid``: the bidding strategy of every
    seat (auction, earlier contracts, later bidders' model: one of
    :data:`whist_sim.analyses.advisor.sampling.MODEL_BID_POLICIES`); ``play``: the play policy of
    every seat (default :data:`~whist_sim.compiled.strategies.registry.DEFAULT_PLAY`).
    ``consistent``: sample only deals in which the earlier bidders' strategy makes their contracts.
    ``threads`` / ``scheduler`` / ``cluster`` choose the executor as for ``simulate`` (``executor``:
    an already started one, not closed here). ``checkpoint``: a folder where every finished task is
    kept (:class:`whist_sim.runs.checkpoint.ChunkStore`) until the chart is done, so that a run
    interrupted meanwhile finishes with ``resume=True`` (the same options required) to the same
    chart; it is removed once the chart is complete.

    Returns one row per evaluated hand and panel (thrown-in and dropped hands excluded;
    ``df.attrs`` holds the run options, counts and ``coverage`` notes of unfilled cells):
    ``hand_index``, ``deal``, ``declarer``, ``trump`` (the evaluated strain 0..4), ``level``,
    ``seat``, ``position``, ``hand`` (uint64), ``hcp``, ``trump_len`` (-1 in NT),
    ``earlier_sum``, ``earlier_<q>`` (the contract of the bidder at position ``q`` before the
    player, ``-1`` from the player on), ``deals``, ``tries``, per contract ``b``: ``ev_b``
    (points; NaN if illegal), ``p_make_b``, ``e_tricks_b``, ``p_over_b``; then ``best_bid``,
    ``best_ev``, ``best_se``, ``best_p_make``, ``best_e_tricks``, ``best_p_over``, ``over``
    (P(over) at the best bid > 1/2), ``zero_legal``, ``zero_best`` (zero beats every other
    contract), ``nt_panel``, ``cell``, ``cell_prob`` (the natural probability of the hand's cell
    within its position and panel) and ``weight`` (``cell_prob`` / hands evaluated in the cell:
    weighted means are means under the natural distribution).
    """
    from .chart_strata import ScreenTask, coverage_notes, run_screen_chunk, select

    if options is None:
        options = ChartOptions.of(fields)
    elif fields:
        raise TypeError("bid_chart(): give the options object or its fields, not both")
    o = options
    hands, deals_per_hand, seed, rules, bid, play = (o.hands, o.deals_per_hand, o.seed, o.rules,
                                                     o.bid, o.play)
    consistent, chunk_size, threads, scheduler, cluster = (o.consistent, o.chunk_size, o.threads,
                                                           o.scheduler, o.cluster)
    executor, min_hands, nt, positions, checkpoint, resume = (o.executor, o.min_hands, o.nt,
                                                              o.positions, o.checkpoint, o.resume)
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ChartError(f"rules must be a whist_sim.Rules, got {type(rules).__name__}")
    min_hands = _check("min hands", min_hands, 1, 10**7)
    if hands is None:
        hands = default_hands(min_hands, rules.players)
    hands = _check("hands", hands, 1, 10**10)
    deals_per_hand = _check("deals per hand", deals_per_hand, 1, 10**7)
    seed = _check("seed", seed, 0, (1 << 64) - 1)
    chunk_size = _check("chunk size", chunk_size, 1, 10**7)
    _check_tasks(hands, min_hands, chunk_size, rules.players, nt)
    if positions is not None:
        positions = tuple(_check("position", q, 0, rules.players - 1) for q in positions)
    try:
        bid = check_model(bid, chart=True)
        play = check_play(play)
    except PolicyError as e:
        raise ChartError(str(e)) from None
    if executor is not None and (scheduler is not None or cluster is not None):
        raise ChartError("give an executor, or a scheduler / cluster, not both")
    if executor is None:
        try:
            check_executor_options(threads=threads, scheduler=scheduler, cluster=cluster)
        except ExecutorError as e:
            raise ChartError(str(e)) from None
    store = None
    if checkpoint is not None:
        from ...compiled.ground._numba import engine_fingerprint
        from ...runs.checkpoint import CheckpointError, ChunkStore

        ident = {"hands": hands, "deals_per_hand": deals_per_hand, "seed": seed,
                 "rules": rules.to_dict(), "bid": bid, "play": play,
                 "consistent": bool(consistent), "chunk_size": chunk_size,
                 "min_hands": min_hands, "nt": bool(nt),
                 "positions": None if positions is None else list(positions),
                 "engine": engine_fingerprint()}
        try:
            store = ChunkStore(checkpoint, ident, resume)
        except CheckpointError as e:
            raise ChartError(str(e)) from None
    t0 = time.perf_counter()
    ex = executor if executor is not None else make_executor(threads, scheduler, cluster)
    status = "interrupted"
    try:
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=hands, unit="hand", desc="bid chart: screen", dynamic_ncols=True)
        screen_chunk = min(SCREEN_CHUNK, max(chunk_size, -(-hands // 64)))
        screen = ScreenTask(hands, seed, rules, bid, play, screen_chunk)
        parts = _run_tasks(ex, functools.partial(run_screen_chunk, screen),
                           -(-hands // screen_chunk), bar, store, "screen")
        if bar is not None:
            bar.close()
        t_screen = time.perf_counter() - t0
        sel = select(np.concatenate([q["band"] for q in parts]),
                     np.concatenate([q["cls"] for q in parts]), rules.players, min_hands, nt,
                     positions)
        del parts
        task = ChartTask(sel.ids, sel.strain, deals_per_hand, seed, rules, bid, play,
                         bool(consistent), chunk_size)
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(sel.ids), unit="hand", desc="bid chart", dynamic_ncols=True)
        chunks = _run_tasks(ex, functools.partial(run_chart_chunk, task),
                            -(-len(sel.ids) // chunk_size), bar, store, "chart")
        if bar is not None:
            bar.close()
        description = ex.description
        status = "complete"
    finally:
        if executor is None:
            ex.close()
        if store is not None:
            store.remove() if status == "complete" else store.finish(status)
    if chunks:
        raw = {key: np.concatenate([c[key] for c in chunks]) for key in chunks[0]}
    else:
        raw = run_chart_chunk(task, 0)
    df = hands_frame(raw, rules)
    from .chart_strata import cell_weights

    for name, col in cell_weights(df, sel.cells).items():
        df[name] = col
    n_eval = len(raw["hand_index"])
    df.attrs.update({
        "hands": hands, "min_hands": min_hands, "evaluated": n_eval,
        "deals_per_hand": deals_per_hand, "seed": seed, "bid": bid, "play": play,
        "consistent": bool(consistent), "nt": bool(nt), "rules": rules.to_dict(),
        "thrown_in": int(hands - sel.screened_per_position.sum()),
        "dropped": int(((raw["declarer"] >= 0) & (raw["tries"] < 0)).sum()),
        "deals_tried": int(np.abs(raw["tries"]).sum()),
        "coverage": coverage_notes(sel, rules.players, nt), "positions": positions,
        "cells": sel.cells.reset_index().to_dict(orient="list"),
        "executor": description, "wall_s": time.perf_counter() - t0, "screen_s": t_screen,
    })
    return df


def hands_frame(raw: dict[str, np.ndarray], rules: Rules) -> pd.DataFrame:
    """The per-hand DataFrame of :func:`bid_chart` from the concatenated raw chunk arrays."""
    from ...core.stats import mean_interval_from_sums
    from ..reports.tally import hcp as hcp_of

    n_tricks = rules.n_tricks
    keep = (raw["declarer"] >= 0) & (raw["tries"] > 0)
    r = {k: v[keep] for k, v in raw.items()}
    hand = r["hand"].astype(np.uint64)
    trump = r["trump"]
    tlen = np.full(len(hand), -1, dtype=np.int64)
    for s in range(4):
        m = trump == s
        bits = np.array([(int(h) & SUIT_MASKS[s]).bit_count() for h in hand[m]], dtype=np.int64)
        tlen[m] = bits
    n = r["n"].astype(float)
    ev, sd, _, _ = mean_interval_from_sums(n, r["sum"], r["sq"])
    with np.errstate(invalid="ignore", divide="ignore"):
        se = sd / np.sqrt(n)
        p_make = np.where(n > 0, r["made"] / n, np.nan)
        e_tricks = np.where(n > 0, r["tricks"] / n, np.nan)
        p_over = np.where(n > 0, r["over"] / n, np.nan)
    earlier = r["earlier"]
    cols: dict[str, Any] = {
        "hand_index": r["hand_index"], "deal": r["deal"], "declarer": r["declarer"],
        "trump": trump, "level": r["level"], "seat": r["seat"], "position": r["position"],
        "hand": hand, "hcp": hcp_of(hand).astype(np.int64), "trump_len": tlen,
        "earlier_sum": np.where(earlier >= 0, earlier, 0).sum(axis=1),
        **{f"earlier_{q}": earlier[:, q] for q in range(rules.players)},
        "deals": r["n"].max(axis=1), "tries": r["tries"],
    }
    for b in range(n_tricks + 1):
        cols[f"ev_{b}"] = ev[:, b]
    for b in range(n_tricks + 1):
        cols[f"p_make_{b}"] = p_make[:, b]
    for b in range(n_tricks + 1):
        cols[f"e_tricks_{b}"] = e_tricks[:, b]
    for b in range(n_tricks + 1):
        cols[f"p_over_{b}"] = p_over[:, b]
    filled = np.where(np.isnan(ev), -np.inf, ev)
    best = np.argmax(filled, axis=1)  # first maximum: ties go to the lower bid
    rows = np.arange(len(best))
    cols["best_bid"] = best
    cols["best_ev"] = ev[rows, best]
    cols["best_se"] = se[rows, best]
    cols["best_p_make"] = p_make[rows, best]
    cols["best_e_tricks"] = e_tricks[rows, best]
    cols["best_p_over"] = p_over[rows, best]
    cols["over"] = p_over[rows, best] > 0.5
    zero_legal = n[:, 0] > 0
    other = np.where(np.isnan(ev[:, 1:]), -np.inf, ev[:, 1:]).max(axis=1)
    cols["zero_legal"] = zero_legal
    cols["zero_best"] = zero_legal & (np.nan_to_num(ev[:, 0], nan=-np.inf) > other)
    cols["nt_panel"] = trump == NT
    return pd.DataFrame(cols)


# --------------------------------------------------------------------------- tables


def paired_zero_value(rules: Rules | None = None, bid: str = DEFAULT_BID,
                      play: str = DEFAULT_PLAY, seed: int = 0, hands: int = 300_000,
                      min_hands: int = 30, deals_per_hand: int = 40,
                      threads: int | None = None) -> pd.DataFrame:
    """Zero against the best non-zero bid, paired, by position (non-declarers) and HCP band: a
    small stratified suit-panel chart of the non-declarers (:func:`bid_chart`, ``hands``
    classed, ``min_hands`` per cell, ``deals_per_hand`` each), pooled with the cells' natural
    weights (:func:`whist_sim.analyses.advisor.chart_cells.zero_value_by_band`). Index
    ``(position, hcp_band)``;
    columns ``hands``, ``zero_diff`` (points per deal) with ``zero_diff_ci_low`` /
    ``zero_diff_ci_high`` (95 %), ``zero_best_share``. ``df.attrs``: ``wall_s``, ``evaluated``.
    """
    df = bid_chart(hands=hands, deals_per_hand=deals_per_hand, seed=seed, rules=rules, bid=bid,
                   play=play, threads=threads, progress=False, min_hands=min_hands, nt=False,
                   positions=range(1, (rules or Rules()).players))
    rules = rules or Rules()
    zb = chart_tables(df, rules.players)["zero_by_band"].rename(
        columns={"ci_low": "zero_diff_ci_low", "ci_high": "zero_diff_ci_high"})
    out = zb.set_index(["position", "hcp_band"])[["hands", "zero_diff", "zero_diff_ci_low",
                                                  "zero_diff_ci_high", "zero_best_share"]]
    out.attrs = {"wall_s": df.attrs["wall_s"], "evaluated": len(df)}
    return out


def strain_name(trump: int) -> str:
    """``'C'``..``'S'`` or ``'NT'`` for a strain code."""
    return STRAINS[int(trump)]

