"""The options of a simulation run as one value, checked once where it is built: RunOptions.

:func:`~whist_sim.runs.simulate.simulate` and :func:`~whist_sim.runs.simulate.plan_run` take a
:class:`RunOptions` (or its fields as arguments, from which they build one): what the run plays
(deals, seed, rules, the seats), where (the output folder, resumed or new) and on what (local
threads, a Dask scheduler or cluster, an executor). Building one checks every option and raises
:class:`~whist_sim.runs.outdir.SimulationError` naming the first bad one, as
:class:`~whist_sim.core.rules.Rules` checks its own; the seats are parsed once into a
:class:`~whist_sim.compiled.strategies.seating.Seating` (:func:`seating_of`). Building one reads
and writes nothing: the output folder is checked when the run is planned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any

from ..compiled.strategies.seating import Seating
from ..core.registry import DEFAULT_BID
from ..core.rng import MAX_DEALS
from ..core.rules import Rules
from .dataset import min_chunk_size, too_many_chunks
from .dd_columns import DEFAULT_NODE_LIMIT as DEFAULT_DD_NODE_LIMIT
from .dd_columns import DDColumnsError, check_node_limit, check_players
from .executors import Executor, check_executor_options
from .outdir import SimulationError

DEFAULT_POLICY = DEFAULT_BID  # the bidding strategy of every seat by default
MAX_SEED = (1 << 64) - 1
DEFAULT_CHUNK_SIZE = 250_000
#: default chunk size with ``dd``: double-dummy solving makes a deal about 10^5 times slower to
#: produce (at most 8 solves x the node limit), so chunks of 100 deals still take seconds to a
#: minute per thread, and the progress bar moves
DEFAULT_DD_CHUNK_SIZE = 100  # deals per chunk with dd, at most (see ``default_dd_chunk_size``)
DD_MIN_CHUNKS = 16  # a small dd run is still cut into this many chunks, so every core works


def default_dd_chunk_size(deals: int) -> int:
    """Deals per chunk of a dd run when none is given: ``DEFAULT_DD_CHUNK_SIZE`` (chunks of about
    a minute of solving), fewer for a small run so that it still has ``DD_MIN_CHUNKS`` chunks to
    share among the threads. Depends on ``deals`` only, so a resumed run agrees with it."""
    return max(1, min(DEFAULT_DD_CHUNK_SIZE, -(-deals // DD_MIN_CHUNKS)), min_chunk_size(deals))


def default_chunk_size(deals: int) -> int:
    """Deals per chunk of a run without dd when none is given: ``DEFAULT_CHUNK_SIZE``, more for
    a run so large that it would make more than :data:`~whist_sim.runs.dataset.MAX_CHUNKS`
    chunks. Depends on ``deals`` only, so a resumed run agrees with it."""
    return max(DEFAULT_CHUNK_SIZE, min_chunk_size(deals))




def _check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimulationError(f"{name} must be a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f">= {low}" if high is None else f"in {low}..{high}"
        raise SimulationError(f"{name} must be {bound}, got {value}")
    return value


def known_policies(kind: str = "bid") -> tuple[str, ...]:
    """Names of the built-in policies of ``kind`` (``"bid"`` or ``"play"``) the engine can play."""
    from ..compiled.strategies import registry as policies

    return tuple(policies.policy_names(kind))


def _seat_policies(kind: str, value: str | Sequence[str] | None, players: int) -> tuple[Any, ...]:
    """The specs by seat of ``value`` (one spec for every seat, or one per seat)."""
    from ..compiled.strategies.spec import StrategyError, parse_play, parse_strategy

    what = "bidding" if kind == "bid" else "play"
    if value is None:
        value = DEFAULT_POLICY
    names = (value,) * players if isinstance(value, str) else tuple(value)
    if len(names) != players:
        raise SimulationError(
            f"{what} policies name {len(names)} seat(s) ({','.join(map(str, names))}), but "
            f"players={players} needs one per seat ({players})"
        )
    parse = parse_strategy if kind == "bid" else parse_play
    out = []
    for s, n in enumerate(names):
        _check_name(kind, n, s)
        try:
            out.append(parse(n))
        except StrategyError as e:
            raise SimulationError(f"seat {s}: {e}") from None
    return tuple(out)


def _check_name(kind: str, text: Any, seat: int) -> None:
    """An unknown policy name in a seat's spec, said as it always was."""
    from ..compiled.strategies.spec import StrategySpec

    what = "bidding" if kind == "bid" else "play"
    name = text.name if isinstance(text, StrategySpec) else (
        text.split(":")[0].strip() if isinstance(text, str) else text)
    known = known_policies(kind)
    if not isinstance(name, str) or name not in known:
        raise SimulationError(
            f"unknown {what} policy {name!r} for seat {seat}; known {what} policies: "
            f"{', '.join(known)}"
        )


