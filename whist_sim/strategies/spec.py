"""Bidding strategies by name: descriptions, parameters, and strategy specs with parameters.

A **bidding strategy** decides a seat's trump-auction calls (whether and what to call), its Frisch
passes and its contract; the cards are played by a separate **play policy** (``heuristic`` by
default). The registry of names, integer ids and parameter defaults is
:mod:`whist_sim.strategies.registry`
(the compiled engine switches on the ids); this module is the user-facing layer on top of it:

* :func:`strategy_names`, :func:`strategy_table`: what exists, with descriptions and defaults;
* :func:`parse_strategy`: a **strategy spec** ``name`` or ``name:key=value[:key=value...]``
  (``montecarlo:n=16``, ``hcp:points_per_trick=3.5:margin=1``) into a :class:`StrategySpec`, with
  every value checked;
* :func:`param_rows`: the engine's parameter rows for a seating of specs.

docs/STRATEGIES.md describes every strategy and how to add one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..kernels.layout import N_PARAMS
from .registry import BID, PLAY, PolicyError, PolicyInfo, get_info, policy_names, seat_params


class StrategyError(PolicyError):
    """An unknown strategy, an unknown parameter, or a parameter value out of range."""


#: Extra checks of parameter values: (strategy, parameter) -> (low, high, whole number?).
#: Parameters not listed must be finite numbers.
PARAM_LIMITS: dict[tuple[str, str], tuple[float, float, bool]] = {
    ("hcp", "points_per_trick"): (0.5, 40.0, False),
    ("montecarlo", "n"): (0, 4096, True),
    ("montecarlo", "calls"): (0, 1, True),
    ("montecarlo", "span"): (0, 17, True),
    ("montecarlo", "slack"): (0, 17, True),
    **{(name, key): lim for name in ("cautious", "aggressive") for key, lim in (
        ("margin_q", (-52, 52, True)), ("shift_q", (-52, 52, True)),
        ("zero_below_q", (0, 53, True)), ("forbidden_up", (0, 1, True)))},
}


@dataclass(frozen=True)
class StrategySpec:
    """A bidding strategy and the parameters that differ from its defaults.

    ``params``: ``(name, value)`` overrides in the order given. :attr:`text` is the canonical spec.
    """

    name: str
    params: tuple[tuple[str, float], ...] = ()

    @property
    def text(self) -> str:
        """``name`` or ``name:key=value:...`` (values without a trailing ``.0``)."""
        if not self.params:
            return self.name
        return self.name + "".join(f":{k}={_fmt(v)}" for k, v in self.params)

    @property
    def info(self) -> PolicyInfo:
        """The registry entry of the strategy."""
        return get_info(self.name, BID)

    def overrides(self) -> dict[str, float]:
        """The parameter overrides as a dict."""
        return dict(self.params)

    def values(self) -> dict[str, float]:
        """Every parameter of the strategy: defaults, then the overrides."""
        out = dict(self.info.params)
        out.update(self.params)
        return out

    def __str__(self) -> str:
        return self.text


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
    return [
        {"name": n, "id": get_info(n, BID).id, "description": get_info(n, BID).description,
         "params": dict(get_info(n, BID).params)}
        for n in strategy_names()
    ]


def parse_strategy(text: str | StrategySpec) -> StrategySpec:
    """Parse a strategy spec ``name`` or ``name:key=value[:key=value...]``; check every part.

    Raises :class:`StrategyError` naming the offending part (unknown strategy or parameter, a value
    that is not a number or is out of range, a parameter given twice).
    """
    if isinstance(text, StrategySpec):
        return check_spec(text)
    if not isinstance(text, str) or not text.strip():
        raise StrategyError(f"a strategy must be a name like heuristic, got {text!r}")
    name, *parts = (p.strip() for p in text.strip().split(":"))
    known = strategy_names()
    if name not in known:
        raise StrategyError(f"unknown strategy {name!r} (known: {', '.join(known)})")
    params: list[tuple[str, float]] = []
    for part in parts:
        key, sep, raw = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise StrategyError(
                f"strategy {text!r}: parameter {part!r} is not key=value "
                f"(e.g. {name}:{_example(name)})"
            )
        try:
            value = float(raw)
        except ValueError:
            raise StrategyError(
                f"strategy {text!r}: parameter {key} = {raw.strip()!r} is not a number"
            ) from None
        params.append((key, value))
    return check_spec(StrategySpec(name, tuple(params)))


def _example(name: str) -> str:
    info = get_info(name, BID)
    if not info.params:
        return "(no parameters)"
    k, v = info.params[0]
    return f"{k}={_fmt(v)}"


def check_spec(spec: StrategySpec) -> StrategySpec:
    """Check a :class:`StrategySpec` against the registry; return it unchanged."""
    if spec.name not in strategy_names():
        raise StrategyError(
            f"unknown strategy {spec.name!r} (known: {', '.join(strategy_names())})"
        )
    info = spec.info
    names = [p for p, _ in info.params]
    seen: set[str] = set()
    for key, value in spec.params:
        if key not in names:
            has = ", ".join(names) if names else "none"
            raise StrategyError(
                f"strategy {spec.name} has no parameter {key!r} (its parameters: {has})"
            )
        if key in seen:
            raise StrategyError(f"strategy {spec.name}: parameter {key} given twice")
        seen.add(key)
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise StrategyError(f"strategy {spec.name}: {key} must be a finite number, "
                                f"got {value!r}")
        lim = PARAM_LIMITS.get((spec.name, key))
        if lim is not None:
            lo, hi, whole = lim
            if whole and not float(value).is_integer():
                raise StrategyError(f"strategy {spec.name}: {key} must be a whole number, "
                                    f"got {_fmt(value)}")
            if not lo <= value <= hi:
                raise StrategyError(
                    f"strategy {spec.name}: {key} must be in {_fmt(lo)}..{_fmt(hi)}, "
                    f"got {_fmt(value)}"
                )
    if len(info.params) > N_PARAMS:  # pragma: no cover - registry bug
        raise StrategyError(f"strategy {spec.name} declares more than {N_PARAMS} parameters")
    return spec


def check_play(name: str) -> str:
    """Check a play policy name; return it."""
    if not isinstance(name, str) or name not in play_names():
        raise StrategyError(f"unknown play policy {name!r} (known: {', '.join(play_names())})")
    return name


def param_rows(specs: Sequence[StrategySpec]) -> np.ndarray:
    """Bidding parameter rows by seat (``float64[len(specs), N_PARAMS]``): defaults + overrides."""
    return seat_params([s.name for s in specs], BID, [s.overrides() for s in specs])


__all__ = [
    "PARAM_LIMITS",
    "StrategyError",
    "StrategySpec",
    "check_play",
    "check_spec",
    "param_rows",
    "parse_strategy",
    "play_names",
    "strategy_names",
    "strategy_table",
]
