"""The heuristic family's No Trump rule (docs/ENGINE.md §5, docs/STRATEGIES.md).

An NT hand (balanced: two cards or more in every suit and at most one doubleton; a stopper in
every suit: A, Kx, Qxx or Jxxx; ``nt_hcp`` high-card points or more, by default 20 with four
players and 14 with three) rates NT at least as high as its best suit, so the heuristic family
bids NT with it (ties go to the higher strain).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from whist_sim.compiled.entry.batch import play_batch
from whist_sim.compiled.ground.layout import N_PARAMS, rules_array
from whist_sim.compiled.strategies.bidding.estimators import hcp_estimates, ltc_estimates
from whist_sim.compiled.strategies.bidding.heuristic import (
    NT_HCP,
    NT_HCP_FOUR,
    NT_HCP_THREE,
    est_q_all,
    est_q_deck,
    nt_minimum,
)
from whist_sim.compiled.strategies.bidding.heuristic import nt_hand as compiled_nt_hand
from whist_sim.compiled.strategies.registry import BID_POLICIES, NT_PARAMS, seat_params
from whist_sim.core.cards import NT, parse_hand
from whist_sim.core.rules import Rules
from whist_sim.engine import policies as ref

NT_HANDS = [  # NT hands at the four-player minimum (20 high-card points)
    "S:AK2 H:KQ3 D:AQJ4 C:A32",  # 4333, 23 HCP
    "S:A432 H:KQ2 D:AQJ C:KJ2",  # 4333, 20 HCP
    "S:AQ2 H:K2 D:AQJ3 C:AJ32",  # 4432, 21 HCP, one doubleton (Kx stops)
    "S:AKJ32 H:Q32 D:K2 C:AK2",  # 5332, 20 HCP
]
MIDDLE_HANDS = [  # NT hands at the three-player minimum (14), not at the four-player one
    "S:AK2 H:KQ3 D:QJ43 C:A32",  # 4333, 19 HCP
    "S:A432 H:KQ2 D:QJ3 C:KJ2",  # 4333, 16 HCP
    "S:AQ2 H:K2 D:QJ32 C:AJ32",  # 4432, 17 HCP
    "S:AKJ32 H:Q32 D:K2 C:A32",  # 5332, 17 HCP
]
NOT_NT_HANDS = [
    ("S:AKQ2 H:AK32 D:KQJ32 C:-", "a void"),
    ("S:AKQ H:AK32 D:KQJ32 C:A", "a singleton (even the ace)"),
    ("S:AKQ32 H:AK32 D:KQ C:AQ", "two doubletons"),
    ("S:AKQ H:AKQ D:AKQ2 C:432", "clubs not stopped"),
    ("S:AK H:Q2 D:AKQ2 C:AJ432", "Qx is no stopper, and two doubletons"),
    ("S:A32 H:K32 D:Q432 C:A32", "13 high-card points"),
]


def _par(name: str, **overrides: float) -> np.ndarray:
    par = np.zeros((2, 1, N_PARAMS))
    par[0] = seat_params([name], "bid", [overrides])
    return par


@pytest.mark.parametrize("text", NT_HANDS)
def test_a_balanced_strong_hand_with_stoppers_bids_no_trump(text):
    hand = parse_hand(text)
    assert ref.nt_hand(hand)
    q = [ref.est_q(hand, t) for t in range(5)]
    assert q[NT] == max(q)
    assert ref.best_strain(hand) == NT  # ties go to the higher strain: NT
    assert tuple(int(x) for x in est_q_all(np.uint64(hand))) == tuple(q)
    rp = rules_array(Rules())
    for name, estimates in (("hcp", hcp_estimates), ("ltc", ltc_estimates)):
        e = estimates(np.uint64(hand), rp, _par(name), 0)
        assert e[NT] == max(e), name


@pytest.mark.parametrize("text", MIDDLE_HANDS)
def test_the_four_player_minimum_is_20_points_and_the_three_player_one_14(text):
    hand = parse_hand(text)
    assert ref.nt_minimum(NT_HCP, 4) == 20 and ref.nt_minimum(NT_HCP, 3) == 14
    assert not ref.nt_hand(hand) and ref.nt_hand(hand, nt_hcp=14)
    q = [int(x) for x in est_q_all(np.uint64(hand))]  # four players: NT keeps its estimate
    assert q == [ref.est_q(hand, t) for t in range(5)] and q[NT] < max(q)
    assert q[NT] == ref.est_q(hand, NT, nt_hcp=-1)
    at14 = [int(x) for x in est_q_all(np.uint64(hand), 14)]  # nt_hcp=14: NT as its best suit
    assert at14[NT] == max(at14) == max(q)
    assert at14 == [ref.est_q(hand, t, nt_hcp=14) for t in range(5)]


@pytest.mark.parametrize("text, why", NOT_NT_HANDS)
def test_an_unbalanced_weak_or_unstopped_hand_keeps_its_suit(text, why):
    hand = parse_hand(text)
    assert not ref.nt_hand(hand), why
    q = [ref.est_q(hand, t) for t in range(5)]
    assert q[NT] == ref.est_q(hand, NT, nt_hcp=-1)  # the NT rule leaves it alone
    assert ref.best_strain(hand) != NT, why
    assert tuple(int(x) for x in est_q_all(np.uint64(hand))) == tuple(q)


def test_the_rule_can_be_switched_off_and_its_threshold_moved():
    hand = parse_hand("S:A32 H:K32 D:Q432 C:A32")  # 13 HCP
    assert not ref.nt_hand(hand, nt_hcp=14) and ref.nt_hand(hand, nt_hcp=13)
    strong = parse_hand(NT_HANDS[0])
    off = [int(x) for x in est_q_all(np.uint64(strong), -1)]
    assert off[NT] < max(off[:NT])  # nt=0: the earlier estimate, a suit above NT
    assert off == [ref.est_q(strong, t, nt_hcp=-1) for t in range(5)]
    rp = rules_array(Rules())
    e = hcp_estimates(np.uint64(strong), rp, _par("hcp", nt=0), 0)
    assert e[NT] < max(e)
    # one default, three places
    nt_hcp = {q.name: q.default for q in NT_PARAMS}["nt_hcp"]
    assert NT_HCP == ref.NT_HCP == nt_hcp == 0  # 0: the deck's minimum
    assert (NT_HCP_FOUR, NT_HCP_THREE) == (ref.NT_HCP_FOUR, ref.NT_HCP_THREE) == (20, 14)
    for players in (3, 4):
        for v in (-1, 0, 12, 20):
            assert nt_minimum(v, players) == ref.nt_minimum(v, players)
    for name in ("heuristic", "hcp", "ltc", "cautious", "aggressive"):
        assert BID_POLICIES[name].params[-2:] == NT_PARAMS


PERMS = [(1, 0, 2, 3), (3, 2, 1, 0), (2, 3, 0, 1), (1, 2, 3, 0)]


def _rename(hand: int, perm: tuple[int, ...]) -> int:
    """The hand with suit ``s`` renamed ``perm[s]``."""
    out = 0
    for s in range(4):
        out |= ((hand >> (13 * s)) & 0x1FFF) << (13 * perm[s])
    return out


@settings(max_examples=150, deadline=None)
@given(hs.permutations(range(52)), hs.sampled_from(PERMS + [(0, 1, 2, 3)]))
def test_the_estimate_is_blind_to_the_names_of_the_suits(cards, perm):
    hand = sum(1 << c for c in cards[:13])
    if perm == (0, 1, 2, 3):  # also exercise the NT rule often: a balanced hand of top cards
        hand = parse_hand(NT_HANDS[len(cards) % len(NT_HANDS)])
        perm = PERMS[cards[0] % len(PERMS)]
    renamed = _rename(hand, perm)
    q = [int(x) for x in est_q_all(np.uint64(hand))]
    r = [int(x) for x in est_q_all(np.uint64(renamed))]
    assert r[NT] == q[NT] and all(r[perm[s]] == q[s] for s in range(4))
    assert ref.nt_hand(renamed) == ref.nt_hand(hand)
    assert r == [ref.est_q(renamed, t) for t in range(5)]  # the two engines agree


@settings(max_examples=300, deadline=None)
@given(hs.sampled_from(NT_HANDS + MIDDLE_HANDS + [t for t, _ in NOT_NT_HANDS]),
       hs.lists(hs.integers(0, 51), max_size=3), hs.integers(-1, 25), hs.booleans())
def test_the_compiled_nt_rule_is_the_rule_book_one(text, flips, nt_hcp, no_clubs):
    # The compiled nt_hand reads every suit at once, without branches; the reference reads
    # the rule as written. Hands near the NT shape (a few cards added or taken away), every
    # threshold, with and without clubs in the deck (no_suit: clubs need no stopper).
    hand = parse_hand(text)
    for c in flips:
        hand ^= 1 << c
    low = 1 if no_clubs else 0
    if no_clubs:
        hand &= ~0x1FFF
    want = ref.nt_hand(hand, low, nt_hcp)
    assert bool(compiled_nt_hand(np.uint64(hand), low, nt_hcp)) == want


@pytest.mark.parametrize("deck, text, is_nt", [
    ("no_suit", "S:AK32 H:KQ32 D:QJ432 C:-", True),  # the clubs the deck lacks need no stopper
    ("no_low", "S:AK5 H:KQ6 D:QJ6 C:A765", True),  # 12 cards, 3333
    ("one_random", "S:AK32 H:KQ32 D:QJ32 C:A5432", False),  # 17 cards: never an NT hand
])
def test_the_engines_agree_on_nt_hands_of_the_three_player_decks(deck, text, is_nt):
    rules = Rules(players=3, three_player_deck=deck)
    hand = parse_hand(text)
    assert ref.nt_hand(hand, rules.lowest_strain, ref.nt_minimum(NT_HCP, 3)) == is_nt
    q = [ref.est_q(hand, t, rules) for t in range(5)]
    assert (q[NT] == max(q)) == is_nt
    got = est_q_deck(np.uint64(hand), rules_array(rules))
    assert tuple(int(x) for x in got) == tuple(q)


def test_the_family_bids_no_trump_in_play_and_nt0_never_does():
    four = Rules()
    three = Rules(players=3, three_player_deck="no_low")
    for name in ("heuristic", "hcp", "ltc", "cautious", "aggressive"):
        new = play_batch(5, 0, 1500, four, (name,) * 4, ("heuristic",) * 4)
        at14 = play_batch(5, 0, 1500, four, (f"{name}:nt_hcp=14",) * 4, ("heuristic",) * 4)
        old = play_batch(5, 0, 1500, four, (f"{name}:nt=0",) * 4, ("heuristic",) * 4)
        trio = play_batch(5, 0, 1500, three, (name,) * 3, ("heuristic",) * 3)
        assert 0 < (new["trump"] == NT).sum() < (at14["trump"] == NT).sum(), name
        assert (at14["trump"] == NT).mean() > 0.02, name
        assert (trio["trump"] == NT).mean() > 0.02, name
        assert (old["trump"] == NT).sum() == 0, name


DECKS = [Rules(), Rules(players=3, three_player_deck="no_suit"),
         Rules(players=3, three_player_deck="no_low"),
         Rules(players=3, three_player_deck="one_random")]


@settings(max_examples=300, deadline=None)
@given(hs.integers(0, 2**52 - 1), hs.sampled_from(range(len(DECKS))), hs.sampled_from([-1, 0, 14]))
def test_no_estimate_is_below_minus_two_quarter_tricks(bits, deck, nt_hcp):
    """ENGINE.md §5: honours, lengths and ruffs add, and the deck adjustment is at least -2
    quarter tricks (the 12-trick ``no_low`` deck), so every strain's estimate of every hand
    rounds to 0 tricks or more: the rounding that caps at ``N`` and the one that also clips at 0
    (the shaded strategies') pick the same best strain."""
    rules = DECKS[deck]
    hand = np.uint64(bits & rules.deck_mask)
    q = est_q_deck(hand, rules_array(rules), nt_hcp)
    assert min(int(x) for x in q) >= -2
