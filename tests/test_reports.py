"""Report tables on a small synthetic dataset whose answers are worked out by hand.

The dataset (result schema of whist_sim.runs.dataset, 4 players, 13 tricks) has five deals; scores
come
from whist_sim.core.scoring (RULES §6). Positions: 0 = declarer .. 3 = hooked last bidder (RULES
§4).

    deal declarer trump level frisch contracts(by seat) tricks(by seat) scores          sum
    D1   0        S     5     0      5 0 3 4            5 0 4 4         35  50 -10  26  12 under
    D2   1        H     6     1      2 6 0 7            3 6 1 3         -10 46 -50 -40  15 over
    D3   2        NT    7     0      1 0 7 6            1 0 7 5         11  25  59 -10  14 over
    D4   thrown in after 3 Frisches
    D5   3        C     5     2      0 3 0 5            3 4 0 6         -30 -10 50 -10   8 under
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_sim.analyses import reports as R
from whist_sim.core.cards import parse_hand
from whist_sim.core.rules import Rules
from whist_sim.core.scoring import score
from whist_sim.core.stats import wilson_interval

P, N = 4, 13
SUIT_HANDS = [np.uint64(0x1FFF << (13 * s)) for s in range(4)]  # seat s holds suit s: 10 HCP


def deal_row(deal, declarer, trump, level, frisch, contracts, tricks, hands=None):
    over = sum(contracts) > N
    row = dict(deal=deal, dealer=deal % P, declarer=declarer, trump=trump, level=level,
               frisch=frisch, thrown_in=False, n_calls=4 * frisch + 4, removed_card=-1)
    for s in range(P):
        row[f"hand_{s}"] = (hands or SUIT_HANDS)[s]
        row[f"contract_{s}"] = contracts[s]
        row[f"tricks_{s}"] = tricks[s]
        row[f"score_{s}"] = score(contracts[s], tricks[s], over)
    row.update(bid_sum=sum(contracts), over=over)
    return row


def thrown_row(deal, frisch=3):
    row = dict(deal=deal, dealer=deal % P, declarer=-1, trump=-1, level=0, frisch=frisch,
               thrown_in=True, n_calls=16, removed_card=-1)
    for s in range(P):
        row.update({f"hand_{s}": SUIT_HANDS[s], f"contract_{s}": -1, f"tricks_{s}": -1,
                    f"score_{s}": 0})
    row.update(bid_sum=-1, over=False)
    return row


DTYPES = {"deal": "int64", "dealer": "int8", "declarer": "int8", "trump": "int8", "level": "int8",
          "frisch": "int8", "thrown_in": "bool", "n_calls": "int16", "removed_card": "int8",
          "bid_sum": "int8", "over": "bool"}


def frame(rows, manifest=None):
    df = pd.DataFrame(rows)
    types = dict(DTYPES)
    for s in range(P):
        types.update({f"hand_{s}": "uint64", f"contract_{s}": "int8", f"tricks_{s}": "int8",
                      f"score_{s}": "int16"})
    df = df.astype(types)
    if manifest is not None:
        df.attrs["manifest"] = manifest
    return df


ROWS = [
    deal_row(0, 0, 3, 5, 0, [5, 0, 3, 4], [5, 0, 4, 4]),
    deal_row(1, 1, 2, 6, 1, [2, 6, 0, 7], [3, 6, 1, 3]),
    deal_row(2, 2, 4, 7, 0, [1, 0, 7, 6], [1, 0, 7, 5]),
    thrown_row(3),
    deal_row(4, 3, 0, 5, 2, [0, 3, 0, 5], [3, 4, 0, 6]),
]
MANIFEST = {"rules": Rules().to_dict(), "bid": ["heuristic", "random"] * 2,
            "play": ["heuristic", "random"] * 2, "seed": 1, "deals": 5}


@pytest.fixture
def df():
    return frame(ROWS, MANIFEST)


def test_synthetic_scores_as_in_the_docstring(df):
    # guards the hand-worked answers below: RULES §6 scores of the five deals
    got = df[[f"score_{s}" for s in range(P)]].to_numpy().tolist()
    assert got == [[35, 50, -10, 26], [-10, 46, -50, -40], [11, 25, 59, -10], [0, 0, 0, 0],
                   [-30, -10, 50, -10]]


def rates(table):
    return {k: (int(r["n"]), int(r["made"])) for k, r in table.iterrows()}


# --------------------------------------------------------------------------- contract success


def test_contract_success_by_contract(df):
    t = R.contract_success(df, by="contract")
    assert list(t.columns) == ["n", "made", "rate", "ci_low", "ci_high"]
    assert t.index.name == "contract"
    assert rates(t) == {0: (5, 3), 1: (1, 1), 2: (1, 0), 3: (2, 0), 4: (1, 1), 5: (2, 1),
                        6: (2, 1), 7: (2, 1)}
    assert t.loc[0, "rate"] == pytest.approx(0.6)
    lo, hi = wilson_interval(3, 5)
    assert (t.loc[0, "ci_low"], t.loc[0, "ci_high"]) == pytest.approx((lo, hi))


def test_contract_success_by_position_rules_4(df):
    # RULES §4: the declarer bids first (position 0), the hooked bidder last (position 3)
    t = R.contract_success(df, by="position")
    assert rates(t) == {0: (4, 3), 1: (4, 1), 2: (4, 1), 3: (4, 3)}


def test_contract_success_by_trump_over_role(df):
    t = R.contract_success(df, by="trump")
    assert list(t.index.astype(str)) == ["C", "H", "S", "NT"]  # no diamond deal; strain order
    assert t.loc["NT", "made"] == 3 and t.loc["C", "made"] == 1 and t.loc["S", "n"] == 4
    o = R.contract_success(df, by="over")
    assert rates(o) == {False: (8, 4), True: (8, 4)}
    r = R.contract_success(df, by="role")
    assert rates(r) == {"declarer": (4, 3), "other": (12, 5)}
    both = R.contract_success(df, by=["over", "position"])
    assert both.loc[(False, 3), "made"] == 2 and both.loc[(True, 0), "made"] == 2


def test_contract_success_rejects_unknown_key(df):
    with pytest.raises(R.ReportError, match="cannot group by 'suit'"):
        R.contract_success(df, by="suit")


def test_score_summary_by_position(df):
    t = R.score_summary(df, by="position")
    assert t["mean"].tolist() == pytest.approx([32.5, -10.0, -12.25, 22.75])
    assert t.loc[0, "sd"] == pytest.approx(math.sqrt(899))
    assert (t["ci_low"] < t["mean"]).all() and (t["ci_high"] > t["mean"]).all()
    seats = R.score_summary(df, by="seat")
    assert seats.loc[0, "mean"] == pytest.approx((35 - 10 + 11 - 30) / 4)
    assert seats["n"].tolist() == [4, 4, 4, 4]  # thrown-in deal not counted


def test_score_distribution_by_contract(df):
    t = R.score_distribution(df, by="contract")
    z = t.loc[0]  # zero bids scored 50, -50, 25, -30, 50
    assert (z["n"], z["min"], z["max"], z["median"], z["p25"]) == (5, -50, 50, 25, -30)
    assert z["mean"] == pytest.approx(9.0)


# --------------------------------------------------------------------------- over / under


def test_over_under(df):
    t = R.over_under(df)
    assert t["n"].tolist() == [2, 2] and t["share"].tolist() == [0.5, 0.5]
    assert t.loc[False, "bid_sum_mean"] == 10 and t.loc[True, "bid_sum_mean"] == 14.5
    assert t["missed_mean"].tolist() == [2.0, 2.0]


def test_bid_sum_distribution_rules_4(df):
    t = R.bid_sum_distribution(df)
    assert t["n"].to_dict() == {8: 1, 12: 1, 14: 1, 15: 1}
    assert t["over"].tolist() == [False, False, True, True]
    assert N not in t.index  # RULES §4: the sum is never the number of tricks


def test_misses_per_deal(df):
    t = R.misses_per_deal(df)
    assert t.loc[(False, 1), "n"] == 1 and t.loc[(False, 3), "n"] == 1
    assert t.loc[(True, 1), "n"] == 1 and t.loc[(True, 3), "n"] == 1
    assert t.loc[(True, 0), "n"] == 0
    assert t.xs(False, level="over")["share"].sum() == pytest.approx(1.0)


def test_hooked_cost(df):
    t = R.hooked_cost(df)
    a = t.loc["all"]
    assert (a["n_last"], a["n_other"]) == (4, 8)
    assert a["mean_last"] == pytest.approx(22.75) and a["mean_other"] == pytest.approx(-11.125)
    assert a["rate_last"] == 0.75 and a["rate_other"] == 0.25
    assert a["cost"] == pytest.approx(-33.875)
    assert t.loc["under", "cost"] == pytest.approx(0.0 - 38.0)
    assert t.loc["over", "cost"] == pytest.approx(-22.25 - 7.5)
    assert a["cost_ci_low"] < a["cost"] < a["cost_ci_high"]


# --------------------------------------------------------------------------- zero bids


def test_zero_bids_rules_4_and_6(df):
    t = R.zero_bids(df, by="position")
    assert 0 not in t.index  # the declarer cannot bid zero (RULES §4): not counted
    assert {k: (r["n"], r["zeros"]) for k, r in t.iterrows()} == {1: (4, 3), 2: (4, 0), 3: (4, 2)}
    s = R.zero_success(df, by="over")
    assert rates(s) == {False: (3, 2), True: (2, 1)}
    assert s.loc[False, "score_mean"] == pytest.approx(70 / 3)  # +50, -30, +50 (RULES §6)
    assert s.loc[True, "score_mean"] == pytest.approx(-12.5)  # -50, +25


def test_failed_zero_outcomes_rules_6(df):
    t = R.failed_zero_outcomes(df)
    assert list(t.index) == ["1", "2", "3+"]
    assert t["n"].tolist() == [1, 0, 1]
    assert t.loc["1", "score_mean"] == -50 and t.loc["3+", "score_mean"] == -30
    assert math.isnan(t.loc["2", "score_mean"])


def test_hcp_of_hands():
    hands = [parse_hand("AKQJ.AKQJ.AKQJ.A"), parse_hand("T98765432.-.-.T987"),
             parse_hand("AQ2.KJ3.5432.T98"), 0x1FFF]
    assert R.hcp(np.array(hands, dtype=np.uint64)).tolist() == [34, 0, 10, 10]


def test_zero_value_by_hcp(df):
    rows = [dict(r) for r in ROWS]
    rows[0]["hand_1"] = np.uint64(parse_hand("T98765432.-.-.T987"))  # D1 seat 1 (zero, +50): 0 HCP
    t = R.zero_value_by_hcp(frame(rows), bands=(0, 10, 11))
    assert list(t.index) == ["0-9", "10", "11+"]
    assert (t.loc["0-9", "n_zero"], t.loc["0-9", "mean_zero"]) == (1, 50.0)
    assert t.loc["0-9", "n_nonzero"] == 0
    # the other four zeros (-50, 25, -30, 50) and seven non-zero non-declarer bids hold 10 HCP
    assert (t.loc["10", "n_zero"], t.loc["10", "mean_zero"]) == (4, pytest.approx(-1.25))
    assert (t.loc["10", "n_nonzero"], t.loc["10", "mean_nonzero"]) == (7, pytest.approx(-43 / 7))
    assert t.loc["10", "diff"] == pytest.approx(-1.25 + 43 / 7)
    assert t.loc["11+", "n_zero"] == 0 and math.isnan(t.loc["11+", "mean_zero"])
    with pytest.raises(R.ReportError, match="bands"):
        R.zero_value_by_hcp(df, bands=(1, 5))


# --------------------------------------------------------------------------- auction and Frisch


def test_strain_and_level_distribution(df):
    s = R.strain_distribution(df)
    assert s["n"].tolist() == [1, 0, 1, 1, 1] and s.loc["NT", "share"] == 0.25
    lv = R.level_distribution(df)
    assert lv["n"].to_dict() == {5: 2, 6: 1, 7: 1}


def test_frisch_distribution_rules_3(df):
    t = R.frisch_distribution(df)
    assert t["n"].tolist() == [2, 1, 1, 1]
    assert t["share"].tolist() == pytest.approx([0.4, 0.2, 0.2, 0.2])
    assert t["thrown_in"].tolist() == [0, 0, 0, 1]  # RULES §3: thrown in after the third Frisch
    assert t.loc[3, "thrown_in_share"] == pytest.approx(0.2)


def test_frisch_effect(df):
    t = R.frisch_effect(df)
    assert t["deals"].tolist() == [2, 1, 1, 1] and t["played"].tolist() == [2, 1, 1, 0]
    assert t["level_mean"].iloc[:3].tolist() == [6.0, 6.0, 5.0]
    assert t["declarer_rate"].iloc[:3].tolist() == [1.0, 1.0, 0.0]
    assert t["player_rate"].iloc[:3].tolist() == [0.75, 0.25, 0.25]
    assert t["over_share"].iloc[:3].tolist() == [0.5, 1.0, 0.0]
    assert math.isnan(t.loc[3, "level_mean"]) and math.isnan(t.loc[3, "declarer_rate"])


# --------------------------------------------------------------------------- calibration


def test_contract_vs_tricks(df):
    t = R.contract_vs_tricks(df)
    assert list(t.columns) == list(range(N + 1))
    assert t.to_numpy().sum() == 16
    assert t.loc[0, 0] == 3 and t.loc[0, 1] == 1 and t.loc[0, 3] == 1 and t.loc[7, 3] == 1
    made = sum(t.loc[c, c] for c in t.index)
    assert made == 8
    norm = R.contract_vs_tricks(df, normalize=True)
    assert norm.sum(axis=1).tolist() == pytest.approx([1.0] * len(norm))


def test_calibration_error_by_policy(df):
    t = R.calibration_error(df, by="policy")
    assert t.loc["heuristic", "mae"] == pytest.approx(6 / 8)
    assert t.loc["random", "mae"] == pytest.approx(7 / 8)
    all_ = R.calibration_error(df, by="role")
    assert (all_["n"] * all_["mae"]).sum() == pytest.approx(13)
    assert (all_["n"] * all_["bias"]).sum() == pytest.approx(3)


def test_policy_labels_without_manifest(df):
    plain = frame(ROWS)  # no manifest: labels unknown, players and tricks from the data
    t = R.Tally.from_frame(plain)
    assert (t.players, t.n_tricks, t.policies) == (4, 13, ("unknown",) * 4)
    mixed = dict(MANIFEST, play=["random"] * 4)
    assert R.Tally.from_frame(plain, mixed).policies[0] == "heuristic/random"


# --------------------------------------------------------------------------- headline, tallies


def test_summary(df):
    t = R.summary(df)
    assert t.loc["deals", "value"] == 5
    assert t.loc["thrown-in deals", "value"] == pytest.approx(0.2)
    assert t.loc["declarer makes contract", "value"] == 0.75
    assert t.loc["zero bids made", "value"] == pytest.approx(0.6)
    assert t.loc["cost of being hooked (points/deal)", "value"] == pytest.approx(-33.875)


def test_tables_accept_a_tally_and_give_the_same_answer(df):
    t = R.Tally.from_frame(df)
    pd.testing.assert_frame_equal(R.contract_success(t, "position"),
                                  R.contract_success(df, "position"))
    assert t.n_deals == 5 and t.n_played == 4


def test_missing_columns_are_named(df):
    with pytest.raises(R.ReportError, match="score_2"):
        R.contract_success(df.drop(columns=["score_2"]))
    with pytest.raises(R.ReportError, match="contract_0"):
        R.Tally.from_frame(df[["deal", "over"]])
    with pytest.raises(R.ReportError, match="DataFrame"):
        R.contract_success([1, 2, 3])


def test_tallies_of_different_runs_do_not_add(df):
    a = R.Tally.from_frame(df)
    b = R.Tally.from_frame(df, dict(MANIFEST, bid=["random"] * 4, play=["random"] * 4))
    with pytest.raises(R.ReportError, match="different policies"):
        a + b


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, len(ROWS)), min_size=1, max_size=4))
def test_tally_is_additive_over_any_chunking(cuts):
    # the streamed report sums chunk tallies: any split of the deals gives the same counts
    many = ROWS * 3
    df = frame(many, MANIFEST)
    edges = sorted({0, len(many), *(c * 3 for c in cuts)})
    parts = [R.Tally.from_frame(df.iloc[a:b]) for a, b in zip(edges, edges[1:], strict=False)]
    total = R.Tally.empty(P, N, R.Tally.from_frame(df).policies)
    for p in parts:
        total = total + p
    assert total == R.Tally.from_frame(df)
    pd.testing.assert_frame_equal(R.hooked_cost(total), R.hooked_cost(df))


def test_three_players_no_low_deck():
    # RULES §8: 12 tricks with the no_low deck; positions run 0..2 and 2 is hooked
    rules = Rules(players=3, three_player_deck="no_low")
    hands = [np.uint64(parse_hand("AKQJT9876.KQJ.-.-")), np.uint64(parse_hand("-.AT98.AKQJ.KQJT")),
             np.uint64(parse_hand("-.76.T9876.A9876"))]
    row = dict(deal=0, dealer=0, declarer=1, trump=3, level=5, frisch=0, thrown_in=False,
               n_calls=3, removed_card=-1, bid_sum=11, over=False)
    contracts, tricks = [4, 5, 2], [5, 5, 2]
    for s in range(3):
        row.update({f"hand_{s}": hands[s], f"contract_{s}": contracts[s], f"tricks_{s}": tricks[s],
                    f"score_{s}": score(contracts[s], tricks[s], False, rules)})
    df = pd.DataFrame([row])
    df.attrs["manifest"] = {"rules": rules.to_dict(), "bid": ["heuristic"] * 3,
                            "play": ["heuristic"] * 3}
    t = R.Tally.from_frame(df)
    assert (t.players, t.n_tricks) == (3, 12)
    pos = R.contract_success(df, by="position")
    assert rates(pos) == {0: (1, 1), 1: (1, 1), 2: (1, 0)}  # seat 0 is last after declarer 1
    assert R.hooked_cost(df).loc["all", "n_other"] == 1
    assert list(R.contract_vs_tricks(df).columns) == list(range(13))


def test_play_headline_by_role_as_worked_out(df):
    # declarers make D1, D2, D3 (not D5); zero bidders: D1 s1, D3 s1, D5 s2 made, D2 s2 and
    # D5 s0 failed; others above zero: D1 s3 and D3 s0 made of seven
    h = R.play_headline(df)
    v = h["value"]
    assert v["declarer makes contract"] == pytest.approx(3 / 4)
    assert v["zero bidders make contract"] == pytest.approx(3 / 5)
    assert v["others (contract above 0) make contract"] == pytest.approx(2 / 7)
    assert v["contracts made in under deals"] == pytest.approx(4 / 8)
    assert v["contracts made in over deals"] == pytest.approx(4 / 8)
    assert v["any player makes contract"] == pytest.approx(8 / 16)
    assert v["mean score, declarer (points/deal)"] == pytest.approx((35 + 46 + 59 - 10) / 4)
    assert v["over deals (of played; set by the bids)"] == pytest.approx(2 / 4)
    assert v["zero bids (of non-declarers; set by the bids)"] == pytest.approx(5 / 12)
    assert h.loc["zero bidders make contract", "n"] == 5
    assert set(h["unit"]) == {"share", "points"}


def test_compare_summaries_sets_datasets_side_by_side(df):
    fewer = frame(ROWS[:3], MANIFEST)  # D1..D3
    c = R.compare_summaries([("heuristic", df), ("expert", fewer)])
    row = c.loc["declarer makes contract"]
    assert row["heuristic"] == pytest.approx(3 / 4) and row["expert"] == pytest.approx(1.0)
    assert row["change"] == pytest.approx(1 / 4)
    assert row["change_ci_low"] < row["change"] < row["change_ci_high"]
    same = R.compare_summaries([("a", df), ("b", df)])
    assert (same["change"] == 0).all()
    md = R.markdown_table(c)
    assert "| declarer makes contract | 4 | share | 75.0 % (" in md
    with pytest.raises(R.ReportError, match="at least two"):
        R.compare_summaries([("a", df)])
    with pytest.raises(R.ReportError, match="distinct"):
        R.compare_summaries([("a", df), ("a", df)])


def test_report_play_section_compares_the_companion(df):
    fewer = frame(ROWS[:3], MANIFEST)
    rep = R.build_report(df, compare=("heuristic", fewer), label="expert")
    assert [s.title for s in rep.sections][:2] == ["Headline numbers", "Play model"]
    table = rep.sections[1].items[0]
    assert table.name == "play_comparison" and list(table.data.columns[2:4]) == [
        "heuristic", "heuristic_ci_low"]
    assert "expert" in table.data.columns
    assert "Play model" not in [s.title for s in R.build_report(df).sections]
