"""Bid charts (issue 5): the expected-score-optimal contract of many sampled hands, by hand class.

For hand ``i`` of a chart (seed ``S``) a full deal is played up to the contracts by the bidding
strategy (the first of the deals ``64 i .. 64 i + 63`` of run ``S`` that is not thrown in), so
declarer, trump, level and the earlier contracts are realistic. The player is the seat at bidding
position ``i % P`` (0 = declarer ... ``P-1`` = the hooked last bidder); its hand at the start of
play is fixed, the other hands are re-sampled ``deals_per_hand`` times (uniformly, or
bid-consistently), and every legal contract is played out on the same sampled deals
(:mod:`whist_sim.kernels.advise_batch`). Per hand: the expected score (points), P(make), expected
tricks and P(over) of every contract, the optimal contract (highest expected score; ties: the
lower) and whether bidding zero beats every other contract.

:func:`bid_chart` runs the hands in chunks on an executor (local threads or a Dask cluster:
:mod:`whist_sim.runs.executors`); results depend only on the seed and the options.
:func:`chart_tables`
aggregates them by hand class (high-card points x trump length, per position; under vs. over) and
:func:`write_chart_report` writes Markdown, heat maps (PNG) and optionally the per-hand Parquet.

Conventions: positions are bidding positions ``0..P-1`` (0 = declarer); per contract ``b`` the
columns hold raw values (points, fractions), NaN where ``b`` is illegal; means and standard errors
come from sums (:func:`whist_sim.core.stats.mean_interval_from_sums`); bad options raise
:class:`ChartError`. This module uses the advisor's policy arrays
(:mod:`whist_sim.advisor.sampling`) and nothing else of the advisor; the compiled kernels,
matplotlib and tqdm are imported where used.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..core.cards import STRAINS, SUIT_MASKS
from ..core.rng import mix64
from ..core.rules import Rules
from ..kernels.layout import deck_array, new_state, rules_array, sampler_scratch
from ..runs.executors import Executor, ExecutorError, check_executor_options, make_executor
from ..strategies.registry import DEFAULT_PLAY, PolicyError
from ..strategies.spec import check_play
from .sampling import check_model, policy_arrays

__all__ = [
    "DEFAULT_DEALS_PER_HAND",
    "DEFAULT_HANDS",
    "HCP_BANDS",
    "ChartError",
    "ChartTask",
    "bid_chart",
    "chart_tables",
    "run_chart_chunk",
    "write_chart_report",
]

DEFAULT_HANDS = 10_000
DEFAULT_DEALS_PER_HAND = 200
DEFAULT_CHUNK = 50  # hands per task
MAX_TRIES = 200_000  # per sampled deal with --consistent; a hand that needs more is dropped
HCP_BANDS = (0, 3, 5, 7, 9, 11, 13, 16, 19)  # lower edges of the high-card-point bands
TRUMP_LENGTHS = ("0", "1", "2", "3", "4", "5", "6", "7+", "NT")  # columns of the heat maps
MIN_CELL = 10  # hands needed to show a cell of a heat map or table


class ChartError(ValueError):
    """Bad options for a bid chart."""


@dataclass(frozen=True)
class ChartTask:
    """The options of one chart run, shipped to every task (picklable)."""

    hands: int
    deals_per_hand: int
    seed: int
    rules: Rules
    bid: str
    play: str
    consistent: bool
    chunk_size: int


def run_chart_chunk(task: ChartTask, index: int) -> dict[str, np.ndarray]:
    """Hands ``index * chunk_size ..`` (at most ``chunk_size``) of the chart: raw arrays.

    Keys: ``hand_index``, ``deal``, ``declarer`` (-1: thrown in every time), ``trump``, ``level``,
    ``seat``, ``position``, ``hand`` (uint64), ``earlier`` (``[n, P]``, -1 after the player),
    ``tries``, and per contract (``[n, N+1]``) ``n``, ``sum``, ``sq``, ``made``, ``tricks``,
    ``over`` (see :func:`whist_sim.kernels.advise_batch.chart_kernel`).
    """
    from ..kernels.advise_batch import chart_kernel
    from ..kernels.conditional import unconstrained

    rules = task.rules
    p, n = rules.players, rules.n_tricks
    start = index * task.chunk_size
    count = max(0, min(task.chunk_size, task.hands - start))
    pol, par = policy_arrays(p, task.bid, task.play)
    st, hm, rng = new_state()
    k = n + 1
    out = {
        "scen": np.zeros((count, 6), dtype=np.int64),
        "hand": np.zeros(count, dtype=np.uint64),
        "earlier": np.zeros((count, p), dtype=np.int64),
        **{name: np.zeros((count, k), dtype=np.int64)
           for name in ("n", "sum", "sq", "made", "tricks", "over")},
        "tries": np.zeros(count, dtype=np.int64),
    }
    chart_kernel(
        np.uint64(mix64(task.seed)), np.int64(start), np.int64(count),
        np.int64(task.deals_per_hand), rules_array(rules), deck_array(rules),
        np.uint64(rules.deck_mask), pol, par, bool(task.consistent), np.int64(MAX_TRIES),
        st, hm, rng, *sampler_scratch(), np.empty_like(st), np.empty_like(hm),
        np.zeros(p, dtype=np.uint64), np.zeros(p, dtype=np.int64),
        unconstrained(p, rules.hand_size), np.zeros(k, dtype=np.int64),
        np.zeros(k, dtype=np.int64), *(np.zeros(k, dtype=np.int64) for _ in range(3)),
        out["scen"], out["hand"], out["earlier"], out["n"], out["sum"], out["sq"], out["made"],
        out["tricks"], out["over"], out["tries"],
    )
    scen = out.pop("scen")
    out["hand_index"] = np.arange(start, start + count, dtype=np.int64)
    for j, name in enumerate(("deal", "declarer", "trump", "level", "seat", "position")):
        out[name] = scen[:, j]
    return out


def _check(name: str, v: Any, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
        raise ChartError(f"{name} must be a whole number in {lo}..{hi}, got {v!r}")
    return int(v)


def bid_chart(
    hands: int = DEFAULT_HANDS,
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
) -> pd.DataFrame:
    """Evaluate ``hands`` sampled hands with ``deals_per_hand`` deals each (see the module doc).

    ``bid``: the bidding strategy of every seat (auction, earlier contracts, later bidders'
    model: one of :data:`whist_sim.advisor.sampling.MODEL_BID_POLICIES`); ``play``: the play
    policy of every seat (default :data:`~whist_sim.strategies.registry.DEFAULT_PLAY`).
    ``consistent``: sample only deals in which the earlier bidders' strategy makes their
    contracts. ``threads`` / ``scheduler`` / ``cluster`` choose the executor as for ``simulate``
    (``executor``: an already started one, not closed here).

    Returns one row per hand (thrown-in and dropped hands excluded; ``df.attrs`` holds the run
    options and counts): ``hand_index``, ``deal``, ``declarer``, ``trump`` (0..4), ``level``,
    ``seat``, ``position``, ``hand`` (uint64), ``hcp``, ``trump_len`` (-1 in NT),
    ``earlier_sum``, ``deals``, ``tries``, per contract ``b``: ``ev_b`` (points; NaN if illegal),
    ``p_make_b``, ``e_tricks_b``, ``p_over_b``; then ``best_bid``, ``best_ev``, ``best_se``,
    ``best_p_make``, ``best_e_tricks``, ``best_p_over``, ``over`` (P(over) at the best bid >
    1/2), ``zero_legal`` and ``zero_best`` (zero beats every other contract).
    """

    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ChartError(f"rules must be a whist_sim.Rules, got {type(rules).__name__}")
    hands = _check("hands", hands, 1, 10**9)
    deals_per_hand = _check("deals per hand", deals_per_hand, 1, 10**7)
    seed = _check("seed", seed, 0, (1 << 64) - 1)
    chunk_size = _check("chunk size", chunk_size, 1, 10**7)
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
    task = ChartTask(hands, deals_per_hand, seed, rules, bid, play, bool(consistent), chunk_size)
    n_chunks = -(-hands // chunk_size)
    t0 = time.perf_counter()
    parts: dict[int, dict[str, np.ndarray]] = {}
    ex = executor if executor is not None else make_executor(threads, scheduler, cluster)
    try:
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=hands, unit="hand", desc="bid chart", dynamic_ncols=True)
        for idx, res in ex.map_unordered(functools.partial(run_chart_chunk, task),
                                         range(n_chunks)):
            parts[idx] = res
            if bar is not None:
                bar.update(len(res["hand_index"]))
        if bar is not None:
            bar.close()
        description = ex.description
    finally:
        if executor is None:
            ex.close()
    raw = {key: np.concatenate([parts[i][key] for i in range(n_chunks)])
           for key in parts[0]}
    df = hands_frame(raw, rules)
    df.attrs.update({
        "hands": hands, "deals_per_hand": deals_per_hand, "seed": seed, "bid": bid, "play": play,
        "consistent": bool(consistent), "rules": rules.to_dict(),
        "thrown_in": int((raw["declarer"] < 0).sum()),
        "dropped": int(((raw["declarer"] >= 0) & (raw["tries"] < 0)).sum()),
        "deals_tried": int(np.abs(raw["tries"]).sum()),
        "executor": description, "wall_s": time.perf_counter() - t0,
    })
    return df


def hands_frame(raw: dict[str, np.ndarray], rules: Rules) -> pd.DataFrame:
    """The per-hand DataFrame of :func:`bid_chart` from the concatenated raw chunk arrays."""
    from ..core.stats import mean_interval_from_sums
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
    return pd.DataFrame(cols)


# --------------------------------------------------------------------------- tables


def _band_labels(edges: Sequence[int]) -> list[str]:
    out = []
    for i, lo in enumerate(edges):
        if i + 1 < len(edges):
            hi = edges[i + 1] - 1
            out.append(str(lo) if hi == lo else f"{lo}-{hi}")
        else:
            out.append(f"{lo}+")
    return out


def _classes(df: pd.DataFrame) -> pd.DataFrame:
    labels = _band_labels(HCP_BANDS)
    band = np.searchsorted(np.asarray(HCP_BANDS), df["hcp"].to_numpy(), side="right") - 1
    tl = df["trump_len"].to_numpy()
    tcol = np.where(tl < 0, "NT", np.where(tl >= 7, "7+", tl.astype(str)))
    out = df.copy()
    out["hcp_band"] = pd.Categorical(np.asarray(labels)[band], categories=labels, ordered=True)
    classes = [c for c in TRUMP_LENGTHS if c != "NT" or (tl < 0).any()]  # NT only if it occurs
    out["trump_class"] = pd.Categorical(tcol, categories=classes, ordered=True)
    return out


def _pivot(df: pd.DataFrame, value: str, min_n: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    g = df.groupby(["hcp_band", "trump_class"], observed=False)[value]
    mean = g.mean().unstack("trump_class")
    count = g.count().unstack("trump_class")  # hands with a value (NaN: not applicable)
    return mean.where(count >= min_n), count


def chart_tables(df: pd.DataFrame, players: int = 4,
                 min_n: int = MIN_CELL) -> dict[str, pd.DataFrame]:
    """Aggregate tables of a :func:`bid_chart` frame.

    Keys (``pos`` = bidding position 0..P-1):

    * ``optimal_bid_pos<pos>``: mean optimal contract by HCP band (rows) x trump length (columns;
      ``NT`` = no-trump deals, left out when there are none), cells with fewer than ``min_n``
      hands blank;
    * ``expected_tricks_pos<pos>``: mean expected tricks at the optimal contract, same layout;
    * ``count_pos<pos>``: hands per cell;
    * ``zero_best_pos<pos>`` (non-declarer positions): share of the hands that may bid zero for
      which zero beats every other contract;
    * ``summary``: per position and under/over: hands, mean optimal bid, mean expected tricks,
      mean best expected score, zero-best share;
    * ``by_hcp_over``: mean optimal bid by HCP band x (position, under/over).
    """
    c = _classes(df)
    out: dict[str, pd.DataFrame] = {}
    for pos in range(players):
        part = c[c["position"] == pos]
        out[f"optimal_bid_pos{pos}"], out[f"count_pos{pos}"] = _pivot(part, "best_bid", min_n)
        out[f"expected_tricks_pos{pos}"] = _pivot(part, "best_e_tricks", min_n)[0]
        if pos > 0:
            # only hands that may bid zero (the hooked bidder may not when the others sum to N)
            z = part.assign(zb=np.where(part["zero_legal"], part["zero_best"].astype(float),
                                        np.nan))
            out[f"zero_best_pos{pos}"] = _pivot(z, "zb", min_n)[0]
    c = c.assign(zb=np.where(c["zero_legal"], c["zero_best"].astype(float), np.nan))
    out["summary"] = c.groupby(["position", "over"]).agg(
        hands=("best_bid", "size"), optimal_bid=("best_bid", "mean"),
        expected_tricks=("best_e_tricks", "mean"), best_ev=("best_ev", "mean"),
        zero_best_share=("zb", "mean"),
    )
    g = c.groupby(["hcp_band", "position", "over"], observed=False)["best_bid"]
    mean, count = g.mean(), g.size()
    out["by_hcp_over"] = mean.where(count >= min_n).unstack(["position", "over"])
    return out


# --------------------------------------------------------------------------- report


def _heatmaps(tables: dict[str, pd.DataFrame], key: str, players: int, title: str,
              fmt: str, cmap: str, positions: Sequence[int], vmin: float, vmax: float,
              label: str):
    from ..reports.charts import new_figure
    from ..reports.labels import position_label

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
    from ..reports.labels import position_label

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
    fig.suptitle("Optimal bid by HCP: deals heading under vs. over", fontsize=10)
    return fig


def _md_table(t: pd.DataFrame, fmt: str) -> str:
    head = "| HCP \\ trumps | " + " | ".join(str(c) for c in t.columns) + " |"
    sep = "|---|" + "---|" * len(t.columns)
    rows = [head, sep]
    for idx, r in t.iterrows():
        cells = ["" if math.isnan(v) else format(v, fmt) for v in r.to_numpy(float)]
        rows.append(f"| {idx} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def write_chart_report(df: pd.DataFrame, out: str | Path, command: str | None = None,
                       rules: Rules | None = None, parquet: bool = False, dpi: int = 100,
                       extra_meta: dict[str, str] | None = None) -> list[Path]:
    """Write ``report.md`` and heat maps (``charts/*.png``) of a chart into ``out``; with
    ``parquet`` also the per-hand rows (``hands.parquet``). Returns the files written."""
    from ..reports.charts import figure_png
    from ..reports.labels import position_label

    rules = Rules.from_dict(df.attrs["rules"]) if rules is None and "rules" in df.attrs else (
        rules or Rules())
    p = rules.players
    out = Path(out)
    (out / "charts").mkdir(parents=True, exist_ok=True)
    tables = chart_tables(df, p)
    written: list[Path] = []
    charts = {
        "optimal_bid": _heatmaps(tables, "optimal_bid", p, "Mean EV-optimal bid", ".1f",
                                 "viridis", range(p), 0, rules.n_tricks,
                                 "mean optimal bid (tricks)"),
        "expected_tricks": _heatmaps(tables, "expected_tricks", p,
                                     "Mean expected tricks at the optimal bid", ".1f",
                                     "viridis", range(p), 0, rules.n_tricks,
                                     "mean expected tricks"),
        "zero_bid": _heatmaps(tables, "zero_best", p, "Share of hands where bidding zero beats "
                              "every other bid", ".0%", "magma", range(1, p), 0, 1,
                              "share of hands where zero is best"),
        "over_under": _over_under_chart(tables, p),
    }
    for name, fig in charts.items():
        path = out / "charts" / f"{name}.png"
        path.write_bytes(figure_png(fig, dpi))
        written.append(path)
    a = df.attrs
    from .. import __version__

    meta = {
        "hands": f"{a.get('hands', len(df)):,} sampled ({len(df):,} evaluated; "
                 f"{a.get('thrown_in', 0)} thrown in every time, {a.get('dropped', 0)} dropped)",
        "deals per hand": f"{a.get('deals_per_hand', '?'):,}" if isinstance(
            a.get("deals_per_hand"), int) else "?",
        "seed": str(a.get("seed", "?")),
        "bidding / play": f"{a.get('bid', '?')} / {a.get('play', '?')}",
        "sampling": "bid-consistent" if a.get("consistent") else "uniform hidden hands",
        "rules": str(rules),
        "whist-sim": __version__,
    }
    if command:
        meta["command"] = f"`{command}`"
    meta.update(extra_meta or {})
    s = tables["summary"].reset_index()
    lines = [
        "# Bid charts: the expected-score-optimal contract by hand class",
        "",
        *(f"- **{k}**: {v}" for k, v in meta.items()),
        "",
        "Method: each hand comes from a deal played up to the contracts by the bidding strategy",
        "(declarer, trump, level and the earlier contracts as they were bid); the player is the",
        "seat at bidding position `hand % P`. Its hand is fixed, the hidden hands are re-sampled",
        "for every deal, and every legal contract is played out on the same sampled deals (common",
        "random numbers; later bidders bid by the strategy, the last one hooked). The optimal bid",
        "has the highest mean score. HCP: A=4 K=3 Q=2 J=1; trump length: cards of the trump suit",
        f"(`NT`: no-trump deals). Cells with fewer than {MIN_CELL} hands are blank. Under/over:",
        "whether the deal ends over (contracts sum above the tricks) in most samples at the",
        "optimal bid.",
        "",
        "## Summary by position",
        "",
        "| position | deal goes | hands | mean optimal bid | mean expected tricks | "
        "mean best score | zero beats all |",
        "|---|---|---|---|---|---|---|",
    ]
    for _, r in s.iterrows():
        z = "" if math.isnan(r["zero_best_share"]) else f"{r['zero_best_share']:.1%}"
        lines.append(
            f"| {position_label(int(r['position']), p)} | {'over' if r['over'] else 'under'} | "
            f"{int(r['hands']):,} | {r['optimal_bid']:.2f} | {r['expected_tricks']:.2f} | "
            f"{r['best_ev']:.1f} | {z} |"
        )
    lines += ["", "## Optimal bid", "", "![optimal bid](charts/optimal_bid.png)", ""]
    for pos in range(p):
        lines += [f"### {position_label(pos, p)}", "",
                  _md_table(tables[f"optimal_bid_pos{pos}"], ".1f"), ""]
    lines += ["## Expected tricks at the optimal bid", "",
              "![expected tricks](charts/expected_tricks.png)", "",
              "## Zero bids", "",
              "Share of hands (non-declarers) for which bidding zero has a higher expected score",
              "than every other legal contract.", "", "![zero bid](charts/zero_bid.png)", ""]
    for pos in range(1, p):
        lines += [f"### {position_label(pos, p)}", "",
                  _md_table(tables[f"zero_best_pos{pos}"], ".0%"), ""]
    lines += ["## Under vs. over", "", "![under vs over](charts/over_under.png)", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    written.insert(0, path)
    if parquet:
        pq = out / "hands.parquet"
        tmp = out / ".hands.parquet.tmp"
        frame = df.copy()
        frame.attrs = {}
        frame.to_parquet(tmp, index=False)
        tmp.replace(pq)
        written.append(pq)
    return written


def strain_name(trump: int) -> str:
    """``'C'``..``'S'`` or ``'NT'`` for a strain code."""
    return STRAINS[int(trump)]
