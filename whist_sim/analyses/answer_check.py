"""Checking an answer under search: the check play, its size, and the verdicts that say how
sure an answer is.

Every answer of whist-sim (an advice, a tournament's ranking, a bid chart's cells, the default
report's headline numbers) is computed under one play policy, by default
:data:`~whist_sim.compiled.strategies.registry.DEFAULT_PLAY`. A *check* recomputes the answer under
a searching play (``--check PLAY``, default :data:`DEFAULT_CHECK_PLAY`: the search over the
default play, derived by :func:`search_over`) on a subsample of the same deals and sets the two
side by side (docs/ADVISOR.md, docs/REPORTS.md: "Checked against search"). An output names its
check with the play ladder's measured edge over the answer's play (:func:`check_label`, read
from results/play) when the ladder shows it stronger, else as *another play*: never "stronger"
without that figure.

Conventions (every command):

* the check plays the *first* deals of the answer (deal ``j`` uses the same random stream
  ``(seed, j)``), so the two are compared on common deals;
* a check gives one of three **verdicts** (:class:`Verdict`): *confirmed* (the same answer, the
  alternative excluded by the check's interval), *not contradicted* (the check cannot tell; the
  verdict says how large a difference it would have seen with :data:`POWER`) or *contradicted*
  (the check clearly prefers another answer or reverses an order): :func:`bid_verdict`,
  :func:`difference_verdict`, :func:`ranking_verdict`. The older yes/no rule (*holds* unless
  contradicted: :func:`bid_holds`, :func:`difference_holds`, :func:`ranking_holds`) is kept for
  the outputs' ``holds`` fields;
* a check's size is chosen for power where the answer gives the spread to do it
  (:func:`deals_for_power`: a difference of :data:`TARGET_DIFFERENCE` points per deal seen with
  :data:`POWER`), else the answer's size divided by a ratio, at least :data:`CHECK_MIN_DEALS`
  deals and never more than the answer's own (:func:`check_deals`): :data:`CHECK_RATIO` (25) for
  an advice, 500 for a tournament and the default run's report, where every seat searches (a
  searching play is several hundred times slower than a compiled one); a bid chart checks
  ``max(10, min_hands / 20)`` hands of every cell on ``max(10, deals / 20)`` deals each
  (:mod:`whist_sim.analyses.advisor.chart_check`).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..compiled.strategies.registry import DEFAULT_PLAY

__all__ = [
    "CHECK_MIN_DEALS",
    "CHECK_RATIO",
    "CONFIRMED",
    "CONTRADICTED",
    "DEFAULT_CHECK_PLAY",
    "NOT_CONTRADICTED",
    "POWER",
    "TARGET_DIFFERENCE",
    "CheckError",
    "Edge",
    "Verdict",
    "bid_verdict",
    "check_label",
    "deals_for_power",
    "detectable_difference",
    "difference_verdict",
    "measured_edge",
    "ranking_verdict",
    "search_over",
    "add_check_arguments",
    "bid_holds",
    "check_deals",
    "check_play",
    "compile_check_ahead",
    "parsed_check",
    "difference_holds",
    "ranking_holds",
]

def search_over(play: str, n: int = 16) -> str:
    """The check play derived from an answer's play: a search of ``n`` rollouts per card
    finished by ``play`` (``rollout:n=16:base=learned`` over ``learned``). A search plays at
    least as well as the play it finishes with when the ladder shows it (results/play): never
    call it stronger without that figure (:func:`measured_edge`)."""
    return f"rollout:n={n}:base={play}"


#: the play of a check when ``--check`` is not given: the search over the default play,
#: derived from :data:`~whist_sim.compiled.strategies.registry.DEFAULT_PLAY` (never written out)
DEFAULT_CHECK_PLAY = search_over(DEFAULT_PLAY)
#: the answer's deals per deal of the check (a searching play is several hundred times slower
#: than a compiled one; screening keeps the check's extra time near the answer's own)
CHECK_RATIO = 25
#: the fewest deals a check plays (fewer when the answer itself has fewer)
CHECK_MIN_DEALS = 200


class CheckError(ValueError):
    """Bad check options (an unknown play, a play that cannot be a check)."""


def check_play(text: str) -> str:
    """The canonical text of the play spec ``text`` of a check (``rollout:n=16``); a
    :class:`CheckError` for anything that is not a play policy spec."""
    from ..compiled.strategies.spec import StrategyError, parse_play

    try:
        return parse_play(text).text
    except StrategyError as e:
        raise CheckError(str(e)) from None


def compile_check_ahead(play: str | None) -> bool:
    """When the check play ``play`` (a canonical spec, or None: no check) searches, start the
    compile of that search, in a process of its own, if this process finds it neither loaded
    nor in numba's cache (:func:`whist_sim.compiled.entry.deal.compile_ahead`): the loop, which
    the answer needs first, and the check's search then compile at the same time on a first
    run. Returns whether a compile was started."""
    if play is None:
        return False
    from ..compiled.entry.deal import compile_ahead
    from ..compiled.strategies.dispatch import FULL
    from ..compiled.strategies.spec import parse_play

    info = parse_play(play).info
    if not info.searches:
        return False
    return compile_ahead(FULL, (info.name,))


def check_deals(deals: int, ratio: int = CHECK_RATIO, minimum: int = CHECK_MIN_DEALS) -> int:
    """Deals of a check of an answer on ``deals`` deals: ``ceil(deals / ratio)``, at least
    ``minimum``, at most ``deals``."""
    if deals < 1:
        raise CheckError(f"a check needs at least one deal, got {deals}")
    return min(int(deals), max(int(minimum), math.ceil(deals / ratio)))


def _clearly_below(ci: Sequence[float] | None) -> bool:
    return ci is not None and not math.isnan(ci[1]) and ci[1] < 0


def _clearly_above(ci: Sequence[float] | None) -> bool:
    return ci is not None and not math.isnan(ci[0]) and ci[0] > 0


def bid_holds(answer_bid: Hashable, check_bid: Hashable,
              check_diff_ci: Sequence[float] | None) -> bool:
    """Whether a recommended bid holds under the check play: the check recommends the same bid
    (a contract, or a ``(strain, contract)`` pair), or the interval of the check's paired
    difference (its best bid's score minus the answer's bid's score, points) contains 0 or lies
    below it. ``None`` (one deal: no interval) counts as not clear."""
    if answer_bid == check_bid:
        return True
    return not _clearly_above(check_diff_ci)


def difference_holds(answer_diff: float, check_ci: Sequence[float] | None) -> bool:
    """Whether a difference ``a - b`` (points) holds under the check: false only when the check's
    interval lies wholly on the other side of zero (a clear reversal); a zero difference holds."""
    if answer_diff > 0:
        return not _clearly_below(check_ci)
    if answer_diff < 0:
        return not _clearly_above(check_ci)
    return True


def ranking_holds(pairs_hold: Sequence[bool]) -> bool:
    """A ranking holds when every pairwise difference holds (:func:`difference_holds`)."""
    return all(pairs_hold)


def add_check_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``--check PLAY`` and ``--no-check`` on the argparse ``parser`` of a script (the scripts
    that write results/); ``what`` names what is checked, for the help. Read them back with
    :func:`parsed_check`."""
    parser.add_argument("--check", default=DEFAULT_CHECK_PLAY, metavar="PLAY",
                        help=f"the searching play {what} is checked under "
                             "(default %(default)s)")
    parser.add_argument("--no-check", action="store_true", help=f"do not check {what}")


def parsed_check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str | None:
    """The canonical check play of the parsed ``args`` (:func:`add_check_arguments`), or None
    with ``--no-check``; a bad play ends the script with a one-line error naming ``--check``."""
    if args.no_check:
        return None
    try:
        play = check_play(args.check)
    except CheckError as e:
        parser.error(f"--check: {e}")
    compile_check_ahead(play)
    return play


# ------------------------------------------------------------------ how much stronger the check is

#: the curated play ladder whose steps say how much stronger one play is than another
LADDER = Path(__file__).resolve().parents[2] / "results" / "play" / "ladder.json"


@dataclass(frozen=True)
class Edge:
    """How much ``check`` gains over ``answer`` head to head, as the ladder measured it: mean
    points per seat and deal, its 95 % interval, the duplicate deals, and where it is written."""

    check: str
    answer: str
    diff: float
    ci: tuple[float, float]
    deals: int
    source: str = "results/play"

    @property
    def stronger(self) -> bool:
        """True when the ladder shows the check clearly stronger (its interval above 0)."""
        return self.ci[0] > 0


def _canonical(play: str) -> str:
    from ..compiled.strategies.spec import parse_play

    return parse_play(play).text


def measured_edge(check: str, answer: str, ladder: Path | None = None) -> Edge | None:
    """The ladder's step from ``answer`` to ``check`` (either direction, plays compared by their
    canonical specs), or None when the ladder has no such step or cannot be read (an installed
    package carries no results/)."""
    path = LADDER if ladder is None else ladder
    try:
        steps = json.loads(path.read_text(encoding="utf-8"))["steps"]
        want = (_canonical(answer), _canonical(check))
        for st in steps:
            pair = (_canonical(st["lower"]), _canonical(st["upper"]))
            if pair not in (want, want[::-1]) or st.get("diff") is None:
                continue
            sign = 1.0 if pair == want else -1.0
            lo, hi = (sign * float(x) for x in st["ci"])
            return Edge(want[1], want[0], sign * float(st["diff"]), (min(lo, hi), max(lo, hi)),
                        int(st["deals"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return None


def check_label(check: str, answer: str, ladder: Path | None = None) -> str:
    """How an output names its check: with the ladder's measured edge when the ladder shows the
    check stronger than the answer's play ("rollout:n=16:base=learned, +0.8 points per deal over
    learned (95 % CI +0.5 to +1.1, results/play)"), else as another play, never "stronger"."""
    edge = measured_edge(check, answer, ladder)
    if edge is not None and edge.stronger:
        return (f"{edge.check}, {edge.diff:+.1f} points per deal over {edge.answer} (95 % CI "
                f"{edge.ci[0]:+.1f} to {edge.ci[1]:+.1f}, {edge.deals:,} duplicate deals, "
                f"{edge.source})")
    if edge is not None:
        return (f"another play, {edge.check} ({edge.diff:+.1f} points per deal against "
                f"{edge.answer}, {edge.source}: not shown stronger)")
    return f"another play, {_canonical(check)} (the ladder, results/play, does not compare it " \
           f"with {_canonical(answer)})"


# ------------------------------------------------------------------------------- the verdicts

CONFIRMED = "confirmed"
NOT_CONTRADICTED = "not contradicted"
CONTRADICTED = "contradicted"
#: the power a check's size aims at, and the difference (points per deal) it aims to see
POWER = 0.8
TARGET_DIFFERENCE = 2.0


@dataclass(frozen=True)
class Verdict:
    """What a check says of an answer: ``word`` (:data:`CONFIRMED`, :data:`NOT_CONTRADICTED`,
    :data:`CONTRADICTED`), ``detectable``: for a check that cannot tell, the smallest difference
    (points per deal) it would have seen with :data:`POWER` (None otherwise, or without an
    interval), and ``why``, the reason in words."""

    word: str
    why: str
    detectable: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.word, "why": self.why,
                "detectable": None if self.detectable is None else round(self.detectable, 2)}


def _z(confidence: float, power: float) -> float:
    from ..core.stats import z_value

    # z_value(c) is the two-sided quantile; the power's one-sided quantile is z_value(2p - 1)
    return z_value(confidence) + z_value(2 * power - 1)


def detectable_difference(se: float, confidence: float = 0.95, power: float = POWER) -> float:
    """The smallest true difference (points per deal) that a two-sided test at ``confidence``
    finds with ``power``, given the standard error ``se`` of the estimated difference:
    ``(z_(1 - a/2) + z_power) * se`` (2.80 standard errors at 95 % and 80 %)."""
    return _z(confidence, power) * float(se)


def deals_for_power(sd: float, target: float = TARGET_DIFFERENCE, confidence: float = 0.95,
                    power: float = POWER) -> int:
    """Deals a paired comparison needs to see a difference of ``target`` points per deal with
    ``power``, when the difference on one deal has the standard deviation ``sd`` (points):
    ``ceil(((z_(1 - a/2) + z_power) * sd / target) ** 2)``, at least 2."""
    if not target > 0:
        raise CheckError(f"the target difference must be above 0, got {target}")
    if not math.isfinite(sd) or sd <= 0:
        return 2
    return max(2, math.ceil((_z(confidence, power) * sd / target) ** 2))


def _se_of(ci: Sequence[float], confidence: float) -> float:
    from ..core.stats import z_value

    return (float(ci[1]) - float(ci[0])) / (2 * z_value(confidence))


def bid_verdict(answer_bid: str, runner_up: str | None, check_best: str,
                prefer_ci: Sequence[float] | None, order_ci: Sequence[float] | None,
                confidence: float = 0.95) -> Verdict:
    """The verdict of a check on a recommended bid (bids as their texts, ``"6"``, ``"6S"``).

    ``check_best``: the check's best bid; ``prefer_ci``: the check's paired interval of its best
    bid's score minus the answer's bid's (None when they are the same bid); ``order_ci``: the
    check's paired interval of the answer's bid minus the answer's runner-up (None without a
    runner-up or an interval). Points per deal.

    * :data:`CONTRADICTED`: the check clearly prefers another bid (``prefer_ci`` above 0) or
      clearly reverses the order of the top two (``order_ci`` below 0);
    * :data:`CONFIRMED`: the check finds the same best bid and excludes the runner-up
      (``order_ci`` above 0);
    * :data:`NOT_CONTRADICTED`: otherwise; ``detectable`` says how large a difference between
      the top two the check would have seen (:func:`detectable_difference`).
    """
    if check_best != answer_bid and _clearly_above(prefer_ci):
        assert prefer_ci is not None
        return Verdict(CONTRADICTED, f"the check prefers {check_best}, by {prefer_ci[0]:.1f} "
                       f"to {prefer_ci[1]:.1f} points per deal")
    if runner_up is not None and _clearly_below(order_ci):
        assert order_ci is not None
        return Verdict(CONTRADICTED, f"the check puts {runner_up} above {answer_bid}, by "
                       f"{-order_ci[1]:.1f} to {-order_ci[0]:.1f} points per deal")
    if runner_up is None:
        if check_best == answer_bid:
            return Verdict(CONFIRMED, f"the check finds the same best bid, {answer_bid}, and no "
                           "other legal bid")
        return Verdict(NOT_CONTRADICTED, f"the check's best bid is {check_best}, not clearly "
                       "better")
    if check_best == answer_bid and _clearly_above(order_ci):
        return Verdict(CONFIRMED, f"the check finds the same best bid, {answer_bid}, clearly "
                       f"ahead of {runner_up}")
    detectable = (None if order_ci is None or any(math.isnan(x) for x in order_ci)
                  else detectable_difference(_se_of(order_ci, confidence), confidence))
    lead = (f"the check's best bid is {check_best}, not clearly better than {answer_bid}"
            if check_best != answer_bid else
            f"the check finds the same best bid, {answer_bid}, but cannot tell it from "
            f"{runner_up}")
    seen = ("" if detectable is None else
            f"; it would have seen a difference of {detectable:.1f} points per deal")
    return Verdict(NOT_CONTRADICTED, lead + seen, detectable)


def difference_verdict(answer_diff: float, check_ci: Sequence[float] | None,
                       confidence: float = 0.95) -> Verdict:
    """The verdict of a check on a difference ``a - b`` (points per deal) that the answer found:
    :data:`CONFIRMED` when the check's interval lies wholly on the answer's side of 0,
    :data:`CONTRADICTED` when it lies wholly on the other side (a reversal), else
    :data:`NOT_CONTRADICTED` with the difference the check would have seen. A zero difference
    is confirmed by an interval that holds 0 and contradicted by none."""
    if check_ci is None or any(math.isnan(x) for x in check_ci):
        return Verdict(NOT_CONTRADICTED, "the check has no interval (too few deals)")
    lo, hi = float(check_ci[0]), float(check_ci[1])
    if answer_diff > 0 and lo > 0 or answer_diff < 0 and hi < 0:
        return Verdict(CONFIRMED, f"the check finds the same order ({lo:+.1f} to {hi:+.1f})")
    if answer_diff > 0 and hi < 0 or answer_diff < 0 and lo > 0:
        return Verdict(CONTRADICTED, f"the check reverses the order ({lo:+.1f} to {hi:+.1f})")
    if answer_diff == 0:
        return Verdict(CONFIRMED if lo <= 0 <= hi else NOT_CONTRADICTED,
                       f"the check's difference: {lo:+.1f} to {hi:+.1f}")
    detectable = detectable_difference(_se_of((lo, hi), confidence), confidence)
    return Verdict(NOT_CONTRADICTED, f"the check cannot tell the two apart ({lo:+.1f} to "
                   f"{hi:+.1f}); it would have seen a difference of {detectable:.1f} points per "
                   "deal", detectable)


def ranking_verdict(pairs: Sequence[Verdict]) -> Verdict:
    """A ranking's verdict from the verdicts of its pairwise differences: contradicted when one
    pair is, confirmed when every pair is, else not contradicted (the largest difference a pair's
    check could not have seen)."""
    if any(v.word == CONTRADICTED for v in pairs):
        n = sum(v.word == CONTRADICTED for v in pairs)
        return Verdict(CONTRADICTED, f"the check reverses {n} of the {len(pairs)} pairs")
    if all(v.word == CONFIRMED for v in pairs):
        return Verdict(CONFIRMED, f"the check finds every one of the {len(pairs)} pairs in the "
                       "same order")
    open_ = [v for v in pairs if v.word == NOT_CONTRADICTED]
    seen = [v.detectable for v in open_ if v.detectable is not None]
    worst = max(seen) if seen else None
    return Verdict(NOT_CONTRADICTED, f"the check cannot tell {len(open_)} of the {len(pairs)} "
                   "pairs apart" + ("" if worst is None else
                                    f"; it would have seen differences of {worst:.1f} points "
                                    "per deal"), worst)
