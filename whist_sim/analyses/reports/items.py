"""The parts of a report: its tables, its charts, its sections and the report itself (values that
:mod:`whist_sim.analyses.reports.report` builds and :mod:`whist_sim.analyses.reports.render`
writes)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

__all__ = ["ChartItem", "Report", "Section", "TableItem"]


@dataclass(frozen=True)
class TableItem:
    """One table of a report: ``name`` is its file stem (``<name>.csv``)."""

    name: str
    title: str
    data: pd.DataFrame
    note: str = ""


@dataclass(frozen=True)
class ChartItem:
    """One chart of a report: ``draw()`` returns a new figure; ``name`` is its file stem."""

    name: str
    title: str
    draw: Callable[[], Figure]
    note: str = ""


@dataclass(frozen=True)
class Section:
    title: str
    text: str
    items: tuple[TableItem | ChartItem, ...]


@dataclass(frozen=True)
class Report:
    """A report: title, provenance (``meta``: label -> text), sections, the player count.

    ``summary``: what the report finds, in sentences with numbers, for a card player; the
    renderers put it first, before the provenance and any table. ``glossary``: ``(term,
    definition)`` of every term the report uses
    (:func:`whist_sim.analyses.reports.wording.glossary_rows`), rendered as one table at the
    end."""

    title: str
    meta: dict[str, str]
    sections: tuple[Section, ...]
    players: int = 4
    n_tricks: int = 13
    extra: dict[str, Any] = field(default_factory=dict)
    summary: str = ""
    glossary: tuple[tuple[str, str], ...] = ()

    def tables(self) -> list[TableItem]:
        return [i for s in self.sections for i in s.items if isinstance(i, TableItem)]

    def charts(self) -> list[ChartItem]:
        return [i for s in self.sections for i in s.items if isinstance(i, ChartItem)]
