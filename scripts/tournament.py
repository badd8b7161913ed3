"""Tournament results for the built-in bidding strategies: ``results/tournament/``.

    python scripts/tournament.py --data data/default --out results [--deals N] [--mc-deals N]

Two duplicate designs, both with the default play policy (``DEFAULT_PLAY``, ``learned``) at every
seat, rule book defaults and seed 2026:

1. **Field** (every built-in strategy): strategy X in one seat against three ``heuristic`` players
   (``--strategies X,heuristic,heuristic,heuristic --rotations 4``: X sits in every seat once per
   deal). Every field tournament uses the same seed, so the same deals, seatings and opponents:
   X's per-deal score is paired, deal by deal, with the score of a heuristic player in X's seat
   (the X = heuristic run), which gives each strategy's gain over the baseline with a paired CI
   and p-value. ``montecarlo`` (a simulation per decision) runs ``--mc-deals`` deals.
2. **Round robin** of the four best fast strategies of the field (all 24 seatings), with
   ``--games`` duplicate games to 500 under every seating: each strategy's probability of winning
   a game and mean final margin, and whether ranking by points per deal and by games won agree;
   checked against search (``--check``, default ``rollout:n=16``; ``--no-check``): its first
   deals again with every seat searching, the ranking and every pair under both plays.
3. **The play model**: the fast strategies' field again under ``heuristic`` play (the play of the
   earlier results), and whether their ranking changes.
4. **No Trump**: ``heuristic:nt=0`` (no NT estimate) in the field's seat, paired with the
   heuristic: what bidding No Trump is worth.

The runs (per-deal Parquet scores, summaries) go to ``WORK/<run>/`` (default ``data/tournament``,
beside the default dataset); a complete run with the same options is reused, so a second run only
rewrites the report. The report (``OUT/tournament/report.md``, ``field.png``,
``round_robin.png``) names the commands, seeds, deal counts, throughput and version.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np
from report_default import command_line

from whist_sim import __version__
from whist_sim.analyses.answer_check import DEFAULT_CHECK_PLAY, add_check_arguments, parsed_check
from whist_sim.analyses.reports.render import markdown_rows
from whist_sim.analyses.tournament import (
    SCORES_DIR,
    TournamentError,
    chart_png,
    load_scores,
    pairs_table,
    ranking_table,
    tournament,
)
from whist_sim.analyses.tournament.checkpoint import CHUNKS_DIR
from whist_sim.analyses.tournament.render import check_lines, fmt_p, games_lines
from whist_sim.compiled.ground._numba import engine_fingerprint
from whist_sim.compiled.strategies.registry import DEFAULT_PLAY
from whist_sim.core.stats import Moments, paired_test

NAME = "tournament"
SEED = 2026
DEALS = 1_000_000
MC_DEALS = 200_000
FIELD = ("random", "heuristic", "hcp", "ltc", "cautious", "aggressive", "learned", "montecarlo")
BASELINE = "heuristic"
SLOW = ("montecarlo",)
OLD_PLAY = "heuristic"  # the play of the earlier results: the fast field is run again under it
MC_CHUNK = 500  # deals per task for montecarlo (about 2,000 simulated-decision plays)
NO_NT = "heuristic:nt=0"  # the heuristic without its No Trump estimate
GAMES = 200  # duplicate games of the round robin (each under all 24 seatings)


def _run(work: Path, name: str, strategies: list[str], deals: int, rotations: str | int,
         threads: int | None, progress: bool, chunk_size: int | None = None,
         games: int = 0, play: str = DEFAULT_PLAY, check: str | None = None) -> dict[str, Any]:
    """Run (or reuse) one tournament in ``work/name`` under ``play`` (checked against the
    searching play ``check`` when given); return its summary."""
    out = work / name
    summary_file = out / "summary.json"
    want = {"deals_requested": deals, "seed": SEED, "rotations": _rot(rotations),
            "strategies": strategies, "play": play, "engine": engine_fingerprint(),
            "check": check}
    if summary_file.is_file():
        old = json.loads(summary_file.read_text())
        have = {"deals_requested": old["deals_requested"], "seed": old["seed"],
                "rotations": old["rotations"], "strategies": [s["strategy"]
                                                             for s in old["strategies"]],
                "play": old.get("play"), "engine": old.get("engine"),
                "check": (old.get("check") or {}).get("play")}
        if have == want and old["deals"] == deals and (old.get("games") or {}).get(
                "games", 0) == games:
            print(f"tournament: reusing {out}", flush=True)
            return old
    if out.exists():  # an interrupted or different run of this script: start it again
        if set(p.name for p in out.iterdir()) - {SCORES_DIR, CHUNKS_DIR, "summary.json",
                                                   "report.md", "tournament.png"}:
            raise TournamentError(f"{out} holds files this script did not write; move it away")
        shutil.rmtree(out)
    print(f"tournament: {name}: {','.join(strategies)}, {deals:,} deals", flush=True)
    cmd = (f"whist-sim tournament --strategies {','.join(strategies)} --deals {deals} "
           f"--seed {SEED} --rotations {rotations} --out {name}"
           + (f" --games {games}" if games else "")
           + (f" --play {play}" if play != DEFAULT_PLAY else "")
           + ("" if check == DEFAULT_CHECK_PLAY else " --no-check" if check is None
              else f" --check {check}"))
    return tournament(strategies, deals, SEED, rotations=rotations, out=out, threads=threads,
                      progress=progress, chunk_size=chunk_size, command=cmd, games=games,
                      play=play, check=check)


def _rot(rotations: str | int) -> str:
    return "all" if str(rotations) == "all" else "rotate"


def _paired_vs_baseline(work: Path, name: str, base: str, deals: int) -> dict[str, Any]:
    """Per-deal score of entry 0 of run ``name`` minus entry 0 of run ``base`` (same deals,
    seatings and opponents), over the first ``deals`` deals: mean, CI, p."""
    x = load_scores(work / name)
    h = load_scores(work / base)
    n = min(len(x), len(h), deals)
    d = x.iloc[:n, 1].to_numpy(float) - h.iloc[:n, 1].to_numpy(float)
    mean, lo, hi, p = paired_test(Moments.of(d))
    return {"diff": mean, "ci": [lo, hi], "p": p, "deals": n, "sd": float(np.std(d, ddof=1))}


def _interval(lo: float, hi: float) -> str:
    """A 95 % interval in a table cell: ``+0.32 to +0.48`` (real minus signs)."""
    from whist_sim.analyses.reports.wording import signed

    return f"{signed(lo, 2)} to {signed(hi, 2)}"


def field_check(r: dict[str, Any]) -> tuple[str, str, str]:
    """The field row's check: the strategy's gain over a heuristic bidder in its seat with
    every seat searching (its paired 95 % interval, :func:`field_checks`), and the verdict on
    the gain under the default play; a row without a check says why."""
    from whist_sim.analyses.reports.wording import signed

    c = r.get("check")
    if r["name"] == BASELINE:
        return "-", "-", "baseline"
    if not c or c.get("ci") is None:
        why = "not checked (a search inside a search)" if r["name"] in SLOW else "not checked"
        return "-", "-", why
    word = c["verdict"] if c.get("detectable") is None else (
        f"{c['verdict']} (could see {c['detectable']:.1f})")
    return signed(c["diff"], 2), _interval(*c["ci"]), word


def field_check_deals(rows: list[dict[str, Any]], deals: int) -> int:
    """The deals of the field's check: enough to see a gain of 2 points per deal with 80 %
    power from the spread of the fast strategies' paired gains, at most the tournaments'
    cost cap (:func:`~whist_sim.analyses.tournament.ranking_check.tournament_check_deals`)."""
    from whist_sim.analyses.answer_check import TARGET_DIFFERENCE, deals_for_power
    from whist_sim.analyses.tournament.ranking_check import CHECK_FLOOR, tournament_check_deals

    cap = tournament_check_deals(deals)
    sds = [r["gain"]["sd"] for r in rows
           if r["name"] not in SLOW and r["name"] != BASELINE and r["gain"].get("sd")]
    want = deals_for_power(max(sds), TARGET_DIFFERENCE) if sds else cap
    return max(1, min(deals, cap, max(CHECK_FLOOR, want)))


def field_checks(work: Path, rows: list[dict[str, Any]], deals: int, check: str,
                 threads: int | None, progress: bool) -> None:
    """Check the field: the first :func:`field_check_deals` deals of every fast field run again
    with every seat playing ``check``, the baseline's too, so that each strategy's gain over a
    heuristic bidder in its seat is measured under the search as under the default play (the
    same deals, seatings and opponents). Sets each row's ``check``: ``play``, ``deals``,
    ``diff``, ``ci``, ``p`` (the gain under the search, points per deal), ``verdict``,
    ``verdict_why`` and ``detectable`` (on the gain under the default play)."""
    from whist_sim.analyses.answer_check import difference_verdict

    m = field_check_deals(rows, deals)
    for r in rows:
        if r["name"] in SLOW:
            continue
        _run(work, f"field-{r['name']}-check", [r["name"], BASELINE, BASELINE, BASELINE], m,
             4, threads, progress, play=check)
    for r in rows:
        if r["name"] in SLOW:
            continue
        if r["name"] == BASELINE:
            r["check"] = {"play": check, "deals": m, "baseline": True}
            continue
        g = _paired_vs_baseline(work, f"field-{r['name']}-check", f"field-{BASELINE}-check", m)
        v = difference_verdict(float(r["gain"]["diff"]), g["ci"])
        r["check"] = {"play": check, "deals": g["deals"], "diff": g["diff"], "ci": g["ci"],
                      "p": g["p"], "verdict": v.word, "verdict_why": v.why,
                      "detectable": v.detectable}


def field_table(rows: list[dict[str, Any]]) -> str:
    """Markdown ranking of the field tournaments, best mean score first, each row with its
    check: the strategy against the heuristics with every seat searching."""

    def row(i: int, r: dict[str, Any]) -> list[str]:
        g = r["gain"]
        base = r["name"] == BASELINE
        return [
            str(i), f"`{r['name']}`", f"{r['deals']:,}", f"{r['mean']:.2f}",
            _interval(*r["ci"]), "baseline" if base else f"{g['diff']:+.2f}",
            "-" if base else _interval(*g["ci"]),
            "-" if base else fmt_p(g["p"]), *field_check(r), f"{100 * r['hit_rate']:.1f}%",
            f"{100 * r['zero_rate']:.1f}% ({100 * (r['zero_success'] or 0):.0f}%)",
            f"{100 * r['declarer_rate']:.1f}%", f"{r['mean_level']:.2f}",
            f"{r['plays_per_s']:,.0f}",
        ]

    return markdown_rows(
        ["rank", "strategy", "deals", "mean score / deal", "95% CI",
         "gain over heuristic (paired)", "95% CI", "p", "check: gain over heuristic",
         "check: 95% CI", "check: verdict", "hit rate", "zero bids (made)",
         "declarer", "mean level", "plays/s"],
        (row(i, r) for i, r in enumerate(sorted(rows, key=lambda r: -r["mean"]), 1)),
        "rlrrlrlrrllrlrrr")


def field_chart(rows: list[dict[str, Any]]) -> bytes:
    """PNG: each strategy's mean score in the heuristic field, with 95 % CIs."""
    from whist_sim.analyses.reports.charts import figure_png, new_figure

    rows = sorted(rows, key=lambda r: r["mean"])
    fig = new_figure(7.5, 4.0)
    ax = fig.add_subplot()
    y = np.arange(len(rows))
    means = np.array([r["mean"] for r in rows])
    err = np.array([[r["mean"] - r["ci"][0] for r in rows], [r["ci"][1] - r["mean"] for r in rows]])
    colors = ["#c44e52" if r["name"] == BASELINE else "#4c72b0" for r in rows]
    ax.barh(y, means, xerr=err, capsize=3, color=colors, error_kw={"elinewidth": 1})
    ax.set_yticks(y, [f"{r['name']} ({r['deals']:,} deals)" for r in rows])
    ax.axvline(0, color="0.3", lw=0.8)
    inner = [r["ci"][0] for r in rows if r["ci"][0] > -40]  # random is far off: keep the scale
    left = min(-5.0, min(inner) - 3.0) if inner else None
    if left is not None and means.min() < left:
        ax.set_xlim(left=left)
        for yi, m in zip(y, means, strict=True):
            if m < left:
                ax.text(left + 0.3, float(yi), f"{m:.1f} (off scale)", va="center", ha="left",
                        color="white", fontsize=8)
    ax.set_xlabel("mean score per deal against three heuristic players (points)")
    ax.set_title("Each strategy's mean score per deal against three heuristic bidders "
                 "(bars: 95 % interval)", fontsize=9)
    return figure_png(fig)


