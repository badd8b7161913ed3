"""A tournament checked against search: the same entrants on the first deals of the run, every
entrant given as ``BID`` alone now playing the check play (a searching policy, by default the
search over the default play; :mod:`whist_sim.analyses.answer_check`), and the ranking and every
pair's difference set side by side, each with one of three verdicts.

:func:`compare_check` builds the summary's ``check`` object from the two summaries (a pure
function: the comparison logic, tested on constructed summaries); the runner plays the check
(:func:`whist_sim.analyses.tournament.runner.tournament` with ``check=``). Entrants that name their
own play policy (``BID/PLAY``) keep it in the check. Differences are points per deal (entrant ``a``
minus ``b``), intervals paired over the duplicate deals with the summary's coverage.

Verdicts (:func:`whist_sim.analyses.answer_check.difference_verdict` per pair,
:func:`~whist_sim.analyses.answer_check.ranking_verdict` for the ranking): *confirmed* (the check's
interval lies on the answer's side of 0), *not contradicted* (it holds 0: the verdict gives the
difference the check would have seen with 80 % power, even when its point estimate reverses the
pair) and *contradicted* (it lies wholly on the other side).

The check's size (:func:`tournament_check_deals`): the deals that see a difference of
:data:`~whist_sim.analyses.answer_check.TARGET_DIFFERENCE` points per deal with 80 % power, from
the spread of the answer's own pairs (:func:`power_deals`), capped by the cost of a check: every
seat of every seating searches, :data:`SEARCH_COST` times slower than the answer's compiled play,
and the check may take at most :data:`COST_CAP` times the answer's time; at least
:data:`CHECK_FLOOR` deals, never more than the answer's.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from ..answer_check import (
    NOT_CONTRADICTED,
    TARGET_DIFFERENCE,
    Verdict,
    deals_for_power,
    difference_holds,
    difference_verdict,
    ranking_holds,
    ranking_verdict,
)

__all__ = ["CHECK_FLOOR", "COST_CAP", "RANKING_CHANGES", "SEARCH_COST", "compare_check",
           "games_check", "power_deals", "ranking", "tournament_check_deals"]

#: how many deals of the answer cost as much as one deal of its check, every seat of every
#: seating searching: about 1,700 for four entrants under ``learned`` checked by
#: ``rollout:n=16:base=learned`` (``whist-sim bench --only check_cost`` measures the two runs'
#: times at the README's sizes); rounded up, so that a check stays within its cap
SEARCH_COST = 2_000
#: the most a check may cost, in multiples of the answer's own time
COST_CAP = 3
#: the fewest deals a check plays (fewer only when the answer itself has fewer)
CHECK_FLOOR = 20
#: the line a report prints when the check contradicts the ranking (a pair clearly reversed)
RANKING_CHANGES = "the check contradicts the ranking"


def power_deals(summary: dict[str, Any], target: float = TARGET_DIFFERENCE) -> int | None:
    """Deals that see a difference of ``target`` points per deal between every pair with 80 %
    power, from the standard deviation of the answer's paired differences per deal (the widest
    pair; read from its interval and deals), or None when no pair has an interval."""
    from ...core.stats import z_value

    n = int(summary.get("deals") or 0)
    z = z_value(float(summary.get("confidence", 0.95)))
    sds = []
    for p in summary.get("pairs", []):
        ci = p.get("ci")
        if n < 2 or not ci or ci[0] is None or ci[1] is None:
            continue
        sds.append((float(ci[1]) - float(ci[0])) / (2 * z) * math.sqrt(n))
    if not sds or not all(math.isfinite(s) for s in sds):
        return None
    return deals_for_power(max(sds), target)


def tournament_check_deals(deals: int, summary: dict[str, Any] | None = None) -> int:
    """Deals of a tournament's check of an answer on ``deals`` deals: the deals for power
    (:func:`power_deals` of ``summary``; without it, the cap), at most ``COST_CAP * deals /
    SEARCH_COST`` (the check's cost at most :data:`COST_CAP` times the answer's), at least
    :data:`CHECK_FLOOR`, at most ``deals``."""
    cap = max(CHECK_FLOOR, math.floor(COST_CAP * deals / SEARCH_COST))
    want = None if summary is None else power_deals(summary)
    return max(1, min(int(deals), cap if want is None else min(cap, max(CHECK_FLOOR, want))))


def _mean(v: Any) -> float:
    return -math.inf if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def ranking(strategies: list[dict[str, Any]]) -> list[int]:
    """Entrant indices by mean score per deal, best first (ties: the earlier entrant)."""
    return sorted(range(len(strategies)), key=lambda i: (-_mean(strategies[i]["mean"]), i))


def _ci(ci: Any) -> tuple[float, float] | None:
    if not ci or ci[0] is None or ci[1] is None:
        return None
    return float(ci[0]), float(ci[1])


def _pair_verdict(diff: float, check_ci: Any) -> Verdict:
    return difference_verdict(diff, _ci(check_ci))


def compare_check(answer: dict[str, Any], checked: dict[str, Any], play: str) -> dict[str, Any]:
    """The ``check`` object of a tournament summary ``answer`` from the summary ``checked`` of the
    same entrants (same order) under the check play ``play``.

    Keys: ``play``, ``label`` (the check named with the ladder's measured edge over the answer's
    play, or as another play: :func:`~whist_sim.analyses.answer_check.check_label`), ``deals``
    (the check's duplicate deals), ``checked`` (true), ``verdict``, ``verdict_why`` and
    ``detectable`` (the ranking's verdict: contradicted when a pair is, confirmed when every
    pair is, else not contradicted with the largest difference a pair's check could not have
    seen, points per deal), ``holds`` (no pair clearly reversed), ``ranking_changes`` (``not
    holds``: the ranking is contradicted), ``same_order`` (the check's order by mean equals the
    answer's, point estimates), ``ranking`` (``answer`` and ``check``: entrant names best
    first), ``strategies`` (per entrant: ``name``, ``check_name``, ``mean``, ``check_mean``,
    ``check_ci``, ``zero_success``, ``check_zero_success``), ``pairs`` (per pair: ``a``, ``b``,
    ``diff``, ``ci``, ``check_diff``, ``check_ci``, ``verdict``, ``verdict_why``,
    ``detectable``, ``holds``)."""
    from ..answer_check import check_label

    s_a, s_c = answer["strategies"], checked["strategies"]
    if len(s_a) != len(s_c) or len(answer["pairs"]) != len(checked["pairs"]):
        raise ValueError("the check's entrants differ from the tournament's")
    pairs, verdicts = [], []
    for pa, pc in zip(answer["pairs"], checked["pairs"], strict=True):
        v = _pair_verdict(_num(pa["diff"]), pc["ci"])
        verdicts.append(v)
        pairs.append({"a": pa["a"], "b": pa["b"], "diff": pa["diff"], "ci": pa["ci"],
                      "check_diff": pc["diff"], "check_ci": pc["ci"], "verdict": v.word,
                      "verdict_why": v.why, "detectable": _round(v.detectable),
                      "holds": difference_holds(_num(pa["diff"]), _ci(pc["ci"]))})
    order_a, order_c = ranking(s_a), ranking(s_c)
    holds = ranking_holds([p["holds"] for p in pairs])
    whole = (ranking_verdict(verdicts) if verdicts else
             Verdict(NOT_CONTRADICTED, "no pair to compare"))
    try:
        label = check_label(play, str(answer.get("play", "")))
    except ValueError:  # an answer without a play spec (a constructed summary)
        label = f"another play, {play}"
    return {
        "play": play,
        "label": label,
        "deals": checked["deals"],
        "checked": True,
        "verdict": whole.word,
        "verdict_why": whole.why,
        "detectable": _round(whole.detectable),
        "holds": holds,
        "ranking_changes": not holds,
        "same_order": order_a == order_c,
        "ranking": {"answer": [s_a[i]["name"] for i in order_a],
                    "check": [s_a[i]["name"] for i in order_c]},
        "strategies": [
            {"name": a["name"], "check_name": c["name"], "mean": a["mean"],
             "check_mean": c["mean"], "check_ci": c["ci"], "zero_success": a["zero_success"],
             "check_zero_success": c["zero_success"]}
            for a, c in zip(s_a, s_c, strict=True)
        ],
        "pairs": pairs,
    }


def games_check(summary: dict[str, Any]) -> dict[str, Any] | None:
    """The check of a summary's ranking by games won, from its ``check`` (the first deals again
    under the check play): each pair of neighbours in the games' order (best first) is judged on
    the check's paired difference in points per deal between them, as a tournament pair is
    (:func:`~whist_sim.analyses.answer_check.difference_verdict`; the games are won with those
    points). Keys: ``order`` (names by games won), ``verdict``, ``verdict_why``, ``detectable``,
    ``pairs`` (``a`` above ``b`` in the games' order: ``check_diff`` ``a - b`` and
    ``check_ci``, points per deal, and ``verdict``). ``None`` without games, a ranking by games
    or a check that played."""
    games, check = summary.get("games"), summary.get("check")
    rank = (games or {}).get("ranking")
    if not rank or not check or not check.get("checked"):
        return None
    by_pair = {(p["a"], p["b"]): p for p in check.get("pairs", [])}
    order = list(rank["by_games"])
    pairs, verdicts = [], []
    for a, b in itertools.pairwise(order):
        p, sign = by_pair.get((a, b)), 1.0
        if p is None:
            p, sign = by_pair.get((b, a)), -1.0
        if p is None:
            continue
        ci = _ci(p["check_ci"])
        ci = None if ci is None else (ci[0], ci[1]) if sign > 0 else (-ci[1], -ci[0])
        v = difference_verdict(1.0, ci)  # the games put a above b
        verdicts.append(v)
        pairs.append({"a": a, "b": b, "check_diff": _round(sign * _num(p["check_diff"])),
                      "check_ci": None if ci is None else [_round(ci[0]), _round(ci[1])],
                      "verdict": v.word})
    whole = (ranking_verdict(verdicts) if verdicts else
             Verdict(NOT_CONTRADICTED, "no pair to compare"))
    return {"order": order, "verdict": whole.word, "verdict_why": whole.why,
            "detectable": _round(whole.detectable), "pairs": pairs}


def _round(v: float | None) -> float | None:
    return None if v is None else round(float(v), 2)


def _num(v: Any) -> float:
    return 0.0 if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
