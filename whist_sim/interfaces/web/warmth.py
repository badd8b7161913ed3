"""Whether the engine is ready, for pages that wait on it (``GET /api/status``, docs/WEB.md).

The compiled kernels are compiled by numba on their first use after an install or an update
(minutes on a small machine) and loaded from numba's cache afterwards (seconds). Until the first
computation of a kind (``play``: the bots of a table; ``advice``: the advisor's sampled deals)
has finished, every computation of that kind is waiting on that compile or load, so a page says
so, for how long, and which of the two it is: numba's own compile events (from any thread of the
server; a kernel loaded from the cache raises none) tell a compile from a load.

How long a start that compiled took is measured, and kept in a small file (``record``, by default
beside numba's cache: :data:`RECORD_NAME`), so that the next compile on this machine (after the
next update) can say how long it took last time; with no measurement the page gives no estimate.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

KINDS = ("play", "advice")
#: the file, in numba's cache folder, of the measured start-up times of this machine
RECORD_NAME = "whist-sim-web-start.json"
#: a start counts as a compile (and is kept as the machine's measurement) when numba compiled
#: for at least this many seconds during it
COMPILED_SECONDS = 1.0


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


def default_record() -> Path:
    """Where a server keeps its measured start-up times: beside numba's cache."""
    from ...compiled.ground._cache import ENV, default_cache_dir

    return Path(os.environ.get(ENV) or default_cache_dir()) / RECORD_NAME


class Warmth:
    """The state of each kind of computation: ``cold`` (never run), ``starting`` (its first run
    is under way, since ``since`` on the monotonic clock) or ``ready``. ``compiles``: numba's
    compiles in this process (default: a listener registered now, :func:`watch_compiles`).
    ``record``: the file of the measured start-up times (None: measured in memory only)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 compiles: Compiles | None = None, record: Path | None = None) -> None:
        self.clock = clock
        self.compiles = compiles if compiles is not None else watch_compiles()
        self.lock = threading.Lock()
        self.ready = {k: False for k in KINDS}
        self.since: dict[str, float | None] = {k: None for k in KINDS}
        self.running = {k: 0 for k in KINDS}
        self.record = record
        self.compiled_at_start: dict[str, float] = {k: 0.0 for k in KINDS}
        self.measured: dict[str, float | None] = {k: None for k in KINDS}
        if record is not None:
            try:
                kept = json.loads(record.read_text(encoding="utf-8"))
                for k in KINDS:
                    v = kept.get(k) if isinstance(kept, dict) else None
                    if isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < 1e5:
                        self.measured[k] = float(v)
            except (OSError, ValueError):
                pass  # no measurement yet (or a file that is not ours): no estimate

    @contextmanager
    def using(self, kind: str) -> Iterator[None]:
        """Around one computation of ``kind``: the first one to end well makes it ready."""
        with self.lock:
            if not self.ready[kind] and self.running[kind] == 0:
                self.since[kind] = self.clock()
                self.compiled_at_start[kind] = self.compiles.so_far()
            self.running[kind] += 1
        ok = False
        try:
            yield
            ok = True
        finally:
            with self.lock:
                self.running[kind] -= 1
                first = ok and not self.ready[kind]
                if ok:
                    self.ready[kind] = True
                since = self.since[kind]
                compiled = self.compiles.so_far() - self.compiled_at_start[kind]
                if first and since is not None and compiled >= COMPILED_SECONDS:
                    self.measured[kind] = round(self.clock() - since, 1)
                    self._keep()

    def _keep(self) -> None:
        """Write the measured start-up times to ``record`` (a folder that cannot be written
        keeps them in memory only)."""
        if self.record is None:
            return
        try:
            self.record.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.record.with_name(self.record.name + f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.measured), encoding="utf-8")
            os.replace(tmp, self.record)
        except OSError:
            pass

    def estimates(self) -> dict[str, float | None]:
        """``{kind: seconds or None}``: how long the last start of that kind that compiled took
        on this machine (measured by this server or an earlier one), or None when never
        measured."""
        with self.lock:
            return dict(self.measured)

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
