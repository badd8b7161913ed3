"""The benchmark's registry and runner: sections, their context, the merged results, the text.

``run_bench`` runs the registered **sections** in registration order and merges their results
into one flat dict (``whist-sim bench --json`` prints it); :func:`format_results` gives each
figure its unit by its key's suffix (``_ms``, ``_per_s``, ``_s``, ``_mb``, ``_vs_`` / ``scaling``
ratios, ``_share``, ``_hours``, ``_range``, counts; anything else is deals per second).

A section gets the :class:`BenchContext` (time budget, threads, rules, the results so far) and
returns new keys; ``default=False`` sections run only when asked for (``--only``)::

    @bench_section("dd", default=False, help="double-dummy solves per second")
    def _dd(ctx: BenchContext) -> dict[str, float]:
        ...
        return {"dd_per_s": rate}

Rates are deals per second of wall-clock time unless the key says ``cpu``. Timings on a shared
machine are noisy: compare the ratios of one run rather than absolute rates across runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ...core.rules import Rules

Result = dict[str, Any]

#: the default time budget of each steady-state measurement, seconds (``--seconds``); sections
#: whose sizes are fixed counts (``dd``) scale them down in proportion below it
DEFAULT_SECONDS = 2.0


@dataclass
class BenchContext:
    """What a section may use: ``seconds`` (time budget per measurement, s), ``threads``,
    ``rules``, ``results`` (keys of earlier sections) and ``log`` (a progress line printer)."""

    seconds: float
    threads: int
    rules: Rules
    results: Result = field(default_factory=dict)
    log: Callable[[str], None] = lambda _msg: None

    def scaled(self, count: int, least: int) -> int:
        """``count`` (a section's size at the default budget, :data:`DEFAULT_SECONDS`) in
        proportion to ``seconds`` when it is below the default, at least ``least``."""
        return max(least, round(count * min(1.0, self.seconds / DEFAULT_SECONDS)))


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
    seconds: float = DEFAULT_SECONDS,
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
            elif k.endswith("_mb"):
                text = f"{v:,.1f} MB"
            elif k.endswith("_hours"):
                text = f"{v:,.1f} h"
            elif k.endswith("_range"):  # distances between proved bounds
                text = f"{v:.2f} tricks"
            elif k.endswith(("_deals", "_cards", "_limit", "_cells")):  # counts
                text = f"{v:,.0f}"
            else:
                text = f"{v:,.0f} deals/s"
        else:
            text = str(v)
        lines.append(f"{k:<40} {text}")
    return "\n".join(lines)
