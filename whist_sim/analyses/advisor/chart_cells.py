"""Cell statistics of a bid chart: the optimal bid of a hand class and how sure it is.

A cell is ``(position, HCP band, trump class)`` (:mod:`whist_sim.analyses.advisor.chart_strata`);
its hands were all evaluated on their own sampled deals with every legal contract (common random
numbers). Per cell:

* the **optimal bid**: the contract with the highest mean expected score over the cell's hands
  (among contracts legal for at least half of them; ties: the lower);
* **how sure**: the paired difference best minus second-best, hand by hand (hands where both are
  legal), with its 95 % t interval (:func:`whist_sim.core.stats.paired_test`); the cell is
  *separated* when the interval lies above zero. The interval covers both the hands of the cell
  and the sampled deals of each hand;
* the **zero-bid value**: per hand that may bid zero, zero's expected score minus the best
  non-zero contract's *for that hand* (the advisor's choice; on the same deals), mean and 95 %
  interval. Taking the per-hand maximum favours the non-zero side slightly (it picks the luckiest
  of about a dozen estimates), so a positive value is conservative.

:func:`monotonicity` counts neighbour cells where the stronger (one HCP band up, or one trump
more) is advised to bid fewer tricks; :func:`zero_value_by_band` pools the zero-bid value of a
position's cells by HCP band, weighting the cells by their natural probabilities.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...core.stats import Moments, paired_test, z_value

__all__ = ["cell_stats", "monotonicity", "zero_value_by_band"]

CELL_COLUMNS = (
    "position", "panel", "hcp_band", "trump_class", "hands", "prob", "best_bid", "best_ev",
    "second_bid", "second_ev", "diff", "diff_ci_low", "diff_ci_high", "separated",
    "best_e_tricks", "best_p_make", "mean_hand_optimum", "zero_hands", "zero_diff",
    "zero_ci_low", "zero_ci_high", "zero_se", "zero_best_share",
)


def _paired(d: np.ndarray) -> tuple[float, float, float, float]:
    """Mean, t interval and standard error of paired differences ``d``."""
    m = Moments.of(d)
    mean, lo, hi, _ = paired_test(m)
    return mean, lo, hi, m.se


def cell_stats(c: pd.DataFrame, n_tricks: int) -> pd.DataFrame:
    """One row per non-empty cell of a classed chart frame (columns ``hcp_band``,
    ``trump_class`` added to a :func:`~whist_sim.analyses.advisor.bidchart.bid_chart` frame);
    columns
    :data:`CELL_COLUMNS` (points, fractions; ``prob``: natural probability within the position
    and panel, NaN when unknown)."""
    ev_all = c[[f"ev_{b}" for b in range(n_tricks + 1)]].to_numpy(float)
    tricks_all = c[[f"e_tricks_{b}" for b in range(n_tricks + 1)]].to_numpy(float)
    make_all = c[[f"p_make_{b}" for b in range(n_tricks + 1)]].to_numpy(float)
    prob_col = c["cell_prob"].to_numpy(float) if "cell_prob" in c else np.full(len(c), np.nan)
    rows = []
    keys = ["position", "hcp_band", "trump_class"]
    for (pos, band, tcls), idx in c.groupby(keys, observed=True).indices.items():
        e = ev_all[idx]
        legal = ~np.isnan(e)
        n = len(idx)
        with np.errstate(invalid="ignore"):
            means = np.where(legal.sum(axis=0) * 2 >= n,
                             np.nansum(e, axis=0) / np.maximum(legal.sum(axis=0), 1), np.nan)
        if np.isnan(means).all():
            continue
        filled = np.where(np.isnan(means), -np.inf, means)
        b1 = int(np.argmax(filled))
        filled[b1] = -np.inf
        b2 = int(np.argmax(filled)) if np.isfinite(filled).any() else -1
        diff = lo = hi = math.nan
        if b2 >= 0:
            both = legal[:, b1] & legal[:, b2]
            diff, lo, hi, _ = _paired(e[both, b1] - e[both, b2])
        z_ok = legal[:, 0] & np.isfinite(np.where(legal[:, 1:], e[:, 1:], -np.inf).max(axis=1))
        nz = np.where(legal[:, 1:], e[:, 1:], -np.inf).max(axis=1)
        zd = e[z_ok, 0] - nz[z_ok]
        zm, zlo, zhi, zse = _paired(zd) if len(zd) else (math.nan,) * 4
        rows.append({
            "position": int(pos), "panel": "NT" if tcls == "NT" else "suit",
            "hcp_band": band, "trump_class": tcls, "hands": n, "prob": prob_col[idx[0]],
            "best_bid": b1, "best_ev": means[b1], "second_bid": b2,
            "second_ev": means[b2] if b2 >= 0 else math.nan,
            "diff": diff, "diff_ci_low": lo, "diff_ci_high": hi,
            "separated": bool(lo > 0) if not math.isnan(lo) else False,
            "best_e_tricks": float(np.nanmean(tricks_all[idx, b1])),
            "best_p_make": float(np.nanmean(make_all[idx, b1])),
            "mean_hand_optimum": float(c["best_bid"].to_numpy()[idx].mean()),
            "zero_hands": int(z_ok.sum()), "zero_diff": zm, "zero_ci_low": zlo,
            "zero_ci_high": zhi, "zero_se": zse,
            "zero_best_share": float((zd > 0).mean()) if len(zd) else math.nan,
        })
    return pd.DataFrame(rows, columns=list(CELL_COLUMNS))


def monotonicity(cells: pd.DataFrame, bands: list[str], classes: list[str],
                 min_n: int = 1) -> pd.DataFrame:
    """Per position and panel: neighbour pairs of cells (both with at least ``min_n`` hands)
    where one is stronger - the next HCP band, or (suit panel) one trump more - and how many
    of them advise the stronger cell to bid fewer tricks (``inversions``), overall and among
    pairs where both cells are separated (``inversions_separated`` of ``pairs_separated``)."""
    out = []
    ok = cells[cells["hands"] >= min_n]
    for (pos, panel), part in ok.groupby(["position", "panel"]):
        best = {(str(r.hcp_band), str(r.trump_class)): (int(r.best_bid), bool(r.separated))
                for r in part.itertuples()}
        pairs = inv = pairs_sep = inv_sep = 0
        for (b, t), (bid, sep) in best.items():
            i, j = bands.index(b), classes.index(t)
            nbrs = []
            if i + 1 < len(bands):
                nbrs.append((bands[i + 1], t))
            if panel == "suit" and j + 1 < len(classes) and classes[j + 1] != "NT":
                nbrs.append((b, classes[j + 1]))
            for nb in nbrs:
                if nb not in best:
                    continue
                sbid, ssep = best[nb]
                pairs += 1
                inv += sbid < bid
                if sep and ssep:
                    pairs_sep += 1
                    inv_sep += sbid < bid
        out.append({"position": int(pos), "panel": panel, "pairs": pairs, "inversions": inv,
                    "share": inv / pairs if pairs else math.nan, "pairs_separated": pairs_sep,
                    "inversions_separated": inv_sep})
    return pd.DataFrame(out, columns=["position", "panel", "pairs", "inversions", "share",
                                      "pairs_separated", "inversions_separated"])


def zero_value_by_band(cells: pd.DataFrame, bands: list[str]) -> pd.DataFrame:
    """Zero minus the best non-zero bid (points, paired) by position (non-declarers) and HCP
    band, suit panel: the cells of a band pooled with weights proportional to their natural
    probabilities (equal weights when unknown), normal 95 % interval from the cells' standard
    errors. Columns ``position``, ``hcp_band``, ``hands``, ``zero_diff``, ``ci_low``,
    ``ci_high``, ``zero_best_share`` (share of hands where zero is best, weighted)."""
    z = z_value(0.95)
    part = cells[(cells["panel"] == "suit") & (cells["position"] > 0)
                 & (cells["zero_hands"] >= 2)]
    out = []
    for (pos, band), g in part.groupby(["position", "hcp_band"], observed=True):
        w = g["prob"].to_numpy(float)
        w = np.ones(len(g)) if np.isnan(w).any() or w.sum() <= 0 else w
        w = w / w.sum()
        m = float((w * g["zero_diff"].to_numpy(float)).sum())
        se = float(np.sqrt((w * w * np.nan_to_num(g["zero_se"].to_numpy(float)) ** 2).sum()))
        share = float((w * g["zero_best_share"].to_numpy(float)).sum())
        out.append({"position": int(pos), "hcp_band": str(band),
                    "hands": int(g["zero_hands"].sum()), "zero_diff": m,
                    "ci_low": m - z * se, "ci_high": m + z * se, "zero_best_share": share})
    frame = pd.DataFrame(out, columns=["position", "hcp_band", "hands", "zero_diff", "ci_low",
                                       "ci_high", "zero_best_share"])
    frame["hcp_band"] = pd.Categorical(frame["hcp_band"], categories=bands, ordered=True)
    return frame.sort_values(["position", "hcp_band"]).reset_index(drop=True)
