"""Double-dummy columns of a simulation dataset (``whist-sim simulate --dd``).

For every played deal and every seat ``s``, :func:`dd_columns` asks the double-dummy solver
(docs/DD.md) two questions about the hands at the start of play (``hand_s``, after Frisch), with
the deal's actual trump and the actual first leader (the declarer, RULES §5):

* ``dd_max_s``: whist-max, the most tricks seat ``s`` can guarantee when the other three play
  together against it;
* ``dd_min_s``: whist-min, the fewest tricks seat ``s`` can hold itself to when the other three
  push tricks on it (the zero-bid question).

Every solve runs under a node limit (``node_limit`` card plays, see
:func:`whist_sim.dd.solve_batch`). A solve over the limit is left unsolved: its column is ``-1``
and the bounds the search proved on the true value are kept in ``dd_max_lo_s`` / ``dd_max_hi_s``
and ``dd_min_lo_s`` / ``dd_min_hi_s`` (equal to the value on a solved row), so no information is
lost. A deal without play (thrown in after the third Frisch, RULES §3) has ``-1`` in every DD
column.

The rows of one call are ordered deal by deal, the four seats of a deal consecutive, so a deal's
four solves of one objective share the solver's transposition table (a *group*); whether a row is
solved therefore depends only on its deal, never on the chunk, the threads or the cluster, and a
dataset's DD columns are the same whatever its chunk size.

Only four-player deals (the full 52-card deck) can be solved; three-player variants (RULES §8)
are refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: default most card plays per solve (about 0.1 s of one core): see docs/DD.md, "Speed"
DEFAULT_NODE_LIMIT = 1_000_000
#: (column tag, solver objective), in column order
OBJECTIVES = (("max", "whist-max"), ("min", "whist-min"))
PLAYERS = 4
NO_PLAY = -1  # the value of every DD column of a deal without play


class DDColumnsError(ValueError):
    """Input the double-dummy columns cannot be computed for (the message names the problem)."""


def dd_column_names(players: int = PLAYERS) -> list[str]:
    """Names of the DD columns, in dataset column order (values, then bounds, by seat)."""
    check_players(players)
    names = []
    for tag in ("dd_max", "dd_min", "dd_max_lo", "dd_max_hi", "dd_min_lo", "dd_min_hi"):
        names += [f"{tag}_{s}" for s in range(players)]
    return names


def check_players(players: int) -> None:
    """Refuse anything but four players: the solver knows only the 52-card, four-hand deal."""
    if players != PLAYERS:
        raise DDColumnsError(
            f"double-dummy columns need four-player deals (the 52-card deck); these rules have "
            f"players={players} (RULES §8 three-player variants are not supported by the solver)"
        )


def check_node_limit(node_limit) -> int:
    """``node_limit`` as an int >= 1, or :class:`DDColumnsError`."""
    if isinstance(node_limit, bool) or not isinstance(node_limit, int | np.integer) \
            or node_limit < 1:
        raise DDColumnsError(f"the DD node limit must be a whole number >= 1, got {node_limit!r}")
    return int(node_limit)


def dd_columns(
    hand_arrays: Sequence[np.ndarray],
    trump: np.ndarray,
    leader: np.ndarray,
    node_limit: int = DEFAULT_NODE_LIMIT,
    threads: int = 1,
    *,
    tt_bits: int | None = None,
    min_node_limit: int | None = None,
) -> dict[str, np.ndarray]:
    """Whist-max and whist-min of every seat of every deal, with their bounds (module docstring).

    Parameters
    ----------
    hand_arrays: four ``uint64[n]`` arrays, the hands of seats 0..3 at the start of play.
    trump: ``int[n]``, 0..3 = C, D, H, S, 4 = NT, or -1 for a deal without play.
    leader: ``int[n]``, the seat leading to the first trick (the declarer), or -1 without play.
    node_limit: most card plays per solve (>= 1); a solve over it is left unsolved (-1).
    threads: solver threads (results do not depend on it).
    tt_bits: log2 of the solver's transposition-table entries per thread (default: the solver's
        default, :data:`whist_sim.dd.DEFAULT_TT_BITS`). Which solves fit the node limit can depend
        on it, so a dataset keeps one value (its manifest records it).
    min_node_limit: most card plays per whist-min solve, if not ``node_limit`` (whist-min of a
        full deal is rarely solved and costs the limit on nearly every seat; a lower limit makes a
        run several times faster and keeps the bounds proved so far, docs/DD.md).

    Returns ``{name: int8[n]}`` for every name of :func:`dd_column_names`.
    """
    from ..dd import DEFAULT_TT_BITS, solve_batch

    check_players(len(hand_arrays))
    limit = check_node_limit(node_limit)
    limits = {"max": limit,
              "min": limit if min_node_limit is None else check_node_limit(min_node_limit)}
    hands = np.stack([np.asarray(h).astype(np.uint64, copy=False) for h in hand_arrays], axis=1)
    n = hands.shape[0]
    trump = np.asarray(trump).astype(np.int64, copy=False).reshape(-1)
    leader = np.asarray(leader).astype(np.int64, copy=False).reshape(-1)
    if trump.shape != (n,) or leader.shape != (n,):
        raise DDColumnsError(
            f"trump and leader need one value per deal ({n}), got {trump.shape[0]} and "
            f"{leader.shape[0]}"
        )
    played = trump >= 0
    if not np.array_equal(played, leader >= 0):
        i = int(np.flatnonzero(played != (leader >= 0))[0])
        raise DDColumnsError(
            f"deal {i}: trump {trump[i]} and leader {leader[i]} disagree on whether it was played"
        )
    if (trump > 4).any() or (leader > 3).any() or (trump < NO_PLAY).any() \
            or (leader < NO_PLAY).any():
        raise DDColumnsError("trump must be -1..4 and leader -1..3")

    idx = np.flatnonzero(played)
    k = idx.size
    out: dict[str, np.ndarray] = {
        name: np.full(n, NO_PLAY, np.int8) for name in dd_column_names(PLAYERS)
    }
    if k == 0:
        return out
    # one row per (deal, seat): the four seats of a deal consecutive, so they share a table
    rows = np.repeat(hands[idx], PLAYERS, axis=0)
    row_trump = np.repeat(trump[idx], PLAYERS)
    row_leader = np.repeat(leader[idx], PLAYERS)
    row_seat = np.tile(np.arange(PLAYERS), k)
    for tag, objective in OBJECTIVES:
        value, lo, hi = solve_batch(
            rows, row_trump, row_leader, objective, row_seat,
            threads=threads, node_limit=limits[tag], return_bounds=True,
            tt_bits=DEFAULT_TT_BITS if tt_bits is None else tt_bits,
        )
        for name, arr in ((f"dd_{tag}", value), (f"dd_{tag}_lo", lo), (f"dd_{tag}_hi", hi)):
            per_seat = np.asarray(arr, np.int8).reshape(k, PLAYERS)
            for s in range(PLAYERS):
                out[f"{name}_{s}"][idx] = per_seat[:, s]
    return out


__all__ = [
    "DEFAULT_NODE_LIMIT",
    "DDColumnsError",
    "check_node_limit",
    "check_players",
    "dd_column_names",
    "dd_columns",
]
