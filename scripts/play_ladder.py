"""Analysis: the ladder of play policies, written to RESULTS/play/.

    python scripts/play_ladder.py --data data/default --out results [--scale F | --deals N]

Play matches are duplicate tournaments with one bidding strategy (``heuristic`` at every seat)
and the play policies as entrants (``heuristic/random,heuristic/heuristic``: every deal replayed
under every seating, :func:`whist_sim.analyses.tournament.tournament`). The ladder is random,
heuristic, expert, learned, rollout with n = 8, 16 and 64 (base ``expert``), and the default
check (:data:`CHECK`, the search over the default play, ``rollout:n=16:base=learned`` today,
derived by :mod:`whist_sim.analyses.answer_check`); each match pits neighbours on the ladder
(:data:`MATCHES`; the three rollouts in one match, so every pair of them is compared on the same
deals). The step from the default play to the default check is what every output that shows a
check reads from ``ladder.json`` (:func:`whist_sim.analyses.answer_check.check_label`). For each
match: every entrant's mean points per deal with its 95 % interval, the paired differences with
p-values, and the contracts made by role (declarer, other players with a contract above zero,
zero bidders). Besides, each policy's deals/s on one thread
(:func:`whist_sim.analyses.bench.play.play_rate`, heuristic bidding, the policy at every seat).

The sizes (:data:`MATCHES`) are what the target statements need: expert against heuristic over
20,000 duplicate deals, rollout:n=16 against expert over 2,000, learned against expert over
20,000 and against rollout:n=16 over 2,000, the rollouts and the default check against learned
over 5,000; see :data:`MATCHES` for the time they take (about 12 minutes on two cores).
``--scale F`` multiplies every match's deals (at least 2 each), ``--deals N`` sets them all to N
(tests run the script tiny). The matches share the seed, so their deals are the same (the first
deals of the longest match).

Writes ``RESULTS/play/README.md`` (a summary in sentences first, then tables, the checks of the
target statements, provenance, and a glossary of its terms at the end),
``ladder.json`` (every match summary, the speeds, seeds, sizes, versions), ``matches.csv``,
``entrants.csv``, ``speed.csv`` and ``ladder.png`` (each step up the ladder: the difference with
its 95 % CI). Nothing else is written: the matches keep no per-deal scores.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from report_default import command_line, git_revision

from whist_sim import __version__
from whist_sim.analyses.answer_check import DEFAULT_CHECK_PLAY
from whist_sim.analyses.reports.render import glossary_markdown, markdown_rows
from whist_sim.analyses.reports.wording import (
    number_text,
    points_interval,
    share_text,
)
from whist_sim.analyses.tournament import TournamentError, tournament
from whist_sim.analyses.tournament.render import fmt_p
from whist_sim.compiled.strategies.registry import DEFAULT_PLAY
from whist_sim.compiled.strategies.spec import parse_seat, seat_text
from whist_sim.core.rules import Rules
from whist_sim.runs.executors import ExecutorError

NAME = "play"  # sub-directory of the results directory
SEED = 2026
BID = "heuristic"  # the bidding strategy of every seat in every match
#: the default check of every answer (the search over the default play, derived from it by
#: whist_sim.analyses.answer_check: rollout:n=16:base=learned today); its step from the default
#: play is what an output that shows a check reads (answer_check.check_label)
CHECK = DEFAULT_CHECK_PLAY
#: the ladder (play policy specs): the compiled plays weakest first, the searches over expert,
#: and the default check
LADDER = ("random", "heuristic", "expert", "learned", "rollout:n=8", "rollout:n=16",
          "rollout:n=64", "rollout:n=16:infer=0", CHECK)
ROTATIONS = "all"  # every distinct seating: 6 for two entrants, 12 for three
SPEED_SECONDS = 3.0  # seconds of play_rate per policy


@dataclass(frozen=True)
class Match:
    """One play match: ``plays`` (play policy specs, weakest first), ``deals`` duplicate deals."""

    name: str
    plays: tuple[str, ...]
    deals: int
    why: str
    bid: str = "heuristic"  # the bidding strategy of every seat (an entrant BID/PLAY names its own)
    rules: tuple[tuple[str, Any], ...] = ()  # rule options other than the rule book's
    within: float | None = None  # a variant's target: the searcher at most this far ahead

    def rules_value(self) -> Rules:
        """The match's rules: the rule book with :attr:`rules` changed."""
        return Rules(**dict(self.rules))

    def rule_flags(self) -> str:
        """The command-line options of :attr:`rules` (`` --players 3 ...``; empty for none)."""
        flags = self.rules_value().flags()
        return f" {flags}" if flags else ""


