"""RULES.md §2 (option ``bid_order``) and §8 (no clubs with the ``no_suit`` deck): what a bid must
beat, in both engines.

The Korean and Japanese rule pages rank a bid by its strain first: "after seven diamonds, the next
player may say eight diamonds, or five hearts" (``bid_order=suit``); the English encyclopedia page
ranks by the number of tricks first (``bid_order=number``, the default).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from whist_sim import Rules
from whist_sim.compiled.entry.batch import play_batch
from whist_sim.compiled.ground._numba import jit
from whist_sim.compiled.ground.layout import (
    S_HIGH,
    S_MINLEVEL,
    S_PASSED,
    call_floor,
    new_state,
    rules_array,
)
from whist_sim.compiled.loop.phases import call_is_legal, legal_calls
from whist_sim.compiled.strategies.registry import BID, policy_names
from whist_sim.core.rng import DealRng
from whist_sim.engine import DealState, IllegalAction
from whist_sim.engine.state import PASS, parse_call

DEAL = "0:AKQ2.K3.QJ54.872 T98.AQJ.K32.KQJ5 J76.T98765.A.A64 543.42.T9876.T93"
THREE = "0:AKQJT98765432.-.-.- -.AKQJT98765432.-.- -.-.AKQJT98765432.-"  # no_suit: S, H, D
SUIT = Rules(bid_order="suit")


def fresh(rules=SUIT, deal=DEAL):
    return DealState.from_text(deal, dealer=rules.players - 1, rules=rules)


@jit
def _kernel_legal(st, rp, seat, codes, out, floors):
    """The compiled engine's answer for every call code: out[i] = legal(codes[i])."""
    lo, hi = legal_calls(st, rp, seat)
    for i in range(codes.shape[0]):
        out[i] = call_is_legal(st, rp, codes[i], lo, hi)
    for t in range(5):
        floors[t] = call_floor(st, rp, lo, hi, t)
    return lo, hi


def kernel_legal(rules, high, min_level=5, passed=0, seat=0):
    """The legal calls of the compiled engine for an auction state, ascending (0 = pass)."""
    st, _, _ = new_state()
    st[S_HIGH], st[S_MINLEVEL], st[S_PASSED] = high, min_level, passed
    codes = np.arange(0, 5 * rules.max_level + 5, dtype=np.int64)
    out = np.zeros(codes.size, dtype=np.bool_)
    floors = np.zeros(5, dtype=np.int64)
    lo, hi = _kernel_legal(st, rules_array(rules), seat, codes, out, floors)
    legal = [int(c) for c in codes[out] if c == 0 or c >= 25]
    return legal, [int(f) for f in floors], int(lo), int(hi)


# ----------------------------------------------------------------------- the pages' example


def test_after_seven_diamonds_eight_diamonds_or_five_hearts():
    # §2 bid_order=suit: "after seven diamonds ... eight diamonds, or five hearts"; 6D is no raise
    s = fresh().apply_text("7D")
    legal = s.legal_actions()
    assert parse_call("8D") in legal and parse_call("5H") in legal
    assert parse_call("6D") not in legal and parse_call("7D") not in legal
    assert parse_call("13C") not in legal  # a lower strain never beats, whatever the number
    s.apply_text("5H")
    assert s.highest_bid == parse_call("5H")
    with pytest.raises(IllegalAction, match=r"8D does not beat 5H \(bid_order=suit\)"):
        s.apply_text("8D")


def test_the_english_order_refuses_five_hearts_after_seven_diamonds():
    # §2 bid_order=number (default): 5H does not beat 7D; 8D and 7H do
    s = fresh(Rules()).apply_text("7D")
    assert parse_call("5H") not in s.legal_actions()
    assert {parse_call("8D"), parse_call("7H")} <= set(s.legal_actions())
    with pytest.raises(IllegalAction, match="5H does not beat 7D"):
        s.apply_text("5H")


def test_the_compiled_engine_agrees_on_the_example():
    legal, floors, lo, hi = kernel_legal(SUIT, parse_call("7D"))
    assert parse_call("8D") in legal and parse_call("5H") in legal
    assert parse_call("6D") not in legal and parse_call("13C") not in legal
    assert floors == [14, 8, 5, 5, 5]  # C: none (max_level + 1), D from 8, H S NT from 5
    assert lo == parse_call("5H") and hi == parse_call("13NT")
    legal, floors, _, _ = kernel_legal(Rules(), parse_call("7D"))
    assert parse_call("5H") not in legal and floors == [8, 8, 7, 7, 7]


