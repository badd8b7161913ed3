"""A bid chart's cell is advice for every hand it covers: its bid is legal for each of them.

A class (position, HCP band, trump length) whose best bid some of its hands may not bid (RULES
§4: below the auction's level for the declarer, the forbidden number for the hooked last bidder)
is split into the hands that may bid it and those that may not, again until no part's bid is
illegal for one of its hands; every cell says how often its bid is its hands' own best bid (its
fit). Constructed hands, no simulation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from whist_sim.analyses.advisor.bidchart import chart_tables
from whist_sim.analyses.advisor.chart_cells import (
    auction_text,
    cell_groups,
    cell_stats,
    parse_bids,
)
from whist_sim.analyses.advisor.chart_strata import hand_classes

NAN = np.nan


def _hands(evs: list[list[float]], position: int, hcp: int = 12, tl: int = 4) -> pd.DataFrame:
    """Hands of one class: their expected scores by bid (NaN: illegal for that hand)."""
    ev = np.asarray(evs, dtype=float)
    n = len(ev)
    cols: dict[str, object] = {"position": [position] * n, "hcp": [hcp] * n,
                               "trump_len": [tl] * n}
    for b in range(14):
        col = ev[:, b] if b < ev.shape[1] else np.full(n, NAN)
        cols[f"ev_{b}"] = col
        cols[f"e_tricks_{b}"] = np.where(np.isnan(col), NAN, b)
        cols[f"p_make_{b}"] = np.where(np.isnan(col), NAN, 0.5)
    best = np.nanargmax(ev, axis=1)
    cols.update({"best_bid": best, "best_e_tricks": best.astype(float),
                 "best_ev": np.nanmax(ev, axis=1), "over": [True] * n,
                 "zero_legal": ~np.isnan(ev[:, 0]),
                 "zero_best": np.nan_to_num(ev[:, 0], nan=-1e9) >= np.nanmax(ev[:, 1:], axis=1)})
    return pd.DataFrame(cols)


# the declarer's class: bids 0..7; an auction at 6 leaves 6 and 7, at 7 only 7
LOW = [NAN, NAN, NAN, NAN, NAN, NAN, 30.0, 20.0]
HIGH = [NAN, NAN, NAN, NAN, NAN, NAN, NAN, 25.0]


def test_no_cells_bid_is_illegal_for_a_hand_it_covers():
    df = _hands([LOW] * 6 + [HIGH] * 4, position=0)
    c = hand_classes(df)
    ev = c[[f"ev_{b}" for b in range(14)]].to_numpy(float)
    cells = cell_stats(c, 13, 4)
    assert len(cells) == 2  # the class is split at its best bid, 6
    for key, rows in cell_groups(c, 13):
        best = int(cells[(cells["may"] == " ".join(map(str, sorted(key["may"]))))
                         & (cells["may_not"] == " ".join(map(str, sorted(key["may_not"]))))
                         ]["best_bid"].iloc[0])
        assert not np.isnan(ev[rows, best]).any()
    low, high = (cells.set_index("auction").loc[t] for t in ("auction level up to 6",
                                                            "auction level 7+"))
    assert (low["best_bid"], low["hands"], high["best_bid"], high["hands"]) == (6, 6, 7, 4)
    assert low["main"] and not high["main"]  # the grids show the larger part
    assert low["share"] == pytest.approx(0.6) and low["fit"] == 1.0


def test_a_class_whose_bid_every_hand_may_bid_is_one_cell():
    df = _hands([LOW] * 6, position=0)
    cells = cell_stats(hand_classes(df), 13, 4)
    assert len(cells) == 1 and cells.iloc[0]["auction"] == "" and cells.iloc[0]["main"]
    assert parse_bids(cells.iloc[0]["may"]) == frozenset()


def test_the_hooked_bidders_class_is_split_by_the_forbidden_number():
    ok = [10.0, 5.0, 20.0, 8.0]
    hooked_on_2 = [10.0, 5.0, NAN, 8.0]
    df = _hands([ok] * 5 + [hooked_on_2] * 3, position=3)
    cells = cell_stats(hand_classes(df), 13, 4).set_index("auction")
    assert cells.loc["not hooked on 2", "best_bid"] == 2
    assert cells.loc["hooked on 2", "best_bid"] == 0


def test_the_fit_is_the_share_of_hands_whose_own_best_is_the_cells_bid():
    a = [0.0, 10.0, 14.0]  # this hand's own best is 2
    b = [0.0, 10.0, 4.0]  # this one's is 1
    cells = cell_stats(hand_classes(_hands([a, a, a, b], position=1)), 13, 4)
    assert cells.iloc[0]["best_bid"] == 2 and cells.iloc[0]["fit"] == pytest.approx(0.75)


def test_a_cells_cost_is_what_its_bid_loses_against_each_hands_own_best():
    a = [0.0, 10.0, 14.0]  # own best 2: the cell's bid costs it nothing
    b = [0.0, 10.0, 9.0]  # own best 1, one point above the cell's bid: near
    c = [0.0, 10.0, 4.0]  # own best 1, six points above: not near
    cells = cell_stats(hand_classes(_hands([a, a, b, c], position=1)), 13, 4)
    row = cells.iloc[0]
    assert row["best_bid"] == 2 and row["fit"] == pytest.approx(0.5)
    assert row["near_fit"] == pytest.approx(0.75)  # within 2 points per deal
    assert row["cost"] == pytest.approx((0 + 0 + 1 + 6) / 4)


def test_the_grids_show_a_split_class_by_its_main_cell():
    df = _hands([LOW] * 6 + [HIGH] * 4, position=0)
    t = chart_tables(df, min_n=1)
    assert t["best_bid_pos0"].loc["11-12", "4"] == 6


def test_a_split_is_said_in_the_words_of_the_rules():
    assert auction_text(0, 4, frozenset({8}), frozenset({6})) == "auction level 7-8"
    assert auction_text(0, 4, frozenset(), frozenset({6, 7})) == "auction level 8+"
    assert auction_text(3, 4, frozenset(), frozenset({5})) == "hooked on 5"
    assert auction_text(3, 4, frozenset({5, 6}), frozenset()) == "not hooked on 5 or 6"
    assert auction_text(1, 4, frozenset(), frozenset()) == ""
