"""The report's "Double dummy" section and its tables (data made with ``simulate --dd``).

The tables are checked against counts made directly on one row per player and played deal, on a
small real dataset whose dd columns are set by the test (so every case occurs: solved and
unsolved values, contracts inside and outside [dd_min, dd_max], zero bids on both sides of
dd_min = 0). A contract is made with exactly the tricks bid (RULES §6); zero bids are counted among
non-declarers (RULES §4); thrown-in deals (RULES §3) have no play and no dd values.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from whist_sim import reports
from whist_sim.cli import main
from whist_sim.dataset import load
from whist_sim.dd_columns import dd_column_names
from whist_sim.kernels.batch import play_batch
from whist_sim.reports import ReportError, Tally
from whist_sim.rules import Rules
from whist_sim.simulate import simulate

RULES = Rules(frisch=False)  # more thrown-in deals (RULES §3)
DEALS = 400


def _with_dd(df: pd.DataFrame, seed: int = 3) -> pd.DataFrame:
    """``df`` plus dd columns with values chosen at random around the real contracts."""
    rng = np.random.default_rng(seed)
    df = df.copy()
    thrown = df["thrown_in"].to_numpy()
    n = len(df)
    for s in range(4):
        c = df[f"contract_{s}"].to_numpy().astype(np.int64)
        mx = np.clip(c + rng.integers(-2, 3, n), 0, 13)
        mn = np.clip(rng.integers(-1, 3, n), 0, 13)
        lo_mx = np.maximum(mx - rng.integers(0, 2, n), 0)
        lo_mn = rng.integers(0, 2, n)
        un_mx = rng.random(n) < 0.3
        un_mn = rng.random(n) < 0.5
        cols = {
            "dd_max": np.where(un_mx, -1, mx), "dd_max_lo": np.where(un_mx, lo_mx, mx),
            "dd_max_hi": np.where(un_mx, 13, mx), "dd_min": np.where(un_mn, -1, mn),
            "dd_min_lo": np.where(un_mn, lo_mn, mn), "dd_min_hi": np.where(un_mn, 13, mn),
        }
        for name, v in cols.items():
            df[f"{name}_{s}"] = np.where(thrown, -1, v).astype(np.int8)
    return df[[*df.columns[: -24], *dd_column_names()]]


@pytest.fixture(scope="module")
def data():
    df = pd.DataFrame(play_batch(5, 0, DEALS, RULES, ["heuristic"] * 4, ["heuristic"] * 4))
    assert df["thrown_in"].any()
    return _with_dd(df)


@pytest.fixture(scope="module")
def players(data):
    """One row per player and played deal."""
    rows = []
    for s in range(4):
        d = data[~data["thrown_in"]]
        rows.append(pd.DataFrame({
            "position": (s - d["declarer"].astype(int)) % 4,
            "over": d["over"], "contract": d[f"contract_{s}"].astype(int),
            "tricks": d[f"tricks_{s}"].astype(int), "score": d[f"score_{s}"].astype(int),
            "mx": d[f"dd_max_{s}"].astype(int), "mn": d[f"dd_min_{s}"].astype(int),
            "mn_lo": d[f"dd_min_lo_{s}"].astype(int),
        }))
    return pd.concat(rows, ignore_index=True)


def test_unsolved_counts(data, players):
    t = reports.dd_unsolved(data)
    assert list(t.index) == ["whist-max", "whist-min"]
    assert t.loc["whist-max", "n"] == len(players)
    assert t.loc["whist-max", "unsolved"] == (players.mx < 0).sum()
    assert t.loc["whist-min", "unsolved"] == (players.mn < 0).sum()
    assert t.loc["whist-min", "share"] == pytest.approx((players.mn < 0).mean())
    assert t.loc["whist-min", "ci_low"] < t.loc["whist-min", "share"] < t.loc["whist-min",
                                                                               "ci_high"]
    by = reports.dd_unsolved(data, by="position")
    want = ((players.mx < 0) & (players.position == 3)).sum()
    assert by.loc[(3, "whist-max"), "unsolved"] == want
    assert by["n"].sum() == 2 * len(players)


def test_contract_range(data, players):
    t = reports.dd_contract_range(data)
    p = players
    made = p.contract == p.tricks
    mx_ok, mn_ok = p.mx >= 0, p.mn >= 0
    cases = {
        "contract <= dd_max": (mx_ok, p.contract <= p.mx),
        "contract > dd_max": (mx_ok, p.contract > p.mx),
        "contract >= dd_min": (mn_ok, p.contract >= p.mn),
        "contract < dd_min": (mn_ok, p.contract < p.mn),
        "dd_min <= contract <= dd_max": (mx_ok & mn_ok,
                                         (p.mn <= p.contract) & (p.contract <= p.mx)),
        "outside [dd_min, dd_max]": (mx_ok & mn_ok, (p.contract < p.mn) | (p.contract > p.mx)),
    }
    assert list(t.index) == list(cases)
    for label, (base, test) in cases.items():
        row = t.loc[label]
        assert row["base"] == base.sum(), label
        assert row["n"] == (base & test).sum(), label
        assert row["made"] == (base & test & made).sum(), label
        assert row["share"] == pytest.approx((base & test).sum() / base.sum())
        assert row["rate"] == pytest.approx((base & test & made).sum() / (base & test).sum())
    # the two sides of each comparison share their base and add up to it
    sides = t["n"].to_numpy().reshape(3, 2).sum(axis=1)
    assert sides.tolist() == t["base"].to_numpy()[::2].tolist()
    by = reports.dd_contract_range(data, by=["over", "position"])
    sel = mx_ok & (p.contract > p.mx) & p.over & (p.position == 0)
    assert by.loc[(True, 0, "contract > dd_max"), "n"] == sel.sum()


def test_differences_from_whist_max(data, players):
    p = players[players.mx >= 0]
    for fn, col in ((reports.dd_tricks_vs_max, "tricks"), (reports.dd_contract_vs_max, "contract")):
        t = fn(data)
        want = (p[col] - p.mx).value_counts().sort_index()
        assert t.index.name == f"{col}_minus_dd_max"
        assert t["n"].tolist() == want.tolist() and list(t.index) == list(want.index)
        assert t["share"].sum() == pytest.approx(1.0)
    by = reports.dd_contract_vs_max(data, by="position")
    want = p[p.position == 2].pipe(lambda d: (d.contract - d.mx).value_counts())
    got = by.xs(2, level="position")
    assert got["n"].to_dict() == want.to_dict()
    assert got["share"].sum() == pytest.approx(1.0)


def test_zero_bids_against_whist_min(data, players):
    t = reports.dd_zero_bids(data)
    p = players[players.position > 0]
    cls = np.where(p.mn < 0, np.where(p.mn_lo >= 1, 3, 4), np.minimum(p.mn, 2))
    assert list(t.index) == ["0", "1", "2+", "unsolved, >= 1 by its bound",
                             "unsolved, undecided"]
    zero = p.contract == 0
    for i, label in enumerate(t.index):
        sel = cls == i
        assert t.loc[label, "n"] == sel.sum()
        assert t.loc[label, "zeros"] == (sel & zero).sum()
        assert t.loc[label, "made"] == (sel & zero & (p.tricks == 0)).sum()
        if (sel & zero).any():
            assert t.loc[label, "score_mean"] == pytest.approx(p.score[sel & zero].mean())
    assert t["zeros"].sum() == zero.sum() > 0


def test_summary(data, players):
    t = reports.dd_summary(data)
    p = players
    solved = p[p.mx >= 0]
    assert t.loc["whist-max solves unsolved", "value"] == pytest.approx((p.mx < 0).mean())
    assert t.loc["contract <= dd_max", "n"] == len(solved)
    assert t.loc["mean tricks - dd_max", "value"] == pytest.approx((solved.tricks - solved.mx)
                                                                  .mean())
    assert t.loc["mean contract - dd_max", "unit"] == "tricks"
    zeros = p[(p.position > 0) & (p.contract == 0) & (p.mn >= 0)]
    assert t.loc["zero bids with dd_min = 0", "n"] == len(zeros)
    assert t.loc["zero bids with dd_min = 0", "value"] == pytest.approx((zeros.mn == 0).mean())


def test_tables_need_dd_columns_and_known_keys(data):
    plain = data.drop(columns=dd_column_names())
    with pytest.raises(ReportError, match="no double-dummy columns.*simulate --dd"):
        reports.dd_summary(plain)
    with pytest.raises(ReportError, match="cannot group by 'trump'"):
        reports.dd_contract_range(data, by="trump")


def test_tally_adds_up_and_does_not_mix_dd_and_plain(data):
    whole = Tally.from_frame(data)
    assert whole.has_dd and not Tally.from_frame(data.drop(columns=dd_column_names())).has_dd
    parts = Tally.from_frame(data.iloc[:150]) + Tally.from_frame(data.iloc[150:])
    assert parts == whole
    pd.testing.assert_frame_equal(reports.dd_contract_range(parts),
                                  reports.dd_contract_range(data))
    with pytest.raises(ReportError, match="double-dummy counts to one without"):
        _ = whole + Tally.from_frame(data.drop(columns=dd_column_names()))


def test_report_section_only_with_dd_columns(data):
    with_dd = reports.build_report(data)
    plain = reports.build_report(data.drop(columns=dd_column_names()))
    assert [s.title for s in with_dd.sections] == [s.title for s in plain.sections] + [
        "Double dummy"]
    assert reports.render_markdown(plain) == reports.render_markdown(
        reports.build_report(data.drop(columns=dd_column_names())))
    sec = with_dd.sections[-1]
    names = [i.name for i in sec.items]
    assert names == ["dd_summary", "dd_unsolved", "dd_unsolved_by_position", "dd_contract_range",
                     "dd_contract_range_by_position", "dd_contract_vs_max", "dd_tricks_vs_max",
                     "dd_differences", "dd_zero_bids"]
    u = reports.dd_unsolved(data)
    assert (f"whist-max: {u.loc['whist-max', 'unsolved']:,} of {u.loc['whist-max', 'n']:,}"
            in sec.text)
    md = reports.render_markdown(with_dd)
    assert "## Double dummy" in md and "| contract <= dd_max |" in md
    assert "Double dummy" not in reports.render_markdown(plain)


def test_report_command_on_a_dd_dataset(tmp_path):
    """End to end: a tiny --dd run (small node limit) and `whist-sim report`."""
    path = tmp_path / "run"
    simulate(path, 6, 2, chunk_size=3, progress=False, dd=True, dd_node_limit=20_000)
    df = load(path)
    assert reports.tally_dataset(path) == Tally.from_frame(df)
    out = tmp_path / "rep"
    r = CliRunner().invoke(main, ["report", str(path), "--out", str(out), "--no-progress"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "Double dummy (unsolved solves left out of each figure)" in r.output
    assert "whist-max solves unsolved" in r.output
    assert (out / "tables" / "dd_zero_bids.csv").is_file()
    assert (out / "charts" / "dd_differences.png").read_bytes()[:4] == b"\x89PNG"
    md = (out / "report.md").read_text()
    assert "## Double dummy" in md and "node limit of 20,000 card plays" in md
    assert "Double dummy" in (out / "report.html").read_text()
