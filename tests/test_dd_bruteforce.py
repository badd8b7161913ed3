"""The double-dummy solver against the brute-force minimax on thousands of random endings.

RULES §5 (following suit, trumps, the winner of a trick leads the next) is the whole game here;
the brute force (whist_sim.dd.bruteforce) plays it out exhaustively on the real cards, the solver
searches with pruning, rank equivalence and its transposition table. Every objective, every trump,
every leader, every seat must give identical answers.
"""

from __future__ import annotations

import numpy as np
import pytest

from whist_sim.dd import solve_batch
from whist_sim.dd.bruteforce import brute_force, clear_cache, trick_winner
from whist_sim.dd.positions import random_positions


def _check(hands: np.ndarray, trump: np.ndarray, leader: np.ndarray) -> None:
    n = len(hands)
    expected = []
    for i in range(n):
        expected.append(brute_force([int(h) for h in hands[i]], int(trump[i]), int(leader[i])))
        clear_cache()
    for s in range(4):
        bridge = solve_batch(hands, trump, leader, "bridge", s, threads=1)
        wmax = solve_batch(hands, trump, leader, "whist-max", s, threads=1)
        wmin = solve_batch(hands, trump, leader, "whist-min", s, threads=1)
        exact = solve_batch(hands, trump, leader, "whist-exact", s, threads=1)
        for i in range(n):
            b = expected[i]
            where = (
                f"ending {[hex(int(h)) for h in hands[i]]}, trump {trump[i]}, "
                f"leader {leader[i]}, seat {s}"
            )
            assert bridge[i] == b["team"][(1 << s) | (1 << ((s + 2) % 4))], where
            assert wmax[i] == b["team"][1 << s], where
            assert wmin[i] == b["min"][s], where
            got = [k for k in range(14) if exact[i, k]]
            want = [k for k in range(14) if b["exact"][s] >> k & 1]
            assert got == want, where


@pytest.mark.parametrize(
    ("cards", "count", "suits", "seed"),
    [
        (1, 800, 4, 1),
        (1, 400, 2, 2),
        (2, 600, 4, 3),
        (2, 600, 2, 4),
        (3, 250, 4, 5),
        (3, 250, 2, 6),
        (4, 30, 4, 7),
        (4, 30, 3, 8),
        (4, 40, 2, 10),
        (5, 3, 4, 9),
        (5, 3, 2, 11),
    ],
)
def test_solver_matches_brute_force(cards, count, suits, seed):
    # RULES §5: every objective of the solver equals exhaustive minimax
    rng = np.random.default_rng(seed)
    hands = random_positions(rng, count, cards, suits)
    trump = rng.integers(0, 5, count).astype(np.int8)
    leader = rng.integers(0, 4, count).astype(np.int8)
    _check(hands, trump, leader)


def test_brute_force_trick_winner_follows_rules_5():
    # RULES §5 example: diamonds trump, 9C led, then QC, 7D, 8C: the 7D wins (third player cut)
    c9, cq, d7, c8 = 7, 10, 13 + 5, 6
    assert trick_winner([c9, cq, d7, c8], leader=0, trump=1) == 2
    # no trump: the highest card of the led suit wins
    assert trick_winner([c9, cq, d7, c8], leader=0, trump=4) == 1
    # a discard of a higher card of another suit never wins
    assert trick_winner([c8, 51, 50, 49], leader=3, trump=4) == 3


def test_brute_force_small_cases_by_hand():
    # one card each, no-trump, seat 0 leads the only spade: seat 0 takes the trick
    hands = [1 << 51, 1 << 0, 1 << 13, 1 << 26]
    b = brute_force(hands, 4, 0)
    assert b["team"][1] == 1 and b["min"][0] == 1 and b["exact"][0] == 0b10
    # with clubs trump the 2C of seat 1 ruffs the spade ace
    b = brute_force(hands, 0, 0)
    assert b["team"][1] == 0 and b["team"][2] == 1
