"""The default report as a card player reads it, on the hand-worked synthetic dataset of
test_reports: a summary in sentences with numbers before any table, seats by their place at the
table, the rules in words, the paired value of a zero charted by hand strength and position, and
a glossary of the terms at the end."""

from __future__ import annotations

import pandas as pd
import pytest
from test_reports import MANIFEST, ROWS, frame  # the hand-worked synthetic dataset
from test_reports_check import CAUGHT, MADE

from whist_sim.analyses import reports as R
from whist_sim.analyses.reports import charts
from whist_sim.analyses.reports.wording import (
    TERMS,
    points_interval,
    share_interval,
)
from whist_sim.core.stats import wilson_interval

# the paired value of a zero (zero minus the best other bid on the same hand and deals), by
# bidding position and HCP band, as scripts/report_default.py gets it from the bid charts:
# the second bidder's zero pays clearly with 0-2 HCP, the third's and the hooked bidder's with
# up to 4; it costs points from 5-6 HCP (second, third) and 7-8 (hooked)
PAIRED = pd.DataFrame(
    [(1, "0-2", 180, 9.0, 7.6, 10.5), (1, "3-4", 210, 0.9, -1.6, 3.5),
     (1, "5-6", 210, -6.7, -10.3, -3.1), (1, "7-8", 210, -15.0, -18.9, -11.2),
     (2, "0-2", 190, 10.9, 9.4, 12.5), (2, "3-4", 204, 3.7, 1.5, 5.9),
     (2, "5-6", 210, -4.1, -6.9, -1.4), (2, "7-8", 210, -12.5, -16.2, -8.9),
     (3, "0-2", 153, 11.5, 9.4, 13.7), (3, "3-4", 165, 8.7, 5.2, 12.2),
     (3, "5-6", 179, -1.3, -5.2, 2.5), (3, "7-8", 174, -11.2, -15.0, -7.4)],
    columns=["position", "hcp_band", "hands", "zero_diff", "zero_diff_ci_low",
             "zero_diff_ci_high"]).set_index(["position", "hcp_band"])
PAIRED["zero_best_share"] = 0.5


@pytest.fixture(scope="module")
def tally():
    return R.Tally.from_frame(frame(ROWS * 10, MANIFEST))


@pytest.fixture(scope="module")
def report(tally):
    return R.build_report(tally, title="synthetic", zero_paired=(PAIRED, "a constructed table"))


def test_the_summary_says_what_the_run_finds_in_sentences_with_numbers(report):
    s = report.summary
    assert s.startswith("**In short.** 50 deals under the rule book's rules, four players")
    # the declarer (position 0) makes 3 contracts of 4 in the five hand-worked deals, the
    # others 5 of 12; ten copies of them
    assert ("Declarers make their contract "
            f"{share_interval(0.75, *wilson_interval(30, 40))} of the time") in s
    assert f"the other players make theirs {share_interval(5 / 12, *wilson_interval(50, 120))}" \
        in s
    # the hooked last bidder scores 26, -10, 25 and 50 (mean 22.75); the second and third
    # bidders -89 in eight entries (mean -11.125): the hook costs him nothing here
    assert "scores 22.8 (" in s and "the other non-declarers −11.1 (" in s
    assert "on the whole the hook costs him nothing" in s
    # zero: five of the twelve non-declarer contracts, three of them made
    assert (f"bid zero on {share_interval(5 / 12, *wilson_interval(50, 120))} of their hands "
            f"and make it {share_interval(0.6, *wilson_interval(30, 50))} of the time") in s


def test_the_summary_says_up_to_which_hand_strength_a_zero_pays(report):
    assert ("a zero pays with up to about 2–4 high-card points (second bidder 2, third bidder "
            "4, fourth bidder (hooked) 4) and costs points from about 5–7 on") in report.summary


def test_the_summary_comes_before_any_table_and_the_glossary_last(report):
    md = R.render_markdown(report)
    assert md.index("**In short.**") < md.index("- **rules**") < md.index("| ")
    assert md.index("## Terms used in this report") > md.index("## Calibration")
    assert "- **rules**: the rule book's rules, four players" in md
    assert "Rules(" not in md
    html = R.render_html(report)
    assert html.index("In short.") < html.index("<table>")
    assert "<h2>Terms used in this report</h2>" in html