#: The matches and their sizes: the targets' (20,000 deals for heuristic-expert, 2,000 for
#: expert-rollout16), and 5,000 for the three rollouts, so that steps of about a point per deal
#: between them are well outside their intervals. Measured at full size on 2 cores shared with
#: other work (whist-sim 0.1.0): random-heuristic and heuristic-expert about a second each,
#: expert-rollout16 1 min (200 plays/s), the rollout match 9.3 min (107 plays/s: 12 seatings,
#: and n=64 plays about 4x slower than n=16), the timing of the policies 18 s: 10.7 min in all,
#: well within the 40 minutes allowed to the ladder in ``make results``. The default check against
#: the default play (learned - rollout:n=16:base=learned) plays about 320 plays/s on two cores
#: (measured over 300 duplicate deals, 6 seatings each): 5,000 deals are about 1.5 minutes (up to
#: 3 on a busy machine), and bring the step's interval to about +-0.3 points per deal, so a gain
#: of a point per deal stands well outside it; the ladder then takes about 12 minutes in all.
MATCHES = (
    Match("random-heuristic", ("random", "heuristic"), 20_000,
          "the first step: any rule beats random cards"),
    Match("heuristic-expert", ("heuristic", "expert"), 20_000,
          "the target: expert beats heuristic with p < 1e-6 over 20,000 duplicate deals"),
    Match("expert-rollout16", ("expert", "rollout:n=16"), 2_000,
          "the target: rollout:n=16 beats expert with p < 1e-3 over 2,000 duplicate deals"),
    Match("expert-learned", ("expert", "learned"), 20_000,
          "the target: learned beats expert by at least 1.5 points per seat and deal with "
          "p < 1e-6 over 20,000 duplicate deals"),
    Match("learned-rollout16", ("learned", "rollout:n=16"), 2_000,
          "the target: learned within 0.5 points per seat and deal of rollout:n=16"),
    Match("learned-check", (DEFAULT_PLAY, CHECK), 5_000,
          f"the default check, {CHECK} (the search over the default play), against the "
          f"default play, {DEFAULT_PLAY}: every output that shows a check names this step, or "
          "calls its check another play when the step does not show it stronger"),
    Match("rollout-n", ("rollout:n=8", "rollout:n=16", "rollout:n=64"), 5_000,
          "the target: the strength of rollout rises with n"),
    Match("rollout16-infer", ("rollout:n=16:infer=0", "rollout:n=16:infer=1"), 3_000,
          "reading the table: infer=1 beats infer=0 by at least 0.5 points per seat and deal "
          "with p < 1e-3 over 3,000 duplicate deals"),
    Match("infer-wrong-cautious", ("rollout:n=16:infer=0", "rollout:n=16:infer=1:model=heuristic"),
          3_000, "a wrong model: every seat bids cautious, the searchers assume heuristic "
          "(must not cost more than 0.2 points per deal)", bid="cautious"),
    Match("infer-wrong-hcp", ("rollout:n=16:infer=0", "rollout:n=16:infer=1:model=heuristic"),
          3_000, "a wrong model: every seat bids hcp, the searchers assume heuristic "
          "(must not cost more than 0.2 points per deal)", bid="hcp"),
    Match("montecarlo-expert", ("montecarlo:play=heuristic:infer=0/expert", "montecarlo/expert"),
          600, "montecarlo reading the table and rolling out with the table's play, against "
          "its heuristic rollouts, under expert play"),
    Match("montecarlo-rollout", ("montecarlo:play=heuristic:infer=0/rollout:n=16",
                                 "montecarlo/rollout:n=16"),
          300, "the same under rollout:n=16 play"),
)


#: The variants of the table: the default play against its searcher (the default check) with
#: three players (each deck) and with every seat bidding cautious or ltc, where the play was not
#: fitted (issue targets: the searcher at most 1.5 points per seat and deal ahead with three
#: players, 1.0 with the other bidders). Three-player matches play about 600 plays/s on two
#: cores, the four-player ones about 320: 2,000 deals each are about a minute and a half in all.
VARIANTS = tuple(
    Match(f"variant-{deck}", (DEFAULT_PLAY, CHECK), 2_000,
          f"three players, the `{deck}` deck: the default play against its searcher",
          rules=(("players", 3), ("three_player_deck", deck)), within=1.5)
    for deck in ("no_suit", "no_low", "one_random")) + tuple(
    Match(f"variant-{bid}", (DEFAULT_PLAY, CHECK), 2_000,
          f"every seat bidding `{bid}`: the default play against its searcher", bid=bid,
          within=1.0)
    for bid in ("cautious", "ltc"))
MATCHES = MATCHES + VARIANTS
#: the rule book's defaults: the default play's target against its searcher
WITHIN_DEFAULTS = 0.4


def match_sizes(scale: float | None = None, deals: int | None = None) -> dict[str, int]:
    """Deals per match: :data:`MATCHES`' sizes, times ``scale`` or all set to ``deals``."""
    if deals is not None:
        if deals < 2:
            raise ValueError(f"--deals must be at least 2 (for a CI), got {deals}")
        return {m.name: deals for m in MATCHES}
    scale = 1.0 if scale is None else scale
    if not (scale > 0 and math.isfinite(scale)):
        raise ValueError(f"--scale must be a positive number, got {scale}")
    return {m.name: max(2, round(m.deals * scale)) for m in MATCHES}




