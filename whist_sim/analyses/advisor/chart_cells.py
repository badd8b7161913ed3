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

**A cell's bid is legal for every hand it covers.** A bid can be illegal for some hands of a class:
below the auction's level for the declarer, the forbidden number for the hooked last bidder (RULES
§4). :func:`cell_groups` splits such a class by what makes its best bid illegal, again until every
part's best bid is legal for all its hands: the hands that may bid it and the hands that may not
(``may``/``may_not``: the bids a part's hands may all bid / may none bid; :func:`auction_text` says
it in words: "auction level 8+" for the declarer, "hooked on 6" for the last bidder). A class is
one cell when no split is needed. Per cell, ``fit`` is the share of its hands whose own best bid
(the highest expected score of the hand's own evaluation) is the cell's bid; ``near_fit`` the share
whose own best scores at most :data:`NEAR` points per deal more than the cell's bid; ``cost`` the
mean of that shortfall over the cell's hands (points per deal: what following the chart costs a
hand against its own evaluation; the own best is the largest of noisy estimates, so ``cost`` leans
high).
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import pandas as pd

from ...core.stats import Moments, paired_test, z_value
from .chart_strata import MIN_CELL, hand_classes

__all__ = ["CELL_KEYS", "NEAR", "auction_text", "cell_groups", "cell_stats", "monotonicity",
           "parse_bids", "zero_value_by_band"]

#: the columns that name a cell: its class and, for a split class, the bids its hands may / may
#: not bid (space-separated, empty when the class is not split)
CELL_KEYS = ("position", "panel", "hcp_band", "trump_class", "may", "may_not")

#: points per deal within which a hand's own best bid counts as near the cell's bid
NEAR = 2.0

CELL_COLUMNS = (
    "position", "panel", "hcp_band", "trump_class", "may", "may_not", "auction", "share",
    "main", "fit", "near_fit", "cost", "hands", "prob", "best_bid", "best_ev",
    "second_bid", "second_ev", "diff", "diff_ci_low", "diff_ci_high", "separated",
    "best_e_tricks", "best_p_make", "mean_hand_optimum", "zero_hands", "zero_diff",
    "zero_ci_low", "zero_ci_high", "zero_se", "zero_best_share",
)


def _paired(d: np.ndarray) -> tuple[float, float, float, float]:
    """Mean, t interval and standard error of paired differences ``d``."""
    m = Moments.of(d)
    mean, lo, hi, _ = paired_test(m)
    return mean, lo, hi, m.se


def _bids_text(bids: frozenset[int]) -> str:
    return " ".join(str(b) for b in sorted(bids))


def parse_bids(text: object) -> frozenset[int]:
    """The bids of a ``may`` / ``may_not`` cell (``"5 6"``; empty or missing: none)."""
    if text is None or (isinstance(text, float) and math.isnan(text)):
        return frozenset()
    return frozenset(int(t) for t in str(text).split())


def auction_text(position: int, players: int, may: frozenset[int],
                 may_not: frozenset[int]) -> str:
    """A split cell's hands in words: the declarer's by the auction's level ("auction level
    6-7", "level 8+"), the last bidder's by the forbidden number ("hooked on 6", "not hooked on
    5 or 6"), any other position by its bids; empty for a cell that is not split."""
    if not may and not may_not:
        return ""
    if position == 0:  # the declarer may bid b when b >= the level
        lo = max(may_not) + 1 if may_not else None
        hi = min(may) if may else None
        if lo is not None and hi is not None:
            return f"auction level {lo}" if lo == hi else f"auction level {lo}-{hi}"
        return f"auction level {lo}+" if lo is not None else f"auction level up to {hi}"
    if position == players - 1:  # the hooked bidder may bid anything but the forbidden number
        if may_not:
            return "hooked on " + " or ".join(str(b) for b in sorted(may_not))
        return "not hooked on " + " or ".join(str(b) for b in sorted(may))
    parts = ([f"may bid {_bids_text(may)}"] if may else []) + (
        [f"may not bid {_bids_text(may_not)}"] if may_not else [])
    return "; ".join(parts)


def _means(e: np.ndarray) -> np.ndarray:
    legal = ~np.isnan(e)
    with np.errstate(invalid="ignore"):
        return np.where(legal.sum(axis=0) * 2 >= len(e),
                        np.nansum(e, axis=0) / np.maximum(legal.sum(axis=0), 1), np.nan)


