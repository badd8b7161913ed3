"""Bid charts (whist_sim.analyses.advisor.bidchart, ``whist-sim bid-chart``, scripts/bid_chart.py).

* Each hand's scenario is the deal of the compiled engine (same seed, deal index): declarer,
  trump, level, the player's hand at the start of play and the earlier contracts match
  ``play_batch`` (docs/ENGINE.md §3), the player sits at bidding position ``hand % P``.
* Legal bids only (RULES §4: the declarer from his level, the hooked last bidder not the number
  that makes 13); the optimal bid is the argmax of the expected score; zero-best is consistent.
* Results depend on the seed only: not on chunk size or threads (a cluster: test_bid_chart_cells).
* The NT panel: every hand is also evaluated at no-trump, on the same scenario.
* Reports: tables, heat maps, Markdown; CLI and script end to end; bad options.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from whist_sim.analyses.advisor.bidchart import (
    ChartError,
    bid_chart,
    chart_tables,
    write_chart_report,
)
from whist_sim.compiled.entry.batch import play_batch
from whist_sim.core.rules import Rules
from whist_sim.interfaces.cli import main

ROOT = Path(__file__).resolve().parent.parent
SEED = 31
H = ("heuristic",) * 4


@pytest.fixture(scope="module")
def chart() -> pd.DataFrame:
    return bid_chart(hands=24, deals_per_hand=12, seed=SEED, threads=1, chunk_size=7,
                     progress=False)


def test_scenarios_are_the_engines_deals(chart):
    rules = Rules()
    # every hand at NT (the NT panel), and in its deal's strain unless the deal was
    # declared at NT: then its NT row is the deal itself
    suit, nt = chart[~chart["nt_panel"]], chart[chart["nt_panel"]]
    assert (nt["trump"] == 4).all() and list(nt["hand_index"]) == list(range(24))
    assert (suit["trump"] < 4).all() and len(chart) == 24 + len(suit)
    in_suit = suit.set_index("hand_index")
    for _, r in nt.iterrows():
        d = int(r["deal"])
        assert d // 64 == r["hand_index"]
        cols = play_batch(SEED, d, 1, rules, H, H)
        assert not cols["thrown_in"][0]
        for a in range(d - d % 64, d):  # earlier attempts for this hand were thrown in
            assert play_batch(SEED, a, 1, rules, H, H)["thrown_in"][0]
        decl = int(cols["declarer"][0])
        assert (r["declarer"], r["level"]) == (decl, cols["level"][0])
        if cols["trump"][0] == 4:
            assert r["hand_index"] not in in_suit.index
        else:
            s = in_suit.loc[r["hand_index"]]
            assert s["trump"] == cols["trump"][0]
            for col in ("deal", "declarer", "level", "seat", "position", "hand", "earlier_sum"):
                assert s[col] == r[col]
        assert r["position"] == r["hand_index"] % 4
        assert r["seat"] == (decl + r["position"]) % 4
        assert r["hand"] == cols[f"hand_{int(r['seat'])}"][0]
        earlier = [int(cols[f"contract_{(decl + k) % 4}"][0]) for k in range(int(r["position"]))]
        assert r["earlier_sum"] == sum(earlier)
    assert len(suit) < 24  # the seed has deals declared at NT (the heuristic bids it)


def test_legal_bids_and_optimum(chart):
    ev = chart[[f"ev_{b}" for b in range(14)]].to_numpy()
    for i, r in chart.reset_index(drop=True).iterrows():
        legal = ~np.isnan(ev[i])
        if r["position"] == 0:  # RULES §4: the declarer bids at least his level
            assert list(np.flatnonzero(legal)) == list(range(int(r["level"]), 14))
        elif r["position"] == 3:  # RULES §4: the hook
            assert list(np.flatnonzero(~legal)) == [13 - int(r["earlier_sum"])]
        else:
            assert legal.all()
        assert r["best_bid"] == int(np.nanargmax(ev[i]))
        assert r["best_ev"] == np.nanmax(ev[i])
        zero = legal[0] and ev[i, 0] > np.nanmax(ev[i, 1:])
        assert r["zero_best"] == zero and r["zero_legal"] == legal[0]
        assert r["deals"] == 12 and r["tries"] == 12
    assert (chart["best_p_make"].between(0, 1)).all()
    assert chart["hcp"].between(0, 37).all()


def test_results_do_not_depend_on_chunks_or_threads(chart):
    other = bid_chart(hands=24, deals_per_hand=12, seed=SEED, threads=2, chunk_size=24,
                      progress=False)
    pd.testing.assert_frame_equal(chart, other)
    third = bid_chart(hands=24, deals_per_hand=12, seed=SEED + 1, threads=1, progress=False)
    assert not chart["best_ev"].equals(third["best_ev"])


# a Dask cluster gives the same chart: tests/test_bid_chart_cells.py (two workers)


def test_consistent_sampling_rejects_deals():
    df = bid_chart(hands=8, deals_per_hand=6, seed=SEED, threads=1, consistent=True,
                   progress=False)
    later = df[df["position"] > 0]
    assert (later["tries"] >= 6).all() and (later["tries"] > 6).any()
    assert (df[df["position"] == 0]["tries"] == 6).all()  # nothing to be consistent with


def test_tables_and_report(chart, tmp_path):
    t = chart_tables(chart, min_n=1)
    nt = ["NT"] if (chart["trump"] == 4).any() else []
    assert list(t["optimal_bid_pos0"].columns) == ["0", "1", "2", "3", "4", "5", "6", "7+", *nt]
    total = sum(int(t[f"count_pos{p}"].to_numpy().sum()) for p in range(4))
    assert total == len(chart)
    assert set(t["summary"].index.get_level_values("position")) == {0, 1, 2, 3}
    assert "zero_best_pos0" not in t and "zero_best_pos3" in t
    files = write_chart_report(chart, tmp_path / "out", command="test", parquet=True)
    names = {f.name for f in files}
    assert names == {"report.md", "optimal_bid.png", "expected_tricks.png", "zero_bid.png",
                     "over_under.png", "hands.parquet", "cells.csv", "cheat_sheet_4p.png",
                     "cheat_sheet_4p.pdf"}
    text = (tmp_path / "out" / "report.md").read_text()
    assert "# Bid charts" in text and "charts/zero_bid.png" in text
    assert "fourth bidder (hooked)" in text  # positions by name
    back = pd.read_parquet(tmp_path / "out" / "hands.parquet")
    assert len(back) == len(chart)


def test_zero_share_counts_only_hands_that_may_bid_zero():
    """RULES §4: a hooked bidder whose predecessors sum to 13 may not bid zero; such hands are
    not counted in the zero-bid chart."""
    rows = pd.DataFrame({
        "position": [3, 3, 3, 1], "hcp": [1, 2, 0, 1], "trump_len": [1, 1, 1, 1],
        "best_bid": [0, 2, 1, 0], "best_e_tricks": [0.1, 1.5, 0.9, 0.2],
        "best_ev": [50.0, 12.0, -10.0, 50.0], "over": [False, True, False, False],
        "zero_legal": [True, True, False, True], "zero_best": [True, False, False, True],
    })
    t = chart_tables(rows, min_n=1)
    assert t["zero_best_pos3"].loc["0-2", "1"] == 0.5
    assert t["optimal_bid_pos3"].loc["0-2", "1"] == 1.0
    assert t["count_pos3"].loc["0-2", "1"] == 3
    assert t["zero_best_pos1"].loc["0-2", "1"] == 1.0
    assert np.isnan(t["zero_best_pos2"].to_numpy(float)).all()


def test_bad_options():
    with pytest.raises(ChartError, match="hands must be a whole number"):
        bid_chart(hands=0, progress=False)
    with pytest.raises(ChartError, match="bid charts use"):
        bid_chart(hands=2, bid="clever", progress=False)
    with pytest.raises(ChartError, match="unknown play policy"):
        bid_chart(hands=2, play="nope", progress=False)
    with pytest.raises(ChartError, match="local:N"):
        bid_chart(hands=2, cluster="remote", progress=False)


def test_cli_end_to_end(tmp_path):
    out = tmp_path / "chart"
    r = CliRunner().invoke(main, ["bid-chart", "--hands", "8", "--deals-per-hand", "4",
                                  "--seed", "2", "--out", str(out), "--threads", "1",
                                  "--no-progress", "--zero-over", "30"])
    assert r.exit_code == 0, r.output
    # every hand at NT, and in its suit unless its deal was declared at NT
    m = re.search(r"8 hands classed, (\d+) evaluated x 4 deals", r.output)
    assert m and 8 < int(m.group(1)) <= 16
    assert (out / "report.md").is_file() and (out / "charts" / "optimal_bid.png").is_file()
    assert "--zero-over 30" in (out / "report.md").read_text()
    r = CliRunner().invoke(main, ["bid-chart", "--hands", "2", "--out", str(out),
                                  "--scheduler", "tcp://x:1", "--cluster", "local:1"])
    assert r.exit_code != 0 and "not both" in r.output and "Traceback" not in r.output


def test_script_writes_markdown_and_pngs_only(tmp_path):
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bid_chart.py"), "--data", "unused", "--out",
         str(tmp_path), "--hands", "8", "--deals-per-hand", "3", "--threads", "1",
         "--no-progress"],
        capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stderr
    files = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    charts = ["charts/expected_tricks.png", "charts/optimal_bid.png", "charts/over_under.png",
              "charts/zero_bid.png"]
    assert files == sorted(
        [f"bid_chart/{f}" for f in (*charts, "cells.csv", "check.csv", "cheat_sheet_4p.pdf",
                                    "cheat_sheet_4p.png", "report.md")]
        + [f"bid_chart/three_players/{f}" for f in (*charts, "cells.csv", "check.csv",
                                                    "cheat_sheet_3p.pdf", "cheat_sheet_3p.png",
                                                    "report.md")])
    assert "python scripts/bid_chart.py" in (tmp_path / "bid_chart" / "report.md").read_text()
    assert "Cells not filled" in (tmp_path / "bid_chart" / "report.md").read_text()
    assert "cells with probability" in r.stderr


def test_a_searching_strategy_bids_in_the_chart():
    """Every bidding strategy works in bid-chart, montecarlo included."""
    df = bid_chart(hands=3, deals_per_hand=2, seed=2, bid="montecarlo:n=1", threads=1,
                   progress=False)
    # three hands, each in its strain and at NT (one row when its deal is in NT)
    assert set(df["hand_index"]) == {0, 1, 2}
    for _, g in df.groupby("hand_index"):
        assert g["nt_panel"].sum() == 1 and (~g["nt_panel"]).sum() <= 1
