"""The solver's Python API: input checks, batch layout, threads, and the pattern table.

Trick play is RULES §5; positions are hands of equal size at a trick boundary.
"""

from __future__ import annotations

import numpy as np
import pytest

from whist_sim.core.cards import parse_deal
from whist_sim.dd import (
    UNSOLVED,
    DDError,
    bounds,
    bridge_table,
    objectives,
    search,
    solve,
    solve_batch,
    solver,
    whist_summary,
    whist_table,
)
from whist_sim.dd.canon import canonical
from whist_sim.dd.positions import random_positions
from whist_sim.dd.table import GEN_BITS, W_KEYS, WAYS

OBJECTIVES = ("bridge", "whist-max", "whist-min", "whist-exact")


@pytest.mark.parametrize(("cards", "suits", "seed"), [(5, 2, 1), (6, 3, 2), (6, 4, 3), (7, 3, 4)])
def test_rank_patterns_match_exact_positions(cards, suits, seed):
    # the table's rank patterns (a proof stored for every position that agrees on the cards that
    # mattered) must give the same answers as storing proofs for exact positions only
    n = 80
    hands = random_positions(np.random.default_rng(seed), n, cards, suits)
    rng = np.random.default_rng(seed + 100)
    trump = rng.integers(0, 5, n).astype(np.int8)
    leader = rng.integers(0, 4, n).astype(np.int8)
    seat = rng.integers(0, 4, n).astype(np.int8)
    for obj in OBJECTIVES:
        fast = solve_batch(hands, trump, leader, obj, seat, threads=1)
        slow = solve_batch(hands, trump, leader, obj, seat, threads=1, exact_keys=True)
        assert np.array_equal(fast, slow), obj


def test_threads_and_row_order_do_not_change_results():
    hands = random_positions(np.random.default_rng(5), 24, 4, 3)
    rng = np.random.default_rng(6)
    trump = rng.integers(0, 5, 24).astype(np.int8)
    leader = rng.integers(0, 4, 24).astype(np.int8)
    one = solve_batch(hands, trump, leader, "whist-max", 2, threads=1)
    two = solve_batch(hands, trump, leader, "whist-max", 2, threads=2)
    assert np.array_equal(one, two)
    order = rng.permutation(24)
    again = solve_batch(hands[order], trump[order], leader[order], "whist-max", 2, threads=2)
    assert np.array_equal(again, one[order])
    # repeated rows (the table is shared between them) give the same answers as single rows
    rows = np.repeat(hands[:3], 4, axis=0)
    rep = solve_batch(rows, np.repeat(trump[:3], 4), np.repeat(leader[:3], 4), "whist-max", 2)
    assert np.array_equal(rep, np.repeat(one[:3], 4))


