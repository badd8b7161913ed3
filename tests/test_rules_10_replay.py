"""RULES.md §10 — game records: checking a recorded deal against the rules and scoring it.

One test per kind of breach: each record is refused with the first breach and where it is.
"""

import json

import pytest

from whist_sim import Rules, score
from whist_sim.core.cards import card_str, parse_card
from whist_sim.engine import DealState, play_deal
from whist_sim.engine.record import (
    parse_call,
    record_from_trace,
    replay_file,
    replay_record,
)

HANDS = ["AKQ2.K3.QJ54.872", "T98.AQJ.K32.KQJ5", "J76.T98765.A.A64", "543.42.T9876.T93"]
CALLS = ["pass", "5C", "pass", "6H", "pass", "pass", "pass"]  # seat 3 declares 6H
CONTRACTS = [3, 3, 2, 6]  # by seat; bidding order 3, 0, 1, 2: 6 + 3 + 3 + 2 = 14, over


def lowest_card_play(hands=HANDS, calls=CALLS, contracts=CONTRACTS, dealer=3):
    """The 52 cards of a legal play (every seat plays his lowest legal card)."""
    s = DealState.from_text(hands, dealer=dealer).apply_text(*calls)
    for seat in s.contract_order:
        s.apply(contracts[seat])
    while s.phase == "play":
        s.apply(s.legal_actions()[0])
    return [card_str(c) for c in s.plays], s


def record(**changes):
    rec = {"dealer": 3, "hands": list(HANDS), "calls": list(CALLS), "contracts": list(CONTRACTS)}
    rec["play"] = lowest_card_play()[0]
    rec.update(changes)
    return {k: v for k, v in rec.items() if v is not None}


def refused(rec, **kw):
    res = replay_record(rec, **kw)
    assert not res.ok, res
    return res.error


# ------------------------------------------------------------------ legal records


def test_full_record_is_checked_and_scored():
    # §10: the result names declarer, trump, contracts, over/under, tricks and score by seat
    _, final = lowest_card_play()
    res = replay_record(record())
    assert res.ok and res.finished and not res.thrown_in
    assert (res.declarer, res.trump, res.level) == (3, 2, 6)
    assert res.contracts == (3, 3, 2, 6) and res.over is True
    assert res.tricks == tuple(final.tricks_taken) and sum(res.tricks) == 13
    assert res.scores == tuple(score(b, t, True) for b, t in zip(res.contracts, res.tricks,
                                                                   strict=True))
    out = res.to_json_dict("r.json")
    assert out == {
        "file": "r.json", "ok": True, "thrown_in": False, "declarer": 3, "trump": "H",
        "level": 6, "contracts": [3, 3, 2, 6], "over": True, "tricks": list(res.tricks),
        "scores": list(res.scores),
    }


def test_unfinished_record_is_checked_but_not_scored():
    # §10: a record may stop early (an unfinished deal is checked but not scored)
    res = replay_record(record(play=record()["play"][:10]))
    assert res.ok and not res.finished
    out = res.to_json_dict("u.json")
    assert "tricks" not in out and "scores" not in out
    assert out["declarer"] == 3 and out["contracts"] == [3, 3, 2, 6]
    res = replay_record(record(calls=["pass", "5C"], contracts=None, play=None))
    assert res.ok and not res.finished and res.declarer == -1
    assert set(res.to_json_dict("x")) == {"file", "ok", "thrown_in"}


def test_thrown_in_record_scores_zero():
    # §3/§10: after three Frisches four passes throw the deal in; every seat scores 0
    trace = next(t for i in range(400) if (t := play_deal(1, i, policies=("heuristic",) * 4))
                 .thrown_in)
    rec = record_from_trace(trace)
    assert len(rec["frisch"]) == 3 and rec["calls"] == ["pass"] * 16
    res = replay_record(rec)
    assert res.ok and res.thrown_in
    assert res.to_json_dict("t.json") == {"file": "t.json", "ok": True, "thrown_in": True,
                                          "scores": [0, 0, 0, 0]}


def test_record_with_frisch_round_trip():
    # §10: "frisch": one entry per Frisch, by seat, the three cards passed
    trace = next(t for i in range(400) if (t := play_deal(2, i, policies=("heuristic",) * 4))
                 .frisch and not t.thrown_in)
    res = replay_record(json.loads(json.dumps(record_from_trace(trace))))
    assert res.ok and res.scores == trace.scores and res.tricks == trace.tricks


