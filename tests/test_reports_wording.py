"""How the reports word things for a card player: intervals, seats, the rules, the glossary
(whist_sim.analyses.reports.wording)."""

from __future__ import annotations

import pytest

from whist_sim.analyses.reports import wording as W
from whist_sim.analyses.reports.render import glossary_markdown
from whist_sim.core.rules import Rules

MINUS = "\u2212"


# ------------------------------------------------------------------------------ intervals


def test_a_share_and_its_interval_carry_the_unit_on_every_number():
    assert W.share_interval(-0.132, -0.178, -0.086, sign=True) == "−13.2 % (−17.8 % to −8.6 %)"
    assert W.share_interval(0.54, 0.53, 0.55) == "54.0 % (53.0 % to 55.0 %)"
    assert W.share_text(0.5396) == "54.0 %"
    assert W.share_text(0.01, sign=True) == "+1.0 %"


def test_points_and_their_interval_end_with_the_unit():
    assert W.points_interval(2.4, 1.8, 2.9) == "+2.4 (+1.8 to +2.9) points"
    assert W.points_interval(24.3, 23.8, 24.8, sign=False) == "24.3 (23.8 to 24.8) points"
    assert W.points_interval(-0.55, -0.85, -0.26, unit="") == "−0.6 (−0.8 to −0.3)"
    assert W.points_interval(-0.55, -0.85, -0.26, decimals=2) == "−0.55 (−0.85 to −0.26) points"
    assert W.points_text(-0.66) == "−0.7 points"


def test_negative_numbers_have_a_real_minus_sign_and_zero_none():
    text = W.points_interval(-9.94, -13.62, -6.27)
    assert MINUS in text and "-" not in text
    assert W.signed(-0.04) == "0.0" and W.signed(0.04) == "0.0"  # rounds to 0: no sign
    assert W.signed(1234.5) == "+1,234.5"
    assert W.number_text(float("nan")) == "-"  # a missing value


def test_a_narrow_interval_gets_the_decimals_that_tell_its_ends_apart():
    assert W.share_interval(0.5396, 0.5386, 0.5405) == "53.96 % (53.86 % to 54.05 %)"
    assert W.points_interval(6.09, 6.088, 6.092, sign=False) == "6.090 (6.088 to 6.092) points"


def test_without_an_interval_the_number_stands_alone():
    assert W.share_interval(0.25, float("nan"), float("nan")) == "25.0 %"
    assert W.points_interval(3.0, float("nan"), float("nan")) == "+3.0 points"


# ---------------------------------------------------------------------------------- seats


def test_seats_are_named_by_their_place_from_the_dealer():
    assert [W.seat_name(k) for k in range(4)] == ["dealer", "second", "third", "fourth"]
    assert [W.seat_name(k, players=3) for k in range(3)] == ["dealer", "second", "third"]
    with pytest.raises(ValueError):
        W.seat_name(3, players=3)  # three players: no fourth seat
    with pytest.raises(ValueError):
        W.seat_name(0, players=5)


def test_bidding_positions_rules_4_the_declarer_first_the_last_bidder_hooked():
    assert [W.bidding_position_name(p) for p in range(4)] == [
        "declarer", "second bidder", "third bidder", "fourth bidder (hooked)"]
    assert W.bidding_position_name(2, players=3) == "third bidder (hooked)"
    with pytest.raises(ValueError):
        W.bidding_position_name(4)


# ---------------------------------------------------------------------------------- rules


def test_the_rules_in_words_never_as_rules_repr():
    assert W.rules_in_words(Rules()) == "the rule book's rules, four players"
    assert W.rules_in_words(Rules(players=3, zero_over=30)) == (
        "three players, the no-clubs deck, zero over 30 points")
    assert W.rules_in_words(Rules(players=3)) == (
        "the rule book's rules, three players, the no-clubs deck")
    assert W.rules_in_words(Rules(players=3, three_player_deck="no_low")) == (
        "the rule book's rules, three players, the deck without 2s to 5s")
    assert W.rules_in_words(Rules(frisch=False, zero_fail_first=-60)) == (
        "four players, no Frisch (four passes throw the deal in), missed zero, first trick "
        "−60 points")
    assert W.rules_in_words(Rules(zero_over=30).to_dict()) == "four players, zero over 30 points"
    assert "Rules(" not in W.rules_in_words(Rules(bid_order="suit", target=300))


# ------------------------------------------------------------------------------- glossary


def test_the_glossary_lists_each_term_once_with_its_definition():
    rows = W.glossary_rows(["hooked", "zero bid", "hooked", "mine"], {"mine": "my own term."})
    assert [t for t, _ in rows] == ["hooked", "zero bid", "mine"]
    assert rows[0][1] == W.TERMS["hooked"] and rows[2][1] == "my own term."
    with pytest.raises(KeyError, match="no definition"):
        W.glossary_rows(["a term nobody defined"])


def test_the_glossary_is_one_table_of_terms_and_meanings():
    md = glossary_markdown(["contradicted", "not contradicted", "confirmed"])
    lines = md.splitlines()
    assert lines[0] == f"## {W.GLOSSARY_TITLE}" and lines[2] == "| term | meaning |"
    assert len(lines) == 4 + 3
    assert lines[4].startswith("| contradicted | the check clearly prefers another answer")
    assert glossary_markdown(["made"], heading=None).startswith("| term | meaning |")


def test_the_check_verdicts_are_the_answer_checks_words():
    from whist_sim.analyses.answer_check import CONFIRMED, CONTRADICTED, NOT_CONTRADICTED

    assert {CONFIRMED, NOT_CONTRADICTED, CONTRADICTED} <= set(W.TERMS)
