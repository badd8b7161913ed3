"""Tournament scheduling: entries, duplicate seatings and the chunks the kernel plays.

Conventions:

* **Entries** are the tournament's strategies (1..P specs,
  :mod:`whist_sim.compiled.strategies.spec`; the same spec may appear twice), each a bidding
  strategy with the tournament's play policy or a seat ``BID/PLAY`` with its own, labelled
  ``BID/PLAY`` (the play spelled out even when it is the tournament's), or ``BID/PLAY#i`` (``i`` =
  1-based slot in the list) when a seat spec appears more than once. With fewer entries than seats
  the seats are filled cyclically: entry ``s % k`` sits in seat ``s`` of the base arrangement
  (``a,b,a,b`` for two strategies at four seats, ``a,b,c,a`` for three), so an entry may hold
  several seats; its score in a play is the mean over its seats.
* **Seatings** are ``int64[S, players]`` arrays, entry index by seat, in a fixed order:
  ``"all"`` (every distinct arrangement of the base, sorted) or ``"rotate"`` / ``players`` (the
  P cyclic rotations). Identical arrangements are played once.
* **Chunks**: deals ``index * chunk_size ..`` of a run; :func:`run_chunk` plays one with the
  compiled kernel (:mod:`whist_sim.compiled.entry.tournament`) under every seating and returns
  per-deal aggregates (:class:`ChunkResult`, entries last). It is pure and top level, so Dask
  can ship it to workers; :func:`in_order` puts results that finish in any order back in deal
  order, which is what makes a run independent of chunk size, threads and workers.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ...compiled.ground.layout import N_PARAMS
from ...compiled.strategies.registry import DEFAULT_PLAY
from ...compiled.strategies.seating import Seating
from ...compiled.strategies.spec import PlaySpec, StrategySpec, parse_play, parse_seat
from ...core.rules import Rules

DESIGNS = ("duplicate", "independent")
PLAYS_PER_CHUNK = 240_000  # default chunk: about this many plays (deals x seatings)
MAX_SEED = (1 << 64) - 1


class TournamentError(ValueError):
    """Impossible tournament options (strategies, deals, seatings, SPRT bounds, output)."""


# --------------------------------------------------------------------------- entries, seatings


@dataclass(frozen=True)
class Entry:
    """One tournament entry: a strategy spec in slot ``slot`` (0-based) of the strategies list,
    and its play policy (``play``; ``None``: :data:`DEFAULT_PLAY`)."""

    label: str
    spec: StrategySpec
    slot: int
    play: PlaySpec | None = None

    @property
    def play_spec(self) -> PlaySpec:
        """The entry's play policy."""
        return self.play if self.play is not None else parse_play(DEFAULT_PLAY)



def make_entries(
    strategies: Sequence[str | StrategySpec] | str, players: int = 4,
    play: str | StrategySpec = DEFAULT_PLAY,
) -> list[Entry]:
    """Parse the strategies (each ``BID`` or ``BID/PLAY``; ``BID`` plays ``play``) and label
    them ``BID/PLAY`` (canonical spec texts; the play spelled out even when it is ``play``), with
    ``#i`` after a label that appears more than once."""
    if isinstance(strategies, str):
        strategies = [s for s in strategies.split(",")]
    default = parse_play(play)
    seats = [parse_seat(s) for s in strategies]
    specs = [b for b, _ in seats]
    plays = [default if q is None else q for _, q in seats]
    if len(specs) < 2:
        raise TournamentError(
            "a tournament needs at least two strategies (name one twice to compare it with "
            "itself, e.g. heuristic,heuristic)"
        )
    if len(specs) > players:
        raise TournamentError(
            f"{len(specs)} strategies for {players} seats: name at most {players}"
        )
    texts = [f"{b.text}/{q.text}" for b, q in zip(specs, plays, strict=True)]
    out = []
    for i, (spec, text) in enumerate(zip(specs, texts, strict=True)):
        label = text if texts.count(text) == 1 else f"{text}#{i + 1}"
        out.append(Entry(label, spec, i, plays[i]))
    return out


def base_arrangement(n_entries: int, players: int) -> tuple[int, ...]:
    """Entry index by seat before any rotation: seats filled cyclically (``s % n_entries``)."""
    return tuple(s % n_entries for s in range(players))


def make_seatings(n_entries: int, players: int, rotations: str | int = "all") -> np.ndarray:
    """Distinct seatings (``int64[S, players]``: entry index by seat), in a fixed order.

    ``rotations``: ``"all"`` (every distinct permutation of the base arrangement, sorted) or
    ``"rotate"`` / ``players`` (the cyclic rotations; seating ``r`` puts base seat ``s`` in seat
    ``(s + r) % players``).
    """
    mode = rotation_mode(rotations, players)
    base = base_arrangement(n_entries, players)
    if mode == "all":
        arr = sorted(set(itertools.permutations(base)))
    else:
        arr = []
        for r in range(players):
            seating = tuple(base[(s - r) % players] for s in range(players))
            if seating not in arr:
                arr.append(seating)
    return np.array(arr, dtype=np.int64)


