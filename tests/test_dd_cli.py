"""``whist-sim dd``: bridge tables in the bridge convention, whist analysis, files, JSON, errors."""

from __future__ import annotations

import json

from click.testing import CliRunner

from whist_sim.core.cards import parse_deal
from whist_sim.interfaces.cli import main
from whist_sim.interfaces.cli.cmd_dd import _slow_whist_notice

SYMMETRIC = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
FOUR_SUITS = "0:AKQJ... ...AKQJ .AKQJ.. ..AKQJ."
FORCED = "0:5...2 73... ..32. ..54."


def _run(*args):
    return CliRunner().invoke(main, ["dd", *args])


def test_bridge_table_json_follows_bridge_convention():
    # table[X][d] = tricks of declarer d's side in strain X, the player on d's left leading
    res = _run(SYMMETRIC, "--mode", "bridge", "--table", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["table"] == {
        "C": [5, 7, 5, 7], "D": [7, 5, 7, 5], "H": [5, 7, 5, 7], "S": [7, 5, 7, 5],
        "NT": [5, 5, 5, 5],
    }


def test_bridge_single_and_text_table():
    res = _run(FOUR_SUITS, "--trump", "C", "--seat", "E", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert (out["declarer"], out["leader"], out["trump"], out["tricks"]) == (1, 2, "C", 4)
    res = _run(FOUR_SUITS, "--table")
    assert res.exit_code == 0, res.output
    assert "N (0)" in res.output and "NT" in res.output


def test_whist_mode_one_seat_and_all_seats():
    res = _run(FORCED, "--mode", "whist", "--leader", "1", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert (out["seat"], out["max"], out["min"], out["exact"]) == (0, 0, 2, [])
    res = _run(FORCED, "--mode", "whist", "--leader", "1", "--table", "--json", "--trump", "NT")
    seats = json.loads(res.stdout)["seats"]
    assert seats[1] == {"max": 2, "min": 0, "exact": [0, 2]}
    res = _run(FORCED, "--mode", "whist", "--leader", "1", "--table")
    assert res.exit_code == 0 and "whist-max" in res.output


def test_whist_table_without_trump_covers_every_strain():
    # --table: every strain x seat; each strain's rows equal that strain asked alone, and "seats"
    # keeps NT's rows (what --table without --trump gave before it covered every strain)
    res = _run(FORCED, "--mode", "whist", "--leader", "1", "--table", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert list(out["table"]) == ["C", "D", "H", "S", "NT"]
    assert out["trump"] == "NT" and out["seats"] == out["table"]["NT"]
    for strain, seats in out["table"].items():
        alone = _run(FORCED, "--mode", "whist", "--leader", "1", "--table", "--json",
                     "--trump", strain)
        single = json.loads(alone.stdout)
        assert "table" not in single and single["seats"] == seats
    # diamonds are trumps: seat 3's two trumps (5 4 of diamonds) win both tricks
    assert out["table"]["D"][3] == {"max": 2, "min": 2, "exact": [2]}
    text = _run(FORCED, "--mode", "whist", "--leader", "1", "--table").output
    assert [ln.split(",")[0] for ln in text.splitlines() if ln.endswith("leads:")] == [
        "C", "D", "H", "S", "NT"]


def test_file_gives_one_json_object_per_deal(tmp_path):
    f = tmp_path / "deals.txt"
    f.write_text(f"# two deals\n{SYMMETRIC}\n\n{FOUR_SUITS}\n", encoding="utf-8")
    res = _run("--file", str(f), "--table", "--json")
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 2
    assert json.loads(lines[1])["table"]["C"] == [0, 4, 0, 4]


def test_progress_bar_over_the_deals_goes_to_stderr(tmp_path):
    f = tmp_path / "deals.txt"
    f.write_text(f"{SYMMETRIC}\n{FOUR_SUITS}\n", encoding="utf-8")
    res = _run("--file", str(f), "--table", "--json", "--progress")
    assert res.exit_code == 0, res.output
    assert "2/2" in res.stderr and "deal" in res.stderr  # tqdm's count of deals done
    assert [json.loads(ln)["deal"] for ln in res.stdout.splitlines()] == [
        json.loads(ln)["deal"] for ln in _run("--file", str(f), "--table", "--json").stdout
        .splitlines()]
    res = _run("--file", str(f), "--table", "--json", "--no-progress")
    assert "2/2" not in res.stderr and len(res.stdout.splitlines()) == 2


def test_errors_name_the_problem(tmp_path):
    res = _run("N:AK.. QJ... T9... 87...")
    assert res.exit_code == 2 and "four suits separated by dots" in res.output
    res = _run("0:AK... QJ... T9... 8...")
    assert res.exit_code == 2 and "same number of cards" in res.output
    res = _run(FOUR_SUITS, "--trump", "X")
    assert res.exit_code == 2 and "unknown strain" in res.output
    res = _run(FOUR_SUITS, "--leader", "5")
    assert res.exit_code == 2 and "unknown seat" in res.output
    res = _run()
    assert res.exit_code == 2 and "DEAL or --file" in res.output
    f = tmp_path / "bad.txt"
    f.write_text(f"{FOUR_SUITS}\n0:AS... KS... QS... JS...\n", encoding="utf-8")
    res = _run("--file", str(f), "--json")
    assert res.exit_code == 2 and "bad.txt:2" in res.output
    f.write_text("# nothing but a comment\n\n", encoding="utf-8")
    res = _run("--file", str(f))
    assert res.exit_code == 2 and "holds no deal" in res.output


# a 6-card ending: 20 card plays solve some of its questions, not all
ENDING = "0:9.KQ.4.Q7 .6.QJT3.K .543.9.T9 AJ5.8..J8"


def test_node_limit_prints_unknown_with_the_proved_range():
    full = json.loads(_run(ENDING, "--mode", "whist", "--table", "--json").stdout)
    assert all(s["max"] is not None and "max_bounds" not in s for s in full["seats"])
    res = _run(ENDING, "--mode", "whist", "--table", "--json", "--node-limit", "20")
    assert res.exit_code == 0, res.output
    seats = json.loads(res.stdout)["seats"]
    stopped = 0
    for lim, ok in zip(seats, full["seats"], strict=True):
        for key in ("max", "min"):
            lo, hi = lim[f"{key}_bounds"]
            assert lo <= ok[key] <= hi  # the true answer lies in the proved range
            if lim[key] is None:
                stopped += 1
            else:
                assert lim[key] == ok[key] == lo == hi
        assert lim["exact"] is None or lim["exact"] == ok["exact"]
    assert stopped  # the limit bites somewhere


def test_whist_mode_on_a_full_deal_without_limit_gets_a_notice():
    full = parse_deal(SYMMETRIC)
    assert "--node-limit" in _slow_whist_notice(full, "whist", None)
    assert _slow_whist_notice(full, "whist", 1_000) is None
    assert _slow_whist_notice(full, "bridge", None) is None
    assert _slow_whist_notice(parse_deal(ENDING), "whist", None) is None  # 6 cards: quick
    res = _run(SYMMETRIC, "--mode", "whist", "--node-limit", "2000", "--json")
    assert res.exit_code == 0 and "note:" not in res.stderr


def test_min_node_limit_stops_whist_min_alone():
    full = json.loads(_run(ENDING, "--mode", "whist", "--table", "--json").stdout)
    res = _run(ENDING, "--mode", "whist", "--table", "--json", "--min-node-limit", "20")
    assert res.exit_code == 0, res.output
    stopped = 0
    for lim, ok in zip(json.loads(res.stdout)["seats"], full["seats"], strict=True):
        assert lim["max"] == ok["max"] and lim["max_bounds"] == [ok["max"]] * 2  # no limit
        lo, hi = lim["min_bounds"]
        assert lo <= ok["min"] <= hi
        stopped += lim["min"] is None
    assert stopped
    res = _run(ENDING, "--min-node-limit", "20")
    assert res.exit_code == 2 and "--min-node-limit is for --mode whist" in res.output
    text = _run(ENDING, "--mode", "whist", "--node-limit", "20").output
    assert "?" in text and "over --node-limit" in text
    text = _run(ENDING, "--mode", "whist", "--table", "--node-limit", "20").output
    assert "?[" in text and "[lo-hi] = the range proved" in text
    bridge = json.loads(_run(ENDING, "--table", "--json", "--node-limit", "20").stdout)["table"]
    assert None in bridge["NT"] + bridge["S"] + bridge["C"]
    assert _run(ENDING, "--node-limit", "0").exit_code != 0


def test_compile_notice_goes_to_stderr(monkeypatch):
    # the first run compiles the solver for a minute or two: the user is told why, on stderr
    from whist_sim.interfaces.cli import cmd_dd

    monkeypatch.setattr(cmd_dd, "warm_up", lambda notify: notify("compiling ..."))
    res = _run(FOUR_SUITS, "--json")
    assert res.exit_code == 0, res.output
    assert "compiling ..." in res.stderr and json.loads(res.stdout)["mode"] == "bridge"
    res = _run("0:AKQ", "--json")  # a bad deal is reported before any warm-up
    assert res.exit_code == 2 and "compiling" not in res.output
