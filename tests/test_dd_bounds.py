"""The solver's cheap cuts, checked one by one (docs/DD.md "How the solver works").

The search trusts its static bounds (quick tricks, trump floors, later tricks, the whist-min
one-trick bounds) and its wildcard siblings to cut without searching. The brute-force tests check
them only through whole searches; here each bound is compared with the exact value of the
question it bounds (RULES §5 played out by the brute force), on endings where they fire often.
"""

from __future__ import annotations

import numpy as np
import pytest

from whist_sim.core.cards import parse_deal
from whist_sim.dd import bounds, search
from whist_sim.dd.bruteforce import brute_force, clear_cache
from whist_sim.dd.canon import _is_wild, _note_wild, _suit, canonical
from whist_sim.dd.positions import random_positions
from whist_sim.dd.solver import _tables, solve_batch


def _questions(p: int) -> list[tuple[str, int, int]]:
    """(name, win, mx) of the counting questions about seat ``p``."""
    team = (1 << p) | (1 << ((p + 2) % 4))
    me = 1 << p
    return [("bridge", team, team), ("whist-max", me, me), ("whist-min", me, 15 ^ me)]


def _solved_endings(seed: int, n: int, cards: int, suits: int):
    """``n`` random endings with a random trump and leader, each with its exact values from the
    brute force: yields ``(hands, trump, leader, exact)``."""
    rng = np.random.default_rng(seed)
    hands = random_positions(rng, n, cards, suits)
    trumps = rng.integers(0, 5, n)
    leaders = rng.integers(0, 4, n)
    for i in range(n):
        trump, leader = int(trumps[i]), int(leaders[i])
        exact = brute_force([int(h) for h in hands[i]], trump, leader)
        clear_cache()
        yield hands[i], trump, leader, exact


@pytest.mark.parametrize(
    ("cards", "suits", "seed"), [(2, 2, 31), (3, 2, 32), (3, 3, 33), (4, 4, 34)]
)
def test_static_bounds_hold_the_exact_value(cards, suits, seed):
    tight = 0
    for hands, trump, leader, exact in _solved_endings(seed, 60, cards, suits):
        h0, h1, h2, h3 = canonical(hands)
        for p in range(4):
            for name, win, mx in _questions(p):
                lo, _, hi, _ = bounds._bounds(
                    h0, h1, h2, h3, leader, trump, win, mx, cards, 0, cards
                )
                value = exact["min"][p] if name == "whist-min" else exact["team"][win]
                where = f"{name} seat {p}, hands {[hex(int(h)) for h in hands]}, trump {trump}"
                assert lo <= value <= hi, where
                tight += lo == hi
    assert tight > 0  # the bounds settle some questions outright, so they are really exercised


