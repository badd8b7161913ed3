"""Shared test fixtures (small and generic)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest


def _chunk_bytes(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(Path(directory).glob("chunk-*.parquet"))}


@pytest.fixture
def chunk_bytes() -> Callable[[Path], dict[str, bytes]]:
    """``chunk_bytes(dir)``: the bytes of every ``chunk-*.parquet`` file of a dataset, by name."""
    return _chunk_bytes


#: the full loop, compiled (or loaded) by a process of its own beside the test workers
_WARM_FULL_LOOP = "from whist_sim.compiled.entry.deal import _shared_loop; _shared_loop('FULL')"


def pytest_configure(config):
    """Under ``pytest -n`` (make test), the controller, idle while the workers test, starts one
    process that compiles the full loop (or loads it from the cache). The workers start with the
    base loop, which one of them compiles while the other waits for it (the cache's compile lock,
    ``whist_sim.compiled.ground._cache.compile_lock``): the waiting core compiles the full loop,
    which the workers then load rather than compile again."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        config._warm_full_loop = subprocess.Popen(
            [sys.executable, "-c", _WARM_FULL_LOOP], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)


def pytest_unconfigure(config):
    proc = getattr(config, "_warm_full_loop", None)
    if proc is not None:
        proc.wait()
