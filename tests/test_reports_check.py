"""A report checked against search, on small synthetic datasets worked out by hand: the headline
numbers of the run and of a check run side by side with whether each holds, and the zero bids
made against both fields (RULES §6: a zero is made with no trick)."""

from __future__ import annotations

import json

import pytest
from test_reports import MANIFEST, deal_row, frame

from whist_sim.analyses import reports as R
from whist_sim.analyses.answer_check import check_label
from whist_sim.analyses.reports.report_check_section import (
    check_headline,
    check_object,
    zero_success_both,
)

# every deal: declarer seat 0 bids 5 in spades, seat 1 bids zero, seats 2 and 3 bid 4 (an under
# deal: 13 bid); against the run's field every contract is made ...
MADE = [deal_row(i, 0, 3, 5, 0, [5, 0, 4, 4], [5, 0, 4, 4]) for i in range(40)]
# ... against searching opponents the zero takes a trick and seat 2 one too few
CAUGHT = [deal_row(i, 0, 3, 5, 0, [5, 0, 4, 4], [5, 1, 3, 4]) for i in range(40)]


@pytest.fixture
def run():
    return frame(MADE, MANIFEST)


@pytest.fixture
def check():
    return frame(CAUGHT, MANIFEST)


def test_the_headline_numbers_side_by_side_and_whether_each_holds(run, check):
    h = check_headline(run, check, "expert", "rollout:n=16")
    assert list(h.columns[2:8]) == ["expert", "expert_ci_low", "expert_ci_high", "rollout:n=16",
                                    "rollout:n=16_ci_low", "rollout:n=16_ci_high"]
    zero = h.loc["zero bidders make contract"]
    assert (zero["expert"], zero["rollout:n=16"]) == (1.0, 0.0)
    assert not zero["holds"]  # made every time against one field, never against the other
    decl = h.loc["declarer makes contract"]
    assert decl["expert"] == decl["rollout:n=16"] == 1.0 and decl["holds"]
    # the bidding is the same: the share of zero bids holds
    assert h.loc["zero bids (of non-declarers; set by the bids)", "holds"]


def test_a_check_that_agrees_holds_everywhere(run):
    h = check_headline(run, run, "expert", "rollout:n=16")
    assert h["holds"].all()
    obj = check_object(R.as_tally(run), R.as_tally(run), "expert", "rollout:n=16")
    assert obj["holds"] is True and all(z["holds"] for z in obj["zero_made"].values())


def test_the_zero_bids_made_against_both_fields(run, check):
    z = zero_success_both(run, check, "expert", "rollout:n=16")
    assert list(z.index) == ["under", "over", "all"]
    assert z.loc["under", "expert"] == 1.0 and z.loc["under", "rollout:n=16"] == 0.0
    assert z.loc["all", "n_expert"] == 40 and z.loc["all", "n_rollout:n=16"] == 40
    assert z.loc["over", "n_expert"] == 0  # no over deal: no zero bid in one
    assert z.loc["all", "rollout:n=16_ci_high"] < z.loc["all", "expert_ci_low"]


def test_the_json_check_object(run, check):
    obj = check_object(R.as_tally(run), R.as_tally(check), "expert", "rollout:n=16")
    assert obj["play"] == "rollout:n=16" and obj["deals"] == 40 and obj["holds"] is False
    zero = obj["headline"]["zero bidders make contract"]
    assert (zero["value"], zero["check_value"], zero["holds"]) == (1.0, 0.0, False)
    # the verdicts in words: the zero line is contradicted, and so is the run
    assert zero["verdict"] == "contradicted" and obj["verdict"] == "contradicted"
    assert obj["headline"]["declarer makes contract"]["verdict"] == "not contradicted"
    assert obj["headline"]["declarer makes contract"]["holds"] is True
    assert obj["zero_made"]["all"] == {"value": 1.0, "check_value": 0.0, "zero_bids": 40,
                                       "check_zero_bids": 40, "holds": False}
    json.dumps(obj)  # JSON-ready: no NaN objects, no numpy types
    assert obj["zero_made"]["over"]["value"] is None


def test_the_report_has_the_check_section_and_the_zero_table(run, check, tmp_path):
    rep = R.build_report(run, check=("rollout:n=16", check), label="expert")
    titles = [s.title for s in rep.sections]
    assert titles[:2] == ["Headline numbers", "Checked against search"]
    section = rep.sections[1]
    assert "are contradicted" in section.text and "zero bidders make contract" in section.text
    # the check is named as answer_check names it: with the ladder's measured edge over the
    # run's play, or as another play (never "stronger play" on its own say-so)
    assert check_label("rollout:n=16", "expert") in section.text
    assert "Under stronger play" not in section.text
    assert section.items[0].name == "check_headline"
    zeros = next(s for s in rep.sections if s.title == "Zero bids")
    assert "zero_success_check" in [i.name for i in zeros.items]
    written = R.write_report(rep, tmp_path, ("md", "csv"))
    md = next(p for p in written if p.suffix == ".md").read_text()
    assert "## Checked against search" in md and "with every seat searching" in md
    # every seat searches in the check run, the zero bidder too: not "against searching opponents"
    assert "against searching opponents" not in md
    unchecked = R.build_report(run, label="expert")
    assert "Checked against search" not in [s.title for s in unchecked.sections]
    assert "zero_success_check" not in [i.name for s in unchecked.sections for i in s.items]
