"""The compiled engine keeps the rules: every recorded move of many deals is checked here,
independently of both engines, against RULES.md (sections cited per check) and the dealing and
decision order of docs/ENGINE.md §3.
"""

import numpy as np
import pytest

from whist_sim.compiled.entry.batch import play_batch, play_traces
from whist_sim.core.cards import SUIT_MASKS
from whist_sim.core.rng import DealRng
from whist_sim.core.rules import Rules
from whist_sim.core.scoring import score

VARIANTS = [
    Rules(),
    Rules(frisch=False),
    Rules(frisch_raises_minimum=False),
    Rules(frisch_directions="left,across,right"),
    Rules(pass_is_final=True),
    Rules(players=3, three_player_deck="no_suit"),
    Rules(players=3, three_player_deck="no_low", frisch_directions="right,left,right"),
    Rules(players=3, three_player_deck="one_random", pass_is_final=True),
    Rules(bid_order="suit"),
    Rules(players=3, three_player_deck="no_suit", bid_order="suit", pass_is_final=True),
]


def seatings(p):
    r, h = ("random",) * p, ("heuristic",) * p
    mixed_bid = ("heuristic", "random", "heuristic", "random")[:p]
    mixed_play = ("random", "heuristic", "heuristic", "random")[:p]
    return [(r, r), (h, h), (mixed_bid, mixed_play), (h, r)]


def python_deal(seed, deal, rules):
    """ENGINE.md §3.1 written out: Fisher-Yates over the deck, seat s gets deck[s*H:(s+1)*H]."""
    rng = DealRng(seed, deal)
    deck = [c for c in range(52) if rules.deck_mask >> c & 1]
    for j in range(len(deck) - 1, 0, -1):
        k = rng.below(j + 1)
        deck[j], deck[k] = deck[k], deck[j]
    h = rules.hand_size
    hands = [sum(1 << c for c in deck[s * h:(s + 1) * h]) for s in range(rules.players)]
    removed = deck[51] if rules.players == 3 and rules.three_player_deck == "one_random" else -1
    return hands, removed


