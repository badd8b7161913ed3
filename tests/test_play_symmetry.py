"""Play policies are blind to the names of the suits: renaming the suits, and the trump
alike, renames every card played and changes no trick count (RULES §5: only the led suit and the
trump matter to the play). Checked on the reference engine's ``expert``, ``planner`` and
``learned``, whose decisions also tell when two suits were indistinguishable to the seat (the
only case a suit name may decide): such deals are left out."""

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


def _suits_tie(state: DealState, keys: dict) -> bool:
    """Whether two suits share the top of ``keys`` (card -> key); a key is made unique per suit
    picture by :func:`ref.suit_picture`, so a tie means the seat could not tell them apart."""
    out, voids = ref._out(state), ref.shown_voids(state)
    full = {c: (k, ref.suit_picture(state, suit_of(c), out, voids)) for c, k in keys.items()}
    top = max(full.values())
    return len({suit_of(c) for c, k in full.items() if k == top}) > 1


def _expert_keys(state: DealState) -> dict:
    out, voids = ref._out(state), ref.shown_voids(state)
    return {c: ref.expert_key(state, c, out, voids) for c in state.legal_actions()}


def _expert_tie(state: DealState) -> bool:
    """``expert``'s card depends on a suit's code: two suits tie at the top of its keys."""
    return _suits_tie(state, _expert_keys(state))


def _planner_tie(state: DealState) -> bool:
    """As :func:`_expert_tie`, in the keys of the trick ``planner`` gives up when it does."""
    given = ref.planner_give_up(state)
    return _suits_tie(state, given if given is not None else _expert_keys(state))


def _learned_tie(state: DealState) -> bool:
    """True when a suit name may decide the card: two suits tie at the top of ``expert``'s keys
    (its card then depends on the code), or of the learned scores without ``expert``'s card."""
    if _expert_tie(state):
        return True
    scores = ref.learned_scores(state)
    best = max(scores.values())
    tied = [c for c, s in scores.items() if s == best]
    if ref.expert_card(state) in tied:
        return False
    out, voids = ref._out(state), ref.shown_voids(state)
    pics = {suit_of(c): ref.suit_picture(state, suit_of(c), out, voids) for c in tied}
    return len(pics) > 1 and len(set(pics.values())) < len(pics)


def _play(hands, trump, declarer, contracts, card, tie, rule=None):
    """Play the cards of a deal from the contracts with the reference policy ``card`` at every
    seat; returns ``(tricks, plays, ties, ruled)``: ``ties`` the decisions of more than one card
    where ``tie(state)`` says a suit name may decide, ``ruled`` those where ``rule(state)``."""
    state = DealState(Rules(), (declarer + 3) % 4, list(hands))
    state.apply(bid_code(5, trump))  # the declarer calls first and wins with 5 (RULES §2)
    for _ in range(3):
        state.apply(PASS)
    for k in range(4):
        state.apply(contracts[(declarer + k) % 4])
    ties = ruled = 0
    while state.phase == "play":
        if len(state.legal_actions()) > 1 and tie(state):
            ties += 1
        if rule is not None and rule(state):
            ruled += 1
        state.apply(card(state))
    return state.tricks_taken, state.plays, ties, ruled


def _checked_deals(seed: int, deals: int, card, tie, rule=None) -> tuple[int, int]:
    """Play ``deals`` random deals (random strain, declarer and contracts, the sum not 13) and the
    same deals with the suits renamed by a random permutation; assert that the renamed deal
    takes the same tricks with the renamed cards. Returns how many deals had no suit tie, and
    how many decisions of those deals (as first named) ``rule(state)`` marks."""
    rnd = random.Random(seed)
    checked = ruled = 0
    for _ in range(deals):
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
        tricks, plays, ties, r = _play(hands, trump, declarer, contracts, card, tie, rule)
        renamed_trump = NT if trump == NT else perm[trump]
        tricks2, plays2, ties2, _ = _play([_rename(h, perm) for h in hands], renamed_trump,
                                          declarer, contracts, card, tie)
        if ties or ties2:
            continue  # two suits the seat could not tell apart: a name decided
        assert tricks2 == tricks
        assert plays2 == tuple(_rename(1 << c, perm).bit_length() - 1 for c in plays)
        checked += 1
        ruled += r
    return checked, ruled


@pytest.mark.parametrize("seed", range(6))
def test_expert_is_blind_to_suit_names(seed):
    checked, _ = _checked_deals(seed, 25, ref.expert_card, _expert_tie)
    assert checked >= 20  # exact ties are rare


@pytest.mark.parametrize("seed", range(4))
def test_planner_is_blind_to_suit_names(seed):
    # ENGINE §7: the sure tricks and the card it gives a trick up with are suit-blind too
    checked, gave_up = _checked_deals(1000 + seed, 25, ref.planner_card, _planner_tie,
                                      rule=lambda state: ref.planner_give_up(state) is not None)
    assert checked >= 20
    assert gave_up >= 10  # the rule of §7 decided cards in these deals


@pytest.mark.parametrize("seed", range(3))
def test_learned_is_blind_to_suit_names(seed):
    # ENGINE §8: every feature and situation of learned is suit-blind
    checked, _ = _checked_deals(seed, 10, ref.learned_card, _learned_tie)
    assert checked >= 7
