"""The simulation runner: play N deals in chunks, in parallel, into a Parquet dataset.

``simulate(out, deals, seed, ...)`` splits deals ``0 .. deals-1`` into chunks of ``chunk_size``
consecutive deals. Chunk ``k`` holds deals ``k*chunk_size ..`` and is played by one call of the
compiled kernel :func:`whist_sim.compiled.entry.batch.play_batch` (single-threaded, GIL released)
and written as ``out/chunk-<k>.parquet`` (:mod:`whist_sim.runs.dataset`). Deal ``i`` depends only on
``(seed, i)``, so the dataset (the chunks concatenated in order) is the same for any chunk size,
thread count or cluster, and a chunk file is byte-for-byte the same whichever thread or worker wrote
it.

Chunks are handed out dynamically to an executor (:mod:`whist_sim.runs.executors`): local threads by
default, or a Dask cluster. Each task plays *and writes* its chunk and returns a small
:class:`ChunkReceipt`; only a bounded number of chunks is in flight, so memory is bounded by a few
chunks whatever ``deals`` is. On a cluster the workers therefore write to the output directory
themselves, which must be on storage shared by the client and every worker (docs/CLUSTER.md).

``out/_manifest.parquet`` records the run: format, package version, the options that define the data
(seed, deals, chunk_size, rules, bid and play policies per seat, store_dealt, dd), the chunk count,
the status (``running``, ``interrupted``, ``failed``, ``complete``), deal counts and timings per
session, and the versions of Python, numpy, numba, pandas and pyarrow that wrote the chunks
(``versions``, per session too: the bytes of a chunk depend on them). While a run writes, it holds
the folder's lock file (``.whist-sim.lock``): a second run on the same folder is refused.

On local threads the engine is compiled (or loaded from numba's cache) by one tiny call before
the progress bar starts, with a notice when it compiles; rates and ETAs exclude that time (the
session's ``warm_up_s``).

With ``dd=True`` every chunk also gets the double-dummy columns of :mod:`whist_sim.runs.dd_columns`
(whist-max and whist-min of every seat, and their proved bounds), computed by the chunk's task
right after play, under a node limit per solve (``dd_node_limit``; whist-min's own with
``dd_min_node_limit``). They too depend only on each deal, so the dataset stays the same whatever
the chunk size, threads or cluster. The manifest's ``dd`` entry records their options
(``{"solver_version": .., "node_limit": .., "tt_bits": .., "objectives": [..]}``, plus
``"min_node_limit"`` when whist-min's limit differs; ``null`` without ``dd``).

An interrupted run (Ctrl-C, a crash, a killed process) keeps every finished chunk; ``resume=True``
checks the options against the manifest (refusing, naming the differences, if they differ),
validates the chunk files present (readable with page checksums, right schema, rows and deal range),
moves aside any corrupt one (``chunk-00003.parquet.corrupt``: user data is never deleted), and plays
only the missing or invalid chunks. A chunk whose checksum the manifest does not record (a dataset
written before chunk checksums, a manifest whose ``chunks`` were removed, a finished run's edited
manifest; :func:`whist_sim.runs.outdir.scan_chunks`) is not trusted: it is moved aside as
``chunk-00003.parquet.unverified`` and played again, and the copy is removed only when it holds the
same table as the fresh play (else it stays, with a warning; the session's ``unverified`` entry in
the manifest counts both).
"""

from __future__ import annotations

