"""Duplicate tournaments between bidding strategies, with honest statistics (issue 6).

``tournament(["hcp", "heuristic"], deals=100_000, seed=1)`` plays every deal under every
**seating** of the strategies, so card luck cancels: a strategy that holds the good cards in one
seating holds the bad ones in another, on the very same deal.

Entries and seats
    The strategies (1..P specs, :mod:`whist_sim.strategies`; the same spec may appear twice) are
    the tournament's **entries**, labelled by their spec, or ``spec#i`` (``i`` = 1-based slot in
    the list) when a spec appears more than once. With fewer entries than seats the seats are filled
    cyclically: entry ``s % k`` sits in seat ``s`` of the base arrangement (``a,b,a,b`` for two
    strategies at four seats, ``a,b,c,a`` for three), so an entry may hold several seats; its score
    in a play is the mean over its seats.

Seatings (``rotations``)
    ``"all"``: every distinct arrangement of the base (24 for four distinct entries, 6 for
    ``a,b,a,b``, 12 for ``a,b,c,a``); ``"rotate"`` (or the number of players, e.g. ``4``): the P
    cyclic rotations of the base (each entry in every seat; neighbours stay the same). Identical
    arrangements are played once: repeats would replay identical plays.

Designs
    ``"duplicate"`` (default): every seating of deal ``i`` replays the random stream
    ``(seed, i)``: same cards, same dealer (``i % P``). ``"independent"``: seating ``k`` of deal
    ``i`` plays the fresh deal ``i * S + k`` (as many plays, no card replayed) - the baseline the
    duplicate design is measured against, and a null model with real noise (two copies of one
    deterministic strategy tie exactly on every duplicate deal, by symmetry).

Statistics (per **deal**: the unit is the duplicate deal, its S plays averaged)
    * per entry: mean score per deal (points per seat), Student-t 95 % CI over deals; contract hit
      rate, zero-bid rate and success, over-deal share and hit rates in over / under deals, over-
      and undertrick rates, mean contract and tricks, declarer share and mean auction level;
    * per pair ``(a, b)``: mean per-deal difference ``a - b``, its paired t CI and two-sided
      p-value; and, for comparison, the normal CI the data would give **without** duplication,
      from the spread of ``z = y_a - y_b``, the difference of the two entries' scores in a single
      play: ``ci_independent`` for as many independent deals (each played once, fresh cards:
      ``diff +- 1.96 sd(z) / sqrt(deals)``) and ``ci_independent_plays`` for as many independent
      plays (``/ sqrt(deals * S)``: the same computing cost); ``ci_shrink`` /
      ``ci_shrink_plays`` = independent half-width / duplicate half-width;
    * ``sprt=(A, B)``: Wald's sequential probability ratio test of every pair's difference, H0:
      diff = A against H1: diff = B (points per deal), normal approximation with the variance
      estimated as it goes, ``alpha = beta = 0.05``; after at least :data:`SPRT_MIN_DEALS` deals it
      accepts H1 when ``LLR >= log((1 - beta) / alpha)`` and H0 when ``LLR <= log(beta /
      (1 - alpha))``. The run stops as soon as every pair is decided (the statistics then cover
      the deals played; intervals after an optional stop are approximate).

Running
    Deals are cut into chunks played by the compiled kernel
    (:mod:`whist_sim.kernels.tournament_kernel`) on local threads or a Dask cluster
    (:mod:`whist_sim.executors`); results are combined in deal order, so everything (SPRT
    included) depends only on the options, never on chunk size, threads or workers. With ``out``
    the per-deal scores go to ``out/scores/part-<k>.parquet`` (one row per deal: ``deal`` and one
    column per entry, its duplicate score in points), plus ``summary.json``, ``report.md`` and
    ``tournament.png``.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__
from .executors import Executor, check_executor_options, make_executor
from .policies import BID, PLAY, get_info, seat_params
from .rules import Rules
from .stats import Moments, regularized_beta, z_value
from .strategies import StrategyError, StrategySpec, check_play, parse_strategy

DESIGNS = ("duplicate", "independent")
PLAYS_PER_CHUNK = 240_000  # default chunk: about this many plays (deals x seatings)
SPRT_MIN_DEALS = 30  # the SPRT decides only after this many deals (variance estimate)
SPRT_ALPHA = 0.05
SPRT_BETA = 0.05
MAX_SEED = (1 << 64) - 1
SCORES_DIR = "scores"


class TournamentError(ValueError):
    """Impossible tournament options (strategies, deals, seatings, SPRT bounds, output)."""


# --------------------------------------------------------------------------- entries, seatings


@dataclass(frozen=True)
class Entry:
    """One tournament entry: a strategy spec in slot ``slot`` (0-based) of the strategies list."""

    label: str
    spec: StrategySpec
    slot: int


def make_entries(strategies: Sequence[str | StrategySpec], players: int = 4) -> list[Entry]:
    """Parse the strategies and label them (``spec#i`` for a spec that appears more than once)."""
    if isinstance(strategies, str):
        strategies = [s for s in strategies.split(",")]
    specs = [parse_strategy(s) for s in strategies]
    if len(specs) < 2:
        raise TournamentError(
            "a tournament needs at least two strategies (name one twice to compare it with "
            "itself, e.g. heuristic,heuristic)"
        )
    if len(specs) > players:
        raise TournamentError(
            f"{len(specs)} strategies for {players} seats: name at most {players}"
        )
    texts = [s.text for s in specs]
    out = []
    for i, spec in enumerate(specs):
        label = spec.text if texts.count(spec.text) == 1 else f"{spec.text}#{i + 1}"
        out.append(Entry(label, spec, i))
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
    mode = _rotation_mode(rotations, players)
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


def _rotation_mode(rotations: str | int, players: int) -> str:
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
    bid_rows = seat_params([s.name for s in task.specs], BID, [s.overrides() for s in task.specs])
    play_row = seat_params([task.play], PLAY)[0]
    pols = np.empty((n_seat, 2, p), dtype=np.int64)
    pars = np.zeros((n_seat, 2, p, bid_rows.shape[1]), dtype=np.float64)
    play_id = get_info(task.play, PLAY).id
    for k in range(n_seat):
        for s in range(p):
            e = ent[k, s]
            pols[k, 0, s] = task.specs[e].info.id
            pols[k, 1, s] = play_id
            pars[k, 0, s] = bid_rows[e]
            pars[k, 1, s] = play_row
    seats = np.bincount(ent[0], minlength=n_ent)
    inv_m = 1.0 / seats.astype(np.float64)
    return pols, pars, ent, inv_m


def run_chunk(task: TournamentTask, index: int) -> ChunkResult:
    """Play chunk ``index`` of ``task`` (deals ``index * chunk_size ..``) under every seating.

    A top-level function, so Dask can ship it to workers; pure (returns arrays, writes nothing).
    """
    from .dataset import chunk_bounds
    from .kernels.layout import deck_array, new_state, rules_array
    from .kernels.tournament_kernel import N_TALLY, tournament_kernel
    from .rng import mix64

    t0 = time.perf_counter()
    start, count = chunk_bounds(index, task.deals, task.chunk_size)
    pols, pars, ent, inv_m = task_arrays(task)
    n_ent = inv_m.shape[0]
    st, hm, rng = new_state()
    ysum = np.zeros((count, n_ent), dtype=np.float64)
    yy = np.zeros((count, n_ent, n_ent), dtype=np.float64)
    tally = np.zeros((count, n_ent, N_TALLY), dtype=np.int32)
    thrown = np.zeros(count, dtype=np.int32)
    tournament_kernel(
        np.uint64(mix64(task.seed)), np.int64(start), np.int64(count), rules_array(task.rules),
        deck_array(task.rules), pols, pars, ent, inv_m, bool(task.independent), st, hm, rng,
        np.zeros(52, dtype=np.int64), np.zeros(n_ent, dtype=np.float64),
        ysum, yy, tally, thrown,
    )
    return ChunkResult(index, start, count, ysum, yy, tally, thrown, time.perf_counter() - t0)


# --------------------------------------------------------------------------- statistics


def paired_test(m: Moments, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Mean, t interval and two-sided p-value (H0: mean 0) of paired differences ``m``.

    Returns ``(mean, low, high, p)``. Differences that are all equal give a zero-width interval
    and ``p = 1`` if they are 0, else ``p = 0``; fewer than two give ``nan``.
    """
    if m.n < 2:
        return m.mean if m.n else math.nan, math.nan, math.nan, math.nan
    if m.m2 <= 0.0:
        return m.mean, m.mean, m.mean, 1.0 if m.mean == 0.0 else 0.0
    low, high = m.interval(confidence)
    df = m.n - 1
    t = m.mean / m.se
    p = regularized_beta(df / (df + t * t), df / 2.0, 0.5)
    return m.mean, low, high, min(1.0, max(0.0, p))


@dataclass
class Sprt:
    """Wald's SPRT of a stream of per-deal differences: H0 mean = ``h0`` vs H1 mean = ``h1``.

    Normal model with the variance estimated as it goes: after ``n`` deals with sum ``S`` and
    sample variance ``v``, ``LLR = (h1 - h0) / v * (S - n (h0 + h1) / 2)``. Decides once
    ``n >= min_deals``: H1 when ``LLR >= log((1 - beta) / alpha)``, H0 when
    ``LLR <= log(beta / (1 - alpha))``. A zero variance is floored (exactly constant differences
    decide at once for the nearer hypothesis).
    """

    h0: float
    h1: float
    alpha: float = SPRT_ALPHA
    beta: float = SPRT_BETA
    min_deals: int = SPRT_MIN_DEALS
    moments: Moments = field(default_factory=Moments)
    llr: float = 0.0
    decision: str | None = None  # "H0", "H1" or None (undecided)
    decided_at: int | None = None  # deals seen when it decided
    trace: list[tuple[int, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.h0) and math.isfinite(self.h1)) or self.h0 == self.h1:
            raise TournamentError(
                f"SPRT bounds must be two different numbers (H0 diff, H1 diff), got "
                f"{self.h0!r}, {self.h1!r}"
            )
        for name, v in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < v < 0.5:
                raise TournamentError(f"SPRT {name} must be in (0, 0.5), got {v!r}")

    @property
    def upper(self) -> float:
        """Accept H1 at or above this log-likelihood ratio."""
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        """Accept H0 at or below this log-likelihood ratio."""
        return math.log(self.beta / (1.0 - self.alpha))

    def feed(self, d: np.ndarray) -> int | None:
        """Add differences in deal order; return the index in ``d`` at which it decided, if so.

        After a decision nothing more is taken (the caller stops feeding it).
        """
        if self.decision is not None or d.size == 0:
            return None
        m0 = self.moments
        c = m0.mean if m0.n else float(d[0])
        dev = d.astype(np.float64) - c
        n = m0.n + np.arange(1, d.size + 1, dtype=np.float64)
        tsum = (m0.n * (m0.mean - c) if m0.n else 0.0) + np.cumsum(dev)
        qsum = (m0.m2 + m0.n * (m0.mean - c) ** 2 if m0.n else 0.0) + np.cumsum(dev * dev)
        with np.errstate(invalid="ignore", divide="ignore"):
            var = np.where(n > 1, (qsum - tsum * tsum / n) / (n - 1), np.nan)
        floor = 1e-12 * max(1.0, (self.h1 - self.h0) ** 2)
        var = np.maximum(np.nan_to_num(var, nan=floor), floor)
        total = c * n + tsum
        llr = (self.h1 - self.h0) / var * (total - n * (self.h0 + self.h1) / 2.0)
        ok = n >= self.min_deals
        hit = np.flatnonzero(ok & ((llr >= self.upper) | (llr <= self.lower)))
        stop = int(hit[0]) if hit.size else None
        used = d.size if stop is None else stop + 1
        self.moments = m0 + Moments.of(d[:used])
        self.llr = float(llr[used - 1])
        if stop is not None:
            self.decision = "H1" if self.llr >= self.upper else "H0"
            self.decided_at = self.moments.n
        self.trace.append((self.moments.n, self.llr))
        return stop

    def as_dict(self) -> dict[str, Any]:
        return {
            "h0": self.h0, "h1": self.h1, "alpha": self.alpha, "beta": self.beta,
            "bounds": [self.lower, self.upper], "llr": self.llr, "decision": self.decision,
            "deals": self.decided_at if self.decided_at is not None else self.moments.n,
        }


class Aggregate:
    """Running totals of a tournament, fed chunk by chunk in deal order."""

    def __init__(self, n_entries: int, n_seatings: int, sprt: tuple[float, float] | None,
                 alpha: float = SPRT_ALPHA, beta: float = SPRT_BETA):
        from .kernels.tournament_kernel import N_TALLY

        self.k = n_entries
        self.s = n_seatings
        self.pairs = list(itertools.combinations(range(n_entries), 2))
        self.deals = 0
        self.x = [Moments() for _ in range(n_entries)]
        self.d = [Moments() for _ in self.pairs]
        self.ysum = np.zeros(n_entries)
        self.yy = np.zeros((n_entries, n_entries))
        self.tally = np.zeros((n_entries, N_TALLY), dtype=np.int64)
        self.thrown = 0
        self.sprt = (
            [Sprt(sprt[0], sprt[1], alpha, beta) for _ in self.pairs] if sprt is not None else None
        )
        self.stopped = False

    def add(self, res: ChunkResult) -> int:
        """Take a chunk (the next in deal order); return how many of its deals were used."""
        x = res.ysum / self.s
        used = res.count
        if self.sprt is not None:
            last = -1
            for (a, b), test in zip(self.pairs, self.sprt, strict=True):
                if test.decision is None:
                    stop = test.feed(x[:, a] - x[:, b])
                    if stop is not None:
                        last = max(last, stop)
            if all(t.decision is not None for t in self.sprt):
                self.stopped = True
                used = last + 1 if last >= 0 else 0
        x = x[:used]
        for e in range(self.k):
            self.x[e] = self.x[e] + Moments.of(x[:, e])
        for i, (a, b) in enumerate(self.pairs):
            self.d[i] = self.d[i] + Moments.of(x[:, a] - x[:, b])
        self.ysum += res.ysum[:used].sum(axis=0)
        self.yy += res.yy[:used].sum(axis=0)
        self.tally += res.tally[:used].sum(axis=0, dtype=np.int64)
        self.thrown += int(res.thrown[:used].sum())
        self.deals += used
        return used

    def play_variance(self, e: int, f: int | None = None) -> float:
        """Sample variance over single plays of entry ``e``'s score, or with ``f`` of the
        difference ``y_e - y_f`` of the two entries' scores in the same play (points**2)."""
        n = self.deals * self.s
        if n < 2:
            return math.nan
        if f is None:
            total, sq = self.ysum[e], self.yy[e, e]
        else:
            total = self.ysum[e] - self.ysum[f]
            sq = self.yy[e, e] + self.yy[f, f] - 2.0 * self.yy[e, f]
        mean = total / n
        return max(0.0, (sq - n * mean * mean) / (n - 1))


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


def _r(v: float | None, nd: int = 4) -> float | None:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return None
    return round(float(v), nd)


def _shrink(half_ind: float, half_dup: float) -> float | None:
    """How many times wider the independent interval is (``None`` if undefined)."""
    if not (math.isfinite(half_ind) and math.isfinite(half_dup)):
        return None
    if half_dup <= 0:
        return None
    return round(half_ind / half_dup, 3)


def summarize(agg: Aggregate, entries: Sequence[Entry], confidence: float = 0.95) -> dict[str, Any]:
    """The statistics of an aggregate: ``{"strategies": [...], "pairs": [...], ...}``."""
    from .kernels.tournament_kernel import TALLY_NAMES

    names = {n: i for i, n in enumerate(TALLY_NAMES)}
    strategies = []
    for e, entry in enumerate(entries):
        m = agg.x[e]
        low, high = m.interval(confidence) if m.n > 1 else (math.nan, math.nan)
        t = {n: int(agg.tally[e, i]) for n, i in names.items()}
        under = t["contracts"] - t["over"]
        strategies.append({
            "name": entry.label,
            "strategy": entry.spec.text,
            "seats": int(round(agg.tally[e, names["plays"]] / max(1, agg.deals * agg.s))),
            "mean": _r(m.mean if m.n else math.nan),
            "ci": [_r(low), _r(high)],
            "sd": _r(m.sd),
            "hit_rate": _r(_rate(t["hits"], t["contracts"])),
            "zero_rate": _r(_rate(t["zeros"], t["contracts"])),
            "zero_success": _r(_rate(t["zero_hits"], t["zeros"])),
            "over_share": _r(_rate(t["over"], t["contracts"])),
            "hit_rate_over": _r(_rate(t["over_hits"], t["over"])),
            "hit_rate_under": _r(_rate(t["hits"] - t["over_hits"], under)),
            "overtrick_rate": _r(_rate(t["overtricks"], t["contracts"])),
            "undertrick_rate": _r(_rate(t["undertricks"], t["contracts"])),
            "mean_contract": _r(_rate(t["contract_sum"], t["contracts"])),
            "mean_tricks": _r(_rate(t["tricks_sum"], t["contracts"])),
            "declarer_rate": _r(_rate(t["declarer"], t["contracts"])),
            "mean_level": _r(_rate(t["level_sum"], t["declarer"])),
            "play_sd": _r(math.sqrt(agg.play_variance(e)) if agg.deals else None),
        })
    z = z_value(confidence)
    pairs = []
    for i, (a, b) in enumerate(agg.pairs):
        diff, low, high, p = paired_test(agg.d[i], confidence)
        var_z = agg.play_variance(a, b)
        se_deals = math.sqrt(var_z / agg.deals) if agg.deals > 1 else math.nan
        se_plays = math.sqrt(var_z / (agg.deals * agg.s)) if agg.deals > 1 else math.nan
        half = (high - low) / 2 if math.isfinite(high - low) else math.nan
        row: dict[str, Any] = {
            "a": entries[a].label,
            "b": entries[b].label,
            "diff": _r(diff),
            "ci": [_r(low), _r(high)],
            "se": _r(agg.d[i].se),
            "p": float(p) if math.isfinite(p) else None,
            "ci_independent": [_r(diff - z * se_deals), _r(diff + z * se_deals)],
            "se_independent": _r(se_deals),
            "ci_shrink": _shrink(z * se_deals, half),
            "ci_independent_plays": [_r(diff - z * se_plays), _r(diff + z * se_plays)],
            "ci_shrink_plays": _shrink(z * se_plays, half),
        }
        if agg.sprt is not None:
            row["sprt"] = agg.sprt[i].as_dict()
        pairs.append(row)
    return {"strategies": strategies, "pairs": pairs}


# --------------------------------------------------------------------------- the runner


def _check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TournamentError(f"{name} must be a whole number, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        bound = f">= {low}" if high is None else f"in {low}..{high}"
        raise TournamentError(f"{name} must be {bound}, got {value}")
    return value


def parse_sprt(text: str | Sequence[float] | None) -> tuple[float, float] | None:
    """``"A,B"`` (points per deal) or a pair of numbers into ``(h0, h1)``; checks them."""
    if text is None:
        return None
    if isinstance(text, str):
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 2:
            raise TournamentError(f"--sprt takes two numbers A,B (H0 and H1 diff), got {text!r}")
        try:
            vals = (float(parts[0]), float(parts[1]))
        except ValueError:
            raise TournamentError(f"--sprt bounds must be numbers, got {text!r}") from None
    else:
        vals = tuple(float(v) for v in text)
        if len(vals) != 2:
            raise TournamentError(f"SPRT needs two bounds (H0, H1), got {text!r}")
    Sprt(vals[0], vals[1])  # validates
    return vals[0], vals[1]


def _check_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise TournamentError(f"output {out} exists and is not a directory")
    if out.exists() and any(out.iterdir()):
        raise TournamentError(f"output directory {out} is not empty; choose a new or empty one")


def _write_scores(out: Path, index: int, start: int, x: np.ndarray, labels: list[str]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .dataset import atomic_write_bytes

    cols = {"deal": pa.array(np.arange(start, start + x.shape[0], dtype=np.int64))}
    for e, label in enumerate(labels):
        cols[label] = pa.array(x[:, e])
    sink = pa.BufferOutputStream()
    pq.write_table(pa.table(cols), sink, compression="zstd")
    atomic_write_bytes(out / SCORES_DIR / f"part-{index:05d}.parquet", sink.getvalue().to_pybytes())


def _in_order(results: Iterator[tuple[int, ChunkResult]]) -> Iterator[ChunkResult]:
    """Chunk results in index order (completed ones wait in a small buffer)."""
    waiting: dict[int, ChunkResult] = {}
    nxt = 0
    for index, res in results:
        waiting[index] = res
        while nxt in waiting:
            yield waiting.pop(nxt)
            nxt += 1


def tournament(
    strategies: Sequence[str | StrategySpec] | str,
    deals: int,
    seed: int,
    rules: Rules | None = None,
    play: str = "heuristic",
    rotations: str | int = "all",
    sprt: str | Sequence[float] | None = None,
    out: str | Path | None = None,
    *,
    design: str = "duplicate",
    chunk_size: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    cluster: str | None = None,
    executor: Executor | None = None,
    progress: bool = True,
    confidence: float = 0.95,
    command: str | None = None,
    on_chunk: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play a duplicate tournament and return its summary (a JSON-able dict).

    Parameters
    ----------
    strategies: 2..P strategy specs (``"hcp"``, ``"montecarlo:n=16"``, or :class:`StrategySpec`;
        a comma-separated string is split). The same spec may appear twice.
    deals: duplicate deals to play (>= 1); each is played once per seating.
    seed: run seed, 0..2**64-1; duplicate deal ``i`` uses the random stream ``(seed, i)``.
    rules: rule options (default ``Rules()``).
    play: play policy of every seat (default ``heuristic``).
    rotations: ``"all"`` seatings or the P rotations (``"rotate"`` or P); see the module doc.
    sprt: ``(A, B)`` or ``"A,B"``: stop as soon as the SPRT of every pair decides (module doc).
    out: directory (new or empty) for ``scores/*.parquet``, ``summary.json``, ``report.md``,
        ``tournament.png``; ``None`` writes nothing.
    design: ``"duplicate"`` or ``"independent"`` (fresh cards for every play).
    chunk_size: deals per task (default: about 240,000 plays per task).
    threads, scheduler, cluster, executor: where chunks run (:func:`whist_sim.executors.
        make_executor`; default: every local CPU).
    progress: tqdm bar on stderr (deals, with the SPRT log-likelihood ratio).
    confidence: coverage of the intervals (0.95).
    command: the command line, recorded in the summary and report.
    on_chunk: called with a small progress dict after every chunk taken (in deal order).

    Returns the summary: ``deals`` (played), ``strategies`` (per entry: ``name``, ``mean``,
    ``ci``, ``hit_rate``, ...), ``pairs`` (``a``, ``b``, ``diff`` = mean of a minus b, ``ci``,
    ``p``, ``ci_independent``, ``ci_shrink``, ``sprt``), ``sprt``, ``seatings``, timings.
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TournamentError(f"rules must be a Rules object, got {type(rules).__name__}")
    try:
        entries = make_entries(strategies, rules.players)
        play = check_play(play)
    except StrategyError as e:
        raise TournamentError(str(e)) from None
    deals = _check_int("deals", deals, 1)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    if design not in DESIGNS:
        raise TournamentError(f"design must be one of {', '.join(DESIGNS)}, got {design!r}")
    seat_arr = make_seatings(len(entries), rules.players, rotations)
    n_seat = seat_arr.shape[0]
    bounds = parse_sprt(sprt)
    if chunk_size is None:  # smaller tasks with an SPRT: it may stop early
        per_chunk = PLAYS_PER_CHUNK // 10 if bounds is not None else PLAYS_PER_CHUNK
        chunk_size = max(1, min(deals, per_chunk // n_seat))
    chunk_size = _check_int("chunk size", chunk_size, 1)
    if design == "independent" and (deals * n_seat) > (1 << 62):
        raise TournamentError("too many deals for the independent design")
    if executor is not None and (scheduler is not None or cluster is not None):
        raise TournamentError("give an executor, or a scheduler / cluster, not both")
    check_executor_options(threads=threads, scheduler=scheduler, cluster=cluster)
    out_path = Path(out).expanduser().resolve() if out is not None else None
    if out_path is not None:
        _check_out(out_path)

    from tqdm.auto import tqdm

    from .dataset import n_chunks

    task = TournamentTask(
        seed, deals, chunk_size, rules, tuple(e.spec for e in entries), play,
        tuple(tuple(int(v) for v in row) for row in seat_arr), design == "independent",
    )
    labels = [e.label for e in entries]
    agg = Aggregate(len(entries), n_seat, bounds)
    total = n_chunks(deals, chunk_size)
    t0 = time.perf_counter()
    compute_s = 0.0
    ex = executor if executor is not None else make_executor(threads, scheduler, cluster)
    description = ex.description
    bar = None
    results = None
    try:
        if out_path is not None:
            (out_path / SCORES_DIR).mkdir(parents=True, exist_ok=True)
        bar = tqdm(total=deals, unit="deal", unit_scale=True, smoothing=0.05,
                   disable=not progress, desc="tournament", dynamic_ncols=True)
        results = ex.map_unordered(functools.partial(run_chunk, task), range(total))
        for res in _in_order(results):
            used = agg.add(res)
            compute_s += res.seconds
            if out_path is not None and used:
                x = res.ysum[:used] / n_seat
                _write_scores(out_path, res.index, res.start, x, labels)
            bar.update(used)
            if agg.sprt is not None:
                bar.set_postfix_str(_sprt_postfix(agg), refresh=False)
            if on_chunk is not None:
                on_chunk({"deals": agg.deals, "chunk": res.index,
                          "llr": [t.llr for t in agg.sprt] if agg.sprt else None})
            if agg.stopped:
                break
    finally:
        if bar is not None:
            bar.close()
        if results is not None:
            results.close()
        if executor is None:
            ex.close()
    wall = time.perf_counter() - t0

    summary: dict[str, Any] = {
        "deals": agg.deals,
        "deals_requested": deals,
        "seed": seed,
        "design": design,
        "rotations": _rotation_mode(rotations, rules.players),
        "seatings": [[labels[e] for e in row] for row in seat_arr],
        "players": rules.players,
        "play": play,
        "rules": rules.to_dict(),
        "confidence": confidence,
        **summarize(agg, entries, confidence),
        "thrown_in_rate": _r(_rate(agg.thrown, agg.deals * n_seat)),
        "sprt": None,
        "plays": agg.deals * n_seat,
        "wall_s": round(wall, 3),
        "compute_s": round(compute_s, 3),
        "plays_per_s": round(agg.deals * n_seat / wall, 1) if wall > 0 else None,
        "executor": description,
        "chunk_size": chunk_size,
        "version": __version__,
        "command": command,
    }
    if agg.sprt is not None:
        summary["sprt"] = {
            "h0": bounds[0], "h1": bounds[1], "alpha": SPRT_ALPHA, "beta": SPRT_BETA,
            "min_deals": SPRT_MIN_DEALS, "bounds": [agg.sprt[0].lower, agg.sprt[0].upper],
            "stopped": agg.stopped, "deals": agg.deals,
            "trace": {f"{labels[a]} vs {labels[b]}": [[n, round(v, 4)] for n, v in t.trace]
                      for (a, b), t in zip(agg.pairs, agg.sprt, strict=True)},
        }
    if out_path is not None:
        write_outputs(out_path, summary)
    return summary


def _sprt_postfix(agg: Aggregate) -> str:
    parts = []
    for t in agg.sprt or []:
        parts.append(t.decision if t.decision else f"{t.llr:+.2f}")
    return "llr " + " ".join(parts)


# --------------------------------------------------------------------------- outputs


def write_outputs(out: Path, summary: dict[str, Any]) -> list[Path]:
    """Write ``summary.json``, ``report.md`` and ``tournament.png`` into ``out``."""
    from .dataset import atomic_write_bytes

    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "summary.json", out / "report.md", out / "tournament.png"]
    atomic_write_bytes(paths[0], (json.dumps(summary, indent=1) + "\n").encode())
    atomic_write_bytes(paths[1], render_markdown(summary, chart="tournament.png").encode())
    atomic_write_bytes(paths[2], chart_png(summary))
    return paths


def _fmt(v: float | None, nd: int = 2) -> str:
    return "-" if v is None else f"{v:.{nd}f}"


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def _p(v: float | None) -> str:
    if v is None:
        return "-"
    if v == 0.0:
        return "< 1e-300"
    return f"{v:.2g}" if v < 0.001 else f"{v:.3f}"


def ranking_table(summary: dict[str, Any]) -> str:
    """Markdown table of the entries, best mean score first."""
    rows = sorted(summary["strategies"], key=lambda s: -(s["mean"] if s["mean"] is not None
                                                          else -math.inf))
    lines = [
        "| rank | strategy | mean score / deal | 95% CI | hit rate | zero bids | zeros made "
        "| over deals | hit over / under | over- / undertricks | declarer | mean level |",
        "|---:|---|---:|---|---:|---:|---:|---:|---|---|---:|---:|",
    ]
    for i, s in enumerate(rows, 1):
        lo, hi = s["ci"]
        lines.append(
            f"| {i} | `{s['name']}` | {_fmt(s['mean'])} | [{_fmt(lo)}, {_fmt(hi)}] "
            f"| {_pct(s['hit_rate'])} | {_pct(s['zero_rate'])} | {_pct(s['zero_success'])} "
            f"| {_pct(s['over_share'])} | {_pct(s['hit_rate_over'])} / "
            f"{_pct(s['hit_rate_under'])} | {_pct(s['overtrick_rate'])} / "
            f"{_pct(s['undertrick_rate'])} | {_pct(s['declarer_rate'])} "
            f"| {_fmt(s['mean_level'])} |"
        )
    return "\n".join(lines)


def pairs_table(summary: dict[str, Any]) -> str:
    """Markdown table of the pairwise differences (duplicate and independent CIs)."""
    lines = [
        "| a | b | diff (a - b) | 95% CI (duplicate) | p | 95% CI, as many independent deals "
        "| shrink | 95% CI, as many independent plays | shrink |",
        "|---|---|---:|---|---:|---|---:|---|---:|",
    ]

    def x(v: float | None) -> str:
        return "-" if v is None else f"{v:.2f}x"

    for p in summary["pairs"]:
        lo, hi = p["ci"]
        ilo, ihi = p["ci_independent"]
        plo, phi = p["ci_independent_plays"]
        lines.append(
            f"| `{p['a']}` | `{p['b']}` | {_fmt(p['diff'])} | [{_fmt(lo)}, {_fmt(hi)}] "
            f"| {_p(p['p'])} | [{_fmt(ilo)}, {_fmt(ihi)}] | {x(p['ci_shrink'])} "
            f"| [{_fmt(plo)}, {_fmt(phi)}] | {x(p['ci_shrink_plays'])} |"
        )
    return "\n".join(lines)


def render_markdown(summary: dict[str, Any], chart: str | None = None,
                    title: str = "Strategy tournament") -> str:
    """The Markdown report of a tournament summary."""
    n_seat = len(summary["seatings"])
    lines = [f"# {title}", ""]
    if summary.get("command"):
        lines += [f"Command: `{summary['command']}`", ""]
    lines += [
        f"- {summary['deals']:,} {summary['design']} deals (requested "
        f"{summary['deals_requested']:,}), each played under {n_seat} seatings "
        f"({summary['rotations']}): "
        f"{summary['plays']:,} plays; seed {summary['seed']}; play policy `{summary['play']}`;",
        f"- rules: {_rules_text(summary['rules'])}; thrown-in plays "
        f"{_pct(summary['thrown_in_rate'])};",
        f"- {summary['plays_per_s'] or 0:,.0f} plays/s on {summary['executor']} "
        f"({summary['wall_s']:.1f} s), whist-sim {summary['version']}.",
        "",
        "Mean score per deal = an entry's points per seat, averaged over its seats and the "
        "seatings of the deal; CI: Student t over deals. Rates are over the entry's seat-plays "
        "that were not thrown in.",
        "",
        ranking_table(summary),
        "",
        "## Pairwise differences",
        "",
        "Paired over deals (the same cards for both). For comparison, the intervals the same "
        "data would give without duplication (from the spread of the difference in single "
        "plays): with as many independent deals (each played once), and with as many independent "
        "plays (the same computing cost). *Shrink*: how many times narrower the duplicate "
        "interval is.",
        "",
        pairs_table(summary),
        "",
    ]
    if summary.get("sprt"):
        s = summary["sprt"]
        lines += [
            "## Sequential test",
            "",
            f"SPRT H0: diff = {s['h0']:g} vs H1: diff = {s['h1']:g} points per deal, alpha = "
            f"beta = {s['alpha']:g}, bounds {s['bounds'][0]:.3f} / {s['bounds'][1]:.3f}; "
            f"{'stopped' if s['stopped'] else 'not all decided'} after {s['deals']:,} deals.",
            "",
            "| a | b | decision | deals | LLR |",
            "|---|---|---|---:|---:|",
        ]
        for p in summary["pairs"]:
            t = p["sprt"]
            lines.append(f"| `{p['a']}` | `{p['b']}` | {t['decision'] or 'undecided'} "
                         f"| {t['deals']:,} | {t['llr']:.3f} |")
        lines.append("")
    if chart:
        lines += [f"![mean score and pairwise differences]({chart})", ""]
    return "\n".join(lines)


def _rules_text(rules: dict[str, Any]) -> str:
    default = Rules().to_dict()
    diff = {k: v for k, v in rules.items() if default.get(k) != v}
    if not diff:
        return "rule book defaults"
    return ", ".join(f"{k}={v}" for k, v in diff.items())


def chart_figure(summary: dict[str, Any], title: str | None = None):
    """Figure: mean score per entry with 95 % CI error bars, and the pairwise difference matrix."""
    from .reports.charts import new_figure

    ents = summary["strategies"]
    labels = [s["name"] for s in ents]
    k = len(labels)
    fig = new_figure(11.0, 4.4)
    ax1, ax2 = fig.subplots(1, 2, width_ratios=[1.1, 1.0])
    means = np.array([s["mean"] if s["mean"] is not None else np.nan for s in ents])
    lo = np.array([s["ci"][0] if s["ci"][0] is not None else np.nan for s in ents])
    hi = np.array([s["ci"][1] if s["ci"][1] is not None else np.nan for s in ents])
    err = np.nan_to_num(np.vstack([means - lo, hi - means]))
    y = np.arange(k)
    ax1.barh(y, means, xerr=err, capsize=3, color="#4c72b0", error_kw={"elinewidth": 1})
    ax1.set_yticks(y, labels)
    ax1.invert_yaxis()
    ax1.axvline(0, color="0.3", lw=0.8)
    ax1.set_xlabel("mean score per deal (points per seat)")
    ax1.set_title("Mean score, 95% CI")
    mat = np.full((k, k), np.nan)
    sig = np.zeros((k, k), dtype=bool)
    index = {n: i for i, n in enumerate(labels)}
    for p in summary["pairs"]:
        a, b = index[p["a"]], index[p["b"]]
        if p["diff"] is None:
            continue
        mat[a, b], mat[b, a] = p["diff"], -p["diff"]
        s = p["p"] is not None and p["p"] < 0.05
        sig[a, b] = sig[b, a] = s
    lim = np.nanmax(np.abs(mat)) if np.isfinite(mat).any() else 1.0
    lim = lim if lim > 0 else 1.0
    im = ax2.imshow(mat, cmap="RdBu", vmin=-lim, vmax=lim)
    ax2.set_xticks(range(k), labels, rotation=30, ha="right")
    ax2.set_yticks(range(k), labels)
    for i in range(k):
        for j in range(k):
            if np.isfinite(mat[i, j]):
                ax2.text(j, i, f"{mat[i, j]:+.1f}{'*' if sig[i, j] else ''}", ha="center",
                         va="center", fontsize=8,
                         color="white" if abs(mat[i, j]) > 0.6 * lim else "black")
    ax2.set_title("row minus column, points/deal (* p < 0.05)")
    fig.colorbar(im, ax=ax2, shrink=0.8)
    fig.suptitle(title or f"Tournament: {summary['deals']:,} {summary['design']} deals x "
                          f"{len(summary['seatings'])} seatings")
    return fig


def chart_png(summary: dict[str, Any], title: str | None = None) -> bytes:
    """:func:`chart_figure` as PNG bytes."""
    from .reports.charts import figure_png

    return figure_png(chart_figure(summary, title))


def load_scores(out: str | Path):
    """The per-deal scores of a tournament directory as a DataFrame (``deal`` + one column per
    entry, points per seat averaged over the seatings)."""
    import pandas as pd

    files = sorted((Path(out) / SCORES_DIR).glob("part-*.parquet"))
    if not files:
        raise TournamentError(f"no tournament scores in {Path(out) / SCORES_DIR}")
    return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)


__all__ = [
    "DESIGNS",
    "Aggregate",
    "ChunkResult",
    "Entry",
    "Sprt",
    "TournamentError",
    "TournamentTask",
    "chart_figure",
    "chart_png",
    "load_scores",
    "make_entries",
    "make_seatings",
    "paired_test",
    "parse_sprt",
    "render_markdown",
    "run_chunk",
    "summarize",
    "tournament",
    "write_outputs",
]
