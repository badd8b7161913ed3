"""Play policies as first-class seats: one spec syntax (``name:key=value``) for bidding strategies
and play policies, seats ``BID/PLAY`` in every command, and errors that name the option."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from whist_sim.compiled.entry.batch import play_batch
from whist_sim.compiled.strategies import registry
from whist_sim.compiled.strategies.registry import DEFAULT_PLAY, PLAY, PLAY_POLICIES, PolicyInfo
from whist_sim.compiled.strategies.seating import Seating
from whist_sim.compiled.strategies.spec import (
    PlaySpec,
    StrategyError,
    StrategySpec,
    check_play,
    parse_play,
    parse_seat,
    parse_strategy,
    play_param_rows,
    play_table,
    spec_help,
)
from whist_sim.core.rules import Rules
from whist_sim.interfaces.cli import main
from whist_sim.runs.dataset import load, load_manifest
from whist_sim.runs.simulate import seat_policies, simulate


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def fake_play(monkeypatch):
    """A play policy with parameters in the registry (the heuristic's id: the kernels play it)."""
    info = PolicyInfo("fakeplay", registry.PLAY_HEURISTIC, PLAY, "a test entry",
                      (registry.Param("n", 16.0, help="a count"),
                       registry.Param("depth", 2.0, help="a depth")))
    monkeypatch.setitem(PLAY_POLICIES, "fakeplay", info)
    return info


# --------------------------------------------------------------------------- the parser


def test_play_specs_use_the_strategy_syntax(fake_play):
    assert parse_play("heuristic") == PlaySpec("heuristic")
    assert parse_play(" fakeplay:n=8 ").text == "fakeplay:n=8"
    assert parse_play("fakeplay:n=8").values() == {"n": 8.0, "depth": 2.0}
    assert parse_play("heuristic") != parse_strategy("heuristic")  # different registries
    assert check_play("random") == "random"
    rows = play_param_rows(["fakeplay:depth=5", "heuristic"])
    assert rows[0, 0] == 16.0 and rows[0, 1] == 5.0 and not rows[1].any()
    names = [r["name"] for r in play_table()]
    assert names == list(PLAY_POLICIES)
    assert "fakeplay[:n=16:depth=2]" in spec_help("play")
    assert ("rollout[:n=16:base=expert:race=1:infer=1:model=table:eps=0.6:pool=4:picks=2]"
            in spec_help("play"))  # base by name
    pol, par = _arrays(["montecarlo:n=4", "hcp", "heuristic", "random"],
                           ["fakeplay:n=3", "random", "heuristic", "heuristic"], 4)
    assert list(pol[0]) == [6, 2, 1, 0] and list(pol[1]) == [1, 0, 1, 1]
    assert par[0, 0, 0] == 4.0 and par[1, 0, 0] == 3.0 and par[1, 0, 1] == 2.0


@pytest.mark.parametrize(
    "text, words",
    [
        ("bogus", ["unknown play policy", "'bogus'", "heuristic"]),
        ("heuristic:x=1", ["play policy heuristic has no parameter", "none"]),
        ("fakeplay:n", ["not key=value", "fakeplay:n=16"]),
        ("fakeplay:n=x", ["not a number"]),
        ("fakeplay:n=1:n=2", ["given twice"]),
        ("fakeplay:n=inf", ["finite"]),
        ("", ["a play policy must be a name"]),
        ("ltc", ["unknown play policy 'ltc'"]),
    ],
)
def test_bad_play_specs_are_refused_by_name(fake_play, text, words):
    with pytest.raises(StrategyError) as e:
        parse_play(text)
    for w in words:
        assert w in str(e.value)


def test_seats_are_bid_slash_play():
    assert parse_seat("heuristic") == (StrategySpec("heuristic"), None)
    assert parse_seat("montecarlo:n=8/random") == (
        StrategySpec("montecarlo", (("n", 8.0),)), PlaySpec("random"))
    for text, word in (("a/b/c", "one '/'"), ("heuristic/", "no play policy"),
                       ("heuristic/ltc", "unknown play policy"), ("bogus/random", "unknown strat")):
        with pytest.raises(StrategyError, match=word):
            parse_seat(text)


def test_seat_policies_play_the_default_play():
    # BID alone: random plays random, any other strategy the default play (DEFAULT_PLAY, learned);
    # BID/PLAY wins over play
    assert DEFAULT_PLAY == "learned"
    assert seat_policies("random", None, 4) == (("random",) * 4, ("random",) * 4)
    assert seat_policies("ltc", None, 3) == (("ltc",) * 3, ("learned",) * 3)
    assert seat_policies("heuristic", None, 4) == (("heuristic",) * 4, ("learned",) * 4)
    assert seat_policies(None, None, 4) == (("heuristic",) * 4, ("learned",) * 4)
    assert seat_policies(("hcp/random", "heuristic", "montecarlo:n=2", "random"), "heuristic",
                         4) == (("hcp", "heuristic", "montecarlo:n=2", "random"),
                                ("random", "heuristic", "heuristic", "heuristic"))
    assert seat_policies(None, ("random",) * 4, 4)[1] == ("random",) * 4


def test_play_batch_takes_specs_and_names_alike():
    rules = Rules()
    a = play_batch(5, 0, 30, rules, ("heuristic",) * 4, ("heuristic",) * 4)
    b = play_batch(5, 0, 30, rules, [parse_strategy("heuristic")] * 4,
                   [parse_play("heuristic")] * 4)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)
    c = play_batch(5, 0, 10, rules, ("montecarlo:n=0",) * 4, ("heuristic",) * 4)
    for k in c:
        np.testing.assert_array_equal(c[k], a[k][:10], err_msg=k)  # n=0 is the heuristic


