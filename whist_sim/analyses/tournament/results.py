"""Tournament results: running totals, the summary, and the results as pandas DataFrames.

Conventions:

* The unit of every statistic is the duplicate **deal**: an entry's score in a deal is its points
  per seat, averaged over its seats and the deal's S seatings. :class:`Aggregate` takes chunks in
  deal order and keeps mergeable moments (:class:`whist_sim.core.stats.Moments`) per entry and per
  pair, plus sums over single plays (for the intervals the data would give without duplication)
  and the kernel's tallies. The statistics themselves (intervals, paired tests, the SPRT) are
  :mod:`whist_sim.core.stats`; this module only applies them.
* The **summary** (:func:`summarize`, completed by the runner) is a JSON-able dict: numbers
  rounded to 4 decimals, missing ones ``None``. Its keys are the ``--json`` output.
* The **frames** (:func:`ranking_frame`, :func:`pairs_frame`, :func:`sprt_frame`) are the
  summary's tables with raw numbers, one row per entry / pair; rates are fractions, intervals are
  ``*_ci_low`` / ``*_ci_high`` columns (the reports' conventions,
  :mod:`whist_sim.analyses.reports.render`).
* Per-deal scores on disk: ``out/scores/part-<k>.parquet``, one row per deal (``deal`` and one
  column per entry, its duplicate score in points); :func:`load_scores` reads them back.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...compiled.entry.tournament import N_TALLY, TALLY_NAMES
from ...core.stats import (
    SPRT_ALPHA,
    SPRT_BETA,
    Moments,
    Sprt,
    half_width_ratio,
    normal_interval,
    paired_test,
    rate,
    variance_from_sums,
    z_value,
)
from .schedule import ChunkResult, Entry, TournamentError

SCORES_DIR = "scores"


class Aggregate:
    """Running totals of a tournament, fed chunk by chunk in deal order."""

    def __init__(self, n_entries: int, n_seatings: int, sprt: tuple[float, float] | None,
                 alpha: float = SPRT_ALPHA, beta: float = SPRT_BETA):
        self.k = n_entries
        self.s = n_seatings
        self.pairs = list(itertools.combinations(range(n_entries), 2))
        self.deals = 0
        self.x = [Moments() for _ in range(n_entries)]
        self.d = [Moments() for _ in self.pairs]
        self.ysum = np.zeros(n_entries)
        self.yy = np.zeros((n_entries, n_entries))
        self.tally = np.zeros((n_entries, N_TALLY), dtype=np.int64)
        self.thrown = 0
        self.sprt = (
            [Sprt(sprt[0], sprt[1], alpha, beta) for _ in self.pairs] if sprt is not None else None
        )
        self.stopped = False

    def add(self, res: ChunkResult) -> int:
        """Take a chunk (the next in deal order); return how many of its deals were used."""
        x = res.ysum / self.s
        used = res.count
        if self.sprt is not None:
            last = -1
            for (a, b), test in zip(self.pairs, self.sprt, strict=True):
                if test.decision is None:
                    stop = test.feed(x[:, a] - x[:, b])
                    if stop is not None:
                        last = max(last, stop)
            if all(t.decision is not None for t in self.sprt):
                self.stopped = True
                used = last + 1 if last >= 0 else 0
        x = x[:used]
        for e in range(self.k):
            self.x[e] = self.x[e] + Moments.of(x[:, e])
        for i, (a, b) in enumerate(self.pairs):
            self.d[i] = self.d[i] + Moments.of(x[:, a] - x[:, b])
        self.ysum += res.ysum[:used].sum(axis=0)
        self.yy += res.yy[:used].sum(axis=0)
        self.tally += res.tally[:used].sum(axis=0, dtype=np.int64)
        self.thrown += int(res.thrown[:used].sum())
        self.deals += used
        return used

    def play_variance(self, e: int, f: int | None = None) -> float:
        """Sample variance over single plays of entry ``e``'s score, or with ``f`` of the
        difference ``y_e - y_f`` of the two entries' scores in the same play (points**2)."""
        n = self.deals * self.s
        if f is None:
            total, sq = self.ysum[e], self.yy[e, e]
        else:
            total = self.ysum[e] - self.ysum[f]
            sq = self.yy[e, e] + self.yy[f, f] - 2.0 * self.yy[e, f]
        return variance_from_sums(n, total, sq)


