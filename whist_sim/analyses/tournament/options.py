"""The options of a tournament as one value: :class:`TournamentOptions`.

:func:`~whist_sim.analyses.tournament.runner.tournament` takes one (or its fields as keywords,
from which it builds one): what is played (the entrants, deals, seed, rules, play, seatings,
SPRT, design, games), where (the output folder, resumed or new; local threads, a Dask scheduler
or cluster, an executor), what is written (``formats``, ``confidence``) and the check under
search. The tournament checks every field when it starts, naming the first bad one
(:class:`~whist_sim.analyses.tournament.schedule.TournamentError`); the entrants are parsed
there once. The progress bar, the command line to record and the per-chunk callback are not
options of the result: they stay keyword arguments of ``tournament``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ...compiled.strategies.registry import DEFAULT_PLAY
from ...compiled.strategies.spec import StrategySpec
from ...core.rules import Rules
from ...runs.executors import Executor
from .games import DEFAULT_MAX_DEALS

#: the fields a tournament's positional arguments fill, in order (``tournament(["hcp",
#: "heuristic"], 100_000, 1)``)
POSITIONAL = ("strategies", "deals", "seed")


@dataclass(frozen=True)
class TournamentOptions:
    """Every option of a tournament (the fields documented by
    :func:`~whist_sim.analyses.tournament.runner.tournament`). ``strategies``, ``deals`` and
    ``seed`` have no default; the others have the command line's."""

    strategies: Sequence[str | StrategySpec] | str
    deals: int
    seed: int
    rules: Rules | None = None
    play: str | StrategySpec = DEFAULT_PLAY
    rotations: str | int = "all"
    sprt: str | Sequence[float] | None = None
    out: str | Path | None = None
    design: str = "duplicate"
    chunk_size: int | None = None
    threads: int | None = None
    scheduler: str | None = None
    cluster: str | None = None
    executor: Executor | None = None
    confidence: float = 0.95
    formats: str | Iterable[str] = ("md",)
    games: int = 0
    game_max_deals: int = DEFAULT_MAX_DEALS
    resume: bool = False
    check: str | StrategySpec | None = None
    check_deals: int | None = None

    @classmethod
    def of(cls, positional: Sequence[Any], given: dict[str, Any]) -> TournamentOptions:
        """The options of a call ``tournament(*positional, **given)``: the positional arguments
        fill :data:`POSITIONAL` in order; an unknown keyword, or a field given twice, is a
        ``TypeError`` naming it, as a Python call's would be."""
        known = {f.name for f in fields(cls)}
        if len(positional) > len(POSITIONAL):
            raise TypeError(f"tournament() takes at most {len(POSITIONAL)} positional "
                            f"arguments ({', '.join(POSITIONAL)}), got {len(positional)}")
        values = dict(zip(POSITIONAL, positional, strict=False))
        for name, value in given.items():
            if name not in known:
                raise TypeError(f"tournament() got an unexpected keyword argument {name!r}")
            if name in values:
                raise TypeError(f"tournament() got multiple values for argument {name!r}")
            values[name] = value
        missing = [n for n in POSITIONAL if n not in values]
        if missing:
            raise TypeError(f"tournament() missing required argument(s): {', '.join(missing)}")
        return cls(**values)
