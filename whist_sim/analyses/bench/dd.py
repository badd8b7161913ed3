"""The ``dd`` section of ``whist-sim bench``: double-dummy milliseconds per solve.

The benchmark itself is :func:`whist_sim.analyses.bench.dd_solves.run_bench` (keys documented
there); it is imported when the section runs, so the solver is loaded only when measured. At
the default ``--seconds`` it solves 20 deals, 20 endings and a batch of 100 deals; a smaller
budget solves proportionally fewer (at least 2, 2 and 4).
"""

from __future__ import annotations

from .registry import BenchContext, Result, bench_section


@bench_section("dd", help="double-dummy ms per solve: bridge, whist-max/min (node-limited)")
def _dd(ctx: BenchContext) -> Result:
    from .dd_solves import run_bench as dd_bench

    return dd_bench(deals=ctx.scaled(20, 2), endings=ctx.scaled(20, 2),
                    batch_deals=ctx.scaled(100, 4), threads=ctx.threads)
