"""Bidding strategies and play policies by name: descriptions, parameters, specs with parameters.

A **bidding strategy** decides a seat's trump-auction calls (whether and what to call), its Frisch
passes and its contract; the cards are played by a separate **play policy**
(:data:`~whist_sim.core.registry.DEFAULT_PLAY`, ``learned``, by default). The
registry of names, integer ids and parameter defaults is
:mod:`whist_sim.core.registry` (the compiled engine switches on the ids, the reference engine
looks its twins up by name); this module is the user-facing layer on top of it, for both
engines (``whist_sim.compiled.strategies.spec`` is the same module under its older name):

* :func:`strategy_names`, :func:`strategy_table`: what exists, with descriptions and defaults;
* :func:`parse_strategy`: a **strategy spec** ``name`` or ``name:key=value[:key=value...]``
  (``montecarlo:n=16``, ``hcp:points_per_trick=3.5:margin=1``) into a :class:`StrategySpec`, with
  every value checked;
* :func:`param_rows`: the engine's parameter rows for a seating of specs.

Play policies take the same syntax through the same parser: :func:`parse_play` gives a
:class:`PlaySpec` (``heuristic``, ``rollout:n=16``), :func:`play_table` lists them and
:func:`play_param_rows` gives their rows (``par[1, seat, :]`` in the kernels). A **seat** is a
bidding strategy and a play policy, written ``BID/PLAY`` (:func:`parse_seat`); ``BID`` alone
plays the caller's play option, by default
:data:`~whist_sim.core.registry.DEFAULT_PLAY`.

docs/STRATEGIES.md describes every strategy and how to add one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .registry import (
    BID,
    BID_POLICIES,
    DEFAULT_PLAY,
    N_PARAMS,
    PLAY,
    PLAY_POLICIES,
    POLICY_PARAMS,
    SEARCHING_PLAY,
    PolicyError,
    PolicyInfo,
    get_info,
    policy_names,
    seat_params,
)


class StrategyError(PolicyError):
    """An unknown strategy, an unknown parameter, or a parameter value out of range."""


def _searching_play(pid: float) -> bool:
    """True when ``pid`` is the id of a play policy that searches (never the base of a
    search)."""
    return any(i.id == pid and i.searches for i in PLAY_POLICIES.values())


def _limits(kind: str) -> dict[tuple[str, str], tuple[float, float, bool]]:
    return {(info.name, p.name): (*p.bounds(), p.whole)
            for info in (BID_POLICIES if kind == BID else PLAY_POLICIES).values()
            for p in info.params if p.bounded}


#: the legal values of the bounded parameters of the bidding strategies, as their
#: :class:`~whist_sim.core.registry.Param` declarations give them:
#: ``(strategy, parameter) -> (low, high, whole number?)``; the others must be finite numbers
PARAM_LIMITS: dict[tuple[str, str], tuple[float, float, bool]] = _limits(BID)
#: the same for play policies
PLAY_PARAM_LIMITS: dict[tuple[str, str], tuple[float, float, bool]] = _limits(PLAY)

#: what each kind is called in messages
_NOUN = {BID: "strategy", PLAY: "play policy"}


@dataclass(frozen=True)
class StrategySpec:
    """A bidding strategy and the parameters that differ from its defaults.

    ``params``: ``(name, value)`` overrides in the order given. :attr:`text` is the canonical spec.
    """

    name: str
    params: tuple[tuple[str, float], ...] = ()

    #: the registry the name belongs to (``"bid"``; :class:`PlaySpec`: ``"play"``)
    kind: ClassVar[str] = BID

    @property
    def text(self) -> str:
        """``name`` or ``name:key=value:...`` (values without a trailing ``.0``)."""
        if not self.params:
            return self.name
        return self.name + "".join(f":{k}={_value_text(self.name, k, v)}"
                                   for k, v in self.params)

    @property
    def info(self) -> PolicyInfo:
        """The registry entry of the strategy (or play policy)."""
        return get_info(self.name, self.kind)

    def overrides(self) -> dict[str, float]:
        """The parameter overrides as a dict."""
        return dict(self.params)

    def values(self) -> dict[str, float]:
        """Every parameter of the strategy: defaults, then the overrides."""
        out = self.info.defaults
        out.update(self.params)
        return out

    def value_text(self, key: str) -> str:
        """Parameter ``key`` as written in a spec (a policy-valued one by its name:
        ``rollout``'s ``base`` gives ``'expert'``)."""
        return _value_text(self.name, key, self.values()[key])

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class PlaySpec(StrategySpec):
    """A play policy and the parameters that differ from its defaults (``rollout:n=16``)."""

    kind: ClassVar[str] = PLAY


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def strategy_names() -> list[str]:
    """Names of the registered bidding strategies, in registry order."""
    return policy_names(BID)


def play_names() -> list[str]:
    """Names of the registered play policies."""
    return policy_names(PLAY)


def strategy_table() -> list[dict[str, object]]:
    """Every bidding strategy as ``{"name", "id", "description", "params"}`` (params: defaults)."""
    return _table(BID)


def play_table() -> list[dict[str, object]]:
    """Every play policy as ``{"name", "id", "description", "params"}`` (params: defaults)."""
    return _table(PLAY)


def _table(kind: str) -> list[dict[str, object]]:
    return [
        {"name": n, "id": get_info(n, kind).id, "description": get_info(n, kind).description,
         "params": get_info(n, kind).defaults}
        for n in policy_names(kind)
    ]


def spec_help(kind: str) -> str:
    """One line for ``--help``: every name of ``kind`` with its parameters and defaults,
    e.g. ``random, heuristic, montecarlo[:n=32:calls=1:...]``."""
    out = []
    for row in _table(kind):
        params = row["params"]
        assert isinstance(params, dict)
        name = str(row["name"])
        out.append(name + (
            "[" + "".join(f":{k}={_value_text(name, k, v)}" for k, v in params.items()) + "]"
            if params else ""))
    return ", ".join(out)


def parse_strategy(text: str | StrategySpec) -> StrategySpec:
    """Parse a strategy spec ``name`` or ``name:key=value[:key=value...]``; check every part.

    Raises :class:`StrategyError` naming the offending part (unknown strategy or parameter, a value
    that is not a number or is out of range, a parameter given twice).
    """
    return _parse(text, StrategySpec)


def parse_play(text: str | StrategySpec) -> PlaySpec:
    """Parse a play policy spec ``name`` or ``name:key=value[:key=value...]`` (``heuristic``,
    ``rollout:n=16``) with the checks of :func:`parse_strategy`; a :class:`PlaySpec`."""
    spec = _parse(text, PlaySpec)
    assert isinstance(spec, PlaySpec)
    return spec


def parse_seat(
    text: str | StrategySpec | tuple[StrategySpec | str, StrategySpec | str | None]
) -> tuple[StrategySpec, PlaySpec | None]:
    """Parse a seat ``BID`` or ``BID/PLAY`` (``heuristic/random``, ``montecarlo:n=8/heuristic``)
    into its bidding spec and play spec (``None`` when only ``BID`` is given)."""
    if isinstance(text, tuple):
        bid, play = text
        return parse_strategy(bid), None if play is None else parse_play(play)
    if isinstance(text, StrategySpec):
        return parse_strategy(text), None
    if not isinstance(text, str):
        raise StrategyError(f"a seat must be BID or BID/PLAY, like heuristic/random, got {text!r}")
    bid, sep, play = text.partition("/")
    if sep and "/" in play:
        raise StrategyError(
            f"seat {text.strip()!r}: a seat is BID or BID/PLAY (one '/'), e.g. heuristic/random"
        )
    if sep and not play.strip():
        raise StrategyError(f"seat {text.strip()!r}: no play policy after '/' "
                            f"(known: {', '.join(play_names())})")
    return parse_strategy(bid), parse_play(play) if sep else None


def seat_text(bid: StrategySpec, play: StrategySpec | None) -> str:
    """``BID`` or ``BID/PLAY``: the canonical text of a seat."""
    return bid.text if play is None else f"{bid.text}/{play.text}"


#: bidding strategies that are a whole player: given alone, such a seat plays the play policy of
#: the same name (``random`` bids and plays uniformly at random, ENGINE.md §4)
WHOLE_PLAYERS: frozenset[str] = frozenset({"random"})


def default_play(bid: StrategySpec | str, fallback: str | None = None) -> PlaySpec:
    """The play of a seat given as ``BID`` alone (``simulate`` without ``--play``): the play policy
    of the same name for a whole player (:data:`WHOLE_PLAYERS`: ``random``), else ``fallback``
    (default :data:`~whist_sim.core.registry.DEFAULT_PLAY`)."""
    name = bid.name if isinstance(bid, StrategySpec) else str(bid).split(":")[0].strip()
    if name in WHOLE_PLAYERS:
        return parse_play(name)
    return parse_play(DEFAULT_PLAY if fallback is None else fallback)


def _parse(text: str | StrategySpec, cls: type[StrategySpec]) -> StrategySpec:
    kind = cls.kind
    noun = _NOUN[kind]
    if isinstance(text, StrategySpec):
        return check_spec(text if type(text) is cls else cls(text.name, text.params))
    if not isinstance(text, str) or not text.strip():
        article = "a play policy" if kind == PLAY else "a strategy"
        raise StrategyError(f"{article} must be a name like heuristic, got {text!r}")
    name, *parts = (p.strip() for p in text.strip().split(":"))
    known = policy_names(kind)
    if name not in known:
        raise StrategyError(f"unknown {noun} {name!r} (known: {', '.join(known)})")
    params: list[tuple[str, float]] = []
    for part in parts:
        key, sep, raw = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise StrategyError(
                f"{noun} {text!r}: parameter {part!r} is not key=value "
                f"(e.g. {name}:{_example(name, kind)})"
            )
        named = _policy_value(name, key, raw.strip())
        if named is not None:
            params.append((key, named))
            continue
        try:
            value = float(raw)
        except ValueError:
            raise StrategyError(
                f"{noun} {text!r}: parameter {key} = {raw.strip()!r} is not a number"
            ) from None
        params.append((key, value))
    return check_spec(cls(name, tuple(params)))


def _policy_value(name: str, key: str, raw: str) -> float | None:
    """The stored value of a policy-valued parameter written as a name (the named policy's id,
    -1 for its special word), or None when ``raw`` names no policy (a number, say)."""
    if (name, key) not in POLICY_PARAMS:
        return None
    kind, word = POLICY_PARAMS[(name, key)]
    if word is not None and raw == word:
        return -1.0
    reg = PLAY_POLICIES if kind == PLAY else BID_POLICIES
    if raw not in reg:
        return None
    if kind == PLAY and raw in SEARCHING_PLAY:
        noun = _NOUN[PLAY] if name in PLAY_POLICIES else _NOUN[BID]
        raise StrategyError(f"{noun} {name}: {key} must be a play policy that does not search, "
                            f"got {raw!r}")
    return float(reg[raw].id)


def _value_text(name: str, key: str, value: float) -> str:
    """A parameter value as written in a spec (a policy-valued one by its name)."""
    if (name, key) in POLICY_PARAMS:
        kind, word = POLICY_PARAMS[(name, key)]
        if word is not None and value == -1:
            return word
        reg = PLAY_POLICIES if kind == PLAY else BID_POLICIES
        for info in reg.values():
            if info.id == value:
                return info.name
    return _fmt(value)


def _example(name: str, kind: str = BID) -> str:
    info = get_info(name, kind)
    if not info.params:
        return "(no parameters)"
    p = info.params[0]
    return f"{p.name}={_value_text(name, p.name, p.default)}"


def check_spec(spec: StrategySpec) -> StrategySpec:
    """Check a :class:`StrategySpec` (or :class:`PlaySpec`) against the registry; return it."""
    kind = spec.kind
    noun = _NOUN[kind]
    known = policy_names(kind)
    if spec.name not in known:
        raise StrategyError(f"unknown {noun} {spec.name!r} (known: {', '.join(known)})")
    info = spec.info
    seen: set[str] = set()
    for key, value in spec.params:
        p = info.param(key)
        if p is None:
            has = ", ".join(info.defaults) if info.params else "none"
            raise StrategyError(
                f"{noun} {spec.name} has no parameter {key!r} (its parameters: {has})"
            )
        if key in seen:
            raise StrategyError(f"{noun} {spec.name}: parameter {key} given twice")
        seen.add(key)
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise StrategyError(f"{noun} {spec.name}: {key} must be a finite number, "
                                f"got {value!r}")
        if p.whole and not float(value).is_integer():
            raise StrategyError(f"{noun} {spec.name}: {key} must be a whole number, "
                                f"got {_fmt(value)}")
        lo, hi = p.bounds()
        if not lo <= value <= hi:
            raise StrategyError(
                f"{noun} {spec.name}: {key} must be in {_fmt(lo)}..{_fmt(hi)}, "
                f"got {_fmt(value)}"
            )
        if p.names == PLAY and _searching_play(value):
            raise StrategyError(f"{noun} {spec.name}: {key} must be a play policy that does "
                                f"not search, got {_fmt(value)}")
    if len(info.params) > N_PARAMS:  # pragma: no cover - registry bug
        raise StrategyError(f"{noun} {spec.name} declares more than {N_PARAMS} parameters")
    return spec


def check_play(name: str | StrategySpec) -> str:
    """Check a play policy spec (``heuristic``, ``rollout:n=16``); return its canonical text."""
    return parse_play(name).text


def param_rows(specs: Sequence[StrategySpec]) -> np.ndarray:
    """Bidding parameter rows by seat (``float64[len(specs), N_PARAMS]``): defaults + overrides."""
    return seat_params([s.name for s in specs], BID, [s.overrides() for s in specs])


def play_param_rows(specs: Sequence[StrategySpec | str]) -> np.ndarray:
    """Play parameter rows by seat (``float64[len(specs), N_PARAMS]``; the kernels'
    ``par[1, seat, :]``): defaults + overrides."""
    parsed = [parse_play(s) for s in specs]
    return seat_params([s.name for s in parsed], PLAY, [s.overrides() for s in parsed])


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