def run_match(m: Match, deals: int, threads: int | None, progress: bool,
              scheduler: str | None = None, cluster: str | None = None) -> dict[str, Any]:
    """Play one match; return its tournament summary (entrants labelled by their play)."""
    strategies = [p if "/" in p else f"{m.bid}/{p}" for p in m.plays]
    cmd = (f"whist-sim tournament --strategies {','.join(strategies)} --deals {deals} "
           f"--seed {SEED} --rotations {ROTATIONS}{m.rule_flags()}")
    print(f"play_ladder: {m.name}: {deals:,} deals", file=sys.stderr, flush=True)
    s = tournament(strategies, deals, SEED, rules=m.rules_value(), rotations=ROTATIONS, out=None,
                   threads=threads, scheduler=scheduler, cluster=cluster, progress=progress,
                   command=cmd)
    # the entrants by their label in the match: the play policy (every entrant bids m.bid), or
    # BID/PLAY where the entrants' bidding differs
    label = {seat_text(*parse_seat(x)): p for x, p in zip(strategies, m.plays, strict=True)}
    names = {e["name"]: label.get(e["name"], e["play"]) for e in s["strategies"]}
    for e in s["strategies"]:
        e["name"] = names[e["name"]]
    for p in s["pairs"]:
        p["a"], p["b"] = names[p["a"]], names[p["b"]]
    s["seatings"] = [[names[x] for x in row] for row in s["seatings"]]
    return s


def speeds(seconds: float) -> dict[str, float]:
    """Deals per second on one thread of each ladder policy (heuristic bidding, every seat)."""
    from whist_sim.analyses.bench.play import play_rate

    out = {}
    for spec in LADDER:
        chunk = 20_000 if not spec.startswith("rollout") else 50
        out[spec] = play_rate(Rules(), spec, seconds, chunk)
        print(f"play_ladder: {spec}: {out[spec]:,.0f} deals/s on one thread", file=sys.stderr,
              flush=True)
    return out


# --------------------------------------------------------------------------- checks


def _pair(s: dict[str, Any], a: str, b: str) -> dict[str, Any] | None:
    """The pair ``b - a`` of a summary (sign flipped if stored as ``a - b``)."""
    for p in s["pairs"]:
        if (p["a"], p["b"]) == (b, a):
            return dict(p)
        if (p["a"], p["b"]) == (a, b):
            q = dict(p)
            q["diff"] = -p["diff"] if p["diff"] is not None else None
            lo, hi = p["ci"]
            q["ci"] = [-hi if hi is not None else None, -lo if lo is not None else None]
            q["a"], q["b"] = b, a
            return q
    return None


#: the steps shown (lower, upper): neighbours on the ladder that a match pits against each other
STEPS = (("random", "heuristic"), ("heuristic", "expert"), ("expert", "learned"),
         ("learned", "rollout:n=16"), (DEFAULT_PLAY, CHECK), ("expert", "rollout:n=16"),
         ("rollout:n=8", "rollout:n=16"), ("rollout:n=16", "rollout:n=64"),
         ("rollout:n=8", "rollout:n=64"), ("rollout:n=16:infer=0", "rollout:n=16:infer=1"))


