"""Python layer of the double-dummy solver: validation, threads, tables of results.

Every function takes hands as four ``uint64``-style masks by seat (docs/ENGINE.md §1), all of the
same size (a position at a trick boundary: 13 cards each for a full deal, fewer for an ending).
Trump is ``0..3`` (C, D, H, S) or ``4`` (no-trump); seats are ``0..3`` clockwise; results count
tricks of the remaining play (``0..cards per hand``). See docs/DD.md for the objectives.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from ..compiled.ground._cache import compile_lock
from ..compiled.ground._numba import compile_notice
from ..core.cards import STRAINS, card_str, cards_of
from . import objectives, search

OBJECTIVES = ("bridge", "whist-max", "whist-min", "whist-exact")
_OBJ_CODE = {
    "bridge": objectives.OBJ_BRIDGE,
    "whist-max": objectives.OBJ_WHIST_MAX,
    "whist-min": objectives.OBJ_WHIST_MIN,
    "whist-exact": objectives.OBJ_WHIST_EXACT,
}
MAX_TRICKS = 13
UNSOLVED = search.UNSOLVED  # a row left unsolved by ``node_limit``
# Which rows fit a node limit depends on how many card plays the search spends, which any change
# to the search (move ordering, bounds, table) alters. Bump this number with every such change:
# datasets record it, and ``simulate --resume`` refuses to mix the work of two versions.
SOLVER_VERSION = 22
CHUNKS_PER_THREAD = 32  # tasks per thread of solve_batch (load balance; see there)
DEFAULT_TT_BITS = 20  # 2**20 entries per thread: about 50 MB

# more ``search.ST_FLAGS`` bits, for tests only (bit 1: no probing of p's leads in whist-max)
_TEST_FLAGS = 0

_local = threading.local()


class DDError(ValueError):
    """Bad input to the double-dummy solver (the message names the problem)."""


def _tables(tt_bits: int):
    """This thread's transposition tables (allocated once per thread and size, then reused)."""
    cache = getattr(_local, "tables", None)
    if cache is None:
        cache = _local.tables = {}
    if tt_bits not in cache:
        cache[tt_bits] = search.new_tables(tt_bits)
    return cache[tt_bits]


# --------------------------------------------------------------------------- validation


def _as_hands(hands) -> np.ndarray:
    arr = np.asarray(hands)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise DDError(f"hands must have shape (n, 4) (four hands by seat), got {arr.shape}")
    if arr.dtype.kind not in "ui":
        raise DDError(f"hands must be integer bit masks, got dtype {arr.dtype}")
    if arr.dtype.kind == "i" and (arr < 0).any():
        raise DDError("hands must be non-negative bit masks")
    arr = arr.astype(np.uint64)
    if (arr >> np.uint64(52)).any():
        raise DDError("a hand mask has bits outside the 52 cards")
    return np.ascontiguousarray(arr)


def _popcount(arr: np.ndarray) -> np.ndarray:
    """Bits set in each ``uint64`` of ``arr`` (int64, same shape); works on numpy 1.26 and 2.x."""
    bits = np.unpackbits(np.ascontiguousarray(arr, dtype=np.uint64).view(np.uint8))
    return bits.reshape(*arr.shape, 64).sum(axis=-1, dtype=np.int64)


def _check_positions(arr: np.ndarray) -> None:
    sizes = _popcount(arr)
    bad = np.flatnonzero((sizes != sizes[:, :1]).any(axis=1))
    if bad.size:
        i = int(bad[0])
        raise DDError(
            f"row {i}: the four hands must hold the same number of cards (a trick boundary), "
            f"got {sizes[i].tolist()}"
        )
    if (sizes[:, 0] > MAX_TRICKS).any():
        i = int(np.flatnonzero(sizes[:, 0] > MAX_TRICKS)[0])
        raise DDError(f"row {i}: hands of {sizes[i, 0]} cards; at most {MAX_TRICKS}")
    union = arr[:, 0] | arr[:, 1] | arr[:, 2] | arr[:, 3]
    overlap = _popcount(union) != sizes.sum(axis=1)
    if overlap.any():
        i = int(np.flatnonzero(overlap)[0])
        row = [int(x) for x in arr[i]]
        dup = 0
        seen = 0
        for h in row:
            dup |= seen & h
            seen |= h
        cards = " ".join(card_str(c) for c in cards_of(dup))
        raise DDError(f"row {i}: card(s) {cards} held by two seats")