def seat_policies(
    bid: str | Sequence[str] | None, play: str | Sequence[str] | None, players: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The bidding and play specs by seat (canonical texts) of :func:`simulate`'s ``bid`` and
    ``play``: the texts of :func:`seating_of`."""
    seating = seating_of(bid, play, players)
    return seating.bid_text, seating.play_text


def seating_of(
    bid: Seating | str | Sequence[str] | None, play: str | Sequence[str] | None, players: int
) -> Seating:
    """The :class:`~whist_sim.compiled.strategies.seating.Seating` of :func:`simulate`'s ``bid`` and
    ``play``, parsed once: the run and its chunks take it as it is.

    ``bid``: one seat for all or one per seat; a seat is ``BID`` or ``BID/PLAY``
    (``heuristic/random``, ``montecarlo:n=8/heuristic``). ``play``: one play spec for all or one
    per seat. A seat's own ``/PLAY`` comes first, then ``play``, then the default play
    (:func:`whist_sim.compiled.strategies.spec.default_play`: ``random`` plays ``random``, every
    other strategy :data:`whist_sim.compiled.strategies.registry.DEFAULT_PLAY`).
    """
    from ..compiled.strategies.spec import StrategyError, default_play, parse_seat, seat_text

    if isinstance(bid, Seating):  # parsed at the edge already
        if play is not None:
            raise SimulationError("give the play policies in the seating, not beside it")
        if bid.players != players:
            raise SimulationError(f"the seating has {bid.players} seats, but players={players}")
        return bid
    if bid is None:
        bid = DEFAULT_POLICY
    items = (bid,) * players if isinstance(bid, str) else tuple(bid)
    if len(items) != players:
        raise SimulationError(
            f"bidding policies name {len(items)} seat(s) ({','.join(map(str, items))}), but "
            f"players={players} needs one per seat ({players})"
        )
    seats = []
    for s, item in enumerate(items):
        if isinstance(item, str):
            b, sep, q = item.partition("/")
            _check_name("bid", b, s)
            if sep and "/" not in q:
                _check_name("play", q, s)
        try:
            seats.append(parse_seat(item))
        except StrategyError as e:
            raise SimulationError(f"seat {s}: {e}") from None
    own = [p for _, p in seats]
    if play is not None and not isinstance(play, str) and any(p is not None for p in own):
        raise SimulationError(
            "give the play policies per seat once: as BID/PLAY seats or as a play policy per "
            f"seat, not both (seats: {','.join(seat_text(b, p) for b, p in seats)})"
        )
    plays = (
        _seat_policies("play", play, players) if play is not None
        else tuple(default_play(b) for b, _ in seats)
    )
    return Seating(tuple(b for b, _ in seats),
                   tuple(p if p is not None else plays[s] for s, p in enumerate(own)))




def _dd_options(node_limit: int, tt_bits: int, min_node_limit: int | None = None
                ) -> dict[str, Any]:
    """The manifest's ``dd`` entry: what defines a run's double-dummy columns.

    ``min_node_limit`` (whist-min's own limit) is recorded only when it differs from
    ``node_limit``, so the runs made before it existed keep their identity (``--resume``)."""
    from ..dd import SOLVER_VERSION
    from .dd_columns import OBJECTIVES

    options: dict[str, Any] = {
        "solver_version": SOLVER_VERSION,
        "node_limit": node_limit,
        "tt_bits": tt_bits,
        "objectives": [objective for _, objective in OBJECTIVES],
    }
    if min_node_limit is not None and min_node_limit != node_limit:
        options["min_node_limit"] = min_node_limit
    return options


@dataclass(frozen=True)
class RunOptions:
    """Every option of a simulation run, checked when built (see the module doc and
    :func:`~whist_sim.runs.simulate.simulate`, which documents each field).

    ``out`` is kept as given (:func:`~whist_sim.runs.simulate.plan_run` resolves it and checks
    the folder); ``bid`` / ``play`` are parsed into :attr:`seating`; ``chunk_size`` ``None`` is
    replaced by the run's default (:func:`~whist_sim.runs.simulate.default_chunk_size`, or
    ``default_dd_chunk_size`` with ``dd``); :attr:`dd_options` is the manifest's ``dd`` entry
    (``None`` without ``dd``)."""

    out: str | Path
    deals: int
    seed: int
    rules: Rules | None = None
    bid: Seating | str | Sequence[str] | None = None
    play: str | Sequence[str] | None = None
    chunk_size: int | None = None
    threads: int | None = None
    resume: bool = False
    store_dealt: bool = False
    _: KW_ONLY
    scheduler: str | None = None
    cluster: str | None = None
    executor: Executor | None = None
    dd: bool = False
    dd_node_limit: int | None = None
    dd_min_node_limit: int | None = None
    rules_file: str | None = None
    #: the seats, parsed once (from ``bid`` and ``play``)
    seating: Seating = field(init=False, compare=False)
    #: the manifest's ``dd`` entry, or None without ``dd``
    dd_options: dict[str, Any] | None = field(init=False, compare=False)

    def __post_init__(self) -> None:
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        rules = Rules() if self.rules is None else self.rules
        if not isinstance(rules, Rules):
            raise SimulationError(f"rules must be a Rules object, got {type(rules).__name__}")
        put("rules", rules)
        put("deals", _check_int("deals", self.deals, 1, MAX_DEALS))
        put("seed", _check_int("seed", self.seed, 0, MAX_SEED))
        put("dd", bool(self.dd))
        dd_options = None
        if self.dd:
            from ..dd import DEFAULT_TT_BITS

            try:
                check_players(rules.players)
                limit = check_node_limit(
                    DEFAULT_DD_NODE_LIMIT if self.dd_node_limit is None else self.dd_node_limit
                )
                min_limit = (None if self.dd_min_node_limit is None
                             else check_node_limit(self.dd_min_node_limit))
            except DDColumnsError as e:
                raise SimulationError(str(e)) from None
            dd_options = _dd_options(limit, DEFAULT_TT_BITS, min_limit)
        elif self.dd_node_limit is not None or self.dd_min_node_limit is not None:
            raise SimulationError("a DD node limit was given without dd (--dd)")
        put("dd_options", dd_options)
        chunk_size = self.chunk_size
        if chunk_size is None:
            chunk_size = (default_dd_chunk_size(self.deals) if self.dd
                          else default_chunk_size(self.deals))
        chunk_size = _check_int("chunk size", chunk_size, 1)
        put("chunk_size", chunk_size)
        problem = too_many_chunks(self.deals, chunk_size)
        if problem is not None:  # refused before a list of its chunks is made
            raise SimulationError(problem)
        if self.threads is not None:
            _check_int("threads", self.threads, 1)
        put("seating", seating_of(self.bid, self.play, rules.players))
        put("store_dealt", bool(self.store_dealt))
        if self.executor is not None and (self.scheduler is not None or self.cluster is not None):
            raise SimulationError("give an executor, or a scheduler / cluster, not both")
        check_executor_options(threads=self.threads, scheduler=self.scheduler,
                               cluster=self.cluster)
        if self.rules_file is not None:
            put("rules_file", str(self.rules_file))

    @classmethod
    def of(cls, options: RunOptions | str | Path, *args: Any, **keywords: Any) -> RunOptions:
        """``options`` itself when it is a :class:`RunOptions` (and nothing else is given),
        else the options built from the fields ``options`` (the output folder), ``*args`` and
        ``**keywords``: how :func:`~whist_sim.runs.simulate.simulate` and
        :func:`~whist_sim.runs.simulate.plan_run` read their arguments."""
        if isinstance(options, RunOptions):
            if args or keywords:
                raise TypeError("give the RunOptions alone, or its fields, not both")
            return options
        return cls(options, *args, **keywords)