def rotation_mode(rotations: str | int, players: int) -> str:
    """``"all"`` or ``"rotate"``: the seating mode that ``rotations`` names (checked)."""
    if isinstance(rotations, str) and rotations.strip().lower() == "all":
        return "all"
    if isinstance(rotations, str) and rotations.strip().lower() in ("rotate", "rotations"):
        return "rotate"
    try:
        n = int(rotations)
    except (TypeError, ValueError):
        n = None
    if n == players and not isinstance(rotations, bool):
        return "rotate"
    raise TournamentError(
        f"rotations must be 'all' or {players} (the {players} rotations), got {rotations!r}"
    )


# --------------------------------------------------------------------------- chunk tasks


@dataclass(frozen=True)
class TournamentTask:
    """Everything a worker needs to play any chunk of a tournament (picklable)."""

    seed: int
    deals: int
    chunk_size: int
    rules: Rules
    specs: tuple[StrategySpec, ...]  # by entry
    play: str
    seatings: tuple[tuple[int, ...], ...]  # entry index by seat, per seating
    independent: bool
    plays: tuple[PlaySpec, ...] | None = None  # by entry; None: ``play`` for every entry


@dataclass(frozen=True)
class ChunkResult:
    """Per-deal aggregates of one chunk (arrays over the chunk's deals, entries last)."""

    index: int
    start: int
    count: int
    ysum: np.ndarray  # float64[count, E]: sum over seatings of the entry's per-play score
    yy: np.ndarray  # float64[count, E, E]: sum over seatings of products of per-play scores
    tally: np.ndarray  # int32[count, E, N_TALLY]
    thrown: np.ndarray  # int32[count]: plays thrown in
    seconds: float


def task_arrays(task: TournamentTask) -> tuple[np.ndarray, ...]:
    """``(pols, pars, ent, inv_m)`` of a task, as the tournament kernel takes them."""
    p = task.rules.players
    ent = np.array(task.seatings, dtype=np.int64)
    n_seat, n_ent = ent.shape[0], len(task.specs)
    plays = task.plays if task.plays is not None else (parse_play(task.play),) * n_ent
    pols = np.empty((n_seat, 2, p), dtype=np.int64)
    pars = np.zeros((n_seat, 2, p, N_PARAMS), dtype=np.float64)
    for k in range(n_seat):
        seating = Seating(tuple(task.specs[e] for e in ent[k]), tuple(plays[e] for e in ent[k]))
        pols[k], pars[k] = seating.arrays()
    seats = np.bincount(ent[0], minlength=n_ent)
    inv_m = 1.0 / seats.astype(np.float64)
    return pols, pars, ent, inv_m


def run_chunk(task: TournamentTask, index: int) -> ChunkResult:
    """Play chunk ``index`` of ``task`` (deals ``index * chunk_size ..``) under every seating.

    A top-level function, so Dask can ship it to workers; pure (returns arrays, writes nothing).
    """
    from ...compiled.entry.deal import loop_address
    from ...compiled.entry.tournament import N_TALLY, Entrants, TallyOut, tournament_kernel
    from ...compiled.ground.layout import Table, deck_array, new_deal, rules_array
    from ...compiled.strategies.dispatch import BASE, FULL, loop_mode
    from ...core.rng import mix64
    from ...runs.dataset import chunk_bounds

    t0 = time.perf_counter()
    start, count = chunk_bounds(index, task.deals, task.chunk_size)
    pols, pars, ent, inv_m = task_arrays(task)
    n_ent = inv_m.shape[0]
    ysum = np.zeros((count, n_ent), dtype=np.float64)
    yy = np.zeros((count, n_ent, n_ent), dtype=np.float64)
    tally = np.zeros((count, n_ent, N_TALLY), dtype=np.int32)
    thrown = np.zeros(count, dtype=np.int32)
    # no search compiled or loaded when no seat of any seating searches
    mode = FULL if any(loop_mode(pol) is FULL for pol in pols) else BASE
    tournament_kernel(
        loop_address(mode, pols), np.uint64(mix64(task.seed)), np.int64(start), np.int64(count),
        Table(rules_array(task.rules), deck_array(task.rules), pols, pars),
        Entrants(ent, inv_m, bool(task.independent)), new_deal(),
        TallyOut(np.zeros(n_ent, dtype=np.float64), ysum, yy, tally, thrown),
    )
    return ChunkResult(index, start, count, ysum, yy, tally, thrown, time.perf_counter() - t0)


def in_order(results: Iterator[tuple[int, ChunkResult]]) -> Iterator[ChunkResult]:
    """Chunk results in index order (completed ones wait in a small buffer)."""
    waiting: dict[int, ChunkResult] = {}
    nxt = 0
    for index, res in results:
        waiting[index] = res
        while nxt in waiting:
            yield waiting.pop(nxt)
            nxt += 1
