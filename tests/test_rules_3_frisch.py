"""RULES.md §3 — Frisch: four passes, three cards to the left, a higher minimum; thrown-in deals."""

import pytest

from whist_sim import Rules
from whist_sim.core.cards import parse_card
from whist_sim.core.rng import DealRng
from whist_sim.engine import DealState, IllegalAction, play_deal
from whist_sim.engine.policies import random_policy

DEAL = "0:AKQ2.K3.QJ54.872 T98.AQJ.K32.KQJ5 J76.T98765.A.A64 543.42.T9876.T93"
# what each seat lays down in the first Frisch (dealer 3, so seat 0 chooses first)
PASSES = {0: "2C 7C 8C", 1: "8S 9S TS", 2: "5H 6H 7H", 3: "2H 4H 3S"}
FOUR_PASSES = ("pass",) * 4


def mask(cards: str) -> int:
    m = 0
    for c in cards.split():
        m |= 1 << parse_card(c)
    return m


def fresh(rules=None, dealer=3):
    return DealState.from_text(DEAL, dealer=dealer, rules=rules)


def frisch_once(s: DealState, passes=None) -> dict[int, int]:
    """Four passes, then every seat lays ``passes[seat]`` (default: his three lowest cards)."""
    s.apply_text(*FOUR_PASSES)
    laid = {}
    for _ in range(4):
        seat = s.to_move
        laid[seat] = mask(passes[seat]) if passes else s.legal_actions()[0]
        s.apply(laid[seat])
    return laid


def test_four_passes_lead_to_a_frisch():
    # §3: if the first four calls of an auction are all passes, there is a Frisch
    s = fresh().apply_text(*FOUR_PASSES[:3])
    assert s.phase == "auction"
    s.apply_text("pass")
    assert s.phase == "frisch" and s.to_move == 0  # ENGINE §3: first caller chooses first


def test_frisch_legal_actions_are_the_three_card_sets_of_the_hand():
    # §3: three cards of one's own hand; ENGINE §3 order: ascending card codes, lexicographic
    s = fresh().apply_text(*FOUR_PASSES)
    legal = s.legal_actions()
    assert len(legal) == 286  # 13 choose 3
    assert all(m.bit_count() == 3 and m & ~s.hand(0) == 0 for m in legal)
    assert legal[0] == mask("2C 7C 8C")  # the three lowest card codes of seat 0
    assert legal == sorted(legal, key=lambda m: [c for c in range(52) if m >> c & 1])


def test_cards_move_together_to_the_left_after_every_seat_chose():
    # §3: every player lays three cards for the player to his left, and picks up the three
    # passed to him only after laying his own (ENGINE §3: all cards move at once)
    s = fresh().apply_text(*FOUR_PASSES)
    before = s.hands
    order = []
    for _ in range(3):
        order.append(s.to_move)
        s.apply_text(PASSES[s.to_move])
        assert s.hands == before  # nothing has moved yet
    order.append(s.to_move)
    s.apply_text(PASSES[s.to_move])
    assert order == [0, 1, 2, 3]
    for seat in range(4):
        giver = (seat - 1) % 4
        expected = (before[seat] & ~mask(PASSES[seat])) | mask(PASSES[giver])
        assert s.hand(seat) == expected
    assert s.frisch == (tuple(mask(PASSES[seat]) for seat in range(4)),)
    assert s.phase == "auction" and s.to_move == 0  # a new auction, same first caller (ours)


def test_frisch_conserves_the_cards():
    # §3: cards only change hands
    s = fresh()
    frisch_once(s, PASSES)
    assert sum(s.hands) == sum(s.dealt) == (1 << 52) - 1
    assert all(h.bit_count() == 13 for h in s.hands)


