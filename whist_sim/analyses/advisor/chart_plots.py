"""Figures of a bid chart: the optimal-bid grids, the zero-bid value and the cheat sheet.

One drawing function, :func:`bid_grid`, draws a position's grid (HCP bands up, trump lengths
across, the NT panel at the right after a gap): the cell's optimal bid as colour and number,
hatched where the best and second-best bids are not separated by their paired 95 % interval, the
cells where zero is optimal outlined. :func:`optimal_bid_figure` puts the positions side by side
for the report; :func:`cheat_sheet` puts them on one A4 page with a labelled colour bar and a
footer naming the rules, the play and bidding model and the sample. Figures are made with
:func:`whist_sim.analyses.reports.charts.new_figure` (no pyplot, no global state).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["A4_INCHES", "bid_grid", "cheat_sheet", "optimal_bid_figure", "zero_value_figure"]

A4_INCHES = (8.27, 11.69)  # portrait
HATCH = "////"
UNSURE = "hatched: best and second-best bid not separated by their paired 95 % interval"


#: the frame of a cell whose best bid moves under the check against search
MOVED_COLOR = "#d62728"


def _bid_cmap(n_tricks: int):
    from matplotlib import colormaps

    return colormaps["viridis"].resampled(n_tricks + 1)


def _outline_zero(ax, zero: np.ndarray) -> None:
    """Outline the region of cells where zero is optimal (edges facing other cells)."""
    rows, cols = zero.shape
    for i in range(rows):
        for j in range(cols):
            if not zero[i, j]:
                continue
            for di, dj, seg in ((-1, 0, ((j - .5, j + .5), (i - .5, i - .5))),
                                (1, 0, ((j - .5, j + .5), (i + .5, i + .5))),
                                (0, -1, ((j - .5, j - .5), (i - .5, i + .5))),
                                (0, 1, ((j + .5, j + .5), (i - .5, i + .5)))):
                ni, nj = i + di, j + dj
                if not (0 <= ni < rows and 0 <= nj < cols and zero[ni, nj]):
                    ax.plot(*seg, color="#ff7f0e", lw=2.2, solid_capstyle="round")


def bid_grid(ax, best: pd.DataFrame, separated: pd.DataFrame, n_tricks: int, title: str,
             fontsize: float = 7, moved: pd.DataFrame | None = None) -> Any:
    """Draw one position's optimal-bid grid on ``ax``; returns the image (for a colour bar).

    ``best`` / ``separated``: HCP band (rows) x trump class (columns, ``NT`` last) tables of
    :func:`whist_sim.analyses.advisor.bidchart.chart_tables` (``best_bid_pos*``,
    ``separated_pos*``). ``moved`` (a chart checked against search,
    :func:`whist_sim.analyses.advisor.chart_check. check_grids`): a red frame on a cell whose best
    bid moves under the check, thick where the chart's bid does not hold.
    """
    from matplotlib.patches import Rectangle

    data = best.to_numpy(dtype=float)
    sep = separated.to_numpy(dtype=float)
    cols = [str(c) for c in best.columns]
    im = ax.imshow(np.ma.masked_invalid(data), cmap=_bid_cmap(n_tricks), vmin=-0.5,
                   vmax=n_tricks + 0.5, aspect="auto", origin="lower")
    for (i, j), v in np.ndenumerate(data):
        if math.isnan(v):
            continue
        dark = v / n_tricks < 0.45
        ax.text(j, i, f"{int(v)}", ha="center", va="center", fontsize=fontsize,
                color="white" if dark else "black", fontweight="bold")
        if not sep[i, j] > 0:
            ax.add_patch(Rectangle((j - .5, i - .5), 1, 1, fill=False, hatch=HATCH, lw=0,
                                   edgecolor="white" if dark else "#444444", alpha=0.6))
    _outline_zero(ax, np.nan_to_num(data, nan=-1) == 0)
    if moved is not None:
        for (i, j), m in np.ndenumerate(moved.to_numpy(dtype=float)):
            if m > 0 and not math.isnan(data[i, j]):
                ax.add_patch(Rectangle((j - .42, i - .42), .84, .84, fill=False,
                                       edgecolor=MOVED_COLOR, lw=2.4 if m > 1 else 1.0))
    if "NT" in cols:
        ax.axvline(cols.index("NT") - 0.5, color="white", lw=5)
    ax.set_xticks(range(len(cols)), cols, fontsize=fontsize)
    ax.set_yticks(range(len(best.index)), [str(x) for x in best.index], fontsize=fontsize)
    ax.set_xlim(-0.5, len(cols) - 0.5)
    ax.set_ylim(-0.5, len(best.index) - 0.5)
    ax.set_xlabel("trump length (NT: the hand played at no-trump)", fontsize=fontsize)
    ax.set_ylabel("high-card points", fontsize=fontsize)
    ax.set_title(title, fontsize=fontsize + 2)
    return im


def optimal_bid_figure(tables: dict[str, pd.DataFrame], players: int, n_tricks: int,
                       moved: dict[int, pd.DataFrame] | None = None):
    """The positions' grids side by side (the report's ``optimal_bid.png``); ``moved``: per
    position the check's grid (:func:`bid_grid`)."""
    from ..reports.charts import new_figure
    from ..reports.wording import bidding_position_name as position_label

    fig = new_figure(3.6 * players + 0.8, 4.6)
    axes = [fig.add_subplot(1, players, i + 1) for i in range(players)]
    im = None
    for pos, ax in enumerate(axes):
        im = bid_grid(ax, tables[f"best_bid_pos{pos}"], tables[f"separated_pos{pos}"], n_tricks,
                      position_label(pos, players),
                      moved=None if moved is None else moved[pos])
    if im is not None:
        fig.colorbar(im, ax=axes, shrink=0.8, label="optimal bid (tricks)",
                     ticks=range(n_tricks + 1))
    fig.suptitle("The contract with the highest expected score, by high-card points and trump "
                 "length (orange outline: bid zero; " + UNSURE
                 + ("; red frame: the check under search moves it" if moved is not None
                    else "")
                 + ")", fontsize=9)
    return fig


