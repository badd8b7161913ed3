"""The ``dd`` section of ``whist-sim bench``: double-dummy milliseconds per solve.

The benchmark itself is :func:`whist_sim.analyses.bench.dd_solves.run_bench` (keys documented
there); it is imported when the section runs, so the solver is loaded only when measured.
"""

from __future__ import annotations

from .registry import BenchContext, Result, bench_section


@bench_section("dd", help="double-dummy ms per solve: bridge, whist-max/min (node-limited)")
def _dd(ctx: BenchContext) -> Result:
    from .dd_solves import run_bench as dd_bench

    return dd_bench(threads=ctx.threads)