def run(work: Path, out: Path, command: str, deals: int, mc_deals: int, threads: int | None,
        progress: bool, games: int = GAMES, check: str | None = DEFAULT_CHECK_PLAY) -> list[Path]:
    work.mkdir(parents=True, exist_ok=True)
    tournament([BASELINE, BASELINE], 1, SEED, progress=False, threads=1)  # compile or load first
    rows = []
    summaries = {}
    for x in FIELD:
        n = mc_deals if x in SLOW else deals
        name = f"field-{x}"
        s = _run(work, name, [x, BASELINE, BASELINE, BASELINE], n, 4, threads, progress,
                 chunk_size=MC_CHUNK if x in SLOW else None)
        summaries[x] = s
        e = s["strategies"][0]
        rows.append({**e, "name": x, "deals": s["deals"], "plays_per_s": s["plays_per_s"],
                     "shrink": s["pairs"][0]["ci_shrink"], "check": None})
    for r in rows:
        r["gain"] = _paired_vs_baseline(work, f"field-{r['name']}", f"field-{BASELINE}",
                                        r["deals"])
    # the field's check: every fast field run's first deals again with every seat searching,
    # the baseline's too, so that the gain over heuristic is measured under the search (not
    # montecarlo, whose every decision simulates the seats' own play: a search inside a search)
    if check is not None:
        field_checks(work, rows, deals, check, threads, progress)
    fast = [r["name"] for r in sorted(rows, key=lambda r: -r["mean"]) if r["name"] not in SLOW]
    top4 = fast[:4]
    rr = _run(work, "round-robin", top4, deals, "all", threads, progress, games=games,
              check=check)
    # the fast field again under heuristic play (seconds each): does the play model change the
    # ranking?
    old_rows = []
    if DEFAULT_PLAY != OLD_PLAY:
        for x in FIELD:
            if x in SLOW:
                continue
            s = _run(work, f"field-{x}-{OLD_PLAY}-play", [x, BASELINE, BASELINE, BASELINE],
                     deals, 4, threads, progress, play=OLD_PLAY)
            old_rows.append({**s["strategies"][0], "name": x, "deals": s["deals"]})
        for r in old_rows:
            r["gain"] = _paired_vs_baseline(work, f"field-{r['name']}-{OLD_PLAY}-play",
                                            f"field-{BASELINE}-{OLD_PLAY}-play", r["deals"])

    # the heuristic without its No Trump estimate, in the field's seat and deals
    nt0 = _run(work, f"field-{NO_NT}", [NO_NT, BASELINE, BASELINE, BASELINE], deals, 4,
               threads, progress)
    nt_gain = _paired_vs_baseline(work, f"field-{BASELINE}", f"field-{NO_NT}", deals)

    dest = out / NAME
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "field.png").write_bytes(field_chart(rows))
    (dest / "round_robin.png").write_bytes(chart_png(rr, title=(
        f"Round robin: {rr['deals']:,} duplicate deals x {len(rr['seatings'])} seatings")))
    text = _report(rows, summaries, rr, command, deals, mc_deals, nt_gain)
    if rr.get("check"):
        text += "\n" + "\n".join(["## The round robin checked against search", "",
                                  *check_lines(rr), ""])
    text += "\n" + nt_section(nt_gain, nt0, deals)
    if old_rows:
        text += "\n" + play_model_section(rows, old_rows, deals)
    text += "\n" + glossary(rr)
    (dest / "report.md").write_text(text, encoding="utf-8")
    return [dest / "report.md", dest / "field.png", dest / "round_robin.png"]


