"""Benchmark section ``compile_cold``: the first runs of a fresh install, on an empty kernel cache.

Each command runs in its own process with ``NUMBA_CACHE_DIR`` set to a new empty folder, as on
a fresh clone, and is timed whole (wall seconds, start-up and compile included):

* ``cold_simulate_s``: ``whist-sim simulate`` of the default workload (``heuristic`` bidding,
  the default play policy at every seat) on 1,000 deals; ``cold_simulate_cache_mb`` the size of
  the kernel cache it leaves (MB, 10^6 bytes);
* ``cold_advise_s``: ``whist-sim advise`` of one hand and trump at its defaults (which check the
  advice under the default check, a search over the default play), and ``cold_advise_nocheck_s``
  with ``--no-check``;
* ``warm_advise_s``: the same checked ``advise`` again on the cache the cold run left (the
  answer and its check played, nothing compiled), and ``cold_advise_compile_s`` the difference:
  the seconds the first run spends compiling and waiting for the compile.

The section takes several minutes (two to four compiles); it runs only when asked for
(``whist-sim bench --only compile_cold``). Run it on a quiet machine: a compile is one thread,
and another job slows it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .registry import BenchContext, Result, bench_section

#: the hand and trump the advise runs are asked about
ADVISE_ARGS = ("AKQ2.K3.QJ54.872", "--trump", "S", "--deals", "1000")


def cache_size_mb(folder: str | os.PathLike) -> float:
    """Total size of the files under ``folder`` in MB (10^6 bytes)."""
    return sum(f.stat().st_size for f in Path(folder).rglob("*") if f.is_file()) / 1e6


def _timed(args: list[str], tmp: str, cache: Path, label: str) -> float:
    """Wall seconds of ``whist-sim ARGS`` in a fresh process in ``tmp`` with the kernel cache
    ``cache``; a failure raises naming the command."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    cmd = [sys.executable, "-m", "whist_sim", *args]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"{label} failed: {done.stderr.strip().splitlines()[-1:]}")
    return wall


def _cold_run(args: list[str], ctx: BenchContext, label: str,
              warm_too: bool = False) -> tuple[float, float, float | None]:
    """Run ``whist-sim ARGS`` in a fresh process on an empty kernel cache: (wall s, cache MB,
    and with ``warm_too`` the wall s of the same command again on the cache it left)."""
    with tempfile.TemporaryDirectory(prefix="whist-cold-") as tmp:
        cache = Path(tmp) / "numba-cache"
        ctx.log(f"bench: {label} on an empty cache ...")
        wall = _timed(args, tmp, cache, f"{label} on an empty cache")
        size = cache_size_mb(cache) if cache.exists() else 0.0
        ctx.log(f"bench: {label} {wall:.0f} s, cache {size:.1f} MB")
        warm = None
        if warm_too:
            warm = _timed(args, tmp, cache, f"{label} on a warm cache")
            ctx.log(f"bench: {label} again on that cache {warm:.0f} s")
        return wall, size, warm


@bench_section("compile_cold", default=False,
               help="first simulate and advise on an empty kernel cache (minutes)")
def _compile_cold(ctx: BenchContext) -> Result:
    out: Result = {}
    out["cold_simulate_s"], out["cold_simulate_cache_mb"], _ = _cold_run(
        ["simulate", "--deals", "1000", "--seed", "2026", "--out", "run", "--no-progress"],
        ctx, "simulate")
    cold, _, warm = _cold_run(["advise", *ADVISE_ARGS], ctx, "advise", warm_too=True)
    out["cold_advise_s"], out["warm_advise_s"] = cold, warm
    out["cold_advise_compile_s"] = cold - warm if warm is not None else None
    out["cold_advise_nocheck_s"], _, _ = _cold_run(["advise", *ADVISE_ARGS, "--no-check"], ctx,
                                                   "advise --no-check")
    return out