def r4(v: float | None, nd: int = 4) -> float | None:
    """``v`` rounded for the summary (``None`` for missing or non-finite)."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return None
    return round(float(v), nd)


def _shrink(half_ind: float, half_dup: float) -> float | None:
    """How many times wider the independent interval is (``None`` if undefined), 3 decimals."""
    ratio = half_width_ratio(half_ind, half_dup)
    return None if ratio is None else round(ratio, 3)


def summarize(agg: Aggregate, entries: Sequence[Entry], confidence: float = 0.95) -> dict[str, Any]:
    """The statistics of an aggregate: ``{"strategies": [...], "pairs": [...], ...}``."""
    names = {n: i for i, n in enumerate(TALLY_NAMES)}
    strategies = []
    for e, entry in enumerate(entries):
        m = agg.x[e]
        low, high = m.interval(confidence) if m.n > 1 else (math.nan, math.nan)
        t = {n: int(agg.tally[e, i]) for n, i in names.items()}
        under = t["contracts"] - t["over"]
        strategies.append({
            "name": entry.label,
            "strategy": entry.spec.text,
            "play": entry.play_spec.text,
            "seats": int(round(agg.tally[e, names["plays"]] / max(1, agg.deals * agg.s))),
            "mean": r4(m.mean if m.n else math.nan),
            "ci": [r4(low), r4(high)],
            "sd": r4(m.sd),
            "hit_rate": r4(rate(t["hits"], t["contracts"])),
            "zero_rate": r4(rate(t["zeros"], t["contracts"])),
            "zero_success": r4(rate(t["zero_hits"], t["zeros"])),
            "over_share": r4(rate(t["over"], t["contracts"])),
            "hit_rate_over": r4(rate(t["over_hits"], t["over"])),
            "hit_rate_under": r4(rate(t["hits"] - t["over_hits"], under)),
            "overtrick_rate": r4(rate(t["overtricks"], t["contracts"])),
            "undertrick_rate": r4(rate(t["undertricks"], t["contracts"])),
            "mean_contract": r4(rate(t["contract_sum"], t["contracts"])),
            "mean_tricks": r4(rate(t["tricks_sum"], t["contracts"])),
            "declarer_rate": r4(rate(t["declarer"], t["contracts"])),
            "declarer_hit_rate": r4(rate(t["declarer_hits"], t["declarer"])),
            "other_hit_rate": r4(rate(t["hits"] - t["declarer_hits"] - t["zero_hits"],
                                      t["contracts"] - t["declarer"] - t["zeros"])),
            "mean_level": r4(rate(t["level_sum"], t["declarer"])),
            "play_sd": r4(math.sqrt(agg.play_variance(e)) if agg.deals else None),
        })
    z = z_value(confidence)
    pairs = []
    for i, (a, b) in enumerate(agg.pairs):
        diff, low, high, p = paired_test(agg.d[i], confidence)
        var_z = agg.play_variance(a, b)
        se_deals = math.sqrt(var_z / agg.deals) if agg.deals > 1 else math.nan
        se_plays = math.sqrt(var_z / (agg.deals * agg.s)) if agg.deals > 1 else math.nan
        half = (high - low) / 2 if math.isfinite(high - low) else math.nan
        ilo, ihi = normal_interval(diff, se_deals, confidence)
        plo, phi = normal_interval(diff, se_plays, confidence)
        row: dict[str, Any] = {
            "a": entries[a].label,
            "b": entries[b].label,
            "diff": r4(diff),
            "ci": [r4(low), r4(high)],
            "se": r4(agg.d[i].se),
            "p": float(p) if math.isfinite(p) else None,
            "ci_independent": [r4(ilo), r4(ihi)],
            "se_independent": r4(se_deals),
            "ci_shrink": _shrink(z * se_deals, half),
            "ci_independent_plays": [r4(plo), r4(phi)],
            "ci_shrink_plays": _shrink(z * se_plays, half),
        }
        if agg.sprt is not None:
            row["sprt"] = agg.sprt[i].as_dict()
        pairs.append(row)
    return {"strategies": strategies, "pairs": pairs}


# --------------------------------------------------------------------------- frames

RANKING_COLUMNS = (
    "mean", "mean_ci_low", "mean_ci_high", "hit_rate", "zero_rate", "zero_success", "over_share",
    "hit_rate_over", "hit_rate_under", "overtrick_rate", "undertrick_rate", "declarer_rate",
    "mean_level", "declarer_hit_rate", "other_hit_rate",
)


def _nan(v: float | None) -> float:
    return math.nan if v is None else float(v)


def ranking_frame(summary: dict[str, Any]) -> pd.DataFrame:
    """The entries, best mean score first: index ``rank`` (1..), columns ``strategy`` and
    :data:`RANKING_COLUMNS` (raw numbers; missing ones ``nan``)."""
    rows = sorted(summary["strategies"], key=lambda s: -(s["mean"] if s["mean"] is not None
                                                          else -math.inf))
    recs = []
    for s in rows:
        rec: dict[str, Any] = {"strategy": s["name"], "mean": _nan(s["mean"]),
                               "mean_ci_low": _nan(s["ci"][0]), "mean_ci_high": _nan(s["ci"][1])}
        for c in RANKING_COLUMNS[3:]:
            rec[c] = _nan(s.get(c))  # summaries written before a column existed lack it
        recs.append(rec)
    df = pd.DataFrame.from_records(recs, columns=["strategy", *RANKING_COLUMNS])
    df.index = pd.RangeIndex(1, len(recs) + 1, name="rank")
    return df


def pairs_frame(summary: dict[str, Any]) -> pd.DataFrame:
    """The pairwise differences ``a - b`` (index ``a``, ``b``): ``diff`` with its duplicate
    interval (``diff_ci_low`` / ``diff_ci_high``) and ``p``, the intervals as many independent
    deals and plays would give (``independent_*``, ``independent_plays_*``) and the shrink
    factors."""
    recs = []
    for p in summary["pairs"]:
        recs.append({
            "a": p["a"], "b": p["b"], "diff": _nan(p["diff"]),
            "diff_ci_low": _nan(p["ci"][0]), "diff_ci_high": _nan(p["ci"][1]), "p": _nan(p["p"]),
            "independent": _nan(p["diff"]),
            "independent_ci_low": _nan(p["ci_independent"][0]),
            "independent_ci_high": _nan(p["ci_independent"][1]),
            "shrink": _nan(p["ci_shrink"]),
            "independent_plays": _nan(p["diff"]),
            "independent_plays_ci_low": _nan(p["ci_independent_plays"][0]),
            "independent_plays_ci_high": _nan(p["ci_independent_plays"][1]),
            "shrink_plays": _nan(p["ci_shrink_plays"]),
        })
    cols = ["a", "b", "diff", "diff_ci_low", "diff_ci_high", "p", "independent",
            "independent_ci_low", "independent_ci_high", "shrink", "independent_plays",
            "independent_plays_ci_low", "independent_plays_ci_high", "shrink_plays"]
    return pd.DataFrame.from_records(recs, columns=cols).set_index(["a", "b"])


def sprt_frame(summary: dict[str, Any]) -> pd.DataFrame | None:
    """The SPRT of every pair (index ``a``, ``b``: ``decision``, ``deals``, ``llr``), or
    ``None`` without an SPRT."""
    if not summary.get("sprt"):
        return None
    recs = [{"a": p["a"], "b": p["b"], "decision": p["sprt"]["decision"] or "undecided",
             "deals": int(p["sprt"]["deals"]), "llr": float(p["sprt"]["llr"])}
            for p in summary["pairs"]]
    return pd.DataFrame.from_records(recs, columns=["a", "b", "decision", "deals", "llr"]
                                     ).set_index(["a", "b"])


# --------------------------------------------------------------------------- per-deal scores


def write_scores(out: Path, index: int, start: int, x: np.ndarray, labels: list[str]) -> None:
    """Write chunk ``index``'s per-deal scores ``x`` (``float[count, E]``) as Parquet."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ...runs.dataset import atomic_write_bytes

    cols = {"deal": pa.array(np.arange(start, start + x.shape[0], dtype=np.int64))}
    for e, label in enumerate(labels):
        cols[label] = pa.array(x[:, e])
    sink = pa.BufferOutputStream()
    pq.write_table(pa.table(cols), sink, compression="zstd")
    atomic_write_bytes(out / SCORES_DIR / f"part-{index:05d}.parquet", sink.getvalue().to_pybytes())


def load_scores(out: str | Path) -> pd.DataFrame:
    """The per-deal scores of a tournament directory as a DataFrame (``deal`` + one column per
    entry, points per seat averaged over the seatings)."""
    files = sorted((Path(out) / SCORES_DIR).glob("part-*.parquet"))
    if not files:
        raise TournamentError(f"no tournament scores in {Path(out) / SCORES_DIR}")
    return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