def test_the_table_is_emptied_when_the_generation_bits_of_its_keys_wrap():
    # a table entry keeps only the low GEN_BITS bits of its generation (a new deal = a new
    # generation); when they wrap, the table must really be emptied, or an entry from 65,536 deals
    # ago would pass for one of the current deal
    hands = random_positions(np.random.default_rng(8), 2, 6)
    trump = np.array([4, 1], np.int8)
    leader = np.array([0, 3], np.int8)
    seat = np.array([0, 1], np.int8)
    table, stats = search.new_tables(12)
    wrap = 1 << GEN_BITS
    stats[search.ST_GEN] = wrap - 2  # row 0 gets generation wrap - 1, row 1 wraps
    out = np.zeros(2, np.int8)
    lo = np.zeros(2, np.int8)
    hi = np.zeros(2, np.int8)
    exact = np.zeros((2, 14), np.int8)
    objectives.solve_rows(
        hands, trump, leader, seat, objectives.OBJ_BRIDGE, out, lo, hi, exact, table, stats
    )
    words = table[:, W_KEYS:W_KEYS + WAYS // 2]
    keys = np.concatenate([words & np.uint64(0xFFFFFFFF), words >> np.uint64(32)]).ravel()
    live = keys[keys != 0]
    assert live.size > 0  # row 1 stored proofs
    assert set((live >> np.uint64(16)).tolist()) == {(int(stats[search.ST_GEN])) % wrap}
    assert np.array_equal(out, solve_batch(hands, trump, leader, "bridge", seat, threads=1))


def test_output_shapes_and_types():
    hands = random_positions(np.random.default_rng(7), 5, 3, 4)
    out = solve_batch(hands, 4, 0, "bridge")
    assert out.dtype == np.int8 and out.shape == (5,)
    ex = solve_batch(hands, 4, 0, "whist-exact", 1)
    assert ex.dtype == np.bool_ and ex.shape == (5, 14)
    assert not ex[:, 4:].any()  # at most 3 tricks in a 3-card ending
    assert solve_batch(np.zeros((0, 4), np.uint64), 4, 0, "whist-max").shape == (0,)


def _first_target(hands, trump, leader, pair):
    canon = canonical(hands)
    lo, _, hi, _ = bounds._bounds(canon[0], canon[1], canon[2], canon[3], leader, trump, pair, pair,
                                 13, 0, 13)
    return objectives._pair_first_target(canon[0], canon[1], canon[2], canon[3], leader, trump,
                                         pair, lo, hi)


def test_bridge_first_target_estimates_the_pairs_tricks():
    # bridge's first null-window target on a full deal is an estimate of the pair's tricks (only
    # the speed depends on it): near the value, a little high on average, and about 13 in all
    # for the two pairs of one deal
    n = 24
    rng = np.random.default_rng(31)
    hands = random_positions(rng, n, 13)
    trump = rng.integers(0, 5, n).astype(np.int8)
    leader = rng.integers(0, 4, n).astype(np.int8)
    value = solve_batch(hands, trump, leader, "bridge", 0, threads=1).astype(np.int64)
    est = np.array([_first_target(hands[i], int(trump[i]), int(leader[i]), 5) for i in range(n)])
    other = np.array([_first_target(hands[i], int(trump[i]), int(leader[i]), 10)
                      for i in range(n)])
    err = est - value
    assert np.abs(err).mean() <= 1.5
    assert 0 <= err.mean() <= 1.5
    assert np.all(np.abs(est + other - 13) <= 2)
    # the other pair's estimate when seats 0 and 2 hold the top half of every suit is low
    def run(suit, top, bottom):
        return sum(1 << (13 * suit + r) for r in range(bottom, top + 1))
    strong = np.array([run(0, 12, 6) | run(1, 12, 7), run(0, 5, 0) | run(1, 6, 0),
                       run(2, 12, 7) | run(3, 12, 6), run(2, 6, 0) | run(3, 5, 0)], np.uint64)
    assert _first_target(strong, 4, 1, 10) <= 2 <= 11 <= _first_target(strong, 4, 1, 5)


def test_simple_positions():
    # RULES §5: four top spades in one hand win every trick in no-trump when that hand leads
    hands = parse_deal("0:AKQJ... ...AKQJ .AKQJ.. ..AKQJ.")
    assert solve(hands, 4, 0, "whist-max", 0) == 4
    assert solve(hands, 4, 0, "whist-min", 0) == 4  # forced: every card is a winner on lead
    assert solve(hands, 4, 0, "whist-exact", 0) == [4]
    # with clubs trump seat 1 (the clubs) ruffs the spade lead and cashes its trumps
    assert solve(hands, 0, 0, "whist-max", 0) == 0
    assert solve(hands, 0, 0, "whist-max", 1) == 4
    # bridge table: in NT the opening leader's side cashes its suit; in clubs E-W ruff everything
    table = bridge_table(hands)
    assert table["NT"] == [0, 0, 0, 0]
    assert table["C"] == [0, 4, 0, 4]
    summary = whist_summary(hands, 4, 0)
    assert summary[0] == {"max": 4, "min": 4, "exact": [4]}


def test_whist_table_is_every_strains_summary_whatever_the_threads():
    # every strain x seat at once: each strain's rows equal whist_summary of it, on one thread or
    # two, and under a node limit too (a row's answer depends on its strain's rows alone)
    rng = np.random.default_rng(5)
    hands = [int(h) for h in random_positions(rng, 1, 6)[0]]
    for limit in (None, 2_000):
        one = whist_table(hands, 2, node_limit=limit, threads=1)
        two = whist_table(hands, 2, node_limit=limit, threads=2)
        assert one == two
        assert list(one) == ["C", "D", "H", "S", "NT"]
        if limit is not None:  # the limit leaves some answers open and settles others
            cells = [e[k] for rows in one.values() for e in rows for k in ("max", "min", "exact")]
            assert 0 < sum(c is None for c in cells) < len(cells)
        for t, strain in enumerate(one):
            alone = whist_summary(hands, t, 2, node_limit=limit)
            assert one[strain] == [alone[q] for q in range(4)]
    assert whist_table(hands, 0, threads=1) == whist_table(hands, 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"objective": "bridge-max"}, "unknown objective"),
        ({"trump": 5}, "trump 5 is not in 0..4"),
        ({"leader": -1}, "leader -1 is not in 0..3"),
        ({"seat": 4}, "seat 4 is not in 0..3"),
        ({"trump": [1, 2]}, "trump must be one value or one per deal"),
        ({"tt_bits": 40}, "tt_bits"),
        ({"threads": 0}, "threads"),
        ({"node_limit": 0}, "node_limit"),
        ({"node_limit": 2.5}, "node_limit"),
        ({"node_limit": True}, "node_limit"),
    ],
)
def test_bad_arguments_are_named(kwargs, message):
    hands = np.array([parse_deal("0:A... K... Q... J...")], dtype=np.uint64)
    args = {"hands": hands, "trump": 4, "leader": 0, "objective": "bridge", "seat": 0}
    args.update(kwargs)
    with pytest.raises(DDError, match=message):
        solve_batch(**args)


