"""RULES.md §6 — scoring, per player, per deal."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from whist_sim import Rules, score


@pytest.mark.parametrize("tricks, expected", [(3, 19), (5, 35), (13, 179)])
def test_made_contract_scores_square_plus_ten(tricks, expected):
    # §6: b > 0, t == b -> t² + 10 (3 -> 19, 5 -> 35, 13 -> 179)
    assert score(tricks, tricks, over=False) == expected
    assert score(tricks, tricks, over=True) == expected


def test_missed_contract_costs_ten_per_trick_off():
    # §6: bid 4, took 6 -> -20
    assert score(4, 6, over=True) == -20
    assert score(4, 2, over=False) == -20
    assert score(7, 0, over=False) == -70


def test_zero_made_depends_on_over_or_under():
    # §6: +50 in an under deal, +25 in an over deal
    assert score(0, 0, over=False) == 50
    assert score(0, 0, over=True) == 25


@pytest.mark.parametrize("tricks, expected", [(1, -50), (2, -40), (3, -30), (6, 0), (8, 20)])
def test_zero_failed_is_minus_fifty_plus_ten_per_extra_trick(tricks, expected):
    # §6: b == 0, t >= 1 -> -50 + 10 × (t - 1) (1 -> -50, 2 -> -40, 3 -> -30)
    assert score(0, tricks, over=False) == expected
    assert score(0, tricks, over=True) == expected


def test_scoring_options_change_the_numbers():
    # §6: every number is an option; values other than the pages' (miss_per_trick 5, zero_over 30)
    # are ours, offered for tables that play them
    r = Rules(
        made_bonus=20,
        miss_per_trick=5,
        zero_under=60,
        zero_over=30,
        zero_fail_first=-60,
        zero_fail_refund=5,
    )
    assert score(3, 3, over=False, rules=r) == 29
    assert score(4, 6, over=True, rules=r) == -10
    assert score(0, 0, over=False, rules=r) == 60
    assert score(0, 0, over=True, rules=r) == 30
    assert score(0, 3, over=True, rules=r) == -50


def test_scores_for_seventeen_trick_deck():
    # §8: one_random deals 17 tricks, so contracts and tricks run to 17
    r = Rules(players=3, three_player_deck="one_random")
    assert score(17, 17, over=False, rules=r) == 299
    with pytest.raises(ValueError, match="0..17"):
        score(18, 17, over=False, rules=r)


def test_out_of_range_is_a_clear_error():
    with pytest.raises(ValueError, match="0..13"):
        score(14, 3, over=False)
    with pytest.raises(ValueError, match="0..13"):
        score(3, -1, over=False)


@given(st.integers(0, 13), st.integers(0, 13), st.booleans())
def test_score_formula_property(b, t, over):
    # §6 table, written out independently
    s = score(b, t, over)
    if b > 0:
        assert s == (t * t + 10 if t == b else -10 * abs(t - b))
    elif t == 0:
        assert s == (25 if over else 50)
    else:
        assert s == -50 + 10 * (t - 1)