import functools
import logging
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from ..compiled.strategies.seating import Seating
from ..core.rng import MAX_DEALS  # noqa: F401 - the limit of deals, also for the CLI
from ..core.rules import Rules
from ..core.version import __version__
from .dataset import (
    FORMAT_NAME,
    FORMAT_VERSION,
    chunk_bounds,
    chunk_name,
    chunk_table,
    manifest_path,
    n_chunks,
    options_hash,
    remove_temp_files,
    write_chunk,
    write_manifest,
)
from .dd_columns import DEFAULT_NODE_LIMIT as DEFAULT_DD_NODE_LIMIT  # noqa: F401 - for the CLI
from .executors import (
    Executor,
    ThreadExecutor,
    default_threads,
    make_executor,
)
from .options import (  # noqa: F401 - the run's options; the names below live on here too
    DD_MIN_CHUNKS,
    DEFAULT_CHUNK_SIZE,
    DEFAULT_DD_CHUNK_SIZE,
    DEFAULT_POLICY,
    MAX_SEED,
    RunOptions,
    default_chunk_size,
    default_dd_chunk_size,
    known_policies,
    seat_policies,
    seating_of,
)
from .outdir import (
    UNVERIFIED_SUFFIX,
    SimulationError,
    check_dir,
    check_receipt,
    discard_stale_run,
    lock_dir,
    make_dir,
    same_chunk,
    scan_chunks,
    unlock_dir,
)

log = logging.getLogger(__name__)

MANIFEST_EVERY_S = 30.0  # a running run rewrites its manifest (chunk checksums) this often


@dataclass(frozen=True)
class ChunkTask:
    """Everything a worker needs to play and write any chunk of a run (picklable)."""

    out: str  # absolute path of the output directory (shared by all workers on a cluster)
    seed: int
    deals: int
    chunk_size: int
    rules: Rules
    seating: Seating  # the seats, parsed once (simulate's bid and play)
    store_dealt: bool
    dd_node_limit: int | None = None  # None: no double-dummy columns
    dd_tt_bits: int | None = None
    dd_min_node_limit: int | None = None  # None: whist-min under dd_node_limit too
    options: str | None = None  # the run's options hash (dataset.options_hash), in every chunk
    local: bool = False  # played on this machine's threads (no cluster storage to blame)

    @property
    def bid(self) -> tuple[str, ...]:
        """The bidding strategies by seat, canonical spec texts."""
        return self.seating.bid_text

    @property
    def play(self) -> tuple[str, ...]:
        """The play policies by seat, canonical spec texts."""
        return self.seating.play_text


@dataclass(frozen=True)
class ChunkReceipt:
    """What a finished chunk task reports back: its place in the run, file size and timing."""

    index: int
    start: int  # first deal of the chunk
    count: int  # deals in the chunk
    file: str  # file name in the output directory
    nbytes: int  # size of the written file
    seconds: float  # wall time of play + write on the worker, seconds
    dd_solves: int = 0  # double-dummy solves per objective (4 per played deal; 0 without dd)
    dd_unsolved_max: int = 0  # whist-max solves left unsolved (over the node limit)
    dd_unsolved_min: int = 0  # whist-min solves left unsolved
    sha256: str = ""  # checksum of the written file (dataset.file_sha256), kept in the manifest


def run_chunk(task: ChunkTask, index: int) -> ChunkReceipt:
    """Play chunk ``index`` of the run ``task`` and write its Parquet file atomically.

    A top-level function (so Dask can ship it to workers). Idempotent: running it twice writes the
    same bytes to the same file name. With ``task.dd_node_limit`` the chunk also gets the
    double-dummy columns (:func:`whist_sim.runs.dd_columns.dd_columns`, one solver thread).
    """
    from ..compiled.entry.batch import play_batch

    t0 = time.perf_counter()
    start, count = chunk_bounds(index, task.deals, task.chunk_size)
    arrays = play_batch(
        task.seed, start, count, task.rules, task.seating, store_dealt=task.store_dealt
    )
    dd = task.dd_node_limit is not None
    dd_counts = {}
    if dd:
        from .dd_columns import dd_columns

        p = task.rules.players
        cols = dd_columns(
            [arrays[f"hand_{s}"] for s in range(p)], arrays["trump"], arrays["declarer"],
            task.dd_node_limit, threads=1, tt_bits=task.dd_tt_bits,
            min_node_limit=task.dd_min_node_limit,
        )
        played = arrays["trump"] >= 0
        dd_counts = {
            "dd_solves": int(played.sum()) * p,
            **{f"dd_unsolved_{tag}": sum(int((cols[f"dd_{tag}_{s}"][played] < 0).sum())
                                         for s in range(p)) for tag in ("max", "min")},
        }
        arrays.update(cols)
    table = chunk_table(arrays, task.rules.players, task.store_dealt, index, start, dd=dd,
                        redeal=task.rules.after_third_frisch == "redeal",
                        run=None if task.options is None else (task.seed, task.options))
    del arrays
    name = chunk_name(index)
    target = Path(task.out) / name
    try:
        nbytes, sha = write_chunk(target, table)
    except FileNotFoundError:
        if task.local:
            raise SimulationError(
                f"cannot write {target}: the output directory disappeared during the run "
                "(deleted, moved or unmounted)") from None
        raise SimulationError(
            f"cannot write {target} on host {os.uname().nodename}: the output directory must exist "
            "on storage shared by the client and every worker (docs/CLUSTER.md)"
        ) from None
    return ChunkReceipt(index, start, count, name, nbytes, time.perf_counter() - t0, **dd_counts,
                        sha256=sha)


