"""RULES.md §4 — contract bidding (second bidding round): declarer first, level, the hook."""

import pytest

from whist_sim import Rules
from whist_sim.engine import DealState, IllegalAction, play_deal

DEAL = "0:AKQ2.K3.QJ54.872 T98.AQJ.K32.KQJ5 J76.T98765.A.A64 543.42.T9876.T93"


def after_auction(winning="7H", dealer=3, rules=None):
    """Seat 0 (dealer 3's left) bids ``winning``, the others pass: seat 0 declares."""
    return DealState.from_text(DEAL, dealer=dealer, rules=rules).apply_text(
        winning, "pass", "pass", "pass"
    )


def test_declarer_bids_first_then_clockwise():
    # §4: the declarer bids first, then clockwise
    s = DealState.from_text(DEAL, dealer=0).apply_text("pass", "5S", "pass", "pass", "pass")
    assert s.declarer == 2 and s.phase == "contracts"
    order = []
    for n in (5, 2, 2, 1):
        order.append(s.to_move)
        s.apply(n)
    assert order == [2, 3, 0, 1] == list(s.contract_order)
    assert s.contracts == (2, 1, 5, 2)  # by seat, not in bidding order


def test_contracts_run_from_0_to_13():
    # §4: each player names a number of tricks, 0..13
    s = after_auction("5S")
    s.apply(5)
    assert s.legal_actions() == list(range(14))
    with pytest.raises(IllegalAction, match="contract 14 is not in 0..13"):
        s.apply(14)


def test_declarer_contract_at_least_his_auction_level():
    # §4: the declarer's contract must be at least his auction level
    s = after_auction("7H")
    assert s.legal_actions() == list(range(7, 14))
    with pytest.raises(IllegalAction, match="below his auction level 7"):
        s.apply(6)
    s.apply(7)
    assert s.contracts[0] == 7


def test_example_7_0_3_last_may_bid_anything_but_3():
    # §4 example: contracts 7, 0, 3 so far; the last bidder may bid anything but 3
    s = after_auction("7H").apply_text(7, 0, 3)
    assert s.to_move == 3 and s.forbidden_contract() == 3
    assert s.legal_actions() == [0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    with pytest.raises(IllegalAction, match=r"may not make the contracts sum to 13 \(7 \+ 0 \+ 3"):
        s.apply(3)
    s.apply(4)
    assert s.phase == "play" and s.over  # 14 > 13: an over deal


def test_only_the_last_bidder_is_hooked():
    # §4: the fourth (last) bidder may not make the sum 13; the others may bid any number
    s = after_auction("5S")
    assert s.forbidden_contract() is None
    s.apply(13)  # 13 so far: the next two may still bid 0
    assert s.forbidden_contract() is None and 0 in s.legal_actions()
    s.apply(0)
    assert 0 in s.legal_actions()
    s.apply(0)
    assert s.forbidden_contract() == 0 and 0 not in s.legal_actions()


def test_no_number_is_forbidden_when_the_sum_is_already_past_13():
    # §4: 13 - (sum of the others) < 0 names no legal number
    s = after_auction("9S").apply_text(9, 4, 3)
    assert s.legal_actions() == list(range(14))


def test_under_deal():
    # §4: sum < 13 is an under deal
    s = after_auction("5C").apply_text(5, 2, 1, 1)
    assert s.phase == "play" and not s.over and sum(s.contracts) == 9


@pytest.mark.parametrize("seed", range(3))
def test_simulated_contracts_never_sum_to_13(seed):
    # §4: 13 itself is impossible; declarer at or above level
    for policy in ("random", "heuristic"):
        for i in range(60):
            t = play_deal(seed, i, policies=(policy,) * 4)
            if t.thrown_in:
                continue
            assert sum(t.contracts) != 13
            assert t.contracts[t.declarer] >= t.level
            assert t.over == (sum(t.contracts) > 13)


def test_hook_uses_the_number_of_tricks_in_the_deal():
    # §4 with §8: the forbidden sum is the number of tricks (12 for the no_low deck)
    rules = Rules(players=3, three_player_deck="no_low")
    s = DealState.from_text(
        ["AKQJT.AKQ.AK.AK", "98.JT9.QJT9.QJT", "76.876.876.9876"], dealer=2, rules=rules
    ).apply_text("5S", "pass", "pass")
    s.apply_text(10, 1)
    assert s.forbidden_contract() == 1 and 1 not in s.legal_actions()
    assert s.legal_actions() == [0, *range(2, 13)]
