"""RULES.md §3, option ``after_third_frisch``: four passes after the third Frisch throw the deal in
and pass it on (``pass``, the default: the Korean page's misdeal, the deal passing to the left), or
cancel the round so that it is shuffled and dealt again (``redeal``: the English encyclopedia page
and the shorter English page). That the same dealer deals again is our reading (the pages do not
say who deals). Both engines, and the replay of game records (§11)."""

from __future__ import annotations

import numpy as np
import pytest

from whist_sim import Rules
from whist_sim.compiled.entry.batch import play_batch, play_traces
from whist_sim.core.rng import DealRng
from whist_sim.core.rules import MAX_REDEALS
from whist_sim.engine import DealState, play_deal
from whist_sim.engine.game import play_game
from whist_sim.engine.policies import heuristic_policy
from whist_sim.engine.record import record_from_trace, replay_game

REDEAL = Rules(after_third_frisch="redeal")


def passer(state, rng):
    """Passes every auction; lays the heuristic's Frisch cards (the compiled ``hcp:margin=99``
    does the same: its auction never reaches a level, its Frisch is the heuristic's)."""
    return 0 if state.phase == "auction" else heuristic_policy(state, rng)


PASSER = "hcp:margin=99"


def three_frisches_of_passes(rules):
    s = DealState.deal(rules, DealRng(5, 0), dealer=2)
    for _ in range(3):
        s.apply_text(*["pass"] * 4)
        for _ in range(4):
            s.apply(s.legal_actions()[0])
    s.apply_text(*["pass"] * 4)
    return s


def test_pass_throws_the_deal_in_and_the_deal_passes_on():
    s = three_frisches_of_passes(Rules())
    assert s.phase == "thrown_in" and s.scores == (0, 0, 0, 0) and not s.redeal_due


def test_redeal_cancels_the_round_for_the_same_dealer():
    s = three_frisches_of_passes(REDEAL)
    assert s.phase == "thrown_in" and s.scores == (0, 0, 0, 0) and s.redeal_due
    # four passes before the third Frisch are a Frisch, not a redeal; without Frisch, no redeal
    early = DealState.deal(REDEAL, DealRng(5, 0), dealer=2).apply_text(*["pass"] * 4)
    assert early.phase == "frisch" and not early.redeal_due
    no_frisch = DealState.deal(REDEAL.replace(frisch=False), DealRng(5, 0), dealer=2)
    assert not no_frisch.apply_text(*["pass"] * 4).redeal_due


def test_a_redealt_deal_is_dealt_again_from_the_same_stream_by_the_same_dealer():
    # reference engine: play_deal deals again until a bid is made (at most MAX_REDEALS times)
    t = play_deal(3, 7, REDEAL, dealer=1, policies=[passer] * 4)
    assert t.redeals == MAX_REDEALS and t.thrown_in and t.dealer == 1
    once = play_deal(3, 7, Rules(), dealer=1, policies=[passer] * 4)
    assert once.redeals == 0 and once.dealt != t.dealt


def test_the_engines_agree_on_redeals():
    # compiled engine: the redeals column, and the last dealing's hands, equal the reference's
    res = play_traces(3, 0, 4, REDEAL, [PASSER] * 4, ["heuristic"] * 4)
    for j in range(4):
        ref = play_deal(3, j, REDEAL, policies=[passer] * 4)
        assert int(res["redeals"][j]) == ref.redeals == MAX_REDEALS
        assert tuple(int(x) for x in res["dealt"][j]) == ref.dealt
        assert int(res["dealer"][j]) == ref.dealer == j % 4


def test_the_batch_column_counts_redeals_only_under_the_redeal_rule():
    h = ["heuristic"] * 4
    with_rule = play_batch(11, 0, 3000, REDEAL, h, h)
    without = play_batch(11, 0, 3000, Rules(), h, h)
    assert "redeals" not in without and with_rule["redeals"].dtype == np.int8
    redealt = with_rule["redeals"] > 0
    # a deal thrown in under 'pass' is redealt under 'redeal'; no deal ends thrown in
    assert redealt.sum() == without["thrown_in"].sum() > 0
    assert not with_rule["thrown_in"].any()
    same = ~redealt
    assert np.array_equal(with_rule["score_0"][same], without["score_0"][same])


@pytest.mark.parametrize("rules", [Rules(), REDEAL], ids=str)
def test_in_a_game_a_redealt_deal_keeps_the_dealer(rules):
    g = play_game(2, rules, policies=["heuristic"] * 4, max_deals=60)
    dealers = [t.dealer for t in g.traces]
    assert dealers == [d % 4 for d in range(len(dealers))]  # one entry per game deal
    if rules.after_third_frisch == "redeal":
        assert not any(t.thrown_in for t in g.traces)


# --------------------------------------------------------------------------- game records (§11)


def cancelled_round(dealer):
    """The record of a round cancelled by four passes after the third Frisch, by ``dealer``."""
    t = play_deal(3, 7, Rules(), dealer=dealer, policies=[passer] * 4)
    assert t.thrown_in and len(t.frisch) == 3
    rec = record_from_trace(t)
    del rec["rules"]
    return rec


def played_deal(dealer):
    """The record of a deal bid and played out, by ``dealer``."""
    t = play_deal(4, 1, Rules(), dealer=dealer, policies=["heuristic"] * 4)
    assert not t.thrown_in
    rec = record_from_trace(t)
    del rec["rules"]
    return rec


def game_of(rules, *deals):
    return {"game": {"first_dealer": deals[0]["dealer"]}, "rules": rules.to_dict(),
            "deals": list(deals)}


def test_a_game_record_under_redeal_has_the_same_dealer_deal_again():
    # §3 redeal (our reading: the same dealer, as in game and simulate): dealer 0's round is
    # cancelled, and dealer 0 deals again
    res = replay_game(game_of(REDEAL, cancelled_round(0), played_deal(0)))
    assert res.ok, res.error
    assert [d.dealer for d in res.deals] == [0, 0] and res.deals[0].thrown_in
    # the deal passing to the left after a cancelled round is a breach under redeal
    res = replay_game(game_of(REDEAL, cancelled_round(0), played_deal(1)))
    assert not res.ok
    assert res.error.startswith("deals[1].dealer: seat 1, but deals[0] was cancelled after the "
                                "third Frisch")
    assert res.error.endswith("seat 0 deals this one")


def test_a_game_record_under_pass_passes_the_deal_on_after_a_thrown_in_deal():
    # §3 pass (the default): the deal is thrown in and the next dealer deals
    res = replay_game(game_of(Rules(), cancelled_round(0), played_deal(1)))
    assert res.ok, res.error
    res = replay_game(game_of(Rules(), cancelled_round(0), played_deal(0)))
    assert not res.ok
    assert res.error == ("deals[1].dealer: seat 0, but the deal passes to the left: seat 1 deals "
                         "this one")


def test_a_game_record_whose_redeals_reached_the_engines_limit_passes_the_deal_on():
    # the engines stop redealing after MAX_REDEALS dealings: the deal stays thrown in, passes on
    stuck = dict(cancelled_round(2), redeals=MAX_REDEALS)
    assert replay_game(game_of(REDEAL, stuck, played_deal(3))).ok
    assert not replay_game(game_of(REDEAL, stuck, played_deal(2))).ok
    bad = dict(cancelled_round(2), redeals=-1)
    res = replay_game(game_of(REDEAL, bad, played_deal(2)))
    assert res.error == "deals[0].redeals: must be a whole number >= 0, got -1"
