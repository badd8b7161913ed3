"""A run's output folder: what may be written there, its lock, and what a resumed run keeps.

A run writes into a folder that is new, empty, or holds a run of the same options (with
``resume``); while it writes it holds the folder's lock (:mod:`whist_sim.runs.lock`, the file
``.whist-sim.lock``), so a second run on the same folder is refused at once, naming the running
one. A resumed run validates every chunk file present (readable with page checksums, the right
schema, rows, deal range and run identity, and the checksum its manifest recorded) and moves aside
any that fails (``chunk-00003.parquet.corrupt``: user data is never deleted). A chunk whose
checksum the manifest should record but does not (a run written before chunk checksums, a manifest
whose ``chunks`` were removed, a finished run's edited manifest) cannot be proven, so it is played
again: the file is moved aside (``chunk-00003.parquet.unverified``) and removed only when the fresh
play proves it the same (:func:`scan_chunks`). Used by :mod:`whist_sim.runs.simulate`.
"""

from __future__ import annotations

import logging
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..core.rules import Rules
from .dataset import (
    CHUNK_RE,
    IDENTITY_KEYS,
    LOCK_NAME,
    MANIFEST_NAMES,
    TEMP_PREFIX,
    DatasetError,
    check_chunk,
    chunk_bounds,
    chunk_name,
    file_sha256,
    load_manifest,
    manifest_path,
)

log = logging.getLogger(__name__)


class SimulationError(ValueError):
    """Impossible simulation options, or an output directory that cannot take this run."""


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    diffs = []
    for key in IDENTITY_KEYS:
        # manifests written before the dd option existed have no "dd" key: a run without it
        a, b = old.get(key), new[key]
        if key == "rules" and isinstance(a, dict):  # options added since the run take defaults
            a = {**Rules().to_dict(), **a}
        if key in ("rules", "dd") and isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b)):
                if a.get(k) != b.get(k):
                    diffs.append(f"{key}.{k}: run {a.get(k)!r}, now {b.get(k)!r}")
        elif key == "dd" and (a is None) != (b is None):
            diffs.append(
                "dd: the run has no double-dummy columns, now --dd is given" if a is None else
                "dd: the run has double-dummy columns (--dd), now --dd is not given"
            )
        elif key == "engine" and a != b:
            diffs.append(f"engine: the run was written by other engine code ({a or 'unrecorded'}"
                         f", now {b}): its chunks would not be this code's")
        elif a != b:
            diffs.append(f"{key}: run {a!r}, now {b!r}")
    return diffs


def discard_stale_run(out: str | Path) -> bool:
    """Delete the whist-sim run in ``out`` if other engine code wrote it (its manifest's
    ``engine`` differs from this code's); ``True`` if it did. For the scripts that keep their
    own working datasets (``make run``, ``make results``) and reuse them while the code is the
    same: after an engine change they simulate again instead of reusing stale data. A folder
    that holds files besides a run is left alone (:func:`simulate` then refuses it)."""
    from ..compiled.ground._numba import engine_fingerprint

    out = Path(out)
    if not out.is_dir() or manifest_path(out) is None:
        return False
    try:
        manifest = load_manifest(out)
    except DatasetError:
        return False
    if manifest.get("engine") == engine_fingerprint():
        return False
    if any(not (CHUNK_RE.match(f) or f in MANIFEST_NAMES) for f in user_files(out)):
        return False  # someone else's files too: keep them all
    import shutil

    shutil.rmtree(out)
    return True


def user_files(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir()
                  if not p.name.startswith(TEMP_PREFIX) and p.name != LOCK_NAME)


def lock_dir(out: Path, command: str = "whist-sim simulate") -> Any:
    """Take the folder's lock (:class:`whist_sim.runs.lock.FolderLock`; a second run on it is
    refused at once, naming the running one); return it, held. ``command`` names this run in
    another's refusal. Prefer :func:`whist_sim.runs.lock.folder_lock` in new code."""
    from .lock import FolderLock, FolderLockError

    try:
        return FolderLock(out, command).acquire()
    except FolderLockError as e:
        raise SimulationError(str(e)) from None


def unlock_dir(out: Path, lock: Any) -> None:
    """Release the folder's lock and remove its file, so that the finished folder holds Parquet
    files only (polars reads no folder with other files). The file goes while the lock is still
    held: a run starting meanwhile locks a new file and finds the manifest this run wrote."""
    lock.release()


def check_dir(out: Path, identity: dict[str, Any], resume: bool) -> dict[str, Any] | None:
    """Check the output directory; return the existing manifest when resuming, else None."""
    if out.exists() and not out.is_dir():
        raise SimulationError(f"output {out} exists and is not a directory")
    if not out.exists():
        return None
    files = user_files(out)
    if manifest_path(out) is None:
        if files:
            shown = ", ".join(files[:3]) + (", ..." if len(files) > 3 else "")
            raise SimulationError(
                f"output directory {out} is not empty and holds no whist-sim run "
                f"(found {shown}); choose a new or empty directory"
            )
        return None
    try:
        manifest = load_manifest(out)
    except DatasetError as e:
        raise SimulationError(f"output directory {out}: {e}") from None
    if not resume:
        raise SimulationError(
            f"output directory {out} already holds a whist-sim run (status: "
            f"{manifest.get('status')}); pass --resume to finish it, or choose a new directory"
        )
    diffs = differences(manifest, identity)
    if diffs:
        raise SimulationError(
            f"cannot resume {out}: the options differ from the run's manifest:\n  "
            + "\n  ".join(diffs)
            + "\nrun with the run's options, or choose a new directory"
        )
    return manifest


