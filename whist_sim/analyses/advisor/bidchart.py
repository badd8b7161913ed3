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
and
:func:`write_chart_report` writes Markdown, ``cells.csv``, heat maps (PNG), the A4 cheat sheet
(PNG, PDF; :mod:`whist_sim.analyses.advisor.chart_plots`) and optionally the per-hand Parquet.

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
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...compiled.ground.layout import Table, deck_array, rules_array
from ...compiled.strategies.registry import DEFAULT_PLAY, PolicyError
from ...compiled.strategies.seating import Seating
from ...compiled.strategies.spec import check_play
from ...core.cards import NT, STRAINS, SUIT_MASKS
from ...core.rng import mix64
from ...core.rules import Rules
from ...runs.executors import Executor, ExecutorError, check_executor_options, make_executor
from .chart_strata import HCP_BANDS, MIN_CELL, MIN_PROB, hand_classes
from .sampling import DEFAULT_EPS, NO_CALLS, check_model, model_arrays

__all__ = [
    "DEFAULT_DEALS_PER_HAND",
    "DEFAULT_HANDS",
    "DEFAULT_MIN_HANDS",
    "HCP_BANDS",
    "ChartError",
    "ChartTask",
    "bid_chart",
    "chart_tables",
    "default_hands",
    "paired_zero_value",
    "run_chart_chunk",
    "write_chart_report",
]

DEFAULT_MIN_HANDS = 200  # hands per cell (--min-hands)
DEFAULT_HANDS = None  # screened hands: None = enough for cells of probability MIN_PROB
DEFAULT_DEALS_PER_HAND = 200
DEFAULT_CHUNK = 50  # hands evaluated per task
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


