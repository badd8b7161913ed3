"""The bid chart's report: Markdown, ``cells.csv``, the heat maps, the cheat sheet, and the words
around them (a summary first, the check's verdicts, a glossary last).

:func:`write_chart_report` writes what a chart run
(:func:`whist_sim.analyses.advisor.bidchart.bid_chart`) found, from its per-hand frame, through
:func:`~whist_sim.analyses.advisor.chart_cells.chart_tables`; it is re-exported by
:mod:`whist_sim.analyses.advisor.bidchart`, where the chart is made. Conventions are the bid
chart's: bidding positions ``0..P-1`` (0 = declarer), points per deal, intervals at 95 %.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ...core.rules import Rules
from .chart_cells import chart_tables
from .chart_strata import MIN_CELL, MIN_PROB

__all__ = ["CHART_TERMS", "chart_glossary", "chart_meta", "chart_summary", "write_chart_report"]


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
    "within 2 points": (
        "the share of a cell's hands whose own best bid scores at most 2 points per deal more "
        "than the cell's bid."),
    "cost": (
        "what bidding the cell's bid costs a hand of the cell, on average, against the hand's "
        "own best bid (points per deal; the own best is the largest of several estimates, so "
        "this leans high)."),
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
            f"{share_text((shown['fit'] * shown['hands']).sum() / shown['hands'].sum())}); "
            f"for {share_text(shown['near_fit'].mean())} the cell's bid scores within 2 points "
            f"per deal of the hand's own best, and it costs a hand "
            f"{shown['cost'].mean():.1f} points per deal on average. "
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
             "within 2 points", "cost",
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
    from ..reports.render import glossary_markdown

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
        "every cell's bid is legal for every hand it covers. *Within 2 points*: the share of "
        "its hands whose own best scores at most 2 points per deal more than the cell's bid; "
        "*cost*: the mean of that shortfall, what following the chart costs a hand against its "
        "own evaluation.", "",
        markdown_rows(
            ["position", "cells", "mean fit", "within 2 points", "cost (points per deal)",
             "split classes", "cells of split classes"],
            ([_pos(int(pos), players), str(len(g)), share_text(g["fit"].mean()),
              share_text(g["near_fit"].mean()), f"{g['cost'].mean():.1f}",
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
