"""Finished work of a long run kept on disk, so that ``--resume`` finishes an interrupted run.

A :class:`ChunkStore` is a folder of chunk results, one ``<phase>-00000.npz`` file per finished
chunk (a mapping of names to numpy arrays; read back without pickles), written atomically, and a
manifest ``_checkpoint.json``: the options that define the results (the run's identity, any JSON
object), their hash, the status, and every chunk file's SHA-256 and size. A store opened to resume
refuses other options; a chunk whose checksum or contents do not check out is not returned (it is
played again). Opening a store removes the temporary files that interrupted atomic writes left in
its folder (``.tmp-*``: a process killed by SIGTERM or ``kill -9`` while writing a chunk); the run
that opens it must hold its output's lock (:mod:`whist_sim.runs.lock`), so no other process is
writing them. ``tournament`` and ``bid-chart`` keep their chunks in one; ``simulate``'s chunks
are its Parquet dataset (:mod:`whist_sim.runs.dataset`).
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .dataset import atomic_write_bytes, remove_temp_files

MANIFEST = "_checkpoint.json"
FORMAT = "whist-sim-checkpoint"


class CheckpointError(ValueError):
    """A store that cannot be used: another run's, other options, or not a store at all."""


def _hash(ident: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:16]


class ChunkStore:
    """The chunk results of the run ``identity`` in ``folder`` (created when missing).

    ``resume=False`` needs a folder without a store (a new run); ``resume=True`` opens the store
    of the same run (or starts one when there is none). Raises :class:`CheckpointError`.
    """

    def __init__(self, folder: str | Path, identity: dict[str, Any], resume: bool) -> None:
        self.folder = Path(folder)
        ident = json.loads(json.dumps(identity, sort_keys=True))  # JSON types, as stored
        previous = self._load() if (self.folder / MANIFEST).is_file() else None
        if previous is not None and not resume:
            raise CheckpointError(
                f"{self.folder} holds the chunks of a run (status: {previous['status']}); pass "
                "--resume to finish it, or choose a new directory")
        if previous is not None:
            diffs = [f"{k}: the run has {previous['identity'].get(k)!r}, this command "
                     f"{ident.get(k)!r}" for k in sorted(set(previous["identity"]) | set(ident))
                     if previous["identity"].get(k) != ident.get(k)]
            if diffs:
                raise CheckpointError(f"cannot resume {self.folder}: the options differ from "
                                      "the run's: " + "; ".join(diffs))
            self.manifest = {**previous, "status": "running"}
        else:
            self.manifest = {"format": FORMAT, "identity": ident, "options": _hash(ident),
                             "status": "running", "chunks": {}}
        self.folder.mkdir(parents=True, exist_ok=True)
        # leftovers of a killed run's atomic writes: never read, and no one else writes here
        remove_temp_files(self.folder)
        self._save()

    def _load(self) -> dict[str, Any]:
        from ..core.jsonio import JsonInputError, load_json_file

        f = self.folder / MANIFEST
        try:
            m = load_json_file(f)
        except JsonInputError as e:
            raise CheckpointError(f"{f} is unreadable: {e}") from None
        if (not isinstance(m, dict) or m.get("format") != FORMAT
                or not isinstance(m.get("identity"), dict)
                or m.get("options") != _hash(m["identity"])
                or not isinstance(m.get("chunks"), dict)
                or not all(isinstance(v, dict) and isinstance(v.get("sha256"), str)
                           for v in m["chunks"].values())):
            raise CheckpointError(f"{f} is not a whist-sim checkpoint manifest, or it was edited")
        return m

    def _save(self) -> None:
        text = json.dumps(self.manifest, indent=2, sort_keys=True) + "\n"
        atomic_write_bytes(self.folder / MANIFEST, text.encode())

    @staticmethod
    def name(phase: str, index: int) -> str:
        return f"{phase}-{index:05d}.npz"

    def get(self, phase: str, index: int) -> dict[str, np.ndarray] | None:
        """Chunk ``index`` of ``phase`` as saved, or ``None`` (never saved, or damaged)."""
        name = self.name(phase, index)
        entry = self.manifest["chunks"].get(name)
        f = self.folder / name
        if entry is None or not f.is_file():
            return None
        data = f.read_bytes()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            return None
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except (OSError, ValueError, KeyError):
            return None
        place = arrays.pop("__chunk__", None)
        if place is None or list(place) != [index]:
            return None
        return arrays

    def put(self, phase: str, index: int, arrays: Mapping[str, Any]) -> None:
        """Keep chunk ``index`` of ``phase`` (atomically; the manifest records its checksum)."""
        buf = io.BytesIO()
        payload: dict[str, Any] = {"__chunk__": np.array([index]),
                                   **{k: np.asarray(v) for k, v in arrays.items()}}
        np.savez(buf, **payload)
        data = buf.getvalue()
        name = self.name(phase, index)
        atomic_write_bytes(self.folder / name, data)
        self.manifest["chunks"][name] = {"sha256": hashlib.sha256(data).hexdigest(),
                                         "bytes": len(data)}
        self._save()

    def remove(self) -> None:
        """Delete the store (its run's result is written elsewhere)."""
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)

    def finish(self, status: str) -> None:
        """Record the run's status (``complete``, ``interrupted``, ``failed``)."""
        self.manifest["status"] = status
        if self.folder.is_dir():
            self._save()


__all__ = ["CheckpointError", "ChunkStore"]
