"""Tournament output: Markdown tables and report, terminal text, JSON, the chart, CSV and HTML.

Conventions:

* Everything renders a **summary** (the dict :func:`whist_sim.analyses.tournament.tournament`
  returns, also ``summary.json``); nothing here computes a statistic. Tables come from the frames of
  :mod:`whist_sim.analyses.tournament.results` and go through the reports' renderer
  (:mod:`whist_sim.analyses.reports.render`): the Markdown tables as pre-formatted cells
  (:func:`~whist_sim.analyses.reports.render.markdown_text_table`), CSV and HTML as a
  :class:`~whist_sim.analyses.reports.report.Report` of the raw frames, like any dataset report.
* Cells: means and differences with 2 decimals, rates in percent with 1, p-values with 3 (2
  significant digits below 0.001, ``< 1e-300`` for 0), shrink factors as ``1.23x``; a missing
  value is ``-``. Strategy names are code spans.
* Output formats (:data:`OUTPUT_FORMATS`): ``md`` (the default) is ``report.md`` with
  ``tournament.png``; ``csv`` adds ``tables/<name>.csv``; ``html`` adds a self-contained
  ``report.html``. ``summary.json`` is always written.
* The reports' renderer (and with it matplotlib) is imported when first needed, so importing a
  tournament stays light.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...core.rules import Rules
from .results import pairs_frame, ranking_frame, sprt_frame
from .schedule import TournamentError

OUTPUT_FORMATS = ("md", "csv", "html")


def parse_output_formats(text: str | Iterable[str]) -> tuple[str, ...]:
    """``"md,csv"`` -> ``("md", "csv")`` (any of :data:`OUTPUT_FORMATS`, at least one)."""
    items = text.split(",") if isinstance(text, str) else list(text)
    out: list[str] = []
    for f in (str(i).strip().lower() for i in items):
        if not f:
            continue
        f = {"markdown": "md", "htm": "html"}.get(f, f)
        if f not in OUTPUT_FORMATS:
            raise TournamentError(
                f"unknown output format {f!r} (--format: use any of {', '.join(OUTPUT_FORMATS)})"
            )
        if f not in out:
            out.append(f)
    if not out:
        raise TournamentError(f"no output format given (use any of {', '.join(OUTPUT_FORMATS)})")
    return tuple(out)


# --------------------------------------------------------------------------- cells


def _missing(v: float | None) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def fmt(v: float | None, nd: int = 2) -> str:
    """A number with ``nd`` decimals and a real minus sign, ``-`` if missing."""
    from ..reports.wording import number_text

    return "-" if v is None or _missing(v) else number_text(float(v), nd)


def pct(v: float | None) -> str:
    """A fraction in percent with one decimal, ``-`` if missing."""
    return "-" if _missing(v) else f"{100 * v:.1f}%"


def fmt_p(v: float | None) -> str:
    """A p-value: 3 decimals, 2 significant digits below 0.001, ``< 1e-300`` for 0."""
    if _missing(v):
        return "-"
    if v == 0.0:
        return "< 1e-300"
    return f"{v:.2g}" if v < 0.001 else f"{v:.3f}"


def _times(v: float | None) -> str:
    return "-" if _missing(v) else f"{v:.2f}x"


def _interval(lo: float | None, hi: float | None) -> str:
    """A 95 % interval in a table cell: ``0.32 to 0.48`` (real minus signs)."""
    if _missing(lo) or _missing(hi):
        return "-"
    return f"{fmt(lo)} to {fmt(hi)}"


def _markdown(cells: list[list[str]], heads: list[str], align: str) -> str:
    """Rows of text cells as a Markdown table; ``align``: one ``l`` / ``r`` per column."""
    from ..reports.render import markdown_text_table

    df = pd.DataFrame(cells, columns=heads, dtype=object) if cells else pd.DataFrame(
        columns=heads, dtype=object)
    return markdown_text_table(df, ["right" if a == "r" else "left" for a in align])


# --------------------------------------------------------------------------- Markdown tables

RANKING_HEADERS = [
    "rank", "strategy", "mean score / deal", "95% CI", "hit rate",
    "made: declarer / other / zero", "zero bids", "zeros made",
    "over deals", "hit over / under", "over- / undertricks", "declarer", "mean level",
]
PAIRS_HEADERS = [
    "a", "b", "diff (a - b)", "95% CI (duplicate)", "p", "95% CI, as many independent deals",
    "shrink", "95% CI, as many independent plays", "shrink",
]
SPRT_HEADERS = ["a", "b", "decision", "deals", "LLR"]


def ranking_table(summary: dict[str, Any]) -> str:
    """Markdown table of the entries, best mean score first."""
    df = ranking_frame(summary)
    cells = [
        [str(rank), f"`{r.strategy}`", fmt(r.mean), _interval(r.mean_ci_low, r.mean_ci_high),
         pct(r.hit_rate),
         f"{pct(r.declarer_hit_rate)} / {pct(r.other_hit_rate)} / {pct(r.zero_success)}",
         pct(r.zero_rate), pct(r.zero_success), pct(r.over_share),
         f"{pct(r.hit_rate_over)} / {pct(r.hit_rate_under)}",
         f"{pct(r.overtrick_rate)} / {pct(r.undertrick_rate)}", pct(r.declarer_rate),
         fmt(r.mean_level)]
        for rank, r in zip(df.index, df.itertuples(index=False), strict=True)
    ]
    return _markdown(cells, RANKING_HEADERS, "rlrlrlrrrllrr")


def pairs_table(summary: dict[str, Any]) -> str:
    """Markdown table of the pairwise differences (duplicate and independent CIs)."""
    df = pairs_frame(summary)
    cells = [
        [f"`{a}`", f"`{b}`", fmt(r.diff), _interval(r.diff_ci_low, r.diff_ci_high), fmt_p(r.p),
         _interval(r.independent_ci_low, r.independent_ci_high), _times(r.shrink),
         _interval(r.independent_plays_ci_low, r.independent_plays_ci_high),
         _times(r.shrink_plays)]
        for (a, b), r in zip(df.index, df.itertuples(index=False), strict=True)
    ]
    return _markdown(cells, PAIRS_HEADERS, "llrlrlrlr")


def sprt_table(summary: dict[str, Any]) -> str | None:
    """Markdown table of every pair's sequential test, or ``None`` without one."""
    df = sprt_frame(summary)
    if df is None:
        return None
    cells = [[f"`{a}`", f"`{b}`", r.decision, f"{r.deals:,}", f"{r.llr:.3f}"]
             for (a, b), r in zip(df.index, df.itertuples(index=False), strict=True)]
    return _markdown(cells, SPRT_HEADERS, "lllrr")