def _per_row(value, n: int, name: str, lo: int, hi: int) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype.kind not in "ui" and not (arr.dtype.kind == "b"):
        raise DDError(f"{name} must be whole numbers in {lo}..{hi}, got dtype {arr.dtype}")
    arr = np.broadcast_to(arr.astype(np.int64), (n,)) if arr.ndim == 0 else arr.astype(np.int64)
    if arr.shape != (n,):
        raise DDError(f"{name} must be one value or one per deal ({n}), got shape {arr.shape}")
    if arr.size and (arr.min() < lo or arr.max() > hi):
        bad = arr[(arr < lo) | (arr > hi)][0]
        raise DDError(f"{name} {bad} is not in {lo}..{hi}")
    return np.ascontiguousarray(arr.astype(np.int8))


# --------------------------------------------------------------------------- batch API


#: one thread of this process at a time loads or compiles the solver
_COMPILE = threading.Lock()


def _ready(args: tuple) -> None:
    """Load the solver for the types of ``args`` from numba's cache, or compile it, before its
    first call in this process, under the cache folder's compile lock
    (:func:`~whist_sim.compiled.ground._cache.compile_lock`): of several processes that start
    at once (test workers, cluster workers) one compiles it and the others wait for it, said as
    a compile, and load it."""
    solve = objectives.solve_rows
    if solve.signatures:
        return
    with _COMPILE:
        if not solve.signatures:
            with compile_lock("dd-solver"):
                solve.compile(tuple(numba.typeof(a) for a in args))


def _run_chunk(
    hands, trump, leader, seat, code, out, out_lo, out_hi, out_exact, tt_bits, exact_keys,
    node_limit,
) -> None:
    table, stats = _tables(tt_bits)
    stats[search.ST_FLAGS] = (1 if exact_keys else 0) | _TEST_FLAGS
    stats[search.ST_LIMIT] = node_limit
    args = (hands, trump, leader, seat, code, out, out_lo, out_hi, out_exact, table, stats)
    _ready(args)
    objectives.solve_rows(*args)