def nt_section(gain: dict[str, Any], nt0: dict[str, Any], deals: int) -> str:
    """Does bidding No Trump pay? The heuristic against ``heuristic:nt=0`` in the same seat."""
    lo, hi = gain["ci"]
    verdict = ("better than" if lo > 0 else "worse than" if hi < 0 else
               "as well as (the difference is within its interval)")
    return "\n".join([
        "## No Trump: the heuristic with and without its NT estimate",
        "",
        f"`{NO_NT}` (the heuristic as it was before it learnt to bid No Trump: balanced hands "
        "with a stopper in every suit, docs/STRATEGIES.md) in the field's seat, on the same "
        f"{deals:,} deals against the same three heuristic players: the heuristic's gain over it "
        f"is **{gain['diff']:+.3f}** points per deal, 95 % CI [{lo:+.3f}, {hi:+.3f}], "
        f"p = {fmt_p(gain['p'])} ({gain['deals']:,} duplicate deals x 4 seats). Bidding No Trump "
        f"scores {verdict} never bidding it. `{NO_NT}` scores "
        f"{nt0['strategies'][0]['mean']:.2f} points per deal there.",
        "",
    ])


def play_model_section(rows: list[dict[str, Any]], old_rows: list[dict[str, Any]],
                       deals: int) -> str:
    """Markdown: the field's ranking under the default play beside the one under ``OLD_PLAY``
    (the strategies both cover), and whether the order changed."""
    names = [r["name"] for r in old_rows]
    new = sorted((r for r in rows if r["name"] in names), key=lambda r: -r["mean"])
    old = sorted(old_rows, key=lambda r: -r["mean"])
    old_rank = {r["name"]: i for i, r in enumerate(old, 1)}
    old_by = {r["name"]: r for r in old}
    lines = [
        f"## Does the play model change the ranking? `{DEFAULT_PLAY}` against `{OLD_PLAY}` play",
        "",
        f"The field tournaments of the fast strategies again, with `{OLD_PLAY}` play at every "
        f"seat ({deals:,} duplicate deals each, the same deals and seatings): mean score per "
        "deal and the gain over a heuristic bidder in the same seat (paired 95 % CI), under the "
        "default play and under the old one. The check columns are the field's check (the "
        "strategy's gain over heuristic with every seat searching, on the field's first deals) "
        f"and its verdict on the gain under `{OLD_PLAY}` play.",
        "",
    ]

    def gain(x: dict[str, Any]) -> str:
        if x["name"] == BASELINE:
            return "baseline"
        g = x["gain"]
        return f"{g['diff']:+.2f} [{g['ci'][0]:+.2f}, {g['ci'][1]:+.2f}]"

    def checked(x: dict[str, Any]) -> tuple[str, str]:
        """The field's check of ``x`` (its gain over heuristic with every seat searching) and
        its verdict on the gain under the old play."""
        if x["name"] == BASELINE:
            return "-", "baseline"
        c = x.get("check")
        if not c or c.get("ci") is None:
            return "-", "not checked"
        from whist_sim.analyses.answer_check import difference_verdict

        v = difference_verdict(float(old_by[x["name"]]["gain"]["diff"]), c["ci"])
        seen = "" if v.detectable is None else f" (could see {v.detectable:.1f})"
        return f"{c['diff']:+.2f} [{c['ci'][0]:+.2f}, {c['ci'][1]:+.2f}]", v.word + seen

    lines.append(markdown_rows(
        [f"rank ({DEFAULT_PLAY})", "strategy", f"mean ({DEFAULT_PLAY})",
         f"gain over heuristic ({DEFAULT_PLAY})", f"rank ({OLD_PLAY})", f"mean ({OLD_PLAY})",
         f"gain over heuristic ({OLD_PLAY})", "check: gain over heuristic (search)",
         f"check: verdict on the {OLD_PLAY} gain"],
        ([str(i), f"`{r['name']}`", f"{r['mean']:.2f}", gain(r), str(old_rank[r["name"]]),
          f"{old_by[r['name']]['mean']:.2f}", gain(old_by[r["name"]]), *checked(r)]
         for i, r in enumerate(new, 1)),
        "rlrlrrlll"))
    same = [r["name"] for r in new] == [r["name"] for r in old]
    if same:
        verdict = (f"The ranking is the same under `{DEFAULT_PLAY}` and `{OLD_PLAY}` play; the "
                   "gains over heuristic change as the table shows.")
    else:
        moved = [r["name"] for r in new if old_rank[r["name"]] != new.index(r) + 1]
        verdict = (f"The ranking changes: {', '.join(f'`{m}`' for m in moved)} move "
                   f"(order under `{DEFAULT_PLAY}`: {', '.join(r['name'] for r in new)}; under "
                   f"`{OLD_PLAY}`: {', '.join(r['name'] for r in old)}).")
    lines += ["", verdict, ""]
    return "\n".join(lines)


