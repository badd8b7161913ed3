"""The options of a bid chart as one value: :class:`ChartOptions`.

:func:`~whist_sim.analyses.advisor.bidchart.bid_chart` takes one (or its fields as keywords,
from which it builds one): which hands (screened and evaluated per cell, the positions, the NT
panel), how each is evaluated (deals per hand, seed, rules, the bidding strategy and play, bid-
consistent sampling), where the work runs (chunks, local threads, a Dask scheduler or cluster,
an executor) and the checkpoint that lets an interrupted chart resume. The chart checks every
field when it starts, naming the first bad one
(:class:`~whist_sim.analyses.advisor.bidchart.ChartError`). The progress bar is not an option of
the result: it stays a keyword argument of ``bid_chart``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ...compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY
from ...core.rules import Rules
from ...runs.executors import Executor

DEFAULT_MIN_HANDS = 200  # hands per cell (--min-hands)
DEFAULT_HANDS = None  # screened hands: None = enough for cells of probability MIN_PROB
DEFAULT_DEALS_PER_HAND = 200
DEFAULT_CHUNK = 50  # hands evaluated per task


@dataclass(frozen=True)
class ChartOptions:
    """Every option of a bid chart (the fields documented by
    :func:`~whist_sim.analyses.advisor.bidchart.bid_chart`), with the command line's defaults."""

    hands: int | None = DEFAULT_HANDS
    deals_per_hand: int = DEFAULT_DEALS_PER_HAND
    seed: int = 0
    rules: Rules | None = None
    bid: str = DEFAULT_BID
    play: str = DEFAULT_PLAY
    consistent: bool = False
    chunk_size: int = DEFAULT_CHUNK
    threads: int | None = None
    scheduler: str | None = None
    cluster: str | None = None
    executor: Executor | None = None
    min_hands: int = DEFAULT_MIN_HANDS
    nt: bool = True
    positions: Sequence[int] | None = None
    checkpoint: str | Path | None = None
    resume: bool = False

    @classmethod
    def of(cls, given: dict[str, Any]) -> ChartOptions:
        """The options of a call ``bid_chart(**given)``; an unknown keyword is a ``TypeError``
        naming it, as a Python call's would be."""
        known = {f.name for f in fields(cls)}
        for name in given:
            if name not in known:
                raise TypeError(f"bid_chart() got an unexpected keyword argument {name!r}")
        return cls(**given)
