"""Fail-soft null-window searches: the bound a search reports is proved, whatever it was asked.

The search (whist_sim.dd._core._search) answers "do the seats ``win`` take at least t tricks?" and
leaves in ``stats[ST_BOUND]`` a bound its proof shows: at least that many on a "yes", at most that
many on a "no". Checked against the brute-force minimax (RULES §5 played out on the real cards)
for every counting question, every target, with the table shared between the searches of one
position as ``solve_count`` shares it.
"""

from __future__ import annotations

import numpy as np
import pytest

from whist_sim.dd import _core
from whist_sim.dd.bruteforce import brute_force, clear_cache
from whist_sim.dd.positions import random_positions
from whist_sim.dd.solver import _tables


def _questions(p: int) -> list[tuple[str, int, int]]:
    """(name, win, mx) of the counting questions about seat ``p``."""
    team = (1 << p) | (1 << ((p + 2) % 4))
    me = 1 << p
    return [("bridge", team, team), ("whist-max", me, me), ("whist-min", me, 15 ^ me)]


@pytest.mark.parametrize(("cards", "suits", "seed"), [(3, 2, 41), (3, 4, 42), (4, 3, 43)])
def test_every_search_reports_a_proved_bound(cards, suits, seed):
    rng = np.random.default_rng(seed)
    n = 25
    hands = random_positions(rng, n, cards, suits)
    trumps = rng.integers(0, 5, n)
    leaders = rng.integers(0, 4, n)
    table, stats = _tables(12)
    ws = _core.new_workspace()
    beyond = 0
    for i in range(n):
        trump, leader = int(trumps[i]), int(leaders[i])
        exact = brute_force([int(h) for h in hands[i]], trump, leader)
        clear_cache()
        canon = _core.canonical(hands[i])
        for p in range(4):
            for name, win, mx in _questions(p):
                value = exact["min"][p] if name == "whist-min" else exact["team"][win]
                stats[_core.ST_GEN] += 1  # a fresh table for each question, shared by its targets
                for t in range(1, cards + 1):
                    got = _core._search(0, canon, leader, t, trump, win, mx, 0, ws, table, stats)
                    bound = int(stats[_core.ST_BOUND])
                    where = (f"{name} seat {p} target {t}, hands "
                             f"{[hex(int(h)) for h in hands[i]]}, trump {trump}, leader {leader}")
                    assert got == (value >= t), where
                    if got:
                        assert t <= bound <= value, where
                    else:
                        assert value <= bound <= t - 1, where
                    beyond += bound > t or bound < t - 1
    assert beyond > 0  # some searches prove more than they were asked: the bounds are exercised

