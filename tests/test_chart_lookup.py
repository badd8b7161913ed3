"""``whist-sim chart``: a hand's cell of a bid chart, read without a search
(whist_sim.analyses.advisor.chart_lookup; docs/ADVISOR.md, "The chart lookup"). The cell is found
by bidding position, panel, high-card points and trump length; a cell's bid that the hand may not
bid (RULES §4: below the auction's level for the declarer, the forbidden number for the last
bidder) is never the answer; a malformed chart is refused naming its file and line."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from whist_sim.analyses.advisor.chart_lookup import (
    COMMITTED,
    ChartLookupError,
    load_cells,
    lookup,
    render_text,
    to_json,
)
from whist_sim.analyses.advisor.scenario import resolve_scenario
from whist_sim.core.rules import Rules
from whist_sim.interfaces.cli import main

HAND = "AKQ2.K3.QJ54.872"  # 15 high-card points, four spades
HEADER = ["position", "panel", "hcp_band", "trump_class", "hands", "prob", "best_bid", "best_ev",
          "second_bid", "second_ev", "diff", "diff_ci_low", "diff_ci_high", "separated"]


def _chart(folder: Path, rows: list[list]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "cells.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        w.writerows(rows)
    return folder


def _row(position, panel, band, cls, best, second, diff=3.0, separated=True):
    return [position, panel, band, cls, 400, 0.01, best, 10.0, second, 10.0 - diff, diff,
            diff - 1, diff + 1, separated]


@pytest.fixture
def chart(tmp_path) -> Path:
    """Four positions, the hand's band and trump class in the suit panel, one NT cell."""
    return _chart(tmp_path / "chart", [
        _row(0, "suit", "13-15", "4", 6, 7),
        _row(1, "suit", "13-15", "4", 4, 3, diff=0.2, separated=False),
        _row(2, "suit", "13-15", "4", 4, 5),
        _row(3, "suit", "13-15", "4", 3, 4),
        _row(1, "NT", "13-15", "NT", 5, 4),
    ])


def scenario(**kw):
    return resolve_scenario(HAND, kw.pop("trump", "S"), rules=Rules(), **kw)


def test_the_cell_is_found_by_position_panel_points_and_trump_length(chart):
    a = lookup(scenario(declarer=0, seat=1, bids=[6]), chart)
    assert (a.cell.position, a.cell.panel, a.cell.hcp_band, a.cell.trump_class) == (
        1, "suit", "13-15", "4")
    assert a.hcp == 15 and a.bid == 4 and a.runner_up == 3 and a.illegal == {}
    nt = lookup(scenario(trump="NT", declarer=0, seat=1, bids=[6]), chart)
    assert (nt.cell.panel, nt.cell.trump_class, nt.bid) == ("NT", "NT", 5)


def test_a_bid_below_the_declarers_level_is_not_the_answer(chart):
    # RULES §4: the declarer contracts at least the level he won the auction at
    a = lookup(scenario(declarer=0, level=7), chart)
    assert a.bid == 7 and a.illegal == {6: "below the auction's level, 7"}
    none = lookup(scenario(declarer=0, level=8), chart)
    assert none.bid is None and set(none.illegal) == {6, 7}
    assert render_text(none).startswith("The chart cannot answer this hand")


def test_the_forbidden_number_is_not_the_last_bidders_answer(chart):
    # RULES §4: the contracts may not add up to the number of tricks; 6 + 2 + 2 + 3 = 13
    a = lookup(scenario(declarer=1, bids=[6, 2, 2]), chart)
    assert a.scenario.position == 3 and a.bid == 4
    assert "forbidden number" in a.illegal[3]
    assert lookup(scenario(declarer=1, bids=[6, 2, 1]), chart).bid == 3  # 4 is forbidden: not asked


