"""Bid charts that cover every hand class and say how sure they are.

* Stratified hands: the hands of a cell are the first ``min_hands`` of the screened hands of that
  cell (by hand index), their weights give the cells' natural probabilities back, and a run too
  small to fill its cells says so. The same chart whatever the chunks, threads or a cluster.
* A cell's optimal bid is the best mean over its hands; it is separated when the paired 95 %
  interval of best minus second-best lies above zero; the zero-bid value is paired too.
* Monotonicity counts the stronger neighbour advised to bid fewer tricks.
* The cheat sheet is one A4 page, PNG and PDF.
"""

from __future__ import annotations

import struct

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from whist_sim.analyses.advisor.bidchart import bid_chart, chart_tables, paired_zero_value
from whist_sim.analyses.advisor.chart_cells import monotonicity
from whist_sim.analyses.advisor.chart_strata import (
    NT_CLASS,
    ScreenTask,
    band_of,
    cell_key,
    first_k,
    run_screen_chunk,
    trump_class_of,
)
from whist_sim.core.rules import Rules
from whist_sim.interfaces.cli import main

SEED = 7
HANDS = 400
K = 3  # hands per cell


@pytest.fixture(scope="module")
def strat() -> pd.DataFrame:
    return bid_chart(hands=HANDS, min_hands=K, deals_per_hand=4, seed=SEED, threads=1,
                     chunk_size=9, progress=False)


@pytest.fixture(scope="module")
def screened() -> pd.DataFrame:
    raw = run_screen_chunk(ScreenTask(HANDS, SEED, Rules(), "heuristic", "expert", HANDS), 0)
    h = np.arange(HANDS)
    ok = raw["band"] >= 0
    return pd.DataFrame({
        "hand_index": h[ok],
        "suit_key": np.where(raw["cls"][ok] != NT_CLASS,
                             cell_key(h[ok] % 4, raw["band"][ok], raw["cls"][ok]), -1),
        "nt_key": cell_key(h[ok] % 4, raw["band"][ok], NT_CLASS),
    })


def test_each_cell_gets_its_first_hands(strat, screened):
    for panel, col in ((False, "suit_key"), (True, "nt_key")):
        rows = strat[strat["nt_panel"] == panel]
        tl = rows["trump_len"].to_numpy()
        key = cell_key(rows["position"], band_of(rows["hcp"]),
                       np.where(tl < 0, NT_CLASS, np.minimum(tl, 7)))
        assert list(key) == list(rows["cell"])
        for k, g in screened[screened[col] >= 0].groupby(col):
            chosen = rows[rows["cell"] == k]["hand_index"].tolist()
            assert chosen == g["hand_index"].tolist()[:K]
    assert len(strat) < 2 * len(screened)  # common cells were capped


def test_screen_classes_agree_with_the_evaluated_hands(strat):
    suit = strat[~strat["nt_panel"]]
    assert (trump_class_of(suit["hand"].to_numpy(), suit["trump"].to_numpy())
            == np.minimum(suit["trump_len"], 7)).all()


def test_weights_give_the_natural_distribution_back(strat, screened):
    for (pos, panel), g in strat.groupby(["position", "nt_panel"]):
        assert g["weight"].sum() == pytest.approx(1.0)
        col = "nt_key" if panel else "suit_key"
        nat = screened[(screened["hand_index"] % 4 == pos)]
        nat = nat[nat[col] >= 0]  # the suit panel: the deals played in a suit (not at NT)
        for k, cg in g.groupby("cell"):
            assert cg["cell_prob"].iloc[0] == pytest.approx((nat[col] == k).sum() / len(nat))


def test_results_do_not_depend_on_chunks_or_threads(strat):
    other = bid_chart(hands=HANDS, min_hands=K, deals_per_hand=4, seed=SEED, threads=2,
                      chunk_size=50, progress=False)
    pd.testing.assert_frame_equal(strat, other)


@pytest.mark.slow
def test_a_two_worker_cluster_gives_the_same_chart(strat):
    pytest.importorskip("distributed")
    other = bid_chart(hands=HANDS, min_hands=K, deals_per_hand=4, seed=SEED,
                      cluster="local:2", threads=1, chunk_size=13, progress=False)
    pd.testing.assert_frame_equal(strat, other)
    assert other.attrs["executor"].startswith("dask-local")


def test_a_small_run_says_so(strat):
    notes = strat.attrs["coverage"]
    assert notes and "need about" in notes[0]
    assert any("suit panel" in n and f"fewer than {K} hands" in n for n in notes)


def _rows(evs: list[list[float]], position: int = 1, hcp: int = 4, tl: int = 3) -> pd.DataFrame:
    ev = np.asarray(evs, dtype=float)
    n = ev.shape[0]
    cols = {"position": [position] * n, "hcp": [hcp] * n, "trump_len": [tl] * n}
    for b in range(14):
        col = ev[:, b] if b < ev.shape[1] else np.full(n, np.nan)
        cols[f"ev_{b}"] = col
        cols[f"e_tricks_{b}"] = np.where(np.isnan(col), np.nan, b)
        cols[f"p_make_{b}"] = np.where(np.isnan(col), np.nan, 0.5)
    best = np.argmax(ev, axis=1)
    cols.update({"best_bid": best, "best_e_tricks": best.astype(float), "best_ev": ev.max(axis=1),
                 "over": [True] * n, "zero_legal": ~np.isnan(ev[:, 0]),
                 "zero_best": ev[:, 0] > np.nanmax(ev[:, 1:], axis=1)})
    return pd.DataFrame(cols)


