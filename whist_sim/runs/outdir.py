"""A run's output folder: what may be written there, its lock, and what a resumed run keeps.

A run writes into a folder that is new, empty, or holds a run of the same options (with
``resume``); while it writes it holds the folder's lock file (``.whist-sim.lock``), so a second
run on the same folder is refused at once. A resumed run validates every chunk file present
(readable with page checksums, the right schema, rows, deal range and run identity, and the
checksum its manifest recorded) and moves aside any that fails (``chunk-00003.parquet.corrupt``:
user data is never deleted). Used by :mod:`whist_sim.runs.simulate`.
"""

from __future__ import annotations

import contextlib
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


def lock_dir(out: Path) -> Any:
    """Take the folder's lock (a second run on it is refused at once); return it, held."""
    from filelock import FileLock, Timeout

    lock = FileLock(str(out / LOCK_NAME), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise SimulationError(
            f"another whist-sim run is writing {out} (it holds {out / LOCK_NAME}); wait for it "
            "to finish, or choose another directory"
        ) from None
    except OSError as e:
        raise SimulationError(f"cannot lock output directory {out}: {e}") from None
    return lock


def unlock_dir(out: Path, lock: Any) -> None:
    """Release the folder's lock and remove its file, so that the finished folder holds Parquet
    files only (polars reads no folder with other files). The file goes while the lock is still
    held: a run starting meanwhile locks a new file and finds the manifest this run wrote."""
    with contextlib.suppress(OSError):  # Windows cannot remove an open file: it stays
        (out / LOCK_NAME).unlink()
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


def quarantine(path: Path) -> Path:
    """Move a corrupt file aside as ``<name>.corrupt`` (``.corrupt.1``, ... if taken)."""
    target = path.with_name(path.name + ".corrupt")
    n = 0
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt.{n}")
    os.replace(path, target)
    return target


def scan_chunks(
    out: Path, task: Any, total: int, threads: int, sums: dict[str, Any] | None
) -> tuple[list[int], list[dict[str, str]], dict[str, dict[str, Any]]]:
    """Validate a run's chunk files against the run (``sums``: the manifest's checksums, ``None``
    for a run written before them); return the indices still to play, what was moved aside, and
    the checksums of the sound chunks."""

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
        if entry is None:  # sound, finished after the manifest was last written: sum it now
            data = path.read_bytes()
            entry = {"sha256": file_sha256(data), "bytes": len(data)}
        return index, None, entry

    todo, moved, sound = [], [], {}
    with ThreadPoolExecutor(max(1, threads)) as pool:
        for index, reason, entry in pool.map(check, range(total)):
            if reason is None:
                if entry is not None:
                    sound[chunk_name(index)] = entry
                continue
            todo.append(index)
            if reason != "missing":
                path = out / chunk_name(index)
                dest = quarantine(path)
                log.warning("%s is invalid (%s): moved it to %s; playing it again", path, reason,
                            dest.name)
                moved.append({"file": path.name, "reason": reason, "moved_to": dest.name})
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