def test_the_answer_reads_as_sentences_and_as_json(chart):
    a = lookup(scenario(declarer=0, seat=1, bids=[6]), chart)
    text = render_text(a)
    first, second = text.splitlines()[:2]
    assert first == "Bid 4 (♠): expected score +10.0 points per deal, from the bid chart."
    assert "too close to tell apart" in second
    assert "whist-sim advise AKQ2.K3.QJ54.872 --trump S --declarer 0" in text
    j = to_json(a)
    assert j["bid"] == 4 and j["runner_up"] == {"bid": 3, "ev": 9.8}
    assert j["cell"] == {"position": 1, "panel": "suit", "hcp_band": "13-15",
                         "trump_class": "4", "auction": "", "hands": 400}
    assert j["difference"]["separated"] is False


def test_a_class_split_by_the_auction_answers_from_the_part_that_covers_the_hand(tmp_path):
    # the declarer's class split where its best bid, 6, is illegal: the hands that may bid 6
    # (level 6 or lower) and those that may not (level 7+), whose own best is 7
    split = tmp_path / "split"
    _chart(split, [_row(0, "suit", "13-15", "4", 6, 7), _row(0, "suit", "13-15", "4", 7, 8),
                   _row(3, "suit", "13-15", "4", 3, 4)])
    with open(split / "cells.csv", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    rows[0] += ["may", "may_not", "auction"]
    rows[1] += ["6", "", "auction level up to 6"]
    rows[2] += ["", "6", "auction level 7+"]
    rows[3] += ["", "", ""]
    with open(split / "cells.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    low = lookup(scenario(declarer=0, level=6), split)
    high = lookup(scenario(declarer=0, level=7), split)
    assert (low.cell.auction, low.bid, low.illegal) == ("auction level up to 6", 6, {})
    assert (high.cell.auction, high.bid, high.illegal) == ("auction level 7+", 7, {})
    assert "auction level 7+" in render_text(high)


def test_a_hand_no_cell_covers_is_sent_to_advise(chart):
    with pytest.raises(ChartLookupError, match="no cell for this hand .*2 trumps.*advise"):
        lookup(scenario(trump="H", declarer=0), chart)


@pytest.mark.parametrize(("rows", "fragment"), [
    ([], "no cell"),
    ([_row(0, "suit", "13-15", "4", 6, 7)[:-1]], "line 2: 13 fields"),
    ([_row(0, "suit", "13-15", "4", "six", 7)], "line 2, best_bid"),
    ([_row(0, "suit", "13-15", "4", 6.5, 7)], "whole number"),
    ([_row(0, "suit", "13-15", "4", 6, 7, separated="yes")], "separated"),
    ([_row(0, "suit", "13-15", "4", 6, 7)] * 2, "given twice"),
])
def test_a_malformed_chart_is_refused_naming_its_file_and_line(tmp_path, rows, fragment):
    folder = _chart(tmp_path / "bad", rows)
    with pytest.raises(ChartLookupError, match=fragment) as e:
        load_cells(folder)
    assert "cells.csv" in str(e.value)


def test_a_chart_for_another_table_is_refused(chart):
    with pytest.raises(ChartLookupError, match="a chart for 4 players, not 3"):
        lookup(resolve_scenario("AKQ2.AK32.QJ54T.", "S", rules=Rules(players=3)), chart)


def test_the_committed_charts_answer_from_their_own_rows():
    for players, hand in ((4, HAND), (3, "AQ432.K432.QJ54.")):
        cells = load_cells(COMMITTED[players])
        a = lookup(resolve_scenario(hand, "S", rules=Rules(players=players)))
        assert a.cell in cells and a.bid == a.cell.best_bid


def test_the_command_prints_the_answer_or_a_one_line_refusal(chart, tmp_path):
    r = CliRunner().invoke(main, ["chart", HAND, "--trump", "S", "--seat", "1", "--bids", "6",
                                  "--chart", str(chart)])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Bid 4 (♠)")
    r = CliRunner().invoke(main, ["chart", HAND, "--trump", "S", "--chart", str(chart),
                                  "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["bid"] == 6
    for args, fragment in ((["--trump", "S", "--chart", str(tmp_path / "none")], "--chart"),
                           (["--trump", "Z"], "trump"), (["--players", "5"], "--players"),
                           (["--trump", "S", "--level", "99"], "level")):
        r = CliRunner().invoke(main, ["chart", HAND, *args])
        assert r.exit_code in (1, 2) and "Traceback" not in r.output
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ") and fragment in lines[0], lines
