"""Run a chunk function over chunk indices: on local threads, or as tasks on a Dask cluster.

This is the parallel layer shared by ``simulate`` (and later ``tournament`` and ``bid-chart``).
A job is a *picklable top-level function* ``fn(item) -> result`` (typically ``functools.partial``
of a module-level function with a frozen options object) mapped over items (chunk indices). Every
executor yields ``(item, result)`` pairs **as they complete** (not in item order), so a caller can
update a progress bar per finished task, and keeps only a bounded number of tasks in flight (about
two per parallel slot), so memory stays bounded by a few results whatever the number of items.

* :class:`ThreadExecutor` runs tasks on a local thread pool; the compiled kernels release the GIL,
  so threads run in parallel. Threads take the next task as soon as they are free.
* :class:`DaskExecutor` submits tasks to a ``distributed`` scheduler: one given by address
  (``--scheduler tcp://host:8786``), or a :class:`distributed.LocalCluster` of worker processes
  that it starts and stops (``--cluster local:N``). Dask reschedules the tasks of a worker that
  dies, so a lost worker loses no task; a task may then run twice, so task functions must be
  idempotent (``simulate`` writes each chunk atomically under a name fixed by its index, so a
  repeat writes the same bytes to the same file).

Interrupting the consumer (Ctrl-C, or closing the generator) cancels the queued tasks; tasks already
running on local threads finish (compiled kernels cannot be interrupted) before the interrupt
propagates, and tasks on a cluster are cancelled.
"""

from __future__ import annotations

import os
import re
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

IN_FLIGHT_PER_SLOT = 2  # tasks submitted ahead per parallel slot: enough to keep slots busy
WORKER_WAIT_S = 60.0  # how long to wait for a first worker on a scheduler
CONNECT_TIMEOUT_S = 15  # how long to try to reach a scheduler


class ExecutorError(RuntimeError):
    """An executor that cannot be set up (bad option, unreachable scheduler, no workers)."""


def default_threads() -> int:
    """The number of CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class Executor(ABC):
    """Maps a picklable function over items, yielding ``(item, result)`` as tasks complete.

    Use as a context manager (``with make_executor(...) as ex:``) so that anything it started
    (a thread pool, a local Dask cluster) is shut down.
    """

    #: a short human description for logs and manifests, e.g. ``"threads:2"``
    description: str = ""

    @abstractmethod
    def slots(self) -> int:
        """Tasks that can run at the same time (threads, or total Dask worker threads)."""

    @abstractmethod
    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        """Run ``fn(item)`` for every item; yield ``(item, result)`` in completion order.

        A task that raises makes the iteration raise that exception (after cancelling the queued
        tasks). At most about ``2 * slots()`` tasks are submitted ahead of the consumer.
        """

    def close(self) -> None:  # noqa: B027 - optional hook, nothing to release by default
        """Release what the executor started."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class ThreadExecutor(Executor):
    """Run tasks on ``threads`` local threads (default: every CPU this process may use)."""

    def __init__(self, threads: int | None = None):
        if threads is None:
            threads = default_threads()
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ExecutorError(f"threads must be a whole number >= 1, got {threads!r}")
        self.threads = threads
        self.description = f"threads:{threads}"

    def slots(self) -> int:
        return self.threads

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        it = iter(items)
        limit = IN_FLIGHT_PER_SLOT * self.threads
        pool = ThreadPoolExecutor(self.threads, thread_name_prefix="whist-sim")
        pending: dict[Any, T] = {}

        def top_up() -> None:
            while len(pending) < limit:
                try:
                    item = next(it)
                except StopIteration:
                    return
                pending[pool.submit(fn, item)] = item

        try:
            top_up()
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    item = pending.pop(fut)
                    yield item, fut.result()
                top_up()
        finally:
            for fut in pending:
                fut.cancel()
            pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor(Executor):
    """Run tasks on a Dask ``distributed`` cluster.

    Exactly one of:

    * ``scheduler``: the address of a running scheduler (``tcp://host:8786``); its workers are
      used as they are;
    * ``local_workers``: start a :class:`distributed.LocalCluster` of that many worker processes
      on the loopback interface (``threads_per_worker`` threads each, no dashboard), stopped on
      :meth:`close`;
    * ``client``: an existing :class:`distributed.Client` (not closed by :meth:`close`).

    ``workers`` (addresses) restricts the tasks to those workers.

    Task functions and items must be picklable and importable on the workers (top-level functions of
    an installed package, not of a test module or ``__main__``).
    """

    def __init__(
        self,
        scheduler: str | None = None,
        local_workers: int | None = None,
        threads_per_worker: int = 1,
        client: Any = None,
        worker_wait_s: float = WORKER_WAIT_S,
        workers: list[str] | None = None,
    ):
        given = [x is not None for x in (scheduler, local_workers, client)]
        if sum(given) != 1:
            raise ExecutorError("DaskExecutor needs one of scheduler, local_workers, client")
        require_distributed()
        import distributed

        self._cluster = None
        self._own_client = client is None
        self.workers = list(workers) if workers is not None else None
        if client is not None:
            self.client = client
            self.description = f"dask:{client.scheduler.address}"
        elif local_workers is not None:
            if isinstance(local_workers, bool) or not isinstance(local_workers, int):
                raise ExecutorError(f"local workers must be a whole number, got {local_workers!r}")
            if local_workers < 1:
                raise ExecutorError(f"a local cluster needs >= 1 worker, got {local_workers}")
            if threads_per_worker < 1:
                raise ExecutorError(f"threads per worker must be >= 1, got {threads_per_worker}")
            self._cluster = distributed.LocalCluster(
                n_workers=local_workers,
                threads_per_worker=threads_per_worker,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                # no dashboard; the scheduler's health/metrics HTTP server on a free loopback
                # port, not the fixed 8787 (which another cluster on this machine may hold)
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            )
            self.client = distributed.Client(self._cluster)
            self.description = f"dask-local:{local_workers}x{threads_per_worker}"
        else:
            try:
                self.client = distributed.Client(scheduler, timeout=f"{CONNECT_TIMEOUT_S}s")
            except (OSError, TimeoutError, ValueError) as e:
                raise ExecutorError(
                    f"cannot connect to the Dask scheduler at {scheduler}: {e}"
                ) from None
            self.description = f"dask:{scheduler}"
        try:
            self.client.wait_for_workers(1, timeout=worker_wait_s)
        except TimeoutError:
            self.close()
            raise ExecutorError(
                f"no Dask worker joined the scheduler within {worker_wait_s:g} s "
                "(start workers with `dask worker SCHEDULER_ADDRESS`)"
            ) from None

    def slots(self) -> int:
        nthreads = self.client.nthreads()
        if self.workers is not None:
            nthreads = {w: n for w, n in nthreads.items() if w in self.workers}
        return max(1, sum(nthreads.values()))

    def worker_pids(self) -> dict[str, int]:
        """Process id of every worker, by worker address (for tests and diagnostics)."""
        return self.client.run(os.getpid)

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        from distributed import as_completed

        it = iter(items)
        name = getattr(getattr(fn, "func", fn), "__name__", "task")
        prefix = f"{name}-{uuid.uuid4().hex[:12]}"
        pending: dict[Any, T] = {}
        ac = as_completed()

        def top_up() -> None:
            limit = IN_FLIGHT_PER_SLOT * self.slots()
            while len(pending) < limit:
                try:
                    item = next(it)
                except StopIteration:
                    return
                fut = self.client.submit(
                    fn, item, key=f"{prefix}-{item}", pure=False, workers=self.workers
                )
                pending[fut] = item
                ac.add(fut)

        try:
            top_up()
            for fut in ac:
                item = pending.pop(fut)
                result = fut.result()
                fut.release()
                yield item, result
                top_up()
        finally:
            if pending:
                self.client.cancel(list(pending))

    def close(self) -> None:
        if self._own_client and getattr(self, "client", None) is not None:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