def test_a_cell_is_separated_only_when_the_paired_interval_excludes_zero():
    # cell A (3-4 HCP, 3 trumps): bid 2 beats bid 1 by 5 to 7 points on every hand: separated.
    # cell B (5-6 HCP): bid 2 and bid 1 trade places hand by hand: not separated.
    a = _rows([[10, 20, 25], [30, 40, 47], [-5, 0, 6], [12, 8, 14]])
    b = _rows([[0, 20, 30], [0, 35, 25], [0, 10, 14], [0, 30, 28]], hcp=5)
    t = chart_tables(pd.concat([a, b], ignore_index=True), min_n=1)
    cells = t["cells"].set_index("hcp_band")
    ca, cb = cells.loc["3-4"], cells.loc["5-6"]
    assert (ca["best_bid"], ca["second_bid"], bool(ca["separated"])) == (2, 1, True)
    assert ca["diff"] == pytest.approx(np.mean([5, 7, 6, 6]))
    assert ca["diff_ci_low"] > 0
    assert cb["best_bid"] == 2 and not cb["separated"] and cb["diff_ci_low"] < 0
    # zero value, paired: zero minus the hand's best non-zero contract
    assert ca["zero_diff"] == pytest.approx(np.mean([10 - 25, 30 - 47, -5 - 6, 12 - 14]))
    assert t["separated_pos1"].loc["3-4", "3"] == 1 and t["separated_pos1"].loc["5-6", "3"] == 0
    assert t["best_bid_pos1"].loc["3-4", "3"] == 2


def test_monotonicity_counts_a_stronger_hand_advised_fewer_tricks():
    cells = pd.DataFrame({
        "position": [1] * 4, "panel": ["suit"] * 4, "hcp_band": ["0-2", "3-4", "0-2", "3-4"],
        "trump_class": ["3", "3", "4", "4"], "hands": [5] * 4, "best_bid": [2, 1, 3, 3],
        "separated": [True, True, False, True],
    })
    m = monotonicity(cells, ["0-2", "3-4"], ["3", "4", "NT"]).iloc[0]
    # pairs: (0-2,3)->(3-4,3) 2>1 inversion; (0-2,3)->(0-2,4); (3-4,3)->(3-4,4); (0-2,4)->(3-4,4)
    assert (m["pairs"], m["inversions"]) == (4, 1)
    assert (m["pairs_separated"], m["inversions_separated"]) == (2, 1)


def test_marginals_are_weighted_back_to_the_natural_distribution():
    rows = pd.concat([_rows([[0, 5, 1]], hcp=1), _rows([[0, 1, 9]], hcp=12)], ignore_index=True)
    rows["weight"] = [0.9, 0.1]
    s = chart_tables(rows, min_n=1)["summary"].loc[(1, True)]
    assert s["optimal_bid"] == pytest.approx(0.9 * 1 + 0.1 * 2)


def _png_size(path) -> tuple[int, int]:
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])


def test_cli_writes_a_one_page_a4_cheat_sheet_and_says_what_is_unfilled(tmp_path):
    out = tmp_path / "c"
    r = CliRunner().invoke(main, ["bid-chart", "--hands", "40", "--min-hands", "2", "--deals",
                                  "3", "--seed", "1", "--out", str(out), "--threads", "1",
                                  "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "40 hands classed" in r.output and "x 3 deals" in r.output
    assert "bid-chart: screened 40 hands" in r.stderr
    w, h = _png_size(out / "cheat_sheet_4p.png")
    assert (w, h) == (1240, 1753)  # A4 at 150 dpi
    pdf = (out / "cheat_sheet_4p.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and b"/Count 1" in pdf  # one page
    assert b"595.44 841.68" in pdf or b"595.4 841.7" in pdf  # A4 in points
    cells = pd.read_csv(out / "cells.csv")
    assert {"best_bid", "second_bid", "diff", "diff_ci_low", "diff_ci_high",
            "separated", "zero_diff", "zero_ci_low", "zero_ci_high"} <= set(cells.columns)
    text = (out / "report.md").read_text()
    assert "## Monotonicity" in text and "cheat_sheet_4p.pdf" in text and "paired" in text
    assert "--min-hands 2 --deals 3" in text
    r = CliRunner().invoke(main, ["bid-chart", "--min-hands", "0", "--out", str(tmp_path / "d")])
    assert r.exit_code != 0 and "--min-hands" in r.output and "Traceback" not in r.output


def test_paired_zero_value_of_the_default_report_covers_the_non_declarers():
    t = paired_zero_value(seed=3, hands=600, min_hands=10, deals_per_hand=3)
    assert set(t.index.get_level_values("position")) == {1, 2, 3}  # the declarer never bids 0
    assert list(t.columns) == ["hands", "zero_diff", "zero_diff_ci_low", "zero_diff_ci_high",
                               "zero_best_share"]
    ok = t.dropna()
    assert (ok["zero_diff_ci_low"] <= ok["zero_diff"]).all()
    assert (ok["zero_diff"] <= ok["zero_diff_ci_high"]).all()


def test_the_first_hands_of_each_cell_do_not_depend_on_the_block_size():
    rng = np.random.default_rng(0)
    keys = rng.integers(-1, 6, size=500)
    whole = first_k(keys, 4, 6, block=10**6)
    assert list(whole) == sorted(i for key in range(6) for i in np.flatnonzero(keys == key)[:4])
    for block in (1, 7, 64):
        assert list(first_k(keys, 4, 6, block=block)) == list(whole)