def test_bad_positions_are_named():
    with pytest.raises(DDError, match="same number of cards"):
        solve_batch(np.array([[1, 2, 4, 8 | 16]], dtype=np.uint64), 4, 0, "bridge")
    with pytest.raises(DDError, match="held by two seats"):
        solve_batch(np.array([[1, 1, 4, 8]], dtype=np.uint64), 4, 0, "bridge")
    with pytest.raises(DDError, match="outside the 52 cards"):
        solve_batch(np.array([[1 << 52, 1, 4, 8]], dtype=np.uint64), 4, 0, "bridge")
    with pytest.raises(DDError, match="shape"):
        solve_batch(np.array([[1, 2, 4]], dtype=np.uint64), 4, 0, "bridge")
    with pytest.raises(DDError, match="at most 13"):
        solve_batch(np.array([[(1 << 14) - 1, ((1 << 14) - 1) << 14, ((1 << 14) - 1) << 28,
                               ((1 << 14) - 1) << 38]], dtype=np.uint64), 4, 0, "bridge")
    with pytest.raises(DDError, match="four hands"):
        solve([1, 2, 4], 4, 0, "bridge")


def test_bad_table_arguments_are_named():
    hands = [1, 2, 4, 8]  # one card each
    with pytest.raises(DDError, match="trump 300 is not in 0..4"):
        whist_summary(hands, 300, 0)
    with pytest.raises(DDError, match="trump must be whole numbers"):
        whist_summary(hands, "S", 0)
    with pytest.raises(DDError, match="seat 7 is not in 0..3"):
        whist_summary(hands, 4, 0, [7])
    with pytest.raises(DDError, match="leader 5 is not in 0..3"):
        whist_table(hands, 5)
    with pytest.raises(DDError, match="threads"):
        bridge_table(hands, threads=0)


# --------------------------------------------------------------------------- node limits


def _limit_case(seed=11, n=60, cards=6):
    hands = random_positions(np.random.default_rng(seed), n, cards, 3)
    rng = np.random.default_rng(seed + 1)
    trump = rng.integers(0, 5, n).astype(np.int8)
    leader = rng.integers(0, 4, n).astype(np.int8)
    seat = rng.integers(0, 4, n).astype(np.int8)
    return hands, trump, leader, seat


@pytest.mark.parametrize(("objective", "limit"), [("bridge", 500), ("whist-max", 300),
                                                 ("whist-min", 3000)])
def test_node_limit_leaves_rows_unsolved_with_true_bounds(objective, limit):
    hands, trump, leader, seat = _limit_case()
    exact = solve_batch(hands, trump, leader, objective, seat, threads=1)
    val, lo, hi = solve_batch(
        hands, trump, leader, objective, seat, threads=1, node_limit=limit, return_bounds=True
    )
    unsolved = val == UNSOLVED
    assert unsolved.any() and (~unsolved).any()  # the limit bites on some rows, not on all
    assert np.array_equal(val[~unsolved], exact[~unsolved])  # a solved row is exact
    assert np.array_equal(lo[~unsolved], exact[~unsolved])
    assert np.array_equal(hi[~unsolved], exact[~unsolved])
    # an unsolved row keeps what its searches proved: the true value lies within the bounds
    assert (lo <= exact).all() and (exact <= hi).all()
    assert (lo[unsolved] < hi[unsolved]).all()
    # a generous limit solves everything, exactly
    assert np.array_equal(solve_batch(hands, trump, leader, objective, seat, node_limit=10**9),
                          exact)


