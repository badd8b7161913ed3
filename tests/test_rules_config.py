"""The Rules object: every option of RULES.md, validated and serialisable."""

import json

import pytest

from whist_sim import Rules, RulesError


def test_defaults_are_the_rule_book():
    r = Rules()
    assert (r.players, r.n_tricks, r.max_level, r.target) == (4, 13, 13, 500)
    assert r.frisch and r.frisch_raises_minimum and not r.pass_is_final
    assert r.frisch_directions == ("left", "left", "left")
    assert (r.made_bonus, r.miss_per_trick, r.zero_under, r.zero_over) == (10, 10, 50, 25)
    assert (r.zero_fail_first, r.zero_fail_refund, r.revoke_penalty) == (-50, 10, 100)
    assert str(r) == "Rules(rule book defaults)"


@pytest.mark.parametrize(
    "deck, tricks, cards", [("no_suit", 13, 39), ("no_low", 12, 36), ("one_random", 17, 52)]
)
def test_three_player_decks(deck, tricks, cards):
    # §8: 39 cards / 13 tricks, 36 / 12, 51 (of 52, one removed at random) / 17
    r = Rules(players=3, three_player_deck=deck)
    assert r.n_tricks == tricks == r.hand_size
    assert bin(r.deck_mask).count("1") == cards


def test_no_low_removes_twos_to_fives():
    r = Rules(players=3, three_player_deck="no_low")
    for suit in range(4):
        for rank in range(13):
            assert bool(r.deck_mask >> (13 * suit + rank) & 1) == (rank >= 4)


def test_direction_offsets():
    r = Rules(frisch_directions="left,across,right")
    assert [r.direction_offset(i) for i in range(3)] == [1, 2, 3]
    assert Rules(players=3, frisch_directions=("right",) * 3).direction_offset(0) == 2


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"players": 5}, "players must be 3 or 4"),
        ({"three_player_deck": "jokers"}, "three_player_deck"),
        ({"frisch_directions": "left,left"}, "needs 3 directions"),
        ({"frisch_directions": "left,up,left"}, "'up'"),
        ({"players": 3, "frisch_directions": "left,across,right"}, "needs four players"),
        ({"target": 0}, "target must be positive"),
        ({"made_bonus": 1.5}, "made_bonus must be a whole number"),
        ({"frisch": "yes"}, "frisch must be true or false"),
        ({"miss_per_trick": -5}, "costs"),
    ],
)
def test_impossible_options_are_refused(kwargs, fragment):
    with pytest.raises(RulesError, match=fragment):
        Rules(**kwargs)


def test_rules_are_frozen_and_serialisable():
    r = Rules(
        players=3, three_player_deck="no_low", zero_over=30, frisch_directions="left,right,left"
    )
    with pytest.raises(AttributeError):
        r.players = 4
    again = Rules.from_json(r.to_json())
    assert again == r
    assert json.loads(r.to_json())["frisch_directions"] == ["left", "right", "left"]
    assert r.changes() == {
        "players": 3,
        "three_player_deck": "no_low",
        "zero_over": 30,
        "frisch_directions": ["left", "right", "left"],
    }
    assert "zero_over=30" in str(r)
    with pytest.raises(RulesError, match="unknown rule option"):
        Rules.from_dict({"jokers": 2})
