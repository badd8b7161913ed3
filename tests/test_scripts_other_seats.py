"""scripts/other_seats.py: whom the answers assume at the other seats, a measured decision.

The decision rule on constructed figures (the costs told apart, or not, then speed), the
decisions drawn from a table (RULES §4: the contracts bid in order from the declarer), and a tiny
run end to end (a few decisions, a few dozen deals each).
"""

from __future__ import annotations

import json

import pytest

from whist_sim.compiled.strategies.registry import DEFAULT_BID


@pytest.fixture
def other_seats(load_script):
    """The script as a module (its sibling ``report_default`` importable)."""
    return load_script("other_seats")


def _table(gain: float, half: float) -> dict:
    return {"n": 1000, "gain": gain, "ci": [gain - half, gain + half], "p": 0.01,
            "differ": 0.15}


def test_costs_told_apart_keep_the_assumption_that_costs_less_when_wrong(other_seats):
    # assuming learned at a heuristic table costs 2.0; assuming heuristic at a learned one 0.5
    tables = {"heuristic": _table(-2.0, 0.2), "learned": _table(0.5, 0.2)}
    v = other_seats.decide(tables, {"heuristic": 10.0, "learned": 5.0})
    assert v["apart"] and v["choice"] == "heuristic"
    assert v["cost"] == {"learned": 2.0, "heuristic": 0.5}
    tables = {"heuristic": _table(-0.5, 0.2), "learned": _table(2.0, 0.2)}
    assert other_seats.decide(tables, {"heuristic": 1.0, "learned": 2.0})["choice"] == "learned"


def test_costs_that_cannot_be_told_apart_keep_the_faster_assumption(other_seats):
    tables = {"heuristic": _table(-0.8, 0.4), "learned": _table(0.6, 0.3)}
    v = other_seats.decide(tables, {"heuristic": 100.0, "learned": 220.0})
    assert not v["apart"] and v["choice"] == "heuristic" and v["faster"] == "heuristic"
    assert v["speed_ratio"] == pytest.approx(2.2)
    v = other_seats.decide(tables, {"heuristic": 300.0, "learned": 220.0})
    assert v["choice"] == "learned"


def test_summary_counts_agreeing_answers_as_no_gain(other_seats):
    rows = [{"position": k % 4, "bid_heuristic": 3, "bid_learned": 3 if k % 2 else 4,
             "gain": 0.0 if k % 2 else 1.0, "unread": [] if k else ["learned"]}
            for k in range(8)]
    s = other_seats.summary(rows)
    assert s["n"] == 8 and s["differ"] == 0.5 and s["gain"] == pytest.approx(0.5)
    assert s["unread"] == 1
    assert s["by_position"][0]["differ"] == 1.0 and s["by_position"][1]["differ"] == 0.0


def test_decisions_come_in_bidding_order_from_the_declarer(other_seats):
    from whist_sim.compiled.entry.batch import play_batch
    from whist_sim.core.rules import Rules

    ds = other_seats.decisions("heuristic", 12, 5)
    assert [d.position for d in ds] == [k % 4 for k in range(12)]
    r = play_batch(5, 0, 24, Rules(), ["heuristic"] * 4, ["learned"] * 4)
    live = [i for i in range(24) if not r["thrown_in"][i]][:12]
    for d, i in zip(ds, live, strict=True):
        assert d.declarer == r["declarer"][i] and d.trump == r["trump"][i]
        assert d.seat == (d.declarer + d.position) % 4
        assert d.hand == r[f"hand_{d.seat}"][i]
        assert list(d.bids) == [r[f"contract_{(d.declarer + j) % 4}"][i]
                                for j in range(d.position)]


def test_a_tiny_run_writes_the_decision_with_its_figures(tmp_path, other_seats, capsys):
    rc = other_seats.main(["--out", str(tmp_path), "--situations", "4", "--choose-deals", "40",
                           "--value-deals", "40", "--seed", "11", "--no-progress"])
    assert rc == 0
    out = tmp_path / "other_seats"
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["tables"]) == {"heuristic", "learned"}
    assert summary["decision"]["choice"] in ("heuristic", "learned")
    assert all(t["n"] == 4 for t in summary["tables"].values())
    report = (out / "report.md").read_text()
    assert report.startswith("# Whom the answers assume at the other seats\n\n**In short.**")
    assert f"`DEFAULT_BID`, `{DEFAULT_BID}`" in report
    assert "--situations 4" in report and "## Glossary" in report
    assert "default assumption" in capsys.readouterr().out


def test_bad_sizes_are_refused_naming_the_option(other_seats, capsys):
    with pytest.raises(SystemExit):
        other_seats.main(["--situations", "1"])
    assert "--situations must be at least 2" in capsys.readouterr().err


def test_an_interrupted_run_goes_on_with_the_decisions_read_back_whole(tmp_path, other_seats):
    path = tmp_path / "decisions.partial.jsonl"
    options = {"situations": 4, "seed": 1}
    row = {"table": "heuristic", "position": 1, "hand": 7, "bids": [6], "gain": 0.5,
           "unread": [], "bid_heuristic": 2, "bid_learned": 3, "seconds_heuristic": 0.1,
           "seconds_learned": 0.2}
    done = other_seats.Progress(path, options)
    done.put("heuristic", 0, row)
    done.put("heuristic", 1, {**row, "bid_learned": 99})  # not a contract: not trusted
    done.put("heuristic", 2, row)
    with path.open("a") as f:
        f.write('{"table": "heur')  # cut short
    again = other_seats.Progress(path, options)
    assert again.get("heuristic", 0) == {"i": 0, **row}
    assert again.get("heuristic", 1) is None and again.get("heuristic", 2) is None
    # other options: the file is set aside and nothing is reused
    assert other_seats.Progress(path, {"situations": 5, "seed": 1}).get("heuristic", 0) is None
    assert path.with_suffix(".stale").is_file()