# --------------------------------------------------------------------------- the run's identity


def _identity(
    seed: int,
    deals: int,
    chunk_size: int,
    rules: Rules,
    bid: tuple[str, ...],
    play: tuple[str, ...],
    store_dealt: bool,
    dd: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What defines a run's data: the options, and the engine code that plays them
    (``engine``: :func:`~whist_sim.compiled.ground._numba.engine_fingerprint`; a run written by
    other engine code is not resumed)."""
    from ..compiled.ground._numba import engine_fingerprint

    return {
        "seed": seed,
        "deals": deals,
        "chunk_size": chunk_size,
        "rules": rules.to_dict(),
        "bid": list(bid),
        "play": list(play),
        "store_dealt": store_dealt,
        "dd": dd,
        "engine": engine_fingerprint(),
    }


#: the libraries whose versions a manifest records (the chunks' bytes and values depend on them)
VERSIONED = ("numpy", "numba", "llvmlite", "pandas", "pyarrow")


def library_versions() -> dict[str, str]:
    """The versions of Python, whist-sim and :data:`VERSIONED` in this process."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version(), "whist_sim": __version__}
    for name in VERSIONED:
        try:
            out[name] = version(name)
        except PackageNotFoundError:  # pragma: no cover - every one is a dependency
            out[name] = "unknown"
    return out


# --------------------------------------------------------------------------- the runner


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def simulate(
    options: RunOptions | str | Path,
    *args: Any,
    progress: bool = True,
    on_chunk: Callable[[ChunkReceipt], None] | None = None,
    notify: Callable[[str], None] | None = None,
    **keywords: Any,
) -> dict[str, Any]:
    """Simulate deals ``0 .. deals-1`` of run ``seed`` into the Parquet dataset directory ``out``.

    ``options``: a :class:`~whist_sim.runs.options.RunOptions`, or its fields (``out``, then
    ``deals``, ``seed``, ... as positional or keyword arguments: ``simulate(out, deals, seed,
    rules=...)``), from which one is built (:meth:`RunOptions.of
    <whist_sim.runs.options.RunOptions.of>`). ``progress``, ``on_chunk`` and ``notify`` say how
    the run is watched, not what it plays.

    Fields (of :class:`~whist_sim.runs.options.RunOptions`) and watchers
    --------------------------------------------------------------------
    out: output directory; created if missing; must be new or empty unless ``resume``.
    deals: number of deals (1 .. ``MAX_DEALS``, 10**12). Deal ``i`` uses the random stream
        ``(seed, i)``; its dealer is ``i % rules.players``.
    seed: run seed, 0 .. 2**64-1.
    rules: rule options (default: the rule book, ``Rules()``).
    bid: the seats: one for every seat or one per seat, each a bidding strategy spec (auction
        calls, Frisch passes, contract: ``"heuristic"``, ``"montecarlo:n=8"``) or ``BID/PLAY``
        with its play policy (``"heuristic/random"``); default ``"heuristic"``. Names:
        :func:`known_policies`. Or a :class:`~whist_sim.compiled.strategies.seating.Seating` (with
        no ``play``), parsed once by the caller, as the command line does.
    play: play policy spec per seat, or one for all, for the seats given without ``/PLAY``;
        default: :data:`whist_sim.compiled.strategies.registry.DEFAULT_PLAY` (``"learned"``), except
        that ``random`` plays ``random`` (:func:`seat_policies`).
    chunk_size: deals per chunk file and per task (>= 1); default 250,000, or 100 with ``dd``
        (more when that would make over :data:`~whist_sim.runs.dataset.MAX_CHUNKS` chunks, which a
        run cannot have: a smaller ``chunk_size`` is refused). Memory is a few chunks' results.
    threads: local threads (default: every CPU); with ``cluster`` the threads per worker.
    resume: finish the run already in ``out`` (same options required; missing or invalid chunks are
        played, valid ones kept). On a new or empty directory it simply starts the run.
    store_dealt: also store the hands as dealt (``dealt_s`` columns).
    progress: show a tqdm progress bar (deals/s, ETA) on stderr.
    scheduler: address of a running Dask scheduler to run the chunks on.
    cluster: ``"local:N"`` to start a local Dask cluster of N worker processes for this run.
    executor: an already started executor to use instead (the caller closes it).
    on_chunk: called in the calling thread with each :class:`ChunkReceipt` as chunks finish.
    dd: also compute the double-dummy columns (:mod:`whist_sim.runs.dd_columns`: whist-max and
        whist-min of every seat with their bounds); four players only.
    dd_node_limit: most card plays per double-dummy solve (default 1,000,000, about 0.1 s of one
        core); a solve over it is stored as unsolved (-1, with the bounds it proved). Only with
        ``dd``.
    dd_min_node_limit: whist-min's own limit, if not ``dd_node_limit``: whist-min of a full deal
        is rarely solved, so nearly every seat costs the whole limit; a lower one (say 30,000)
        makes a run several times faster, and the bounds it proves still settle most zero-bid
        questions (docs/DD.md). Only with ``dd``.
    notify: receives one-line notices for the user. With ``dd`` on local threads the solver is
        compiled (:func:`whist_sim.dd.warm_up`) after every option has been checked and before
        the first chunk; a first compile takes a minute or two, and ``notify`` is told so.
    rules_file: the rules file the options came from (``--rules``), recorded in this session's
        entry of the manifest (for information: the ``rules`` entry holds every option's value).

    Returns the manifest (also written to ``out/_manifest.parquet``). On KeyboardInterrupt or an
    error the manifest is marked ``interrupted`` / ``failed``, every finished chunk is kept, and the
    exception propagates; ``resume=True`` finishes the run later.
    """
    plan = plan_run(RunOptions.of(options, *args, **keywords))
    run = _RunSession.open(plan)
    if run is None:  # resumed a complete run whose every chunk checks out: nothing to do
        return plan.previous  # type: ignore[return-value]
    return run.execute(progress, on_chunk, notify)


@dataclass(frozen=True)
class RunPlan:
    """A run as planned by :func:`plan_run`: every option checked, the chunk task every worker
    gets, and what the output directory already holds. Nothing is written yet."""

    out: Path  # absolute output directory
    task: ChunkTask
    identity: dict[str, Any]  # the options that define the data (dataset.options_hash)
    previous: dict[str, Any] | None  # the manifest of the run being resumed, if any
    total: int  # chunks in the run
    threads: int | None
    scheduler: str | None
    cluster: str | None
    executor: Executor | None
    rules_file: str | None

    @property
    def local(self) -> bool:
        """Played on this process's own threads (compiled here, before the progress bar)."""
        return self.executor is None and self.scheduler is None and self.cluster is None


def plan_run(options: RunOptions | str | Path, *args: Any, **keywords: Any) -> RunPlan:
    """The run of ``options`` (a :class:`~whist_sim.runs.options.RunOptions`, or its fields, as
    :func:`simulate` takes them), planned: the options are checked when they are built, the
    output directory here (raising :class:`SimulationError` naming the first problem). Reads
    ``out``'s manifest, writes nothing."""
    o = RunOptions.of(options, *args, **keywords)
    rules = o.rules
    assert rules is not None and o.chunk_size is not None  # set when the options were built
    seating = o.seating
    out = Path(o.out).expanduser().resolve()
    identity = _identity(o.seed, o.deals, o.chunk_size, rules, seating.bid_text,
                         seating.play_text, o.store_dealt, o.dd_options)
    previous = check_dir(out, identity, o.resume)
    dd_options = o.dd_options
    task = ChunkTask(
        str(out), o.seed, o.deals, o.chunk_size, rules, seating, o.store_dealt,
        dd_node_limit=dd_options["node_limit"] if dd_options else None,
        dd_tt_bits=dd_options["tt_bits"] if dd_options else None,
        dd_min_node_limit=dd_options.get("min_node_limit") if dd_options else None,
        options=options_hash(identity),
        local=o.scheduler is None and o.cluster is None and (
            o.executor is None or isinstance(o.executor, ThreadExecutor)),
    )
    return RunPlan(out, task, identity, previous, n_chunks(o.deals, o.chunk_size), o.threads,
                   o.scheduler, o.cluster, o.executor, o.rules_file)


class _RunSession:
    """One session of a planned run: the chunks still to play, the manifest as it grows, and the
    session's own entry in it (started, executor, chunks, deals, timings, versions)."""

    def __init__(self, plan: RunPlan, todo: list[int], manifest: dict[str, Any],
                 session: dict[str, Any]) -> None:
        task = plan.task
        self.plan, self.todo, self.manifest, self.session = plan, todo, manifest, session
        self.chunks_done = plan.total - len(todo)
        self.deals_done = task.deals - sum(
            chunk_bounds(i, task.deals, task.chunk_size)[1] for i in todo)
        self.t0 = self.saved = time.perf_counter()
        # chunks moved aside unproven (``.unverified``, this session or an earlier one) by the
        # index of the chunk whose fresh play decides them
        self.unverified: dict[int, list[Path]] = {}
        if plan.previous is not None:
            left = set(todo)
            for f in sorted(plan.out.glob(f"chunk-*.parquet{UNVERIFIED_SUFFIX}*")):
                found = re.match(r"chunk-(\d+)\.parquet", f.name)
                if found and int(found.group(1)) in left:
                    self.unverified.setdefault(int(found.group(1)), []).append(f)

    @classmethod
    def open(cls, plan: RunPlan) -> _RunSession | None:
        """The session that plays what ``plan`` still lacks: every chunk of a new run, or those
        of a resumed run that are missing or fail their checks (moved aside). None when a resumed
        run is complete and every chunk checks out."""
        session: dict[str, Any] = {"started": _now(), "executor": None, "chunks": 0,
                                   "deals": 0, "versions": library_versions()}
        if plan.rules_file is not None:
            session["rules_file"] = plan.rules_file
        if plan.task.dd_node_limit is not None:
            # solves of this session's chunks per objective, and how many were over the limit
            session["dd"] = {"solves": 0, "unsolved": {"whist-max": 0, "whist-min": 0}}
        previous = plan.previous
        if previous is not None:
            todo, moved, sound = scan_chunks(plan.out, plan.task, plan.total,
                                              plan.threads or default_threads(),
                                              previous.get("chunks"),
                                              complete=previous.get("status") == "complete")
            if (not todo and previous.get("status") == "complete"
                    and previous.get("chunks") == sound):
                return None
            if moved:
                session["moved_aside"] = moved
            manifest = dict(previous)
            manifest["chunks"] = sound
        else:
            todo = list(range(plan.total))
            manifest = {
                "format": FORMAT_NAME,
                "format_version": FORMAT_VERSION,
                **plan.identity,
                "n_chunks": plan.total,
                "chunk_files": "chunk-{index:05d}.parquet",
                "chunks": {},
                "created": _now(),
                "sessions": [],
            }
        return cls(plan, todo, manifest, session)

    def save(self, status: str, error: str | None = None) -> dict[str, Any]:
        """Write the manifest with this session's figures so far; return it."""
        session = self.session
        wall = time.perf_counter() - self.t0
        session["wall_s"] = round(wall, 3)
        session["compute_s"] = round(session.get("compute_s", 0.0), 3)
        # the rate leaves out the one-off compile (or cache load) of the kernels
        playing = wall - session.get("warm_up_s", 0.0)
        session["deals_per_s"] = (round(session["deals"] / playing, 1)
                                  if session["deals"] and playing > 0 else None)
        m = _finish_manifest(self.manifest, session, status, error,
                             chunks_done=self.chunks_done, deals_done=self.deals_done)
        write_manifest(self.plan.out, m)
        return m

    def record(self, receipt: ChunkReceipt, distributed: bool, bar: Any) -> None:
        """Take a finished chunk into the manifest (checked on disk first), the counts and the
        progress bar; rewrite the manifest every :data:`MANIFEST_EVERY_S` seconds."""
        check_receipt(self.plan.out, receipt, distributed)
        self.manifest["chunks"][receipt.file] = {"sha256": receipt.sha256,
                                                 "bytes": receipt.nbytes}
        for old in self.unverified.pop(receipt.index, []):
            self._settle_unverified(old, receipt)
        if time.perf_counter() - self.saved > MANIFEST_EVERY_S:
            # a run killed outright keeps the checksums of what it finished
            self.save("running")
            self.saved = time.perf_counter()
        self.chunks_done += 1
        self.deals_done += receipt.count
        session = self.session
        session["chunks"] += 1
        session["deals"] += receipt.count
        session["compute_s"] = session.get("compute_s", 0.0) + receipt.seconds
        if "dd" in session:
            _count_dd(session["dd"], receipt, bar)
        bar.update(receipt.count)

    def _settle_unverified(self, old: Path, receipt: ChunkReceipt) -> None:
        """A chunk moved aside unproven, now that its fresh play is written: the same table, so
        the copy goes (nothing is lost); or different, so it stays beside the run, said."""
        counts = self.session.setdefault("unverified", {"same": 0, "differ": []})
        if same_chunk(old, self.plan.out / receipt.file):
            old.unlink(missing_ok=True)
            counts["same"] += 1
        else:
            counts["differ"].append(old.name)
            log.warning("%s differs from a fresh play of the run (edited, or not this run's): "
                        "kept as it is; the dataset holds the fresh play, %s", old,
                        receipt.file)

    def execute(self, progress: bool, on_chunk: Callable[[ChunkReceipt], None] | None,
                notify: Callable[[str], None] | None) -> dict[str, Any]:
        """Play the chunks still to play and finish the manifest, whatever happens: on
        KeyboardInterrupt or an error it is marked ``interrupted`` / ``failed``, every finished
        chunk is kept and the exception propagates. Returns the final manifest."""
        plan, task, out = self.plan, self.plan.task, self.plan.out
        # Start the executor before writing anything: a cluster that cannot start leaves no trace.
        ex = plan.executor
        if self.todo and ex is None:
            ex = make_executor(threads=plan.threads, scheduler=plan.scheduler,
                               cluster=plan.cluster)
        own_executor = plan.executor is None
        results: Any = None
        status, error = "complete", None
        bar = None
        lock = None
        owned = False
        try:
            make_dir(out)
            lock = lock_dir(out)
            if plan.previous is None and manifest_path(out) is not None:
                raise SimulationError(
                    f"another whist-sim run started writing {out} meanwhile; run the command "
                    "again (with --resume to finish that run)"
                )
            owned = True  # from here on this run's manifest is ours to write
            remove_temp_files(out)
            self.save("running")
            if self.todo:
                assert ex is not None
                if plan.local:
                    # compile before the progress bar (which a notice would garble), outside
                    # its rate
                    w0 = time.perf_counter()
                    _warm_up(task, notify)
                    self.session["warm_up_s"] = round(time.perf_counter() - w0, 3)
                self.session["executor"] = ex.description
                bar = tqdm(
                    total=task.deals, initial=self.deals_done, unit="deal", unit_scale=True,
                    smoothing=0.05, disable=not progress,
                    desc="simulate+dd" if task.dd_node_limit is not None else "simulate",
                    dynamic_ncols=True,
                )
                results = ex.map_unordered(functools.partial(run_chunk, task), self.todo)
                distributed = not isinstance(ex, ThreadExecutor)
                for _, receipt in results:
                    self.record(receipt, distributed, bar)
                    if on_chunk is not None:
                        on_chunk(receipt)
        except KeyboardInterrupt:
            status = "interrupted"
            raise
        except BaseException as e:
            status, error = "failed", f"{type(e).__name__}: {e}"
            raise
        finally:
            if bar is not None:
                bar.close()
            try:
                if results is not None:
                    results.close()  # cancels queued chunks; running local chunks finish
                if own_executor and ex is not None:
                    ex.close()
            finally:
                try:
                    if owned and manifest_path(out) is not None:
                        if status == "complete":
                            remove_temp_files(out)  # leftovers of workers that died
                        final = self.save(status, error)
                finally:
                    if lock is not None:
                        unlock_dir(out, lock)
        return final


def _warm_up(task: ChunkTask, notify: Callable[[str], None] | None) -> None:
    """Compile the run's kernels (or load them from numba's cache) with one tiny call, telling
    ``notify`` when that compiles; with ``dd`` the double-dummy solver too."""
    from ..compiled.entry import batch
    from ..compiled.ground._numba import ENGINE_COMPILE_NOTICE, compile_notice

    with compile_notice(notify, ENGINE_COMPILE_NOTICE):
        batch.play_batch(task.seed, 0, 1, task.rules, task.seating,
                         store_dealt=task.store_dealt)
    if task.dd_node_limit is not None:
        from ..dd import warm_up

        warm_up(notify)


def _count_dd(counts: dict[str, Any], receipt: ChunkReceipt, bar: Any) -> None:
    """Add a chunk's double-dummy solve counts to the session's; show the unsolved shares."""
    counts["solves"] += receipt.dd_solves
    counts["unsolved"]["whist-max"] += receipt.dd_unsolved_max
    counts["unsolved"]["whist-min"] += receipt.dd_unsolved_min
    if counts["solves"]:
        u = counts["unsolved"]
        bar.set_postfix_str(
            f"unsolved: max {u['whist-max'] / counts['solves']:.0%}, "
            f"min {u['whist-min'] / counts['solves']:.0%}",
            refresh=False,
        )


def _finish_manifest(
    manifest: dict[str, Any],
    session: dict[str, Any],
    status: str,
    error: str | None,
    chunks_done: int,
    deals_done: int,
) -> dict[str, Any]:
    """The manifest after this session: counts, status and timings summed over all sessions."""
    sessions = [*manifest.get("sessions", []), dict(session)]
    wall = sum(s.get("wall_s", 0.0) for s in sessions)
    warm = sum(s.get("warm_up_s", 0.0) for s in sessions)
    ran = sum(s.get("deals", 0) for s in sessions)
    m = {
        **manifest,
        "package_version": __version__,
        "versions": session.get("versions") or library_versions(),
        "status": status,
        "chunks_done": chunks_done,
        "deals_done": deals_done,
        "sessions": sessions,
        "timings": {
            "wall_s": round(wall, 3),
            "compute_s": round(sum(s.get("compute_s", 0.0) for s in sessions), 3),
            "warm_up_s": round(warm, 3),
            "deals_per_s": round(ran / (wall - warm), 1) if wall - warm > 0 and ran else None,
        },
    }
    m.pop("error", None)
    if error:
        m["error"] = error
    if status == "complete":
        m["finished"] = _now()
    return m


__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "DEFAULT_DD_CHUNK_SIZE",
    "default_dd_chunk_size",
    "discard_stale_run",
    "DEFAULT_DD_NODE_LIMIT",
    "ChunkReceipt",
    "ChunkTask",
    "RunOptions",
    "RunPlan",
    "SimulationError",
    "known_policies",
    "plan_run",
    "run_chunk",
    "seat_policies",
    "seating_of",
    "simulate",
]