_LOCAL_RE = re.compile(r"^local:(\d+)$")


def parse_cluster(spec: str) -> int:
    """Number of workers in a ``local:N`` cluster spec (N >= 1)."""
    m = _LOCAL_RE.match(spec.strip())
    if not m or int(m.group(1)) < 1:
        raise ExecutorError(
            f"cluster spec {spec!r} is not understood: use local:N (N >= 1 worker processes), "
            "or --scheduler ADDRESS for a running cluster"
        )
    return int(m.group(1))


#: the error of a cluster run without the optional dependency (``pip install 'whist-sim[cluster]'``)
MISSING_CLUSTER_EXTRA = (
    "--cluster and --scheduler need Dask's 'distributed' package, an optional dependency: "
    "install it with  pip install 'whist-sim[cluster]'  (make install includes it)"
)


def require_distributed() -> None:
    """Raise :class:`ExecutorError` naming the ``cluster`` extra if ``distributed`` is missing."""
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        raise ExecutorError(MISSING_CLUSTER_EXTRA)


def check_executor_options(
    threads: int | None = None, scheduler: str | None = None, cluster: str | None = None
) -> None:
    """Raise :class:`ExecutorError` for options :func:`make_executor` would refuse (cheap check)."""
    if scheduler is not None and cluster is not None:
        raise ExecutorError("give either a scheduler address or a local cluster, not both")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or threads < 1):
        raise ExecutorError(f"threads must be a whole number >= 1, got {threads!r}")
    if scheduler is not None:
        if not isinstance(scheduler, str) or not scheduler.strip():
            raise ExecutorError(f"scheduler address must be text like tcp://host:8786, got "
                                f"{scheduler!r}")
        if threads is not None:
            raise ExecutorError(
                "threads cannot be set for a running scheduler: its workers set their own threads "
                "(dask worker --nthreads)"
            )
    if cluster is not None:
        parse_cluster(cluster)
    if scheduler is not None or cluster is not None:
        require_distributed()


def make_executor(
    threads: int | None = None, scheduler: str | None = None, cluster: str | None = None
) -> Executor:
    """The executor for the usual command-line options.

    * neither ``scheduler`` nor ``cluster``: local threads (``threads``, default every CPU);
    * ``cluster="local:N"``: a local Dask cluster of N worker processes with ``threads`` (default 1)
      threads each;
    * ``scheduler=ADDRESS``: a running Dask scheduler (``threads`` must not be given: workers set
      their own with ``dask worker --nthreads``).
    """
    check_executor_options(threads, scheduler, cluster)
    if scheduler is not None:
        return DaskExecutor(scheduler=scheduler)
    if cluster is not None:
        n = parse_cluster(cluster)
        return DaskExecutor(local_workers=n, threads_per_worker=1 if threads is None else threads)
    return ThreadExecutor(threads)