def test_the_suit_of_every_card_by_multiplication():
    # the search's ``_suit`` replaces a signed ``// 13``: it must agree on every card (ENGINE.md §1)
    assert [_suit(c) for c in range(52)] == [c // 13 for c in range(52)]


def test_wildcard_siblings_below_the_threshold_of_a_failed_move():
    # suit 1 (diamonds): the failed move's proof relied on diamonds from rank 9 up
    rel = np.uint64(1) << np.uint64(13 + 9)
    wild = _note_wild(np.uint64(0), 13 + 2, rel)  # the diamond at rank 2 failed
    assert _is_wild(wild, 13 + 5)  # another low diamond fails the same way
    assert not _is_wild(wild, 13 + 9)  # the relevant card does not
    assert not _is_wild(wild, 13 + 11)
    assert not _is_wild(wild, 5)  # nor a card of another suit


def test_no_wildcard_when_the_failed_move_itself_was_relevant():
    rel = np.uint64(1) << np.uint64(7)  # the clubs from rank 7 up mattered
    wild = _note_wild(np.uint64(0), 8, rel)  # the failed club (rank 8) was one of them
    assert not _is_wild(wild, 3)
    # no card of the suit named by the proof: every card of it is a wildcard
    wild = _note_wild(np.uint64(0), 13 * 3 + 12, np.uint64(0))
    assert _is_wild(wild, 13 * 3)


@pytest.mark.parametrize(("cards", "seed"), [(4, 41), (6, 42), (9, 43), (13, 44)])
def test_bound_gates_skip_only_bounds_that_cannot_decide(cards, seed):
    # the search asks "lo >= tg or hi < tg?"; _bounds skips a bound its cheap cap shows cannot
    # settle that, so for every tg the answer and the relevance it comes with are unchanged
    rng = np.random.default_rng(seed)
    n = 80
    hands = random_positions(rng, n, cards)
    trumps = rng.integers(0, 5, n)
    leaders = rng.integers(0, 4, n)
    skipped = 0
    for i in range(n):
        trump, leader = int(trumps[i]), int(leaders[i])
        h0, h1, h2, h3 = canonical(hands[i])
        for p in range(4):
            for _name, win, mx in _questions(p):
                full = bounds._bounds(h0, h1, h2, h3, leader, trump, win, mx, cards, 0, cards)
                f_lo, f_lo_rel, f_hi, f_hi_rel = full
                for tg in range(1, cards + 1):
                    g_lo, g_lo_rel, g_hi, g_hi_rel = bounds._bounds(
                        h0, h1, h2, h3, leader, trump, win, mx, cards, tg, tg - 1
                    )
                    assert (g_lo >= tg) == (f_lo >= tg)
                    if f_lo >= tg:
                        assert g_lo_rel == f_lo_rel
                    elif g_hi < tg or f_hi < tg:
                        assert g_hi < tg and f_hi < tg and g_hi_rel == f_hi_rel
                    skipped += (g_lo, g_hi) != (f_lo, f_hi)
    assert skipped > 0  # the gates really skip bounds


def _fires(bound, hands, p, leader, trump) -> bool:
    """Does the seat bound ``bound`` (a ``bounds`` helper answering ``(yes, relevance)``) fire for
    seat ``p`` on these real hands?"""
    h0, h1, h2, h3 = canonical(np.array(hands, dtype=np.uint64))
    yes, _ = bound(h0, h1, h2, h3, p, leader, trump)
    return bool(yes)


def _first_trump_trick(hands, p, leader, trump):
    return _fires(bounds._first_trump_trick, hands, p, leader, trump)


def test_a_trump_over_the_right_hand_opponent_makes_a_trick():
    # spades trumps; p (seat 0) holds K4, his right-hand opponent (seat 3) the A and Q: p is never
    # forced to play the K under the A (RULES §5: he plays after seat 3 in every trick he does not
    # lead), so he makes a trick whatever the others do
    hands = parse_deal("0:K4.2.. .AKQ.. .JT9.. AQ.8..")
    assert _first_trump_trick(hands, 0, 1, 3)
    assert solve_batch(np.array([hands], dtype=np.uint64), 3, 1, "whist-max", 0, threads=1)[0] >= 1
    # the same trumps with the A on p's left: it plays after him, and the bound does not apply
    # (here p makes nothing: every trump he plays is overruffed)
    hands = parse_deal("0:K4.2.. AQ.8.. .JT9.. .AKQ..")
    assert not _first_trump_trick(hands, 0, 3, 3)
    assert solve_batch(np.array([hands], dtype=np.uint64), 3, 3, "whist-max", 0, threads=1)[0] == 0
    # p on lead with nothing but trumps must lead one, and the bound does not apply either
    hands = parse_deal("0:K4... .AK.. .JT.. AQ...")
    assert not _first_trump_trick(hands, 0, 0, 3)


@pytest.mark.parametrize(("cards", "seed"), [(3, 51), (4, 52)])
def test_first_trump_trick_holds_the_exact_value(cards, seed):
    # whenever _first_trump_trick says p makes a trick, the exact whist-max is at least 1;
    # positions from two or three suits, where trumps are long and the bound fires often
    rng = np.random.default_rng(seed)
    fired = beyond_floor = 0
    while fired < 40:
        suits = int(rng.integers(2, 4))
        hands = random_positions(rng, 1, cards, suits)[0]
        trump, leader, p = (int(x) for x in rng.integers(0, [suits, 4, 4]))
        if not _first_trump_trick(hands, p, leader, trump):
            continue
        fired += 1
        h0, h1, h2, h3 = canonical(hands)
        beyond_floor += bounds._trump_floor(h0, h1, h2, h3, trump, 1 << p)[0] == 0
        exact = brute_force([int(h) for h in hands], trump, leader)
        clear_cache()
        assert exact["team"][1 << p] >= 1, f"seat {p}, hands {[hex(int(h)) for h in hands]}"
    assert beyond_floor > 0  # cases the plain trump floor misses are really checked


def _boss_outlasts(hands, p, leader, trump) -> int:
    h0, h1, h2, h3 = canonical(np.array(hands, dtype=np.uint64))
    n, _ = bounds._boss_outlasts(h0, h1, h2, h3, p, leader, trump)
    return int(n)


def test_a_top_card_the_three_must_lead_to_makes_a_trick():
    # no-trump, seat 1 on lead; p (seat 0) holds the A of spades and three low hearts, the three
    # hold three hearts at most in one hand and nothing but spades besides: they cannot lead
    # four tricks outside spades (RULES §5: the winner of a trick leads, and p never wins before
    # his first trick), so a spade is led while p still keeps his A, and he makes a trick
    hands = parse_deal("0:A.432.. K.AKQ.. QJ.JT.. T98.9..")
    assert _boss_outlasts(hands, 0, 1, 4) == 1
    assert solve_batch(np.array([hands], dtype=np.uint64), 4, 1, "whist-max", 0, threads=1)[0] >= 1
    # hearts trumps: the three hold trumps and may ruff the A, so the bound does not apply
    assert not _boss_outlasts(hands, 0, 1, 2)
    # p on lead leads the A himself: quick tricks count it, not this bound
    assert not _boss_outlasts(hands, 0, 0, 4)
    # four hearts in one hand: they lead hearts four times, p follows three times and must throw
    # his A on the fourth; no bound, and he makes nothing
    hands = parse_deal("0:A.432.. .AKQJ.. KQJ.T.. T98.9..")
    assert not _boss_outlasts(hands, 0, 1, 4)
    assert solve_batch(np.array([hands], dtype=np.uint64), 4, 1, "whist-max", 0, threads=1)[0] == 0


def test_the_winners_kept_for_the_first_lead_each_count():
    # no-trump, seat 1 on lead; p (seat 0) holds the A K of spades and the A of hearts, the three
    # a diamond each besides: after one diamond trick they must lead a spade or a heart, p wins
    # it and cashes his other two winners
    hands = parse_deal("0:AK.A.2. QJ.K.A. T9.Q.K. 87.J.Q.")
    assert _boss_outlasts(hands, 0, 1, 4) == 3
    assert solve_batch(np.array([hands], dtype=np.uint64), 4, 1, "whist-max", 0, threads=1)[0] == 3
    # two diamonds in a hand: they can lead two tricks outside his suits, and he keeps only two
    # of his three winners for sure (he must throw one on the second diamond)
    hands = parse_deal("0:AK.A.2. Q.K.AJ. JT.Q.K. 98.J.Q.")
    assert _boss_outlasts(hands, 0, 1, 4) == 2
    assert solve_batch(np.array([hands], dtype=np.uint64), 4, 1, "whist-max", 0, threads=1)[0] == 2


def test_a_lone_trump_holder_adds_his_trumps():
    # clubs trumps, held by p alone: each of his two trumps wins whenever he plays it, and the A
    # of spades, which the three must lead to or let him lead, makes one more
    hands = parse_deal("0:A.2..32 K.AKQ.. QJ.JT.. T98.9..")
    assert _boss_outlasts(hands, 0, 1, 0) == 3
    assert solve_batch(np.array([hands], dtype=np.uint64), 0, 1, "whist-max", 0, threads=1)[0] >= 3


@pytest.mark.parametrize(("cards", "seed"), [(3, 71), (4, 72)])
def test_top_cards_the_three_must_lead_to_hold_the_exact_value(cards, seed):
    # whenever _boss_outlasts gives p n tricks, the exact whist-max is at least n; half the
    # positions give p alone the trumps (clubs), where n counts them too
    rng = np.random.default_rng(seed)
    fired = beyond_one = 0
    while fired < 30:
        p = int(rng.integers(0, 4))
        leader = int((p + rng.integers(1, 4)) % 4)
        if fired % 2:
            suits = int(rng.integers(2, 5))
            hands = random_positions(rng, 1, cards, suits)[0]
            trump = int(rng.integers(0, 5))
        else:
            trump, k = 0, int(rng.integers(1, cards))
            side = rng.permutation(np.arange(13, 52))
            trumps = rng.permutation(np.arange(13))[:k]
            mine = [*trumps, *side[: cards - k]]
            rest = side[cards - k: cards - k + 3 * cards]
            hands = np.zeros(4, dtype=np.uint64)
            hands[p] = sum(1 << int(c) for c in mine)
            for j, q in enumerate(q for q in range(4) if q != p):
                hands[q] = sum(1 << int(c) for c in rest[j * cards: (j + 1) * cards])
        n = _boss_outlasts(hands, p, leader, trump)
        if not n:
            continue
        fired += 1
        beyond_one += n > 1
        exact = brute_force([int(h) for h in hands], trump, leader)
        clear_cache()
        where = f"seat {p}, hands {[hex(int(h)) for h in hands]}, trump {trump}, leader {leader}"
        assert exact["team"][1 << p] >= n, where
    assert beyond_one > 0  # the trump count is really checked


def _min_zero(hands, p, leader, trump):
    return _fires(bounds._min_zero, hands, p, leader, trump)


def test_a_seat_under_every_lead_ducks_every_trick():
    # no-trump, seat 1 on lead; seat 0 holds the 3 2 of spades and the 2 of hearts, the others'
    # lowest spades are the 4 and 5: whatever they lead, seat 0 plays under it (RULES §5: he must
    # follow suit, and a card below the card led never wins), so his whist-min is 0
    hands = parse_deal("0:32.2.. 54.A.. 76.K.. A8.Q..")
    assert _min_zero(hands, 0, 1, 4)
    assert solve_batch(np.array([hands], dtype=np.uint64), 4, 1, "whist-min", 0, threads=1)[0] == 0
    # his second spade above their second lowest: the bound does not apply (they lead the 4,
    # then the 5 under his 6)
    assert not _min_zero(parse_deal("0:62.2.. 54.A.. 73.K.. A8.Q.."), 0, 1, 4)
    # a trump in his hand may have to ruff, and on lead he must first get out: no bound either
    assert not _min_zero(hands, 0, 1, 2)
    assert not _min_zero(hands, 0, 0, 4)


@pytest.mark.parametrize(("cards", "seed"), [(3, 61), (4, 62)])
def test_ducking_every_trick_holds_the_exact_value(cards, seed):
    # whenever _min_zero says p can lose every trick, the exact whist-min is 0
    rng = np.random.default_rng(seed)
    fired = 0
    while fired < 40:
        suits = int(rng.integers(2, 4))
        hands = random_positions(rng, 1, cards, suits)[0]
        trump, leader, p = (int(x) for x in rng.integers(0, [5, 4, 4]))
        if not _min_zero(hands, p, leader, trump):
            continue
        fired += 1
        exact = brute_force([int(h) for h in hands], trump, leader)
        clear_cache()
        assert exact["min"][p] == 0, f"seat {p}, hands {[hex(int(h)) for h in hands]}, {trump}"


@pytest.mark.parametrize(("cards", "suits", "seed"), [(5, 4, 61), (9, 3, 62), (13, 4, 63)])
def test_cash_floor_gate_never_undercounts(cards, suits, seed):
    # the in-trick cut skips ``_seat_cash_floor`` when ``_cash_floor_cap`` says it cannot reach
    # the count needed; that is sound only if the cap is never below the count itself
    rng = np.random.default_rng(seed)
    n = 150
    hands = random_positions(rng, n, cards, suits)
    reached = 0
    for i in range(n):
        hs = [int(h) for h in canonical(hands[i])]
        # inside a trick some seats have played a card already (not yet squeezed out)
        for q in range(4):
            if rng.random() < 0.5:
                bits = [b for b in range(52) if hs[q] >> b & 1]
                hs[q] ^= 1 << int(rng.choice(bits))
        h0, h1, h2, h3 = (np.uint64(h) for h in hs)
        for trump in range(5):
            for w in range(4):
                count, _ = bounds._seat_cash_floor(h0, h1, h2, h3, w, trump)
                cap = bounds._cash_floor_cap(h0, h1, h2, h3, w, trump)
                assert count <= cap, f"seat {w}, trump {trump}, hands {[hex(h) for h in hs]}"
                reached += count == cap and count > 0
    assert reached > 0  # the cap is tight on some hands: it is a real bound, not a constant


@pytest.mark.parametrize(("cards", "suits", "seed"), [(3, 2, 41), (3, 4, 42), (4, 3, 43)])
def test_every_search_reports_a_proved_bound(cards, suits, seed):
    # fail-soft searches: a search answers "do the seats win take at least t tricks?" and leaves
    # in stats[ST_BOUND] a bound its proof shows (at least that many on a "yes", at most on a
    # "no"); checked against the brute force for every question and target, with the table
    # shared between the searches of one position as solve_count shares it
    table, stats = _tables(12)
    ws = search.new_workspace()
    beyond = 0
    for hands, trump, leader, exact in _solved_endings(seed, 25, cards, suits):
        canon = canonical(hands)
        for p in range(4):
            for name, win, mx in _questions(p):
                value = exact["min"][p] if name == "whist-min" else exact["team"][win]
                stats[search.ST_GEN] += 1  # a fresh table for each question, shared by its targets
                for t in range(1, cards + 1):
                    got = search._search(0, canon, leader, t, trump, win, mx, 0, ws, table, stats)
                    bound = int(stats[search.ST_BOUND])
                    where = (f"{name} seat {p} target {t}, hands "
                             f"{[hex(int(h)) for h in hands]}, trump {trump}, leader {leader}")
                    assert got == (value >= t), where
                    if got:
                        assert t <= bound <= value, where
                    else:
                        assert value <= bound <= t - 1, where
                    beyond += bound > t or bound < t - 1
    assert beyond > 0  # some searches prove more than they were asked: the bounds are exercised

