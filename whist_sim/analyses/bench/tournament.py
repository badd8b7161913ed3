"""The ``tournament`` section of ``whist-sim bench``: a 4-strategy tournament vs. the engine.

Keys: ``tournament_seatings_per_s`` (plays of one deal under one seating per second, one thread),
``tournament_heuristic_deals_per_s`` (``play_batch`` with the heuristic at every seat, same
process) and ``tournament_vs_heuristic`` (their ratio; the target is >= 0.25).
"""

from __future__ import annotations

import time

from ...core.rules import Rules
from ..tournament import TournamentTask, make_entries, make_seatings, run_chunk
from .engine import rate_seating
from .registry import BenchContext, Result, bench_section

BENCH_STRATEGIES = ("heuristic", "hcp", "ltc", "cautious")


def bench_tournament(seconds: float = 2.0, rules: Rules | None = None) -> dict[str, float]:
    """Throughput of a 4-strategy, all-seatings tournament against the engine, one thread each.

    Plays chunks of :data:`BENCH_STRATEGIES` (24 seatings per deal) for about ``seconds`` and
    ``play_batch`` with the heuristic at every seat for as long, in the same process. Returns
    ``tournament_seatings_per_s`` (plays of one deal under one seating per second),
    ``tournament_heuristic_deals_per_s`` (the engine's heuristic deals per second) and
    ``tournament_vs_heuristic`` (their ratio; the target is >= 0.25).
    """
    from ...compiled.entry.batch import play_batch

    rules = Rules() if rules is None else rules
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    entries = make_entries(BENCH_STRATEGIES[: rules.players], rules.players)
    seat_arr = make_seatings(len(entries), rules.players, "all")
    n_seat = seat_arr.shape[0]
    chunk = max(1, 20_000 // n_seat)
    task = TournamentTask(1, 1 << 40, chunk, rules, tuple(e.spec for e in entries), "heuristic",
                          tuple(tuple(int(v) for v in r) for r in seat_arr), False)
    run_chunk(task, 0)  # compile or load
    heur = ("heuristic",) * rules.players
    play_batch(1, 0, 16, rules, heur, heur)
    plays, i = 0, 1
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        plays += run_chunk(task, i).count * n_seat
        i += 1
    t_rate = plays / (time.perf_counter() - t0)
    h_rate = rate_seating(rules, heur, heur, seconds)[0]
    return {
        "tournament_seatings_per_s": t_rate,
        "tournament_heuristic_deals_per_s": h_rate,
        "tournament_vs_heuristic": t_rate / h_rate,
    }


@bench_section("tournament", help="4-strategy all-seatings tournament vs. the engine's heuristic")
def _tournament(ctx: BenchContext) -> Result:
    return bench_tournament(ctx.seconds, ctx.rules)