def bid_chart(
    hands: int | None = DEFAULT_HANDS,
    deals_per_hand: int = DEFAULT_DEALS_PER_HAND,
    seed: int = 0,
    rules: Rules | None = None,
    bid: str = "heuristic",
    play: str = DEFAULT_PLAY,
    consistent: bool = False,
    chunk_size: int = DEFAULT_CHUNK,
    threads: int | None = None,
    scheduler: str | None = None,
    cluster: str | None = None,
    executor: Executor | None = None,
    progress: bool = True,
    min_hands: int = DEFAULT_MIN_HANDS,
    nt: bool = True,
    positions: Sequence[int] | None = None,
    checkpoint: str | Path | None = None,
    resume: bool = False,
) -> pd.DataFrame:
    """A stratified chart: screen ``hands`` hands of the natural distribution, evaluate the first
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


def _pivot(df: pd.DataFrame, value: str, min_n: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    g = df.groupby(["hcp_band", "trump_class"], observed=False)[value]
    mean = g.mean().unstack("trump_class")
    count = g.count().unstack("trump_class")  # hands with a value (NaN: not applicable)
    return mean.where(count >= min_n), count


def _wmean(g: pd.DataFrame, col: str) -> float:
    v = g[col].to_numpy(float)
    w = g["w"].to_numpy(float)
    ok = ~np.isnan(v)
    return float((v[ok] * w[ok]).sum() / w[ok].sum()) if ok.any() and w[ok].sum() > 0 else math.nan


def chart_tables(df: pd.DataFrame, players: int = 4,
                 min_n: int = MIN_CELL) -> dict[str, pd.DataFrame]:
    """Aggregate tables of a :func:`bid_chart` frame.

    Keys (``pos`` = bidding position 0..P-1); heat-map tables have HCP bands as rows and trump
    lengths as columns (``NT`` = the NT panel, left out when there are no NT rows), cells with
    fewer than ``min_n`` hands blank:

    * ``best_bid_pos<pos>``: the cell's optimal bid (highest mean expected score over its hands)
      and ``separated_pos<pos>``: 1 where it beats the second-best by a paired 95 % interval
      (:mod:`whist_sim.analyses.advisor.chart_cells`);
    * ``optimal_bid_pos<pos>``: mean of the hands' own optimal contracts;
    * ``expected_tricks_pos<pos>``: mean expected tricks at the hands' optimal contracts;
    * ``count_pos<pos>``: hands per cell;
    * ``zero_best_pos<pos>`` (non-declarer positions): share of the hands that may bid zero for
      which zero beats every other contract; ``zero_value_pos<pos>``: zero minus the best
      non-zero contract, points, paired (hands that may bid zero);
    * ``cells``: one row per cell (:func:`~whist_sim.analyses.advisor.chart_cells.cell_stats`; with
      ``ev_*`` columns only); ``monotonicity``; ``zero_by_band``: the zero-bid value by position
      and HCP band with 95 % intervals;
    * ``summary``: per position and under/over (suit panel; means weighted to the natural
      distribution by ``weight`` when present): hands, mean optimal bid, mean expected tricks,
      mean best expected score, zero-best share;
    * ``by_hcp_over``: mean optimal bid by HCP band x (position, under/over), suit panel.
    """
    from .chart_cells import cell_stats, monotonicity, zero_value_by_band

    c = hand_classes(df)
    out: dict[str, pd.DataFrame] = {}
    n_tricks = sum(1 for col in df.columns if col.startswith("ev_")) - 1
    cells = cell_stats(c, n_tricks, players) if n_tricks >= 0 else None
    bands = list(c["hcp_band"].cat.categories)
    classes = list(c["trump_class"].cat.categories)
    for pos in range(players):
        part = c[c["position"] == pos]
        out[f"optimal_bid_pos{pos}"], out[f"count_pos{pos}"] = _pivot(part, "best_bid", min_n)
        out[f"expected_tricks_pos{pos}"] = _pivot(part, "best_e_tricks", min_n)[0]
        if pos > 0:
            # only hands that may bid zero (the hooked bidder may not when the others sum to N)
            z = part.assign(zb=np.where(part["zero_legal"], part["zero_best"].astype(float),
                                        np.nan))
            out[f"zero_best_pos{pos}"] = _pivot(z, "zb", min_n)[0]
        if cells is not None:
            # a class split by the auction shows its main (largest) cell in the grids
            cp = cells[(cells["position"] == pos) & (cells["hands"] >= min_n) & cells["main"]]
            grid = pd.DataFrame(np.nan, index=pd.CategoricalIndex(bands, categories=bands,
                                                                  ordered=True, name="hcp_band"),
                                columns=pd.CategoricalIndex(classes, categories=classes,
                                                            ordered=True, name="trump_class"))
            for key, col in (("best_bid", "best_bid"), ("separated", "separated"),
                             ("zero_value", "zero_diff")):
                if key == "zero_value" and pos == 0:
                    continue
                t = grid.copy()
                for r in cp.itertuples():
                    t.loc[r.hcp_band, r.trump_class] = float(getattr(r, col))
                out[f"{key}_pos{pos}"] = t
    if cells is not None:
        out["cells"] = cells
        out["monotonicity"] = monotonicity(cells[cells["main"]], [str(b) for b in bands],
                                           [str(t) for t in classes], min_n)
        out["zero_by_band"] = zero_value_by_band(cells[cells["hands"] >= min_n],
                                                 [str(b) for b in bands])
    suit = c[~c["nt_panel"]] if "nt_panel" in c else c
    suit = suit.assign(
        zb=np.where(suit["zero_legal"], suit["zero_best"].astype(float), np.nan),
        w=suit["weight"].to_numpy(float) if "weight" in suit else np.ones(len(suit)))
    rows = []
    for (pos, over), g in suit.groupby(["position", "over"]):
        rows.append({"position": pos, "over": over, "hands": len(g),
                     "optimal_bid": _wmean(g, "best_bid"),
                     "expected_tricks": _wmean(g, "best_e_tricks"),
                     "best_ev": _wmean(g, "best_ev"), "zero_best_share": _wmean(g, "zb")})
    out["summary"] = pd.DataFrame(rows, columns=["position", "over", "hands", "optimal_bid",
                                                 "expected_tricks", "best_ev",
                                                 "zero_best_share"]).set_index(["position",
                                                                                "over"])
    g = suit.groupby(["hcp_band", "position", "over"], observed=False)
    mean = g.apply(lambda x: _wmean(x, "best_bid"), include_groups=False)
    count = g.size()
    out["by_hcp_over"] = mean.where(count >= min_n).unstack(["position", "over"])
    return out


# --------------------------------------------------------------------------- report


def _heatmaps(tables: dict[str, pd.DataFrame], key: str, players: int, title: str,
              fmt: str, cmap: str, positions: Sequence[int], vmin: float, vmax: float,
              label: str):
    from ..reports.charts import new_figure
    from ..reports.wording import bidding_position_name as position_label

    cols = len(positions)
    fig = new_figure(3.4 * cols + 0.8, 4.4)
    axes = [fig.add_subplot(1, cols, i + 1) for i in range(cols)]
    im = None
    for ax, pos in zip(axes, positions, strict=True):
        t = tables[f"{key}_pos{pos}"]
        data = t.to_numpy(dtype=float)
        im = ax.imshow(np.ma.masked_invalid(data), cmap=cmap, vmin=vmin, vmax=vmax,
                       aspect="auto", origin="lower")
        for (i, j), v in np.ndenumerate(data):
            if not math.isnan(v):
                dark = (v - vmin) / (vmax - vmin) < 0.45  # light text on the dark end
                ax.text(j, i, format(v, fmt), ha="center", va="center", fontsize=7,
                        color="white" if dark else "black")
        ax.set_xticks(range(len(t.columns)), [str(x) for x in t.columns], fontsize=7)
        ax.set_yticks(range(len(t.index)), [str(x) for x in t.index], fontsize=7)
        ax.set_xlabel("trump length")
        ax.set_title(position_label(pos, players), fontsize=9)
    axes[0].set_ylabel("high-card points")
    if im is not None:
        fig.colorbar(im, ax=axes, shrink=0.8, label=label)
    fig.suptitle(title, fontsize=10)
    return fig


def _over_under_chart(tables: dict[str, pd.DataFrame], players: int):
    from ..reports.charts import new_figure
    from ..reports.wording import bidding_position_name as position_label

    fig = new_figure(3.2 * players, 3.6)
    t = tables["by_hcp_over"]
    x = np.arange(len(t.index))
    for pos in range(players):
        ax = fig.add_subplot(1, players, pos + 1)
        for flag, color, name in ((False, "#1f77b4", "under"), (True, "#d62728", "over")):
            if (pos, flag) in t.columns:
                ax.plot(x, t[(pos, flag)].to_numpy(float), marker="o", ms=3, color=color,
                        label=name)
        ax.set_xticks(x, [str(v) for v in t.index], rotation=60, fontsize=7)
        ax.set_xlabel("high-card points")
        ax.set_title(position_label(pos, players), fontsize=9)
        if pos == 0:
            ax.set_ylabel("mean optimal bid")
            ax.legend(fontsize=7)
    fig.suptitle("The best bid by high-card points, in deals heading under and over",
                 fontsize=10)
    return fig


def _md_table(t: pd.DataFrame, fmt: str) -> str:
    from ..reports.render import markdown_rows

    rows = ([idx, *("" if math.isnan(v) else format(v, fmt) for v in r.to_numpy(float))]
            for idx, r in t.iterrows())
    return markdown_rows(["HCP \\ trumps", *(str(c) for c in t.columns)], rows)


def _md_best(best: pd.DataFrame, sep: pd.DataFrame,
             check: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame] | None = None) -> str:
    """Markdown grid of cell optima, ``?`` after a bid not separated from the second-best; with
    ``check`` (:func:`whist_sim.analyses.advisor.chart_check.check_grids`) a moved cell reads
    ``5→6`` (bold when the chart's bid does not hold) and a zero cell its made rates ``0 (92%/61%)``
    against the chart's field / searching opponents."""
    from ..reports.render import markdown_rows

    def cell(v: float, s: float, i: int, j: int) -> str:
        if math.isnan(v):
            return ""
        text = f"{int(v)}" + ("" if s > 0 else "?")
        if check is None:
            return text
        moved, bids, zero = check
        m = moved.iat[i, j]
        if m > 0:
            text = f"{text}→{int(bids.iat[i, j])}"
            text = f"**{text}**" if m > 1 else text
        if int(v) == 0 and zero.iat[i, j]:
            text = f"{text} ({zero.iat[i, j]})"
        return text

    rows = ([idx, *(cell(v, s, i, j) for j, (v, s) in
                    enumerate(zip(r.to_numpy(float), q.to_numpy(float), strict=True)))]
            for i, ((idx, r), (_, q)) in enumerate(zip(best.iterrows(), sep.iterrows(),
                                                       strict=True)))
    return markdown_rows(["HCP \\ trumps", *(str(c) for c in best.columns)], rows)


def _rules_words(rules: Rules) -> str:
    from ..reports.wording import rules_in_words

    return rules_in_words(rules)


def _pos(position: int, players: int) -> str:
    """A bidding position by name: declarer, second bidder, ..., fourth bidder (hooked)."""
    from ..reports.wording import bidding_position_name

    return bidding_position_name(position, players)


#: the bid chart report's own terms (the others come from the reports' glossary)
CHART_TERMS = {
    "cell": (
        "the hands of one bidding position, panel, high-card-point band and trump length "
        "(and, where a bid is illegal for some of them, one part of the auction: 'auction "
        "level 8+', 'hooked on 6'); the chart gives each cell one bid."),
    "panel": (
        "suit: the hand played in the deal's own trump; NT: the same hand played at no-trump."),
    "optimal bid": (
        "the cell's contract with the highest mean expected score over its hands."),
    "fit": (
        "the share of a cell's hands whose own best bid (the highest expected score of the "
        "hand's own evaluation) is the cell's bid."),
    "separated": (
        "a cell whose best bid beats its runner-up clearly: the paired 95 % interval of the "
        "difference lies above 0; '?' marks a cell that is not."),
    "screened": (
        "a cell the check did not play: its top two bids are far apart, it has one legal bid, "
        "or the check's budget was spent (check.csv says which)."),
    "check could see": (
        "the smallest difference, points per deal, that a check which cannot tell the two "
        "bids apart would have found with 80 % power."),
}


def chart_summary(df: pd.DataFrame, tables: dict[str, pd.DataFrame], rules: Rules,
                  check: pd.DataFrame | None = None) -> list[str]:
    """The report's opening in sentences with numbers: what was evaluated, what the declarer
    and the others bid, when a zero pays, how well a cell's bid fits its hands, what the check
    says."""
    from ..reports.wording import points_interval, share_text

    a = df.attrs
    p = rules.players
    out = [
        f"The chart evaluated {a.get('evaluated', len(df)):,} hands, up to "
        f"{a.get('min_hands', '?')} of every class, each played out in every legal contract on "
        f"{a.get('deals_per_hand', '?')} sampled deals, every seat bidding by "
        f"{a.get('bid', '?')} and playing by {a.get('play', '?')}, under "
        f"{_rules_words(rules)}."]
    s = tables["summary"].reset_index()
    said = []
    for pos in range(p):
        part = s[s["position"] == pos]
        if not len(part):
            continue
        w = part["hands"].to_numpy(float)
        bid = float((part["optimal_bid"] * w).sum() / w.sum())
        tricks = float((part["expected_tricks"] * w).sum() / w.sum())
        said.append(f"{_pos(pos, p)} {bid:.1f} (expecting {tricks:.1f} tricks)")
    if said:
        out.append("The best bid, on average over the hands as they come: " + ", ".join(said)
                   + ".")
    zb = tables.get("zero_by_band")
    if zb is not None and len(zb):
        for pos, g in zb.groupby("position"):
            pays = g[g["ci_low"] > 0]
            if len(pays):
                r = pays.iloc[-1]
                out.append(
                    f"A zero pays for the {_pos(int(pos), p)} with {_band_words(r['hcp_band'])}: "
                    f"there it beats the best other bid for the same hand by "
                    f"{points_interval(r['zero_diff'], r['ci_low'], r['ci_high'])} per deal.")
            else:
                out.append(f"A zero never clearly beats the best other bid for the "
                           f"{_pos(int(pos), p)}.")
    cells = tables["cells"]
    shown = cells[cells["hands"] >= MIN_CELL]
    if len(shown):
        parts = cells.groupby(["position", "hcp_band", "trump_class"], observed=True).size()
        out.append(
            f"A cell's bid is its hands' own best bid for {share_text(shown['fit'].mean())} of "
            f"them on average over the {len(shown)} cells of {MIN_CELL} hands or more "
            f"(weighted by hands: "
            f"{share_text((shown['fit'] * shown['hands']).sum() / shown['hands'].sum())}). "
            f"{int((parts > 1).sum())} of {len(parts)} classes are split by the auction, so that "
            f"no cell's bid is illegal for a hand it covers; "
            f"{share_text(shown['hands'].sum() / cells['hands'].sum())} of the hands are in "
            "cells large enough to show.")
    if check is not None:
        from .chart_check import verdict_counts

        out.append(f"Played again under {check.attrs.get('play', '?')} (every seat searching), "
                   f"the cells are {verdict_counts(check)}.")
    return out


def _band_words(band: str) -> str:
    """``"3-4"`` -> ``"4 high-card points or fewer"``; ``"19+"`` -> any number."""
    text = str(band)
    if text.endswith("+"):
        return "any number of high-card points"
    return f"{text.split('-')[-1]} high-card points or fewer"


def chart_glossary(check: pd.DataFrame | None) -> list[str]:
    """The terms of the bid chart report, in the order a reader meets them."""
    terms = ["bidding position", "declarer", "hooked", "HCP", "cell", "panel", "contract",
             "expected score", "points", "optimal bid", "separated", "95 % interval", "fit",
             "zero bid", "paired value of a zero", "over deal", "under deal", "play"]
    if check is not None:
        terms += ["check", "confirmed", "not contradicted", "contradicted", "screened",
                  "check could see"]
    return terms


def chart_meta(df: pd.DataFrame, rules: Rules) -> dict[str, str]:
    """The run's provenance lines (sample, model, rules) shared by the report and cheat sheet."""
    from ...core.version import __version__

    a = df.attrs
    dph = a.get("deals_per_hand")
    meta = {
        "hands": f"{a.get('hands', len(df)):,} screened from the natural distribution; "
                 f"{a.get('evaluated', len(df)):,} evaluated, at most "
                 f"{a.get('min_hands', '?')} per cell ({len(df):,} kept; "
                 f"{a.get('thrown_in', 0)} thrown in every time, {a.get('dropped', 0)} dropped)",
        "deals per hand": f"{dph:,}" if isinstance(dph, int) else "?",
        "seed": str(a.get("seed", "?")),
        "bidding / play": f"{a.get('bid', '?')} / {a.get('play', '?')} (every seat)",
        "sampling": "bid-consistent" if a.get("consistent") else "uniform hidden hands",
        "rules": _rules_words(rules),
        "whist-sim": __version__,
    }
    if "wall_s" in a:
        meta["run time"] = f"{a['wall_s']:.0f} s on {a.get('executor', '?')}"
    return meta


def write_chart_report(df: pd.DataFrame, out: str | Path, command: str | None = None,
                       rules: Rules | None = None, parquet: bool = False, dpi: int = 100,
                       extra_meta: dict[str, str] | None = None,
                       check: pd.DataFrame | None = None) -> list[Path]:
    """Write ``report.md``, ``cells.csv`` (one row per cell: optimal bid, paired difference to
    the second-best and its 95 % interval, zero-bid value), heat maps (``charts/*.png``) and the
    cheat sheet (``cheat_sheet_<P>p.png`` / ``.pdf``, A4) of a chart into ``out``; with
    ``parquet`` also the per-hand rows (``hands.parquet``). ``check``: the chart checked against
    search (:func:`whist_sim.analyses.advisor.chart_check.check_chart`): moved cells marked in the
    Markdown grids, the optimal-bid chart and the cheat sheet, zero cells with their made rates
    against both fields, a section "Checked against search", ``check.csv`` and the check's
    columns in ``cells.csv``. Returns the files written."""
    from ..reports.charts import figure_png
    from ..reports.render import markdown_rows, markdown_table
    from .chart_plots import cheat_sheet, figure_pdf, optimal_bid_figure, zero_value_figure

    rules = Rules.from_dict(df.attrs["rules"]) if rules is None and "rules" in df.attrs else (
        rules or Rules())
    p = rules.players
    out = Path(out)
    (out / "charts").mkdir(parents=True, exist_ok=True)
    tables = chart_tables(df, p)
    grids = None
    if check is not None:
        from .chart_check import check_grids

        grids = {pos: check_grids(check, tables[f"best_bid_pos{pos}"], pos) for pos in range(p)}
    moved = None if grids is None else {pos: g[0] for pos, g in grids.items()}
    written: list[Path] = []
    charts = {
        "optimal_bid": optimal_bid_figure(tables, p, rules.n_tricks, moved),
        "expected_tricks": _heatmaps(tables, "expected_tricks", p,
                                     "Tricks a hand expects to take at its best bid, by "
                                     "high-card points and trump length", ".1f",
                                     "viridis", range(p), 0, rules.n_tricks,
                                     "mean expected tricks"),
        "zero_bid": zero_value_figure(tables, p),
        "over_under": _over_under_chart(tables, p),
    }
    for name, fig in charts.items():
        path = out / "charts" / f"{name}.png"
        path.write_bytes(figure_png(fig, dpi))
        written.append(path)
    a = df.attrs
    meta = chart_meta(df, rules)
    if command:
        meta["command"] = f"`{command}`"
    meta.update(extra_meta or {})
    footer = [
        f"Model: every seat bids by {a.get('bid', '?')} (auction, earlier and later contracts) "
        f"and plays by {a.get('play', '?')}; the hidden hands are re-sampled "
        f"{'consistently with the earlier bids' if a.get('consistent') else 'uniformly'}.",
        f"Sample: {a.get('evaluated', len(df)):,} hands (up to {a.get('min_hands', '?')} per "
        f"cell) x {a.get('deals_per_hand', '?')} deals, seed {a.get('seed', '?')}; "
        f"{_rules_words(rules)}; whist-sim {meta['whist-sim']}.",
    ]
    if check is not None:
        from .chart_check import verdict_counts

        ca = check.attrs
        footer.append(
            f"Checked against {ca.get('play', '?')}: {verdict_counts(check)}; "
            f"{int(check['moved'].sum())} cells move (red frame; thick: contradicted).")
    sheet = cheat_sheet(tables, p, rules.n_tricks, footer,
                        f"Israeli Whist, {p} players: what to bid", moved)
    for ext, data in (("png", lambda f: figure_png(f, 150)), ("pdf", figure_pdf)):
        path = out / f"cheat_sheet_{p}p.{ext}"
        path.write_bytes(data(sheet))
        written.append(path)
    cells = tables["cells"]
    if check is not None:
        keys = ["position", "panel", "hcp_band", "trump_class", "may", "may_not"]
        extra = check[keys + ["check_bid", "verdict", "detectable", "screened", "holds", "moved",
                              "zero_answer", "zero_check"]].rename(
            columns={"verdict": "check_verdict", "detectable": "check_could_see",
                     "screened": "check_screened", "holds": "check_holds",
                     "moved": "check_moved", "zero_answer": "zero_made",
                     "zero_check": "check_zero_made"})
        cells = cells.assign(hcp_band=cells["hcp_band"].astype(str),
                             trump_class=cells["trump_class"].astype(str)).merge(
            extra, on=keys, how="left")
        path = out / "check.csv"
        check.to_csv(path, index=False, float_format="%.6g")
        written.append(path)
    path = out / "cells.csv"
    cells.to_csv(path, index=False, float_format="%.6g")
    written.append(path)
    s = tables["summary"].reset_index()
    lines = [
        "# Bid charts: the expected-score-optimal contract by hand class",
        "",
        "## Summary",
        "",
        " ".join(chart_summary(df, tables, rules, check)),
        "",
        *(f"- **{k}**: {v}" for k, v in meta.items()),
        "",
        f"Printable: [cheat sheet (PDF, A4)](cheat_sheet_{p}p.pdf), "
        f"[PNG](cheat_sheet_{p}p.png). Every cell: [cells.csv](cells.csv).",
        "",
        "Method: hand `h` comes from a deal played up to the contracts by the bidding strategy",
        "(declarer, trump, level and the earlier contracts as they were bid); the player is the",
        "seat at bidding position `h % P`. The hands are stratified: many hands of the natural",
        "distribution are classed (position, HCP band, trump length; one auction each) and the",
        "first hands of every class are evaluated, so rare classes get as many hands as common",
        "ones; means over classes are weighted back by the classes' natural shares. An evaluated",
        "hand is fixed, the hidden hands are re-sampled for every deal, and every legal contract",
        "is played out on the same sampled deals (common random numbers; later bidders bid by",
        "the strategy, the last one hooked). The NT panel plays the same hands and deals at",
        "no-trump (declarer, level and earlier contracts kept), whatever the strategy bid. A",
        "cell's optimal bid has the highest mean score over its hands; it is marked unsure",
        "(hatched; `?` below) when the paired 95 % interval of best minus second-best contains",
        f"zero. HCP: A=4 K=3 Q=2 J=1. Cells with fewer than {MIN_CELL} hands are blank.",
        "",
    ]
    if a.get("coverage"):
        lines += ["## Cells not filled", "",
                  "This run was too small to give every cell of probability at least "
                  f"{MIN_PROB:g} its hands:", "", *(f"- {n}" for n in a["coverage"]), ""]
    lines += [
        "## Summary by position",
        "",
        "Weighted to the natural distribution of hands (suit contracts).",
        "",
        markdown_rows(
            ["position", "deal goes", "hands", "mean optimal bid", "mean expected tricks",
             "mean best score", "zero beats all"],
            ([_pos(int(r["position"]), p), "over" if r["over"] else "under",
              f"{int(r['hands']):,}", f"{r['optimal_bid']:.2f}", f"{r['expected_tricks']:.2f}",
              f"{r['best_ev']:.1f}",
              "" if math.isnan(r["zero_best_share"]) else f"{r['zero_best_share']:.1%}"]
             for _, r in s.iterrows())),
    ]
    lines += ["", "## Optimal bid", "", "![optimal bid](charts/optimal_bid.png)", ""]
    if check is not None:
        lines += _check_lines(check, p, a.get("play"))
    for pos in range(p):
        lines += [f"### {_pos(pos, p)}", "",
                  _md_best(tables[f"best_bid_pos{pos}"], tables[f"separated_pos{pos}"],
                           None if grids is None else grids[pos]), ""]
    mono = tables["monotonicity"]
    tot, inv = int(mono["pairs"].sum()), int(mono["inversions"].sum())
    tot_s, inv_s = int(mono["pairs_separated"].sum()), int(mono["inversions_separated"].sum())
    lines += ["## Monotonicity", "",
              "Neighbour cells where one hand is stronger (the next HCP band, or one trump more):",
              f"the stronger is advised to bid fewer tricks in {inv} of {tot} pairs"
              + (f" ({inv / tot:.1%})" if tot else "")
              + f"; among pairs where both cells are separated, {inv_s} of {tot_s}.", "",
              markdown_rows(
                  ["position", "panel", "pairs", "stronger bids fewer", "both separated",
                   "of which stronger bids fewer"],
                  ([_pos(r.position, p), r.panel, r.pairs, r.inversions,
                    r.pairs_separated, r.inversions_separated] for r in mono.itertuples()))]
    zb = tables["zero_by_band"].rename(columns={"ci_low": "zero_diff_ci_low",
                                                "ci_high": "zero_diff_ci_high"})
    zb = zb.set_index(["position", "hcp_band"])[["hands", "zero_diff", "zero_diff_ci_low",
                                                 "zero_diff_ci_high", "zero_best_share"]]
    lines += ["", "## Expected tricks at the optimal bid", "",
              "![expected tricks](charts/expected_tricks.png)", "",
              "## Zero bids", "",
              "Zero against the best non-zero contract *on the same hands and the same sampled",
              "deals* (paired): per hand that may bid zero, zero's mean score minus the best",
              "other contract's, in points per deal; by position and HCP band the classes are",
              "pooled with their natural weights. Positive: bid zero. `zero best share`: hands",
              "for which zero beats every other contract.", "",
              markdown_table(zb, p), "", "![zero bid](charts/zero_bid.png)", ""]
    lines += ["## Under vs. over", "", "![the best bid by high-card points, in deals heading "
              "under and over](charts/over_under.png)", ""]
    lines += _fit_lines(tables["cells"], p)
    from ..reports.wording import glossary_markdown

    lines += [glossary_markdown(chart_glossary(check), CHART_TERMS), ""]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    written.insert(0, path)
    if parquet:
        from ...runs.dataset import TEMP_PREFIX

        pq = out / "hands.parquet"
        # a temporary file of an atomic write, by its common name (a resumed chart removes it)
        tmp = out / f"{TEMP_PREFIX}hands.parquet.{os.getpid()}"
        frame = df.copy()
        frame.attrs = {}
        frame.to_parquet(tmp, index=False)
        tmp.replace(pq)
        written.append(pq)
    return written


def _fit_lines(cells: pd.DataFrame, players: int) -> list[str]:
    """The report's section on how well a cell's bid fits its hands, and the split cells."""
    from ..reports.render import markdown_rows
    from ..reports.wording import share_text

    shown = cells[cells["hands"] >= MIN_CELL]
    if not len(shown):
        return []
    lines = [
        "## How well a cell's bid fits its hands", "",
        "A cell's *fit*: the share of its hands whose own best bid (the highest expected score "
        "of the hand's own evaluation, on the chart's sampled deals) is the cell's bid. A hand's "
        "own best is itself an estimate: where two bids are close, sampling alone moves it. "
        "Classes whose best bid some of their hands may not bid are split by the auction (the "
        "declarer's by the auction's level, the hooked bidder's by the forbidden number) until "
        "every cell's bid is legal for every hand it covers.", "",
        markdown_rows(
            ["position", "cells", "mean fit", "split classes", "cells of split classes"],
            ([_pos(int(pos), players), str(len(g)), share_text(g["fit"].mean()),
              str(int((g.groupby(["hcp_band", "trump_class"], observed=True).size() > 1)
                      .sum())),
              str(int((g["auction"] != "").sum()))]
             for pos, g in shown.groupby("position"))),
        "",
    ]
    part = shown[shown["auction"] != ""]
    if len(part):
        lines += ["The split cells:", "", markdown_rows(
            ["position", "HCP", "trumps", "auction", "hands", "bid", "fit"],
            ([_pos(int(r.position), players), str(r.hcp_band), str(r.trump_class), r.auction,
              f"{int(r.hands):,}", str(int(r.best_bid)), share_text(r.fit)]
             for r in part.itertuples())), ""]
    return lines


def _check_lines(check: pd.DataFrame, players: int, answer_play: str | None = None
                 ) -> list[str]:
    """The report's section "Checked against search" (before the grids that mark it): what
    the check played, its verdicts, the cells it screened and why, and every checked cell."""
    from ..answer_check import CONFIRMED, CONTRADICTED, TARGET_DIFFERENCE, check_label
    from ..reports.render import markdown_rows
    from .chart_check import COST_CAP, SCREENED, verdict_counts

    a = check.attrs
    play = str(a.get("play", "?"))
    label = check_label(play, answer_play) if answer_play else f"another play, {play}"
    checked = check[check["verdict"] != SCREENED]
    screened = check[check["verdict"] == SCREENED]
    seen = checked["detectable"].dropna()
    lines = [
        "## Checked against search", "",
        f"Checked against {label}. A check under a searching play costs several hundred times "
        f"the chart's play, so it is spent where it can change the advice: on the cells whose "
        f"top two bids are close (the chart's paired 95 % interval of best minus runner-up "
        f"holds 0 or reaches below {TARGET_DIFFERENCE:g} points per deal), at most {COST_CAP} "
        f"times the chart's own work ({a.get('samples', 0):,} paired deals in all). Each "
        f"checked cell plays its first hands again, up to {a.get('hands', '?')} hands on "
        f"{a.get('deals_per_hand', '?')} fresh sampled deals each, with every seat playing "
        f"`{play}`, the cell's two best bids only. The verdicts: {verdict_counts(check)}.",
        "",
        f"*Confirmed*: the check finds the chart's bid and clearly ahead of its runner-up. "
        f"*Not contradicted*: the check cannot tell the two apart; it would have seen a "
        f"difference of {_seen_range(seen)} points per deal (80 % power). *Contradicted*: the "
        f"check clearly prefers the runner-up (bold in the grids below). *Screened*: not "
        f"played (the reason is in check.csv). A moved cell reads `5→6` in the grids; a zero "
        f"cell shows its made rate against the chart's players / against searching players: "
        f"`0 (92%/61%)`.",
        "",
    ]
    if len(screened):
        why = screened["screened"].map(lambda t: "the chart separates its top two"
                                       if t.startswith("the chart separates") else
                                       ("the check's budget" if "budget" in t else t))
        counts = why.value_counts()
        lines += ["Screened: " + "; ".join(f"{int(n)} cells: {w}" for w, n in counts.items())
                  + ".", ""]
    shown = checked[checked["moved"] | checked["verdict"].isin([CONFIRMED, CONTRADICTED])]
    if len(shown):
        lines += ["Cells the check moves, confirms or contradicts:", "", markdown_rows(
            ["position", "HCP", "trumps", "auction", "chart", "check", "check: diff",
             "95% CI", "verdict"],
            ([_pos(int(r.position), players), r.hcp_band, r.trump_class,
              r.auction or "any", str(r.answer_bid), str(r.check_bid), f"{r.diff:+.1f}",
              "-" if math.isnan(r.diff_ci_low) else
              f"{r.diff_ci_low:+.1f} to {r.diff_ci_high:+.1f}",
              f"**{r.verdict}**" if r.verdict == CONTRADICTED else r.verdict]
             for r in shown.itertuples())), ""]
    return lines


def _seen_range(seen: pd.Series) -> str:
    if not len(seen):
        return "-"
    lo, hi = float(seen.min()), float(seen.max())
    return f"{lo:.0f}" if round(lo) == round(hi) else f"{lo:.0f} to {hi:.0f}"


def paired_zero_value(rules: Rules | None = None, bid: str = "heuristic",
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
