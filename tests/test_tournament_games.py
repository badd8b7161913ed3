"""Duplicate games in a tournament (RULES §7): who wins games, beside points per deal."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from whist_sim.analyses.tournament import TournamentError, tournament
from whist_sim.analyses.tournament.games import game_seed, play_games, ranking_agreement
from whist_sim.analyses.tournament.schedule import make_entries, make_seatings
from whist_sim.core.rules import Rules
from whist_sim.interfaces.cli import main
from whist_sim.runs.game import game_totals, play_game

RULES = Rules(target=200)


def test_game_totals_are_the_games_running_totals():
    # the fast path (scores only) plays the same game as the recorded one
    g = play_game(11, RULES, ("heuristic", "hcp", "ltc", "cautious"))
    running, winners = game_totals(11, RULES, ["heuristic", "hcp", "ltc", "cautious"],
                                   ["heuristic"] * 4)
    assert [tuple(int(x) for x in r) for r in running] == list(g.running_totals)
    assert winners == g.winners


def test_games_are_duplicate_and_win_shares_add_up():
    entries = make_entries(["heuristic", "cautious"], 4)
    seatings = make_seatings(2, 4, "all")
    res = play_games(entries, seatings, RULES, 5, 4)
    assert res["games"] == 4 and res["seatings"] == len(seatings) == 6
    # the entries' win shares add up to one per game (a shared win is split)
    total = sum(e["win_rate"] for e in res["entries"])
    assert total == pytest.approx(1.0) and res["unfinished"] == 0
    for e in res["entries"]:
        assert 0.0 <= e["win_ci"][0] <= e["win_rate"] <= e["win_ci"][1] <= 1.0
    assert game_seed(5, 0) != game_seed(5, 1) and game_seed(5, 0) == game_seed(5, 0)


def test_an_entry_against_itself_wins_its_share():
    entries = make_entries(["heuristic", "heuristic"], 4)
    res = play_games(entries, make_seatings(2, 4, "all"), RULES, 3, 3)
    a, b = res["entries"]
    # the same strategy in every seat of every seating: both entries see the same games
    assert a["win_rate"] == pytest.approx(b["win_rate"]) and a["margin"] == pytest.approx(
        b["margin"])


def test_tournament_reports_games_and_whether_the_rankings_agree(tmp_path):
    s = tournament(["heuristic", "random"], 200, 9, rules=RULES, progress=False, threads=1,
                   games=3, out=tmp_path / "t")
    g = s["games"]
    names = {e["name"] for e in g["entries"]}
    assert names == {"heuristic/learned", "random/learned"} and g["target"] == 200
    best = max(g["entries"], key=lambda e: e["win_rate"])
    assert best["name"] == "heuristic/learned" and best["margin"] > 0
    assert g["ranking"] == ranking_agreement(s) and g["ranking"]["agree"]
    report = (tmp_path / "t" / "report.md").read_text()
    assert "## Games" in report and "games won" in report
    assert json.loads((tmp_path / "t" / "summary.json").read_text())["games"]["games"] == 3
    assert "games" not in tournament(["heuristic", "random"], 20, 9, rules=RULES,
                                     progress=False, threads=1)


def test_tournament_command_games_option(tmp_path):
    out = CliRunner().invoke(main, [
        "tournament", "--strategies", "heuristic,hcp", "--deals", "50", "--seed", "2",
        "--games", "2", "--target", "150", "--out", str(tmp_path / "t"), "--no-progress",
        "--rotations", "4"], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "duplicate games to 150" in out.output and "Ranking by points per deal" in out.output
    bad = CliRunner().invoke(main, [
        "tournament", "--strategies", "heuristic,hcp", "--deals", "5", "--seed", "2",
        "--games", "-1", "--out", str(tmp_path / "u")])
    assert bad.exit_code == 2 and "--games" in bad.output


def test_games_arrays_shape():
    running, winners = game_totals(1, Rules(target=100000), ["heuristic"] * 4,
                                   ["heuristic"] * 4, max_deals=20)
    assert running.shape == (20, 4) and winners == () and running.dtype == np.int64


def test_games_without_deals_play_the_games_only(tmp_path):
    out = tmp_path / "t"
    r = CliRunner().invoke(main, [
        "tournament", "--strategies", "heuristic,random", "--seed", "2", "--games", "2",
        "--target", "150", "--out", str(out), "--no-progress", "--rotations", "4",
        "--format", "md,csv"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "duplicate games to 150" in r.output and "2 games x 2 seatings" in r.output
    assert "Ranking by points per deal" not in r.output  # no points per deal were played
    assert "`heuristic/learned`" in r.output and "`random/learned`" in r.output
    s = json.loads((out / "summary.json").read_text())
    assert s["deals"] == 0 and s["games"]["games"] == 2 and s["games"]["ranking"] is None
    assert "## Games" in (out / "report.md").read_text()
    assert not (out / "tournament.png").exists()
    games = (out / "tables" / "games.csv").read_text()
    assert "heuristic/learned" in games and "win_rate" in games
    # the same games as in a tournament that also plays deals
    both = tournament(["heuristic", "random"], 20, 2, rules=Rules(target=150), progress=False,
                      threads=1, games=2, rotations=4)
    assert both["games"]["entries"] == s["games"]["entries"]


def test_a_tournament_needs_deals_or_games(tmp_path):
    r = CliRunner().invoke(main, ["tournament", "--strategies", "heuristic,random", "--seed",
                                  "2", "--out", str(tmp_path / "t")])
    assert r.exit_code == 2 and "give --deals N" in r.output
    with pytest.raises(TournamentError, match=r"deals must be in 1\.\."):
        tournament(["heuristic", "random"], 0, 2, progress=False)
