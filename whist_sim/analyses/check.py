"""Checking an answer under a stronger play: the check play, the subsample rule and the
comparisons that say whether an answer holds.

Every answer of whist-sim (an advice, a tournament's ranking, a bid chart's cells, the default
report's headline numbers) is computed under one play policy, by default
:data:`~whist_sim.compiled.strategies.registry.DEFAULT_PLAY`. A *check* recomputes the answer under
a searching play (``--check PLAY``, default :data:`DEFAULT_CHECK_PLAY`) on a subsample of the same
deals and sets the two side by side (docs/ADVISOR.md, docs/REPORTS.md: "Checked against search").

Conventions (every command):

* the check plays the *first* deals of the answer (deal ``j`` uses the same random stream
  ``(seed, j)``), so the two are compared on common deals;
* an answer **holds** unless the check clearly contradicts it: a recommended bid holds when, under
  the check play, it is the best bid or not clearly worse than the best (the interval of the
  paired difference contains 0); a difference between two entrants holds unless the check's
  interval lies wholly on the other side of zero; a ranking holds when every one of its pairwise
  differences holds. The point estimates under both plays are always shown, so an order that
  moves within the noise is visible too;
* the subsample is the answer's size divided by a ratio, at least :data:`CHECK_MIN_DEALS` deals
  and never more than the answer's own (:func:`check_deals`): :data:`CHECK_RATIO` (25) for an
  advice, which searches only its best few bids; 500 for a tournament and the default run's
  report, where every seat searches (a searching play is several hundred times slower than a
  compiled one); a bid chart checks ``max(10, min_hands / 20)`` hands of every cell on
  ``max(10, deals / 20)`` deals each (:mod:`whist_sim.analyses.advisor.chart_check`).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Hashable, Sequence

__all__ = [
    "CHECK_MIN_DEALS",
    "CHECK_RATIO",
    "DEFAULT_CHECK_PLAY",
    "CheckError",
    "add_check_arguments",
    "bid_holds",
    "check_deals",
    "check_play",
    "compile_check_ahead",
    "parsed_check",
    "difference_holds",
    "ranking_holds",
]

#: the play of a check when ``--check`` is not given: a search of 16 rollouts per card
DEFAULT_CHECK_PLAY = "rollout:n=16"
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
    from ..compiled.strategies.registry import SEARCHING_PLAYS
    from ..compiled.strategies.spec import parse_play

    info = parse_play(play).info
    if info.id not in SEARCHING_PLAYS:
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
