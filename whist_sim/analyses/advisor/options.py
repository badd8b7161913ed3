"""The options of an advice as one value, checked once where it is built: :class:`AdviseOptions`.

:func:`~whist_sim.analyses.advisor.evaluate.advise` takes the hand and an :class:`AdviseOptions`
(or its fields as keywords, from which it builds one): the situation (trump, declarer, level,
seat, earlier bids or the auction, constraints, known cards, rules), the seats' play and bidding
(parsed here once into specs, which every run below takes as they are), the sampling (deals,
seed, reading the table), the evaluation, the screen and the check. Building one checks every
option that does not need the hand and raises :class:`~.scenario.AdviceError` naming the first
bad one, as :class:`~whist_sim.core.rules.Rules` checks its own; the situation is checked with
the hand (:func:`~.scenario.resolve_scenario`).

The screening rule (which play screens the candidates, and how many per strain are searched) is
:func:`screen_plan`, the one place that says it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY, SEARCHING_PLAY
from ...compiled.strategies.spec import (
    PlaySpec,
    StrategyError,
    StrategySpec,
    parse_play,
    parse_strategy,
)
from ...core.rules import Rules
from .sampling import DEFAULT_EPS, Inference, check_model
from .scenario import AdviceError, check_int

#: how an advice is evaluated: the play policy's results, or also the double-dummy view
EVALUATIONS = ("heuristic", "dd")
DEFAULT_DEALS = 10_000
#: candidates per strain that a searching play policy (``rollout``) plays, after a screen of
#: every candidate with its base policy on the same sampled deals (``screen``)
DEFAULT_SCREEN = 3
_MAX_SEED = (1 << 64) - 1


def screen_plan(play: PlaySpec, screen: int | None) -> tuple[str, int] | None:
    """``(screening play, candidates kept per strain)``, or ``None`` when every candidate is
    played with ``play`` itself. ``screen=None``: :data:`DEFAULT_SCREEN` for a searching play
    policy (``rollout``), none for the others; ``0``: no screening. A screen asked of a play
    that does not search raises :class:`~.scenario.AdviceError`."""
    searching = play.name in SEARCHING_PLAY
    if screen is None:
        screen = DEFAULT_SCREEN if searching else 0
    screen = check_int("screen", screen, 0, 10_000)
    if screen == 0:
        return None
    if not searching:
        raise AdviceError(f"screening applies to a searching play policy (rollout), not to "
                          f"{play.text}: it already plays every candidate at full strength")
    return play.value_text("base"), screen


def check_play_spec(text: str | StrategySpec) -> PlaySpec:
    """The play spec of ``text``, or an :class:`~.scenario.AdviceError` naming the problem."""
    try:
        return parse_play(text)
    except StrategyError as e:
        raise AdviceError(str(e)) from None


def checked_bid_policy(text: str | StrategySpec) -> StrategySpec:
    """The spec of the other seats' bidding strategy ``text``, one the advisor models
    (:func:`~.sampling.check_model`), or an :class:`~.scenario.AdviceError`."""
    try:
        check_model(text)
        return parse_strategy(text)
    except ValueError as e:
        raise AdviceError(str(e)) from None


def inference(infer: bool | None, model: str | None, eps: float) -> Inference:
    """The :class:`~.sampling.Inference` of the options ``infer`` (default on), ``model`` (a
    bidding strategy spec, checked; ``None``: the seats' own) and ``eps`` (in 0..1)."""
    on = True if infer is None else bool(infer)
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0.0 <= eps <= 1.0:
        raise AdviceError(f"eps must be a number in 0..1, got {eps!r}")
    spec = None
    if model is not None:
        try:
            spec = check_model(model)
        except ValueError as e:
            raise AdviceError(f"model: {e}") from None
    return Inference(on=on, model=spec, eps=float(eps))


def checked_check_play(text: str) -> str:
    """The canonical check play spec of ``text``, or an :class:`~.scenario.AdviceError` naming
    ``check``."""
    from ..answer_check import CheckError, check_play

    try:
        return check_play(text)
    except CheckError as e:
        raise AdviceError(f"check: {e}") from None


@dataclass(frozen=True)
class AdviseOptions:
    """Every option of an advice but the hand (the fields are :func:`~.evaluate.advise`'s
    keywords, documented there), checked when built.

    Parsed once here: ``play`` becomes its spec (also :attr:`play_spec`: the play of every seat),
    ``bid_policy`` its spec (also :attr:`bid_spec`: the other seats' bidding strategy, one the
    advisor models), ``check`` its canonical text; :attr:`inference` holds ``infer``, ``model``
    and ``eps``, :attr:`plan` the screen (:func:`screen_plan`). A copy made with
    :func:`dataclasses.replace` takes the specs as they are (nothing is parsed twice)."""

    trump: str | int | None = None
    declarer: int | None = None
    level: int | None = None
    seat: int | None = None
    bids: Sequence[int] | str = ()
    auction: str | Sequence[str | int] | None = None
    dealer: int | None = None
    constraints: Iterable[str] | Mapping[int, Mapping[str, Any]] = ()
    known: Mapping[int, Any] | None = None
    rules: Rules | None = None
    play: str | StrategySpec = DEFAULT_PLAY
    bid_policy: str | StrategySpec = DEFAULT_BID
    deals: int = DEFAULT_DEALS
    seed: int = 0
    infer: bool | None = None
    model: str | None = None
    eps: float = DEFAULT_EPS
    confidence: float = 0.95
    threads: int = 1
    evaluation: str = "heuristic"
    dd_deals: int | None = None
    dd_node_limit: int | None = None
    dd_min_node_limit: int | None = None
    screen: int | None = None
    check: str | None = None
    check_deals: int | None = None
    #: the play policy of every seat, parsed
    play_spec: PlaySpec = field(init=False, compare=False, repr=False)
    #: the other seats' bidding strategy, parsed and checked for the model
    bid_spec: StrategySpec = field(init=False, compare=False, repr=False)
    #: how the table is read (``infer``, ``model``, ``eps``)
    inference: Inference = field(init=False, compare=False, repr=False)
    #: the screening plan: ``(screening play, kept per strain)`` or None
    plan: tuple[str, int] | None = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        if not 0.0 < self.confidence < 1.0:
            raise AdviceError(
                f"confidence must be a fraction between 0 and 1, got {self.confidence!r}")
        if self.evaluation not in EVALUATIONS:
            raise AdviceError(
                f"evaluation {self.evaluation!r}: use one of {', '.join(EVALUATIONS)}")
        if self.evaluation == "heuristic" and (
                self.dd_deals is not None or self.dd_node_limit is not None
                or self.dd_min_node_limit is not None):
            raise AdviceError("dd_deals, dd_node_limit and dd_min_node_limit apply to the "
                              "double-dummy evaluation only (evaluation='dd')")
        put("inference", inference(self.infer, self.model, self.eps))
        if self.check is not None:
            put("check", checked_check_play(self.check))
            if self.check_deals is not None:
                put("check_deals", check_int("check_deals", self.check_deals, 1, 100_000_000))
        play = check_play_spec(self.play)
        put("play", play)
        put("play_spec", play)
        put("plan", screen_plan(play, self.screen))
        bid = checked_bid_policy(self.bid_policy)
        put("bid_policy", bid)
        put("bid_spec", bid)

    @classmethod
    def of(cls, options: AdviseOptions | None = None, **keywords: Any) -> AdviseOptions:
        """``options`` itself (when nothing else is given), or the options built from the fields
        ``keywords``: how :func:`~.evaluate.advise` reads its arguments."""
        if options is None:
            return cls(**keywords)
        if not isinstance(options, AdviseOptions):
            raise TypeError(f"options must be AdviseOptions, got {type(options).__name__}")
        if keywords:
            raise TypeError("give the AdviseOptions alone, or its fields, not both")
        return options


__all__ = ["DEFAULT_DEALS", "DEFAULT_SCREEN", "EVALUATIONS", "AdviseOptions", "check_play_spec",
           "checked_bid_policy", "inference", "screen_plan"]