def test_three_player_record_carries_its_rules():
    # §10 with §8: a record may carry "rules"; the default for others comes from the caller
    rules = Rules(players=3, three_player_deck="one_random")
    trace = next(t for i in range(50) if not (t := play_deal(4, i, rules)).thrown_in)
    rec = record_from_trace(trace)
    res = replay_record(rec)
    assert res.ok and res.scores == trace.scores and res.removed_card == trace.removed_card
    del rec["rules"]
    assert replay_record(rec, rules=rules).scores == trace.scores
    assert "3 hands given, the rules need 4 players" in refused(rec)


def test_call_notation():
    # §10: a bid is level then strain: 5C, 6D, 7H, 8S, 9NT
    assert [parse_call(c) for c in ("5C", "6D", "7H", "8S", "9NT", "pass")] == [
        25, 31, 37, 43, 49, 0]


# ------------------------------------------------------------------ one record per breach


def test_bad_call():
    # §2/§9: a call that is not pass or level+strain
    assert refused(record(calls=["pass", "5X"])) == (
        "calls[1]: call '5X': unknown strain 'X' (use C D H S NT)")


def test_bid_that_does_not_beat():
    # §2 / §10 example: calls[6]: 5H does not beat 5S
    calls = ["pass", "pass", "5D", "pass", "5S", "pass", "5H"]
    assert refused(record(calls=calls, contracts=None, play=None)) == (
        "calls[6]: 5H does not beat 5S")


def test_bid_below_the_minimum_after_a_frisch():
    # §3: after a Frisch the minimum bid is one higher
    frisch = [[["2C", "7C", "8C"], ["8S", "9S", "TS"], ["5H", "6H", "7H"], ["2H", "4H", "3S"]]]
    err = refused(record(calls=["pass"] * 4 + ["5S"], frisch=frisch, contracts=None, play=None))
    assert err == "calls[4]: 5S is below the minimum level 6 after 1 Frisch"


def test_wrong_number_of_frisch_cards():
    # §3: three cards each
    frisch = [[["2C", "7C"], ["8S", "9S", "TS"], ["5H", "6H", "7H"], ["2H", "4H", "3S"]]]
    err = refused(record(calls=["pass"] * 4, frisch=frisch, contracts=None, play=None))
    assert err == "frisch[0][0]: seat 0 passes 2 cards, a Frisch passes 3"


def test_frisch_card_not_in_hand():
    # §3: a player passes cards of his own hand
    frisch = [[["2C", "7C", "8C"], ["8S", "9S", "AS"], ["5H", "6H", "7H"], ["2H", "4H", "3S"]]]
    err = refused(record(calls=["pass"] * 4, frisch=frisch, contracts=None, play=None))
    assert err == "frisch[0][1]: AS not in seat 1's hand"


def test_frisch_missing_or_unexpected():
    # §3: a Frisch happens exactly when the first four calls are passes
    err = refused(record(calls=["pass"] * 4 + ["6S"], contracts=None, play=None))
    assert err.startswith("calls[4]: ") and "no frisch[0]" in err
    frisch = [[["2C", "7C", "8C"], ["8S", "9S", "TS"], ["5H", "6H", "7H"], ["2H", "4H", "3S"]]]
    assert refused(record(frisch=frisch)).startswith("frisch[0]: no Frisch 1 took place")


def test_card_not_in_hand():
    # §5: seat 3 declares and leads; AH is seat 1's
    assert refused(record(play=["AH"])) == "play[0]: AH is not in seat 3's hand"


def test_contract_sum_equal_to_13_by_the_last_bidder():
    # §4: the last bidder (seat 2 here) may not make the sum 13
    assert refused(record(contracts=[3, 3, 1, 6], play=None)) == (
        "contracts[2]: seat 2 bids last and may not make the contracts sum to 13 (6 + 3 + 3 + 1)")


def test_declarer_below_level():
    # §4: the declarer's contract must be at least his auction level
    assert refused(record(contracts=[3, 3, 2, 5], play=None)) == (
        "contracts[3]: the declarer's contract 5 is below his auction level 6")


def revoke_record(**changes):
    # seat 3 leads 2H; seat 0 holds KH 3H but plays AS: a revoke; then everyone plays low
    s = DealState.from_text(HANDS, dealer=3).apply_text(*CALLS)
    for seat in s.contract_order:
        s.apply(CONTRACTS[seat])
    s.apply(parse_card("2H"))
    s.apply(parse_card("AS"), allow_revoke=True)
    while s.phase == "play":
        s.apply(s.legal_actions()[0])
    return record(play=[card_str(c) for c in s.plays], **changes), s


def test_revoke_is_refused_by_default():
    # §5: revoke is a rule breach; §10 revokes: reject (default)
    rec, _ = revoke_record()
    assert refused(rec) == "play[1]: seat 0 must follow hearts (holds 3H KH): AS is a revoke"
    assert refused(revoke_record(revokes="reject")[0]).startswith("play[1]: ")