#: the reason :func:`scan_chunks` gives for a chunk whose manifest records no checksum
UNVERIFIED = ("no checksum recorded in the manifest (a run written before chunk checksums, or an "
              "edited manifest): it cannot be proven to be the run's own")
#: suffix of such a chunk moved aside (``chunk-00003.parquet.unverified``)
UNVERIFIED_SUFFIX = ".unverified"


def quarantine(path: Path, suffix: str = ".corrupt") -> Path:
    """Move a file aside as ``<name>.corrupt`` (``.corrupt.1``, ... if taken; or another
    ``suffix``); return where it went. Nothing is ever deleted."""
    target = path.with_name(path.name + suffix)
    n = 0
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}{suffix}.{n}")
    os.replace(path, target)
    return target


def same_chunk(kept: Path, fresh: Path) -> bool:
    """Whether the chunk file ``kept`` (moved aside) holds the same table as ``fresh`` (the
    chunk just played again): the same bytes, or the same columns and values (a file written
    by an earlier version differs in its metadata only). Unreadable: not the same."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        a, b = kept.read_bytes(), fresh.read_bytes()
        if a == b:
            return True
        ta = pq.read_table(pa.BufferReader(a)).replace_schema_metadata(None)
        tb = pq.read_table(pa.BufferReader(b)).replace_schema_metadata(None)
        return ta.schema.equals(tb.schema) and ta.equals(tb)
    except (OSError, pa.ArrowException, ValueError):
        return False


def scan_chunks(
    out: Path, task: Any, total: int, threads: int, sums: dict[str, Any] | None,
    complete: bool = False,
) -> tuple[list[int], list[dict[str, str]], dict[str, dict[str, Any]]]:
    """Validate a run's chunk files against the run (``sums``: the manifest's checksums, ``None``
    for a run written before them); return the indices still to play, what was moved aside, and
    the checksums of the sound chunks.

    A chunk is kept only when something proves it the run's own. With ``sums is None`` (a run
    written before chunk checksums, or a manifest whose ``chunks`` field was removed) and in a
    ``complete`` run (whose manifest records every chunk: a missing entry is an edit) a chunk
    without a recorded checksum could hold any values that pass the structural checks, so it is
    moved aside as ``<name>.unverified`` (reason :data:`UNVERIFIED`) and played again; the run
    then compares the two (:func:`same_chunk`) and removes the copy only when it is the same. In
    an unfinished run that records checksums, a chunk without one was finished after the
    manifest was last written (Ctrl-C, ``kill -9``): it carries the run's identity (seed,
    options hash, index), which is checked, and is kept and summed."""

    def check(index: int) -> tuple[int, str | None, dict[str, Any] | None]:
        start, count = chunk_bounds(index, task.deals, task.chunk_size)
        path = out / chunk_name(index)
        entry = (sums or {}).get(path.name)
        reason = check_chunk(
            path, index, start, count, task.rules.players, task.store_dealt,
            dd=task.dd_node_limit is not None, redeal=task.rules.after_third_frisch == "redeal",
            run=(task.seed, task.options or ""),
            sha256=entry["sha256"] if entry else None, legacy_ok=sums is None,
        )
        if reason is not None:
            return index, reason, None
        if entry is None and (sums is None or complete):
            return index, UNVERIFIED, None  # sound in form, but nothing proves its values
        if entry is None:  # finished after the manifest was last written: sum it now
            data = path.read_bytes()
            entry = {"sha256": file_sha256(data), "bytes": len(data)}
        return index, None, entry

    todo, moved, sound = [], [], {}
    unverified: list[str] = []
    with ThreadPoolExecutor(max(1, threads)) as pool:
        for index, reason, entry in pool.map(check, range(total)):
            if reason is None:
                if entry is not None:
                    sound[chunk_name(index)] = entry
                continue
            todo.append(index)
            if reason == UNVERIFIED:
                path = out / chunk_name(index)
                dest = quarantine(path, UNVERIFIED_SUFFIX)
                unverified.append(path.name)
                moved.append({"file": path.name, "reason": reason, "moved_to": dest.name})
            elif reason != "missing":
                path = out / chunk_name(index)
                dest = quarantine(path)
                log.warning("%s is invalid (%s): moved it to %s; playing it again", path, reason,
                            dest.name)
                moved.append({"file": path.name, "reason": reason, "moved_to": dest.name})
    if unverified:
        shown = ", ".join(unverified[:3]) + (", ..." if len(unverified) > 3 else "")
        log.warning("%d chunk(s) of %s have no checksum in the manifest (%s): moved aside as "
                    "*%s and played again; a copy is removed once the fresh play proves it the "
                    "same, and kept if it differs", len(unverified), out, shown,
                    UNVERIFIED_SUFFIX)
    return todo, moved, sound


def check_receipt(out: Path, receipt: Any, distributed: bool) -> None:
    """The chunk a task reports must be in ``out`` as written (catches unshared cluster storage,
    and a folder deleted or a file changed during the run)."""
    target = out / receipt.file
    if not out.is_dir():
        raise SimulationError(
            f"the output directory {out} disappeared during the run (deleted, moved or "
            "unmounted); nothing more can be kept"
        )
    if not target.is_file() or target.stat().st_size != receipt.nbytes:
        if not distributed:
            raise SimulationError(
                f"{receipt.file} was written to {out} but is gone or changed (was it deleted or "
                "edited during the run?)"
            )
        raise SimulationError(
            f"a worker wrote {receipt.file} but it is not in {out} as written: the output "
            "directory must be on storage shared by the client and every worker (docs/CLUSTER.md)"
        )


def make_dir(out: Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimulationError(f"cannot create output directory {out}: {e}") from None
