"""The ``advisor`` section of ``whist-sim bench``: a warm advice and bid-chart hands per second.

Keys: ``advise_warm_s`` and ``bid_chart_hands_per_s`` (:func:`bench_advisor`).
"""

from __future__ import annotations

import time

from ..advisor import DEFAULT_DEALS, advise
from ..advisor.bidchart import bid_chart
from .registry import BenchContext, Result, bench_section


def bench_advisor(hands: int = 200, deals_per_hand: int = 200,
                  threads: int | None = None) -> dict[str, float]:
    """Benchmark keys of the advisor (wall-clock seconds, rates per second of wall time).

    * ``advise_warm_s``: one :func:`advise` call in contract mode for the second bidder (14
      candidate bids), 10,000 deals, heuristic play, one thread, after a warm-up call (so the
      compiled code is loaded, not compiled);
    * ``bid_chart_hands_per_s``: :func:`whist_sim.analyses.advisor.bidchart.bid_chart` hands per
      second with ``deals_per_hand`` deals each (heuristic play), on ``threads`` local threads
      (default: every CPU).
    """
    hand = "AKQ2.K3.QJ54.872"
    # heuristic play (named: the default play changed), so the figures stay comparable
    advise(hand, trump="S", declarer=3, bids=[6], deals=50, play="heuristic")  # warm: compile
    t0 = time.perf_counter()
    advise(hand, trump="S", declarer=3, bids=[6], deals=DEFAULT_DEALS, play="heuristic")
    warm = time.perf_counter() - t0
    bid_chart(hands=8, deals_per_hand=4, seed=1, threads=1, progress=False,
              play="heuristic")  # warm
    t0 = time.perf_counter()
    bid_chart(hands=hands, deals_per_hand=deals_per_hand, seed=1, threads=threads, progress=False,
              play="heuristic", min_hands=10**7, nt=False)  # every hand, suit panel: as before
    rate = hands / (time.perf_counter() - t0)
    return {"advise_warm_s": warm, "bid_chart_hands_per_s": rate}


@bench_section("advisor", help="advise() warm, 10,000 deals per bid; bid-chart hands per second")
def _advisor(ctx: BenchContext) -> Result:
    return bench_advisor(threads=ctx.threads)
