"""Properties every double-dummy answer must have (RULES §5 play), checked on random endings.

* symmetry: rotating the seats, or renaming the suits (trump with them), rotates/renames answers;
* bridge: the two partnerships' tricks add up to the tricks left;
* whist: what the four seats can each guarantee adds up to at most the tricks left (all four can
  play their guaranteeing strategies at once), and what they can each hold themselves to adds up
  to at least that; a partnership guarantees at least what its two seats guarantee alone;
* whist-exact: a number ``k`` is makeable only within ``[whist-min, whist-max]``.

Note: ``whist-min <= whist-max`` is *not* a property of the game. A seat whose cards are forced
can have the other three decide its tricks: they can hold it to 0 and also force 2 on it, so its
whist-max is 0 and its whist-min is 2 (see ``test_whist_min_can_exceed_whist_max``).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_sim.core.cards import parse_deal
from whist_sim.dd import solve, solve_batch, whist_summary

OBJECTIVES = ("bridge", "whist-max", "whist-min", "whist-exact")


@st.composite
def positions(draw, max_cards: int = 4):
    cards = draw(st.integers(1, max_cards))
    perm = draw(st.permutations(range(52)))
    hands = []
    for s in range(4):
        m = 0
        for c in perm[s * cards : (s + 1) * cards]:
            m |= 1 << c
        hands.append(m)
    trump = draw(st.integers(0, 4))
    leader = draw(st.integers(0, 3))
    return hands, trump, leader


def _all_answers(hands, trump, leader):
    rows = np.array([hands] * 4, dtype=np.uint64)
    seats = np.arange(4, dtype=np.int8)
    return {obj: solve_batch(rows, trump, leader, obj, seats, threads=1) for obj in OBJECTIVES}


def _rename_suits(mask: int, perm) -> int:
    out = 0
    for c in range(52):
        if mask >> c & 1:
            out |= 1 << (13 * perm[c // 13] + c % 13)
    return out


@settings(max_examples=40, deadline=None)
@given(positions(), st.integers(1, 3))
def test_rotating_seats_rotates_answers(pos, t):
    # RULES §1/§5: the play rules do not depend on seat numbers, only on the order round the table
    hands, trump, leader = pos
    base = _all_answers(hands, trump, leader)
    rot = [hands[(s - t) % 4] for s in range(4)]
    moved = _all_answers(rot, trump, (leader + t) % 4)
    for obj in OBJECTIVES:
        for s in range(4):
            assert np.array_equal(np.asarray(moved[obj][(s + t) % 4]), np.asarray(base[obj][s]))


@settings(max_examples=40, deadline=None)
@given(positions(), st.permutations(range(4)))
def test_renaming_suits_keeps_answers(pos, perm):
    # RULES §5: suits are interchangeable apart from which one is trump
    hands, trump, leader = pos
    base = _all_answers(hands, trump, leader)
    renamed = [_rename_suits(h, perm) for h in hands]
    new_trump = perm[trump] if trump < 4 else 4
    moved = _all_answers(renamed, new_trump, leader)
    for obj in OBJECTIVES:
        assert np.array_equal(moved[obj], base[obj])


@settings(max_examples=60, deadline=None)
@given(positions())
def test_whist_and_bridge_relations(pos):
    hands, trump, leader = pos
    r = int(hands[0]).bit_count()
    a = _all_answers(hands, trump, leader)
    bridge, wmax, wmin, exact = (a[o] for o in OBJECTIVES)
    for s in range(4):
        assert bridge[s] + bridge[(s + 1) % 4] == r
        assert bridge[s] == bridge[(s + 2) % 4]
        assert bridge[s] >= wmax[s] + wmax[(s + 2) % 4]
        ks = np.flatnonzero(exact[s])
        # exactly k is makeable only between what p can hold himself to and what he can guarantee
        assert all(wmin[s] <= k <= wmax[s] for k in ks)
        assert not exact[s, r + 1 :].any()
        if ks.size:
            assert wmin[s] <= wmax[s]
    assert int(wmax.sum()) <= r
    assert int(wmin.sum()) >= r


def test_whist_min_can_exceed_whist_max():
    # Seat 0 holds 5S and 2C; seat 1 leads 7S (seat 0 loses both tricks) or 3S (seat 0 wins with
    # the 5S, then leads 2C, which nobody can follow or ruff in NT): the other three choose.
    hands = parse_deal("0:5...2 73... ..32. ..54.")
    assert solve(hands, 4, 1, "whist-max", 0) == 0
    assert solve(hands, 4, 1, "whist-min", 0) == 2
    assert solve(hands, 4, 1, "whist-exact", 0) == []
    # seat 1 can take 0 or 2 tricks exactly, but not exactly 1
    assert whist_summary(hands, 4, 1, [1])[1] == {"max": 2, "min": 0, "exact": [0, 2]}


def test_exact_can_have_gaps_and_needs_search():
    # a seat that can make 0 or 2 but not 1: the exact set is not an interval
    hands = parse_deal("0:5...2 73... ..32. ..54.")
    summary = whist_summary(hands, 4, 1)
    assert summary[1]["exact"] == [0, 2]
    assert summary[2] == {"max": 0, "min": 0, "exact": [0]}