def steps(matches: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each step up the ladder (:data:`STEPS`): the upper policy minus the lower one, from the
    match that has both, with its CI, p-value and deals."""
    out = []
    for lower, upper in STEPS:
        for name, s in matches.items():
            p = _pair(s, lower, upper)
            if p is not None:
                out.append({"lower": lower, "upper": upper, "match": name, "deals": s["deals"],
                            "diff": p["diff"], "ci": p["ci"], "p": p["p"]})
                break
    return out


def checks(matches: dict[str, dict[str, Any]], speed: dict[str, float] | None = None
           ) -> list[dict[str, Any]]:
    """The target statements, each with the numbers behind it and whether they hold (the speed
    statement only with ``speed``)."""
    out = []

    def beats(match: str, lower: str, upper: str, alpha: float, text: str) -> None:
        s = matches.get(match)
        p = _pair(s, lower, upper) if s is not None else None
        ok = p is not None and p["diff"] is not None and p["diff"] > 0 and p["p"] is not None \
            and p["p"] < alpha
        out.append({"statement": text, "holds": bool(ok), "deals": s["deals"] if s else 0,
                    "diff": p["diff"] if p else None, "p": p["p"] if p else None})

    beats("heuristic-expert", "heuristic", "expert", 1e-6,
          "expert beats heuristic with p < 1e-6 (issue: over 20,000 duplicate deals)")
    beats("expert-rollout16", "expert", "rollout:n=16", 1e-3,
          "rollout:n=16 beats expert with p < 1e-3 (issue: over 2,000 duplicate deals)")
    s = matches.get("expert-learned")
    p = _pair(s, "expert", "learned") if s else None
    ok = p is not None and p["diff"] is not None and p["diff"] >= 1.5 and p["p"] < 1e-6
    out.append({"statement": "learned beats expert by at least 1.5 points per seat and deal "
                "with p < 1e-6 (over 20,000 duplicate deals)", "holds": bool(ok),
                "deals": s["deals"] if s else 0, "diff": p["diff"] if p else None,
                "p": p["p"] if p else None})
    s = matches.get("learned-rollout16")
    p = _pair(s, "learned", "rollout:n=16") if s else None
    ok = p is not None and p["diff"] is not None and p["diff"] <= 0.5
    out.append({"statement": "learned within 0.5 points per seat and deal of rollout:n=16 "
                "(rollout:n=16 minus learned at most 0.5, over 2,000 duplicate deals)",
                "holds": bool(ok), "deals": s["deals"] if s else 0,
                "diff": p["diff"] if p else None, "p": p["p"] if p else None})
    if speed and speed.get("heuristic") and speed.get("learned") is not None:
        ratio = speed["learned"] / speed["heuristic"]
        out.append({"statement": "learned plays at least 0.25 x heuristic's deals/s on one "
                    f"thread (measured: {ratio:.2f} x)", "holds": ratio >= 0.25, "deals": 0,
                    "diff": None, "p": None})
    beats("learned-check", DEFAULT_PLAY, CHECK, 0.05,
          f"the default check, {CHECK}, beats the default play, {DEFAULT_PLAY} (p < 0.05; "
          "over 5,000 duplicate deals)")
    beats("rollout-n", "rollout:n=8", "rollout:n=16", 0.05,
          "rollout:n=16 beats rollout:n=8 (p < 0.05)")
    beats("rollout-n", "rollout:n=16", "rollout:n=64", 0.05,
          "rollout:n=64 beats rollout:n=16 (p < 0.05)")
    s = matches.get("rollout16-infer")
    p = _pair(s, "rollout:n=16:infer=0", "rollout:n=16:infer=1") if s else None
    ok = p is not None and p["diff"] is not None and p["diff"] >= 0.5 and p["p"] < 1e-3
    out.append({"statement": "rollout:n=16:infer=1 beats rollout:n=16:infer=0 by at least 0.5 "
                "points per seat and deal with p < 1e-3 (over 3,000 duplicate deals)",
                "holds": bool(ok), "deals": s["deals"] if s else 0,
                "diff": p["diff"] if p else None, "p": p["p"] if p else None})
    out += within_checks(matches)
    for name, bid in (("infer-wrong-cautious", "cautious"), ("infer-wrong-hcp", "hcp")):
        s = matches.get(name)
        p = _pair(s, "rollout:n=16:infer=0", "rollout:n=16:infer=1:model=heuristic") if s else None
        ok = p is not None and p["ci"][0] is not None and p["ci"][0] > -0.2
        out.append({"statement": f"every seat bidding {bid}, a searcher that assumes the "
                    "heuristic loses at most 0.2 points per deal to one that reads nothing "
                    "(lower end of the 95% CI above -0.2)", "holds": bool(ok),
                    "deals": s["deals"] if s else 0, "diff": p["diff"] if p else None,
                    "p": p["p"] if p else None})
    return out


def within_checks(matches: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The statements "the default play is within X of its searcher": on the rule book's
    defaults (:data:`WITHIN_DEFAULTS`, the ``learned-check`` match) and in each variant
    (:data:`VARIANTS`); the point estimate of the searcher's gain must be at most X."""
    out = []
    for name, where, limit in (("learned-check", "on the rule book's defaults",
                                WITHIN_DEFAULTS),
                               *((m.name, m.why.split(":")[0], m.within) for m in VARIANTS)):
        s = matches.get(name)
        p = _pair(s, DEFAULT_PLAY, CHECK) if s else None
        ok = p is not None and p["diff"] is not None and p["diff"] <= limit
        out.append({"statement": f"{DEFAULT_PLAY} within {limit:g} points per seat and deal of "
                    f"its searcher {CHECK}, {where} ({CHECK} minus {DEFAULT_PLAY} at most "
                    f"{limit:g})", "holds": bool(ok), "deals": s["deals"] if s else 0,
                    "diff": p["diff"] if p else None, "p": p["p"] if p else None,
                    "ci": p["ci"] if p else [None, None], "match": name, "within": limit,
                    "where": where})
    return out


def variants_table(checks_: list[dict[str, Any]]) -> str:
    """The default play against its searcher in each variant: the searcher's gain with its
    interval, the target and whether it holds."""
    rows = [c for c in checks_ if c.get("match") and c.get("within") is not None]
    return markdown_rows(
        ["table", f"`{CHECK}` − `{DEFAULT_PLAY}`, points per seat and deal (95 % interval)",
         "p", "duplicate deals", "target", "holds"],
        ([c["where"], _points(c["diff"], c["ci"]),
          fmt_p(c["p"]), f"{c['deals']:,}", f"at most {c['within']:g}",
          "yes" if c["holds"] else "**no**"] for c in rows),
        "lrrrrl")


# --------------------------------------------------------------------------- outputs


def _points(v: float | None, ci: list[float | None], sign: bool = True, unit: str = "") -> str:
    """Points with their 95 % interval: ``+5.08 (+4.94 to +5.21)`` (real minus signs; ``unit``
    after the interval, none in a table whose header gives it)."""
    nan = float("nan")
    lo, hi = (nan if x is None else x for x in ci)
    return points_interval(nan if v is None else v, lo, hi, decimals=2, sign=sign, unit=unit)


def _pct(v: float | None) -> str:
    return share_text(float("nan") if v is None else v, 1)


def _signed(v: float | None) -> str:
    return "-" if v is None else number_text(v, 2, sign=True)


def speed_table(speed: dict[str, float]) -> str:
    h = speed.get("heuristic")

    def row(spec: str) -> list[str]:
        r = speed.get(spec)
        return [f"`{spec}`", f"{r:,.0f}" if r else "-", f"{r / h:.4f}" if r and h else "-"]

    return markdown_rows(["policy", "deals/s, one thread", "x heuristic"],
                         map(row, LADDER), "lrr")


def steps_table(steps_: list[dict[str, Any]]) -> str:
    return markdown_rows(
        ["step", "gain, points per seat and deal (95 % interval)", "p", "duplicate deals"],
        ([f"`{st['lower']}` → `{st['upper']}`", _points(st["diff"], st["ci"]),
          fmt_p(st["p"]), f"{st['deals']:,}"] for st in steps_),
        "lrrr")


def entrants_table(s: dict[str, Any]) -> str:
    ranked = sorted(s["strategies"], key=lambda e: -(e["mean"] if e["mean"] is not None
                                                     else -math.inf))
    return markdown_rows(
        ["play", "mean points per deal (95 % interval)", "made: declarer", "other (above 0)",
         "zero bidder", "all contracts", "declarer share"],
        ([f"`{e['name']}`", _points(e["mean"], e["ci"], sign=False),
          _pct(e.get("declarer_hit_rate")), _pct(e.get("other_hit_rate")),
          _pct(e["zero_success"]), _pct(e["hit_rate"]), _pct(e["declarer_rate"])]
         for e in ranked),
        "lrrrrrr")


def pairs_table(s: dict[str, Any]) -> str:
    """Every pair of a match, the stronger-listed entrant first (the later on the ladder)."""

    def row(p: dict[str, Any]) -> list[str]:
        q = _pair(s, p["a"], p["b"])  # the later entrant minus the earlier one
        assert q is not None
        return [f"`{q['a']}`", f"`{q['b']}`", _points(q["diff"], q["ci"]), fmt_p(q["p"])]

    return markdown_rows(["a", "b", "a − b, points per deal (95 % interval)", "p"],
                         map(row, s["pairs"]), "llrr")


#: what the ladder's chart shows
CHART_TITLE = (f"How much each play gains over the one below it: points per seat and deal,\n"
               f"duplicate matches, every seat bidding {BID}")


def chart_png(steps_: list[dict[str, Any]]) -> bytes:
    """PNG: each step up the ladder, the upper policy minus the lower one, with its 95 % CI."""
    import numpy as np

    from whist_sim.analyses.reports.charts import figure_png, new_figure

    fig = new_figure(7.5, 4.4)
    ax = fig.add_subplot()
    y = np.arange(len(steps_))
    d = np.array([s["diff"] if s["diff"] is not None else np.nan for s in steps_])
    lo = np.array([s["ci"][0] if s["ci"][0] is not None else np.nan for s in steps_])
    hi = np.array([s["ci"][1] if s["ci"][1] is not None else np.nan for s in steps_])
    ax.barh(y, d, xerr=np.nan_to_num(np.vstack([d - lo, hi - d])), capsize=3, color="#4c72b0",
            error_kw={"elinewidth": 1})
    ax.set_yticks(y, [f"{s['upper']} − {s['lower']}\n({s['deals']:,} deals)" for s in steps_],
                  fontsize=7)
    ax.invert_yaxis()
    ax.axvline(0, color="0.3", lw=0.8)
    ax.set_xscale("symlog", linthresh=5.0)
    ax.set_xlabel("gain over the rung below, points per seat and deal (95 % interval; symlog "
                  "scale)")
    ax.set_title(CHART_TITLE, fontsize=10)
    return figure_png(fig)


def _rollout_defaults() -> str:
    """``rollout`` with every parameter at its default, spelt out (``rollout:n=16:...``)."""
    from whist_sim.compiled.strategies import parse_play

    spec = parse_play("rollout")
    return "rollout" + "".join(f":{k}={spec.value_text(k)}" for k in spec.values())


def readme(data: dict[str, Any], outside: dict[str, Any] | None = None) -> str:
    """The README; ``outside``: scripts/openspiel_match.py's result, when it was run."""
    sizes, matches, speed = data["sizes"], data["matches"], data["speed"]
    lines = [
        "# The play ladder",
        "",
        summary(data),
        "",
        "How strong each play policy is: duplicate matches between neighbours on the ladder, "
        f"every seat bidding `{BID}`, so only the card play differs. Made by "
        f"`{data['command']}` (whist-sim {data['version']}"
        + (f", code {data['commit']}" if data.get("commit") else "") + f"); seed {SEED} for "
        "every match, rule book defaults, every distinct seating of each deal "
        f"(`--rotations {ROTATIONS}`). A `rollout` rung plays the policy's defaults unless it "
        f"names others: `{_rollout_defaults()}`. The default play of every other "
        f"answer is `{DEFAULT_PLAY}`. Total time {data['wall_s'] / 60:.1f} min on "
        f"{data['executor']}.",
        "",
        "## The ladder",
        "",
        "Each step: the upper play's mean score per seat and deal minus the lower one's, in "
        "the match that has both (paired over duplicate deals; 95 % interval and two-sided p).",
        "",
        steps_table(data["steps"]),
        "",
        f"![{CHART_TITLE.replace(chr(10), ' ')}](ladder.png)",
        "",
        "Speed: heuristic bidding and the policy at every seat, one thread "
        f"(`whist_sim.analyses.bench.play.play_rate`, {data['speed_seconds']:g} s each; "
        "compare the ratios, the machine may be shared).",
        "",
        speed_table(speed),
        "",
        "## The default play where it was not fitted",
        "",
        f"`{DEFAULT_PLAY}` against its searcher `{CHECK}` with three players (each deck of "
        "RULES §8, each with its own weights) and at tables of other bidders, every seat "
        "bidding the same: how far the search still gains.",
        "",
        variants_table(data["checks"]),
        "",
        "## What the issue asks to show",
        "",
    ]
    for c in data["checks"]:
        verdict = f"- {'holds' if c['holds'] else '**does not hold**'}: {c['statement']}"
        if not c["deals"]:  # a statement of speed: its measure is in the statement
            lines.append(verdict + ".")
            continue
        lines.append(f"{verdict}; measured {_signed(c['diff'])} points per deal, p "
                     f"{fmt_p(c['p'])}, "
                     f"over {c['deals']:,} deals.")
    if outside:  # the ISMCTS yardstick's section, kept when the README is rewritten
        from openspiel_match import outside_section

        lines += ["", *outside_section(outside)]
    lines += ["", "## The matches", ""]
    for m in MATCHES:
        s = matches.get(m.name)
        if s is None:
            continue
        lines += [
            f"### {' vs '.join(m.plays)}" + (f" ({m.why.split(':')[0]})" if m.within else ""),
            "",
            *([f"Every seat bids `{m.bid}`"
               + (" (the searchers with `model=heuristic` assume it does not)."
                  if "model=heuristic" in " ".join(m.plays) else "."), ""]
              if m.bid != BID else []),
            *([f"Rules:{m.rule_flags()}.", ""] if m.rules else []),
            f"{m.why[0].upper()}{m.why[1:]}. `{s['command']}`: {s['deals']:,} duplicate deals x "
            f"{len(s['seatings'])} seatings = {s['plays']:,} plays in {s['wall_s']:.0f} s "
            f"({s['plays_per_s']:,.0f} plays/s on {s['executor']}); size "
            f"{sizes[m.name]:,} deals.",
            "",
            entrants_table(s),
            "",
            pairs_table(s),
            "",
        ]
    lines += [
        "Mean points per deal: an entrant's points per seat, averaged over its seats and the "
        "seatings of the deal; 95 % interval Student t over deals. Made: contracts made (tricks = "
        "contract) as the declarer, as another player with a contract above zero, and as a zero "
        "bidder, over the entrant's seat-plays that were not thrown in. p: two-sided paired t "
        "test over deals.",
        "",
        "## Sizes",
        "",
        "The sizes are the issue's: 20,000 duplicate deals for heuristic-expert (and for "
        "random-heuristic), 2,000 for expert-rollout:n=16; the three rollouts play 5,000, so "
        "that steps of about a point per deal between them stand well outside their intervals. "
        "Measured on two cores shared with other work: the first two matches take about a "
        "second each, expert-rollout:n=16 about a minute and the rollout match about 9 minutes "
        "(12 seatings; n=64 plays about 4x slower than n=16). The default check against the "
        f"default play (`{DEFAULT_PLAY}` against `{CHECK}`) plays 5,000 duplicate deals, about "
        "a minute and a half (about 320 plays a second), so that a gain of a point per deal "
        "stands well outside its interval of about ±0.3: about 12 minutes in all, within the "
        "~40 minutes allowed to the ladder in `make results`. `--scale` or `--deals` changes "
        "every size.",
        "",
        "The matches of reading the table (docs/STRATEGIES.md): 3,000 duplicate deals each "
        "for `rollout:n=16` with and without inference, with the table's bidding strategy as "
        "the model and with a wrong one (every seat bids `cautious` or `hcp`, the searcher "
        "assumes `heuristic`); `montecarlo` reading the table and rolling out with the table's "
        "play against the earlier `montecarlo:play=heuristic:infer=0`, under `expert` (600 "
        "deals) and under `rollout:n=16` play (300 deals, both slow).",
        "",
        "Files: `ladder.json` (every match summary, the speeds, sizes, seed and versions), "
        "`matches.csv` (pairs), `entrants.csv`, `speed.csv`, `ladder.png`.",
        "",
        glossary_markdown(TERMS_USED, EXTRA_TERMS),
        "",
    ]
    return "\n".join(lines)


#: the terms the README uses (defined in whist_sim.analyses.reports.wording.TERMS or below)
TERMS_USED = ("play", "rollout", "infer", "check", "duplicate deals", "seatings",
              "points per seat and deal", "95 % interval", "p", "declarer", "contract", "made",
              "zero bid", "declarer share", "deals/s")
EXTRA_TERMS = {
    "rollout": ("a searching play: for each legal card it deals the hidden hands n times "
                "(rollout:n=16: 16 times) and plays each out with its base play (base=expert "
                "unless named, base=learned for the default check), then plays the card with the "
                "best mean score."),
    "infer": ("whether a search reads the table: infer=1 (the default) deals the hidden hands "
              "to fit the bids made, infer=0 deals them at random; model= names the bidding it "
              "assumes."),
    "seatings": ("the ways the plays of a match are seated at the table for one deal: every "
                 "distinct seating (6 for two plays, 12 for three), so each play holds each "
                 "hand."),
    "points per seat and deal": ("a play's game points (RULES §6) per seat it holds, averaged "
                                 "over its seats and the seatings of each deal, then over the "
                                 "deals."),
    "p": ("the two-sided p-value of the paired t test over deals: how often a difference this "
          "large would arise by chance if the two plays were equally strong."),
    "declarer share": "the share of a play's seat-plays in which it was the declarer.",
    "deals/s": "deals played per second on one thread, every seat playing the policy.",
}


def _step(data: dict[str, Any], lower: str, upper: str) -> dict[str, Any] | None:
    return next((st for st in data["steps"] if (st["lower"], st["upper"]) == (lower, upper)
                 and st["diff"] is not None), None)


def _gain(st: dict[str, Any]) -> str:
    """``+5.08 (+4.94 to +5.21) points per seat and deal against `expert` (20,000 duplicate
    deals)``: the upper play's gain on the lower one."""
    return (f"{_points(st['diff'], st['ci'], unit='points')} per seat and deal against "
            f"`{st['lower']}` ({st['deals']:,} duplicate deals)")


def summary(data: dict[str, Any]) -> str:
    """The README's opening: what the ladder finds, in sentences with numbers."""
    out = [f"**In short.** Every seat bids `{BID}`, so only the card play differs; each step is "
           "a duplicate match (the same deals, each seat held by each play in turn)."]
    a, b = _step(data, "heuristic", "expert"), _step(data, "expert", "learned")
    if a and b:
        out.append(f"`expert` scores {_gain(a)}, and the default play, `{DEFAULT_PLAY}`, "
                   f"{_gain(b)}.")
    c = _step(data, DEFAULT_PLAY, CHECK)
    if c:
        clear = c["ci"][0] is not None and c["ci"][0] > 0
        out.append(f"The default check, `{CHECK}` (the search over the default play: each "
                   f"rollout finished by `{DEFAULT_PLAY}` play), scores {_gain(c)}: "
                   + ("the ladder shows it the stronger play, and outputs that show a check "
                      "name this gain." if clear else
                      "the ladder does not show it stronger, so outputs call it another "
                      "play."))
    r = _step(data, "learned", "rollout:n=16")
    if r:
        out.append(f"A search over `expert` instead (`rollout:n=16`) scores {_gain(r)}.")
    n8, n64 = _step(data, "rollout:n=8", "rollout:n=16"), _step(data, "rollout:n=16",
                                                                  "rollout:n=64")
    if n8 and n64:
        more = all(x["ci"][0] is not None and x["ci"][0] > 0 for x in (n8, n64))
        out.append(("With more rollouts a search scores more" if more else
                    "More rollouts") + ": 16 rollouts "
                   f"{_points(n8['diff'], n8['ci'], unit='points')} against 8, and 64 "
                   f"{_points(n64['diff'], n64['ci'], unit='points')} against 16.")
    sp = data.get("speed") or {}
    if sp.get("heuristic") and sp.get(DEFAULT_PLAY):
        out.append(f"`{DEFAULT_PLAY}` plays {sp[DEFAULT_PLAY]:,.0f} deals a second on one "
                   f"thread ({sp[DEFAULT_PLAY] / sp['heuristic']:.2f} × `heuristic`)"
                   + (f", the default check {sp[CHECK]:,.0f}" if sp.get(CHECK) else "") + ".")
    within = [c for c in data["checks"] if c.get("within") is not None and c["deals"]]
    if within:
        worst = max(within, key=lambda c: c["diff"] if c["diff"] is not None else -math.inf)
        out.append(f"Against its searcher `{DEFAULT_PLAY}` is within its target at "
                   f"{sum(bool(c['holds']) for c in within)} of {len(within)} tables; the "
                   f"search gains most {worst['where']}: "
                   f"{_points(worst['diff'], worst['ci'], unit='points')} per seat and deal.")
    held = sum(bool(c["holds"]) for c in data["checks"])
    out.append(f"{held} of the {len(data['checks'])} target statements below hold.")
    return " ".join(out)


def write_outputs(dest: Path, data: dict[str, Any]) -> list[Path]:
    dest.mkdir(parents=True, exist_ok=True)
    match = dest / "openspiel_match.json"  # scripts/openspiel_match.py's, if it was run
    outside = json.loads(match.read_text(encoding="utf-8")) if match.is_file() else None
    paths = [dest / "README.md", dest / "ladder.json", dest / "matches.csv",
             dest / "entrants.csv", dest / "speed.csv", dest / "ladder.png"]
    paths[0].write_text(readme(data, outside), encoding="utf-8")
    paths[1].write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    with paths[2].open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["match", "deals", "a", "b", "diff", "ci_low", "ci_high", "p"])
        for name, s in data["matches"].items():
            for p in s["pairs"]:
                w.writerow([name, s["deals"], p["a"], p["b"], p["diff"], *p["ci"], p["p"]])
    with paths[3].open("w", newline="") as f:
        w = csv.writer(f)
        cols = ["mean", "sd", "hit_rate", "declarer_hit_rate", "other_hit_rate", "zero_success",
                "zero_rate", "declarer_rate", "over_share"]
        w.writerow(["match", "deals", "play", "bid", "ci_low", "ci_high", *cols])
        for name, s in data["matches"].items():
            for e in s["strategies"]:
                w.writerow([name, s["deals"], e["name"], e["strategy"], *e["ci"],
                            *[e.get(c) for c in cols]])
    with paths[4].open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["play", "deals_per_s_1t", "vs_heuristic"])
        h = data["speed"].get("heuristic")
        for spec, r in data["speed"].items():
            w.writerow([spec, round(r, 1), round(r / h, 4) if h else None])
    paths[5].write_bytes(chart_png(data["steps"]))
    return paths


