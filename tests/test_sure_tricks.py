"""The sure tricks of docs/ENGINE.md §7 (``planner`` and ``learned``'s situation) and the likely
tricks of §8, compiled: the masters of all four suits are found at once, and the counts follow
the rules suit by suit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_sim.compiled.strategies.play.planner import _sure_tricks, _trick_counts


def _rule(hand: int, out: int, trump: int, voids: set[tuple[int, int]], seat: int, p: int,
          side: int) -> tuple[int, int]:
    """ENGINE §7, suit by suit: a master is above every card of its suit still out; a suit
    counts the larger of its masters and its length tricks ``L - O`` in trumps and once no trump
    is out; a side suit while trumps are out counts none when another seat has shown a void in
    it and not in trumps, else its masters, at most ``O // (p - 1) + side``."""
    def cards(mask: int, s: int) -> list[int]:
        return [c for c in range(13 * s, 13 * s + 13) if mask >> c & 1]

    trumps_out = len(cards(out, trump)) if trump < 4 else 0
    sure, masters = 0, 0
    for s in range(4):
        mine, outs = cards(hand, s), cards(out, s)
        if not mine:
            continue
        top = max(outs, default=-1)
        mast = [c for c in mine if c > top]
        masters |= sum(1 << c for c in mast)
        if s != trump and trumps_out > 0:
            ruff = any((o, s) in voids and (o, trump) not in voids for o in range(p) if o != seat)
            sure += 0 if ruff else min(len(mast), len(outs) // (p - 1) + side)
        else:
            sure += max(len(mast), len(mine) - len(outs))
    return sure, masters


@settings(max_examples=400, deadline=None)
@given(order=st.permutations(range(52)), n_hand=st.integers(0, 13), n_out=st.integers(0, 39),
       trump=st.integers(0, 4), p=st.sampled_from([3, 4]), side=st.integers(-1, 1),
       data=st.data())
def test_sure_tricks_follow_the_rule_suit_by_suit(order, n_hand, n_out, trump, p, side, data):
    hand = sum(1 << c for c in order[:n_hand])
    out = sum(1 << c for c in order[n_hand:n_hand + n_out])
    seat = data.draw(st.integers(0, p - 1))
    voids = set(data.draw(st.sets(st.tuples(st.integers(0, p - 1), st.integers(0, 3)))))
    mask = sum(1 << (4 * o + s) for o, s in voids)
    sure, masters = _sure_tricks(np.uint64(hand), np.uint64(out), trump, mask, seat, p, side)
    assert (int(sure), int(masters)) == _rule(hand, out, trump, voids, seat, p, side)


def test_a_suit_the_seat_is_void_in_counts_nothing_even_with_a_negative_side():
    """ENGINE §7: only the suits the seat holds count. Here it holds the ace of spades alone,
    clubs are trumps with one still out, and ``side`` is -1: spades, a side suit with no card
    out, count ``min(1, 0 // 3 - 1) = -1``; the void side suits (diamonds, with two cards out,
    and hearts) add nothing, though the same rule for a suit it held would give them -1."""
    ace_spades, two_clubs, two_diamonds, three_diamonds = 51, 0, 13, 14
    hand = 1 << ace_spades
    out = (1 << two_clubs) | (1 << two_diamonds) | (1 << three_diamonds)
    sure, masters = _sure_tricks(np.uint64(hand), np.uint64(out), 0, 0, 0, 4, -1)
    assert (int(sure), int(masters)) == (-1, hand) == _rule(hand, out, 0, set(), 0, 4, -1)


def _likely(hand: int, out: int, trump: int, voids: set[tuple[int, int]], seat: int,
            p: int) -> int:
    """ENGINE §8's likely tricks, suit by suit: with ``k`` masters, ``L`` cards and ``O`` out,
    ``m = ceil(O / (p - 1))``: ``max(k, L - m + min(k, m))`` in trumps and once no trump is out;
    a side suit while trumps are out: none when another seat has shown a void in it and not in
    trumps, else ``k``, at most ``O // (p - 1) + 1``."""
    trumps_out = sum(1 for c in range(13 * trump, 13 * trump + 13) if out >> c & 1) \
        if trump < 4 else 0
    likely = 0
    for s in range(4):
        mine = [c for c in range(13 * s, 13 * s + 13) if hand >> c & 1]
        outs = [c for c in range(13 * s, 13 * s + 13) if out >> c & 1]
        if not mine:
            continue
        k = sum(1 for c in mine if c > max(outs, default=-1))
        if s != trump and trumps_out > 0:
            ruff = any((o, s) in voids and (o, trump) not in voids for o in range(p) if o != seat)
            likely += 0 if ruff else min(k, len(outs) // (p - 1) + 1)
        else:
            m = -(-len(outs) // (p - 1))
            likely += max(k, len(mine) - m + min(k, m))
    return likely


@settings(max_examples=400, deadline=None)
@given(order=st.permutations(range(52)), n_hand=st.integers(0, 13), n_out=st.integers(0, 39),
       trump=st.integers(0, 4), p=st.sampled_from([3, 4]), data=st.data())
def test_learned_counts_the_sure_tricks_of_planner_and_its_likely_tricks(order, n_hand, n_out,
                                                                          trump, p, data):
    hand = sum(1 << c for c in order[:n_hand])
    out = sum(1 << c for c in order[n_hand:n_hand + n_out])
    seat = data.draw(st.integers(0, p - 1))
    voids = set(data.draw(st.sets(st.tuples(st.integers(0, p - 1), st.integers(0, 3)))))
    mask = sum(1 << (4 * o + s) for o, s in voids)
    sure, likely, _ = _trick_counts(np.uint64(hand), np.uint64(out), trump, mask, seat, p, 0)
    assert int(sure) == _rule(hand, out, trump, voids, seat, p, 0)[0]
    assert int(likely) == _likely(hand, out, trump, voids, seat, p)