def solve_batch(
    hands,
    trump,
    leader,
    objective: str,
    seat=0,
    *,
    threads: int | None = None,
    tt_bits: int = DEFAULT_TT_BITS,
    exact_keys: bool = False,
    node_limit: int | None = None,
    return_bounds: bool = False,
):
    """Solve many positions double dummy, in parallel threads, for one objective.

    Parameters
    ----------
    hands: ``uint64[n, 4]``, the hand masks of seats 0..3 (same number of cards each, at most 13).
    trump: ``int8[n]`` or one int: 0..3 = C, D, H, S; 4 = no-trump.
    leader: ``int8[n]`` or one int: the seat that leads to the first (remaining) trick.
    objective: ``"bridge"`` (tricks of the partnership ``seat`` + ``seat+2``), ``"whist-max"`` (the
        most tricks ``seat`` can guarantee against the other three), ``"whist-min"`` (the fewest
        tricks ``seat`` can hold himself to when the other three push tricks on him) or
        ``"whist-exact"``.
    seat: ``int8[n]`` or one int, the seat the objective is about.
    threads: worker threads (default: the CPU count); each keeps its own tables.
    tt_bits: log2 of the transposition-table entries per thread.
    exact_keys: store each proof for its exact position only, not for the pattern of the cards
        that mattered (slower; the tests compare both ways).
    node_limit: give up on a row once its searches have tried this many card plays (about 10
        million per second on one core) and report it as ``UNSOLVED`` (-1) instead of a number.
        ``None`` (default): no limit, every row is solved however long it takes. Whether a row
        is solved within the limit depends only on the rows of its group (see below), never on
        threads or chunking.
    return_bounds: also return the bounds proved on each row's tricks (see Returns).

    Returns
    -------
    ``int8[n]`` tricks (``UNSOLVED`` = -1 for a row over ``node_limit``), or for ``"whist-exact"``
    an ``[n, 14]`` array whose entry ``[i, k]`` tells whether ``seat`` can make exactly ``k`` tricks
    of the remaining ones against the other three: ``bool`` without ``node_limit``; ``int8`` (1, 0,
    or -1 in every column of an unsolved row) with it. With ``return_bounds=True``: a tuple
    ``(result, lo, hi)`` where ``lo``/``hi`` (``int8[n]``) bound the true number of tricks; they are
    equal to the result on a solved row, and on an unsolved one they say how far the search got
    (for whist-exact: bounds on whist-max).

    Rows that repeat the previous row's hands and trump (a *group*) share the transposition table,
    so order a table of strains x leaders (or the seats of one deal) as consecutive rows. Threads
    take whole groups, so results never depend on the number of threads.
    """
    if objective not in _OBJ_CODE:
        raise DDError(f"unknown objective {objective!r}; use one of {', '.join(OBJECTIVES)}")
    if not isinstance(tt_bits, int) or not 10 <= tt_bits <= 26:
        raise DDError(f"tt_bits must be a whole number in 10..26, got {tt_bits!r}")
    arr = _as_hands(hands)
    n = arr.shape[0]
    _check_positions(arr)
    tr = _per_row(trump, n, "trump", 0, 4)
    ld = _per_row(leader, n, "leader", 0, 3)
    st = _per_row(seat, n, "seat", 0, 3)
    code = _OBJ_CODE[objective]
    if node_limit is None:
        limit = 0
    elif isinstance(node_limit, int | np.integer) and not isinstance(node_limit, bool) \
            and node_limit >= 1:
        limit = int(node_limit)
    else:
        raise DDError(f"node_limit must be a whole number >= 1 or None, got {node_limit!r}")
    out = np.zeros(n, np.int8)
    out_lo = np.zeros(n, np.int8)
    out_hi = np.zeros(n, np.int8)
    out_exact = np.zeros((n, MAX_TRICKS + 1), np.int8)
    if threads is None:
        threads = os.cpu_count() or 1
    if not isinstance(threads, int) or threads < 1:
        raise DDError(f"threads must be a whole number >= 1, got {threads!r}")
    threads = min(threads, max(1, n))
    if threads == 1 or n < 2:
        _run_chunk(
            arr, tr, ld, st, code, out, out_lo, out_hi, out_exact, tt_bits, exact_keys, limit
        )
    else:
        # many chunks per thread balance the load: solve times are heavy-tailed (a few deals take
        # 1000x the median), and with 4 chunks per thread the last chunks left one thread idle
        # for a third of a whist-max batch. Chunks hold whole groups of rows that share a
        # table, so the table a row sees (and whether it fits a node limit) never depends on
        # the chunking
        edges = _group_edges(arr, tr, min(n, threads * CHUNKS_PER_THREAD))
        with ThreadPoolExecutor(max_workers=threads) as pool:
            futures = [
                pool.submit(
                    _run_chunk,
                    arr[a:b], tr[a:b], ld[a:b], st[a:b], code, out[a:b], out_lo[a:b],
                    out_hi[a:b], out_exact[a:b], tt_bits, exact_keys, limit,
                )
                for a, b in zip(edges[:-1], edges[1:], strict=True)
                if b > a
            ]
            for f in futures:
                f.result()
    result = out
    if objective == "whist-exact":
        result = out_exact.astype(np.bool_) if node_limit is None else out_exact
    if return_bounds:
        return result, out_lo, out_hi
    return result


def _group_edges(arr: np.ndarray, trump: np.ndarray, n_chunks: int) -> np.ndarray:
    """About ``n_chunks`` chunk edges over the rows, moved forward so that no edge splits a group
    (consecutive rows with the same hands and trump)."""
    n = arr.shape[0]
    starts = np.ones(n, np.bool_)
    starts[1:] = (arr[1:] != arr[:-1]).any(axis=1) | (trump[1:] != trump[:-1])
    group_start = np.flatnonzero(starts)
    wanted = np.linspace(0, n, n_chunks + 1).astype(np.int64)[1:-1]
    pos = np.searchsorted(group_start, wanted)
    inner = np.where(pos < group_start.size, group_start[np.minimum(pos, group_start.size - 1)], n)
    return np.unique(np.concatenate([[0], inner, [n]]))


