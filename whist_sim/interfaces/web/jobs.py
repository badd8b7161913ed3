"""Advice jobs: an advice runs on a worker thread, reports its progress and can be cancelled.

The sampled deals of an advice are played in blocks (:data:`whist_sim.analyses.advisor.sampling.
PROGRESS_BLOCK`); after each block the job counts the deals done and checks whether it was
cancelled, and if so stops the advice by raising :class:`Cancelled` from the progress callback.
The result of a finished job is exactly what :func:`whist_sim.analyses.advisor.advise` returns for
the same arguments (progress reporting does not change it). Finished jobs are kept for
:data:`KEEP_SECONDS` and at most :data:`MAX_JOBS` at a time.

A job whose client has gone away is cancelled: a client asks for its job (the page polls it every
quarter second) or holds the request open (``POST /api/advise``, which touches it while the
client is connected); a running job nobody has asked about for :data:`ABANDON_SECONDS` stops at
its next block of deals.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("whist_sim.interfaces.web")
KEEP_SECONDS = 600.0  # a finished job's result stays this long
MAX_JOBS = 200  # jobs kept at once (the oldest finished ones go first)
ABANDON_SECONDS = 30.0  # a running job nobody has asked about for this long is cancelled


class Cancelled(Exception):
    """Raised inside a job's progress callback to stop it."""


@dataclass
class Job:
    """One advice: ``state`` is ``running``, ``done``, ``failed`` or ``cancelled``; ``done_deals``
    of ``deals`` sampled deals are finished; ``result`` (the advice JSON) or ``error`` (text)."""

    id: str
    deals: int
    state: str = "running"
    done_deals: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    cancel_flag: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_seen: float = field(default_factory=time.monotonic)

    def touch(self) -> None:
        """Its client is still there."""
        self.last_seen = time.monotonic()

    def progress(self, m: int) -> None:
        """The advisor's ``on_deals`` callback: count, and stop when cancelled or abandoned."""
        if time.monotonic() - self.last_seen > ABANDON_SECONDS:
            self.cancel_flag.set()
        if self.cancel_flag.is_set():
            raise Cancelled
        with self.lock:
            self.done_deals += m

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "state": self.state, "deals": self.deals,
                               "done_deals": min(self.done_deals, self.deals),
                               "fraction": min(self.done_deals, self.deals) / self.deals}
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


class Jobs:
    """The running and recently finished jobs, run on ``executor``."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()

    def submit(self, deals: int, work: Callable[[Job], dict[str, Any]],
               errors: tuple[type[Exception], ...] = (ValueError,)) -> Job:
        """Start ``work(job)`` (it must pass ``job.progress`` as the advice's ``on_deals``); an
        exception of ``errors`` makes the job ``failed`` with its message."""
        job = Job(uuid.uuid4().hex, deals)
        self._prune()
        with self.lock:
            self.jobs[job.id] = job

        def run() -> None:
            try:
                job.result = work(job)
                job.state = "done"
            except Cancelled:
                job.state = "cancelled"
            except errors as e:
                job.error, job.state = str(e), "failed"
            except Exception as e:  # noqa: BLE001 - a job reports, never kills the server
                job.error, job.state = f"internal error: {type(e).__name__}: {e}", "failed"
                log.error("advice job %s failed: %s", job.id, job.error)
            job.finished = time.monotonic()

        self.executor.submit(run)
        return job

    def get(self, job_id: str) -> Job | None:
        """The job (its client asked: it is not abandoned)."""
        with self.lock:
            job = self.jobs.get(job_id)
        if job is not None:
            job.touch()
        return job

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None and job.state == "running":
            job.cancel_flag.set()
        return job

    def _prune(self) -> None:
        now = time.monotonic()
        with self.lock:
            old = [k for k, j in self.jobs.items()
                   if j.finished is not None and now - j.finished > KEEP_SECONDS]
            for k in old:
                del self.jobs[k]
            finished = sorted((j.finished, k) for k, j in self.jobs.items()
                              if j.finished is not None)
            while len(self.jobs) >= MAX_JOBS and finished:
                del self.jobs[finished.pop(0)[1]]
