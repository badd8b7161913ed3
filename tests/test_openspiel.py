"""israeli_whist as an OpenSpiel game (whist_sim.interfaces.openspiel, docs/OPENSPIEL.md):
OpenSpiel's own random-simulation checks over a grid of rule options, serialisation, a golden
playthrough, returns equal to `replay` on the same moves, resampling from an information state, and
the PettingZoo environment through Shimmy. Skipped only where the ``openspiel`` extra is not
installed (``make install`` installs it)."""

from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import whist_sim.interfaces.openspiel as W  # noqa: E402  (registers israeli_whist)
from whist_sim import Rules  # noqa: E402
from whist_sim.core.cards import card_str, format_hand  # noqa: E402
from whist_sim.core.rules import MAX_REDEALS  # noqa: E402
from whist_sim.engine.record import replay_record  # noqa: E402
from whist_sim.engine.state import call_str  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "openspiel_israeli_whist.txt"

GRID = [
    {},
    {"players": 3},
    {"players": 3, "three_player_deck": "no_low", "dealer": 1},
    {"players": 3, "three_player_deck": "one_random", "frisch_directions": "right/left/right"},
    {"bid_order": "suit", "pass_is_final": True, "dealer": 3},
    {"frisch": False, "zero_over": 30, "miss_per_trick": 5},
    {"frisch_raises_minimum": False, "frisch_directions": "left/across/right"},
    {"after_third_frisch": "redeal", "made_bonus": 20, "zero_under": 40},
]


def load(params=None):
    return pyspiel.load_game(W.GAME_NAME, params or {})


def play_random(game, seed, pass_bias=0.0):
    """A random playthrough; ``pass_bias``: how often a call is a pass (Frisches come)."""
    r = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(r.choice([o for o, _ in s.chance_outcomes()]))
        else:
            la = s.legal_actions()
            s.apply_action(W.CALLS if W.CALLS in la and r.random() < pass_bias else r.choice(la))
    return s


# ------------------------------------------------------------------ the game and its parameters


def test_every_rule_option_is_a_game_parameter_with_the_rule_books_default():
    game = load()
    params = game.get_parameters()
    for name, value in Rules().to_dict().items():
        expected = "/".join(value) if name == "frisch_directions" else value
        assert params[name] == expected, name
    assert params["dealer"] == 0
    assert game.rules == Rules() and game.num_players() == 4
    three = load({"players": 3, "zero_over": 30, "frisch_directions": "left/right/left"})
    assert three.rules == Rules(players=3, zero_over=30, frisch_directions="left,right,left")
    assert three.num_players() == 3
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'nope'"):
        load({"nope": 1})


def test_game_info():
    game = load()
    assert game.num_distinct_actions() == W.NUM_ACTIONS == 212
    assert game.max_chance_outcomes() == 52
    assert (game.min_utility(), game.max_utility()) == (-130.0, 179.0)  # 13 off; 13 made
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize("params", GRID, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items())
                         or "defaults")
def test_openspiel_random_simulation_checks(params):
    # OpenSpiel's own checks: legal actions, chance outcomes, returns within the utilities,
    # observation and information state tensors and strings, clone, serialisation
    pyspiel.random_sim_test(load(params), num_sims=3, serialize=True, verbose=False)


def test_the_deal_is_chance_card_by_card_from_the_dealers_left():
    game = load({"dealer": 2})
    s = game.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 52
    assert all(p == pytest.approx(1 / 52) for _, p in s.chance_outcomes())
    cards = list(range(52))
    for c in cards:
        s.apply_action(c)
    ds = s.deal_state
    assert ds.dealer == 2 and s.current_player() == 3  # the dealer's left calls first
    assert ds.hand(3) == sum(1 << c for c in cards[0::4])  # the first card to the dealer's left
    one_random = load({"players": 3, "three_player_deck": "one_random"}).new_initial_state()
    for _ in range(51):
        one_random.apply_action(one_random.chance_outcomes()[0][0])
    assert one_random.deal_state.removed_card == 51  # the card left over is removed


