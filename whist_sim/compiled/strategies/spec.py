"""Strategy and play specs (``name:key=value``): :mod:`whist_sim.core.spec`, which both engines
read; every name of it is importable from here too."""

from __future__ import annotations

from ...core.spec import (
    DEFAULT_PLAY,
    PARAM_LIMITS,
    PLAY_PARAM_LIMITS,
    WHOLE_PLAYERS,
    PlaySpec,
    StrategyError,
    StrategySpec,
    check_play,
    check_spec,
    default_play,
    param_rows,
    parse_play,
    parse_seat,
    parse_strategy,
    play_names,
    play_param_rows,
    play_table,
    seat_text,
    spec_help,
    strategy_names,
    strategy_table,
)

__all__ = [
    "DEFAULT_PLAY",
    "PARAM_LIMITS",
    "PLAY_PARAM_LIMITS",
    "PlaySpec",
    "StrategyError",
    "StrategySpec",
    "check_play",
    "check_spec",
    "default_play",
    "param_rows",
    "parse_play",
    "parse_seat",
    "parse_strategy",
    "play_names",
    "play_param_rows",
    "play_table",
    "seat_text",
    "spec_help",
    "strategy_names",
    "strategy_table",
    "WHOLE_PLAYERS",
]
