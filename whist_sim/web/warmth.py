"""Whether the engine is ready, for pages that wait on it (``GET /api/status``, docs/WEB.md).

The compiled kernels are compiled by numba on their first use after an install (about two to
three minutes on two cores) and loaded from numba's cache afterwards (seconds). Until the first
computation of a kind (``play``: the bots of a table; ``advice``: the advisor's sampled deals)
has finished, every computation of that kind is waiting on that compile or load, so a page says
so and for how long, rather than showing a silent wait.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

KINDS = ("play", "advice")


class Warmth:
    """The state of each kind of computation: ``cold`` (never run), ``starting`` (its first run
    is under way, since ``since`` on the monotonic clock) or ``ready``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
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
        """``{kind: {"state": "cold" | "starting" | "ready", "seconds": float or None}}``
        (``seconds``: how long the first run has been going, while ``starting``)."""
        out: dict[str, Any] = {}
        with self.lock:
            now = self.clock()
            for k in KINDS:
                if self.ready[k]:
                    out[k] = {"state": "ready", "seconds": None}
                elif self.running[k]:
                    since = self.since[k]
                    out[k] = {"state": "starting",
                              "seconds": round(now - since, 1) if since is not None else None}
                else:
                    out[k] = {"state": "cold", "seconds": None}
        return out
