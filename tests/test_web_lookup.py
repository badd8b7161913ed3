"""The chart lookup of the charts page (``POST /api/chart``, ``GET /api/chart/cells``) against
a real local server, and the engine's measured start-up time that the waiting notice gives
(docs/WEB.md)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from webcall import call

from whist_sim.interfaces.cli import main
from whist_sim.interfaces.web.app import create_app
from whist_sim.interfaces.web.server import LocalServer
from whist_sim.interfaces.web.warmth import Warmth

HAND = "AKQ2.K3.QJ54.872"


@pytest.fixture(scope="module")
def url():
    with LocalServer(create_app(workers=2)) as base:
        yield base


def test_a_hand_looked_up_answers_as_the_chart_command(url):
    body = {"hand": HAND, "trump": "S", "declarer": 3, "bids": "6"}
    status, got = call(url, "/api/chart", body)
    assert status == 200, got
    r = CliRunner().invoke(main, ["chart", HAND, "--trump", "S", "--declarer", "3", "--bids",
                                  "6", "--json"])
    assert r.exit_code == 0, r.output
    want = json.loads(r.output)
    assert {k: got[k] for k in want} == want
    assert got["text"].startswith(f"Bid {want['bid']} (♠)")
    # what the advisor's link needs: the seat and the deal as the chart read them
    assert got["scenario"] == {"declarer": 3, "level": 5, "seat": 0, "bids": [6],
                               "forbidden": None}
    status, three = call(url, "/api/chart", {"hand": "K732.AKQ32.QJ54.", "trump": "H",
                                             "players": 3})  # no clubs (RULES §8)
    assert status == 200 and three["players"] == 3 and "three_players" in three["chart"]


@pytest.mark.parametrize("body,field,words", [
    ({"trump": "S"}, "hand", "a hand is required"),
    ({"hand": HAND}, "trump", "choose the trump"),
    ({"hand": "AKQ2.K3.QJ54", "trump": "S"}, None, "four suits"),
    ({"hand": HAND, "trump": "X"}, None, "trump"),
    ({"hand": HAND, "trump": "S", "seet": 1}, None, "unknown field(s) 'seet'"),
    ({"hand": HAND, "trump": "S", "zero_over": 30}, None, "unknown field(s) 'zero_over'"),
    ({"hand": HAND, "trump": "S", "players": 5}, "players", "5 is not in 3..4"),
    ({"hand": HAND, "trump": "S", "bids": [True]}, "bids", "whole numbers"),
])
def test_a_lookup_that_cannot_be_made_is_refused_in_words(url, body, field, words):
    status, err = call(url, "/api/chart", body)
    assert status == 400, err
    assert err["field"] == field and words in err["error"], err
    assert "Traceback" not in err["error"]


def test_the_chart_as_a_table(url):
    status, got = call(url, "/api/chart/cells")
    assert status == 200 and got["chart"] == "results/bid_chart" and got["players"] == 4
    lookup = call(url, "/api/chart", {"hand": HAND, "trump": "S", "declarer": 3,
                                      "bids": "6"})[1]
    cell = next(c for c in got["cells"]
                if (c["position"], c["hcp_band"], c["trump_class"]) ==
                (lookup["cell"]["position"], lookup["cell"]["hcp_band"],
                 lookup["cell"]["trump_class"]))
    assert cell["best_bid"] == lookup["best"]["bid"]
    assert call(url, "/api/chart/cells?players=5")[0] == 400


class FakeCompiles:
    depth = 0
    seconds = 0.0

    def so_far(self) -> float:
        return self.seconds


def test_a_start_that_compiled_is_measured_and_kept_for_the_next_server(tmp_path):
    """The first start that compiled keeps its seconds in the record file; a later server
    reads them back (the notice's estimate); a start that only loaded the cache keeps none."""
    now = [0.0]
    record = tmp_path / "cache" / "start.json"
    compiles = FakeCompiles()
    w = Warmth(clock=lambda: now[0], compiles=compiles, record=record)
    assert w.estimates() == {"play": None, "advice": None}
    with w.using("advice"):  # loaded from the cache: no compile, nothing measured
        now[0] += 3.0
    assert w.estimates()["advice"] is None and not record.exists()
    with w.using("play"):  # compiled for 180 s of a 206 s start
        now[0] += 206.0
        compiles.seconds = 180.0
    assert w.estimates() == {"play": 206.0, "advice": None}
    with w.using("play"):  # ready already: not a start
        now[0] += 500.0
        compiles.seconds = 400.0
    later = Warmth(clock=lambda: now[0], compiles=FakeCompiles(), record=record)
    assert later.estimates() == {"play": 206.0, "advice": None}
    record.write_text("not JSON")  # a file that is not ours: no estimate, no failure
    assert Warmth(compiles=FakeCompiles(), record=record).estimates()["play"] is None
    status = Warmth(compiles=FakeCompiles(), record=tmp_path / "none.json").status()
    assert status["play"]["state"] == "cold"
