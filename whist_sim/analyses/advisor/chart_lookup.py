"""What to bid with a hand, read from a bid chart instead of searched (``whist-sim chart``).

A bid chart (:mod:`whist_sim.analyses.advisor.bidchart`, ``whist-sim bid-chart``) writes one row
per cell to ``cells.csv``: the bidding position (0 = declarer .. ``P-1`` = the last bidder), the
panel (``suit``: the deal's own trump; ``NT``), the high-card-point band and the trump class
(:mod:`whist_sim.analyses.advisor.chart_classes`), with the cell's best bid, its runner-up,
their expected scores (points per deal) and the paired difference with its 95 % interval. A
lookup finds the hand's cell and reads that row: no sampling, no kernel, in well under a second.

A cell is an average over the hands it covers, not advice for one hand: the answer says how many
hands the cell holds and whether its two bids are told apart, and points to ``whist-sim
advise`` for the hand's own answer. A cell's bid can be illegal for the hand (below the
auction's level for the declarer, the forbidden number for the last bidder, RULES §4); then the
lookup says so and answers with the runner-up when that one is legal.

Conventions: bids are contracts in tricks; expected scores are points per deal of the player;
``position`` as above; ``cells.csv`` is verified as it is read (its columns, one row per cell,
whole numbers where whole numbers belong): a malformed file is refused naming the file and line.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.cards import NT, STRAINS, SUIT_SYMBOLS, format_hand
from .chart_classes import band_label, hand_hcp, trump_class
from .scenario import AdviceError, Scenario

#: the committed charts of the source tree, by number of players (``make results`` writes them)
RESULTS = Path(__file__).resolve().parents[3] / "results" / "bid_chart"
COMMITTED = {4: RESULTS, 3: RESULTS / "three_players"}
CELLS = "cells.csv"
#: the columns a lookup reads, and how each is read
_COLUMNS = {"position": int, "panel": str, "hcp_band": str, "trump_class": str, "hands": int,
            "best_bid": int, "best_ev": float, "second_bid": int, "second_ev": float,
            "diff": float, "diff_ci_low": float, "diff_ci_high": float, "separated": bool}
_OPTIONAL = {"check_bid": int, "check_holds": bool, "may": str, "may_not": str, "auction": str}
_MAX_BYTES = 10_000_000  # a chart's cells.csv is about 100 kB


class ChartLookupError(ValueError):
    """A chart that cannot be read, or a hand that no cell of it covers."""


@dataclass(frozen=True)
class Cell:
    """One row of ``cells.csv`` (the columns a lookup reads; ``second_bid`` -1 when none)."""

    position: int
    panel: str
    hcp_band: str
    trump_class: str
    hands: int
    best_bid: int
    best_ev: float
    second_bid: int
    second_ev: float
    diff: float
    diff_ci_low: float
    diff_ci_high: float
    separated: bool
    check_bid: int | None = None
    check_holds: bool | None = None
    #: a class split by the auction (docs/ADVISOR.md): the bids this cell's hands may all bid /
    #: may none bid (space-separated; empty: the class is one cell), and the split in words
    may: str = ""
    may_not: str = ""
    auction: str = ""

    def covers(self, illegal: dict[int, str]) -> bool:
        """Whether a hand whose illegal bids are ``illegal`` belongs to this part of its
        class: it may bid every bid of ``may`` and none of ``may_not``."""
        may = [int(b) for b in self.may.split()]
        may_not = [int(b) for b in self.may_not.split()]
        return all(b not in illegal for b in may) and all(b in illegal for b in may_not)


@dataclass(frozen=True)
class ChartAnswer:
    """A hand's cell and what it says. ``bid``: the answer (the cell's best bid, or its
    runner-up when the best is illegal for this hand; ``None`` when neither is legal);
    ``illegal``: the cell's bids that this hand may not bid, with the reason."""

    scenario: Scenario
    chart: Path
    cell: Cell
    hcp: int
    bid: int | None
    illegal: dict[int, str]

    @property
    def runner_up(self) -> int | None:
        c = self.cell
        other = c.second_bid if self.bid == c.best_bid else c.best_bid
        return other if other >= 0 and other != self.bid else None


def _value(kind: type, text: str) -> Any:
    if kind is bool:
        if text == "":
            return None  # a cell the check did not play
        if text not in ("True", "False"):
            raise ValueError(f"expected True or False, got {text!r}")
        return text == "True"
    if kind is int:
        if text.strip() in ("", "nan"):
            return -1  # no runner-up in a cell of one legal bid
        v = float(text)
        if not v.is_integer():
            raise ValueError(f"expected a whole number, got {text!r}")
        return int(v)
    if kind is float:
        return float(text) if text.strip() else math.nan
    return text


