"""A tournament's finished chunks on disk, so that ``--resume`` finishes an interrupted run.

A tournament with an output folder keeps, besides its report, one file per finished chunk,
``OUT/chunks/chunk-00000.npz`` (the chunk's per-deal aggregates: ``ysum``, ``yy``, ``tally``,
``thrown``, ``seconds``; numpy's ``.npz``, read without pickles), written atomically, and the run's
manifest ``OUT/_tournament.json``: the options that define the results (:func:`identity`), their
hash, the number of chunks, the status and every finished chunk's SHA-256 and size. A resumed run
checks its options against the manifest, reads back every chunk whose checksum, place and shape
are sound, plays the others again, and takes all of them in deal order as an uninterrupted run
does: the summary is the same (but the timings).
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .schedule import ChunkResult, TournamentError, TournamentTask

MANIFEST = "_tournament.json"
CHUNKS_DIR = "chunks"
FORMAT = "whist-sim-tournament"
_ARRAYS = ("ysum", "yy", "tally", "thrown", "seconds")


def identity(task: TournamentTask, sprt: Any, engine: str) -> dict[str, Any]:
    """The options that define a tournament's chunk results (JSON types)."""
    return {
        "seed": task.seed, "deals": task.deals, "chunk_size": task.chunk_size,
        "rules": task.rules.to_dict(), "specs": [s.text for s in task.specs],
        "play": task.play, "plays": None if task.plays is None else [q.text for q in task.plays],
        "seatings": [list(r) for r in task.seatings], "independent": task.independent,
        "sprt": None if sprt is None else list(sprt), "engine": engine,
    }


def _hash(ident: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:16]


def chunk_file(out: Path, index: int) -> Path:
    return out / CHUNKS_DIR / f"chunk-{index:05d}.npz"


def new_manifest(ident: dict[str, Any], n_chunks: int) -> dict[str, Any]:
    return {"format": FORMAT, "identity": ident, "options": _hash(ident), "n_chunks": n_chunks,
            "status": "running", "chunks": {}}


def write_manifest(out: Path, manifest: Mapping[str, Any]) -> None:
    from ..runs.dataset import atomic_write_bytes

    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    atomic_write_bytes(out / MANIFEST, text.encode())


def load_manifest(out: Path) -> dict[str, Any] | None:
    """The manifest of the tournament in ``out``; ``None`` when there is none."""
    from ..core.jsonio import JsonInputError, load_json_file

    f = out / MANIFEST
    if not f.is_file():
        return None
    try:
        m = load_json_file(f)
    except JsonInputError as e:
        raise TournamentError(f"{f} is unreadable: {e}") from None
    chunks = m.get("chunks") if isinstance(m, dict) else None
    if (not isinstance(m, dict) or m.get("format") != FORMAT
            or not isinstance(m.get("identity"), dict) or not isinstance(chunks, dict)
            or not isinstance(m.get("n_chunks"), int) or m.get("options") != _hash(m["identity"])
            or not all(isinstance(v, dict) and isinstance(v.get("sha256"), str)
                       for v in chunks.values())):
        raise TournamentError(f"{f} is not a whist-sim tournament manifest, or it was edited")
    return m


def differences(saved: Mapping[str, Any], ident: Mapping[str, Any]) -> list[str]:
    return [f"{k}: the run has {saved.get(k)!r}, this command {ident.get(k)!r}"
            for k in sorted(set(saved) | set(ident)) if saved.get(k) != ident.get(k)]


def save_chunk(out: Path, res: ChunkResult) -> dict[str, Any]:
    """Write chunk ``res`` atomically; return its manifest entry (sha256, bytes)."""
    from ..runs.dataset import atomic_write_bytes

    buf = io.BytesIO()
    np.savez(buf, ysum=res.ysum, yy=res.yy, tally=res.tally, thrown=res.thrown,
             seconds=np.float64(res.seconds), place=np.array([res.index, res.start, res.count]))
    data = buf.getvalue()
    atomic_write_bytes(chunk_file(out, res.index), data)
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def load_chunk(out: Path, index: int, start: int, count: int, n_ent: int,
               entry: Mapping[str, Any] | None) -> ChunkResult | str:
    """Chunk ``index`` read back, or the reason it cannot be used (then it is played again)."""
    f = chunk_file(out, index)
    if entry is None or not f.is_file():
        return "missing"
    data = f.read_bytes()
    if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
        return "its checksum differs from the manifest's"
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            arrays = {k: z[k] for k in (*_ARRAYS, "place")}
    except (OSError, ValueError, KeyError) as e:
        return f"unreadable: {e}"
    if list(arrays["place"]) != [index, start, count]:
        return f"it holds chunk {list(arrays['place'])}, not chunk {index}"
    shapes = {"ysum": (count, n_ent), "yy": (count, n_ent, n_ent), "thrown": (count,)}
    if any(arrays[k].shape != s for k, s in shapes.items()) or arrays["tally"].shape[:2] != (
            count, n_ent):
        return "its arrays do not have the chunk's shape"
    return ChunkResult(index, start, count, arrays["ysum"], arrays["yy"], arrays["tally"],
                       arrays["thrown"], float(arrays["seconds"]))