def run(out: Path, command: str, sizes: dict[str, int], speed_seconds: float,
        threads: int | None, progress: bool, scheduler: str | None = None,
        cluster: str | None = None) -> list[Path]:
    t0 = time.perf_counter()
    matches: dict[str, dict[str, Any]] = {}
    for m in MATCHES:
        matches[m.name] = run_match(m, sizes[m.name], threads, progress, scheduler, cluster)
    speed = speeds(speed_seconds) if speed_seconds > 0 else {}
    st = steps(matches)
    data = {
        "command": command,
        "version": __version__,
        "commit": git_revision(),
        "seed": SEED,
        "bid": BID,
        "ladder": list(LADDER),
        "default_play": DEFAULT_PLAY,
        "rotations": ROTATIONS,
        "rules": Rules().to_dict(),
        "sizes": sizes,
        "speed_seconds": speed_seconds,
        "speed": speed,
        "steps": st,
        "checks": checks(matches, speed),
        "matches": matches,
        "executor": next(iter(matches.values()))["executor"],
        "wall_s": round(time.perf_counter() - t0, 1),
    }
    return write_outputs(out / NAME, data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/default",
                        help="default dataset directory (not needed: accepted for make results)")
    parser.add_argument("--out", default="results", help="results directory")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--scale", type=float, default=None,
                      help="multiply every match's deals by this factor (default 1)")
    size.add_argument("--deals", type=int, default=None, help="deals of every match")
    parser.add_argument("--speed-seconds", type=float, default=SPEED_SECONDS,
                        help=f"seconds of timing per policy (default {SPEED_SECONDS:g}; 0: skip)")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: every CPU)")
    parser.add_argument("--scheduler", default=None, help="run on a running Dask scheduler")
    parser.add_argument("--cluster", default=None, help="start a local Dask cluster (local:N)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    raw = sys.argv[1:] if argv is None else argv
    try:
        sizes = match_sizes(args.scale, args.deals)
    except ValueError as e:
        parser.error(str(e))
    if args.speed_seconds < 0:
        parser.error(f"--speed-seconds must be >= 0, got {args.speed_seconds}")
    try:
        written = run(Path(args.out), command_line(__file__, raw), sizes, args.speed_seconds,
                      args.threads, not args.no_progress, args.scheduler, args.cluster)
    except (TournamentError, ExecutorError) as e:
        print(f"play_ladder: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nplay_ladder: interrupted; nothing written", file=sys.stderr)
        return 130
    print(f"play_ladder: wrote {len(written)} files to {Path(args.out) / NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