def check_deal(tr, j, rules):
    """Assert that deal ``j`` of the trace arrays ``tr`` follows RULES.md; return its Frisches."""
    p, n, h = rules.players, rules.n_tricks, rules.hand_size
    dealer = int(tr["dealer"][j])
    assert dealer == int(tr["deal"][j]) % p  # ENGINE §3: dealer of deal i is i % P
    dealt = [int(x) for x in tr["dealt"][j]]
    # §1, §8: each hand H cards, disjoint, from the deck
    union = 0
    for m in dealt:
        assert m.bit_count() == h and m & union == 0 and m & ~rules.deck_mask == 0
        union |= m
    removed = int(tr["removed_card"][j])
    if removed >= 0:
        assert union | (1 << removed) == rules.deck_mask
    else:
        assert union == rules.deck_mask
    # §2-§3 auction rounds and Frisches
    calls = [int(c) for c in tr["calls"][j, : tr["n_calls"][j]]]
    hands = list(dealt)
    first = (dealer + 1) % p
    minimum, nfrisch, i = 5, 0, 0
    declarer = -1
    while True:
        high, high_seat, passes, seat, n_round, passed = 0, -1, 0, first, 0, set()
        while True:
            c = calls[i]
            i += 1
            n_round += 1
            if c == 0:
                passes += 1
                passed.add(seat)
                if (high == 0 and n_round == p) or (high and passes == p - 1):
                    break
            else:
                assert rules.beats(c, high), "§2: a bid must beat the highest bid"
                assert c % 5 >= rules.lowest_strain, "§8: clubs are no bid without clubs"
                assert minimum <= c // 5 <= n and c % 5 <= 4, "§2-§3: level out of range"
                if rules.pass_is_final:
                    assert seat not in passed, "§2 pass_is_final: a seat that passed bid again"
                high, high_seat, passes = c, seat, 0
            seat = (seat + 1) % p
        if high:
            declarer = high_seat
            assert (declarer, high % 5, high // 5) == (
                int(tr["declarer"][j]), int(tr["trump"][j]), int(tr["level"][j]))
            break
        if not rules.frisch or nfrisch == 3:  # §3: thrown in
            assert tr["thrown_in"][j] and int(tr["declarer"][j]) == -1
            break
        passed_cards = [int(x) for x in tr["frisch"][j, nfrisch]]
        off = rules.direction_offset(nfrisch)
        for s in range(p):
            assert passed_cards[s].bit_count() == 3 and passed_cards[s] & ~hands[s] == 0
        hands = [hands[s] & ~passed_cards[s] for s in range(p)]
        for s in range(p):
            hands[(s + off) % p] |= passed_cards[s]
        nfrisch += 1
        if rules.frisch_raises_minimum:
            minimum += 1
    assert i == len(calls), "calls after the end of the auction"
    assert nfrisch == int(tr["n_frisch"][j])
    assert hands == [int(x) for x in tr["hands"][j]], "§3: hands after Frisch"
    if declarer < 0:
        assert int(tr["n_plays"][j]) == 0 and not any(tr["scores"][j])
        return nfrisch
    # §4 contracts
    contracts = [int(x) for x in tr["contracts"][j]]
    assert all(0 <= c <= n for c in contracts)
    assert contracts[declarer] >= int(tr["level"][j]), "§4: declarer below his level"
    assert sum(contracts) != n, "§4: the hooked last bidder made the sum equal the tricks"
    over = sum(contracts) > n
    assert bool(tr["over"][j]) == over
    # §5 play
    plays = [int(x) for x in tr["plays"][j, : tr["n_plays"][j]]]
    assert len(plays) == p * n
    trump = int(tr["trump"][j])
    leader, taken, k = declarer, [0] * p, 0
    for _ in range(n):
        seat, led, best, best_seat = leader, -1, -1, -1
        for pos in range(p):
            c = plays[k]
            k += 1
            assert hands[seat] >> c & 1, "§5: card not in the player's hand"
            if pos == 0:
                led, best, best_seat = c // 13, c, seat
            else:
                if hands[seat] & SUIT_MASKS[led]:
                    assert c // 13 == led, "§5: revoke"
                cs, bs = c // 13, best // 13
                if (cs == bs and c > best) or (cs == trump and bs != trump):
                    best, best_seat = c, seat
            hands[seat] &= ~(1 << c)
            seat = (seat + 1) % p
        taken[best_seat] += 1
        leader = best_seat
    assert taken == [int(x) for x in tr["tricks"][j]]
    # §6 scoring
    assert [int(x) for x in tr["scores"][j]] == [
        score(contracts[s], taken[s], over, rules) for s in range(p)]
    return nfrisch


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_every_move_is_legal(rules):
    p = rules.players
    for bid, play in seatings(p):
        tr = play_traces(11, 1000, 400, rules, bid, play)
        for j in range(400):
            check_deal(tr, j, rules)


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_dealing_follows_engine_contract(rules):
    # ENGINE.md §3.1: the shuffle draws come first in each deal's stream
    r = ("random",) * rules.players
    tr = play_traces(2**64 - 1, 5, 30, rules, r, r)
    for j in range(30):
        hands, removed = python_deal(2**64 - 1, 5 + j, rules)
        assert [int(x) for x in tr["dealt"][j]] == hands
        assert int(tr["removed_card"][j]) == removed


def test_frisch_and_throw_in_are_reached_and_legal():
    # RULES §3: heuristic bidders pass weak hands, so Frisches and throw-ins occur; check them
    for rules in (Rules(), Rules(frisch_directions="left,across,right"), Rules(frisch=False),
                  Rules(frisch_raises_minimum=False)):
        h = ("heuristic",) * 4
        res = play_batch(3, 0, 20000, rules, h, h)
        idx = np.flatnonzero((res["frisch"] > 0) | res["thrown_in"])
        assert len(idx) > 20
        for i in idx[:60]:
            tr = play_traces(3, int(i), 1, rules, h, ("random",) * 4)
            check_deal(tr, 0, rules)
        if rules.frisch:
            assert res["frisch"].max() == 3
            assert (res["thrown_in"] == (res["declarer"] == -1)).all()
        else:
            assert res["frisch"].max() == 0 and res["thrown_in"].any()
