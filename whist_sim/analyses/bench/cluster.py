"""Scaling benchmark of ``simulate``: deals/s embedded vs. a local Dask cluster of 1 and 2 workers.

The ``cluster`` section of ``whist-sim bench`` (keys ``cluster_embedded``, ``cluster_1w``,
``cluster_2w``). Every measurement is a complete ``simulate`` run (play, write the
Parquet chunks and the manifest) into a temporary directory, after a warm-up that loads the compiled
kernels in each process, so cluster start-up and compilation are not counted. On a machine shared
with other work the numbers are noisy: compare ratios taken in the same call, not absolute rates.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from ...core.rules import Rules
from ...runs.executors import DaskExecutor, default_threads
from ...runs.simulate import DEFAULT_POLICY, simulate
from .registry import BenchContext, Result, bench_section


def _warm_up(rules: Rules, policy: str) -> None:
    """Load (or compile) the kernels in this process: a few deals, results thrown away."""
    from ...compiled.entry.batch import play_batch

    p = rules.players
    play_batch(0, 0, 8, rules, (policy,) * p, (policy,) * p)


def _rate(out: Path, deals: int, seed: int, rules: Rules, policy: str, chunk_size: int,
          **executor) -> float:
    t0 = time.perf_counter()
    simulate(out, deals, seed, rules=rules, bid=policy, play=policy, chunk_size=chunk_size,
             progress=False, **executor)
    return deals / (time.perf_counter() - t0)


def bench_cluster(
    deals: int = 400_000,
    chunk_size: int = 20_000,
    seed: int = 1,
    rules: Rules | None = None,
    policy: str = DEFAULT_POLICY,
    threads: int | None = None,
) -> dict[str, float]:
    """Deals per second of ``simulate`` run three ways, same seed, deals and chunk size.

    Returns ``{"embedded": ..., "cluster_1w": ..., "cluster_2w": ...}`` (deals/s, wall clock):
    ``embedded`` on ``threads`` local threads (default every CPU), ``cluster_1w`` / ``cluster_2w``
    on a :class:`distributed.LocalCluster` of 1 / 2 worker processes with one thread each (workers
    write the chunk files themselves, as on a real cluster). ``policy`` is the bidding and play
    policy of every seat. Keep ``deals / chunk_size`` at several chunks per worker.
    """
    rules = Rules() if rules is None else rules
    _warm_up(rules, policy)
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="whist-bench-") as tmp:
        root = Path(tmp)
        out["embedded"] = _rate(root / "embedded", deals, seed, rules, policy, chunk_size,
                                threads=threads or default_threads())
        for n in (1, 2):
            with DaskExecutor(local_workers=n, threads_per_worker=1) as ex:
                ex.client.run(_warm_up, rules, policy)
                out[f"cluster_{n}w"] = _rate(root / f"cluster_{n}", deals, seed, rules, policy,
                                             chunk_size, executor=ex)
    return out


@bench_section("cluster", help="simulate embedded vs. a local Dask cluster of 1 and 2 workers")
def _cluster(ctx: BenchContext) -> Result:
    out = bench_cluster(rules=ctx.rules)
    return {f"cluster_{k}" if k == "embedded" else k: v for k, v in out.items()}
