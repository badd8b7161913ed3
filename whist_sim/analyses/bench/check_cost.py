"""Benchmark section ``check_cost``: what a check against search costs, against its answer, at the
README's sizes, both measured in the same run.

Keys:

* ``check_bid_chart_s`` / ``check_bid_chart_check_s``: ``whist-sim bid-chart --min-hands 20
  --deals 50`` (its chart, the default play) and its check under the default check play
  (:func:`whist_sim.analyses.advisor.chart_check.check_chart`), wall seconds;
  ``check_bid_chart_check_vs_chart`` their ratio (the target is at most 2);
* ``check_tournament_s`` / ``check_tournament_check_s``: ``whist-sim tournament --strategies
  cautious,ltc,hcp,heuristic --deals 100000 --seed 1`` and its check;
  ``check_tournament_check_vs_tournament`` their ratio (the target is at most 3);
* ``check_bid_chart_checked_cells`` / ``check_bid_chart_screened_cells``,
  ``check_tournament_check_deals``: the checks' sizes.

Both answers and both checks run once first on a few deals, so that no compile is timed. The
section takes a few minutes; it runs only when asked for (``whist-sim bench --only
check_cost``). Run it on a quiet machine: the ratio is of two timings.
"""

from __future__ import annotations

import time

from .registry import BenchContext, Result, bench_section

#: the README's sizes
CHART_MIN_HANDS, CHART_DEALS = 20, 50
TOURNAMENT = ("cautious", "ltc", "hcp", "heuristic")
TOURNAMENT_DEALS, TOURNAMENT_SEED = 100_000, 1


def bench_check_cost(threads: int | None = None, chart: bool = True,
                     tournament: bool = True, play: str | None = None,
                     chart_sizes: tuple[int, int, int | None] = (CHART_MIN_HANDS, CHART_DEALS,
                                                                 None),
                     tournament_deals: int = TOURNAMENT_DEALS) -> Result:
    """The check's cost against its answer's, for a bid chart and a tournament (module doc):
    under the check play ``play`` (default the default check), at the README's sizes unless
    ``chart_sizes`` (min hands, deals per hand, hands classed) and ``tournament_deals`` say
    otherwise."""
    from ..answer_check import DEFAULT_CHECK_PLAY

    play = DEFAULT_CHECK_PLAY if play is None else play
    min_hands, deals, hands = chart_sizes
    out: Result = {}
    if chart:
        from ..advisor.bidchart import bid_chart
        from ..advisor.chart_check import SCREENED, check_chart

        warm = bid_chart(hands=400, min_hands=2, deals_per_hand=2, seed=1, threads=threads,
                         progress=False, nt=False)
        check_chart(warm, play, min_n=2, budget=8, threads=threads)
        t0 = time.perf_counter()
        df = bid_chart(hands=hands, min_hands=min_hands, deals_per_hand=deals, threads=threads,
                       progress=False)
        t1 = time.perf_counter()
        checked = check_chart(df, play, threads=threads)
        t2 = time.perf_counter()
        out.update({
            "check_bid_chart_s": t1 - t0, "check_bid_chart_check_s": t2 - t1,
            "check_bid_chart_check_vs_chart": (t2 - t1) / (t1 - t0),
            "check_bid_chart_checked_cells": int((checked["verdict"] != SCREENED).sum()),
            "check_bid_chart_screened_cells": int((checked["verdict"] == SCREENED).sum()),
        })
    if tournament:
        from ..tournament import tournament as play_tournament

        play_tournament(list(TOURNAMENT), 40, 2, threads=threads, progress=False, check=play,
                        check_deals=2)
        s = play_tournament(list(TOURNAMENT), tournament_deals, TOURNAMENT_SEED,
                            threads=threads, progress=False, check=play)
        answer, check = float(s["wall_s"]), float(s["check"]["wall_s"])
        out.update({
            "check_tournament_s": answer, "check_tournament_check_s": check,
            "check_tournament_check_vs_tournament": check / answer,
            "check_tournament_check_deals": int(s["check"]["deals"]),
        })
    return out


@bench_section("check_cost", default=False,
               help="a bid chart's and a tournament's check against search, each against its "
               "answer, at the README's sizes (minutes)")
def _check_cost(ctx: BenchContext) -> Result:
    return bench_check_cost(ctx.threads)