def summary_sentences(rows: list[dict[str, Any]], rr: dict[str, Any],
                      nt_gain: dict[str, Any] | None = None) -> list[str]:
    """The report's opening in sentences with numbers: the field's best strategy and its gain
    over the heuristic, what the search says of it, the round robin's order and its check, and
    what bidding No Trump is worth."""
    from whist_sim.analyses.reports.wording import points_interval

    out = []
    others = sorted((r for r in rows if r["name"] != BASELINE), key=lambda r: -r["gain"]["diff"])
    if others:
        top = others[0]
        g = top["gain"]
        out.append(
            f"Against three heuristic bidders, `{top['name']}` gains most over a heuristic "
            f"bidder in its seat: {points_interval(g['diff'], g['ci'][0], g['ci'][1])} per deal "
            f"({top['deals']:,} duplicate deals, every seat playing `{DEFAULT_PLAY}`).")
        for r in others:
            c = r.get("check")
            if not c or c.get("ci") is None:
                continue
            out.append(
                f"With every seat searching ({c['play']}, {c['deals']:,} deals), "
                f"`{r['name']}`{'' if r is top else ', the best of the checked strategies,'} "
                f"gains "
                f"{points_interval(c['diff'], *c['ci'])} per deal over a heuristic bidder in "
                f"its seat: its gain is {c['verdict']} there.")
            break
        losers = [r for r in others if r["gain"]["ci"][1] < 0]
        if losers:
            out.append("Clearly worse than the heuristic: "
                       + ", ".join(f"`{r['name']}`" for r in losers) + ".")
    ents = sorted(rr["strategies"], key=lambda e: -(e["mean"] or 0.0))
    if ents:
        out.append(f"In the round robin of the four best fast strategies (all "
                   f"{len(rr['seatings'])} seatings, {rr['deals']:,} deals) the order is "
                   + ", ".join(f"`{e['name']}`" for e in ents) + ".")
        c = rr.get("check")
        if c and c.get("verdict"):
            out.append(f"Checked with every seat searching, that ranking is {c['verdict']} "
                       f"({c['verdict_why']}).")
    if nt_gain is not None:
        out.append(f"Bidding No Trump is worth "
                   f"{points_interval(nt_gain['diff'], nt_gain['ci'][0], nt_gain['ci'][1])} "
                   "per deal to the heuristic.")
    return out


