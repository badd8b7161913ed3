"""Brute-force double-dummy minimax in plain Python: the slow, obviously-correct reference.

No pruning, no ordering, no rank equivalence: every legal card of every player is tried (RULES §5),
on the real cards. The only help is a memo of exact values at trick boundaries (a cache of the
complete value function, not a cut). Use it on endings of a few cards: its cost grows like the
product of the hands' legal choices. The compiled solver is tested against it.

One call computes every objective at once, for every seat:

* ``team[m]`` for every team mask ``m`` (bit ``s`` = seat ``s``): the tricks the team takes when it
  maximises them and the other seats minimise them (bridge: ``m = 0b0101``; whist-max of p:
  ``m = 1 << p``);
* ``min[p]``: the fewest tricks seat ``p`` can hold itself to when the other three maximise them;
* ``exact[p]``: bit ``k`` set when seat ``p`` can make exactly ``k`` tricks against the other three.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ..engine.state import winning_index

TEAMS = tuple(range(1, 15))  # every non-empty proper subset of the four seats
# every (counted seats, maximising seats) question: the teams, then whist-min of each seat
QUESTIONS = tuple((m, m) for m in TEAMS) + tuple((1 << p, 15 ^ (1 << p)) for p in range(4))


def _legal(hand: int, led_suit: int) -> list[int]:
    if led_suit >= 0:
        follow = hand & (0x1FFF << (13 * led_suit))
        if follow:
            hand = follow
    out = []
    while hand:
        low = hand & -hand
        out.append(low.bit_length() - 1)
        hand ^= low
    return out


def trick_winner(cards: Sequence[int], leader: int, trump: int) -> int:
    """Seat that wins a trick (RULES §5): ``cards`` in play order, led by ``leader``; the
    reference engine's rule (:func:`whist_sim.engine.state.winning_index`)."""
    return (leader + winning_index(list(enumerate(cards)), trump)) % 4


@cache
def _position(hands: tuple[int, int, int, int], leader: int, trump: int) -> tuple:
    """(values of QUESTIONS, exact masks by seat) of a trick-boundary position."""
    if hands[leader] == 0:
        return (0,) * len(QUESTIONS), (1, 1, 1, 1)
    return _play(hands, leader, trump, ())


def _play(hands: tuple[int, ...], leader: int, trump: int, played: tuple[int, ...]) -> tuple:
    k = len(played)
    if k == 4:
        w = trick_winner(played, leader, trump)
        rest = list(hands)
        for i, c in enumerate(played):
            rest[(leader + i) % 4] &= ~(1 << c)
        values, exact = _position(tuple(rest), w, trump)
        values = tuple(v + ((cnt >> w) & 1) for v, (cnt, _) in zip(values, QUESTIONS, strict=True))
        exact = tuple((e << 1) if p == w else e for p, e in enumerate(exact))
        return values, exact
    player = (leader + k) % 4
    led = played[0] // 13 if played else -1
    children = [_play(hands, leader, trump, played + (c,)) for c in _legal(hands[player], led)]
    values = []
    for j, (_, mx) in enumerate(QUESTIONS):
        vals = [ch[0][j] for ch in children]
        values.append(max(vals) if (mx >> player) & 1 else min(vals))
    exact = []
    for p in range(4):
        e = children[0][1][p]
        for ch in children[1:]:
            e = (e | ch[1][p]) if p == player else (e & ch[1][p])
        exact.append(e)
    return tuple(values), tuple(exact)


def brute_force(hands: Sequence[int], trump: int, leader: int) -> dict[str, dict[int, int]]:
    """Every objective of a trick-boundary position by exhaustive minimax.

    ``hands``: four masks by seat, same size; ``trump`` 0..3 or 4 (NT); ``leader`` the seat on lead.
    Returns ``{"team": {mask: tricks}, "min": {seat: tricks}, "exact": {seat: mask of k}}``:
    bridge for seats s, s+2 is ``team[(1 << s) | (1 << (s+2) % 4)]``, whist-max of p
    ``team[1 << p]``, whist-min of p ``min[p]``, and p can make exactly k tricks when bit k of
    ``exact[p]`` is set.
    """
    hs = tuple(int(h) for h in hands)
    values, exact = _position(hs, int(leader), int(trump))
    n = len(TEAMS)
    return {
        "team": dict(zip(TEAMS, values[:n], strict=True)),
        "min": dict(enumerate(values[n:])),
        "exact": dict(enumerate(exact)),
    }


def clear_cache() -> None:
    """Forget the memo (it grows with every distinct position solved)."""
    _position.cache_clear()
