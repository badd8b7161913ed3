"""A tournament checked against search: the first deals played again with the entrants given as
BID alone playing the check play, the ranking and every pair's difference under both, in the
summary's ``check`` object, the report and the text (small sizes: a two-rollout search)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from whist_sim.analyses.answer_check import (
    CONFIRMED,
    CONTRADICTED,
    NOT_CONTRADICTED,
    difference_holds,
    difference_verdict,
)
from whist_sim.analyses.tournament import tournament
from whist_sim.analyses.tournament.ranking_check import RANKING_CHANGES
from whist_sim.interfaces.cli import main

CHECK = "rollout:n=2"


def cli(*args: str):
    return CliRunner().invoke(main, ["tournament", *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def checked():
    return tournament(["heuristic", "random"], 24, 3, play="heuristic", check=CHECK,
                      check_deals=12, progress=False, threads=1)


def test_the_check_object_has_the_contract_keys(checked):
    c = checked["check"]
    assert c["play"] == CHECK and c["deals"] == 12
    assert isinstance(c["holds"], bool) and c["ranking_changes"] is (not c["holds"])
    assert [s["check_name"] for s in c["strategies"]] == [f"heuristic/{CHECK}",
                                                          f"random/{CHECK}"]
    for p in c["pairs"]:
        assert isinstance(p["holds"], bool)
        assert p["holds"] == difference_holds(p["diff"], p["check_ci"])
        v = difference_verdict(p["diff"], p["check_ci"])
        assert (p["verdict"], p["verdict_why"]) == (v.word, v.why)
        assert (p["detectable"] is None) == (v.detectable is None)
    assert c["holds"] == all(p["holds"] for p in c["pairs"])
    assert c["verdict"] in (CONFIRMED, NOT_CONTRADICTED, CONTRADICTED) and c["verdict_why"]
    assert (c["verdict"] == CONTRADICTED) == c["ranking_changes"]


def test_the_check_is_the_tournament_of_its_first_deals_under_the_check_play(checked):
    again = tournament(["heuristic", "random"], 12, 3, play=CHECK, progress=False, threads=1)
    c = checked["check"]
    assert [s["check_mean"] for s in c["strategies"]] == [s["mean"] for s in again["strategies"]]
    assert c["pairs"][0]["check_diff"] == again["pairs"][0]["diff"]
    assert c["pairs"][0]["diff"] == checked["pairs"][0]["diff"]


def test_an_entrant_with_its_own_play_keeps_it_in_the_check():
    s = tournament(["heuristic", "random/random"], 8, 1, play="heuristic", check=CHECK,
                   progress=False, threads=1)
    names = [e["check_name"] for e in s["check"]["strategies"]]
    assert names == [f"heuristic/{CHECK}", "random/random"]


def test_nothing_to_check_when_every_entrant_names_its_play():
    s = tournament(["heuristic/heuristic", "random/random"], 8, 1, check=CHECK,
                   progress=False, threads=1)
    assert s["check"]["checked"] is False and s["check"]["holds"] is True
    assert "own play policy" in s["check"]["note"]


def test_an_unchecked_tournament_has_no_check_key():
    s = tournament(["heuristic", "random"], 8, 1, play="heuristic", progress=False, threads=1)
    assert "check" not in s


def test_the_cli_writes_the_check_to_the_summary_report_and_text(tmp_path):
    out = tmp_path / "t"
    r = cli("--strategies", "random,heuristic", "--deals", "20", "--seed", "3", "--play",
            "heuristic", "--check", CHECK, "--check-deals", "10", "--out", str(out),
            "--no-progress", "--format", "md,csv")
    assert r.exit_code == 0, r.output
    s = json.loads((out / "summary.json").read_text())
    assert s["check"]["play"] == CHECK and s["check"]["deals"] == 10
    report = (out / "report.md").read_text()
    assert "## Checked against search" in report and "check: diff" in report
    said = [w for w in ("**confirmed**", "**not contradicted**", RANKING_CHANGES) if w in report]
    assert len(said) == 1 and "ranking holds" not in report and "stronger" not in report
    assert f"another play, {CHECK}" in r.output and "the first 10 deals again" in r.output
    assert (out / "tables" / "check_pairs.csv").is_file()


def test_the_cli_no_check_omits_it(tmp_path):
    r = cli("--strategies", "random,heuristic", "--deals", "10", "--seed", "3", "--play",
            "heuristic", "--no-check", "--out", str(tmp_path / "t"), "--no-progress", "--json")
    assert r.exit_code == 0, r.output
    assert "check" not in json.loads(r.stdout)
    assert "--no-check" in json.loads(r.stdout)["command"]


@pytest.mark.parametrize("args, hint", [
    (["--check", "nosuch"], "--check"),
    (["--check", "hcp"], "--check"),
    (["--check-deals", "0"], "--check-deals"),
])
def test_bad_check_options_are_refused_in_one_line(tmp_path, args, hint):
    r = CliRunner().invoke(main, ["tournament", "--strategies", "random,heuristic", "--deals",
                                  "5", "--seed", "1", "--out", str(tmp_path / "t"), *args])
    assert r.exit_code == 2 and hint in r.output and "Traceback" not in r.output


def test_the_check_has_its_own_progress_bar(tmp_path):
    r = CliRunner().invoke(main, ["tournament", "--strategies", "random,heuristic", "--deals",
                                  "10", "--seed", "3", "--play", "heuristic", "--check", CHECK,
                                  "--out", str(tmp_path / "t"), "--progress"])
    assert r.exit_code == 0, r.output
    assert "tournament" in r.stderr and "check" in r.stderr