# --------------------------------------------------------------------------- warm-up

#: what ``warm_up`` says when the solver's kernels compile
COMPILE_NOTICE = (
    "compiling the double-dummy solver (once after installing or updating whist-sim; "
    "a minute or two; later runs load it from numba's cache)..."
)


def warm_up(notify=None) -> float:
    """Compile the solver's kernels, or load them from numba's cache, with one tiny solve.

    The first call after an install, or after an edit of a kernel module (``dd/canon.py`` to
    ``dd/objectives.py``; docs/DD.md, "Module map", says which cache to clear then), compiles
    for a minute or two; later calls load the cache in about a second. When it compiles,
    ``notify`` hears :data:`COMPILE_NOTICE`, how long so far every half minute, and the total
    (:func:`whist_sim.compiled.ground._numba.compile_notice`); loading from the cache is silent.
    Returns the seconds taken.
    """
    t0 = time.perf_counter()
    with compile_notice(notify, COMPILE_NOTICE):
        one_card = np.array([[1, 2, 4, 8]], dtype=np.uint64)  # 2C 3C 4C 5C: one trick left
        solve_batch(one_card, 4, 0, "bridge", 0, threads=1)
    return time.perf_counter() - t0


# --------------------------------------------------------------------------- one deal


def _one(hands: Sequence[int]) -> np.ndarray:
    if len(hands) != 4:
        raise DDError(f"expected four hands by seat, got {len(hands)}")
    try:
        arr = np.array([[int(h) for h in hands]], dtype=np.uint64)
    except (OverflowError, ValueError, TypeError):
        raise DDError(f"hands must be four bit masks in 0..2**52-1, got {list(hands)!r}") from None
    return arr


def solve(
    hands: Sequence[int], trump: int, leader: int, objective: str, seat: int = 0,
    *, node_limit: int | None = None,
):
    """One position: tricks (``int``) for bridge / whist-max / whist-min, or for ``whist-exact``
    the sorted list of every ``k`` that ``seat`` can make exactly.

    Arguments as in :func:`solve_batch`. With ``node_limit``, a position over the limit gives
    ``None``.
    """
    res = solve_batch(_one(hands), trump, leader, objective, seat, threads=1,
                      node_limit=node_limit)
    if objective == "whist-exact":
        if res[0, 0] == UNSOLVED:
            return None
        return [int(k) for k in np.flatnonzero(res[0] == 1)]
    return None if res[0] == UNSOLVED else int(res[0])


def bridge_table(
    hands: Sequence[int], *, node_limit: int | None = None, threads: int | None = None
) -> dict[str, list[int | None]]:
    """The classic double-dummy table of a deal, by the bridge convention.

    ``table[X][d]`` = tricks taken by declarer ``d``'s side (seats ``d`` and ``d+2``) with strain
    ``X`` (``"C"``, ``"D"``, ``"H"``, ``"S"``, ``"NT"``) when the seat on ``d``'s left
    (``d+1``) leads. With ``node_limit``, an entry over the limit is ``None``. ``threads``: the
    strains are solved in parallel on this many threads (default: the CPU count); the answers
    never depend on it.
    """
    arr = _one(hands)
    rows = np.repeat(arr, 20, axis=0)
    trump = np.repeat(np.arange(5), 4)
    declarer = np.tile(np.arange(4), 5)
    leader = (declarer + 1) % 4
    res = solve_batch(rows, trump, leader, "bridge", declarer, threads=threads,
                      node_limit=node_limit)
    return {
        STRAINS[t]: [None if x == UNSOLVED else int(x) for x in res[4 * t : 4 * t + 4]]
        for t in range(5)
    }


