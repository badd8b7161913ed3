"""A bid chart checked against search: the comparison of a cell's best bid under the chart's play
and under a searching play (constructed inputs), the marks of the moved cells in the Markdown
grids and the charts, the zero cells' made rates against both fields, and the command end to end
(small sizes: a two-rollout search on a few hands)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from whist_sim.analyses.advisor.bidchart import _md_best
from whist_sim.analyses.advisor.chart_check import (
    check_deals_per_hand,
    check_grids,
    check_hands,
    compare_cells,
)
from whist_sim.analyses.advisor.chart_plots import MOVED_COLOR, bid_grid
from whist_sim.interfaces.cli import main

KEY = {"position": 1, "panel": "suit", "hcp_band": "5-6", "trump_class": "2"}


def _cell(scores, answer, zero_made=None, zero_answer=math.nan, key=KEY):
    return {"key": key, "hands": len(next(iter(scores.values()))), "answer_bid": answer,
            "scores": {b: [None if x is None else np.array(x) for x in v]
                       for b, v in scores.items()},
            "zero_made": zero_made, "zero_answer": zero_answer}


def test_the_subsample_rule():
    assert check_hands(200) == 10 and check_hands(1000) == 50 and check_hands(5) == 10
    assert check_deals_per_hand(200) == 10 and check_deals_per_hand(1000) == 50
    assert check_deals_per_hand(4) == 4


def test_a_cell_whose_check_agrees_holds():
    c = compare_cells([_cell({1: [[10, 12], [11, 9]], 2: [[0, 2], [-5, 1]]}, 1)])
    r = c.iloc[0]
    assert r["check_bid"] == 1 and not r["moved"] and r["holds"] and r["diff"] == 0
    assert r["samples"] == 4 and r["check_ev"] == pytest.approx(10.5)


def test_a_cell_clearly_better_elsewhere_moves_and_does_not_hold():
    scores = {1: [[0, 1, 0, 2], [1, 0, 1, 0]], 2: [[20, 22, 21, 23], [19, 20, 22, 21]]}
    r = compare_cells([_cell(scores, 1)]).iloc[0]
    assert r["check_bid"] == 2 and r["moved"] and not r["holds"]
    assert r["diff"] == pytest.approx(21 - 0.625) and r["diff_ci_low"] > 0
    assert r["check_ev_answer_bid"] == pytest.approx(0.625)


def test_a_cell_that_moves_within_the_noise_holds():
    scores = {1: [[0, 30, -20, 10]], 2: [[5, -10, 20, 12]]}
    r = compare_cells([_cell(scores, 1)]).iloc[0]
    assert r["check_bid"] == 2 and r["moved"] and r["holds"]
    assert r["diff_ci_low"] < 0 < r["diff_ci_high"]


def test_a_bid_illegal_for_a_hand_is_left_out_of_its_mean_and_the_pairs():
    # the hooked last bidder of hand 2 may not bid 3: its samples count for bid 2 only
    scores = {2: [[10, 10], [0, 0]], 3: [[20, 20], None]}
    r = compare_cells([_cell(scores, 2)]).iloc[0]
    assert r["check_bid"] == 3 and r["check_ev"] == 20 and r["check_ev_answer_bid"] == 5
    assert r["samples"] == 2 and r["diff"] == 10


def test_the_zero_bid_against_both_fields():
    r = compare_cells([_cell({0: [[25, 25], [-50, 25]], 1: [[-10, -10], [-10, -10]]}, 0,
                             zero_made=[np.array([True, True]), np.array([False, True])],
                             zero_answer=0.9)]).iloc[0]
    assert r["zero_answer"] == 0.9 and r["zero_check"] == 0.75 and r["zero_samples"] == 4


def _grid(values):
    bands = ["3-4", "5-6"]
    classes = ["1", "2"]
    return pd.DataFrame(values, index=pd.Index(bands, name="hcp_band"),
                        columns=pd.Index(classes, name="trump_class"), dtype=float)


def _checked():
    rows = [
        {**KEY, "answer_bid": 1, "check_bid": 2, "holds": False, "moved": True,
         "zero_answer": 0.5, "zero_check": 0.25},
        {**KEY, "hcp_band": "3-4", "trump_class": "1", "answer_bid": 0, "check_bid": 0,
         "holds": True, "moved": False, "zero_answer": 0.92, "zero_check": 0.61},
        {**KEY, "hcp_band": "3-4", "trump_class": "2", "answer_bid": 1, "check_bid": 0,
         "holds": True, "moved": True, "zero_answer": math.nan, "zero_check": math.nan},
    ]
    return pd.DataFrame(rows)


def test_the_markdown_grid_marks_the_moved_cells_and_the_zero_cells():
    best = _grid([[0, 1], [2, 1]])
    sep = _grid([[1, 1], [1, 1]])
    grids = check_grids(_checked(), best, 1)
    assert grids[0].to_numpy().tolist() == [[0, 1], [0, 2]]
    md = _md_best(best, sep, grids)
    assert "| 0 (92%/61%) | 1→0 |" in md  # a zero cell; a move within the noise
    assert "| 2 | **1→2** |" in md  # a move the chart's bid does not survive
    assert "→" not in _md_best(best, sep)  # unchecked: no marks


def test_the_chart_frames_the_moved_cells():
    from whist_sim.analyses.reports.charts import new_figure

    best = _grid([[0, 1], [2, 1]])
    moved = check_grids(_checked(), best, 1)[0]
    ax = new_figure(3, 3).add_subplot()
    bid_grid(ax, best, _grid([[1, 1], [1, 1]]), 13, "t", moved=moved)
    frames = [p for p in ax.patches if p.get_edgecolor()[:3] == pytest.approx(
        tuple(int(MOVED_COLOR[i:i + 2], 16) / 255 for i in (1, 3, 5)))]
    assert sorted(p.get_linewidth() for p in frames) == [1.0, 2.4]
    ax2 = new_figure(3, 3).add_subplot()
    bid_grid(ax2, best, _grid([[1, 1], [1, 1]]), 13, "t")
    assert len(ax2.patches) == 0


ARGS = ["bid-chart", "--hands", "400", "--min-hands", "10", "--deals", "20", "--no-nt",
        "--threads", "1", "--no-progress", "--json"]


@pytest.fixture(scope="module")
def checked_chart(tmp_path_factory):
    out = tmp_path_factory.mktemp("chart") / "c"
    r = CliRunner().invoke(main, [*ARGS, "--out", str(out), "--check", "rollout:n=2",
                                  "--check-deals", "4"])
    assert r.exit_code == 0, r.output
    return out, json.loads(r.stdout)


def test_the_command_writes_the_check(checked_chart):
    out, d = checked_chart
    c = d["check"]
    assert c["play"] == "rollout:n=2" and c["deals_per_hand"] == 4 and c["hands_per_cell"] == 10
    assert isinstance(c["holds"], bool) and c["holds"] == all(x["holds"] for x in c["cells"])
    assert c["cells_checked"] == len(c["cells"]) > 0
    assert c["cells_moved"] == sum(x["moved"] for x in c["cells"])
    assert c["deals"] == sum(x["samples"] for x in c["cells"])
    report = (out / "report.md").read_text()
    assert "## Checked against search" in report
    assert f"{c['cells_moved']} of {c['cells_checked']} cells move" in report
    cells = pd.read_csv(out / "cells.csv")
    assert {"check_bid", "check_holds", "zero_made", "check_zero_made"} <= set(cells.columns)
    check = pd.read_csv(out / "check.csv")
    assert len(check) == c["cells_checked"]
    assert (out / "cheat_sheet_4p.pdf").read_bytes()[:4] == b"%PDF"


def test_no_check_omits_it(tmp_path):
    out = tmp_path / "c"
    r = CliRunner().invoke(main, [*ARGS, "--out", str(out), "--no-check"])
    assert r.exit_code == 0, r.output
    assert "check" not in json.loads(r.stdout)
    assert "Checked against search" not in (out / "report.md").read_text()
    assert not (out / "check.csv").exists()


def test_a_bad_check_is_refused_in_one_line(tmp_path):
    r = CliRunner().invoke(main, [*ARGS, "--out", str(tmp_path / "c"), "--check", "hcp"])
    assert r.exit_code == 2 and "--check" in r.output and "Traceback" not in r.output
