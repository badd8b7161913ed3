"""Duplicate tournaments between bidding strategies, with honest statistics.

``tournament(["hcp", "heuristic"], deals=100_000, seed=1)`` plays every deal under every
**seating** of the strategies, so card luck cancels: a strategy that holds the good cards in one
seating holds the bad ones in another, on the very same deal.

Entries and seats
    The strategies (1..P specs, :mod:`whist_sim.compiled.strategies.spec`; the same spec may appear
    twice) are the tournament's **entries**, labelled ``BID/PLAY`` (the play spelled out even when
    it is ``play``), or ``BID/PLAY#i`` (``i`` = 1-based slot in the list) when one appears more than
    once. With fewer entries than seats the seats are filled cyclically: entry ``s % k`` sits in
    seat ``s`` of the base arrangement (``a,b,a,b`` for two strategies at four seats, ``a,b,c,a``
    for three), so an entry may hold several seats; its score in a play is the mean over its seats.

Seatings (``rotations``)
    ``"all"``: every distinct arrangement of the base (24 for four distinct entries, 6 for
    ``a,b,a,b``, 12 for ``a,b,c,a``); ``"rotate"`` (or the number of players, e.g. ``4``): the P
    cyclic rotations of the base (each entry in every seat; neighbours stay the same). Identical
    arrangements are played once: repeats would replay identical plays.

Designs
    ``"duplicate"`` (default): every seating of deal ``i`` replays the random stream
    ``(seed, i)``: same cards, same dealer (``i % P``). ``"independent"``: seating ``k`` of deal
    ``i`` plays the fresh deal ``i * S + k`` (as many plays, no card replayed) - the baseline the
    duplicate design is measured against, and a null model with real noise (two copies of one
    deterministic strategy tie exactly on every duplicate deal, by symmetry).

Statistics (per **deal**: the unit is the duplicate deal, its S plays averaged)
    * per entry: mean score per deal (points per seat), Student-t 95 % CI over deals; contract hit
      rate, zero-bid rate and success, over-deal share and hit rates in over / under deals, over-
      and undertrick rates, mean contract and tricks, declarer share and mean auction level;
    * per pair ``(a, b)``: mean per-deal difference ``a - b``, its paired t CI and two-sided
      p-value; and, for comparison, the normal CI the data would give **without** duplication,
      from the spread of ``z = y_a - y_b``, the difference of the two entries' scores in a single
      play: ``ci_independent`` for as many independent deals (each played once, fresh cards:
      ``diff +- 1.96 sd(z) / sqrt(deals)``) and ``ci_independent_plays`` for as many independent
      plays (``/ sqrt(deals * S)``: the same computing cost); ``ci_shrink`` /
      ``ci_shrink_plays`` = independent half-width / duplicate half-width;
    * ``sprt=(A, B)``: Wald's sequential probability ratio test of every pair's difference, H0:
      diff = A against H1: diff = B (points per deal), normal approximation with the variance
      estimated as it goes, ``alpha = beta = 0.05``; after at least :data:`SPRT_MIN_DEALS` deals it
      accepts H1 when ``LLR >= log((1 - beta) / alpha)`` and H0 when ``LLR <= log(beta /
      (1 - alpha))``. The run stops as soon as every pair is decided (the statistics then cover
      the deals played; intervals after an optional stop are approximate).

Running
    Deals are cut into chunks played by the compiled kernel
    (:mod:`whist_sim.compiled.entry.tournament`) on local threads or a Dask cluster
    (:mod:`whist_sim.runs.executors`); results are combined in deal order, so everything (SPRT
    included) depends only on the options, never on chunk size, threads or workers. With ``out``
    the per-deal scores go to ``out/scores/part-<k>.parquet`` (one row per deal: ``deal`` and one
    column per entry, its duplicate score in points), plus ``summary.json``, ``report.md`` and
    ``tournament.png`` (and, with ``formats``, ``tables/*.csv`` and ``report.html``).

Modules
    :mod:`~whist_sim.analyses.tournament.schedule` (entries, seatings, chunk tasks played by the
    kernel),
    :mod:`~whist_sim.analyses.tournament.results` (running totals, the summary, DataFrames, per-deal
    scores), :mod:`~whist_sim.analyses.tournament.render` (Markdown, text, JSON, chart, CSV and HTML
    through the reports' renderer), :mod:`~whist_sim.analyses.tournament.runner`
    (:func:`tournament`). The statistics (intervals, paired tests, the SPRT) are
    :mod:`whist_sim.core.stats`; the benchmark is :mod:`whist_sim.analyses.bench.tournament`.
    Imports go one way: schedule <- results <- render <- runner.
"""

from __future__ import annotations

from ...core.stats import Sprt, paired_test
from .options import TournamentOptions
from .render import (
    OUTPUT_FORMATS,
    chart_figure,
    chart_png,
    pairs_table,
    ranking_table,
    render_json,
    render_markdown,
    render_text,
    sprt_table,
    tournament_report,
    write_outputs,
)
from .results import (
    SCORES_DIR,
    Aggregate,
    load_scores,
    pairs_frame,
    ranking_frame,
    sprt_frame,
    summarize,
)
from .runner import SPRT_ALPHA, SPRT_BETA, SPRT_MIN_DEALS, parse_sprt, tournament
from .schedule import (
    DESIGNS,
    MAX_SEED,
    PLAYS_PER_CHUNK,
    ChunkResult,
    Entry,
    TournamentError,
    TournamentTask,
    make_entries,
    make_seatings,
    run_chunk,
    task_arrays,
)

__all__ = [
    "TournamentOptions",
    "DESIGNS",
    "MAX_SEED",
    "OUTPUT_FORMATS",
    "PLAYS_PER_CHUNK",
    "SCORES_DIR",
    "SPRT_ALPHA",
    "SPRT_BETA",
    "SPRT_MIN_DEALS",
    "Aggregate",
    "ChunkResult",
    "Entry",
    "Sprt",
    "TournamentError",
    "TournamentTask",
    "chart_figure",
    "chart_png",
    "load_scores",
    "make_entries",
    "make_seatings",
    "paired_test",
    "pairs_frame",
    "pairs_table",
    "parse_sprt",
    "ranking_frame",
    "ranking_table",
    "render_json",
    "render_markdown",
    "render_text",
    "run_chunk",
    "sprt_frame",
    "sprt_table",
    "summarize",
    "task_arrays",
    "tournament",
    "tournament_report",
    "write_outputs",
]