def load_cells(folder: str | Path) -> list[Cell]:
    """The cells of the chart in ``folder`` (its ``cells.csv``), verified as they are read."""
    path = Path(folder) / CELLS
    if not path.is_file():
        raise ChartLookupError(f"{folder}: no {CELLS} here (a folder written by whist-sim "
                               "bid-chart holds one)")
    if path.stat().st_size > _MAX_BYTES:
        raise ChartLookupError(f"{path}: larger than {_MAX_BYTES:,} bytes: not a chart's cells")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ChartLookupError(f"{path}: not a UTF-8 text file") from None
    rows = csv.reader(text.splitlines())
    header = next(rows, None)
    if header is None:
        raise ChartLookupError(f"{path}: empty")
    missing = [c for c in _COLUMNS if c not in header]
    if missing:
        raise ChartLookupError(f"{path}: not a chart's cells: no column {', '.join(missing)}")
    index = {name: header.index(name) for name in (*_COLUMNS, *_OPTIONAL) if name in header}
    cells = []
    for line, row in enumerate(rows, 2):
        if len(row) != len(header):
            raise ChartLookupError(f"{path}, line {line}: {len(row)} fields, the header has "
                                   f"{len(header)}")
        values: dict[str, Any] = {}
        for name, i in index.items():
            kind = _COLUMNS.get(name) or _OPTIONAL[name]
            try:
                values[name] = _value(kind, row[i])
            except ValueError as e:
                raise ChartLookupError(f"{path}, line {line}, {name}: {e}") from None
        if values["position"] < 0 or values["best_bid"] < 0:
            raise ChartLookupError(f"{path}, line {line}: position and best_bid must be "
                                   "0 or more")
        cells.append(Cell(**values))
    if not cells:
        raise ChartLookupError(f"{path}: no cell")
    keys = [(c.position, c.panel, c.hcp_band, c.trump_class, c.may, c.may_not) for c in cells]
    if len(set(keys)) != len(keys):
        raise ChartLookupError(f"{path}: a cell is given twice")
    return cells


def chart_players(cells: list[Cell]) -> int:
    """The number of players a chart was made for: its bidding positions."""
    return max(c.position for c in cells) + 1


def default_chart(players: int) -> Path:
    """The committed chart for ``players``, or an error when this tree has none."""
    folder = COMMITTED[players]
    if not (folder / CELLS).is_file():
        raise ChartLookupError(f"no committed {players}-player chart here ({CELLS} of "
                               "results/bid_chart is part of the source tree, not of an "
                               "installed package): give --chart DIR, a folder written by "
                               "whist-sim bid-chart")
    return folder


def illegal_bids(scenario: Scenario, bids: list[int]) -> dict[int, str]:
    """Those of ``bids`` this player may not bid, with the rule that forbids each (RULES §4):
    below the auction's level for the declarer, the forbidden number for the last bidder, more
    tricks than there are."""
    out = {}
    forbidden = scenario.forbidden
    for b in bids:
        if b < 0:
            continue
        if b > scenario.rules.n_tricks:
            out[b] = f"more than the {scenario.rules.n_tricks} tricks"
        elif scenario.position == 0 and b < scenario.level:
            out[b] = f"below the auction's level, {scenario.level}"
        elif forbidden is not None and b == forbidden:
            out[b] = (f"the forbidden number: the contracts would add up to "
                      f"{scenario.rules.n_tricks}")
    return out


def lookup(scenario: Scenario, folder: str | Path | None = None) -> ChartAnswer:
    """The cell of the chart in ``folder`` (default: the committed chart for the scenario's
    number of players) that covers the scenario's hand, and its answer."""
    if scenario.mode != "contract":
        raise ChartLookupError("a bid chart answers the contract: give the trump (--trump)")
    p = scenario.rules.players
    chart = Path(folder) if folder is not None else default_chart(p)
    cells = load_cells(chart)
    if chart_players(cells) != p:
        raise ChartLookupError(f"{chart_name(chart)}: a chart for {chart_players(cells)} "
                               f"players, not {p}")
    hcp = hand_hcp(scenario.hand)
    key = (scenario.position, "NT" if scenario.trump == NT else "suit", band_label(hcp),
           trump_class(scenario.hand, scenario.trump))
    parts = [c for c in cells if (c.position, c.panel, c.hcp_band, c.trump_class) == key]
    # a class split by the auction: the part whose hands may (and may not) bid as this one
    cell = next((c for c in parts if c.covers(illegal_bids(scenario, _split_bids(c)))),
                parts[0] if parts else None)
    if cell is None:
        raise ChartLookupError(
            f"{chart_name(chart)}: no cell for this hand ({_cell_text(*key, p)}): too rare for "
            "the chart; "
            "whist-sim advise answers it")
    illegal = illegal_bids(scenario, [cell.best_bid, cell.second_bid])
    bid = next((b for b in (cell.best_bid, cell.second_bid) if b >= 0 and b not in illegal),
               None)
    return ChartAnswer(scenario, chart, cell, hcp, bid, illegal)


