"""Whether the engine is ready, for pages that wait on it (``GET /api/status``, docs/WEB.md).

The compiled kernels are compiled by numba on their first use after an install or an update
(under a minute on two cores) and loaded from numba's cache afterwards (seconds). Until the first
computation of a kind (``play``: the bots of a table; ``advice``: the advisor's sampled deals)
has finished, every computation of that kind is waiting on that compile or load, so a page says
so, for how long, and which of the two it is: numba's own compile events (from any thread of the
server; a kernel loaded from the cache raises none) tell a compile from a load.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

KINDS = ("play", "advice")


class Compiles(Protocol):
    """What :class:`Warmth` reads of numba's compiles: ``depth`` > 0 while one runs, and the
    seconds spent compiling so far (:class:`whist_sim.compiled.ground._numba.CompileWatch`)."""

    depth: int

    def so_far(self) -> float: ...


def watch_compiles() -> Compiles:
    """A listener of every numba compile in this process, from now on."""
    from numba.core import event

    from ...compiled.ground._numba import CompileWatch

    watch = CompileWatch()
    event.register("numba:compile", watch)
    return watch


class Warmth:
    """The state of each kind of computation: ``cold`` (never run), ``starting`` (its first run
    is under way, since ``since`` on the monotonic clock) or ``ready``. ``compiles``: numba's
    compiles in this process (default: a listener registered now, :func:`watch_compiles`)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 compiles: Compiles | None = None) -> None:
        self.clock = clock
        self.compiles = compiles if compiles is not None else watch_compiles()
        self.lock = threading.Lock()
        self.ready = {k: False for k in KINDS}
        self.since: dict[str, float | None] = {k: None for k in KINDS}
        self.running = {k: 0 for k in KINDS}

    @contextmanager
    def using(self, kind: str) -> Iterator[None]:
        """Around one computation of ``kind``: the first one to end well makes it ready."""
        with self.lock:
            if not self.ready[kind] and self.running[kind] == 0:
                self.since[kind] = self.clock()
            self.running[kind] += 1
        ok = False
        try:
            yield
            ok = True
        finally:
            with self.lock:
                self.running[kind] -= 1
                if ok:
                    self.ready[kind] = True

    def status(self) -> dict[str, Any]:
        """``{kind: {"state": "cold" | "starting" | "ready", "seconds": float or None,
        "compiling": bool or None, "compile_seconds": float or None}}``: while ``starting``,
        ``seconds`` is how long the first run has been going, ``compiling`` whether numba is
        compiling now (false: the kernels are loading from the cache) and ``compile_seconds``
        the seconds this process has spent compiling; otherwise all three are null."""
        out: dict[str, Any] = {}
        with self.lock:
            now = self.clock()
            for k in KINDS:
                if self.ready[k]:
                    out[k] = _state("ready")
                elif self.running[k]:
                    since = self.since[k]
                    out[k] = {"state": "starting",
                              "seconds": round(now - since, 1) if since is not None else None,
                              "compiling": self.compiles.depth > 0,
                              "compile_seconds": round(self.compiles.so_far(), 1)}
                else:
                    out[k] = _state("cold")
        return out


def _state(state: str) -> dict[str, Any]:
    return {"state": state, "seconds": None, "compiling": None, "compile_seconds": None}
