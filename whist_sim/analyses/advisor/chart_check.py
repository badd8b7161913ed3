"""A bid chart checked against search: the close cells' top two bids recomputed under a searching
play on a subsample of the cell's hands, the other cells screened, and a verdict per cell.

**Which cells are checked** (:func:`plan_check`): a cell (:func:`~whist_sim.analyses.advisor.
chart_cells.cell_groups`) with at least :data:`~whist_sim.analyses.advisor.chart_strata.MIN_CELL`
hands whose top two bids are *close*: the chart's paired 95 % interval of best minus runner-up
holds 0 or reaches below :data:`~whist_sim.analyses.answer_check.TARGET_DIFFERENCE` (2 points
per deal, the difference a check aims to see). The others are **screened**, each with its reason:
the chart separates its top two by more than that, it has one legal bid, or the check's budget
is spent.

**The budget**: a check may cost at most :data:`COST_CAP` times the chart. The chart's cost is
its contract-deals (every legal contract of every hand on every sampled deal, under the chart's
compiled play); a contract-deal under the search costs about :data:`SEARCH_COST` of them. The
budget is split evenly over the close cells (at least :data:`MIN_SAMPLES` paired deals each; the
least likely close cells are screened when the budget cannot give every one that many), and each
checked cell plays its first hands, on as few sampled deals per hand as its share allows
(``--check-deals`` fixes them), its two best bids only. Everything depends on the chart and the
options: the sizes come from counts, never from the clock.

:func:`compare_cells` (pure: the comparison logic) turns the searched scores into one row per
cell: the chart's best bid and runner-up, the check's best, their paired differences under the
check play with 95 % intervals, the verdict
(:func:`whist_sim.analyses.answer_check.bid_verdict`: confirmed, not contradicted with the
difference the check could have seen, or contradicted), ``holds``
(:func:`~whist_sim.analyses.answer_check.bid_holds`), ``moved`` (the check's best bid differs)
and, when zero is one of the two, the zero's made rate against the chart's field and against
searching opponents. Scores are points (RULES §6).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from ...core.rng import mix64
from ...core.rules import Rules
from ..answer_check import TARGET_DIFFERENCE, bid_holds, bid_verdict
from .chart_strata import MIN_CELL, hand_classes

__all__ = ["CHECK_COLUMNS", "CHECK_KEEP", "COST_CAP", "MIN_SAMPLES", "SCREENED", "SEARCH_COST",
           "CellPlan", "chart_units", "check_chart", "check_grids", "check_workload",
           "compare_cells", "plan_check", "verdict_counts"]

#: bids of a cell that the check searches: the chart's best and its runner-up
CHECK_KEEP = 2
#: the chart's contract-deals (its compiled play) that cost as much as one contract-deal of the
#: search, every seat searching, with the search's start per checked hand: 1,500 gave a check
#: 1.7 to 2.1 times its chart for ``rollout:n=16:base=learned`` against ``learned`` on a busy
#: machine, 2,000 gave 1.9 times (``whist-sim bench --only check_cost`` measures the two runs
#: at the README's sizes); rounded up, so that a check stays within its cap
SEARCH_COST = 2_500
#: the most a chart's check may cost, in multiples of the chart's own time
COST_CAP = 2
#: the fewest paired deals a checked cell plays
MIN_SAMPLES = 20
#: the fewest sampled deals a checked hand plays (the search's start per hand is worth about
#: half a deal)
MIN_DEALS = 4
#: the verdict of a cell the check did not play (its ``screened`` column says why)
SCREENED = "screened"
#: the columns of :func:`compare_cells`
CHECK_COLUMNS = ("position", "panel", "hcp_band", "trump_class", "may", "may_not", "auction",
                 "main", "hands", "checked_hands", "deals_per_hand", "samples", "answer_bid",
                 "runner_up", "check_bid", "check_ev_answer_bid", "check_ev", "diff",
                 "diff_ci_low", "diff_ci_high", "order_diff", "order_ci_low", "order_ci_high",
                 "verdict", "verdict_why", "detectable", "holds", "moved", "screened",
                 "zero_answer", "zero_check", "zero_samples")
_KEY = ("position", "panel", "hcp_band", "trump_class", "may", "may_not", "auction")


def chart_units(df: pd.DataFrame) -> int:
    """The chart's work in contract-deals: per evaluated hand, its sampled deals times its
    legal contracts."""
    ev = df[[c for c in df.columns if c.startswith("ev_")]].to_numpy(float)
    return int((df["deals"].to_numpy(float) * (~np.isnan(ev)).sum(axis=1)).sum())


@dataclass(frozen=True)
class CellPlan:
    """One cell of a checked chart: ``key`` (the cell's :data:`~whist_sim.analyses.advisor.
    chart_cells.CELL_KEYS` and ``auction``), ``rows`` (its hands in the classed frame), the
    chart's ``answer`` and ``runner_up`` (-1: none), the zero's made rate over its hands, and
    either the check's size (``hands`` x ``deals``) or why it was ``screened``."""

    key: dict[str, Any]
    rows: np.ndarray
    answer: int
    runner_up: int
    zero_answer: float
    hands: int = 0
    deals: int = 0
    screened: str = ""


def _screen_text(lo: float, hi: float) -> str:
    return (f"the chart separates its top two by {lo:.1f} to {hi:.1f} points per deal, more than "
            f"the {TARGET_DIFFERENCE:g} points a check aims to see")


def plan_check(df: pd.DataFrame, deals_per_hand: int | None = None, hands: int | None = None,
               min_n: int | None = None, budget: int | None = None) -> list[CellPlan]:
    """The check of the chart ``df``, cell by cell (see the module doc): every cell with at
    least ``min_n`` hands (default :data:`~whist_sim.analyses.advisor.chart_strata.MIN_CELL`),
    checked or screened. ``budget``: paired deals for all the checked cells (default
    ``COST_CAP * chart_units(df) / (SEARCH_COST * CHECK_KEEP)``); ``deals_per_hand``: sampled
    deals per checked hand (default: as few as spread a cell's share over its hands, at least
    :data:`MIN_DEALS`); ``hands``: at most this many hands per cell."""
    from .chart_cells import cell_groups, cell_stats

    rules = Rules.from_dict(df.attrs["rules"]) if "rules" in df.attrs else Rules()
    n_tricks, players = rules.n_tricks, rules.players
    min_n = MIN_CELL if min_n is None else int(min_n)
    c = hand_classes(df)
    groups = {_group_key(k): idx for k, idx in cell_groups(c, n_tricks)}
    stats = cell_stats(c, n_tricks, players)
    budget = (math.floor(COST_CAP * chart_units(df) / (SEARCH_COST * CHECK_KEEP))
              if budget is None else int(budget))
    zero_all = c["p_make_0"].to_numpy(float)
    plans: list[CellPlan] = []
    close: list[int] = []
    prob: dict[int, float] = {}
    for r in stats.itertuples(index=False):
        if r.hands < min_n:
            continue
        key = {k: getattr(r, k) for k in _KEY}
        key["position"], key["hcp_band"], key["trump_class"] = (
            int(r.position), str(r.hcp_band), str(r.trump_class))
        key["main"] = bool(r.main)
        prob[len(plans)] = 0.0 if math.isnan(r.prob) else float(r.prob)
        rows = groups[_group_key(key)]
        z = zero_all[rows]
        plan = CellPlan(key, rows, int(r.best_bid), int(r.second_bid),
                        float(np.nanmean(z)) if (~np.isnan(z)).any() else math.nan)
        if r.second_bid < 0:
            plan = replace(plan, screened="one legal bid: nothing to tell apart")
        elif not (math.isnan(r.diff_ci_low) or r.diff_ci_low < TARGET_DIFFERENCE):
            plan = replace(plan, screened=_screen_text(r.diff_ci_low, r.diff_ci_high))
        else:
            close.append(len(plans))
        plans.append(plan)
    # the most likely close cells first, when the budget cannot give every one its minimum
    order = sorted(close, key=lambda i: (-prob[i], i))
    afford = min(len(order), budget // MIN_SAMPLES)
    share = budget // afford if afford else 0
    for rank, i in enumerate(order):
        p = plans[i]
        if rank >= afford:
            plans[i] = replace(p, screened=f"beyond the check's budget ({COST_CAP} x the chart's "
                               "own work; the less likely close cells go first)")
            continue
        n_hands = len(p.rows) if hands is None else min(len(p.rows), int(hands))
        d = (int(deals_per_hand) if deals_per_hand is not None else
             min(int(df.attrs.get("deals_per_hand", 200)),
                 max(MIN_DEALS, math.ceil(share / max(n_hands, 1)))))
        h = max(1, min(n_hands, share // d))
        plans[i] = replace(p, hands=h, deals=d)
    return plans


def _group_key(key: dict[str, Any]) -> tuple[Any, ...]:
    def bids(v: Any) -> str:
        return " ".join(str(b) for b in sorted(v)) if isinstance(v, frozenset) else str(v)

    return (int(key["position"]), str(key["hcp_band"]), str(key["trump_class"]),
            bids(key["may"]), bids(key["may_not"]))


def check_workload(df: pd.DataFrame, deals_per_hand: int | None = None,
                   hands: int | None = None, min_n: int | None = None) -> int:
    """Hands :func:`check_chart` plays for the chart ``df`` (the progress bar's total)."""
    return sum(p.hands for p in plan_check(df, deals_per_hand, hands, min_n))


def _paired(a: list[np.ndarray | None], b: list[np.ndarray | None],
            confidence: float) -> tuple[float, float, float, int]:
    """Mean of ``a - b`` over the samples where both are played, its interval, the samples."""
    from ...core.stats import mean_interval

    d = [x.astype(float) - y.astype(float) for x, y in zip(a, b, strict=True)
         if x is not None and y is not None]
    if not d:
        return math.nan, math.nan, math.nan, 0
    dd = np.concatenate(d)
    if len(dd) < 2:
        return float(dd.mean()), math.nan, math.nan, len(dd)
    _m, _sd, lo, hi = mean_interval(dd, confidence)
    return float(dd.mean()), float(lo), float(hi), len(dd)


def compare_cells(cells: Sequence[dict[str, Any]], confidence: float = 0.95) -> pd.DataFrame:
    """One row per cell (:data:`CHECK_COLUMNS`) from the searched scores.

    Each entry of ``cells``: ``key`` (``position``, ``panel``, ``hcp_band``, ``trump_class``;
    optionally ``may``, ``may_not``, ``auction``), ``hands`` (the cell's), ``answer_bid`` (the
    chart's best bid), ``runner_up`` (the chart's second, optional), ``scores`` (bid -> list of
    score arrays, one per checked hand, ``None`` where the bid is illegal for that hand; points
    under the check play), ``zero_made`` (per checked hand the zero's made flags under the
    check, or ``None``), ``zero_answer`` (the chart's made rate of zero over the cell's hands,
    or NaN), optionally ``deals_per_hand`` and ``screened`` (why the cell was not played: then
    no scores and the verdict :data:`SCREENED`). The check's best bid has the highest mean score
    over the samples where it is legal (ties: the lower); the differences (its best minus the
    chart's bid; the chart's bid minus its runner-up) are paired over the samples where both
    are legal.
    """
    rows = []
    for cell in cells:
        key = {"may": "", "may_not": "", "auction": "", **cell["key"]}
        key = {k: (" ".join(str(b) for b in sorted(v)) if isinstance(v, frozenset) else v)
               for k, v in key.items()}
        a = int(cell["answer_bid"])
        r_up = cell.get("runner_up")
        r_up = None if r_up is None or int(r_up) < 0 else int(r_up)
        base = {**{k: key[k] for k in _KEY}, "main": bool(key.get("main", True)),
                "hands": int(cell["hands"]), "answer_bid": a,
                "runner_up": -1 if r_up is None else r_up,
                "zero_answer": float(cell.get("zero_answer", math.nan))}
        if cell.get("screened"):
            rows.append({**base, "checked_hands": 0, "deals_per_hand": 0, "samples": 0,
                         "check_bid": -1, "check_ev_answer_bid": math.nan,
                         "check_ev": math.nan, "diff": math.nan, "diff_ci_low": math.nan,
                         "diff_ci_high": math.nan, "order_diff": math.nan,
                         "order_ci_low": math.nan, "order_ci_high": math.nan,
                         "verdict": SCREENED, "verdict_why": cell["screened"],
                         "detectable": math.nan, "holds": True, "moved": False,
                         "screened": cell["screened"], "zero_check": math.nan,
                         "zero_samples": 0})
            continue
        scores = cell["scores"]
        means = {}
        for b, per_hand in scores.items():
            xs = [x for x in per_hand if x is not None]
            if xs:
                means[b] = float(np.concatenate(xs).mean())
        best = min(means, key=lambda b: (-means[b], b)) if means else a
        diff, lo, hi, samples = 0.0, math.nan, math.nan, 0
        if best != a and a in scores:
            diff, lo, hi, samples = _paired(scores[best], scores[a], confidence)
        elif a in scores:
            samples = sum(len(x) for x in scores[a] if x is not None)
        o_diff = o_lo = o_hi = math.nan
        if r_up is not None and a in scores and r_up in scores:
            o_diff, o_lo, o_hi, _n = _paired(scores[a], scores[r_up], confidence)
        prefer = None if math.isnan(lo) else (lo, hi)
        order = None if math.isnan(o_lo) else (o_lo, o_hi)
        v = bid_verdict(str(a), None if r_up is None else str(r_up), str(best), prefer, order,
                        confidence)
        zm = [z for z in (cell.get("zero_made") or []) if z is not None]
        per_hand = [x for x in scores.get(a, []) if x is not None]
        rows.append({
            **base, "checked_hands": len(scores.get(a, [])),
            "deals_per_hand": int(cell.get("deals_per_hand",
                                           max((len(x) for x in per_hand), default=0))),
            "samples": samples, "check_bid": int(best),
            "check_ev_answer_bid": means.get(a, math.nan), "check_ev": means.get(best, math.nan),
            "diff": diff, "diff_ci_low": lo, "diff_ci_high": hi, "order_diff": o_diff,
            "order_ci_low": o_lo, "order_ci_high": o_hi, "verdict": v.word,
            "verdict_why": v.why, "detectable": math.nan if v.detectable is None else v.detectable,
            "holds": bid_holds(a, best, prefer), "moved": best != a, "screened": "",
            "zero_check": float(np.concatenate(zm).mean()) if zm else math.nan,
            "zero_samples": int(sum(len(z) for z in zm)),
        })
    return pd.DataFrame(rows, columns=list(CHECK_COLUMNS))


def check_chart(df: pd.DataFrame, play: str, rules: Rules | None = None,
                hands: int | None = None, deals_per_hand: int | None = None,
                min_n: int | None = None, confidence: float = 0.95,
                on_hand: Callable[[int], None] | None = None,
                budget: int | None = None, threads: int | None = None) -> pd.DataFrame:
    """Check the chart ``df`` against the play ``play`` (a play policy spec):
    :func:`compare_cells` of every cell of :func:`plan_check` (``deals_per_hand``, ``hands``,
    ``min_n``, ``budget`` as there). A checked hand is dealt as the chart dealt it (uniformly, or
    bid-consistently with ``consistent``), from the stream of the chart's seed and the hand; its
    two bids are played on the same sampled deals; the hands run on ``threads`` local threads
    (default: every CPU; the result does not depend on it). ``on_hand(1)`` is told after every
    checked hand (progress). ``df.attrs`` of the result: ``play``, ``hands`` (the most hands a cell
    checked), ``deals_per_hand`` (the most deals a hand played), ``samples``, ``budget``,
    ``cells_close``, ``cells_screened``, ``players``."""
    from .sampling import run_scenario
    from .scenario import resolve_scenario

    a = df.attrs
    rules = Rules.from_dict(a["rules"]) if rules is None and "rules" in a else (rules or Rules())
    seed = int(a.get("seed", 0))
    bid = str(a.get("bid", "heuristic"))
    consistent = bool(a.get("consistent", False))
    df = df.copy()
    df.attrs = {**a, "rules": rules.to_dict()}
    plans = plan_check(df, deals_per_hand, hands, min_n, budget)
    df.attrs = {}  # a row of the frame would copy them
    c = hand_classes(df)
    cols = {k: c[k].to_numpy() for k in ("hand", "trump", "declarer", "level", "seat",
                                         "position", "hand_index")}
    earlier_cols = [c[f"earlier_{q}"].to_numpy() for q in range(rules.players)]
    jobs: list[tuple[int, Any, tuple[int, ...], int, int]] = []  # cell, scenario, bids, seed, d
    for k, plan in enumerate(plans):
        if plan.screened:
            continue
        searched = sorted({plan.answer, plan.runner_up})
        for i in plan.rows[:plan.hands]:
            pos = int(cols["position"][i])
            earlier = tuple(int(earlier_cols[q][i]) for q in range(pos))
            scen = resolve_scenario(int(cols["hand"][i]), int(cols["trump"][i]),
                                    int(cols["declarer"][i]), int(cols["level"][i]),
                                    int(cols["seat"][i]), earlier, rules)
            legal = {b for t, b in scen.candidates}
            mine = tuple(b for b in searched if b in legal)
            sub = replace(scen, candidates=tuple((int(cols["trump"][i]), b) for b in mine))
            stream = int(mix64(int(mix64(seed)) ^ (int(cols["hand_index"][i]) * 2 + 1)))
            jobs.append((k, sub, mine, stream, plan.deals))

    def play_hand(job: tuple[int, Any, tuple[int, ...], int, int]) -> Any:
        _k, sub, mine, stream, d = job
        run = run_scenario(sub, d, stream, play, bid, consistent, 1) if mine else None
        if on_hand is not None:
            on_hand(1)
        return run

    from concurrent.futures import ThreadPoolExecutor

    from ...runs.executors import default_threads

    with ThreadPoolExecutor(max(1, threads or default_threads()),
                            thread_name_prefix="whist-chart-check") as pool:
        runs = list(pool.map(play_hand, jobs))
    played: dict[int, list[tuple[tuple[int, ...], Any]]] = {}
    for (k, _sub, mine, _stream, _d), run in zip(jobs, runs, strict=True):
        played.setdefault(k, []).append((mine, run))
    cells = []
    for k, plan in enumerate(plans):
        entry: dict[str, Any] = {"key": plan.key, "hands": len(plan.rows),
                                 "answer_bid": plan.answer, "runner_up": plan.runner_up,
                                 "zero_answer": plan.zero_answer}
        if plan.screened:
            cells.append({**entry, "screened": plan.screened})
            continue
        searched = sorted({plan.answer, plan.runner_up})
        scores: dict[int, list[np.ndarray | None]] = {b: [] for b in searched}
        zero_made: list[np.ndarray | None] = []
        for mine, run in played.get(k, []):
            got = {b: j for j, b in enumerate(mine)}
            for b in searched:
                scores[b].append(run.score[got[b]].astype(np.int64) if b in got else None)
            zero_made.append((run.tricks[got[0]] == 0) if 0 in got else None)
        cells.append({**entry, "scores": scores, "deals_per_hand": plan.deals,
                      "zero_made": zero_made if 0 in searched else None})
    out = compare_cells(cells, confidence)
    checked = [p for p in plans if not p.screened]
    out.attrs = {"play": play, "hands": max((p.hands for p in checked), default=0),
                 "deals_per_hand": max((p.deals for p in checked), default=0),
                 "samples": int(out["samples"].sum()) if len(out) else 0,
                 "budget": (math.floor(COST_CAP * chart_units(df) / (SEARCH_COST * CHECK_KEEP))
                            if budget is None else int(budget)),
                 "cells_close": len(checked) + sum("budget" in p.screened for p in plans),
                 "cells_screened": sum(bool(p.screened) for p in plans),
                 "players": rules.players}
    return out


def check_grids(check: pd.DataFrame, best: pd.DataFrame, position: int
                ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Grids like ``best`` (HCP band x trump class, the classes' main cells) of one position:
    ``moved`` (0: the check agrees, or the cell was not checked; 1: the check's best bid differs
    within its noise; 2: the check contradicts the chart's bid), the check's best bid, and the
    zero made rates ``"answer/check"`` (text, empty where zero was not searched)."""
    from ..answer_check import CONTRADICTED

    moved = pd.DataFrame(0.0, index=best.index, columns=best.columns)
    bids = pd.DataFrame(np.nan, index=best.index, columns=best.columns)
    zero = pd.DataFrame("", index=best.index, columns=best.columns)
    part = check[check["position"] == position]
    if "main" in part:
        part = part[part["main"].astype(bool)]
    bands = [str(x) for x in best.index]
    classes = [str(x) for x in best.columns]
    for r in part.itertuples():
        if r.hcp_band not in bands or r.trump_class not in classes:
            continue
        i, j = bands.index(r.hcp_band), classes.index(r.trump_class)
        against = getattr(r, "verdict", None) == CONTRADICTED or not r.holds
        moved.iloc[i, j] = 0 if not r.moved else (2 if against else 1)
        if r.check_bid >= 0:
            bids.iloc[i, j] = r.check_bid
        if not math.isnan(r.zero_check) and not math.isnan(r.zero_answer):
            zero.iloc[i, j] = f"{r.zero_answer:.0%}/{r.zero_check:.0%}"
    return moved, bids, zero


def verdict_counts(check: pd.DataFrame) -> str:
    """The verdicts of a checked chart in words: "3 confirmed, 140 not contradicted, 2
    contradicted and 96 screened of 241 cells"."""
    from ..answer_check import CONFIRMED, CONTRADICTED, NOT_CONTRADICTED

    n = check["verdict"].value_counts()
    parts = [f"{int(n.get(w, 0))} {w}" for w in (CONFIRMED, NOT_CONTRADICTED, CONTRADICTED)]
    return f"{', '.join(parts)} and {int(n.get(SCREENED, 0))} {SCREENED} of {len(check)} cells"
