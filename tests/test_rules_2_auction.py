"""RULES.md §2 — the trump auction (first bidding round); call encoding of docs/ENGINE.md §1."""

import pytest

from whist_sim import Rules
from whist_sim.engine import DealState, IllegalAction
from whist_sim.engine.state import PASS, bid_code, call_str, parse_call

# seats 0..3; every card once (checked by DealState)
DEAL = "0:AKQ2.K3.QJ54.872 T98.AQJ.K32.KQJ5 J76.T98765.A.A64 543.42.T9876.T93"
C, D, H, S, NT = range(5)


def fresh(dealer=3, rules=None):
    return DealState.from_text(DEAL, dealer=dealer, rules=rules)


def test_call_codes_compare_like_bids():
    # ENGINE §1: pass = 0, bid (n, strain) = 5n + strain; 5C = 25, 5NT = 29, 13NT = 69
    assert bid_code(5, C) == 25 and bid_code(5, NT) == 29 and bid_code(13, NT) == 69
    assert [parse_call(t) for t in ("pass", "5C", "7h", "9NT", "6♠")] == [0, 25, 37, 49, 33]
    assert [call_str(c) for c in (0, 25, 29, 69)] == ["pass", "5C", "5NT", "13NT"]


@pytest.mark.parametrize("dealer", range(4))
def test_first_call_is_by_the_dealers_left(dealer):
    # §2: the player to the dealer's left calls first, then calls go clockwise
    s = fresh(dealer)
    assert s.phase == "auction" and s.to_move == (dealer + 1) % 4
    s.apply_text("pass")
    assert s.to_move == (dealer + 2) % 4


@pytest.mark.parametrize(
    "first, second",
    [("5D", "5S"), ("5S", "6H"), ("5S", "5NT"), ("5C", "5D"), ("12NT", "13C")],
)
def test_a_bid_must_beat_the_highest_bid(first, second):
    # §2: a larger n, or the same n in a higher strain (5♠ beats 5♦; 6♥ beats 5♠; 5NT beats 5♠)
    s = fresh().apply_text(first)
    assert parse_call(second) in s.legal_actions()
    s.apply_text(second)
    assert s.highest_bid == parse_call(second)


@pytest.mark.parametrize("first, second", [("5S", "5D"), ("5S", "5H"), ("6H", "5NT"), ("5S", "5S")])
def test_a_bid_that_does_not_beat_is_refused(first, second):
    # §2: 5♦ does not beat 5♠, nor 5NT beat 6♥, nor a bid equal itself
    s = fresh().apply_text(first)
    assert parse_call(second) not in s.legal_actions()
    with pytest.raises(IllegalAction, match=f"{second} does not beat {first}"):
        s.apply_text(second)
    assert s.highest_bid == parse_call(first) and len(s.calls) == 1


def test_levels_run_from_the_minimum_five_to_thirteen():
    # §2: n runs from the current minimum (5 at the start of a deal) to 13
    s = fresh()
    # ENGINE §3: legal calls are pass, then every bid ascending
    assert s.legal_actions() == [PASS, *range(25, 70)]
    with pytest.raises(IllegalAction, match="4S is below the minimum level 5"):
        s.apply_text("4S")
    with pytest.raises(IllegalAction, match="14C is above the highest level 13"):
        s.apply_text("14C")
    s.apply_text("13NT")
    assert s.legal_actions() == [PASS]  # nothing beats 13NT


def test_a_player_who_passed_may_bid_again_by_default():
    # §2: option pass_is_final, default off (both ours: no page says)
    s = fresh().apply_text("pass", "5C", "pass", "pass")
    assert s.to_move == 0 and parse_call("5D") in s.legal_actions()
    s.apply_text("5D")
    assert s.highest_bidder == 0


def test_pass_is_final_keeps_a_passed_player_out():
    # §2: with pass_is_final a player who passed may not bid again in that auction
    s = fresh(rules=Rules(pass_is_final=True)).apply_text("pass", "5C", "pass", "pass")
    assert s.to_move == 0 and s.legal_actions() == [PASS]
    with pytest.raises(IllegalAction, match="passed earlier"):
        s.apply_text("5D")


def test_auction_ends_when_a_bid_is_followed_by_three_passes():
    # §2: the bid's maker is the declarer, its strain trump, its n the auction level
    s = fresh().apply_text("pass", "5C", "pass", "6H", "pass", "pass")
    assert s.phase == "auction"  # only two passes after 6H so far
    s.apply_text("pass")
    assert s.phase == "contracts"
    assert (s.declarer, s.trump, s.level) == (3, H, 6)
    assert s.calls == (0, 25, 0, 32, 0, 0, 0)  # 6H = 5 * 6 + 2


def test_no_trump_winning_bid_means_no_trump_suit():
    # §2: NT means no trump; encoded as strain 4 (ENGINE §1)
    s = fresh().apply_text("5NT", "pass", "pass", "pass")
    assert (s.declarer, s.trump, s.level) == (0, NT, 5)


def test_three_passes_after_the_opening_bid_by_the_first_caller():
    # §2: the very first call may be the winning bid
    s = fresh(dealer=1).apply_text("7S", "pass", "pass", "pass")
    assert (s.declarer, s.trump, s.level) == (2, S, 7)


def test_calls_after_the_auction_are_not_calls():
    # §2: after the auction is over the next phase is contract bidding (§4), not more calls
    s = fresh().apply_text("5S", "pass", "pass", "pass")
    assert s.phase == "contracts"
    with pytest.raises(IllegalAction):
        s.apply(50)  # a contract of 50 tricks, not a call


def test_unreadable_calls_are_refused():
    # §9: bad input raises a clear error naming the offending part
    from whist_sim import NotationError

    for bad in ("5X", "pass5", "", "S5", "five spades"):
        with pytest.raises(NotationError, match="call"):
            parse_call(bad)
