"""A bid chart checked against search: every cell's best bid recomputed under a searching play
on a subsample of the cell's hands, and the zero bid's made rate against both fields.

:func:`check_chart` takes a chart frame (:func:`whist_sim.analyses.advisor.bidchart.bid_chart`), and
for every cell (position x HCP band x trump class, both panels) with at least
:data:`~whist_sim.analyses.advisor.chart_strata.MIN_CELL` hands plays its first :func:`check_hands`
hands again under the check play (``rollout:n=16`` by default;
:mod:`whist_sim.analyses.answer_check`), each on :func:`check_deals_per_hand` fresh sampled deals,
with the screening of ``advise --play rollout``: only the cell's three best bids by the chart's own
expected scores and the zero bid (when legal) are searched. :func:`compare_cells` (pure: the
comparison logic) turns the searched scores into one row per cell: the chart's best bid, the
check's, their paired difference under the check play with its 95 % interval, ``holds``
(:func:`whist_sim.analyses.answer_check.bid_holds`), ``moved``
(the check's best bid differs) and the zero's made rate against the chart's field and against
searching opponents. Scores are points (RULES §6).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ...core.rng import mix64
from ...core.rules import Rules
from ..answer_check import bid_holds
from .chart_strata import MIN_CELL, hand_classes

__all__ = ["CHECK_COLUMNS", "CHECK_KEEP", "check_chart", "check_deals_per_hand", "check_grids",
           "check_hands", "check_workload", "compare_cells"]

#: bids of a cell that the check searches (the chart's best by the cell's mean expected score)
CHECK_KEEP = 3
#: the columns of :func:`compare_cells`
CHECK_COLUMNS = ("position", "panel", "hcp_band", "trump_class", "hands", "samples",
                 "answer_bid", "check_bid", "check_ev_answer_bid", "check_ev", "diff",
                 "diff_ci_low", "diff_ci_high", "holds", "moved", "zero_answer", "zero_check",
                 "zero_samples")


def check_hands(min_hands: int) -> int:
    """Hands of a cell the check plays: ``ceil(min_hands / 20)``, at least 10 (the fewest a cell
    needs to be shown)."""
    return max(10, math.ceil(min_hands / 20))


def check_deals_per_hand(deals_per_hand: int) -> int:
    """Sampled deals per checked hand: ``ceil(deals_per_hand / 20)``, at least 10, at most
    ``deals_per_hand``."""
    return min(int(deals_per_hand), max(10, math.ceil(deals_per_hand / 20)))


def check_workload(df: pd.DataFrame, hands: int | None = None, min_n: int | None = None) -> int:
    """Hands :func:`check_chart` plays for the chart ``df`` (the progress bar's total)."""

    hands = check_hands(int(df.attrs.get("min_hands", 200))) if hands is None else int(hands)
    min_n = MIN_CELL if min_n is None else int(min_n)
    sizes = hand_classes(df).groupby(["position", "hcp_band", "trump_class"], observed=True).size()
    return int(sum(min(hands, int(n)) for n in sizes if n >= min_n))


def _cell_means(c: pd.DataFrame, rows: np.ndarray, n_tricks: int) -> np.ndarray:
    """The cell's mean expected score per bid over its hands (NaN where the bid is legal for
    fewer than half of them), as :func:`whist_sim.analyses.advisor.chart_cells.cell_stats` ranks
    them."""
    e = c[[f"ev_{b}" for b in range(n_tricks + 1)]].to_numpy(float)[rows]
    legal = ~np.isnan(e)
    with np.errstate(invalid="ignore"):
        return np.where(legal.sum(axis=0) * 2 >= len(rows),
                        np.nansum(e, axis=0) / np.maximum(legal.sum(axis=0), 1), np.nan)


def compare_cells(cells: Sequence[dict[str, Any]], confidence: float = 0.95) -> pd.DataFrame:
    """One row per cell (:data:`CHECK_COLUMNS`) from the searched scores.

    Each entry of ``cells``: ``key`` (``position``, ``panel``, ``hcp_band``, ``trump_class``),
    ``hands`` (checked), ``answer_bid`` (the chart's best bid), ``scores`` (bid -> list of score
    arrays, one per checked hand, ``None`` where the bid is illegal for that hand; points under
    the check play), ``zero_made`` (per checked hand the zero's made flags under the check, or
    ``None``) and ``zero_answer`` (the chart's made rate of zero over the cell's hands, or NaN).
    The check's best bid has the highest mean score over the samples where it is legal (ties: the
    lower); the difference (its score minus the chart's bid's) is paired over the samples where
    both are legal.
    """
    from ...core.stats import mean_interval

    rows = []
    for cell in cells:
        scores = cell["scores"]
        means = {}
        for b, per_hand in scores.items():
            xs = [x for x in per_hand if x is not None]
            if xs:
                means[b] = float(np.concatenate(xs).mean())
        a = int(cell["answer_bid"])
        best = min(means, key=lambda b: (-means[b], b)) if means else a
        diff, lo, hi, samples = 0.0, math.nan, math.nan, 0
        if best != a and a in scores:
            d = [x - y for x, y in zip(scores[best], scores[a], strict=True)
                 if x is not None and y is not None]
            if d:
                dd = np.concatenate(d).astype(float)
                samples = len(dd)
                diff = float(dd.mean())
                if samples > 1:
                    _m, _sd, lo, hi = mean_interval(dd, confidence)
        elif a in scores:
            samples = sum(len(x) for x in scores[a] if x is not None)
        ci = None if math.isnan(lo) else (float(lo), float(hi))
        zm = [z for z in (cell.get("zero_made") or []) if z is not None]
        zero_check = float(np.concatenate(zm).mean()) if zm else math.nan
        rows.append({
            **cell["key"], "hands": int(cell["hands"]), "samples": samples,
            "answer_bid": a, "check_bid": int(best),
            "check_ev_answer_bid": means.get(a, math.nan),
            "check_ev": means.get(best, math.nan),
            "diff": diff, "diff_ci_low": lo, "diff_ci_high": hi,
            "holds": bid_holds(a, best, ci), "moved": best != a,
            "zero_answer": float(cell.get("zero_answer", math.nan)),
            "zero_check": zero_check,
            "zero_samples": int(sum(len(z) for z in zm)),
        })
    return pd.DataFrame(rows, columns=list(CHECK_COLUMNS))


def check_chart(df: pd.DataFrame, play: str, rules: Rules | None = None,
                hands: int | None = None, deals_per_hand: int | None = None,
                min_n: int | None = None, confidence: float = 0.95,
                on_hand: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Check the chart ``df`` against the play ``play`` (a play policy spec): :func:`compare_cells`
    of every cell with at least ``min_n`` hands (default
    :data:`~whist_sim.analyses.advisor.chart_strata.MIN_CELL`), its first ``hands`` hands (default
    :func:`check_hands` of the chart's ``min_hands``) each on ``deals_per_hand`` sampled deals
    (default :func:`check_deals_per_hand`). The hidden hands are dealt as the chart dealt them
    (uniformly, or bid-consistently with ``consistent``), from the stream of the chart's seed and
    the hand. ``on_hand(1)`` is told after every checked hand (progress). ``df.attrs`` of the
    result: ``play``, ``hands``, ``deals_per_hand``, ``samples``."""
    from .sampling import run_scenario
    from .scenario import resolve_scenario

    a = df.attrs
    rules = Rules.from_dict(a["rules"]) if rules is None and "rules" in a else (rules or Rules())
    n_tricks, p = rules.n_tricks, rules.players
    hands = check_hands(int(a.get("min_hands", 200))) if hands is None else int(hands)
    dph = (check_deals_per_hand(int(a.get("deals_per_hand", 200))) if deals_per_hand is None
           else int(deals_per_hand))
    min_n = MIN_CELL if min_n is None else int(min_n)
    seed = int(a.get("seed", 0))
    bid = str(a.get("bid", "heuristic"))
    consistent = bool(a.get("consistent", False))
    c = hand_classes(df)
    cells = []
    keys = ["position", "hcp_band", "trump_class"]
    for (pos, band, tcls), idx in c.groupby(keys, observed=True).indices.items():
        if len(idx) < min_n:
            continue
        means = _cell_means(c, idx, n_tricks)
        if np.isnan(means).all():
            continue
        order = sorted((b for b in range(n_tricks + 1) if not math.isnan(means[b])),
                       key=lambda b: (-means[b], b))
        answer = order[0]
        searched = sorted(set(order[:CHECK_KEEP]) | ({0} if not math.isnan(means[0]) else set()))
        scores: dict[int, list[np.ndarray | None]] = {b: [] for b in searched}
        zero_made: list[np.ndarray | None] = []
        for i in idx[:hands]:
            r = c.iloc[i]
            earlier = tuple(int(r[f"earlier_{q}"]) for q in range(int(r["position"])))
            scen = resolve_scenario(int(r["hand"]), int(r["trump"]), int(r["declarer"]),
                                    int(r["level"]), int(r["seat"]), earlier, rules)
            legal = {b for t, b in scen.candidates}
            mine = [b for b in searched if b in legal]
            if not mine:
                for b in searched:
                    scores[b].append(None)
                zero_made.append(None)
                continue
            sub = replace(scen, candidates=tuple((int(r["trump"]), b) for b in mine))
            stream = int(mix64(int(mix64(seed)) ^ (int(r["hand_index"]) * 2 + 1)))
            run = run_scenario(sub, dph, stream, play, bid, consistent, 1)
            got = {b: k for k, b in enumerate(mine)}
            for b in searched:
                scores[b].append(run.score[got[b]].astype(np.int64) if b in got else None)
            zero_made.append((run.tricks[got[0]] == 0) if 0 in got else None)
            if on_hand is not None:
                on_hand(1)
        zero_rows = c["p_make_0"].to_numpy(float)[idx]
        zero_answer = float(np.nanmean(zero_rows)) if (~np.isnan(zero_rows)).any() else math.nan
        cells.append({
            "key": {"position": int(pos), "panel": "NT" if tcls == "NT" else "suit",
                    "hcp_band": str(band), "trump_class": str(tcls)},
            "hands": min(hands, len(idx)), "answer_bid": answer, "scores": scores,
            "zero_made": zero_made if 0 in searched else None, "zero_answer": zero_answer,
        })
    out = compare_cells(cells, confidence)
    out.attrs = {"play": play, "hands": hands, "deals_per_hand": dph,
                 "samples": int(out["samples"].sum()) if len(out) else 0,
                 "players": p}
    return out


def check_grids(check: pd.DataFrame, best: pd.DataFrame, position: int
                ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Grids like ``best`` (HCP band x trump class) of one position: ``moved`` (0: the check
    agrees or the cell was not checked, 1: the check's best bid differs within its noise, 2: it
    does not hold), the check's best bid, and the zero made rates ``"answer/check"`` (text, empty
    where zero was not searched)."""
    moved = pd.DataFrame(0.0, index=best.index, columns=best.columns)
    bids = pd.DataFrame(np.nan, index=best.index, columns=best.columns)
    zero = pd.DataFrame("", index=best.index, columns=best.columns)
    part = check[check["position"] == position]
    bands = [str(x) for x in best.index]
    classes = [str(x) for x in best.columns]
    for r in part.itertuples():
        if r.hcp_band not in bands or r.trump_class not in classes:
            continue
        i, j = bands.index(r.hcp_band), classes.index(r.trump_class)
        moved.iloc[i, j] = 0 if not r.moved else (1 if r.holds else 2)
        bids.iloc[i, j] = r.check_bid
        if not math.isnan(r.zero_check) and not math.isnan(r.zero_answer):
            zero.iloc[i, j] = f"{r.zero_answer:.0%}/{r.zero_check:.0%}"
    return moved, bids, zero
