"""Speed benchmark: deals per second of the compiled engine and of the reference engine.

``run_bench`` runs the registered **sections** in order and merges their results into one flat
dict (``whist-sim bench --json`` prints it). Built-in sections:

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

Rates are deals per second of wall-clock time unless the key says ``cpu``. Timings on a shared
machine are noisy: compare the ratios of one run rather than absolute rates across runs.

Adding a section (e.g. double dummy, cluster scaling)::

    @bench_section("dd", default=False, help="double-dummy solves per second")
    def _dd(ctx: BenchContext) -> dict[str, float]:
        ...
        return {"dd_per_s": rate}

A section gets the :class:`BenchContext` (time budget, threads, rules, the results so far) and
returns new keys. ``default=False`` sections run only when asked for (``--only``).
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .rules import Rules

Result = dict[str, Any]


@dataclass
class BenchContext:
    """What a section may use: ``seconds`` (time budget per measurement, s), ``threads``,
    ``rules``, ``results`` (keys of earlier sections) and ``log`` (a progress line printer)."""

    seconds: float
    threads: int
    rules: Rules
    results: Result = field(default_factory=dict)
    log: Callable[[str], None] = lambda _msg: None


@dataclass(frozen=True)
class BenchSection:
    name: str
    run: Callable[[BenchContext], Result]
    default: bool
    help: str


SECTIONS: dict[str, BenchSection] = {}


def bench_section(name: str, default: bool = True, help: str = ""):
    """Register a benchmark section (decorator). Sections run in registration order."""

    def deco(func: Callable[[BenchContext], Result]) -> Callable[[BenchContext], Result]:
        SECTIONS[name] = BenchSection(name, func, default, help or (func.__doc__ or "").strip())
        return func

    return deco


def available_threads() -> int:
    """CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_bench(
    seconds: float = 2.0,
    threads: int | None = None,
    rules: Rules | None = None,
    only: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    log: Callable[[str], None] | None = None,
) -> Result:
    """Run the benchmark sections and return their merged results (one flat dict).

    ``seconds``: time budget of each steady-state measurement (s, > 0). ``threads``: threads of
    the ``*_all`` measurements (default: every CPU). ``only``: run just these sections (any
    registered name, also non-default ones); ``skip``: leave these out.
    """
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    threads = available_threads() if threads is None else int(threads)
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    names = list(only) if only is not None else [n for n, s in SECTIONS.items() if s.default]
    unknown = [n for n in [*names, *skip] if n not in SECTIONS]
    if unknown:
        raise ValueError(
            f"unknown bench section(s) {', '.join(unknown)} (known: {', '.join(SECTIONS)})"
        )
    ctx = BenchContext(seconds=float(seconds), threads=threads, rules=rules or Rules(),
                       log=log or (lambda _msg: None))
    ctx.results.update({"seconds": ctx.seconds, "threads": threads,
                        "cpus": available_threads()})
    for name in [n for n in SECTIONS if n in names]:  # registration order: ratios need inputs
        if name in skip:
            continue
        ctx.log(f"bench: {name} ...")
        ctx.results.update(SECTIONS[name].run(ctx))
    return ctx.results


# ----------------------------------------------------------------------------- measurements

CHUNK = 20_000  # deals per play_batch call in steady state


def _seating(rules: Rules, policy: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (policy,) * rules.players, (policy,) * rules.players


def rate_single(
    rules: Rules, policy: str, seconds: float, chunk: int = CHUNK
) -> tuple[float, float]:
    """(deals per wall second, deals per CPU second of this thread) of ``play_batch`` in a loop."""
    from .kernels.batch import play_batch

    bid, play = _seating(rules, policy)
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
    from .kernels.batch import play_batch

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
    from .engine import play_deal

    policies = (policy,) * rules.players
    w0, c0 = time.perf_counter(), time.thread_time()
    for i in range(deals):
        play_deal(1, i, rules, policies=policies)
    wall, cpu = time.perf_counter() - w0, time.thread_time() - c0
    return deals / wall, deals / max(cpu, 1e-9)


# ----------------------------------------------------------------------------- sections


@bench_section("compile", help="first play_batch calls: compile or load the kernels")
def _compile(ctx: BenchContext) -> Result:
    from .kernels import batch

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
    from .kernels.batch import play_batch

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


# ---------------------------------------------------------------- sections of other modules
# Each calls the benchmark function of the module it measures; keys are documented there.


@bench_section("advisor", help="advise() warm, 10,000 deals per bid; bid-chart hands per second")
def _advisor(ctx: BenchContext) -> Result:
    from .advisor import bench_advisor

    return bench_advisor(threads=ctx.threads)


@bench_section("tournament", help="4-strategy all-seatings tournament vs. the engine's heuristic")
def _tournament(ctx: BenchContext) -> Result:
    from .tournament import bench_tournament

    return bench_tournament(ctx.seconds, ctx.rules)


@bench_section("cluster", help="simulate embedded vs. a local Dask cluster of 1 and 2 workers")
def _cluster(ctx: BenchContext) -> Result:
    from .bench_cluster import bench_cluster

    out = bench_cluster(rules=ctx.rules)
    return {f"cluster_{k}" if k == "embedded" else k: v for k, v in out.items()}


@bench_section("dd", help="double-dummy ms per solve: bridge, whist-max/min (node-limited)")
def _dd(ctx: BenchContext) -> Result:
    from .dd.bench import run_bench as dd_bench

    return dd_bench(threads=ctx.threads)


def format_results(results: Result) -> str:
    """Human-readable lines of ``run_bench`` results."""
    lines = []
    for k, v in results.items():
        if isinstance(v, bool) or v is None:
            text = str(v)
        elif isinstance(v, float):
            if k.endswith("_ms"):
                text = f"{v:,.1f} ms"
            elif k.endswith("_per_s"):
                text = f"{v:,.0f} /s"
            elif k.endswith("_s") or k == "seconds":
                text = f"{v:.2f} s"
            elif "scaling" in k or "_vs_" in k:  # ratios
                text = f"{v:.2f}x"
            elif k.endswith("_share"):
                text = f"{v:.0%}"
            elif k.endswith("_hours"):
                text = f"{v:,.1f} h"
            elif k.endswith("_range"):  # distances between proved bounds
                text = f"{v:.2f} tricks"
            elif k.endswith(("_deals", "_cards", "_limit")):  # counts
                text = f"{v:,.0f}"
            else:
                text = f"{v:,.0f} deals/s"
        else:
            text = str(v)
        lines.append(f"{k:<40} {text}")
    return "\n".join(lines)