def cell_groups(c: pd.DataFrame, n_tricks: int
                ) -> list[tuple[dict[str, object], np.ndarray]]:
    """The cells of a classed chart frame, each as ``(key, rows)``: ``key`` the values of
    :data:`CELL_KEYS` (``may`` / ``may_not`` as sets of bids) and ``rows`` the positions of its
    hands in ``c``. A class whose best bid (highest mean expected score among the bids legal for
    at least half its hands; ties: the lower) is illegal for some of its hands is split into the
    hands that may bid it and those that may not, each part split again the same way (see the
    module doc)."""
    ev_all = c[[f"ev_{b}" for b in range(n_tricks + 1)]].to_numpy(float)
    out: list[tuple[dict[str, object], np.ndarray]] = []

    def split(key: dict[str, object], idx: np.ndarray, may: frozenset[int],
              may_not: frozenset[int]) -> None:
        means = _means(ev_all[idx])
        if np.isnan(means).all():
            out.append(({**key, "may": may, "may_not": may_not}, idx))
            return
        best = int(np.argmax(np.where(np.isnan(means), -np.inf, means)))
        bad = np.isnan(ev_all[idx, best])
        if not bad.any():
            out.append(({**key, "may": may, "may_not": may_not}, idx))
            return
        split(key, idx[~bad], may | {best}, may_not)
        split(key, idx[bad], may, may_not | {best})

    keys = ["position", "hcp_band", "trump_class"]
    for (pos, band, tcls), idx in c.groupby(keys, observed=True).indices.items():
        split({"position": int(pos), "panel": "NT" if tcls == "NT" else "suit",
               "hcp_band": band, "trump_class": tcls}, np.asarray(idx), frozenset(),
              frozenset())
    return out


def cell_stats(c: pd.DataFrame, n_tricks: int, players: int | None = None) -> pd.DataFrame:
    """One row per non-empty cell of a classed chart frame (columns ``hcp_band``,
    ``trump_class`` added to a :func:`~whist_sim.analyses.advisor.bidchart.bid_chart` frame);
    columns
    :data:`CELL_COLUMNS` (points, fractions; ``prob``: natural probability within the position
    and panel, NaN when unknown)."""
    ev_all = c[[f"ev_{b}" for b in range(n_tricks + 1)]].to_numpy(float)
    tricks_all = c[[f"e_tricks_{b}" for b in range(n_tricks + 1)]].to_numpy(float)
    make_all = c[[f"p_make_{b}" for b in range(n_tricks + 1)]].to_numpy(float)
    prob_col = c["cell_prob"].to_numpy(float) if "cell_prob" in c else np.full(len(c), np.nan)
    own_best = c["best_bid"].to_numpy()
    players = int(c["position"].max()) + 1 if players is None and len(c) else (players or 4)
    groups = cell_groups(c, n_tricks)
    sizes: dict[tuple[object, ...], int] = {}
    for key, idx in groups:
        base = (key["position"], key["hcp_band"], key["trump_class"])
        sizes[base] = sizes.get(base, 0) + len(idx)
    rows: list[dict[str, object]] = []
    for key, idx in groups:
        pos, band, tcls = int(key["position"]), key["hcp_band"], key["trump_class"]  # type: ignore[call-overload]
        base = (pos, band, tcls)
        may = cast(frozenset[int], key["may"])
        may_not = cast(frozenset[int], key["may_not"])
        e = ev_all[idx]
        legal = ~np.isnan(e)
        n = len(idx)
        means = _means(e)
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
        share = n / sizes[base]
        with np.errstate(invalid="ignore"):
            short = np.nanmax(np.where(legal, e, -np.inf), axis=1) - e[:, b1]
        short = short[np.isfinite(short)]
        rows.append({
            "position": int(pos), "panel": "NT" if tcls == "NT" else "suit",
            "hcp_band": band, "trump_class": tcls, "may": _bids_text(may),
            "may_not": _bids_text(may_not), "auction": auction_text(pos, players, may, may_not),
            "share": share, "main": False,
            "fit": float((own_best[idx] == b1).mean()),
            "near_fit": float((short <= NEAR + 1e-9).mean()) if len(short) else math.nan,
            "cost": float(short.mean()) if len(short) else math.nan,
            "hands": n, "prob": prob_col[idx[0]] * share,
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
    frame = pd.DataFrame(rows, columns=list(CELL_COLUMNS))
    if len(frame):  # the largest part of every class (the first on a tie) is its main cell
        biggest = frame.groupby(["position", "hcp_band", "trump_class"], observed=True,
                                sort=False)["hands"].idxmax()
        frame.loc[biggest.to_numpy(), "main"] = True
        frame["main"] = frame["main"].astype(bool)
    return frame


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
