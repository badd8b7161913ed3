"""Charts of report tables, drawn headlessly with matplotlib's Agg canvas.

Every function takes a table from :mod:`whist_sim.analyses.reports.tables` and returns a
:class:`matplotlib.figure.Figure` attached to an Agg canvas; nothing here touches ``pyplot`` or the
global backend, so charts work on servers and in tests without a display and without changing a
notebook's own backend. :func:`figure_png` turns a figure into PNG bytes. Rates are drawn in
percent with their 95 % confidence intervals as error bars.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from .wording import bidding_position_name

DPI = 100
_UNDER, _OVER = "#1f77b4", "#d62728"


def new_figure(width: float = 7.0, height: float = 4.2) -> Figure:
    """A figure (inches) on its own Agg canvas: no pyplot, no global state."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def figure_png(fig: Figure, dpi: int = DPI) -> bytes:
    """The figure as PNG bytes (``dpi`` dots per inch; 100 keeps files small)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


def _pct_err(table: pd.DataFrame, rate: str = "rate", lo: str = "ci_low", hi: str = "ci_high"):
    r = table[rate].to_numpy(float)
    err = np.vstack([r - table[lo].to_numpy(float), table[hi].to_numpy(float) - r]) * 100
    return r * 100, np.nan_to_num(np.maximum(err, 0.0))


def _note(ax, text: str) -> None:
    ax.text(0.99, 0.98, text, transform=ax.transAxes, ha="right", va="top", fontsize=8,
            color="0.35")


def success_by_contract(table: pd.DataFrame, title: str = "Contract success rate by contract"):
    """Bars of ``contract_success(data, by="contract")``: rate (%) with 95 % CI per contract."""
    fig = new_figure()
    ax = fig.add_subplot()
    x = table.index.to_numpy()
    rate, err = _pct_err(table)
    ax.bar(x, rate, color="#4c72b0", yerr=err, capsize=3, error_kw={"elinewidth": 1})
    ax.set_xticks(x)
    ax.set_xlabel("contract (tricks bid)")
    ax.set_ylabel("contracts made (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    _note(ax, "error bars: 95% Wilson CI")
    return fig


def over_under_by_position(table: pd.DataFrame, players: int = 4,
                           title: str = "Success rate by bidding position, under vs. over deals"):
    """Grouped bars of ``contract_success(data, by=["over", "position"])`` with 95 % CIs."""
    fig = new_figure()
    ax = fig.add_subplot()
    positions = sorted({int(p) for p in table.index.get_level_values("position")})
    x = np.arange(len(positions))
    width = 0.38
    for i, (flag, color, name) in enumerate(((False, _UNDER, "under"), (True, _OVER, "over"))):
        if flag not in table.index.get_level_values("over"):
            continue
        part = table.xs(flag, level="over").reindex(positions)
        rate, err = _pct_err(part)
        ax.bar(x + (i - 0.5) * width, rate, width, yerr=err, capsize=3, color=color,
               label=f"{name} deals")
    ax.set_xticks(x, [bidding_position_name(p, players) for p in positions])
    ax.set_xlabel("bidding position")
    ax.set_ylabel("contracts made (%)")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper left")
    ax.set_title(title)
    _note(ax, "error bars: 95% Wilson CI")
    return fig


def bid_sum_histogram(table: pd.DataFrame, n_tricks: int = 13,
                      title: str = "Sum of the contracts per deal"):
    """Bars of ``bid_sum_distribution(data)``: share of played deals (%) per sum, under/over."""
    fig = new_figure()
    ax = fig.add_subplot()
    x = table.index.to_numpy()
    share, err = _pct_err(table, "share")
    colors = np.where(x > n_tricks, _OVER, _UNDER)
    ax.bar(x, share, color=colors, yerr=err, capsize=2)
    ax.axvline(n_tricks, color="0.3", ls=":", lw=1)
    ax.text(n_tricks - 0.15, ax.get_ylim()[1] * 0.97, f"{n_tricks}: impossible", fontsize=8,
            color="0.3", va="top", ha="right")
    ax.legend(handles=[Patch(color=_UNDER, label="under"), Patch(color=_OVER, label="over")],
              loc="upper right", bbox_to_anchor=(1.0, 0.9))
    ax.set_xticks(x)
    ax.set_xlabel("sum of the four contracts (tricks)")
    ax.set_ylabel("share of played deals (%)")
    ax.set_title(title)
    return fig


def zero_value_by_hcp(table: pd.DataFrame, min_n: int = 30,
                      title: str = "Zero bid vs. non-zero bid, by high-card points"):
    """Mean score of zero and non-zero bids per HCP band (``zero_value_by_hcp``), with 95 % CIs.

    Points resting on fewer than ``min_n`` bids are left out (their intervals would swamp the
    scale); the table keeps them."""
    fig = new_figure()
    ax = fig.add_subplot()
    labels = [str(v) for v in table.index]
    x = np.arange(len(labels))
    for off, name, color, text in ((-0.1, "zero", "#2ca02c", "zero bid"),
                                   (0.1, "nonzero", "#7f7f7f", "non-zero bid")):
        m = table[f"mean_{name}"].to_numpy(float)
        err = np.vstack([m - table[f"mean_{name}_ci_low"].to_numpy(float),
                         table[f"mean_{name}_ci_high"].to_numpy(float) - m])
        ok = table[f"n_{name}"].to_numpy() >= max(min_n, 1)
        ax.errorbar(x[ok] + off, m[ok], yerr=np.nan_to_num(err[:, ok]), fmt="o-", capsize=3,
                    color=color, label=text)
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xticks(x, labels)
    ax.set_xlabel("high-card points of the hand (A=4 K=3 Q=2 J=1)")
    ax.set_ylabel("mean score per deal (points)")
    ax.legend()
    ax.set_title(title)
    _note(ax, f"non-declarers; error bars: 95% CI; bands with n >= {min_n}")
    return fig


def zero_paired_points(table: pd.DataFrame, players: int = 4) -> pd.DataFrame:
    """The data of :func:`zero_value_paired`: the paired value of a zero (its mean score minus
    the best other bid's on the same hand and deals, points per deal) by hand strength and
    bidding position, from the report's paired table (index ``(position, hcp_band)``, columns
    ``hands``, ``zero_diff`` with ``zero_diff_ci_low`` / ``zero_diff_ci_high``).

    One row per position and HCP band, in the table's band order: ``position`` (the bidding
    position's name), ``hcp_band``, ``hands``, ``value``, ``ci_low``, ``ci_high``."""
    rows = []
    for (pos, band), r in table.iterrows():
        rows.append({"position": bidding_position_name(int(pos), players),
                     "hcp_band": str(band), "hands": int(r["hands"]),
                     "value": float(r["zero_diff"]), "ci_low": float(r["zero_diff_ci_low"]),
                     "ci_high": float(r["zero_diff_ci_high"])})
    return pd.DataFrame(rows, columns=["position", "hcp_band", "hands", "value", "ci_low",
                                       "ci_high"])


