"""The ``rollout`` play policy: its sampler deals only layouts consistent with what the
seat knows, and its choices depend only on (seed, deal) and the seating."""

import numpy as np
import pytest

from whist_sim.compiled.entry.batch import play_batch, play_traces
from whist_sim.compiled.ground.layout import (
    H_DEALT,
    H_FRISCH,
    H_HAND,
    H_PLAYED,
    H_TRICK,
    HM_SIZE,
    PH_PLAY,
    R_DIR,
    S_NFRISCH,
    S_PHASE,
    S_REMOVED,
    S_TURN,
    S_VOIDS,
    new_state,
    rules_array,
    sampler_scratch,
)
from whist_sim.compiled.ground.rng import stream_start
from whist_sim.compiled.loop.phases import (
    apply_call,
    apply_card,
    apply_contract,
    apply_frisch,
    begin_deal,
)
from whist_sim.compiled.search.rollout import _race, sample_layout
from whist_sim.compiled.strategies import parse_play
from whist_sim.core.rules import Rules


def _mid_play(tr, j, rules, cards):
    """Deal ``j`` of the traces rebuilt with the loop's transitions up to ``cards`` cards played."""
    p = rules.players
    rp = rules_array(rules)
    st, hm, _ = new_state()
    begin_deal(st, hm, rp, int(tr["deal"][j]), int(tr["dealer"][j]))
    for s in range(p):
        hm[H_DEALT + s] = hm[H_HAND + s] = tr["dealt"][j, s]
    st[S_REMOVED] = tr["removed_card"][j]
    calls = iter(int(c) for c in tr["calls"][j, : tr["n_calls"][j]])
    frisch = 0
    while st[S_PHASE] < PH_PLAY:
        seat = int(st[S_TURN])
        if st[S_PHASE] == 0:
            apply_call(st, hm, rp, seat, next(calls))
        elif st[S_PHASE] == 1:
            apply_frisch(st, hm, rp, seat, np.uint64(tr["frisch"][j, frisch, seat]))
            frisch += st[S_PHASE] == 0
        else:
            apply_contract(st, rp, seat, int(tr["contracts"][j, seat]))
    for c in tr["plays"][j, :cards]:
        apply_card(st, hm, rp, int(st[S_TURN]), int(c))
    return st, hm, rp


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, three_player_deck="one_random")],
                         ids=str)
def test_sampled_layouts_respect_what_the_seat_knows(rules):
    """RULES §5: a seat that did not follow a suit holds none of it; every other seat holds as
    many cards as it has; the seat's own hand and the cards played stay where they are."""
    p = rules.players
    tr = play_traces(4, 0, 30, rules, ["heuristic"] * p, ["heuristic"] * p)
    checked = 0
    for j in np.flatnonzero(~tr["thrown_in"]):
        for cards in (5, 17, 26):
            st, hm, rp = _mid_play(tr, j, rules, cards)
            seat = int(st[S_TURN])
            sub = np.array([stream_start(np.uint64(9), np.uint64(cards))], dtype=np.uint64)
            out = np.zeros(HM_SIZE, dtype=np.uint64)
            work, tab = sampler_scratch()
            voids = int(st[S_VOIDS])
            passed, to = 0, seat
            if st[S_NFRISCH] > 0:
                f = int(st[S_NFRISCH]) - 1
                passed = int(hm[H_FRISCH + 4 * f + seat])
                to = (seat + int(rp[R_DIR + f])) % p
            for i in range(20):
                # the true layout meets what the seat knows, so a layout is always found
                assert sample_layout(st, hm, rp, seat, sub, work, tab, i == 0, out, True)
                seen = int(hm[H_PLAYED]) | int(hm[H_TRICK])
                assert passed & ~seen & ~int(out[H_HAND + to]) == 0, "Frisch cards at receiver"
                assert int(out[H_HAND + seat]) == int(hm[H_HAND + seat])
                union = 0
                for o in range(p):
                    h = int(out[H_HAND + o])
                    assert h.bit_count() == int(hm[H_HAND + o]).bit_count()
                    assert h & seen == 0 and h & union == 0
                    union |= h
                    for s in range(4):
                        if voids >> (4 * o + s) & 1:
                            assert h >> (13 * s) & 0x1FFF == 0
                checked += 1
    assert checked > 100


def test_rollout_choices_depend_only_on_the_deal():
    """The same deals whatever the chunks (its own stream per decision), and the base policy
    can be named (rollout:base=heuristic)."""
    rules = Rules()
    bid, play = ["heuristic"] * 4, ["rollout:n=2", "rollout:n=8:race=1",
                                     "rollout:n=2:base=heuristic", "heuristic"]
    whole = play_batch(7, 0, 12, rules, bid, play)
    tail = play_batch(7, 6, 6, rules, bid, play)
    for col in tail:
        assert np.array_equal(whole[col][6:], tail[col]), col
    assert parse_play("rollout:base=heuristic").text == "rollout:base=heuristic"
    with pytest.raises(ValueError, match="does not search"):
        parse_play("rollout:base=rollout")