def glossary(rr: dict[str, Any]) -> str:
    """The report's last section: the terms it uses."""
    from whist_sim.analyses.reports.render import glossary_markdown
    from whist_sim.analyses.tournament.render import TOURNAMENT_TERMS, glossary_terms

    extra = {
        "field": ("one strategy in one seat against three heuristic bidders, the four seats "
                  "rotated so that it sits in each once per deal."),
        "gain over heuristic": (
            "the strategy's score minus a heuristic bidder's in the same seat, on the same "
            "cards against the same opponents (paired deal by deal), points per deal."),
        "round robin": "the four strategies together at the table under every seating.",
    }
    terms = ["field", "gain over heuristic", "round robin", *glossary_terms(rr)]
    return glossary_markdown(terms, {**TOURNAMENT_TERMS, **extra}) + "\n"


def _report(rows, summaries, rr, command, deals, mc_deals, nt_gain=None) -> str:
    base = summaries[BASELINE]
    shrink = [p for s in summaries.values() for p in s["pairs"][:1]
              if p["ci_shrink"] is not None]
    mc = summaries.get("montecarlo")
    lines = [
        "# Strategy tournaments",
        "",
        "## Summary",
        "",
        " ".join(summary_sentences(rows, rr, nt_gain)),
        "",
        f"Made by `{command}` (whist-sim {__version__}); seed {SEED}, the rule book's rules, "
        f"`{DEFAULT_PLAY}` play at every seat. Every number below is reproducible from the seed.",
        "",
        "## Field: each strategy against three heuristic players",
        "",
        f"`whist-sim tournament --strategies X,heuristic,heuristic,heuristic --rotations 4 "
        f"--deals {deals} --seed {SEED}` for every strategy X (montecarlo: "
        f"{mc_deals:,} deals). X sits in each seat once per deal; all runs share the deals, so "
        "the *gain over heuristic* pairs X's score with a heuristic player's in the same seat on "
        "the same cards against the same opponents. Mean score per deal is in points per seat; "
        "CIs are Student t over deals.",
        "",
        _field_check_words(rows),
        "",
        field_table(rows),
        "",
        "![field](field.png)",
        "",
        f"The heuristic field itself scores {base['strategies'][1]['mean']:.2f} per seat per deal "
        "in the baseline run (all four seats heuristic).",
        "",
        f"## Round robin: {', '.join(rr['strategies'][i]['name'] for i in range(4))}",
        "",
        f"The four best fast strategies of the field, {rr['deals']:,} duplicate deals under all "
        f"{len(rr['seatings'])} seatings ({rr['plays']:,} plays, {rr['plays_per_s']:,.0f} "
        "plays/s).",
        "",
        ranking_table(rr),
        "",
        pairs_table(rr),
        "",
        "![round robin](round_robin.png)",
        "",
        *(["### Games", "", *games_lines(rr), ""] if rr.get("games") else []),
        "## Duplicate against independent deals",
        "",
        "The duplicate interval of a difference is narrower than the interval from as many "
        "independent deals (each played once) by the *shrink* factor: in the field runs "
        f"{min(p['ci_shrink'] for p in shrink):.1f}x to {max(p['ci_shrink'] for p in shrink):.1f}x"
        " (strategy against the heuristic next to it), in the round robin "
        f"{min(p['ci_shrink'] for p in rr['pairs']):.1f}x to "
        f"{max(p['ci_shrink'] for p in rr['pairs']):.1f}x. Per play (equal computing cost) the "
        "gain is small: with 4 rotations "
        f"{min(p['ci_shrink_plays'] for p in shrink):.2f}x to "
        f"{max(p['ci_shrink_plays'] for p in shrink):.2f}x, and with all 24 seatings "
        f"{min(p['ci_shrink_plays'] for p in rr['pairs']):.2f}x to "
        f"{max(p['ci_shrink_plays'] for p in rr['pairs']):.2f}x (below 1: the 24 seatings "
        "replay each deal-strategy interaction, which is most of the variance of a difference). "
        "Duplicate deals remove card luck exactly; for the most precision per CPU second, use "
        "`--rotations 4`.",
        "",
    ]
    if mc is not None:
        lines += [
            "## Throughput",
            "",
            f"Fast strategies: {base['plays_per_s']:,.0f} plays/s (4 rotations, "
            f"{base['executor']}). montecarlo ({_montecarlo_words()}): "
            f"{mc['plays_per_s']:,.0f} plays/s with one "
            f"montecarlo seat per play, {mc['deals']:,} deals in {mc['wall_s'] / 60:.0f} min.",
            "",
        ]
    return "\n".join(lines)