def _split_bids(cell: Cell) -> list[int]:
    return [int(b) for b in (*cell.may.split(), *cell.may_not.split())]


# ------------------------------------------------------------------------------------ output


def chart_name(chart: Path) -> str:
    """How a chart is named in an answer: a committed one by its place in the source tree."""
    for folder in COMMITTED.values():
        if chart.resolve() == folder.resolve():
            return str(folder.relative_to(RESULTS.parents[1]))
    return str(chart)


def position_name(position: int, players: int) -> str:
    """A bidding position in words: the declarer, the second bidder, ..., the last bidder."""
    if position == 0:
        return "the declarer"
    if position == players - 1:
        return "the last bidder"
    return ("the second", "the third")[position - 1] + " bidder"


def _cell_text(position: int, panel: str, band: str, cls: str, players: int) -> str:
    trumps = "no-trump" if cls == "NT" else f"{cls} trump{'s' if cls != '1' else ''}"
    return f"{position_name(position, players)}, {band} high-card points, {trumps}"


def _strain(trump: int) -> str:
    return "no-trump" if trump == NT else SUIT_SYMBOLS[trump]


def advise_command(scenario: Scenario) -> str:
    """The ``whist-sim advise`` command line that gives this hand's own answer."""
    args = [format_hand(scenario.hand), "--trump", STRAINS[scenario.trump],
            "--declarer", str(scenario.declarer), "--level", str(scenario.level),
            "--seat", str(scenario.seat)]
    if scenario.bids:
        args += ["--bids", ",".join(map(str, scenario.bids))]
    if scenario.rules.players != 4:
        args += ["--players", str(scenario.rules.players)]
    return "whist-sim advise " + " ".join(args)


def render_text(answer: ChartAnswer) -> str:
    """The answer in sentences: the bid first, then the cell it comes from and how sure it is."""
    s, c = answer.scenario, answer.cell
    p = s.rules.players
    lines = []
    if answer.bid is None:
        lines.append("The chart cannot answer this hand: neither of its cell's two bids is "
                     "legal for it.")
    else:
        ev = c.best_ev if answer.bid == c.best_bid else c.second_ev
        lines.append(f"Bid {answer.bid} ({_strain(s.trump)}): expected score {ev:+.1f} points "
                     "per deal, from the bid chart.")
        other = answer.runner_up
        if other is not None and other not in answer.illegal:
            if answer.bid == c.best_bid:
                sure = ("clearly better" if c.separated else
                        "too close to tell apart on the chart's hands")
                lines.append(f"Runner-up: {other} ({c.second_ev:+.1f}), {c.diff:.1f} points "
                             f"worse (95 % interval {c.diff_ci_low:.1f} to {c.diff_ci_high:.1f}):"
                             f" {sure}.")
            else:
                lines.append(f"The cell's best bid is {other}.")
    for b, why in sorted(answer.illegal.items()):
        lines.append(f"The cell's {'best bid' if b == c.best_bid else 'runner-up'}, {b}, is not "
                     f"legal for this hand: {why}.")
    lines.append(f"The cell: {_cell_text(c.position, c.panel, c.hcp_band, c.trump_class, p)}"
                 f"{f', {c.auction}' if c.auction else ''} "
                 f"(this hand: {answer.hcp} points), {c.hands:,} hands of the chart in "
                 f"{chart_name(answer.chart)}.")
    lines.append("A cell averages the hands it covers; for this hand's own answer: "
                 f"{advise_command(s)}")
    return "\n".join(lines)


def to_json(answer: ChartAnswer) -> dict[str, Any]:
    """The answer as a JSON object (docs/ADVISOR.md, "The chart lookup")."""
    s, c = answer.scenario, answer.cell

    def num(x: float) -> float | None:
        return None if math.isnan(x) else round(x, 4)

    return {
        "hand": format_hand(s.hand), "hcp": answer.hcp, "trump": STRAINS[s.trump],
        "position": s.position, "players": s.rules.players, "chart": chart_name(answer.chart),
        "cell": {"position": c.position, "panel": c.panel, "hcp_band": c.hcp_band,
                 "trump_class": c.trump_class, "auction": c.auction, "hands": c.hands},
        "bid": answer.bid,
        "best": {"bid": c.best_bid, "ev": num(c.best_ev)},
        "runner_up": ({"bid": c.second_bid, "ev": num(c.second_ev)} if c.second_bid >= 0
                      else None),
        "difference": {"points": num(c.diff), "ci": [num(c.diff_ci_low), num(c.diff_ci_high)],
                       "separated": c.separated},
        "illegal": {str(b): why for b, why in sorted(answer.illegal.items())},
        "advise": advise_command(s),
    }


__all__ = ["COMMITTED", "Cell", "ChartAnswer", "ChartLookupError", "advise_command",
           "chart_players", "default_chart", "illegal_bids", "load_cells", "lookup",
           "position_name", "render_text", "to_json", "AdviceError"]
