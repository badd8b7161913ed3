"""The tournament runner: check the options, play the chunks on an executor, summarise, write.

Conventions:

* :func:`tournament` is the one entry point (the CLI and scripts call it); options are checked
  before anything runs and bad ones raise
  :class:`~whist_sim.analyses.tournament.schedule.TournamentError`.
* Chunks run on local threads or a Dask cluster (:mod:`whist_sim.runs.executors`) and are taken in
  deal order, so every number (the SPRT's stopping point included) depends only on the options,
  never on chunk size, threads or workers.
* The SPRT (:class:`whist_sim.core.stats.Sprt`) runs with ``alpha = beta =`` :data:`SPRT_ALPHA` and
  decides only after :data:`SPRT_MIN_DEALS` deals; the run stops once every pair is decided.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...compiled.strategies.spec import StrategyError, StrategySpec, check_play
from ...core.rng import MAX_DEALS
from ...core.rules import Rules
from ...core.stats import SPRT_ALPHA, SPRT_BETA, SPRT_MIN_N, Sprt, rate
from ...core.version import __version__
from ...runs.checkpoint import MANIFEST, CheckpointError, ChunkStore
from ...runs.dataset import min_chunk_size, too_many_chunks
from ...runs.executors import Executor, check_executor_options, make_executor
from ...runs.lock import FolderLockError, folder_lock
from . import checkpoint as ck
from .games import play_games, ranking_agreement
from .options import TournamentOptions
from .ranking_check import games_check
from .render import parse_output_formats, write_outputs
from .results import SCORES_DIR, Aggregate, r4, summarize, write_scores
from .schedule import (
    DESIGNS,
    MAX_SEED,
    PLAYS_PER_CHUNK,
    ChunkResult,
    TournamentError,
    TournamentTask,
    in_order,
    make_entries,
    make_seatings,
    rotation_mode,
    run_chunk,
)

SPRT_MIN_DEALS = SPRT_MIN_N  # the SPRT decides only after this many deals (variance estimate)

__all__ = ["SPRT_ALPHA", "SPRT_BETA", "SPRT_MIN_DEALS", "parse_sprt", "tournament"]


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
    try:
        Sprt(vals[0], vals[1])  # validates
    except ValueError as e:
        raise TournamentError(str(e)) from None
    return vals[0], vals[1]


def _check_out(out: Path) -> None:
    from ...runs.dataset import LOCK_NAME

    if out.exists() and not out.is_dir():
        raise TournamentError(f"output {out} exists and is not a directory")
    if out.exists() and any(p.name != LOCK_NAME for p in out.iterdir()):
        raise TournamentError(f"output directory {out} is not empty; choose a new or empty one")


def _checkpoint(out: Path, task: TournamentTask, sprt: Any, total: int, n_ent: int,
                resume: bool) -> tuple[ChunkStore, dict[int, ChunkResult]]:
    """The store of finished chunks in ``out`` and the chunks read back from it (``resume``): a
    new run needs a new or empty folder; a resumed one the same options as the run in it."""
    from ...runs.dataset import chunk_bounds

    folder = out / ck.CHUNKS_DIR
    if not resume or not folder.is_dir():
        if out.exists() and (out / ck.CHUNKS_DIR / MANIFEST).is_file() and not resume:
            raise TournamentError(f"output directory {out} holds an unfinished or finished "
                                  "tournament; pass --resume to finish it, or choose a new "
                                  "directory")
        _check_out(out)
    try:
        store = ChunkStore(folder, ck.identity(task, sprt, _engine()), resume)
    except CheckpointError as e:
        raise TournamentError(str(e)) from None
    if resume:  # leftovers of a killed run's atomic writes (this run holds the folder's lock)
        from ...runs.dataset import remove_temp_files

        for where in (out, out / SCORES_DIR):
            remove_temp_files(where)
    saved = {}
    for i in range(total):
        start, count = chunk_bounds(i, task.deals, task.chunk_size)
        r = ck.load_chunk(store, i, start, count, n_ent)
        if r is not None:
            saved[i] = r
    return store, saved


def _engine() -> str:
    from ...compiled.ground._numba import engine_fingerprint

    return engine_fingerprint()


def tournament(
    *args: Any,
    options: TournamentOptions | None = None,
    progress: bool = True,
    command: str | None = None,
    on_chunk: Callable[[dict[str, Any]], None] | None = None,
    progress_label: str = "tournament",
    **fields: Any,
) -> dict[str, Any]:
    """Play a duplicate tournament and return its summary (a JSON-able dict).

    Call it with a :class:`~whist_sim.analyses.tournament.options.TournamentOptions`
    (``options=``) or with its fields: ``tournament(strategies, deals, seed, rules=..., ...)``.

    Parameters
    ----------
    strategies: 2..P entrants, each a bidding strategy spec (``"hcp"``, ``"montecarlo:n=16"``,
        or :class:`StrategySpec`) that plays ``play``, or a seat ``BID/PLAY`` with its own play
        policy (``"heuristic/random"``); a comma-separated string is split. The same spec may
        appear twice.
    deals: duplicate deals to play (>= 1); each is played once per seating. 0 with ``games``: a
        tournament of games only (the summary's per-deal statistics are then empty).
    seed: run seed, 0..2**64-1; duplicate deal ``i`` uses the random stream ``(seed, i)``.
    rules: rule options (default ``Rules()``).
    play: play policy spec of the entrants given as ``BID`` alone (default
        :data:`~whist_sim.compiled.strategies.registry.DEFAULT_PLAY`, ``learned``).
    rotations: ``"all"`` seatings or the P rotations (``"rotate"`` or P); see the package doc.
    sprt: ``(A, B)`` or ``"A,B"``: stop as soon as the SPRT of every pair decides (package doc).
    out: directory (new or empty) for ``scores/*.parquet``, ``summary.json``, ``report.md``,
        ``tournament.png``, and the finished chunks
        (:mod:`whist_sim.analyses.tournament.checkpoint`); ``None`` writes nothing.
    resume: finish the interrupted run in ``out`` (the same options required): its sound chunks
        are read back, the others played; the summary is that of an uninterrupted run.
    design: ``"duplicate"`` or ``"independent"`` (fresh cards for every play).
    chunk_size: deals per task (default: about 240,000 plays per task).
    threads, scheduler, cluster, executor: where chunks run (:func:`whist_sim.runs.executors.
        make_executor`; default: every local CPU).
    progress: tqdm bar on stderr (deals, with the SPRT log-likelihood ratio), labelled
        ``progress_label`` (the check's: ``check``).
    confidence: coverage of the intervals (0.95).
    command: the command line, recorded in the summary and report.
    on_chunk: called with a small progress dict after every chunk taken (in deal order).
    formats: outputs besides ``summary.json`` with ``out``: ``md`` (``report.md`` and
        ``tournament.png``, the default), ``csv`` (``tables/*.csv``), ``html`` (``report.html``).
    games: also play this many duplicate games to ``rules.target`` under every seating
        (:mod:`whist_sim.analyses.tournament.games`): the summary's ``games`` section gives each
        entry's probability of winning a game and mean final margin with intervals, and whether the
        ranking by games won agrees with the ranking by points per deal.
    game_max_deals: a game not ended after this many deals counts as won by nobody.
    check: a play policy spec (e.g. :data:`whist_sim.analyses.answer_check.DEFAULT_CHECK_PLAY`):
        play the first ``check_deals`` deals again (default
        :func:`~whist_sim.analyses.tournament.ranking_check.tournament_check_deals` of the deals
        played: sized for power, capped at three times the tournament's cost), every entrant
        given as ``BID`` alone playing ``check``, and add the summary's ``check`` object
        (:func:`~whist_sim.analyses.tournament.ranking_check.compare_check`: the ranking and
        every pair's difference under both plays, with their verdicts). ``None``: no check.

    Returns the summary: ``deals`` (played), ``strategies`` (per entry: ``name``, ``mean``,
    ``ci``, ``hit_rate``, ...), ``pairs`` (``a``, ``b``, ``diff`` = mean of a minus b, ``ci``,
    ``p``, ``ci_independent``, ``ci_shrink``, ``sprt``), ``sprt``, ``seatings``, timings.
    """
    if options is None:
        options = TournamentOptions.of(args, fields)
    elif args or fields:
        raise TypeError("tournament(): give the options object or its fields, not both")
    o = options
    strategies, deals, seed, rules, play = o.strategies, o.deals, o.seed, o.rules, o.play
    rotations, sprt, out, design, chunk_size = o.rotations, o.sprt, o.out, o.design, o.chunk_size
    threads, scheduler, cluster, executor = o.threads, o.scheduler, o.cluster, o.executor
    confidence, formats, games, game_max_deals = o.confidence, o.formats, o.games, o.game_max_deals
    resume, check, check_deals = o.resume, o.check, o.check_deals
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TournamentError(f"rules must be a Rules object, got {type(rules).__name__}")
    try:
        play = check_play(play)
        entries = make_entries(strategies, rules.players, play)
    except StrategyError as e:
        raise TournamentError(str(e)) from None
    games = _check_int("games", games, 0)
    deals = _check_int("deals", deals, 0 if games else 1, MAX_DEALS)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    game_max_deals = _check_int("game max deals", game_max_deals, 1)
    if check is not None:
        try:
            check = check_play(check)
        except StrategyError as e:
            raise TournamentError(f"check: {e}") from None
        if check_deals is not None:
            check_deals = _check_int("check deals", check_deals, 1, MAX_DEALS)
    if design not in DESIGNS:
        raise TournamentError(f"design must be one of {', '.join(DESIGNS)}, got {design!r}")
    seat_arr = make_seatings(len(entries), rules.players, rotations)
    n_seat = seat_arr.shape[0]
    bounds = parse_sprt(sprt)
    if chunk_size is None:  # smaller tasks with an SPRT: it may stop early
        per_chunk = PLAYS_PER_CHUNK // 10 if bounds is not None else PLAYS_PER_CHUNK
        # 1 for a games-only tournament; larger when a huge run would exceed MAX_CHUNKS
        chunk_size = max(1, min(deals, per_chunk // n_seat), min_chunk_size(deals))
    chunk_size = _check_int("chunk size", chunk_size, 1)
    problem = too_many_chunks(deals, chunk_size)
    if problem is not None:  # refused before a list of its chunks is made
        raise TournamentError(problem)
    if design == "independent" and (deals * n_seat) > (1 << 62):
        raise TournamentError("too many deals for the independent design")
    if executor is not None and (scheduler is not None or cluster is not None):
        raise TournamentError("give an executor, or a scheduler / cluster, not both")
    check_executor_options(threads=threads, scheduler=scheduler, cluster=cluster)
    formats = parse_output_formats(formats)
    out_path = Path(out).expanduser().resolve() if out is not None else None
    if resume and out_path is None:
        raise TournamentError("resume needs the output directory (out) of the run to finish")

    with contextlib.ExitStack() as held:
        if out_path is not None:
            # one writer per folder: a second run (a --resume started meanwhile) is refused
            try:
                held.enter_context(folder_lock(out_path, "whist-sim tournament", create=True))
            except FolderLockError as e:
                raise TournamentError(str(e)) from None
        from tqdm.auto import tqdm

        from ...runs.dataset import n_chunks

        task = TournamentTask(
            seed, deals, chunk_size, rules, tuple(e.spec for e in entries), play,
            tuple(tuple(int(v) for v in row) for row in seat_arr), design == "independent",
            tuple(e.play_spec for e in entries),
        )
        labels = [e.label for e in entries]
        agg = Aggregate(len(entries), n_seat, bounds)
        total = n_chunks(deals, chunk_size)
        store, saved = (None, {}) if out_path is None else _checkpoint(
            out_path, task, bounds, total, len(entries), resume)
        t0 = time.perf_counter()
        compute_s = 0.0
        ex = executor if executor is not None else make_executor(threads, scheduler, cluster)
        description = ex.description
        bar = None
        results = None
        status = "interrupted"
        try:
            if out_path is not None:
                (out_path / SCORES_DIR).mkdir(parents=True, exist_ok=True)
            bar = tqdm(total=deals, unit="deal", unit_scale=True, smoothing=0.05,
                       disable=not progress, desc=progress_label, dynamic_ncols=True)
            todo = [i for i in range(total) if i not in saved]
            results = ex.map_unordered(functools.partial(run_chunk, task), todo)

            def arrivals() -> Iterator[tuple[int, ChunkResult]]:
                """The chunks read back, then each played one as it finishes (kept at once)."""
                yield from saved.items()
                for index, res in results:
                    if store is not None:
                        ck.save_chunk(store, res)
                    yield index, res

            for res in in_order(arrivals()) if total else ():
                used = agg.add(res)
                compute_s += res.seconds
                if out_path is not None and used:
                    x = res.ysum[:used] / n_seat
                    write_scores(out_path, res.index, res.start, x, labels)
                bar.update(used)
                if agg.sprt is not None:
                    bar.set_postfix_str(_sprt_postfix(agg), refresh=False)
                if on_chunk is not None:
                    on_chunk({"deals": agg.deals, "chunk": res.index,
                              "llr": [t.llr for t in agg.sprt] if agg.sprt else None})
                if agg.stopped:
                    break
            status = "complete"
        finally:
            if bar is not None:
                bar.close()
            if results is not None:
                results.close()
            if executor is None:
                ex.close()
            if store is not None:
                store.finish(status)
        wall = time.perf_counter() - t0

        summary: dict[str, Any] = {
            "deals": agg.deals,
            "deals_requested": deals,
            "seed": seed,
            "design": design,
            "rotations": rotation_mode(rotations, rules.players),
            "seatings": [[labels[e] for e in row] for row in seat_arr],
            "players": rules.players,
            "play": play,
            "rules": rules.to_dict(),
            "confidence": confidence,
            **summarize(agg, entries, confidence),
            "thrown_in_rate": r4(rate(agg.thrown, agg.deals * n_seat)),
            "sprt": None,
            "plays": agg.deals * n_seat,
            "wall_s": round(wall, 3),
            "compute_s": round(compute_s, 3),
            "plays_per_s": round(agg.deals * n_seat / wall, 1) if wall > 0 else None,
            "executor": description,
            "chunk_size": chunk_size,
            "version": __version__,
            "engine": _engine(),
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
        if check is not None:
            summary["check"] = _check(strategies, summary, check, check_deals, rules,
                                      rotations, design, threads, ex if executor is not None
                                      else None, scheduler, cluster, progress, confidence)
        if games:
            t1 = time.perf_counter()
            summary["games"] = play_games(entries, seat_arr, rules, seed, games, game_max_deals,
                                          confidence)
            summary["games"]["wall_s"] = round(time.perf_counter() - t1, 3)
            summary["games"]["ranking"] = ranking_agreement(summary) if agg.deals else None
            summary["games"]["check"] = games_check(summary)
        if out_path is not None:
            write_outputs(out_path, summary, formats)
        return summary


def _check(strategies: Sequence[str | StrategySpec] | str, summary: dict[str, Any], play: str,
           deals: int | None, rules: Rules, rotations: str | int, design: str,
           threads: int | None, executor: Executor | None, scheduler: str | None,
           cluster: str | None, progress: bool, confidence: float) -> dict[str, Any]:
    """The summary's ``check`` object: the tournament's first deals again with ``play`` for
    the entrants given as ``BID`` alone (:mod:`whist_sim.analyses.tournament.ranking_check`)."""
    from ...compiled.strategies.spec import parse_seat
    from .ranking_check import compare_check, tournament_check_deals

    nothing = {"play": play, "deals": 0, "holds": True, "ranking_changes": False,
               "checked": False, "verdict": None, "verdict_why": None, "detectable": None}
    if not summary["deals"]:
        return {**nothing, "note": "a tournament of games only has no ranking per deal to check"}

    items = strategies.split(",") if isinstance(strategies, str) else list(strategies)
    if summary["play"] == play or all(parse_seat(s)[1] is not None for s in items):
        return {**nothing, "note": f"every entrant plays its own play policy, or {play} "
                                   "already"}
    m = min(summary["deals"], tournament_check_deals(summary["deals"], summary)
            if deals is None else deals)
    t0 = time.perf_counter()
    checked = tournament(strategies, m, summary["seed"], rules=rules, play=play,
                         rotations=rotations, design=design, threads=threads,
                         executor=executor, scheduler=scheduler, cluster=cluster,
                         progress=progress, confidence=confidence, progress_label="check")
    out = compare_check(summary, checked, play)
    out["wall_s"] = round(time.perf_counter() - t0, 3)
    return out


def _sprt_postfix(agg: Aggregate) -> str:
    parts = []
    for t in agg.sprt or []:
        parts.append(t.decision if t.decision else f"{t.llr:+.2f}")
    return "llr " + " ".join(parts)