def _field_check_words(rows: list[dict[str, Any]]) -> str:
    """What the field table's check columns hold, in sentences."""
    from whist_sim.analyses.answer_check import check_label

    checked = [r for r in rows if r.get("check") and r["check"].get("ci") is not None]
    if not checked:
        return "The field is not checked against search (`--no-check`)."
    c = checked[0]["check"]
    return (f"Every field run but montecarlo's, the baseline's included, is played again on its "
            f"first {c['deals']:,} deals with every seat playing "
            f"{check_label(c['play'], DEFAULT_PLAY)}. *check: gain over heuristic* is the "
            "strategy's gain over a heuristic bidder in its seat measured there, paired deal by "
            "deal as the gain under the default play (95 % interval); *check: verdict* is the "
            "search's word on the gain under the default play: *confirmed* (the search finds a "
            "gain of the same sign), *not contradicted* (it cannot tell; it would have seen a "
            "difference of the size given, points per deal, 80 % power) or *contradicted* (the "
            "search finds the opposite). montecarlo is not checked: each of its decisions "
            "simulates the seats' own play, and a search inside a search is too slow.")


def _montecarlo_words() -> str:
    """How ``montecarlo`` plays at its registry defaults, for the report."""
    from whist_sim.compiled.strategies import parse_strategy

    v = parse_strategy("montecarlo").values()
    reads = (f"reading the table: each layout weighted by the others' calls and contracts "
             f"under their own strategies, eps {v['eps']:g}" if v["infer"] else
             "sampling the hidden hands uniformly")
    return (f"its defaults: n = {v['n']:g} samples per decision, every candidate call and "
            f"contract simulated, {reads}, rollouts with each seat's own play, here "
            f"`{DEFAULT_PLAY}`")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/default", help="default dataset directory")
    parser.add_argument("--out", default="results", help="results directory")
    parser.add_argument("--work", default=None,
                        help="directory of the tournament runs [default: DATA/../tournament]")
    parser.add_argument("--deals", type=int, default=DEALS, help=f"deals (default {DEALS:,})")
    parser.add_argument("--mc-deals", type=int, default=MC_DEALS,
                        help=f"deals of the montecarlo run (default {MC_DEALS:,})")
    parser.add_argument("--games", type=int, default=GAMES,
                        help=f"duplicate games of the round robin (default {GAMES})")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: every CPU)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    add_check_arguments(parser, "the round robin")
    args = parser.parse_args(argv)
    raw = sys.argv[1:] if argv is None else argv
    check = parsed_check(parser, args)
    work = Path(args.work) if args.work else Path(args.data).resolve().parent / "tournament"
    try:
        written = run(work, Path(args.out), command_line(__file__, raw), args.deals,
                      args.mc_deals, args.threads, not args.no_progress, args.games, check)
    except TournamentError as e:
        print(f"tournament: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ntournament: interrupted; finished runs are kept and reused", file=sys.stderr)
        return 130
    print(f"tournament: wrote {', '.join(str(p) for p in written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
