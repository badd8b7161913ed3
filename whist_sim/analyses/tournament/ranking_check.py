"""A tournament checked against search: the same entrants on the first deals of the run, every
entrant given as ``BID`` alone now playing the check play (a searching policy, ``rollout:n=16`` by
default; :mod:`whist_sim.analyses.answer_check`), and the ranking and every pair's difference set
side by
side.

:func:`compare_check` builds the summary's ``check`` object from the two summaries (a pure
function: the comparison logic, tested on constructed summaries); the runner plays the check
(:func:`whist_sim.analyses.tournament.runner.tournament` with ``check=``). Entrants that name their
own play policy (``BID/PLAY``) keep it in the check. Differences are points per deal (entrant ``a``
minus ``b``), intervals paired over the duplicate deals with the summary's coverage.
"""

from __future__ import annotations

import math
from typing import Any

from ..answer_check import CHECK_MIN_DEALS, check_deals, difference_holds, ranking_holds

__all__ = ["CHECK_RATIO", "RANKING_CHANGES", "compare_check", "ranking", "tournament_check_deals"]

#: the tournament's deals per deal of its check: every seat of every seating searches in the
#: check (no screening is possible), about 500 times slower than a compiled play
CHECK_RATIO = 500
#: the line a report prints when the check contradicts the ranking
RANKING_CHANGES = "the ranking changes under stronger play"


def tournament_check_deals(deals: int) -> int:
    """Deals of a tournament's check: ``ceil(deals / 500)``, at least 200, at most ``deals``."""
    return check_deals(deals, CHECK_RATIO, CHECK_MIN_DEALS)


def _mean(v: Any) -> float:
    return -math.inf if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def ranking(strategies: list[dict[str, Any]]) -> list[int]:
    """Entrant indices by mean score per deal, best first (ties: the earlier entrant)."""
    return sorted(range(len(strategies)), key=lambda i: (-_mean(strategies[i]["mean"]), i))


def compare_check(answer: dict[str, Any], checked: dict[str, Any], play: str) -> dict[str, Any]:
    """The ``check`` object of a tournament summary ``answer`` from the summary ``checked`` of the
    same entrants (same order) under the check play ``play``.

    Keys: ``play``, ``deals`` (the check's duplicate deals), ``checked`` (true), ``holds`` (the
    ranking holds: every pair holds), ``ranking_changes`` (``not holds``), ``same_order`` (the
    check's order by mean equals the answer's, point estimates), ``ranking`` (``answer`` and
    ``check``: entrant names best first), ``strategies`` (per entrant: ``name``, ``check_name``,
    ``mean``, ``check_mean``, ``check_ci``, ``zero_success``, ``check_zero_success``), ``pairs``
    (per pair: ``a``, ``b``, ``diff``, ``ci``, ``check_diff``, ``check_ci``, ``holds``)."""
    s_a, s_c = answer["strategies"], checked["strategies"]
    if len(s_a) != len(s_c) or len(answer["pairs"]) != len(checked["pairs"]):
        raise ValueError("the check's entrants differ from the tournament's")
    pairs = []
    for pa, pc in zip(answer["pairs"], checked["pairs"], strict=True):
        holds = difference_holds(_num(pa["diff"]), pc["ci"])
        pairs.append({"a": pa["a"], "b": pa["b"], "diff": pa["diff"], "ci": pa["ci"],
                      "check_diff": pc["diff"], "check_ci": pc["ci"], "holds": holds})
    order_a, order_c = ranking(s_a), ranking(s_c)
    holds = ranking_holds([p["holds"] for p in pairs])
    return {
        "play": play,
        "deals": checked["deals"],
        "checked": True,
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


def _num(v: Any) -> float:
    return 0.0 if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
