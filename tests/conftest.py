"""Shared test fixtures (small and generic)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


def _chunk_bytes(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(Path(directory).glob("chunk-*.parquet"))}


@pytest.fixture
def chunk_bytes() -> Callable[[Path], dict[str, bytes]]:
    """``chunk_bytes(dir)``: the bytes of every ``chunk-*.parquet`` file of a dataset, by name."""
    return _chunk_bytes


SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


@pytest.fixture
def load_script(monkeypatch) -> Callable[..., ModuleType]:
    """``load_script(name, module=name)``: ``scripts/<name>.py`` as the module ``module``, its
    sibling scripts importable (they import each other by name); undone after the test."""
    def load(name: str, module: str | None = None) -> ModuleType:
        module = module or name
        monkeypatch.syspath_prepend(str(SCRIPTS))
        spec = importlib.util.spec_from_file_location(module, SCRIPTS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, module, mod)
        spec.loader.exec_module(mod)
        return mod

    return load


#: the searching strategies and the double-dummy solver, each compiled (or loaded) by a process of
#: its own beside the test workers; the searches after the loop, whose strategies they then load
#: from the cache rather than compiling them a second time
_WARM = (
    "from whist_sim.compiled.entry.deal import _shared_loop; _shared_loop('BASE'); "
    "_shared_loop('AUDITED'); _shared_loop('rollout'); _shared_loop('montecarlo')",
    "import numpy as np; from whist_sim.dd.solver import solve_batch; "
    "solve_batch(np.array([[1, 2, 4, 8]], dtype=np.uint64), 4, 0, 'whist-max')",
)


def pytest_configure(config):
    """Under ``pytest -n`` (make test), the controller, idle while the workers test, starts two
    processes: one compiles the searching strategies, the other the double-dummy solver (or each
    loads them from the cache). The workers start with the loop, which one of them compiles while
    the other waits for it (the cache's compile lock,
    ``whist_sim.compiled.ground._cache.compile_lock``): the waiting core compiles the solver, and
    then the searches, once the loop's strategies are in the cache; the workers load them
    rather than compile them again."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        config._warm = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, preexec_fn=_behind)
                        for code in _WARM]


def _behind() -> None:
    """The warming processes yield the cores to the workers (which need the base loop first)."""
    os.nice(10)


def pytest_unconfigure(config):
    for proc in getattr(config, "_warm", ()):
        proc.wait()