def zero_value_paired(table: pd.DataFrame, players: int = 4,
                      title: str = "Paired value of a zero bid: zero minus the best other bid "
                                   "for the same hand,\nby high-card points and bidding "
                                   "position"):
    """Lines of the paired value of a zero (:func:`zero_paired_points`) per bidding position
    against the hand's high-card points, with 95 % intervals: above 0, bidding zero pays."""
    data = zero_paired_points(table, players)
    fig = new_figure()
    ax = fig.add_subplot()
    bands = list(dict.fromkeys(data["hcp_band"]))
    x = np.arange(len(bands))
    names = list(dict.fromkeys(data["position"]))
    colors = ("#4c72b0", "#dd8452", "#55a868", "#c44e52")
    for i, name in enumerate(names):
        part = data[data["position"] == name].set_index("hcp_band").reindex(bands)
        m = part["value"].to_numpy(float)
        err = np.vstack([m - part["ci_low"].to_numpy(float), part["ci_high"].to_numpy(float) - m])
        off = (i - (len(names) - 1) / 2) * 0.08
        ax.errorbar(x + off, m, yerr=np.nan_to_num(np.maximum(err, 0.0)), fmt="o-", capsize=3,
                    color=colors[i % len(colors)], label=name)
    ax.axhline(0, color="0.3", lw=0.9)
    ax.set_xticks(x, bands)
    ax.set_xlabel("high-card points of the hand (A=4 K=3 Q=2 J=1)")
    ax.set_ylabel("zero minus best other bid (points per deal)")
    ax.legend(title="bidding position")
    ax.set_title(title, fontsize=10)
    _note(ax, "above 0: bid zero; error bars: 95% interval")
    return fig


def contract_vs_tricks(table: pd.DataFrame, title: str = "Contract vs. tricks taken"):
    """Heat map of ``contract_vs_tricks(data)``: for each contract (row), the share (%) of players
    taking each number of tricks (written in the cells from 1 %); the diagonal is the made
    contracts.

    Each row is coloured against its own most common trick count, so that every row shows its
    shape: one colour scale for all would be set by the zero bids (made about 95 % of the time),
    and leave every other row dark."""
    counts = table.to_numpy(float)
    totals = counts.sum(axis=1, keepdims=True)
    share = np.divide(counts, totals, out=np.zeros_like(counts), where=totals > 0) * 100
    peak = share.max(axis=1, keepdims=True)
    rel = np.divide(share, peak, out=np.zeros_like(share), where=peak > 0) * 100
    fig = new_figure(7.6, 5.8)
    ax = fig.add_subplot()
    im = ax.imshow(rel, cmap="viridis", aspect="auto", origin="lower", vmin=0, vmax=100)
    for (i, j), v in np.ndenumerate(share):
        if v >= 1:
            ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=6,
                    color="white" if rel[i, j] < 60 else "black")
    rows = table.index.to_numpy()
    cols = table.columns.to_numpy()
    ax.set_yticks(np.arange(len(rows)), [str(r) for r in rows])
    ax.set_xticks(np.arange(len(cols)), [str(c) for c in cols])
    col_pos = {int(c): j for j, c in enumerate(cols)}
    for i, r in enumerate(rows):
        if int(r) in col_pos:
            ax.add_patch(_square(col_pos[int(r)], i))
    ax.set_xlabel("tricks taken (cells: % of the contract's players)")
    ax.set_ylabel("contract (tricks bid)")
    ax.set_title(title)
    fig.colorbar(im, ax=ax, label="share, as % of the row's most common count")
    return fig