def zero_value_figure(tables: dict[str, pd.DataFrame], players: int):
    """Zero minus the best non-zero bid (points, paired) per cell for the non-declarers;
    hatched where its 95 % interval contains zero."""
    from matplotlib.patches import Rectangle

    from ..reports.charts import new_figure
    from ..reports.wording import bidding_position_name as position_label

    cells = tables["cells"]
    positions = range(1, players)
    fig = new_figure(3.6 * len(positions) + 0.8, 4.6)
    axes = [fig.add_subplot(1, len(positions), i + 1) for i in range(len(positions))]
    im = None
    lim = 60.0
    for ax, pos in zip(axes, positions, strict=True):
        t = tables[f"zero_value_pos{pos}"]
        data = t.to_numpy(dtype=float)
        cp = cells[(cells["position"] == pos) & cells["main"]].set_index(
            ["hcp_band", "trump_class"])
        im = ax.imshow(np.ma.masked_invalid(data), cmap="RdBu", vmin=-lim, vmax=lim,
                       aspect="auto", origin="lower")
        for (i, j), v in np.ndenumerate(data):
            if math.isnan(v):
                continue
            ax.text(j, i, f"{v:+.0f}", ha="center", va="center", fontsize=6.5)
            key = (t.index[i], t.columns[j])
            if key in cp.index:
                lo, hi = cp.loc[key, ["zero_ci_low", "zero_ci_high"]]
                if not (lo > 0 or hi < 0):
                    ax.add_patch(Rectangle((j - .5, i - .5), 1, 1, fill=False, hatch=HATCH,
                                           lw=0, edgecolor="#555555", alpha=0.6))
        cols = [str(c) for c in t.columns]
        if "NT" in cols:
            ax.axvline(cols.index("NT") - 0.5, color="white", lw=5)
        ax.set_xticks(range(len(cols)), cols, fontsize=7)
        ax.set_yticks(range(len(t.index)), [str(x) for x in t.index], fontsize=7)
        ax.set_xlabel("trump length")
        ax.set_title(position_label(pos, players), fontsize=9)
    axes[0].set_ylabel("high-card points")
    if im is not None:
        fig.colorbar(im, ax=axes, shrink=0.8,
                     label="zero minus best non-zero bid (points per deal)")
    fig.suptitle("What a zero bid gains over the best other bid for the same hand, points per "
                 "deal (blue: bid zero; same hands, same deals; hatched: 95 % interval holds 0)",
                 fontsize=9)
    return fig


def cheat_sheet(tables: dict[str, pd.DataFrame], players: int, n_tricks: int,
                footer: Sequence[str], title: str,
                moved: dict[int, pd.DataFrame] | None = None):
    """One A4 page (portrait): every position's grid, a labelled colour bar, ``footer`` lines;
    ``moved``: per position the check's grid (:func:`bid_grid`)."""
    from ..reports.charts import new_figure
    from ..reports.wording import bidding_position_name as position_label

    fig = new_figure(*A4_INCHES)
    n_rows = math.ceil(players / 2)
    grid = fig.add_gridspec(n_rows + 1, 2, height_ratios=[1.0] * n_rows + [0.34])
    axes = []
    im = None
    for pos in range(players):
        ax = fig.add_subplot(grid[pos // 2, pos % 2])
        im = bid_grid(ax, tables[f"best_bid_pos{pos}"], tables[f"separated_pos{pos}"],
                      n_tricks, f"{position_label(pos, players)} to bid", fontsize=6.5,
                      moved=None if moved is None else moved[pos])
        axes.append(ax)
    if im is not None:
        fig.colorbar(im, ax=axes, shrink=0.6, location="right", ticks=range(n_tricks + 1),
                     label="optimal bid (tricks to take)")
    foot = fig.add_subplot(grid[n_rows, :])
    foot.axis("off")
    text = "\n".join([
        "How to read: find your bidding position, your high-card points (A=4 K=3 Q=2 J=1) and "
        "your length in the trump suit;",
        "the number is the contract with the highest expected score. Orange outline: bid zero. "
        "Hatched: " + UNSURE.split(": ", 1)[1] + ".",
        *footer,
    ])
    foot.text(0.0, 1.0, text, ha="left", va="top", fontsize=6.2, wrap=True,
              transform=foot.transAxes, family="DejaVu Sans")
    fig.suptitle(title, fontsize=12, fontweight="bold")
    return fig


def figure_pdf(fig) -> bytes:
    """The figure as PDF bytes (A4 when made by :func:`cheat_sheet`)."""
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="pdf", metadata={"Creator": None, "Producer": None,
                                             "CreationDate": None})
    return buf.getvalue()
