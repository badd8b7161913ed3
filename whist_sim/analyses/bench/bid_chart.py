"""The ``bid_chart`` section of ``whist-sim bench``: the throughput of stratified bid charts.

Keys (:func:`bench_bid_chart`): ``bid_chart_hand_evals_per_s`` (hands evaluated per second of
wall time: every legal contract of one hand on ``deals`` sampled deals, the default play),
``bid_chart_hand_deals_per_s`` (the same times ``deals``), ``bid_chart_eval_cpu_ms`` (CPU-ish
milliseconds per hand evaluation: wall time x threads / evaluations) and
``bid_chart_screen_hands_per_s`` (hands classed per second: one auction each). With these,
a chart's run time is about ``evaluations / evals_per_s + screened / screen_per_s``.
"""

from __future__ import annotations

import time

from ..advisor.bidchart import bid_chart
from .registry import BenchContext, Result, bench_section


def bench_bid_chart(evaluations: int = 200, deals: int = 200, screen: int = 400_000,
                    threads: int | None = None) -> dict[str, float]:
    """Benchmark keys of bid charts (see the module doc): ``evaluations`` hands (suit panel)
    with ``deals`` deals each, and ``screen`` hands classed, on ``threads`` local threads."""
    from ...runs.executors import default_threads

    threads = threads or default_threads()
    bid_chart(hands=8, deals_per_hand=2, seed=1, threads=1, progress=False)  # warm: compile
    t0 = time.perf_counter()
    df = bid_chart(hands=evaluations, min_hands=10**7, deals_per_hand=deals, seed=1,
                   threads=threads, progress=False, nt=False)
    wall = time.perf_counter() - t0
    rate = len(df) / wall
    sc = bid_chart(hands=screen, min_hands=1, deals_per_hand=1, seed=1, threads=threads,
                   progress=False, nt=False)
    return {
        "bid_chart_hand_evals_per_s": rate,
        "bid_chart_hand_deals_per_s": rate * deals,
        "bid_chart_eval_cpu_ms": 1000.0 * wall * threads / max(len(df), 1),
        "bid_chart_screen_hands_per_s": screen / sc.attrs["screen_s"],
    }


@bench_section("bid_chart", help="bid-chart hand evaluations (200 deals, default play) and "
               "hands classed per second")
def _bid_chart(ctx: BenchContext) -> Result:
    # sized by the time budget: 200 evaluations and 400,000 hands classed at the default 2 s
    return bench_bid_chart(evaluations=max(20, round(100 * ctx.seconds)),
                           screen=max(20_000, round(200_000 * ctx.seconds)), threads=ctx.threads)