def test_revoke_penalized():
    # §10 revokes: penalize: the card stands (ours), the offender is fined revoke_penalty (the
    # encyclopedia and short pages: 100 points), play goes on
    rec, final = revoke_record(revokes="penalize")
    res = replay_record(rec)
    assert res.ok and res.finished and res.revokes == [(1, 0)]
    base = score(CONTRACTS[0], final.tricks_taken[0], True)
    assert res.scores[0] == base - 100 and res.scores == final.scores
    assert res.to_json_dict()["revokes"] == [{"play": 1, "seat": 0}]
    # the caller's override beats the record's field, both ways
    assert not replay_record(rec, revokes="reject").ok
    assert replay_record(revoke_record()[0], revokes="penalize").ok
    # the fine is the revoke_penalty rule option
    res = replay_record(dict(rec, rules={"revoke_penalty": 30}))
    assert res.scores[0] == base - 30


def test_wrong_player_count():
    # §1: four hands (three with players=3, §8)
    assert refused(record(hands=HANDS[:3])) == (
        "hands: 3 hands given, the rules need 4 players (one hand per seat)")


def test_duplicate_card():
    # §1/§9: every card once
    hands = list(HANDS)
    hands[1] = "AT9.AQJ.K32.KQJ5"
    assert refused(record(hands=hands)) == "hands[1]: duplicate card AS (also in hands[0])"


def test_wrong_card_count():
    # §1: 13 cards each
    hands = list(HANDS)
    hands[3] = "543.42.T9876.T9"
    assert refused(record(hands=hands)) == "hands[3]: has 12 cards, expected 13"


def test_malformed_json(tmp_path):
    # §10: a bad file is a refused record, not a crash
    bad = tmp_path / "bad.json"
    bad.write_text('{"dealer": 3, "hands": [', encoding="utf-8")
    res = replay_file(bad)
    assert not res.ok and res.error.startswith("not valid JSON: ")
    assert "line 1" in res.error


def test_missing_fields_and_wrong_types():
    # §10: the fields of a record
    assert refused({"dealer": 3, "calls": []}) == "missing field(s): hands"
    assert refused([1, 2]) == "a record must be a JSON object, got list"
    assert refused(record(dealer="3")) == 'dealer: the dealer must be a whole number, got "3"'
    assert refused(record(dealer=4)) == "dealer: seat 4 is not in 0..3"
    assert refused(record(calls="pass pass")).startswith("calls: calls must be a list")
    assert refused(record(contract=[1, 2, 3, 4])).startswith("unknown field(s): contract")
    assert refused(record(revokes="forgive")).startswith("revokes: ")
    assert refused(record(rules={"players": 5})) == "rules: players must be 3 or 4, got 5"
    assert refused(record(rules={"playerz": 3})).startswith("rules: unknown rule option")
    assert refused(record(hands=["XX", *HANDS[1:]])).startswith("hands[0]: ")


def test_calls_and_cards_after_the_end():
    # §2/§5: nothing after the auction is over, nor after the last trick
    assert refused(record(calls=[*CALLS, "pass"])) == (
        "calls[7]: the auction is over; no more calls are allowed")
    full = record()["play"]
    assert refused(record(play=[*full, "AS"])) == "play[52]: the deal is over after 52 cards"
    assert refused(record(contracts=None)) == "play: given, but the contracts are not complete"
    assert refused(record(calls=CALLS[:5], play=None)) == (
        "contracts: given, but the auction is not over")


@pytest.mark.parametrize("bad", [["pass"] * 4 + ["pass"], ["pass", "4S"], ["14NT"]])
def test_other_bad_calls_name_the_call(bad):
    # §2: levels 5..13, one Frisch entry per four passes
    err = refused(record(calls=bad, contracts=None, play=None))
    assert err.startswith(f"calls[{len(bad) - 1}]: ") or err.startswith("calls[4]: ")


def test_thrown_in_record_takes_no_contracts_or_play():
    # §3: a thrown-in deal has no play and no score
    trace = next(t for i in range(400) if (t := play_deal(1, i, policies=("heuristic",) * 4))
                 .thrown_in)
    rec = record_from_trace(trace)
    assert refused(dict(rec, contracts=[1, 2, 3, 4])) == (
        "contracts: given, but the deal was thrown in")
    assert refused(dict(rec, play=["AS"])) == "play: given, but the deal was thrown in"
    assert refused(dict(rec, calls=rec["calls"] + ["pass"])) == (
        "calls[16]: the deal was thrown in; no more calls are allowed")