def test_an_illegal_chance_outcome_is_refused_at_once_by_name():
    s = load().new_initial_state()
    with pytest.raises(pyspiel.SpielError, match=r"illegal chance outcome 52 \(no card\)"):
        s.apply_action(52)
    s.apply_action(3)
    with pytest.raises(pyspiel.SpielError, match=r"chance outcome 3 \(deal 5C\): dealt already"):
        s.apply_action(3)
    assert s.history() == [3]  # nothing changed by the refusals
    three = load({"players": 3, "three_player_deck": "no_low"}).new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="not a card of this deck"):
        three.apply_action(0)  # the 2C is not in the deck without the low cards


def test_an_illegal_player_action_is_refused_at_once_by_name():
    s = load().new_initial_state()
    for c in range(52):
        s.apply_action(c)
    before = s.history()
    with pytest.raises(pyspiel.SpielError, match=r"illegal action 165 \(play 7C\) for player 1 "
                                                 "in the auction"):
        s.apply_action(W.PLAY + 5)
    with pytest.raises(pyspiel.SpielError, match=r"\(no action\)"):
        s.apply_action(W.NUM_ACTIONS)
    assert s.history() == before
    s.apply_action(W.CALLS + 5 * 5 + 4)  # 5NT
    with pytest.raises(pyspiel.SpielError, match=r"\(call 5C\) for player 2"):
        s.apply_action(W.CALLS + 5 * 5)  # below the bid before it
    over = play_random(load(), 1)
    with pytest.raises(pyspiel.SpielError, match="the deal is over"):
        over.apply_action(W.PLAY)


# ------------------------------------------------------------------ returns are whist-sim's


def to_record(state):
    """The JSON record (RULES §10) of a finished OpenSpiel deal: its actions, re-read."""
    ds = state.deal_state
    return {
        "dealer": ds.dealer,
        "hands": [format_hand(h) for h in ds.dealt],
        "frisch": [[[card_str(c) for c in range(52) if m >> c & 1] for m in f] for f in ds.frisch],
        "calls": ["pass" if c == 0 else call_str(c) for c in ds.calls],
        "contracts": [c for c in ds.contracts] if all(c is not None for c in ds.contracts) else [],
        "play": [card_str(c) for c in ds.plays],
        "rules": state.rules.to_dict(),
    }


@pytest.mark.parametrize("params", GRID[:5], ids=str)
def test_returns_equal_the_scores_replay_gives_for_the_same_moves(params):
    game = load(params)
    for seed in range(12):
        s = play_random(game, seed, pass_bias=0.5 if seed % 3 == 0 else 0.0)
        res = replay_record(to_record(s))
        assert res.ok, res.error
        assert s.returns() == [float(x) for x in res.scores]


def test_a_redeal_is_dealt_again_by_the_same_dealer():
    game = load({"after_third_frisch": "redeal", "dealer": 1})
    s = play_random(game, 0, pass_bias=1.0)  # every call a pass: redealt until the limit
    assert s.redeals == MAX_REDEALS and s.deal_state.dealer == 1
    assert s.returns() == [0.0] * 4
    once = play_random(load({"dealer": 1}), 0, pass_bias=1.0)
    assert once.redeals == 0 and once.is_terminal()


# ------------------------------------------------------------------ serialisation, golden


