"""A bid chart checked against search: which cells are checked and which screened, the verdict on
a cell's best bid under the chart's play and under a searching play (constructed inputs), the
marks of the moved cells in the Markdown grids and the charts, the zero cells' made rates against
both fields, and the command end to end (small sizes: a two-rollout search on a few hands)."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from whist_sim.analyses.advisor.chart_check import (
    MIN_SAMPLES,
    SCREENED,
    check_grids,
    compare_cells,
    plan_check,
)
from whist_sim.analyses.advisor.chart_plots import MOVED_COLOR, bid_grid
from whist_sim.analyses.advisor.chart_report import CHART_TERMS, _md_best, chart_glossary
from whist_sim.analyses.answer_check import CONFIRMED, CONTRADICTED, NOT_CONTRADICTED
from whist_sim.analyses.reports.wording import GLOSSARY_TITLE, TERMS
from whist_sim.core.rules import Rules
from whist_sim.interfaces.cli import main

KEY = {"position": 1, "panel": "suit", "hcp_band": "5-6", "trump_class": "2"}


def _cell(scores, answer, zero_made=None, zero_answer=math.nan, key=KEY, runner_up=None):
    return {"key": key, "hands": len(next(iter(scores.values()))), "answer_bid": answer,
            "runner_up": runner_up,
            "scores": {b: [None if x is None else np.array(x) for x in v]
                       for b, v in scores.items()},
            "zero_made": zero_made, "zero_answer": zero_answer}


def test_a_check_that_finds_the_same_bid_clearly_ahead_confirms_the_cell():
    scores = {1: [[10, 12, 11, 13], [11, 9, 10, 12]], 2: [[0, 2, 1, 0], [-5, 1, 0, -1]]}
    r = compare_cells([_cell(scores, 1, runner_up=2)]).iloc[0]
    assert r["verdict"] == CONFIRMED and r["holds"] and not r["moved"]
    assert r["check_bid"] == 1 and r["diff"] == 0 and r["order_ci_low"] > 0
    assert r["samples"] == 8 and r["check_ev"] == pytest.approx(11.0)


def test_a_check_that_clearly_prefers_the_runner_up_contradicts_the_cell():
    scores = {1: [[0, 1, 0, 2], [1, 0, 1, 0]], 2: [[20, 22, 21, 23], [19, 20, 22, 21]]}
    r = compare_cells([_cell(scores, 1, runner_up=2)]).iloc[0]
    assert r["verdict"] == CONTRADICTED and r["check_bid"] == 2 and r["moved"]
    assert not r["holds"] and math.isnan(r["detectable"])
    assert r["diff"] == pytest.approx(21 - 0.625) and r["diff_ci_low"] > 0
    assert r["check_ev_answer_bid"] == pytest.approx(0.625)


def test_a_check_that_cannot_tell_says_what_it_could_have_seen():
    # the check's best is the runner-up, within its noise: not contradicted, never "holds"
    scores = {1: [[0, 30, -20, 10]], 2: [[5, -10, 20, 12]]}
    r = compare_cells([_cell(scores, 1, runner_up=2)]).iloc[0]
    assert r["verdict"] == NOT_CONTRADICTED and r["check_bid"] == 2 and r["moved"]
    assert r["diff_ci_low"] < 0 < r["diff_ci_high"]
    # 2.80 standard errors, the standard error read from the interval as from a normal one
    se = (r["order_ci_high"] - r["order_ci_low"]) / (2 * 1.959964)
    assert r["detectable"] == pytest.approx(2.8016 * se, rel=1e-3)
    assert f"{r['detectable']:.1f} points per deal" in r["verdict_why"]


def test_a_bid_illegal_for_a_hand_is_left_out_of_its_mean_and_the_pairs():
    # the hooked last bidder of hand 2 may not bid 3: its samples count for bid 2 only
    scores = {2: [[10, 10], [0, 0]], 3: [[20, 20], None]}
    r = compare_cells([_cell(scores, 2, runner_up=3)]).iloc[0]
    assert r["check_bid"] == 3 and r["check_ev"] == 20 and r["check_ev_answer_bid"] == 5
    assert r["samples"] == 2 and r["diff"] == 10


def test_a_screened_cell_keeps_its_reason_and_no_numbers():
    r = compare_cells([{"key": KEY, "hands": 30, "answer_bid": 4, "runner_up": 5,
                        "zero_answer": math.nan, "screened": "one legal bid"}]).iloc[0]
    assert r["verdict"] == SCREENED and r["screened"] == "one legal bid"
    assert r["samples"] == 0 and math.isnan(r["diff"]) and not r["moved"]


def test_the_zero_bid_against_both_fields():
    r = compare_cells([_cell({0: [[25, 25], [-50, 25]], 1: [[-10, -10], [-10, -10]]}, 0,
                             zero_made=[np.array([True, True]), np.array([False, True])],
                             zero_answer=0.9, runner_up=1)]).iloc[0]
    assert r["zero_answer"] == 0.9 and r["zero_check"] == 0.75 and r["zero_samples"] == 4


def _chart(cells: dict[int, list[list[float]]], deals: int = 50) -> pd.DataFrame:
    """A chart frame of second-position hands: per HCP value, the hands' expected scores by bid
    (bids 0..len-1), 3 trumps each; the chart's attrs as :func:`bid_chart` sets them."""
    frames = []
    for hcp, evs in cells.items():
        ev = np.asarray(evs, dtype=float)
        n = len(ev)
        cols: dict[str, object] = {"position": [1] * n, "hcp": [hcp] * n, "trump_len": [3] * n,
                                   "deals": [deals] * n}
        for b in range(14):
            col = ev[:, b] if b < ev.shape[1] else np.full(n, np.nan)
            cols[f"ev_{b}"] = col
            cols[f"e_tricks_{b}"] = np.where(np.isnan(col), np.nan, b)
            cols[f"p_make_{b}"] = np.where(np.isnan(col), np.nan, 0.5)
        cols["best_bid"] = np.nanargmax(ev, axis=1)
        frames.append(pd.DataFrame(cols))
    df = pd.concat(frames, ignore_index=True)
    df.attrs = {"rules": Rules().to_dict(), "deals_per_hand": deals}
    return df