def _square(x: float, y: float) -> Rectangle:
    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, edgecolor="white", lw=0.8)


def score_distribution(table: pd.DataFrame, title: str = "Score distribution by contract"):
    """Box plot of ``score_distribution(data, by="contract")``: box = quartiles, line = median,
    whiskers = 5th and 95th percentiles, diamond = mean (game points)."""
    fig = new_figure()
    ax = fig.add_subplot()
    stats = [
        {"label": str(idx), "med": row["median"], "q1": row["p25"], "q3": row["p75"],
         "whislo": row["p05"], "whishi": row["p95"], "mean": row["mean"], "fliers": []}
        for idx, row in table.iterrows()
    ]
    ax.bxp(stats, showmeans=True, showfliers=False,
           meanprops={"marker": "D", "markerfacecolor": "#d62728", "markeredgecolor": "none",
                      "markersize": 4})
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xlabel("contract (tricks bid)")
    ax.set_ylabel("score per deal (points)")
    ax.set_title(title)
    _note(ax, "box: quartiles; whiskers: 5th-95th percentile; diamond: mean")
    return fig


def score_by_position(table: pd.DataFrame, players: int = 4,
                      title: str = "Mean score per deal by bidding position"):
    """Bars of ``score_summary(data, by="position")``: mean score with its 95 % CI."""
    fig = new_figure()
    ax = fig.add_subplot()
    pos = table.index.to_numpy()
    m = table["mean"].to_numpy(float)
    err = np.vstack([m - table["ci_low"].to_numpy(float), table["ci_high"].to_numpy(float) - m])
    ax.bar(np.arange(len(pos)), m, yerr=np.nan_to_num(err), capsize=4, color="#8172b2")
    ax.set_xticks(np.arange(len(pos)), [bidding_position_name(p, players) for p in pos])
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xlabel("bidding position")
    ax.set_ylabel("mean score per deal (points)")
    ax.set_title(title)
    _note(ax, "error bars: 95% t interval")
    return fig


def frisch_effect(table: pd.DataFrame, title: str = "Declarer success by number of Frisches"):
    """Declarer and all-player success rates (%) by number of Frisches, with 95 % CIs."""
    fig = new_figure()
    ax = fig.add_subplot()
    t = table[table["played"] > 0]
    x = t.index.to_numpy()
    for off, col, color, text in ((-0.05, "declarer_rate", "#dd8452", "declarer"),
                                  (0.05, "player_rate", "#4c72b0", "all players")):
        r, err = _pct_err(t, col, f"{col}_ci_low", f"{col}_ci_high")
        ax.errorbar(x + off, r, yerr=err, fmt="o-", capsize=3, color=color, label=text)
    ax.set_xticks(x)
    ax.set_xlabel("Frisches played before the auction was won")
    ax.set_ylabel("contracts made (%)")
    ax.set_ylim(0, 100)
    ax.legend()
    ax.set_title(title)
    _note(ax, "error bars: 95% Wilson CI")
    return fig


def dd_differences(contract: pd.DataFrame, tricks: pd.DataFrame,
                   title: str = "Contract and tricks taken against whist-max"):
    """Bars of ``dd_contract_vs_max`` and ``dd_tricks_vs_max`` (no ``by``): the share (%) of seats
    per difference from the seat's double-dummy whist-max, with 95 % CIs."""
    fig = new_figure()
    ax = fig.add_subplot()
    values = sorted({int(v) for v in contract.index} | {int(v) for v in tricks.index})
    x = np.asarray(values)
    width = 0.4
    for off, table, color, text in ((-width / 2, contract, "#4c72b0", "contract - whist-max"),
                                    (width / 2, tricks, "#dd8452", "tricks taken - whist-max")):
        part = table.reindex(values)
        share, err = _pct_err(part.fillna(0.0), "share")
        ax.bar(x + off, share, width, yerr=err, capsize=2, color=color, label=text)
    ax.axvline(0, color="0.3", ls=":", lw=1)
    ax.set_xticks(x)
    ax.set_xlabel("difference from whist-max (tricks)")
    ax.set_ylabel("share of seats (%)")
    ax.legend(loc="upper left")
    ax.set_title(title)
    _note(ax, "seats with whist-max solved; error bars: 95% Wilson CI")
    return fig
