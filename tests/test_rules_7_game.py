"""RULES.md §7 — a game: deals with the dealer rotating until the target score; the winner rule."""

import pytest

from whist_sim import Rules
from whist_sim.engine import play_deal, play_game
from whist_sim.engine.game import game_winners


@pytest.fixture(scope="module")
def game():
    return play_game(21, Rules(target=150), policies=("heuristic",) * 4, first_dealer=2)


def test_dealer_rotates_to_the_left_every_deal(game):
    # §1/§7: the dealer moves one seat clockwise after every deal (thrown-in deals included, §3)
    assert [t.dealer for t in game.traces] == [(2 + g) % 4 for g in range(game.n_deals)]


def test_game_deal_g_is_stream_seed_g(game):
    # ENGINE §3: game deal g uses stream (seed, g)
    for g, t in enumerate(game.traces[:5]):
        assert t == play_deal(21, g, Rules(target=150), dealer=(2 + g) % 4,
                              policies=("heuristic",) * 4)


def test_game_stops_on_the_first_deal_someone_reaches_the_target(game):
    # §7: deals are played until one or more players reach the target
    running = [0] * 4
    for g, t in enumerate(game.traces):
        running = [a + b for a, b in zip(running, t.scores, strict=True)]
        reached = any(x >= 150 for x in running)
        assert reached == (g == game.n_deals - 1)
    assert tuple(running) == game.totals
    assert game.finished and game.winners
    top = max(game.totals[s] for s in range(4) if game.totals[s] >= 150)
    assert all(game.totals[w] == top for w in game.winners)


def test_winner_rule_first_to_reach_wins():
    # §7 (the Korean page): the first to reach the target wins
    assert game_winners([510, 300, 480, 120], reached=[0]) == (0,)


def test_winner_rule_several_reach_on_the_same_deal_highest_total_wins():
    # §7 (the Korean page): if several reach it on the same deal, the highest total wins
    assert game_winners([510, 530, 480, 120], reached=[0, 1]) == (1,)


def test_winner_rule_equal_highest_totals_share_the_win():
    # §7: equal highest totals share the win (ours: the Korean page's winner rule stops short)
    assert game_winners([530, 530, 501, 120], reached=[0, 1, 2]) == (0, 1)


def test_unfinished_game_after_max_deals_has_no_winner():
    # §7: only reaching the target ends a game; max_deals is a safety stop
    g = play_game(3, Rules(target=100_000), policies=("random",) * 4, max_deals=4)
    assert g.n_deals == 4 and not g.finished and g.winners == ()


def test_three_player_game_rotates_among_three_seats():
    # §7 with §8: three players
    g = play_game(4, Rules(players=3), policies=("heuristic",) * 3, max_deals=7)
    assert [t.dealer for t in g.traces] == [0, 1, 2, 0, 1, 2, 0]
    assert len(g.totals) == 3
    assert g.totals == tuple(sum(t.scores[s] for t in g.traces) for s in range(3))


def test_bad_game_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="first_dealer"):
        play_game(1, first_dealer=4)
    with pytest.raises(ValueError, match="policies"):
        play_game(1, policies=("random",) * 3)
    with pytest.raises(ValueError, match="unknown policy"):
        play_game(1, policies=("random", "random", "random", "clever"))
