"""Benchmark of the double-dummy solver (called by ``whist-sim bench``; tests run it only tiny).

:func:`run_bench` times single-threaded solves of random full 13-card deals (the whist objectives
under a node limit, reporting the share left unsolved) and of small endings
(and, when the optional ``endplay`` package with Bo Haglund's DDS is installed, the same bridge
solves by DDS) and returns plain numbers. Deals come from ``numpy.random.default_rng(seed)``, so a
run is reproducible; timings are wall-clock and noisy on a shared machine.
"""

from __future__ import annotations

import time
from statistics import median

import numpy as np

from ...core.cards import format_hand
from ...dd.bruteforce import brute_force, clear_cache
from ...dd.positions import random_positions
from ...dd.solver import UNSOLVED, solve_batch


def _time_one(hands, trump, leader, objective, seat, i) -> float:
    """Milliseconds to solve row ``i`` alone (a fresh table generation per deal)."""
    t0 = time.perf_counter()
    solve_batch(hands[i : i + 1], trump[i], leader[i], objective, seat[i], threads=1)
    return (time.perf_counter() - t0) * 1000.0


def _dds_timer():
    """A function timing DDS's solve of row ``i`` (milliseconds), or None without ``endplay``."""
    try:
        from endplay.dds import analyse_start
        from endplay.types import Deal, Denom, Player
    except ImportError:
        return None
    denoms = [Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt]
    players = [Player.north, Player.east, Player.south, Player.west]

    def dds_ms(hands, trump, leader, i) -> float:
        pbn = "N:" + " ".join(format_hand(int(h)) for h in hands[i])
        deal = Deal(pbn, first=players[int(leader[i])], trump=denoms[int(trump[i])])
        t0 = time.perf_counter()
        analyse_start(deal)
        return (time.perf_counter() - t0) * 1000.0

    return dds_ms


def _limited(hands, trump, leader, objective, seat, node_limit: int) -> tuple[list[float], int]:
    """(milliseconds per row, rows left unsolved) under a node limit, one row at a time."""
    times = []
    unsolved = 0
    for i in range(len(hands)):
        t0 = time.perf_counter()
        v = solve_batch(hands[i : i + 1], trump[i], leader[i], objective, seat[i], threads=1,
                        node_limit=node_limit)
        times.append((time.perf_counter() - t0) * 1000.0)
        unsolved += int(np.ravel(v[0])[0] == UNSOLVED)  # whist-exact: a row of 14
    return times, unsolved


def _batch_whist_max(rng, deals: int, threads: int, node_limit: int,
                     dds_ms=None) -> tuple[float, float, float, float | None]:
    """(seconds, share unsolved, mean ``hi - lo`` of the unsolved rows (0 if none), DDS seconds)
    of whist-max for ``deals`` random deals x 4 seats in one ``solve_batch`` call on ``threads``
    threads (the four seats of a deal share a table).

    With a DDS timer (``_dds_timer``), the last figure is the single-threaded time DDS takes for
    one bridge solve of each of the same deals (same trump and leader), timed after the batch;
    else None."""
    deal_hands = random_positions(rng, deals, 13)
    deal_trump = rng.integers(0, 5, deals).astype(np.int8)
    deal_leader = rng.integers(0, 4, deals).astype(np.int8)
    hands = np.repeat(deal_hands, 4, axis=0)
    trump = np.repeat(deal_trump, 4)
    leader = np.repeat(deal_leader, 4)
    seat = np.tile(np.arange(4, dtype=np.int8), deals)
    t0 = time.perf_counter()
    v, lo, hi = solve_batch(hands, trump, leader, "whist-max", seat, threads=threads,
                            node_limit=node_limit, return_bounds=True)
    sec = time.perf_counter() - t0
    unsolved = v == UNSOLVED
    width = float(np.mean(hi[unsolved] - lo[unsolved])) if unsolved.any() else 0.0
    dds_sec = None
    if dds_ms is not None:
        dds_sec = sum(dds_ms(deal_hands, deal_trump, deal_leader, i) for i in range(deals)) / 1e3
    return sec, float(np.mean(unsolved)), width, dds_sec


