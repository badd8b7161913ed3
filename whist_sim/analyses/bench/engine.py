"""Benchmark sections of the engines: ``compile``, ``compiled`` and ``reference``.

* ``compile`` - ``compile_s``: seconds of the first ``play_batch`` calls (random and heuristic),
  i.e. compiling the kernels or loading them from numba's disk cache (``compile_cached``);
* ``compiled`` - steady state, full deals (dealing, auction, Frisch, contracts, play, scoring):
  ``random_1t`` / ``heuristic_1t`` on one thread, ``random_all`` / ``heuristic_all`` on
  ``threads`` threads (chunks of ``play_batch`` handed out dynamically to a thread pool; the
  kernels release the GIL), and ``*_scaling`` = all / 1t. ``*_1t_cpu`` are the same single-thread
  rates per CPU second of the thread (less disturbed by other work on a shared machine);
* ``reference`` - ``reference_1t`` / ``reference_heuristic_1t``: the reference engine
  (``play_deal``) on a few hundred deals, with ``random_vs_reference`` and
  ``heuristic_vs_reference`` (compiled 1t / reference, same run); the ``*_cpu`` variants divide
  rates per CPU second, which other load on the machine disturbs much less.

The kernels are imported when a section runs (compiling or loading them is what ``compile``
measures).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ...core.rules import Rules
from .registry import BenchContext, Result, bench_section

# ----------------------------------------------------------------------------- measurements

CHUNK = 20_000  # deals per play_batch call in steady state


def _seating(rules: Rules, policy: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (policy,) * rules.players, (policy,) * rules.players


def rate_single(
    rules: Rules, policy: str, seconds: float, chunk: int = CHUNK
) -> tuple[float, float]:
    """(deals per wall second, deals per CPU second of this thread) of ``play_batch`` in a loop,
    ``policy`` bidding and playing at every seat."""
    return rate_seating(rules, *_seating(rules, policy), seconds, chunk)


def rate_seating(rules: Rules, bid: Sequence[str], play: Sequence[str], seconds: float,
                 chunk: int = CHUNK) -> tuple[float, float]:
    """:func:`rate_single` of the seating ``bid`` / ``play`` (one spec per seat), for about
    ``seconds``."""
    from ...compiled.entry.batch import play_batch

    deals = 0
    w0, c0 = time.perf_counter(), time.thread_time()
    while True:
        play_batch(1, deals, chunk, rules, bid, play)
        deals += chunk
        wall = time.perf_counter() - w0
        if wall >= seconds:
            break
    cpu = time.thread_time() - c0
    return deals / wall, deals / max(cpu, 1e-9)


def rate_threads(rules: Rules, policy: str, seconds: float, threads: int,
                 chunk: int = CHUNK) -> float:
    """Deals per wall second of ``threads`` threads taking chunks of deals from a shared counter."""
    from ...compiled.entry.batch import play_batch

    bid, play = _seating(rules, policy)
    counter = itertools.count()
    lock = threading.Lock()
    done = [0]
    deadline = time.perf_counter() + seconds

    def worker() -> None:
        while time.perf_counter() < deadline:
            with lock:
                k = next(counter)
            play_batch(1, k * chunk, chunk, rules, bid, play)
            with lock:
                done[0] += chunk

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for f in [pool.submit(worker) for _ in range(threads)]:
            f.result()
    return done[0] / (time.perf_counter() - t0)


def reference_rate(rules: Rules, policy: str, deals: int = 300) -> tuple[float, float]:
    """(deals per wall second, per CPU second of this thread) of the reference engine's
    ``play_deal`` over ``deals`` deals."""
    from ...engine import play_deal

    policies = (policy,) * rules.players
    w0, c0 = time.perf_counter(), time.thread_time()
    for i in range(deals):
        play_deal(1, i, rules, policies=policies)
    wall, cpu = time.perf_counter() - w0, time.thread_time() - c0
    return deals / wall, deals / max(cpu, 1e-9)


# ----------------------------------------------------------------------------- sections


@bench_section("compile", help="first play_batch calls: compile or load the kernels")
def _compile(ctx: BenchContext) -> Result:
    from ...compiled.entry import batch

    before = _cache_hits(batch._batch_kernel)
    t0 = time.perf_counter()
    for policy in ("random", "heuristic"):
        bid, play = _seating(ctx.rules, policy)
        batch.play_batch(1, 0, 16, ctx.rules, bid, play)
    compile_s = time.perf_counter() - t0
    return {"compile_s": compile_s, "compile_cached": _cache_hits(batch._batch_kernel) > before}


def _cache_hits(dispatcher: Any) -> int:
    try:
        return sum(dispatcher.stats.cache_hits.values())
    except AttributeError:  # pragma: no cover - numba internals
        return 0


@bench_section("compiled", help="compiled engine, steady state, one thread and all threads")
def _compiled(ctx: BenchContext) -> Result:
    from ...compiled.entry.batch import play_batch

    out: Result = {}
    for policy in ("random", "heuristic"):
        bid, play = _seating(ctx.rules, policy)
        play_batch(1, 0, 16, ctx.rules, bid, play)  # warm: compiled or loaded
        wall, cpu = rate_single(ctx.rules, policy, ctx.seconds)
        out[f"{policy}_1t"], out[f"{policy}_1t_cpu"] = wall, cpu
        ctx.log(f"bench: {policy} 1 thread {wall:,.0f} deals/s")
        out[f"{policy}_all"] = rate_threads(ctx.rules, policy, ctx.seconds, ctx.threads)
        out[f"{policy}_scaling"] = out[f"{policy}_all"] / wall
        ctx.log(f"bench: {policy} {ctx.threads} threads {out[f'{policy}_all']:,.0f} deals/s")
    return out


@bench_section("reference", help="reference engine (play_deal) and compiled/reference ratios")
def _reference(ctx: BenchContext) -> Result:
    deals = max(50, min(300, int(300 * ctx.seconds)))
    out: Result = {}
    out["reference_1t"], out["reference_1t_cpu"] = reference_rate(ctx.rules, "random", deals)
    out["reference_heuristic_1t"], out["reference_heuristic_1t_cpu"] = reference_rate(
        ctx.rules, "heuristic", deals)
    for policy, ref in (("random", "reference_1t"), ("heuristic", "reference_heuristic_1t")):
        for suffix in ("", "_cpu"):
            fast = ctx.results.get(f"{policy}_1t{suffix}")
            out[f"{policy}_vs_reference{suffix}"] = fast / out[ref + suffix] if fast else None
    return out