def test_the_glossary_defines_every_term_once(report):
    terms = [t for t, _ in report.glossary]
    assert len(terms) == len(set(terms))
    for t in ("hooked", "cost of being hooked", "over deal", "under deal", "zero bid",
              "paired value of a zero", "HCP", "95 % interval", "dealer, second, third, fourth"):
        assert t in terms, t
    assert dict(report.glossary)["cost of being hooked"] == TERMS["cost of being hooked"]
    md = R.render_markdown(report)
    glossary = md[md.index("## Terms used in this report"):]
    assert glossary.count("| hooked |") == 1
    # no check run: the verdicts are not among the report's terms
    assert "contradicted" not in terms


def test_a_checked_report_words_its_check_and_defines_the_verdicts():
    run, check = frame(MADE, MANIFEST), frame(CAUGHT, MANIFEST)
    rep = R.build_report(run, check=("rollout:n=16", check), label="expert")
    # the zero bidder takes a trick in every deal of the check: its zero line is contradicted
    assert "A check replays the first 40 deals with every seat searching" in rep.summary
    assert "zero bidders make contract: 100.0 % in this run, 0.0 % in the check" in rep.summary
    terms = [t for t, _ in rep.glossary]
    assert {"check", "not contradicted", "contradicted"} <= set(terms)
    head = next(i for s in rep.sections for i in s.items if i.name == "check_headline")
    assert "holds" not in head.data.columns
    verdicts = head.data["verdict"]
    assert verdicts["zero bidders make contract"] == "contradicted"
    assert verdicts["declarer makes contract"].startswith("not contradicted (would have seen")


def test_seats_by_their_place_at_the_table(tally):
    t = R.score_summary(tally, "place")
    heads, rows = R.table_cells(t)
    assert heads[0] == "seat"
    assert [r[0] for r in rows] == ["dealer", "second", "third", "fourth"]
    # the dealer of deal d is seat d % 4: he scores 35 (D1), 46 (D2), 59 (D3) and -30 (D5)
    assert t.loc[0, "mean"] == pytest.approx((35 + 46 + 59 - 30) / 4)
    report = R.build_report(tally)
    seat = next(i for s in report.sections for i in s.items if i.name == "score_by_seat")
    assert "(dealer, second, third, fourth)" in seat.title


def test_the_zero_chart_shows_the_paired_value_by_hand_strength_and_position(report):
    names = [i.name for i in report.charts()]
    assert "zero_value_paired" in names and "zero_value_by_hcp" not in names
    data = charts.zero_paired_points(PAIRED)
    assert list(data.columns) == ["position", "hcp_band", "hands", "value", "ci_low", "ci_high"]
    assert list(dict.fromkeys(data["position"])) == ["second bidder", "third bidder",
                                                      "fourth bidder (hooked)"]
    hooked = data[data["position"] == "fourth bidder (hooked)"].set_index("hcp_band")
    assert list(hooked.index) == ["0-2", "3-4", "5-6", "7-8"]
    assert hooked.loc["3-4", ["value", "ci_low", "ci_high"]].tolist() == [8.7, 5.2, 12.2]
    assert data["hands"].sum() == PAIRED["hands"].sum()
    fig = next(i for i in report.charts() if i.name == "zero_value_paired").draw()
    ax = fig.axes[0]
    assert "Paired value of a zero bid" in ax.get_title()
    assert "best other bid for the same hand" in ax.get_title()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "second bidder", "third bidder", "fourth bidder (hooked)"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0-2", "3-4", "5-6", "7-8"]


def test_every_chart_title_says_what_it_shows(report):
    for item in report.charts():
        fig = item.draw()
        title = fig.axes[0].get_title().replace("\n", " ")
        assert title == item.title, item.name


def test_intervals_in_the_tables_are_the_new_form(tally):
    _, rows = R.table_cells(R.hooked_cost(tally))
    cost = rows[0][-1]  # all deals: the others minus the hooked bidder, points per deal
    a = R.hooked_cost(tally).loc["all"]
    assert cost == points_interval(a["cost"], a["cost_ci_low"], a["cost_ci_high"], sign=False,
                                   unit="", decimals=2)
    assert cost.startswith("−33.")