# --------------------------------------------------------------------------- simulate


def test_simulate_seats_bid_slash_play_are_the_old_options(tmp_path):
    new, old = tmp_path / "new", tmp_path / "old"
    r = run("simulate", "--deals", "60", "--seed", "3", "--out", str(new), "--no-progress",
            "--seats", "heuristic/random,random/heuristic,heuristic/heuristic,random/random")
    assert r.exit_code == 0, r.output
    r = run("simulate", "--deals", "60", "--seed", "3", "--out", str(old), "--no-progress",
            "--seats", "heuristic,random,heuristic,random",
            "--play-seats", "random,heuristic,heuristic,random")
    assert r.exit_code == 0, r.output
    assert load(new).equals(load(old))
    m = load_manifest(new)
    assert m["bid"] == ["heuristic", "random", "heuristic", "random"]
    assert m["play"] == ["random", "heuristic", "heuristic", "random"]
    r = run("report", str(new), "--out", str(tmp_path / "rep"))
    assert r.exit_code == 0, r.output
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "heuristic/random" in text and "random/heuristic" in text


def test_simulate_takes_every_strategy_with_parameters(tmp_path):
    r = run("simulate", "--deals", "40", "--seed", "1", "--out", str(tmp_path / "a"),
            "--no-progress", "--policy", "ltc")
    assert r.exit_code == 0, r.output
    assert load_manifest(tmp_path / "a")["play"] == ["learned"] * 4  # the default play
    r = run("simulate", "--deals", "8", "--seed", "1", "--out", str(tmp_path / "b"),
            "--no-progress", "--policy", "montecarlo:n=2:span=1/random")
    assert r.exit_code == 0, r.output
    m = load_manifest(tmp_path / "b")
    assert m["bid"] == ["montecarlo:n=2:span=1"] * 4 and m["play"] == ["random"] * 4
    # the Python API takes the same
    m = simulate(tmp_path / "c", 8, 1, bid="hcp:margin=1/random", play="heuristic",
                 progress=False)
    assert m["bid"] == ["hcp:margin=1"] * 4 and m["play"] == ["random"] * 4


@pytest.mark.parametrize(
    "args, option, words",
    [
        (["--policy", "bogus"], "--policy", "unknown bidding policy 'bogus'"),
        (["--policy", "montecarlo:n=0.5"], "--policy", "whole number"),
        (["--policy", "heuristic/ltc"], "--policy", "unknown play policy 'ltc'"),
        (["--seats", "heuristic,random"], "--seats", "2 item(s) given"),
        (["--seats", "heuristic,random,hcp,ltc:foo=1"], "--seats", "no parameter 'foo'"),
        (["--seats", "heuristic/x,random,hcp,ltc"], "--seats", "unknown play policy 'x'"),
        (["--play", "bogus"], "--play", "unknown play policy 'bogus'"),
        (["--play", "heuristic:n=1"], "--play", "no parameter 'n'"),
        (["--play-seats", "random,heuristic"], "--play-seats", "2 item(s) given"),
        (["--play-seats", "random,heuristic,ltc,random"], "--play-seats", "unknown play policy"),
        (["--seats", "heuristic/random,random,hcp,ltc", "--play-seats",
          "random,random,random,random"], "--play-seats", "not both"),
    ],
)
def test_simulate_errors_name_the_option(tmp_path, args, option, words):
    r = run("simulate", "--deals", "5", "--seed", "1", "--out", str(tmp_path / "x"),
            "--no-progress", *args)
    assert r.exit_code != 0
    assert option in r.output and words in r.output
    assert "Traceback" not in r.output
    assert not (tmp_path / "x").exists()


