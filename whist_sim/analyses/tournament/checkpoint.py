"""A tournament's finished chunks kept on disk (``OUT/chunks``, a
:class:`whist_sim.runs.checkpoint.ChunkStore`), so that ``--resume`` finishes an interrupted run.

Each finished chunk's per-deal aggregates (``ysum``, ``yy``, ``tally``, ``thrown``, ``seconds``)
are kept as it finishes; a resumed run checks its options against the store (:func:`identity`),
reads back every chunk that checks out, plays the others again, and takes all of them in deal
order as an uninterrupted run does: the summary is the same (but the timings).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...runs.checkpoint import ChunkStore
from .schedule import ChunkResult, TournamentTask

CHUNKS_DIR = "chunks"
PHASE = "chunk"


def identity(task: TournamentTask, sprt: Any, engine: str) -> dict[str, Any]:
    """The options that define a tournament's chunk results."""
    return {
        "seed": task.seed, "deals": task.deals, "chunk_size": task.chunk_size,
        "rules": task.rules.to_dict(), "specs": [s.text for s in task.specs],
        "play": task.play, "plays": None if task.plays is None else [q.text for q in task.plays],
        "seatings": [list(r) for r in task.seatings], "independent": task.independent,
        "sprt": None if sprt is None else list(sprt), "engine": engine,
    }


def save_chunk(store: ChunkStore, res: ChunkResult) -> None:
    store.put(PHASE, res.index, {"ysum": res.ysum, "yy": res.yy, "tally": res.tally,
                                 "thrown": res.thrown, "seconds": np.float64(res.seconds),
                                 "place": np.array([res.start, res.count])})


def load_chunk(store: ChunkStore, index: int, start: int, count: int,
               n_ent: int) -> ChunkResult | None:
    """Chunk ``index`` read back, or ``None`` (missing or not sound: it is played again)."""
    a = store.get(PHASE, index)
    if a is None or set(a) != {"ysum", "yy", "tally", "thrown", "seconds", "place"}:
        return None
    if (list(a["place"]) != [start, count] or a["ysum"].shape != (count, n_ent)
            or a["yy"].shape != (count, n_ent, n_ent) or a["thrown"].shape != (count,)
            or a["tally"].shape[:2] != (count, n_ent)):
        return None
    return ChunkResult(index, start, count, a["ysum"], a["yy"], a["tally"], a["thrown"],
                       float(a["seconds"]))