def _check_seats(seats: Sequence[int]) -> list[int]:
    seats = [int(s) for s in seats]
    for s in seats:
        if not 0 <= s <= 3:
            raise DDError(f"seat {s} is not in 0..3")
    return seats


def _whist_entries(arr, trumps: list[int], seats: list[int], leader: int,
                   node_limit: int | None, threads: int | None,
                   min_node_limit: int | None = None) -> list[dict[str, object]]:
    """The whist answers of every ``(trump, seat)`` pair, trump-major: one ``solve_batch`` per
    objective (the seats of one strain share a table; strains go to parallel threads).
    ``min_node_limit``: whist-min's own limit (``None``: ``node_limit``)."""
    rows = np.repeat(arr, len(trumps) * len(seats), axis=0)
    trump = np.repeat(np.asarray(trumps), len(seats))  # solve_batch checks it
    seat = np.tile(np.asarray(seats, np.int64), len(trumps))
    kw = {"threads": threads, "node_limit": node_limit}
    mx, mx_lo, mx_hi = solve_batch(rows, trump, leader, "whist-max", seat, return_bounds=True,
                                   **kw)
    min_kw = kw if min_node_limit is None else {**kw, "node_limit": min_node_limit}
    mn, mn_lo, mn_hi = solve_batch(rows, trump, leader, "whist-min", seat, return_bounds=True,
                                   **min_kw)
    ex = solve_batch(rows, trump, leader, "whist-exact", seat, **kw)
    out: list[dict[str, object]] = []
    for i in range(len(rows)):
        entry: dict[str, object] = {
            "max": None if mx[i] == UNSOLVED else int(mx[i]),
            "min": None if mn[i] == UNSOLVED else int(mn[i]),
            "exact": None if ex[i, 0] == UNSOLVED else [int(j) for j in np.flatnonzero(ex[i] == 1)],
        }
        if node_limit is not None or min_node_limit is not None:
            entry["max_bounds"] = [int(mx_lo[i]), int(mx_hi[i])]
            entry["min_bounds"] = [int(mn_lo[i]), int(mn_hi[i])]
        out.append(entry)
    return out


def whist_summary(
    hands: Sequence[int], trump: int, leader: int, seats: Sequence[int] = (0, 1, 2, 3),
    *, node_limit: int | None = None, min_node_limit: int | None = None,
) -> dict[int, dict[str, object]]:
    """Whist analysis of one position for each of ``seats``.

    Returns ``{seat: {"max": int, "min": int, "exact": [k, ...]}}``: the most tricks the seat can
    guarantee against the other three, the fewest it can hold itself to when they push tricks on it,
    and every number of tricks it can make exactly against them (see docs/DD.md).

    With ``node_limit`` each solve stops after that many card plays: an unsolved answer is
    ``None``, and ``"max_bounds"`` / ``"min_bounds"`` give ``[lo, hi]``, the bounds proved on
    whist-max / whist-min (both equal to the answer when solved). ``min_node_limit``: whist-min's
    own limit (default: ``node_limit``; whist-min of a full deal can take minutes unlimited).
    """
    seats = _check_seats(seats)
    entries = _whist_entries(_one(hands), [trump], seats, leader, node_limit, 1, min_node_limit)
    return dict(zip(seats, entries, strict=True))


def whist_table(
    hands: Sequence[int], leader: int, *, node_limit: int | None = None,
    threads: int | None = None, min_node_limit: int | None = None,
) -> dict[str, list[dict[str, object]]]:
    """:func:`whist_summary` of every seat in every strain, ``leader`` leading.

    Returns ``{X: [entry of seat 0, .., entry of seat 3]}`` for ``X`` in ``"C"``, ``"D"``, ``"H"``,
    ``"S"``, ``"NT"``, each entry as in :func:`whist_summary` (so is ``min_node_limit``).
    ``threads``: the strains are solved in parallel on this many threads (default: the CPU
    count); the answers never depend on it.
    """
    entries = _whist_entries(_one(hands), list(range(5)), [0, 1, 2, 3], leader, node_limit,
                             threads, min_node_limit)
    return {STRAINS[t]: entries[4 * t : 4 * t + 4] for t in range(5)}