# --------------------------------------------------------------------------- tournament


def test_tournament_entrants_are_seats(tmp_path):
    r = run("tournament", "--strategies", "heuristic/heuristic,heuristic/random", "--deals", "20",
            "--seed", "4", "--json", "--out", str(tmp_path / "t"), "--no-progress",
            "--rotations", "4", "--play", "heuristic")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert [e["name"] for e in s["strategies"]] == ["heuristic/heuristic", "heuristic/random"]
    assert [e["play"] for e in s["strategies"]] == ["heuristic", "random"]
    # --play is the play of entrants given as BID alone; every label is BID/PLAY
    r = run("tournament", "--strategies", "heuristic,heuristic/heuristic", "--play", "random",
            "--deals", "20", "--seed", "4", "--json", "--out", str(tmp_path / "u"),
            "--no-progress", "--rotations", "4")
    assert r.exit_code == 0, r.output
    u = json.loads(r.stdout)
    assert [e["name"] for e in u["strategies"]] == ["heuristic/random", "heuristic/heuristic"]
    assert u["strategies"][1]["mean"] == s["strategies"][0]["mean"]
    assert u["strategies"][0]["mean"] == s["strategies"][1]["mean"]


@pytest.mark.parametrize(
    "args, option, words",
    [
        (["--strategies", "heuristic,hcp/bogus"], "--strategies", "unknown play policy"),
        (["--strategies", "heuristic,hcp:x=1"], "--strategies", "no parameter 'x'"),
        (["--strategies", "heuristic,hcp", "--play", "ltc"], "--play", "unknown play policy"),
        (["--strategies", "hcp,ltc,random,heuristic,cautious"], "--strategies",
         "name at most 4"),
    ],
)
def test_tournament_errors_name_the_option(tmp_path, args, option, words):
    r = run("tournament", "--deals", "5", "--seed", "1", "--out", str(tmp_path / "t"),
            "--no-progress", *args)
    assert r.exit_code != 0
    assert option in r.output and words in r.output and "Traceback" not in r.output


# --------------------------------------------------------------------------- advise, bid-chart


def test_advise_takes_specs(tmp_path):
    base = ["advise", "AKQ2.K3.QJ54.872", "--trump", "S", "--deals", "40", "--json"]
    a = run(*base)
    b = run(*base, "--bid-policy", "hcp:margin=0", "--play", "learned")
    c = run(*base, "--bid-policy", "hcp")  # the default play: learned
    assert a.exit_code == 0 and b.exit_code == 0 and c.exit_code == 0, a.output + b.output
    assert json.loads(b.stdout)["bids"] == json.loads(c.stdout)["bids"]
    d = run(*base, "--play", "random")
    assert d.exit_code == 0, d.output
    assert json.loads(d.stdout)["bids"] != json.loads(a.stdout)["bids"]


@pytest.mark.parametrize(
    "args, option, words",
    [
        (["--bid-policy", "montecarlo:n=5000"], "--bid-policy", "n must be in"),
        (["--bid-policy", "hcp:foo=2"], "--bid-policy", "no parameter 'foo'"),
        (["--bid-policy", "nonsense"], "--bid-policy", "models the other bidders"),
        (["--play", "ltc"], "--play", "unknown play policy 'ltc'"),
    ],
)
def test_advise_errors_name_the_option(args, option, words):
    r = run("advise", "AKQ2.K3.QJ54.872", "--trump", "S", "--deals", "10", *args)
    assert r.exit_code != 0
    assert option in r.output and words in r.output and "Traceback" not in r.output


@pytest.mark.parametrize(
    "args, option, words",
    [
        (["--bid", "bogus"], "--bid", "bid charts use"),
        (["--bid", "montecarlo:span=99"], "--bid", "span must be in"),
        (["--play", "hcp"], "--play", "unknown play policy 'hcp'"),
    ],
)
def test_bid_chart_errors_name_the_option(tmp_path, args, option, words):
    r = run("bid-chart", "--hands", "2", "--deals-per-hand", "2", "--out", str(tmp_path / "c"),
            "--no-progress", *args)
    assert r.exit_code != 0
    assert option in r.output and words in r.output and "Traceback" not in r.output


