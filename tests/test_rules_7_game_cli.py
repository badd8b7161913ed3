"""RULES.md §7 — a whole game: ``whist-sim game`` and the replay of its record (running totals,
the dealer moving left, the end at the target, the winner)."""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

from whist_sim import Rules
from whist_sim.engine.record import replay_game
from whist_sim.interfaces.cli import main
from whist_sim.runs.game import game_record, play_game

SEATS = ("heuristic/expert", "hcp/heuristic", "cautious", "random/heuristic")


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def game():
    return play_game(5, Rules(target=150), SEATS)


def test_a_game_ends_when_a_total_reaches_the_target(game):
    # §7: deals are played, dealer rotating, until a player reaches the target
    assert game.finished
    totals = game.running_totals
    assert max(totals[-1]) >= 150 and all(max(t) < 150 for t in totals[:-1])
    assert [t.dealer for t in game.traces] == [g % 4 for g in range(game.n_deals)]
    top = max(totals[-1][s] for s in range(4) if totals[-1][s] >= 150)
    assert game.winners == tuple(s for s in range(4) if totals[-1][s] == top)


def test_the_game_record_is_replayed_with_its_running_totals(game):
    rec = json.loads(json.dumps(game_record(game)))
    res = replay_game(rec)
    assert res.ok, res.error
    assert res.running_totals == list(game.running_totals) and res.winners == game.winners


@pytest.mark.parametrize("breach, where", [
    (lambda r: r["running_totals"][1].__setitem__(0, 9999), "running_totals[1]"),
    (lambda r: r.__setitem__("winners", [3, 2]), "winners"),
    (lambda r: r["deals"][0]["calls"].insert(0, "13NT"), "deals[0].calls[1]"),
    (lambda r: r["deals"].append(copy.deepcopy(r["deals"][0])), "the game was over"),
    (lambda r: r["deals"].pop(0), "deals[0].dealer"),
])
def test_a_broken_game_record_is_refused_where_it_breaks(game, breach, where):
    rec = json.loads(json.dumps(game_record(game)))
    breach(rec)
    if where in ("deals[0].dealer", "the game was over"):  # only the deals are stated
        rec.pop("running_totals")
        rec.pop("totals")
        rec.pop("winners")
    res = replay_game(rec)
    assert not res.ok and where in res.error


def test_game_command_prints_deals_totals_and_winner(tmp_path):
    out = run("game", "--seats", ",".join(SEATS), "--target", "150", "--seed", "5")
    assert out.exit_code == 0, out.output
    assert "winner: seat" in out.output and "totals" in out.output
    js = run("game", "--seats", ",".join(SEATS), "--target", "150", "--seed", "5", "--json")
    path = tmp_path / "game.json"
    path.write_text(js.stdout)
    rec = json.loads(js.stdout)
    assert rec["game"]["target"] == 150 and len(rec["deals"]) == len(rec["running_totals"])
    rep = run("replay", str(path))
    assert rep.exit_code == 0, rep.output
    assert "game ok" in rep.output
    rep_json = json.loads(run("replay", "--json", str(path)).output)
    assert rep_json["ok"] and rep_json["winners"] == rec["winners"]
    rec["running_totals"][0][0] += 1
    path.write_text(json.dumps(rec))
    bad = run("replay", str(path))
    assert bad.exit_code == 1 and "running_totals[0]" in bad.output


@pytest.mark.parametrize("args, says", [
    (["--seats", "heuristic,heuristic,heuristic"], "--seats"),
    (["--seats", "heuristic,nosuch,heuristic,heuristic"], "--seats"),
    (["--seats", "heuristic,heuristic,heuristic,heuristic", "--target", "0"], "target"),
    (["--seats", "heuristic,heuristic,heuristic,heuristic", "--bid-order", "x"], "--bid-order"),
])
def test_game_command_refuses_bad_input_in_one_line(args, says):
    out = run("game", "--seed", "1", *args)
    assert out.exit_code == 2 and says in out.output and "Traceback" not in out.output


def test_suit_order_and_redeal_games_are_replayed():
    rules = Rules(target=120, bid_order="suit", after_third_frisch="redeal")
    g = play_game(9, rules, ("heuristic",) * 4)
    res = replay_game(json.loads(json.dumps(game_record(g))))
    assert g.finished and res.ok, res.error
