"""Speed benchmarks: every section of ``whist-sim bench`` (``make bench``) and its runner.

``run_bench`` runs the registered sections in registration order (later sections may use the
keys of earlier ones, e.g. the compiled/reference ratios) and merges their results into one
flat dict; ``whist-sim bench --json`` prints it. Sections, in order:

* ``compile``, ``compiled``, ``reference`` - the engines (:mod:`whist_sim.analyses.bench.engine`);
* ``advisor`` - a warm advice and bid-chart hands per second
  (:mod:`whist_sim.analyses.bench.advisor`);
* ``bid_chart`` - stratified bid charts: hand evaluations and hands classed per second
  (:mod:`whist_sim.analyses.bench.bid_chart`);
* ``tournament`` - a 4-strategy tournament against the engine
  (:mod:`whist_sim.analyses.bench.tournament`);
* ``bidder`` - one ``learned`` bidder among ``heuristic`` ones against ``heuristic`` bidders
  (:mod:`whist_sim.analyses.bench.bidder`);
* ``cluster`` - ``simulate`` embedded vs. a local Dask cluster
  (:mod:`whist_sim.analyses.bench.cluster`);
* ``compile_cold`` (only when asked for) - the first ``simulate`` and ``advise`` of a fresh
  install, each on an empty kernel cache (:mod:`whist_sim.analyses.bench.compile_cold`);
* ``check_cost`` (only when asked for) - a bid chart's and a tournament's check against search,
  each against its answer at the README's sizes (:mod:`whist_sim.analyses.bench.check_cost`);
* ``dd`` - the double-dummy solver (:mod:`whist_sim.analyses.bench.dd`, which runs
  :func:`whist_sim.analyses.bench.dd_solves.run_bench`).

The registry, context and text output are :mod:`whist_sim.analyses.bench.registry`; a new section is
a function decorated with :func:`bench_section` in a module imported here. Rates are deals per
second of wall-clock time unless the key says ``cpu``; on a shared machine compare the ratios of one
run rather than absolute rates across runs.
"""

from __future__ import annotations

# Section modules register on import, and this import order is the order the sections run in
# (and are listed in): keep it, not the alphabet.
# isort: off
from . import engine  # noqa: F401  (compile, compiled, reference)
from . import advisor  # noqa: F401
from . import bid_chart  # noqa: F401
from . import tournament  # noqa: F401
from . import bidder  # noqa: F401
from . import cluster  # noqa: F401
from . import dd  # noqa: F401
from . import play  # noqa: F401  (not a default section)
from . import compile_cold  # noqa: F401  (not a default section)
from . import check_cost  # noqa: F401  (not a default section)
# isort: on
from .engine import CHUNK, rate_single, rate_threads, reference_rate
from .registry import (
    DEFAULT_SECONDS,
    SECTIONS,
    BenchContext,
    BenchSection,
    Result,
    available_threads,
    bench_section,
    format_results,
    run_bench,
)

__all__ = [
    "CHUNK",
    "DEFAULT_SECONDS",
    "SECTIONS",
    "BenchContext",
    "BenchSection",
    "Result",
    "available_threads",
    "bench_section",
    "format_results",
    "rate_single",
    "rate_threads",
    "reference_rate",
    "run_bench",
]