CHECK_RANKING_HEADERS = ["strategy", "mean / deal", "check: mean / deal", "check: 95% CI",
                         "zeros made", "check: zeros made"]
CHECK_PAIRS_HEADERS = ["a", "b", "diff (a - b)", "95% CI", "check: diff", "check: 95% CI",
                       "verdict", "check could see"]


def check_frames(summary: dict[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """The check's entrants and pairs as raw frames (answer and check side by side, the
    answer's ranking order; every pair with its verdict, the difference its check could have
    seen when it cannot tell, and ``holds``), or ``None`` for an unchecked summary."""
    c = summary.get("check")
    if not c or not c.get("strategies"):
        return None
    by_name = {s["name"]: s for s in c["strategies"]}
    ents = pd.DataFrame([{
        "strategy": name, "check_strategy": by_name[name]["check_name"],
        "mean": by_name[name]["mean"], "check_mean": by_name[name]["check_mean"],
        "check_ci_low": by_name[name]["check_ci"][0], "check_ci_high": by_name[name]["check_ci"][1],
        "zero_success": by_name[name]["zero_success"],
        "check_zero_success": by_name[name]["check_zero_success"],
    } for name in c["ranking"]["answer"]])
    pairs = pd.DataFrame([{
        "a": p["a"], "b": p["b"], "diff": p["diff"], "ci_low": p["ci"][0], "ci_high": p["ci"][1],
        "check_diff": p["check_diff"], "check_ci_low": p["check_ci"][0],
        "check_ci_high": p["check_ci"][1], **_pair_verdict(p), "holds": p["holds"],
    } for p in c["pairs"]], columns=["a", "b", "diff", "ci_low", "ci_high", "check_diff",
                                     "check_ci_low", "check_ci_high", "verdict", "detectable",
                                     "holds"])
    return ents, pairs


def _pair_verdict(p: dict[str, Any]) -> dict[str, Any]:
    """A pair's verdict and the difference its check could have seen (derived for a summary
    written before the verdicts)."""
    if p.get("verdict") is not None:
        return {"verdict": p["verdict"], "detectable": p.get("detectable")}
    from ..answer_check import difference_verdict

    ci = p["check_ci"]
    v = difference_verdict(p["diff"] or 0.0, None if ci[0] is None else ci)
    return {"verdict": v.word, "detectable": v.detectable}


def check_head(summary: dict[str, Any]) -> str | None:
    """What the check played, in words: its play named with the ladder's measured edge (or as
    another play) and its deals; ``None`` for an unchecked summary."""
    c = summary.get("check")
    if not c or not c.get("strategies"):
        return None
    label = c.get("label") or f"another play, {c['play']}"
    return (f"Checked against {label}: the first {c['deals']:,} deals again, every entrant "
            f"given without its own play policy playing `{c['play']}`")


def check_verdict(summary: dict[str, Any]) -> str | None:
    """The check's verdict on the ranking in one line (confirmed; not contradicted, with the
    difference the check could have seen; or contradicted, :data:`RANKING_CHANGES`), or
    ``None`` for an unchecked summary."""
    from ..answer_check import CONFIRMED, CONTRADICTED, difference_verdict, ranking_verdict
    from .ranking_check import RANKING_CHANGES

    c = summary.get("check")
    if not c:
        return None
    if not c.get("strategies"):
        return f"Not checked against search: {c.get('note', 'nothing to check')}."
    head = check_head(summary)
    word, why = c.get("verdict"), c.get("verdict_why")
    if word is None:  # a summary written before the verdicts: derive them
        v = ranking_verdict([difference_verdict(p["diff"] or 0.0, p["check_ci"])
                             for p in c["pairs"]])
        word, why = v.word, v.why
    if word == CONTRADICTED:
        return (f"{head}: **{RANKING_CHANGES}** ({why}; a pair marked *contradicted* is "
                "clearly reversed).")
    if word == CONFIRMED:
        return f"{head}: the ranking is **confirmed** ({why})."
    order = ("" if c["same_order"] else
             "; the check's point estimates order them " +
             ", ".join(f"`{n}`" for n in c["ranking"]["check"]) + ", within its noise")
    return f"{head}: the ranking is **not contradicted** ({why}{order})."


def rank_line(summary: dict[str, Any]) -> str | None:
    """Which entrants keep their rank under the check's play (point estimates), e.g. ``Rank
    under expert -> under rollout:n=16: `a` 1 -> 2, `b` 2 -> 1; keeps its rank: none.``;
    ``None`` for an unchecked summary."""
    c = summary.get("check")
    if not c or not c.get("ranking"):
        return None
    before, after = c["ranking"]["answer"], c["ranking"]["check"]
    moves = ", ".join(f"`{n}` {i + 1} -> {after.index(n) + 1}" for i, n in enumerate(before))
    kept = [f"`{n}`" for i, n in enumerate(before) if after.index(n) == i]
    return (f"Rank under `{summary.get('play', 'the answer')}` -> under `{c['play']}`: {moves}; "
            f"keeps its rank: {', '.join(kept) if kept else 'none'}.")


def check_lines(summary: dict[str, Any]) -> list[str]:
    """The check as Markdown: the verdict, the ranks under both plays and two tables
    (entrants, pairs with their verdicts), or nothing."""
    verdict = check_verdict(summary)
    if verdict is None:
        return []
    frames = check_frames(summary)
    if frames is None:
        return [verdict]
    ranks = rank_line(summary)
    if ranks is not None:
        verdict = f"{verdict} {ranks}"
    ents, pairs = frames
    e_cells = [[f"`{r.strategy}`", fmt(r.mean), fmt(r.check_mean),
                _interval(r.check_ci_low, r.check_ci_high), pct(r.zero_success),
                pct(r.check_zero_success)] for r in ents.itertuples(index=False)]
    p_cells = [[f"`{r.a}`", f"`{r.b}`", fmt(r.diff), _interval(r.ci_low, r.ci_high),
                fmt(r.check_diff), _interval(r.check_ci_low, r.check_ci_high),
                _verdict_cell(r.verdict, r.holds), _seen(r.detectable)]
               for r in pairs.itertuples(index=False)]
    return [verdict, "", _markdown(e_cells, CHECK_RANKING_HEADERS, "lrrlrr"), "",
            _markdown(p_cells, CHECK_PAIRS_HEADERS, "llrlrllr")]


def _verdict_cell(word: Any, holds: bool) -> str:
    from ..answer_check import CONTRADICTED

    return f"**{word}**" if word == CONTRADICTED else str(word)


def _seen(v: Any) -> str:
    return "-" if _missing(v) else f"{float(v):.1f}"


# --------------------------------------------------------------------------- report, text, JSON


def _rules_text(rules: dict[str, Any]) -> str:
    """The rules in words (the rule book's, or what differs from it)."""
    from ..reports.wording import rules_in_words

    try:
        return rules_in_words(rules)
    except (TypeError, ValueError, KeyError):  # a summary of another version's rules
        default = Rules().to_dict()
        diff = {k: v for k, v in rules.items() if default.get(k) != v}
        return ", ".join(f"{k}={v}" for k, v in diff.items()) or "the rule book's rules"


#: the tournament report's own terms (the others come from the reports' glossary)
TOURNAMENT_TERMS = {
    "strategy": (
        "a bidding strategy (trump auction and contract), written BID/PLAY with the card play "
        "its seats use: heuristic/learned bids by the heuristic and plays by learned."),
    "seating": (
        "one assignment of the strategies to the seats (dealer, second, third, fourth); every "
        "deal is played once under each seating, so every strategy holds every hand."),
    "mean score per deal": (
        "a strategy's points per seat and deal, averaged over its seats and the seatings of "
        "each deal."),
    "hit rate": "the share of a strategy's contracts made exactly (thrown-in deals left out).",
    "difference (a - b)": (
        "strategy a's mean score per deal minus strategy b's, paired deal by deal: above 0, a "
        "scores more."),
    "p": (
        "the chance of a difference at least this large if the two strategies were equally "
        "good; small p: a clear difference."),
    "shrink": (
        "how many times narrower the duplicate interval is than the interval as many "
        "independent deals would give."),
    "SPRT": (
        "a sequential test that stops as soon as the deals played decide between two "
        "differences named in advance."),
    "check could see": (
        "the smallest difference, points per deal, that a check which cannot tell the two "
        "apart would have found with 80 % power."),
    "games won": "a strategy's share of the duplicate games to the target it won.",
}


def summary_sentences(summary: dict[str, Any]) -> list[str]:
    """The report's opening in sentences with numbers: what was played, who scored most and
    least, whether the top two are told apart, and what the check says."""
    from ..reports.wording import points_interval

    ents = summary["strategies"]
    if games_only(summary) or not ents:
        return []
    order = sorted(range(len(ents)), key=lambda i: -(ents[i]["mean"] if not _missing(
        ents[i]["mean"]) else -math.inf))
    best, worst = ents[order[0]], ents[order[-1]]
    n_seat = len(summary["seatings"])
    out = [
        f"{len(ents)} strategies played {summary['deals']:,} duplicate deals, each deal under "
        f"{n_seat} seatings so that every strategy held every hand ({summary['plays']:,} "
        f"plays); every seat played `{play_text(summary)}` card play, under "
        f"{_rules_text(summary['rules'])}.",
        f"`{best['name']}` scored most, {_points(best)} per deal; `{worst['name']}` least, "
        f"{_points(worst)} per deal.",
    ]
    if len(order) > 1:
        second = ents[order[1]]
        pair = next((p for p in summary["pairs"]
                     if {p["a"], p["b"]} == {best["name"], second["name"]}), None)
        if pair is not None and not _missing(pair["diff"]):
            sign = 1.0 if pair["a"] == best["name"] else -1.0
            d = sign * pair["diff"]
            lo, hi = sorted(sign * float(x) for x in pair["ci"])
            clear = ("a clear difference" if lo > 0 else
                     "its interval holds 0: these deals cannot tell the two apart")
            out.append(f"`{best['name']}` beats the second, `{second['name']}`, by "
                       f"{points_interval(d, lo, hi)} per deal: {clear}.")
    c = summary.get("check")
    if c and c.get("strategies") and c.get("verdict"):
        out.append(f"Played again with every seat searching ({c['play']}, the first "
                   f"{c['deals']:,} deals), the ranking is {c['verdict']}: {c['verdict_why']}.")
    return out


def _points(entry: dict[str, Any]) -> str:
    from ..reports.wording import points_interval

    return points_interval(entry["mean"], entry["ci"][0], entry["ci"][1], sign=False)


def glossary_terms(summary: dict[str, Any]) -> list[str]:
    """The terms the tournament report uses, in the order a reader meets them."""
    terms = ["strategy", "duplicate deals", "seating", "dealer, second, third, fourth",
             "play", "points", "mean score per deal", "95 % interval", "contract", "made",
             "hit rate", "declarer", "zero bid", "over deal", "under deal",
             "difference (a - b)", "p", "shrink"]
    if summary.get("sprt"):
        terms.append("SPRT")
    if summary.get("check"):
        terms += ["check", "confirmed", "not contradicted", "contradicted", "check could see"]
    if summary.get("games"):
        terms.append("games won")
    return terms


def glossary_lines(summary: dict[str, Any]) -> list[str]:
    """The report's last section: every term it uses, defined."""
    from ..reports.render import glossary_markdown

    return [glossary_markdown(glossary_terms(summary), TOURNAMENT_TERMS), ""]


def games_table(summary: dict[str, Any]) -> str | None:
    """Markdown table of the duplicate games (win rate, final margin), best win rate first;
    ``None`` without games."""
    g = summary.get("games")
    if not g:
        return None
    rows = sorted(g["entries"], key=lambda e: -(e["win_rate"] or 0.0))
    cells = [[str(i + 1), f"`{e['name']}`", pct(e["win_rate"]), _pct_interval(e["win_ci"]),
              fmt(e["margin"], 1), _interval(*e["margin_ci"])] for i, e in enumerate(rows)]
    return _markdown(cells, ["rank", "strategy", "games won", "95% CI", "final margin",
                             "95% CI"], "rlrlrl")


def games_frame(summary: dict[str, Any]) -> pd.DataFrame:
    """The games section as a frame, best win rate first: index ``rank`` (1..), columns
    ``strategy``, ``win_rate``, ``win_ci_low``, ``win_ci_high``, ``margin``, ``margin_ci_low``,
    ``margin_ci_high`` (raw numbers; missing ones ``nan``)."""
    rows = sorted(summary["games"]["entries"], key=lambda e: -(e["win_rate"] or 0.0))
    nan = float("nan")
    frame = pd.DataFrame([{
        "strategy": e["name"], "win_rate": nan if e["win_rate"] is None else e["win_rate"],
        "win_ci_low": nan if e["win_ci"][0] is None else e["win_ci"][0],
        "win_ci_high": nan if e["win_ci"][1] is None else e["win_ci"][1],
        "margin": nan if e["margin"] is None else e["margin"],
        "margin_ci_low": nan if e["margin_ci"][0] is None else e["margin_ci"][0],
        "margin_ci_high": nan if e["margin_ci"][1] is None else e["margin_ci"][1],
    } for e in rows])
    frame.index = pd.RangeIndex(1, len(rows) + 1, name="rank")
    return frame


def _pct_interval(ci: list[float | None]) -> str:
    lo, hi = ci
    return "" if lo is None or hi is None else f"[{pct(lo)}, {pct(hi)}]"


def games_lines(summary: dict[str, Any]) -> list[str]:
    """The games section: what was played, the table, and whether the two rankings agree."""
    g = summary.get("games")
    if not g:
        return []
    r = g.get("ranking")
    agree = ("" if r is None else "agree" if r.get("agree") else
             f"differ (points: {', '.join(r.get('by_points', []))}; games: "
             f"{', '.join(r.get('by_games', []))})")
    lines = [
        f"{g['games']:,} duplicate games to {g['target']} under {g['seatings']} seatings: "
        f"{g['mean_deals']:.1f} deals a game (longest {g['max_game_deals']}), "
        f"{g['unfinished']} unfinished after {g['max_deals']} deals. Games won: the entry's share "
        "of the win (a shared win is split), averaged over the seatings; final margin: its best "
        "final total minus the best total of the other entries; CI: Student t over games.",
        "",
        games_table(summary) or "",
    ]
    if r is not None:  # a tournament of games only has no points per deal to rank by
        lines += ["", f"Ranking by points per deal and by games won {agree}."]
    c, check = g.get("check"), summary.get("check") or {}
    if c:
        lines += ["", f"Checked against search: the order by games won is **{c['verdict']}** by "
                  f"the check's points per deal ({c['verdict_why']}; "
                  f"{check.get('label') or check.get('play')}, {check.get('deals', 0):,} "
                  "deals)."]
    elif r is not None:
        lines += ["", "The order by games won is not checked against search (the tournament's "
                  "check did not play)."]
    return lines


def games_only(summary: dict[str, Any]) -> bool:
    """A tournament of games only (``--games`` without ``--deals``): no per-deal statistics."""
    return not summary["deals"] and bool(summary.get("games"))


def play_text(summary: dict[str, Any]) -> str:
    """The play policies of a summary: ``expert`` when every entrant plays it, else
    ``a: heuristic, b: expert`` (entrant: play policy)."""
    plays = [s.get("play", summary["play"]) for s in summary["strategies"]]
    if all(p == summary["play"] for p in plays):
        return str(summary["play"])
    return ", ".join(f"{s['name']}: {p}" for s, p in zip(summary["strategies"], plays,
                                                          strict=True))


def render_markdown(summary: dict[str, Any], chart: str | None = None,
                    title: str = "Strategy tournament") -> str:
    """The Markdown report of a tournament summary."""
    n_seat = len(summary["seatings"])
    lines = [f"# {title}", ""]
    opening = summary_sentences(summary)
    if opening:
        lines += ["## Summary", "", " ".join(opening), ""]
    if summary.get("command"):
        lines += [f"Command: `{summary['command']}`", ""]
    if games_only(summary):
        return "\n".join(lines + [
            f"- games only, each played under {n_seat} seatings ({summary['rotations']}); seed "
            f"{summary['seed']}; play policy `{play_text(summary)}`;",
            f"- rules: {_rules_text(summary['rules'])}; whist-sim {summary['version']}.",
            "", "## Games", "", *games_lines(summary), "", *glossary_lines(summary)])
    lines += [
        f"- {summary['deals']:,} {summary['design']} deals (requested "
        f"{summary['deals_requested']:,}), each played under {n_seat} seatings "
        f"({summary['rotations']}): "
        f"{summary['plays']:,} plays; seed {summary['seed']}; play policy "
        f"`{play_text(summary)}`;",
        f"- rules: {_rules_text(summary['rules'])}; thrown-in plays "
        f"{pct(summary['thrown_in_rate'])};",
        f"- {summary['plays_per_s'] or 0:,.0f} plays/s on {summary['executor']} "
        f"({summary['wall_s']:.1f} s), whist-sim {summary['version']}.",
        "",
        "Mean score per deal = an entry's points per seat, averaged over its seats and the "
        "seatings of the deal; CI: Student t over deals. Rates are over the entry's seat-plays "
        "that were not thrown in; *made* by role: contracts made as declarer, as another "
        "player with a contract above zero, and as a zero bidder.",
        "",
        ranking_table(summary),
        "",
        "## Pairwise differences",
        "",
        "Paired over deals (the same cards for both). For comparison, the intervals the same "
        "data would give without duplication (from the spread of the difference in single "
        "plays): with as many independent deals (each played once), and with as many independent "
        "plays (the same computing cost). *Shrink*: how many times narrower the duplicate "
        "interval is.",
        "",
        pairs_table(summary),
        "",
    ]
    if summary.get("sprt"):
        s = summary["sprt"]
        lines += [
            "## Sequential test",
            "",
            f"SPRT H0: diff = {s['h0']:g} vs H1: diff = {s['h1']:g} points per deal, alpha = "
            f"beta = {s['alpha']:g}, bounds {s['bounds'][0]:.3f} / {s['bounds'][1]:.3f}; "
            f"{'stopped' if s['stopped'] else 'not all decided'} after {s['deals']:,} deals.",
            "",
            sprt_table(summary),
            "",
        ]
    if summary.get("check"):
        lines += ["## Checked against search", "", *check_lines(summary), ""]
    if summary.get("games"):
        lines += ["## Games", "", *games_lines(summary), ""]
    if chart:
        lines += [f"![each strategy's mean score per deal with its 95 % interval, and how "
                  f"much each beats each other]({chart})", ""]
    lines += glossary_lines(summary)
    return "\n".join(lines)


def render_text(summary: dict[str, Any], out: str | Path) -> str:
    """What ``whist-sim tournament`` prints: the two tables, the SPRT decisions, a last line (a
    tournament of games only: the games section and a last line)."""
    if games_only(summary):
        g = summary["games"]
        return "\n".join([*games_lines(summary),
                          f"\n{g['games']:,} games x {g['seatings']} seatings in "
                          f"{g['wall_s']:.1f} s; written to {out}"])
    lines = [ranking_table(summary), "", pairs_table(summary)]
    if summary.get("sprt"):
        for p in summary["pairs"]:
            t = p["sprt"]
            lines.append(f"SPRT {p['a']} vs {p['b']}: {t['decision'] or 'undecided'} after "
                         f"{t['deals']:,} deals (LLR {t['llr']:.3f})")
    if summary.get("check"):
        lines += ["", *check_lines(summary)]
    if summary.get("games"):
        lines += ["", *games_lines(summary)]
    lines.append(f"\n{summary['deals']:,} deals x {len(summary['seatings'])} seatings = "
                 f"{summary['plays']:,} plays in {summary['wall_s']:.1f} s; written to {out}")
    return "\n".join(lines)


def render_json(summary: dict[str, Any], indent: int | None = None) -> str:
    """The summary as JSON (``indent=1`` in ``summary.json``, one line for ``--json``)."""
    return json.dumps(summary, indent=indent)


# --------------------------------------------------------------------------- chart


def chart_figure(summary: dict[str, Any], title: str | None = None):
    """Figure: mean score per entry with 95 % CI error bars, and the pairwise difference matrix."""
    from ..reports.charts import new_figure

    ents = summary["strategies"]
    labels = [s["name"] for s in ents]
    k = len(labels)
    fig = new_figure(11.0, 4.4)
    ax1, ax2 = fig.subplots(1, 2, width_ratios=[1.1, 1.0])
    means = np.array([s["mean"] if s["mean"] is not None else np.nan for s in ents])
    lo = np.array([s["ci"][0] if s["ci"][0] is not None else np.nan for s in ents])
    hi = np.array([s["ci"][1] if s["ci"][1] is not None else np.nan for s in ents])
    err = np.nan_to_num(np.vstack([means - lo, hi - means]))
    y = np.arange(k)
    ax1.barh(y, means, xerr=err, capsize=3, color="#4c72b0", error_kw={"elinewidth": 1})
    ax1.set_yticks(y, labels)
    ax1.invert_yaxis()
    ax1.axvline(0, color="0.3", lw=0.8)
    ax1.set_xlabel("mean score per deal (points per seat)")
    ax1.set_title("Mean score per deal of each strategy (bars: 95 % interval)", fontsize=9)
    mat = np.full((k, k), np.nan)
    sig = np.zeros((k, k), dtype=bool)
    index = {n: i for i, n in enumerate(labels)}
    for p in summary["pairs"]:
        a, b = index[p["a"]], index[p["b"]]
        if p["diff"] is None:
            continue
        mat[a, b], mat[b, a] = p["diff"], -p["diff"]
        s = p["p"] is not None and p["p"] < 0.05
        sig[a, b] = sig[b, a] = s
    lim = np.nanmax(np.abs(mat)) if np.isfinite(mat).any() else 1.0
    lim = lim if lim > 0 else 1.0
    im = ax2.imshow(mat, cmap="RdBu", vmin=-lim, vmax=lim)
    ax2.set_xticks(range(k), labels, rotation=30, ha="right")
    ax2.set_yticks(range(k), labels)
    for i in range(k):
        for j in range(k):
            if np.isfinite(mat[i, j]):
                ax2.text(j, i, f"{mat[i, j]:+.1f}{'*' if sig[i, j] else ''}", ha="center",
                         va="center", fontsize=8,
                         color="white" if abs(mat[i, j]) > 0.6 * lim else "black")
    ax2.set_title("How much the row's strategy beats the column's, points per deal\n"
                  "(* a clear difference, p < 0.05)", fontsize=9)
    fig.colorbar(im, ax=ax2, shrink=0.8, label="row minus column (points per deal)")
    fig.suptitle(title or f"Which bidding strategy scores most: {summary['deals']:,} "
                          f"{summary['design']} deals x {len(summary['seatings'])} seatings")
    return fig


def chart_png(summary: dict[str, Any], title: str | None = None) -> bytes:
    """:func:`chart_figure` as PNG bytes."""
    from ..reports.charts import figure_png

    return figure_png(chart_figure(summary, title))


# --------------------------------------------------------------------------- CSV and HTML


def tournament_report(summary: dict[str, Any], title: str = "Strategy tournament"):
    """The summary as a :class:`~whist_sim.analyses.reports.report.Report` (tables: ``ranking``,
    ``pairs``, ``sprt``; chart: ``tournament``), for the reports' CSV and HTML renderers."""
    from ..reports.report import ChartItem, Report, Section, TableItem

    n_seat = len(summary["seatings"])
    meta = {
        "deals": f"{summary['deals']:,} {summary['design']} (requested "
                 f"{summary['deals_requested']:,})",
        "seatings": f"{n_seat} ({summary['rotations']}), {summary['plays']:,} plays",
        "seed": str(summary["seed"]),
        "play policy": play_text(summary),
        "rules": _rules_text(summary["rules"]),
        "version": str(summary["version"]),
    }
    if summary.get("command"):
        meta["command"] = summary["command"]
    items: list[Any] = [
        TableItem("ranking", "Ranking", ranking_frame(summary),
                  "mean score per deal (points per seat) with its 95% CI, best first"),
        ChartItem("tournament", "Mean score and pairwise differences",
                  lambda: chart_figure(summary)),
    ]
    sections = [
        Section("Strategies", "Mean score per deal = an entry's points per seat, averaged over "
                "its seats and the seatings of the deal; CI: Student t over deals.",
                tuple(items)),
        Section("Pairwise differences", "Paired over deals; for comparison, the intervals as "
                "many independent deals and as many independent plays would give.",
                (TableItem("pairs", "Pairwise differences (a - b)", pairs_frame(summary)),)),
    ]
    if games_only(summary):
        sections = [Section("Games", "Games won: the entry's share of the win, averaged over the "
                            "seatings; final margin: its best final total minus the best total "
                            "of the other entries; CI: Student t over games.",
                            (TableItem("games", "Games", games_frame(summary)),))]
        return Report(title, meta, tuple(sections), players=int(summary["players"]),
                      **_words(summary))
    if summary.get("games"):
        sections.append(Section("Games", "Duplicate games to the target under every seating.",
                                (TableItem("games", "Games", games_frame(summary)),)))
    checked = check_frames(summary)
    if checked is not None:
        sections.append(Section(
            "Checked against search", check_verdict(summary) or "",
            (TableItem("check_ranking", "Mean score per deal under both plays", checked[0]),
             TableItem("check_pairs", "Pairwise differences under both plays", checked[1]))))
    sprt = sprt_frame(summary)
    if sprt is not None:
        s = summary["sprt"]
        sections.append(Section(
            "Sequential test", f"SPRT H0: diff = {s['h0']:g} vs H1: diff = {s['h1']:g} points "
            f"per deal, alpha = beta = {s['alpha']:g}.",
            (TableItem("sprt", "Sequential test per pair", sprt),)))
    return Report(title, meta, tuple(sections), players=int(summary["players"]),
                  **_words(summary))


def _words(summary: dict[str, Any]) -> dict[str, Any]:
    """The report's summary in sentences and its glossary, for the reports' renderers."""
    from ..reports.wording import glossary_rows

    return {"summary": " ".join(summary_sentences(summary)),
            "glossary": tuple(glossary_rows(glossary_terms(summary), TOURNAMENT_TERMS))}


def write_outputs(out: Path, summary: dict[str, Any],
                  formats: str | Iterable[str] = ("md",)) -> list[Path]:
    """Write ``summary.json`` and, per format, ``report.md`` and ``tournament.png`` (``md``),
    ``tables/*.csv`` (``csv``), ``report.html`` (``html``) into ``out``."""
    from ...runs.dataset import atomic_write_bytes

    fmts = parse_output_formats(formats)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "summary.json"]
    atomic_write_bytes(paths[0], (render_json(summary, indent=1) + "\n").encode())
    if "md" in fmts and games_only(summary):  # no points per deal to chart
        paths.append(out / "report.md")
        atomic_write_bytes(paths[1], render_markdown(summary).encode())
    elif "md" in fmts:
        paths += [out / "report.md", out / "tournament.png"]
        atomic_write_bytes(paths[1], render_markdown(summary, chart="tournament.png").encode())
        atomic_write_bytes(paths[2], chart_png(summary))
    extra = [f for f in fmts if f in ("csv", "html")]
    if extra:
        from ..reports.render import write_report

        paths += write_report(tournament_report(summary), out, formats=extra)
    return paths