def test_minimum_level_and_frisch_raise_apply_under_suit_order():
    # §2-§3: the minimum level applies as before: after two Frisches, 7 in any strain at least
    s = fresh()
    for _ in range(2):
        s.apply_text(*["pass"] * 4)
        for _seat in range(4):  # every seat passes its three lowest cards
            hand = s.hand(s.to_move)
            s.apply(sum(1 << c for c in [c for c in range(52) if hand >> c & 1][:3]))
    assert s.min_level == 7
    legal = s.legal_actions()
    assert min(c // 5 for c in legal if c) == 7
    s.apply_text("7S")
    assert parse_call("7NT") in s.legal_actions() and parse_call("6NT") not in s.legal_actions()
    assert kernel_legal(SUIT, parse_call("7S"), min_level=7)[1] == [14, 14, 14, 8, 7]


def test_pass_is_final_still_closes_the_auction_for_a_seat_under_suit_order():
    rules = Rules(bid_order="suit", pass_is_final=True)
    s = fresh(rules).apply_text("pass", "5C", "pass", "pass")
    assert s.to_move == 0 and s.legal_actions() == [PASS]  # seat 0 passed first
    assert kernel_legal(rules, parse_call("5C"), passed=0b0001, seat=0)[0] == [PASS]


# ----------------------------------------------------------------------- no clubs without clubs


def test_clubs_cannot_be_bid_with_the_no_suit_deck():
    # §8: the no_suit deck has no clubs, so clubs cannot be trump (in either bid order)
    for order in ("number", "suit"):
        rules = Rules(players=3, three_player_deck="no_suit", bid_order=order)
        s = fresh(rules, THREE)
        legal = s.legal_actions()
        assert all(c % 5 != 0 for c in legal if c)
        assert parse_call("5D") in legal
        with pytest.raises(IllegalAction, match="clubs are not in the deck"):
            s.apply_text("5C")
        k_legal, floors, _, _ = kernel_legal(rules, 0)
        assert k_legal == legal and floors[0] == 14
    # the other three-player decks hold clubs
    assert parse_call("5C") in fresh(Rules(players=3, three_player_deck="no_low"),
                                     "0:AKQJT9876.AKQ.-.- -.JT9876.AKQJ.AK "
                                     "-.-.T9876.QJT9876").legal_actions()


# ----------------------------------------------------------------------- both engines, any state


@settings(max_examples=300, deadline=None)
@given(
    order=hs.sampled_from(["number", "suit"]),
    players=hs.sampled_from([3, 4]),
    deck=hs.sampled_from(["no_suit", "no_low", "one_random"]),
    calls=hs.lists(hs.integers(0, 89), max_size=6),
)
def test_the_engines_list_the_same_legal_calls(order, players, deck, calls):
    # §2, §8: after any legal sequence of bids, the compiled legal set equals the reference's
    rules = Rules(players=players, three_player_deck=deck, bid_order=order)
    state = DealState.deal(rules, DealRng(1, len(calls)), dealer=players - 1)
    high = 0
    for c in calls:
        legal = state.legal_actions()
        bid = legal[c % len(legal)]
        if bid == PASS:
            continue  # passes could end the auction: the bids alone make the state
        state.apply(bid)
        high = bid
    k_legal, floors, _, _ = kernel_legal(rules, high, seat=state.to_move)
    assert k_legal == state.legal_actions()
    for t in range(5):
        low = state.lowest_level(t)
        assert floors[t] == (rules.max_level + 1 if low is None else low)


# ----------------------------------------------------------------------- strategies bid sensibly


@pytest.mark.parametrize("rules", [SUIT, Rules(players=3, three_player_deck="no_suit",
                                               bid_order="suit")], ids=str)
def test_every_bidding_strategy_bids_legally_and_within_reason_under_suit_order(rules):
    # every strategy, in the audited loop (an illegal call raises); and sensibly: the auction
    # level stays within the range of the number order's, and few deals are thrown in
    p = rules.players
    base = rules.replace(bid_order="number")
    for name in policy_names(BID):
        n = 6 if name == "montecarlo" else 400
        bid = [name] * p
        res = play_batch(7, 0, n, rules, bid, ["heuristic"] * p, audited=True)
        ref = play_batch(7, 0, n, base, bid, ["heuristic"] * p)
        played = ~res["thrown_in"]
        assert played.mean() >= ref["thrown_in"].__invert__().mean() - 0.05, name
        if n >= 100:
            assert res["level"][played].mean() <= ref["level"][~ref["thrown_in"]].mean() + 0.5
            # the declarer's contract is never below his level (the loop checks it) and he makes
            # it about as often as under the number order
            made = np.zeros(n, dtype=bool)
            made_ref = np.zeros(n, dtype=bool)
            for s in range(p):
                made |= (res["declarer"] == s) & (res[f"tricks_{s}"] == res[f"contract_{s}"])
                made_ref |= (ref["declarer"] == s) & (ref[f"tricks_{s}"] == ref[f"contract_{s}"])
            assert made[played].mean() >= made_ref[~ref["thrown_in"]].mean() - 0.1, name
