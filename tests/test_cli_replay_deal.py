"""The `whist-sim deal` and `whist-sim replay` commands (RULES §10): output, exit codes, errors."""

import json

import pytest
from click.testing import CliRunner

from whist_sim import Rules
from whist_sim.engine import play_deal
from whist_sim.engine.record import record_from_trace
from whist_sim.interfaces.cli import main

HANDS = ["AKQ2.K3.QJ54.872", "T98.AQJ.K32.KQJ5", "J76.T98765.A.A64", "543.42.T9876.T93"]


@pytest.fixture
def runner():
    return CliRunner()


def write(tmp_path, name, obj):
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return str(path)


def test_deal_prints_a_readable_trace(runner):
    res = runner.invoke(main, ["deal", "--seed", "1", "--deal", "3"])
    assert res.exit_code == 0, res.output
    text = res.output
    for part in ("Deal 3 of seed 1", "dealer seat 3", "Hands as dealt:", "Auction 1",
                 "Declarer:", "Contracts", "trick 13", "-> seat", "contract  tricks  score"):
        assert part in text
    t = play_deal(1, 3, policies=("heuristic",) * 4)  # --policy names a whole reference player
    for s in range(4):
        assert f"{s:>4}  {t.contracts[s]:>8}  {t.tricks[s]:>6}  {t.scores[s]:>5}" in text


def test_deal_json_is_the_engine_record(runner):
    res = runner.invoke(main, ["deal", "--seed", "9", "--deal", "2", "--dealer", "1",
                               "--policy", "random", "--json"])
    assert res.exit_code == 0, res.output
    rec = json.loads(res.stdout)
    t = play_deal(9, 2, dealer=1, policies=("random",) * 4)
    expected = record_from_trace(t)
    expected["policies"] = ["random"] * 4
    assert rec == expected


def test_deal_per_seat_policies_and_rule_options(runner):
    res = runner.invoke(main, ["deal", "--seed", "5", "--policy", "random,heuristic,random",
                               "--players", "3", "--three-player-deck", "no_low", "--json"])
    assert res.exit_code == 0, res.output
    rec = json.loads(res.stdout)
    assert rec["rules"]["players"] == 3 and len(rec["hands"]) == 3
    t = play_deal(5, 0, Rules(players=3, three_player_deck="no_low"),
                  policies=["random", "heuristic", "random"])
    assert rec["play"] == record_from_trace(t)["play"]


@pytest.mark.parametrize("args, message", [
    (["--seed", "1", "--policy", "clever"], "unknown strategy 'clever'"),
    (["--seed", "1", "--policy", "heuristic,clever,random,random"], "'clever' for seat 1"),
    (["--seed", "1", "--play", "rollout:n=-1"], "--play"),
    (["--seed", "1", "--deal", "1", "--dealer", "3", "--play", "rollout"], "--dealer needs"),
    (["--seed", "1", "--policy", "random,random"], "2 policies given"),
    (["--seed", "1", "--dealer", "4"], "seat 4 is not in 0..3"),
    (["--seed", "-1"], "--seed"),
    ([], "Missing option '--seed'"),
    (["--seed", "1", "--players", "3", "--frisch-directions", "left,across,left"], "across"),
])
def test_deal_usage_errors_exit_2(runner, args, message):
    res = runner.invoke(main, ["deal", *args])
    assert res.exit_code == 2 and message in res.output
    assert "Traceback" not in res.output


def test_deal_plays_any_policy_in_the_compiled_engine(runner, tmp_path):
    # `deal` takes every play policy; the ones the readable engine lacks are played by
    # the compiled engine and replayed (each move checked) through the reference rules
    from whist_sim.compiled.entry.batch import play_traces

    res = runner.invoke(main, ["deal", "--seed", "777", "--deal", "2", "--json",
                               "--policy", "montecarlo:n=4/rollout:n=4,heuristic,heuristic/expert,"
                               "random"])
    assert res.exit_code == 0, res.output
    rec = json.loads(res.stdout)
    assert rec["policies"] == ["montecarlo:n=4/rollout:n=4", "heuristic", "heuristic/expert",
                               "random"]
    tr = play_traces(777, 2, 1, Rules(), ["montecarlo:n=4", "heuristic", "heuristic", "random"],
                     ["rollout:n=4", "heuristic", "expert", "random"])
    from whist_sim.core.cards import card_str

    assert rec["play"] == [card_str(int(c)) for c in tr["plays"][0, : tr["n_plays"][0]]]
    assert rec["contracts"] == [int(x) for x in tr["contracts"][0]]
    f = write(tmp_path, "r.json", res.stdout)
    assert runner.invoke(main, ["replay", f]).exit_code == 0  # a legal deal under the rule book
    text = runner.invoke(main, ["deal", "--seed", "777", "--deal", "2", "--play", "rollout:n=4"])
    assert text.exit_code == 0 and "trick 13" in text.output


