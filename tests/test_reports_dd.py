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

from whist_sim.analyses import reports
from whist_sim.analyses.reports import ReportError, Tally
from whist_sim.compiled.entry.batch import play_batch
from whist_sim.core.rules import Rules
from whist_sim.interfaces.cli import main
from whist_sim.runs.dataset import load
from whist_sim.runs.dd_columns import dd_column_names
from whist_sim.runs.simulate import simulate

RULES = Rules(frisch=False)  # more thrown-in deals (RULES §3)
DEALS = 400


def _with_dd(df: pd.DataFrame, seed: int = 3) -> pd.DataFrame:
    """``df`` plus dd columns with values chosen at random around the real contracts; an unsolved
    value keeps bounds a few tricks either side of it, so that they decide some comparisons with
    the contract and leave others undecided (a few unsolved whist-min get the bounds [0, 0])."""
    rng = np.random.default_rng(seed)
    df = df.copy()
    thrown = df["thrown_in"].to_numpy()
    n = len(df)
    for s in range(4):
        c = df[f"contract_{s}"].to_numpy().astype(np.int64)
        mx = np.clip(c + rng.integers(-2, 3, n), 0, 13)
        mn = np.clip(rng.integers(-1, 3, n), 0, 13)
        lo_mx = np.maximum(mx - rng.integers(0, 3, n), 0)
        hi_mx = np.minimum(mx + rng.integers(1, 3, n), 13)
        lo_mn = np.maximum(mn - rng.integers(0, 2, n), 0)
        hi_mn = np.where((mn == 0) & (rng.random(n) < 0.2), 0, mn + rng.integers(1, 4, n))
        un_mx = rng.random(n) < 0.3
        un_mn = rng.random(n) < 0.5
        cols = {
            "dd_max": np.where(un_mx, -1, mx), "dd_max_lo": np.where(un_mx, lo_mx, mx),
            "dd_max_hi": np.where(un_mx, hi_mx, mx), "dd_min": np.where(un_mn, -1, mn),
            "dd_min_lo": np.where(un_mn, lo_mn, mn), "dd_min_hi": np.where(un_mn, hi_mn, mn),
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
            "mx_lo": d[f"dd_max_lo_{s}"].astype(int), "mx_hi": d[f"dd_max_hi_{s}"].astype(int),
            "mn_lo": d[f"dd_min_lo_{s}"].astype(int), "mn_hi": d[f"dd_min_hi_{s}"].astype(int),
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


def _decided(p: pd.DataFrame) -> dict[str, tuple[pd.Series, pd.Series, pd.Series]]:
    """Per comparison of dd_contract_range: (seats decided, seats in the row, needed values
    solved), from the per-seat values and bounds (the bounds equal the value when solved)."""
    c = p.contract
    le = (c <= p.mx_lo, c > p.mx_hi)
    ge = (c >= p.mn_hi, c < p.mn_lo)
    inside = ((p.mn_hi <= c) & (c <= p.mx_lo), (c < p.mn_lo) | (c > p.mx_hi))
    mx_ok, mn_ok = p.mx >= 0, p.mn >= 0
    out = {}
    for (yes_label, no_label), (yes, no), ok in (
        (("contract <= dd_max", "contract > dd_max"), le, mx_ok),
        (("contract >= dd_min", "contract < dd_min"), ge, mn_ok),
        (("dd_min <= contract <= dd_max", "outside [dd_min, dd_max]"), inside, mx_ok & mn_ok),
    ):
        out[yes_label] = (yes | no, yes, ok)
        out[no_label] = (yes | no, no, ok)
    return out


def test_contract_range(data, players):
    t = reports.dd_contract_range(data)
    p = players
    made = p.contract == p.tricks
    cases = _decided(p)
    assert list(t.index) == list(cases)
    assert list(t.columns[:3]) == ["base", "n", "by_bounds"]
    for label, (base, test, ok) in cases.items():
        row = t.loc[label]
        assert row["base"] == base.sum(), label
        assert row["n"] == (base & test).sum(), label
        assert row["by_bounds"] == (base & test & ~ok).sum(), label
        assert row["made"] == (base & test & made).sum(), label
        assert row["share"] == pytest.approx((base & test).sum() / base.sum())
        assert row["rate"] == pytest.approx((base & test & made).sum() / (base & test).sum())
        # the data exercises the bounds: unsolved seats decided by them, and some undecided
        assert 0 < row["by_bounds"] < row["n"], label
        assert row["base"] < len(p), label
    # the two sides of each comparison share their base and add up to it
    sides = t["n"].to_numpy().reshape(3, 2).sum(axis=1)
    assert sides.tolist() == t["base"].to_numpy()[::2].tolist()
    # without the seats counted through bounds, the counts over solved seats only
    assert t.loc["contract >= dd_min", "n"] - t.loc["contract >= dd_min", "by_bounds"] == (
        (p.mn >= 0) & (p.contract >= p.mn)).sum()
    assert t.loc["outside [dd_min, dd_max]", "n"] - t.loc["outside [dd_min, dd_max]",
                                                          "by_bounds"] == (
        (p.mn >= 0) & (p.mx >= 0) & ((p.contract < p.mn) | (p.contract > p.mx))).sum()
    by = reports.dd_contract_range(data, by=["over", "position"])
    base, test, ok = cases["contract > dd_max"]
    sel = base & test & p.over & (p.position == 0)
    assert by.loc[(True, 0, "contract > dd_max"), "n"] == sel.sum()
    assert by.loc[(True, 0, "contract > dd_max"), "by_bounds"] == (sel & ~ok).sum()
    assert by["by_bounds"].sum() == t["by_bounds"].sum()


def _hand_made(data: pd.DataFrame) -> pd.DataFrame:
    """Two played deals of ``data`` with seat 0 declaring and set contracts, tricks and dd values:
    per seat ``(contract, tricks, (dd_max, lo, hi), (dd_min, lo, hi))``, -1 = unsolved."""
    seats = (
        # deal 1
        ((3, 3, (-1, 3, 5), (-1, 4, 6)),   # <= max and < min by bounds
         (3, 2, (-1, 2, 5), (-1, 1, 3)),   # <= max undecided; >= min by bounds; range undecided
         (0, 0, (2, 2, 2), (-1, 0, 0)),    # whist-min 0 proved by its bounds
         (0, 1, (1, 1, 1), (-1, 1, 4))),   # < min by bounds (whist-min >= 1)
        # deal 2
        ((5, 5, (-1, 2, 4), (6, 6, 6)),    # > max by bounds; < min solved
         (0, 0, (0, 0, 0), (-1, 0, 2)),    # >= min undecided
         (2, 2, (4, 4, 4), (1, 1, 1)),     # all solved, inside
         (4, 3, (3, 3, 3), (-1, 0, 13))),  # > max solved; min undecided; outside by max alone
    )
    df = data[~data["thrown_in"]].iloc[:2].copy().reset_index(drop=True)
    df["declarer"] = 0
    for row, deal in enumerate(seats):
        for s, (c, tr, mx, mn) in enumerate(deal):
            df.loc[row, [f"contract_{s}", f"tricks_{s}"]] = (c, tr)
            for tag, (v, lo, hi) in (("max", mx), ("min", mn)):
                df.loc[row, [f"dd_{tag}_{s}", f"dd_{tag}_lo_{s}", f"dd_{tag}_hi_{s}"]] = (v, lo, hi)
    return df


def test_bounds_decide_comparisons_of_unsolved_seats(data):
    t = reports.dd_contract_range(_hand_made(data))
    want = {  # base, n, by_bounds, made
        "contract <= dd_max": (7, 5, 1, 4),
        "contract > dd_max": (7, 2, 1, 1),
        "contract >= dd_min": (6, 3, 2, 2),
        "contract < dd_min": (6, 3, 2, 2),
        "dd_min <= contract <= dd_max": (6, 2, 1, 2),
        "outside [dd_min, dd_max]": (6, 4, 4, 2),
    }
    got = {k: tuple(int(x) for x in t.loc[k, ["base", "n", "by_bounds", "made"]]) for k in want}
    assert got == want


def test_undecided_seat_is_left_out(data):
    """One seat whose contract lies inside the bounds of its unsolved values: no comparison."""
    df = _hand_made(data).iloc[:1].copy()
    for s in (0, 2, 3):  # the other seats: contract 5, nothing proved on either value
        df[f"contract_{s}"] = 5
        df[[f"dd_max_{s}", f"dd_max_lo_{s}", f"dd_max_hi_{s}"]] = (-1, 0, 13)
        df[[f"dd_min_{s}", f"dd_min_lo_{s}", f"dd_min_hi_{s}"]] = (-1, 0, 13)
    t = reports.dd_contract_range(df)
    # seat 1: contract 3, dd_max in [2, 5] (undecided), dd_min in [1, 3] (3 >= dd_min_hi)
    assert t["base"].tolist() == [0, 0, 1, 1, 0, 0]
    assert t["n"].tolist() == [0, 0, 1, 0, 0, 0]
    assert t["by_bounds"].tolist() == [0, 0, 1, 0, 0, 0]
    s = reports.dd_summary(df)
    assert s.loc["contract <= dd_max", "n"] == 0
    assert np.isnan(s.loc["contract <= dd_max", "value"])


def test_hand_made_summary_and_zero_bids(data):
    df = _hand_made(data)
    s = reports.dd_summary(df)
    assert s.loc["contract <= dd_max", ["value", "n"]].tolist() == [pytest.approx(5 / 7), 7]
    assert s.loc["dd_min <= contract <= dd_max", ["value", "n"]].tolist() == [
        pytest.approx(2 / 6), 6]
    assert s.loc["made | contract <= dd_max", ["value", "n"]].tolist() == [pytest.approx(4 / 5), 5]
    assert s.loc["made | contract > dd_max", ["value", "n"]].tolist() == [pytest.approx(1 / 2), 2]
    # means: the five seats with whist-max solved only
    assert s.loc["mean contract - dd_max", ["value", "n"]].tolist() == [pytest.approx(-0.8), 5]
    # zero bids of non-declarers: [0, 0] (decided 0), [1, 4] (decided >= 1), [0, 2] (undecided)
    assert s.loc["zero bids with dd_min = 0", ["value", "n"]].tolist() == [pytest.approx(0.5), 2]
    z = reports.dd_zero_bids(df)
    assert z["n"].tolist() == [1, 1, 0, 2, 2]
    assert z["zeros"].tolist() == [1, 0, 0, 1, 1]


def test_tally_refuses_crossed_or_inconsistent_bounds(data):
    df = _hand_made(data)
    df.loc[0, "dd_min_lo_1"] = 5  # above dd_min_hi_1 = 3
    with pytest.raises(ReportError, match="dd_min_lo_s > dd_min_hi_s"):
        Tally.from_frame(df)
    df = _hand_made(data)
    df.loc[1, ["dd_max_lo_2", "dd_max_hi_2"]] = (3, 3)  # solved dd_max_2 = 4 above its bounds
    with pytest.raises(ReportError, match="solved dd_max_s lies outside its bounds"):
        Tally.from_frame(df)
    df = _hand_made(data)
    df.loc[1, "dd_max_lo_0"] = -1  # a played seat without a bound
    with pytest.raises(ReportError, match="dd_max_lo_s"):
        Tally.from_frame(df)


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
    cls = np.where(p.mn >= 0, np.minimum(p.mn, 2),
                   np.where(p.mn_hi == 0, 0, np.where(p.mn_lo >= 1, 3, 4)))
    assert ((p.mn < 0) & (p.mn_hi == 0)).any()  # unsolved seats proved to have whist-min 0
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
    made = p.contract == p.tricks
    cases = _decided(p)
    solved = p[p.mx >= 0]
    assert t.loc["whist-max solves unsolved", "value"] == pytest.approx((p.mx < 0).mean())
    assert t.loc["whist-min solves unsolved", "value"] == pytest.approx((p.mn < 0).mean())
    for label in ("contract <= dd_max", "dd_min <= contract <= dd_max"):
        base, test, ok = cases[label]
        assert t.loc[label, "n"] == base.sum() > ok.sum(), label  # more than the solved seats
        assert t.loc[label, "value"] == pytest.approx((base & test).sum() / base.sum()), label
    for label, side in (("made | contract <= dd_max", "contract <= dd_max"),
                        ("made | contract > dd_max", "contract > dd_max")):
        base, test, _ = cases[side]
        assert t.loc[label, "n"] == (base & test).sum()
        assert t.loc[label, "value"] == pytest.approx((base & test & made).sum()
                                                      / (base & test).sum())
    assert t.loc["mean tricks - dd_max", "n"] == len(solved)
    assert t.loc["mean tricks - dd_max", "value"] == pytest.approx((solved.tricks - solved.mx)
                                                                  .mean())
    assert t.loc["mean contract - dd_max", "value"] == pytest.approx(
        (solved.contract - solved.mx).mean())
    assert t.loc["mean contract - dd_max", "unit"] == "tricks"
    # every seat, an unsolved one by its proved bounds: the true mean over all lies between
    low = t.loc["mean tricks - dd_max, all seats, low end"]
    high = t.loc["mean tricks - dd_max, all seats, high end"]
    assert low["n"] == high["n"] == len(p) > len(solved)
    assert low["value"] == pytest.approx((p.tricks - np.where(p.mx >= 0, p.mx, p.mx_hi)).mean())
    assert high["value"] == pytest.approx((p.tricks - np.where(p.mx >= 0, p.mx, p.mx_lo)).mean())
    assert low["value"] < high["value"]
    zeros = p[(p.position > 0) & (p.contract == 0)]
    is0, not0 = zeros.mn_hi == 0, zeros.mn_lo >= 1
    assert t.loc["zero bids with dd_min = 0", "n"] == (is0 | not0).sum() > (zeros.mn >= 0).sum()
    assert t.loc["zero bids with dd_min = 0", "value"] == pytest.approx(is0.sum()
                                                                       / (is0 | not0).sum())


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
    assert "Double dummy (unsolved solves count only where their proved bounds" in r.output
    assert "whist-max solves unsolved" in r.output
    assert (out / "tables" / "dd_zero_bids.csv").is_file()
    assert (out / "charts" / "dd_differences.png").read_bytes()[:4] == b"\x89PNG"
    md = (out / "report.md").read_text()
    assert "## Double dummy" in md and "node limit of 20,000 card plays;" in md
    assert "Double dummy" in (out / "report.html").read_text()
    # a run with whist-min's own node limit says so
    path = tmp_path / "run2"
    simulate(path, 3, 2, chunk_size=3, progress=False, dd=True, dd_node_limit=20_000,
             dd_min_node_limit=3_000)
    r = CliRunner().invoke(main, ["report", str(path), "--out", str(tmp_path / "rep2"),
                                  "--no-progress"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    md = (tmp_path / "rep2" / "report.md").read_text()
    assert "node limit of 20,000 card plays (3,000 for whist-min);" in md