def test_racing_drops_only_candidates_clearly_behind():
    """race=z: after m layouts a candidate goes when its mean score per layout trails the
    leader's by d > 0 with d * sqrt(m) > z * sd of the per-layout differences; the leader is the
    best total, ties to the lowest card; candidates level with it stay."""
    sc = np.array([[10, 10, -10, 10],    # leader (total 20)
                   [-10, -10, -10, -10],  # behind on every layout: goes
                   [10, 10, -10, 10],    # level with the leader: stays
                   [10, -10, -10, 10],   # behind on one layout only: stays
                   [-10, 10, -10, -10]], dtype=np.int64)  # behind on two: goes at z = 1 only
    totals = sc.sum(axis=1)
    alive = np.ones(5, dtype=np.bool_)
    once = np.ones(4, dtype=np.int64)  # every layout counted once
    assert _race(sc, once, alive, totals, 5, 4, 1.0) == 3
    assert alive.tolist() == [True, False, True, True, False]
    alive[:] = True
    assert _race(sc, once, alive, totals, 5, 4, 2.0) == 4  # a stricter z keeps the last
    assert alive.tolist() == [True, False, True, True, True]
    # a layout picked three times from the weighted pool counts three times: the fourth
    # candidate trails on the second layout only, which now weighs 3 of 6: it goes too
    alive[:] = True
    thrice = np.array([1, 3, 1, 1], dtype=np.int64)
    totals = (sc * thrice).sum(axis=1)
    assert _race(sc, thrice, alive, totals, 5, 4, 1.0) == 2
    assert alive.tolist() == [True, False, True, False, False]


def test_a_card_on_the_trick_between_two_of_the_seats_cards_separates_them():
    """Candidates: of two cards of one suit with nothing between them but the seat's own cards and
    cards of earlier tricks, only the lower is tried; a card on the current trick between them
    separates them (K and J over a Q on the table: the K wins the trick, the J does not)."""
    from whist_sim.compiled.ground.layout import H_HAND, H_PLAYED, H_TRICK, HM_SIZE, R_DECK_MASK
    from whist_sim.compiled.search.rollout import _candidates, _separators

    jack, queen, king, ace = 9, 10, 11, 12  # of suit 0: card code 13 * suit + rank
    hm = np.zeros(HM_SIZE, dtype=np.uint64)
    rp = np.zeros(R_DECK_MASK + 1, dtype=np.int64)
    rp[R_DECK_MASK] = (1 << 52) - 1
    seat = 1
    hm[H_HAND + seat] = (1 << jack) | (1 << king)
    legal = np.uint64(hm[H_HAND + seat])
    cands = np.zeros(13, dtype=np.int64)

    hm[H_TRICK] = 1 << queen  # the queen on the table
    n = _candidates(legal, _separators(hm, rp, np.int64(seat)), cands)
    assert cands[:n].tolist() == [jack, king]

    hm[H_TRICK] = 1 << ace
    hm[H_PLAYED] = 1 << queen  # the queen gone in an earlier trick: the K and J are equals
    n = _candidates(legal, _separators(hm, rp, np.int64(seat)), cands)
    assert cands[:n].tolist() == [jack]

    hm[H_PLAYED] = 0  # the queen unseen (still out): they differ
    n = _candidates(legal, _separators(hm, rp, np.int64(seat)), cands)
    assert cands[:n].tolist() == [jack, king]


def test_every_card_of_the_largest_hand_may_be_a_candidate_and_has_a_slot():
    """RULES §8: with three players and the one_random deck a hand holds 17 cards. At the first
    lead each of them can be a run of its own (every other card of its suit still out), so a
    search tries up to 17 candidates: its buffer (MAX_HAND; the kernels do not check bounds)
    holds the largest hand of every rule set."""
    from whist_sim.compiled.ground.layout import H_HAND, HM_SIZE, MAX_HAND, R_DECK_MASK
    from whist_sim.compiled.search.rollout import _candidates, _separators

    sizes = [Rules().hand_size] + [Rules(players=3, three_player_deck=d).hand_size
                                   for d in ("no_suit", "no_low", "one_random")]
    assert max(sizes) == 17 == MAX_HAND
    hm = np.zeros(HM_SIZE, dtype=np.uint64)
    rp = np.zeros(R_DECK_MASK + 1, dtype=np.int64)
    rp[R_DECK_MASK] = (1 << 52) - 1
    picked = [13 * s + r for s in range(4) for r in range(0, 13, 3)][:17]  # every third rank
    hand = sum(1 << c for c in picked)
    hm[H_HAND + 0] = hand
    cands = np.zeros(MAX_HAND, dtype=np.int64)
    n = _candidates(np.uint64(hand), _separators(hm, rp, np.int64(0)), cands)
    assert n == len(picked) == 17 and cands[:n].tolist() == sorted(picked)