@pytest.mark.parametrize(("objective", "limit"), [("whist-max", 1000), ("whist-min", 3000)])
def test_whist_over_the_limit_narrows_its_bounds_from_both_ends(objective, limit):
    # whist-max climbs from its lower bound with half of a row's card plays (whist-min with 85 %),
    # then spends the rest on "no" searches from the top (objectives._climb_then_cap): a row left
    # over the limit has a proved upper bound as well as a lower one (docs/DD.md, "Search order")
    hands, trump, leader, seat = _limit_case(seed=21, n=80, cards=7)
    exact = solve_batch(hands, trump, leader, objective, seat, threads=1)
    val0, lo0, hi0 = solve_batch(hands, trump, leader, objective, seat, threads=1,
                                 node_limit=1, return_bounds=True)
    assert (val0 == UNSOLVED).mean() > 0.9  # one card play settles next to nothing
    # (a limit that leaves several rows unsolved: with solver version 19, 2,000 plays left 6
    # whist-max rows, none of them with a climb past the static bound; 1,000 leaves 14)
    val, lo, hi = solve_batch(hands, trump, leader, objective, seat, threads=1,
                              node_limit=limit, return_bounds=True)
    unsolved = val == UNSOLVED
    assert unsolved.sum() >= 3
    assert (lo <= exact).all() and (exact <= hi).all()
    assert (lo >= lo0).all() and (hi <= hi0).all()
    assert (lo[unsolved] > lo0[unsolved]).any()  # the climb proved more than the static bound
    assert (hi[unsolved] < hi0[unsolved]).any()  # and so did the searches from the top


def test_node_limit_with_whist_exact():
    hands, trump, leader, seat = _limit_case(seed=12)
    exact = solve_batch(hands, trump, leader, "whist-exact", seat, threads=1)
    limited = solve_batch(hands, trump, leader, "whist-exact", seat, threads=1, node_limit=3000)
    assert limited.dtype == np.int8 and limited.shape == exact.shape
    unsolved = (limited == UNSOLVED).all(axis=1)
    assert unsolved.any() and (~unsolved).any()
    assert ((limited == UNSOLVED).any(axis=1) == unsolved).all()  # a row is solved whole or not
    assert np.array_equal(limited[~unsolved].astype(bool), exact[~unsolved])


def test_whist_exact_under_a_limit_asks_whist_min_only_past_whist_max():
    # whist-exact climbs whist-min only until it passes whist-max (then no number of tricks is
    # makeable exactly; docs/DD.md), so a row whose whist-min search would run over the limit is
    # often decided all the same, and decided correctly
    hands, trump, leader, seat = _limit_case(seed=14, cards=7)
    exact = solve_batch(hands, trump, leader, "whist-exact", seat, threads=1)
    wmax = solve_batch(hands, trump, leader, "whist-max", seat, threads=1)
    wmin = solve_batch(hands, trump, leader, "whist-min", seat, threads=1)
    assert not exact[wmin > wmax].any()
    limited = solve_batch(hands, trump, leader, "whist-exact", seat, threads=1, node_limit=3000)
    min_limited = solve_batch(hands, trump, leader, "whist-min", seat, threads=1, node_limit=3000)
    decided = (limited != UNSOLVED).all(axis=1)
    assert np.array_equal(limited[decided].astype(bool), exact[decided])
    early = decided & (min_limited == UNSOLVED)
    assert early.sum() >= 10
    assert (wmin[early] > wmax[early]).all()
    assert not limited[early].any()


def test_whist_exact_is_decided_when_whist_min_passes_an_unsolved_whist_max():
    # under a limit whist-exact gives whist-max at most 90 % of a row's plays, then climbs
    # whist-min past whist-max's proved upper bound: on full deals that often decides "nothing is
    # makeable exactly" for rows whose whist-max itself stays unsolved
    rng = np.random.default_rng(3)
    n = 30
    hands = random_positions(rng, n, 13)
    trump = rng.integers(0, 5, n).astype(np.int8)
    leader = rng.integers(0, 4, n).astype(np.int8)
    seat = rng.integers(0, 4, n).astype(np.int8)
    kw = {"threads": 1, "node_limit": 20_000, "return_bounds": True}
    wmax, max_lo, max_hi = solve_batch(hands, trump, leader, "whist-max", seat, **kw)
    wmin, min_lo, min_hi = solve_batch(hands, trump, leader, "whist-min", seat, **kw)
    exact, _, _ = solve_batch(hands, trump, leader, "whist-exact", seat, **kw)
    decided = (exact != UNSOLVED).all(axis=1)
    early = decided & (wmax == UNSOLVED)
    assert early.sum() >= 2
    assert not exact[early].any()
    # the whist-min and whist-max solves' own proved bounds agree: whist-min > whist-max there
    assert (min_lo[early] > max_hi[early]).all()
    # and wherever they prove it, a decided row makes nothing exactly
    assert not exact[decided & (min_lo > max_hi)].any()