def test_frisch_raises_the_minimum_bid_5_6_7_8():
    # §3: a new trump auction with a minimum one higher than before (5 -> 6 -> 7 -> 8)
    s = fresh()
    minimums = [s.min_level]
    for _ in range(3):
        frisch_once(s)
        minimums.append(s.min_level)
        assert min(c for c in s.legal_actions() if c) == 5 * s.min_level
    assert minimums == [5, 6, 7, 8]
    with pytest.raises(IllegalAction, match="7NT is below the minimum level 8 after 3 Frisches"):
        s.apply_text("7NT")


def test_frisch_raises_minimum_off_keeps_five():
    # §3: option frisch_raises_minimum=False (the minimum stays 5; the encyclopedia page's
    # Variations: "No raising the minimum bid in a frisch")
    s = fresh(Rules(frisch_raises_minimum=False))
    frisch_once(s)
    assert s.min_level == 5 and 25 in s.legal_actions()


def test_after_the_third_frisch_four_passes_throw_the_deal_in():
    # §3: at most three Frisches; then four passes throw the deal in: no play, no score
    s = fresh()
    for _ in range(3):
        frisch_once(s)
    assert s.frisch_count == 3
    s.apply_text(*FOUR_PASSES)
    assert s.phase == "thrown_in" and s.is_over
    assert s.scores == (0, 0, 0, 0) and s.legal_actions() == []
    with pytest.raises(IllegalAction, match="thrown in"):
        s.apply(0)


def test_no_frisch_option_throws_in_at_once():
    # §3: frisch=False (the encyclopedia page's "No frisch"; ours: four passes throw the deal in at
    # once)
    s = fresh(Rules(frisch=False)).apply_text(*FOUR_PASSES)
    assert s.phase == "thrown_in" and s.frisch_count == 0


def test_frisch_directions_left_across_right():
    # §3: frisch_directions = left,across,right (the encyclopedia page's Variations): receiver of
    # Frisch 1, 2, 3
    s = fresh(Rules(frisch_directions="left,across,right"))
    for offset in (1, 2, 3):
        before = s.hands
        laid = frisch_once(s)
        for seat in range(4):
            giver = (seat - offset) % 4
            assert s.hand(seat) == (before[seat] & ~laid[seat]) | laid[giver]


def test_wrong_number_of_frisch_cards_is_refused():
    # §3: every player lays exactly three cards
    s = fresh().apply_text(*FOUR_PASSES)
    with pytest.raises(IllegalAction, match="passes 2 cards, a Frisch passes 3"):
        s.apply_text("2C 7C")
    with pytest.raises(IllegalAction, match="passes 4 cards"):
        s.apply_text("2C 7C 8C 2S")


def test_frisch_card_not_in_hand_is_refused():
    # §3: a player passes cards of his own hand
    s = fresh().apply_text(*FOUR_PASSES)
    with pytest.raises(IllegalAction, match="AH not in seat 0's hand"):
        s.apply_text("2C 7C AH")


def test_random_frisch_pass_uses_three_draws():
    # ENGINE §4: below(13)-th card of the hand, then below(12)-th of the rest, then below(11)-th
    s = fresh().apply_text(*FOUR_PASSES)
    rng = DealRng(5, 0)
    ref = DealRng(5, 0)
    got = random_policy(s, rng)
    rest = [c for c in range(52) if s.hand(0) >> c & 1]
    want = 0
    for n in (13, 12, 11):
        want |= 1 << rest.pop(ref.below(n))
    assert got == want and rng.draws == 3


def test_simulated_deals_with_frisch_keep_13_cards_and_the_minimum():
    # §3 in full deals: find a Frisch among heuristic deals and check the next auction's bids
    found = 0
    for i in range(400):
        t = play_deal(11, i, policies=("heuristic",) * 4)
        if not t.frisch:
            continue
        found += 1
        assert all(h.bit_count() == 13 for h in t.hands)
        assert sum(t.hands) == (1 << 52) - 1
        bids = [c for c in t.calls if c]
        if bids:
            assert min(bids) >= 5 * (5 + len(t.frisch))
        if found >= 5:
            break
    assert found >= 1