def test_serialisation_round_trip():
    for params in GRID[:4]:
        game = load(params)
        s = play_random(game, 4)
        for cut in (0, 30, len(s.history()) // 2, len(s.history())):
            part = game.new_initial_state()
            for a in s.history()[:cut]:
                part.apply_action(a)
            text = pyspiel.serialize_game_and_state(game, part)
            game2, back = pyspiel.deserialize_game_and_state(text)
            assert str(game2) == str(game) and back.history() == part.history()
            for p in range(game.num_players()):
                assert back.information_state_string(p) == part.information_state_string(p)
                assert back.observation_tensor(p) == part.observation_tensor(p)
            assert back.returns() == part.returns()


def golden_text() -> str:
    """A playthrough: for each decision the player, the action, every player's observation and
    information state strings and digests of their tensors; then the returns."""
    lines = []
    for params, seed in (({}, 11), ({"players": 3, "dealer": 2}, 12)):
        game = load(params)
        s = play_random(game, seed, pass_bias=0.3)
        lines.append(f"game {game}")
        replayed = game.new_initial_state()
        for a in s.history():
            if replayed.is_chance_node():
                replayed.apply_action(a)
                continue
            p = replayed.current_player()
            lines.append(f"player {p}: {replayed.action_to_string(p, a)}")
            for q in range(game.num_players()):
                obs = np.asarray(replayed.observation_tensor(q), np.float32).tobytes()
                info = np.asarray(replayed.information_state_tensor(q), np.float32).tobytes()
                lines.append(f"  obs {q}: {replayed.observation_string(q)}")
                lines.append(f"  info {q}: {replayed.information_state_string(q)}")
                lines.append(f"  tensors {q}: {hashlib.sha256(obs).hexdigest()[:16]} "
                             f"{hashlib.sha256(info).hexdigest()[:16]}")
            replayed.apply_action(a)
        lines.append(f"returns {replayed.returns()}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough():
    text = golden_text()
    if os.environ.get("WHIST_SIM_UPDATE_GOLDEN"):
        GOLDEN.write_text(text)
    assert GOLDEN.read_text() == text, (
        "the playthrough changed; if on purpose, regenerate it with WHIST_SIM_UPDATE_GOLDEN=1")


# ------------------------------------------------------------------ information


def test_observations_show_the_players_cards_and_the_public_moves_only():
    game = load()
    s = play_random(game, 8)
    state = game.new_initial_state()
    for a in s.history()[:60]:
        state.apply_action(a)
    ds = state.deal_state
    obs = W.WhistObserver(pyspiel.IIGObservationType(perfect_recall=False), None, game.rules)
    info = W.WhistObserver(pyspiel.IIGObservationType(perfect_recall=True), None, game.rules)
    for p in range(4):
        obs.set_from(state, p)
        info.set_from(state, p)
        assert obs.dict["hand"].sum() == bin(ds.hand(p)).count("1")
        assert np.flatnonzero(obs.dict["hand"]).tolist() == [c for c in range(52)
                                                             if ds.hand(p) >> c & 1]
        assert np.flatnonzero(info.dict["dealt"]).tolist() == [c for c in range(52)
                                                               if ds.dealt[p] >> c & 1]
        assert info.dict["play"].sum() == len(ds.plays)
    # the others' hands are not in a player's strings or tensors: a resample changes them only
    for p in range(4):
        other = W.resample(state, p, 1)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)


@pytest.mark.parametrize("params", [{}, {"players": 3},
                                    {"frisch_directions": "left/across/right"},
                                    {"players": 3, "three_player_deck": "one_random"}], ids=str)
def test_resample_from_infostate_keeps_what_the_player_knows(params):
    game = load(params)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    moved = total = 0
    for seed in range(6):
        s = play_random(game, seed, pass_bias=0.6)
        state = game.new_initial_state()
        for a in s.history():
            if not state.is_chance_node() and len(state.history()) % 7 == 0:
                p = state.current_player()
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.legal_actions() == state.legal_actions()
                assert other.deal_state.hand(p) == state.deal_state.hand(p)
                total += 1
                moved += other.deal_state.hands != state.deal_state.hands
            state.apply_action(a)
    assert total >= 30 and moved > total // 2  # the hidden hands are drawn again


def test_ismcts_plays_the_game():
    from open_spiel.python.algorithms import ismcts, mcts

    game = load()
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                           uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(2))
    r = random.Random(3)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(r.choice([o for o, _ in s.chance_outcomes()]))
        elif s.current_player() == 0:
            s.apply_action(bot.step(s))
        else:
            s.apply_action(r.choice(s.legal_actions()))
    assert len(s.returns()) == 4


# ------------------------------------------------------------------ PettingZoo through Shimmy


@pytest.mark.filterwarnings("ignore:Agent's m:UserWarning")
def test_pettingzoo_environment_through_shimmy():
    from pettingzoo.test import api_test
    from shimmy import OpenSpielCompatibilityV0

    env = OpenSpielCompatibilityV0(env=load(), render_mode=None)
    api_test(env, num_cycles=300)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
    assert steps > 52 and env.game_state.is_terminal()
