"""Seats, strategies and play policies on the command line: one spec syntax for every command.

A bidding strategy or a play policy is ``name`` or ``name:key=value[:key=value...]``
(``montecarlo:n=16``); a seat (or a tournament entrant) is ``BID`` or ``BID/PLAY``
(``heuristic/random``). Every error names the option it came from (``--seats``, ``--play``, ...).
"""

from __future__ import annotations

import click

from ...compiled.strategies.registry import BID, PLAY, policy_names
from ...compiled.strategies.spec import (
    PlaySpec,
    StrategyError,
    StrategySpec,
    parse_play,
    parse_seat,
    parse_strategy,
    spec_help,
)


def split_list(value: str | None) -> tuple[str, ...] | None:
    """``"a,b,c"`` -> ``("a", "b", "c")`` (items stripped); ``None`` stays ``None``."""
    if value is None:
        return None
    return tuple(v.strip() for v in value.split(","))


def _unknown(text: str, kind: str, option: str, seat: int | None) -> None:
    """For a seat's spec: an unknown name, said as ``unknown bidding policy 'x' for seat 1``."""
    if seat is None:
        return
    name = text.split(":")[0].strip()
    known = policy_names(kind)
    if name and name not in known:
        what = "bidding" if kind == BID else "play"
        raise click.BadParameter(
            f"unknown {what} policy {name!r} for seat {seat}; known {what} policies: "
            f"{', '.join(known)}", param_hint=option)


def bid_spec(text: str, option: str, seat: int | None = None) -> StrategySpec:
    """A bidding strategy spec; an error names ``option`` (and ``seat`` when given)."""
    _unknown(text, BID, option, seat)
    try:
        return parse_strategy(text)
    except StrategyError as e:
        raise click.BadParameter(str(e), param_hint=option) from None


def play_spec(text: str, option: str, seat: int | None = None) -> PlaySpec:
    """A play policy spec; an error names ``option`` (and ``seat`` when given)."""
    _unknown(text, PLAY, option, seat)
    try:
        return parse_play(text)
    except StrategyError as e:
        raise click.BadParameter(str(e), param_hint=option) from None


def seat_spec(text: str, option: str, seat: int | None = None
              ) -> tuple[StrategySpec, PlaySpec | None]:
    """A seat ``BID`` or ``BID/PLAY``; an error names ``option`` (and ``seat`` when given)."""
    bid, sep, play = text.partition("/")
    _unknown(bid, BID, option, seat)
    if sep and "/" not in play:
        _unknown(play, PLAY, option, seat)
    try:
        return parse_seat(text)
    except StrategyError as e:
        raise click.BadParameter(str(e), param_hint=option) from None


def per_seat(items: tuple[str, ...], option: str, players: int) -> tuple[str, ...]:
    """Check that a per-seat list names every seat once."""
    if len(items) != players:
        raise click.BadParameter(
            f"{len(items)} item(s) given ({','.join(items)}), but players={players} needs one "
            f"per seat ({players}), comma separated",
            param_hint=option,
        )
    return items


def bid_help(what: str) -> str:
    """Help text: ``what`` and the bidding strategies with their parameters."""
    return f"{what}: a strategy spec NAME[:KEY=VALUE...]; strategies: {spec_help('bid')}"


def play_help(what: str) -> str:
    """Help text: ``what`` and the play policies with their parameters."""
    return f"{what}: a play spec NAME[:KEY=VALUE...]; play policies: {spec_help('play')}"


__all__ = [
    "bid_help",
    "bid_spec",
    "per_seat",
    "play_help",
    "play_spec",
    "seat_spec",
    "split_list",
]