def test_only_the_cells_whose_top_two_are_close_are_checked():
    rng = np.random.default_rng(1)
    close = [[0, 10 + x, 10 - x] for x in rng.normal(0, 3, 12)]  # bids 1 and 2 within noise
    apart = [[0, 30 + x, 10] for x in rng.normal(0, 1, 12)]  # bid 1 ahead by about 20
    plans = plan_check(_chart({5: close, 11: apart}), budget=10 * MIN_SAMPLES)
    by_band = {p.key["hcp_band"]: p for p in plans}
    assert not by_band["5-6"].screened and by_band["5-6"].hands * by_band["5-6"].deals >= \
        MIN_SAMPLES
    assert by_band["11-12"].screened.startswith("the chart separates its top two")
    assert by_band["11-12"].hands == 0


def test_a_budget_too_small_screens_the_close_cells_it_cannot_pay_for():
    rng = np.random.default_rng(2)
    close = [[0, 10 + x, 10 - x] for x in rng.normal(0, 3, 12)]
    plans = plan_check(_chart({5: close, 7: close, 9: close}), budget=2 * MIN_SAMPLES)
    assert sum(not p.screened for p in plans) == 2
    assert sum("budget" in p.screened for p in plans) == 1


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
    assert c["play"] == "rollout:n=2" and c["deals_per_hand"] == 4
    assert isinstance(c["holds"], bool) and c["holds"] == all(x["holds"] for x in c["cells"])
    assert c["cells_checked"] + c["cells_screened"] == len(c["cells"]) > 0
    assert sum(c["verdicts"].values()) == len(c["cells"])
    assert all(x["verdict"] in (CONFIRMED, NOT_CONTRADICTED, CONTRADICTED, SCREENED)
               and (x["verdict"] == SCREENED) == bool(x["screened"]) for x in c["cells"])
    assert c["cells_moved"] == sum(x["moved"] for x in c["cells"])
    assert c["deals"] == sum(x["samples"] for x in c["cells"])
    report = (out / "report.md").read_text()
    assert "## Checked against search" in report and "Checked against another play" in report
    # the check's section says its verdicts, not "holds" (an interval may still hold 0)
    section = report.split("## Checked against search", 1)[1].split("\n## ", 1)[0]
    assert not re.search(r"\bholds?\b(?! 0)", section) and "stronger play" not in report
    # written for a card player: a summary in sentences first, a glossary of its terms last
    heads = re.findall(r"^## (.+)$", report, flags=re.M)
    assert heads[0] == "Summary" and heads[-1] == GLOSSARY_TITLE
    opening = report.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0]
    assert opening.startswith("The chart evaluated ") and "the rule book's rules" in opening
    assert "of them on average over the" in opening and "the cells are " in opening
    glossary = report.split(f"## {GLOSSARY_TITLE}", 1)[1]
    for term in chart_glossary(pd.DataFrame()):
        assert f"| {term} | {({**TERMS, **CHART_TERMS})[term]} |" in glossary
    assert "1st (declarer)" not in report and "Rules(" not in report
    cells = pd.read_csv(out / "cells.csv")
    assert {"check_bid", "check_verdict", "check_could_see", "check_screened", "check_holds",
            "zero_made", "check_zero_made"} <= set(cells.columns)
    check = pd.read_csv(out / "check.csv")
    assert len(check) == len(c["cells"]) and "verdict" in check.columns
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