def run_bench(
    deals: int = 20,
    endings: int = 20,
    ending_cards: int = 4,
    seed: int = 1,
    node_limit: int = 1_000_000,
    batch_deals: int = 100,
    threads: int = 2,
) -> dict:
    """Time the solver; returns a flat dict of floats (milliseconds per solve, single thread).

    * ``dd_bridge_median_ms`` / ``_mean_ms``: one bridge solve (tricks of a partnership for one
      strain and leader) of a random full deal, without a node limit;
    * ``dd_whist_max_*``, ``dd_whist_min_*`` and ``dd_whist_exact_*``: one whist-max / whist-min /
      whist-exact solve (one seat against three) of the same deals under ``node_limit`` card plays
      (their unlimited times have a tail of minutes): median and mean milliseconds, and the share
      of solves left unsolved (whist-exact needs whist-min only up to whist-max, so it is decided
      far more often than whist-min);
    * ``dd_whist_max_100k_x4_hours``: what 100,000 deals x 4 seats of whist-max would take on two
      threads at that mean (a projection from single-seat solves, each with a fresh table);
    * ``dd_whist_max_batch_100k_x4_hours`` and ``dd_whist_max_batch_unsolved_share``: the
      yardstick measured as it would run: ``batch_deals`` other random deals x 4 seats in one
      ``solve_batch`` call on ``threads`` threads (a deal's seats sharing a table), scaled to
      100,000 deals; ``dd_whist_max_batch_unsolved_mean_range``: how far apart the proved bounds
      of its unsolved rows are on average (``hi - lo`` tricks; 0 when every row is solved);
    * ``dd_ending_median_ms`` and ``dd_bruteforce_ending_ms``: every objective of an ending of
      ``ending_cards`` cards per hand, by the solver and by the plain-Python brute force;
    * ``dds_bridge_median_ms`` / ``_mean_ms`` and ``dd_bridge_vs_dds``: the same bridge solves by
      DDS, when ``endplay`` is installed, each timed right after this solver's (the ratio of the
      two medians); ``dd_bridge_vs_dds_by_row``: the median of the per-deal ratios;
    * ``dds_bridge_batch_100k_x4_hours`` (with ``endplay``): the whist-max yardstick's size in DDS
      terms: 400,000 bridge solves by DDS of the batch's deals (one strain and leader, each deal
      timed once single-threaded and counted four times) spread over ``threads`` threads, and
      ``dd_whist_max_batch_vs_dds_bridge``: the whist-max batch's time over that (below 1: the
      four whist-max seats of a deal cost less than four DDS bridge solves of it).

    The first call compiles the kernels (or loads them from the numba cache); that warm-up is not
    timed.
    """
    rng = np.random.default_rng(seed)
    hands = random_positions(rng, deals, 13)
    trump = rng.integers(0, 5, deals).astype(np.int8)
    leader = rng.integers(0, 4, deals).astype(np.int8)
    seat = rng.integers(0, 4, deals).astype(np.int8)
    # warm-up: compile or load every kernel once
    small = random_positions(rng, 1, 2)
    for obj in ("bridge", "whist-max", "whist-min", "whist-exact"):
        solve_batch(small, 4, 0, obj, 0, threads=1)

    out: dict[str, float] = {"dd_deals": float(deals), "dd_node_limit": float(node_limit)}
    # bridge, each deal solved by DDS right after this solver when endplay is installed: on a
    # shared machine whose speed drifts, timing the two side by side keeps their ratio honest
    dds_ms = _dds_timer()
    declarer = (leader + 3) % 4
    bridge, dds = [], []
    for i in range(deals):
        bridge.append(_time_one(hands, trump, leader, "bridge", declarer, i))
        if dds_ms is not None:
            dds.append(dds_ms(hands, trump, leader, i))
    out["dd_bridge_median_ms"] = median(bridge)
    out["dd_bridge_mean_ms"] = float(np.mean(bridge))
    for objective in ("whist-max", "whist-min", "whist-exact"):
        tag = objective.replace("-", "_")
        times, unsolved = _limited(hands, trump, leader, objective, seat, node_limit)
        out[f"dd_{tag}_median_ms"] = median(times)
        out[f"dd_{tag}_mean_ms"] = float(np.mean(times))
        out[f"dd_{tag}_unsolved_share"] = unsolved / max(deals, 1)
    out["dd_whist_max_100k_x4_hours"] = out["dd_whist_max_mean_ms"] * 400_000 / 2 / 3.6e6
    if batch_deals > 0:
        sec, share, width, dds_sec = _batch_whist_max(rng, batch_deals, threads, node_limit,
                                                      dds_ms)
        out["dd_whist_max_batch_deals"] = float(batch_deals)
        out["dd_whist_max_batch_100k_x4_hours"] = sec * 100_000 / batch_deals / 3600.0
        out["dd_whist_max_batch_unsolved_share"] = share
        out["dd_whist_max_batch_unsolved_mean_range"] = width
        if dds_sec is not None:
            # the yardstick in DDS's terms, on the same deals and in the same run: 400,000 bridge
            # solves by DDS (one per seat of each deal, at its mean) spread over the same threads
            dds_hours = dds_sec * 4 * 100_000 / batch_deals / threads / 3600.0
            out["dds_bridge_batch_100k_x4_hours"] = dds_hours
            out["dd_whist_max_batch_vs_dds_bridge"] = (
                out["dd_whist_max_batch_100k_x4_hours"] / max(dds_hours, 1e-12))

    ends = random_positions(rng, endings, ending_cards)
    et = rng.integers(0, 5, endings).astype(np.int8)
    el = rng.integers(0, 4, endings).astype(np.int8)
    solver_ms = []
    brute_ms = []
    for i in range(endings):
        t0 = time.perf_counter()
        for obj in ("bridge", "whist-max", "whist-min", "whist-exact"):
            for s in range(4):
                solve_batch(ends[i : i + 1], et[i], el[i], obj, s, threads=1)
        solver_ms.append((time.perf_counter() - t0) * 1000.0)
        clear_cache()
        t0 = time.perf_counter()
        brute_force([int(h) for h in ends[i]], int(et[i]), int(el[i]))
        brute_ms.append((time.perf_counter() - t0) * 1000.0)
    clear_cache()
    out["dd_ending_cards"] = float(ending_cards)
    out["dd_ending_median_ms"] = median(solver_ms)
    out["dd_bruteforce_ending_ms"] = median(brute_ms)

    if dds:
        out["dds_bridge_median_ms"] = median(dds)
        out["dds_bridge_mean_ms"] = float(np.mean(dds))
        ratio = out["dd_bridge_median_ms"] / max(out["dds_bridge_median_ms"], 1e-9)
        out["dd_bridge_vs_dds"] = ratio
        by_row = np.array(bridge) / np.maximum(np.array(dds), 1e-9)
        out["dd_bridge_vs_dds_by_row"] = float(np.median(by_row))
    return out