def test_node_limit_results_do_not_depend_on_threads_or_chunks():
    # whether a row fits the limit depends only on the rows of its group (same hands and
    # trump, sharing a table): threads take whole groups
    hands, trump, leader, seat = _limit_case(seed=13, n=12)
    rows = np.repeat(hands, 4, axis=0)
    tr = np.repeat(trump, 4)
    ld = np.repeat(leader, 4)
    seats = np.tile(np.arange(4, dtype=np.int8), 12)
    runs = [
        solve_batch(rows, tr, ld, "whist-max", seats, threads=t, node_limit=200,
                    return_bounds=True)
        for t in (1, 2, 3, 5)
    ]
    assert (runs[0][0] == UNSOLVED).any()
    for other in runs[1:]:
        for a, b in zip(runs[0], other, strict=True):
            assert np.array_equal(a, b)
    # one group solved alone gives the same as inside the batch
    alone = solve_batch(rows[4:8], tr[4:8], ld[4:8], "whist-max", seats[4:8], node_limit=200)
    assert np.array_equal(alone, runs[0][0][4:8])


@pytest.mark.parametrize("objective", [objectives.OBJ_BRIDGE, objectives.OBJ_WHIST_MAX])
def test_card_plays_of_a_row_do_not_depend_on_the_rows_before_it(objective):
    # nothing a search learns (table entries, killer moves) outlives its group of rows: the
    # effort, and so which rows fit a node limit, is the same alone and after other deals
    rng = np.random.default_rng(21)
    hands = random_positions(rng, 4, 7)
    trump = np.array([0, 4, 2, 1], np.int8)
    leader = np.array([3, 0, 1, 2], np.int8)
    seat = np.array([1, 2, 0, 3], np.int8)

    def plays(rows):
        table, stats = search.new_tables(12)
        n = len(rows)
        out, lo, hi = (np.zeros(n, np.int8) for _ in range(3))
        objectives.solve_rows(hands[rows], trump[rows], leader[rows], seat[rows], objective, out,
                              lo, hi, np.zeros((n, 14), np.int8), table, stats)
        return int(stats[search.ST_PLAYS])

    before = plays([0, 1, 2])
    assert before > 0
    assert plays([0, 1, 2, 3]) - before == plays([3])


def test_warm_up_tells_why_a_first_call_waits(monkeypatch):
    # a warm-up whose kernels are ready (compiled, or loaded from the cache) says nothing; one
    # that compiles is announced, then timed
    import numba

    notes = []
    monkeypatch.setattr(solver, "solve_batch", lambda *args, **kwargs: None)
    solver.warm_up(notes.append)
    assert notes == []

    @numba.njit
    def fresh_kernel(x):
        return x + 1

    monkeypatch.setattr(solver, "solve_batch", lambda *args, **kwargs: fresh_kernel(1))
    solver.warm_up(notes.append)
    assert notes[0] == solver.COMPILE_NOTICE and notes[-1].startswith("compiled in ")


@pytest.mark.parametrize(("cards", "seed"), [(7, 11), (8, 12), (9, 13)])
def test_probing_leads_changes_no_answer(cards, seed, monkeypatch):
    # whist-max probes p's leads with a budget of card plays when at least PROBE_MIN_TRICKS tricks
    # are left, then searches the leads whose probe ran out: the answers must be those of the
    # plain search, for whist-max and for whist-exact (whose searches start with whist-max)
    assert cards >= search.PROBE_MIN_TRICKS
    n = 40
    hands = random_positions(np.random.default_rng(seed), n, cards)
    rng = np.random.default_rng(seed + 100)
    trump = rng.integers(0, 5, n).astype(np.int8)
    leader = rng.integers(0, 4, n).astype(np.int8)
    seat = leader.copy()  # p on lead: his leads are probed from the first trick
    seat[::2] = rng.integers(0, 4, n)[::2]
    for obj in ("whist-max", "whist-exact"):
        probed = solve_batch(hands, trump, leader, obj, seat, threads=1)
        monkeypatch.setattr(solver, "_TEST_FLAGS", 2)
        plain = solve_batch(hands, trump, leader, obj, seat, threads=1)
        monkeypatch.setattr(solver, "_TEST_FLAGS", 0)
        assert np.array_equal(probed, plain), obj