def test_bid_chart_takes_specs(tmp_path):
    r = run("bid-chart", "--hands", "4", "--deals-per-hand", "4", "--seed", "2", "--out",
            str(tmp_path / "c"), "--threads", "1", "--no-progress", "--bid", "ltc:margin=0",
            "--play", "random", "--no-parquet")
    assert r.exit_code == 0, r.output
    assert "--bid ltc:margin=0 --play random" in (tmp_path / "c" / "report.md").read_text()


# --------------------------------------------------------------------------- deal


def test_deal_play_uses_the_reference_policy():
    a = run("deal", "--seed", "777", "--deal", "2", "--play", "random", "--json")
    b = run("deal", "--seed", "777", "--deal", "2", "--policy", "heuristic/random", "--json")
    c = run("deal", "--seed", "777", "--deal", "2", "--json")
    assert a.exit_code == 0 and b.exit_code == 0 and c.exit_code == 0, a.output + b.output
    ra, rb, rc = (json.loads(x.stdout) for x in (a, b, c))
    assert ra == rb and ra["policies"] == ["heuristic/random"] * 4
    assert rc["policies"] == ["heuristic"] * 4
    assert ra["calls"] == rc["calls"] if "calls" in ra else True
    same = run("deal", "--seed", "777", "--deal", "2", "--play", "heuristic", "--json")
    assert json.loads(same.stdout) == rc


def test_deal_play_without_a_reference_version_is_played_by_the_compiled_engine(fake_play):
    # `deal` takes every play policy; fakeplay has the heuristic's kernel, so the deal
    # is the heuristic's, played by the compiled engine and checked by the reference rules
    r = run("deal", "--seed", "1", "--play", "fakeplay:n=2", "--json")
    assert r.exit_code == 0, r.output
    h = run("deal", "--seed", "1", "--json")
    mine, ref = json.loads(r.stdout), json.loads(h.stdout)
    assert mine["play"] == ref["play"] and mine["contracts"] == ref["contracts"]
    assert mine["policies"] == ["heuristic/fakeplay:n=2"] * 4
    r = run("deal", "--seed", "1", "--play", "bogus")
    assert r.exit_code != 0 and "--play" in r.output and "unknown play policy" in r.output
    assert "Traceback" not in r.output


# --------------------------------------------------------------------------- help


@pytest.mark.parametrize("command", ["simulate", "tournament", "advise", "bid-chart", "deal"])
def test_help_lists_the_play_policies(command):
    r = run(command, "--help")
    assert r.exit_code == 0
    text = " ".join(r.output.split())
    for name in PLAY_POLICIES:
        assert name in text
    assert "--play" in text


def test_newcomer_papercuts(tmp_path):
    """A bid chart never writes into a folder of other files; advise --plot checks
    its folder before computing; the tournament report's command line has only the options
    given; a three-player report says 3rd, not 3th."""
    from whist_sim.analyses.reports.labels import ordinal

    runner = CliRunner()
    (tmp_path / "notes.txt").write_text("mine")
    r = runner.invoke(main, ["bid-chart", "--hands", "2", "--out", str(tmp_path)])
    assert r.exit_code != 0 and "--out" in r.output and "notes.txt" in r.output
    assert (tmp_path / "notes.txt").read_text() == "mine"
    r = runner.invoke(main, ["advise", "AKQ2.K3.QJ54.872", "--trump", "S", "--declarer", "3",
                             "--bids", "6", "--plot", str(tmp_path / "no" / "such" / "x.png")])
    assert r.exit_code != 0 and "--plot" in r.output
    out = tmp_path / "t"
    r = runner.invoke(main, ["tournament", "--strategies", "heuristic,hcp", "--deals", "20",
                             "--seed", "1", "--out", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "--json" not in (out / "report.md").read_text()
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 21)] == ["1st", "2nd", "3rd", "4th", "11th",
                                                           "21st"]


def test_a_folder_that_cannot_be_written_is_named_without_a_resume_hint(tmp_path, monkeypatch):
    """A read-only --out gets an error that names it and does not send the user to
    --resume (which would fail the same way)."""
    from whist_sim.interfaces.cli import cmd_simulate

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cmd_simulate, "simulate", refuse)
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--seed", "1", "--out",
                                  str(tmp_path / "x"), "--no-progress"])
    assert r.exit_code == 1
    assert "cannot write to" in r.output and "--resume" not in r.output


def _arrays(bid, play, players):
    """``(pol, par)`` of a seating given by spec texts."""
    return Seating.of(bid, play, players).arrays()
