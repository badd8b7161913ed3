"""Play policies are blind to the names of the suits: renaming the suits, and the trump
alike, renames every card played and changes no trick count (RULES §5: only the led suit and the
trump matter to the play). Checked on the reference engine's ``expert``, whose decisions also tell
when two suits were indistinguishable to the seat (the only case a suit name may decide)."""

import random

import pytest

from whist_sim.core.cards import NT, suit_of
from whist_sim.core.rules import Rules
from whist_sim.engine import policies as ref
from whist_sim.engine.state import PASS, DealState, bid_code


def _rename(mask: int, perm: list[int]) -> int:
    out = 0
    for s in range(4):
        out |= (mask >> (13 * s) & 0x1FFF) << (13 * perm[s])
    return out


def _play(hands, trump, declarer, contracts, record_ties=None):
    """Play the cards of a deal from the contracts with ``expert`` at every seat (reference)."""
    rules = Rules()
    state = DealState(rules, (declarer + 3) % 4, list(hands))
    state.apply(bid_code(5, trump))  # the declarer calls first and wins with 5 (RULES §2)
    for _ in range(3):
        state.apply(PASS)
    for k in range(4):
        state.apply(contracts[(declarer + k) % 4])
    while state.phase == "play":
        if record_ties is not None:
            played = 0
            for c in state.plays:
                played |= 1 << c
            out = rules.deck_mask & ~played & ~state.hand(state.to_move)
            voids = ref.shown_voids(state)
            keys = {c: (ref.expert_key(state, c, out, voids),
                        ref.suit_picture(state, suit_of(c), out, voids))
                    for c in state.legal_actions()}
            top = max(keys.values())
            if len({suit_of(c) for c, k in keys.items() if k == top}) > 1:
                record_ties.append(len(state.plays))
        state.apply(ref.expert_card(state))
    return state.tricks_taken, state.plays


@pytest.mark.parametrize("seed", range(6))
def test_expert_is_blind_to_suit_names(seed):
    rnd = random.Random(seed)
    checked = 0
    for _ in range(25):
        deck = list(range(52))
        rnd.shuffle(deck)
        hands = [sum(1 << c for c in deck[13 * s:13 * s + 13]) for s in range(4)]
        trump = rnd.randrange(5)
        declarer = rnd.randrange(4)
        contracts = [rnd.randrange(5) for _ in range(4)]
        contracts[declarer] = max(5, contracts[declarer])
        if sum(contracts) == 13:
            contracts[(declarer + 3) % 4] += 1
        perm = list(range(4))
        rnd.shuffle(perm)
        ties: list[int] = []
        tricks, plays = _play(hands, trump, declarer, contracts, ties)
        renamed_trump = NT if trump == NT else perm[trump]
        tricks2, plays2 = _play([_rename(h, perm) for h in hands], renamed_trump, declarer,
                                contracts, ties)
        if ties:
            continue  # two suits the seat could not tell apart: a name decided
        assert tricks2 == tricks
        assert plays2 == tuple(_rename(1 << c, perm).bit_length() - 1 for c in plays)
        checked += 1
    assert checked >= 20  # exact ties are rare



def _play_planner(hands, trump, declarer, contracts, record_ties):
    """As :func:`_play`, with ``planner`` at every seat; records the plays where two suits tied
    (in the trick it gives up, or in ``expert``'s keys when it plays those)."""
    rules = Rules()
    state = DealState(rules, (declarer + 3) % 4, list(hands))
    state.apply(bid_code(5, trump))
    for _ in range(3):
        state.apply(PASS)
    for k in range(4):
        state.apply(contracts[(declarer + k) % 4])
    gave_up = 0
    while state.phase == "play":
        played = 0
        for c in state.plays:
            played |= 1 << c
        out = rules.deck_mask & ~played & ~state.hand(state.to_move)
        voids = ref.shown_voids(state)
        given = ref.planner_give_up(state)
        if given is not None:
            gave_up += 1
            keys = {c: (k, ref.suit_picture(state, suit_of(c), out, voids))
                    for c, k in given.items()}
        else:
            keys = {c: (ref.expert_key(state, c, out, voids),
                        ref.suit_picture(state, suit_of(c), out, voids))
                    for c in state.legal_actions()}
        top = max(keys.values())
        if len({suit_of(c) for c, k in keys.items() if k == top}) > 1:
            record_ties.append(len(state.plays))
        state.apply(ref.planner_card(state))
    return state.tricks_taken, state.plays, gave_up


@pytest.mark.parametrize("seed", range(4))
def test_planner_is_blind_to_suit_names(seed):
    # ENGINE §7: the sure tricks and the card it gives a trick up with are suit-blind too
    rnd = random.Random(1000 + seed)
    checked = gave_up = 0
    for _ in range(25):
        deck = list(range(52))
        rnd.shuffle(deck)
        hands = [sum(1 << c for c in deck[13 * s:13 * s + 13]) for s in range(4)]
        trump = rnd.randrange(5)
        declarer = rnd.randrange(4)
        contracts = [rnd.randrange(5) for _ in range(4)]
        contracts[declarer] = max(5, contracts[declarer])
        if sum(contracts) == 13:
            contracts[(declarer + 3) % 4] += 1
        perm = list(range(4))
        rnd.shuffle(perm)
        ties: list[int] = []
        tricks, plays, g = _play_planner(hands, trump, declarer, contracts, ties)
        renamed_trump = NT if trump == NT else perm[trump]
        tricks2, plays2, _ = _play_planner([_rename(h, perm) for h in hands], renamed_trump,
                                           declarer, contracts, ties)
        if ties:
            continue
        assert tricks2 == tricks
        assert plays2 == tuple(_rename(1 << c, perm).bit_length() - 1 for c in plays)
        checked += 1
        gave_up += g
    assert checked >= 20
    assert gave_up >= 10  # the rule of §7 decided cards in these deals