def test_compiled_trace_is_the_reference_deal_for_reference_policies():
    from whist_sim.runs.trace import compiled_trace

    for deal in range(5):
        mine = compiled_trace(11, deal, Rules(), ["heuristic"] * 4, ["expert"] * 4)
        ref = play_deal(11, deal, policies=[_expert] * 4)
        assert mine == ref


def _expert(state, rng):
    from whist_sim.engine.policies import expert_policy

    return expert_policy(state, rng)


def test_replay_round_trip_and_table(runner, tmp_path):
    files = []
    for i in range(4):
        rec = json.loads(runner.invoke(main, ["deal", "--seed", "3", "--deal", str(i),
                                              "--json"]).output)
        files.append(write(tmp_path, f"d{i}.json", rec))
    res = runner.invoke(main, ["replay", "--json", *files])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in res.output.splitlines()]
    assert [x["file"] for x in lines] == files
    for i, x in enumerate(lines):
        t = play_deal(3, i, policies=("heuristic",) * 4)
        assert x["ok"] and x["scores"] == list(t.scores)
    table = runner.invoke(main, ["replay", *files])
    assert table.exit_code == 0
    assert table.output.splitlines()[0].split() == [
        "file", "result", "declarer", "bid", "contracts", "over", "tricks", "scores"]
    assert len(table.output.splitlines()) == 5


def test_replay_refused_record_exits_1_and_others_still_reported(runner, tmp_path):
    good = write(tmp_path, "good.json", record_from_trace(play_deal(3, 0)))
    bad = write(tmp_path, "bad.json", {"dealer": 3, "hands": HANDS,
                                       "calls": ["pass", "pass", "5D", "pass", "5S", "pass",
                                                 "5H"]})
    broken = write(tmp_path, "broken.json", "{not json")
    res = runner.invoke(main, ["replay", "--json", good, bad, broken])
    assert res.exit_code == 1
    out = [json.loads(x) for x in res.output.splitlines()]
    assert out[0]["ok"] is True
    assert out[1] == {"file": bad, "ok": False, "error": "calls[6]: 5H does not beat 5S"}
    assert out[2]["ok"] is False and out[2]["error"].startswith("not valid JSON")
    table = runner.invoke(main, ["replay", good, bad])
    assert table.exit_code == 1 and "REFUSED" in table.output
    assert "calls[6]: 5H does not beat 5S" in table.output


def test_replay_usage_errors_exit_2(runner, tmp_path):
    assert runner.invoke(main, ["replay"]).exit_code == 2
    assert runner.invoke(main, ["replay", str(tmp_path / "missing.json")]).exit_code == 2
    f = write(tmp_path, "x.json", record_from_trace(play_deal(1, 0)))
    res = runner.invoke(main, ["replay", "--revokes", "forgive", f])
    assert res.exit_code == 2 and "forgive" in res.output


def test_replay_revokes_flag_overrides_the_record(runner, tmp_path):
    from whist_sim.core.cards import card_str, parse_card
    from whist_sim.engine import DealState

    calls = ["pass", "5C", "pass", "6H", "pass", "pass", "pass"]
    s = DealState.from_text(HANDS, dealer=3).apply_text(*calls, 6, 3, 3, 2)
    s.apply(parse_card("2H"))
    s.apply(parse_card("AS"), allow_revoke=True)  # seat 0 holds hearts: a revoke
    while s.phase == "play":
        s.apply(s.legal_actions()[0])
    rec = {"dealer": 3, "hands": HANDS, "calls": calls, "contracts": [3, 3, 2, 6],
           "play": [card_str(c) for c in s.plays], "revokes": "reject"}
    f = write(tmp_path, "revoke.json", rec)
    assert runner.invoke(main, ["replay", f]).exit_code == 1
    res = runner.invoke(main, ["replay", "--json", "--revokes", "penalize", f])
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert out["scores"] == list(s.scores) and out["revokes"] == [{"play": 1, "seat": 0}]
    # the rule option sets the fine for records without "rules"
    res = runner.invoke(main, ["replay", "--json", "--revokes", "penalize",
                               "--revoke-penalty", "0", f])
    assert json.loads(res.stdout)["scores"][0] == s.scores[0] + 100


def test_replay_rule_options_are_the_default_for_records_without_rules(runner, tmp_path):
    t = play_deal(6, 1, Rules(players=3))
    rec = record_from_trace(t)
    del rec["rules"]
    f = write(tmp_path, "three.json", rec)
    res = runner.invoke(main, ["replay", "--json", f])
    assert res.exit_code == 1 and "the rules need 4 players" in res.output
    res = runner.invoke(main, ["replay", "--json", "--players", "3", f])
    assert res.exit_code == 0 and json.loads(res.stdout)["scores"] == list(t.scores)
