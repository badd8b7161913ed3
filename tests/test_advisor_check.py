"""The advice checked against search: the best bids and the zero bid played again under a
searching play on the first sampled deals, the verdict, and the zero bid's made rate against both
fields (small sizes: a two-rollout search on a few dozen deals)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from whist_sim import advise
from whist_sim.analyses.advisor import AdviceError
from whist_sim.analyses.advisor.checked import check_candidates
from whist_sim.analyses.advisor.scenario import resolve_scenario
from whist_sim.analyses.check import bid_holds
from whist_sim.interfaces.cli import main

HAND = "AKQ2.K3.QJ54.872"
CHECK = "rollout:n=2"
ARGS = dict(trump="S", declarer=3, bids="6", deals=60, seed=5)


@pytest.fixture(scope="module")
def checked():
    return advise(HAND, play="heuristic", check=CHECK, check_deals=40, **ARGS)


def test_the_check_searches_the_best_three_and_the_zero_bid():
    scen = resolve_scenario(HAND, "S", 3, None, None, "6")
    bids = [c[1] for c in scen.candidates]
    ev = np.array([-30.0 if b == 0 else -abs(b - 5) for b in bids], dtype=float)
    rows = check_candidates(scen, ev, scen.trump)
    assert sorted(bids[i] for i in rows) == [0, 4, 5, 6]


def test_auction_mode_searches_the_best_of_every_strain():
    scen = resolve_scenario(HAND, None, None, None, None, ())
    ev = np.array([-abs(b - 6) + (2 if t == 3 else 0) for t, b in scen.candidates], dtype=float)
    rows = check_candidates(scen, ev, 3)
    picked = [scen.candidates[i] for i in rows]
    assert sorted(b for t, b in picked if t == 3) == [5, 6, 7]
    assert all(sum(1 for t, _ in picked if t == s) == 1 for s in (0, 1, 2, 4))


def test_the_check_plays_the_first_deals_of_the_advice_under_its_play(checked):
    c = checked.check
    assert c.play == CHECK and c.deals == 40 and c.answer_play == "heuristic"
    # the answer's numbers on the check's deals are the advice's own first 40 deals
    again = advise(HAND, play="heuristic", **{**ARGS, "deals": 40})
    for r in c.bids:
        assert r["ev_answer"] == pytest.approx(again.table.loc[r["bid"], "ev"])
        assert r["p_make_answer"] == pytest.approx(again.table.loc[r["bid"], "p_make"])
    # and the check's are what the check play gives on those deals
    searched = advise(HAND, play=CHECK, screen=0, **{**ARGS, "deals": 40})
    for r in c.bids:
        assert r["ev_check"] == pytest.approx(searched.table.loc[r["bid"], "ev"])


def test_the_verdict_follows_from_the_two_answers(checked):
    c = checked.check
    evs = {r["bid"]: r["ev_check"] for r in c.bids}
    assert c.recommended == max(sorted(evs), key=lambda b: evs[b])
    assert c.answer_bid == checked.recommended
    assert c.holds == bid_holds(c.answer_bid, c.recommended, c.diff_ci)
    assert c.diff == pytest.approx(evs[c.recommended] - evs[c.answer_bid])


def test_the_zero_bid_is_stated_against_both_fields(checked):
    z = checked.check.zero
    assert z["p_make_answer"] == pytest.approx(checked.table.loc[0, "p_make"])
    assert z["deals_answer"] == 60 and z["deals_check"] == 40
    zero_row = next(r for r in checked.check.bids if r["bid"] == 0)
    assert z["p_make_check"] == zero_row["p_make_check"]
    assert "zero bid made:" in str(checked)


def test_the_json_check_object(checked):
    d = checked.to_dict()["check"]
    assert {"play", "deals", "holds"} <= set(d)
    assert d["play"] == CHECK and d["deals"] == 40 and isinstance(d["holds"], bool)
    assert d["recommended"] == checked.check.recommended
    assert {r["bid"] for r in d["bids"]} >= {0, checked.recommended}
    assert d["zero"]["p_make_check"] is not None


def test_an_unchecked_advice_has_no_check_key():
    a = advise(HAND, play="heuristic", **ARGS)
    assert a.check is None and "check" not in a.to_dict()
    assert "checked against search" not in str(a)


def test_a_bad_check_play_is_refused():
    with pytest.raises(AdviceError, match="check"):
        advise(HAND, play="heuristic", check="hcp", **ARGS)


def _cli(*args):
    return CliRunner().invoke(main, ["advise", HAND, "--trump", "S", "--declarer", "3",
                                     "--bids", "6", "--deals", "40", "--seed", "5",
                                     "--play", "heuristic", *args])


def test_the_cli_checks_by_default_and_prints_the_check_object():
    r = _cli("--check", CHECK, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["check"]["play"] == CHECK and d["check"]["deals"] == 40
    assert isinstance(d["check"]["holds"], bool)


def test_no_check_omits_it():
    r = _cli("--no-check", "--json")
    assert r.exit_code == 0, r.output
    assert "check" not in json.loads(r.stdout)


def test_the_text_output_says_whether_the_advice_holds():
    r = _cli("--check", CHECK, "--check-deals", "20")
    assert r.exit_code == 0, r.output
    assert "checked against search: rollout:n=2 on the first 20 sampled deals" in r.output
    assert "the advice holds" in r.output or "does not hold under stronger play" in r.output


@pytest.mark.parametrize("args, hint", [
    (["--check", "hcp"], "--check"),
    (["--check", "rollout:n=0"], "--check"),
    (["--check", CHECK, "--no-check"], "--no-check"),
    (["--no-check", "--check-deals", "5"], "--check-deals"),
    (["--check-deals", "0"], "--check-deals"),
])
def test_bad_check_options_are_refused_in_one_line(args, hint):
    r = _cli(*args)
    assert r.exit_code == 2
    assert "Traceback" not in r.output and hint in r.output


def test_the_check_has_its_own_progress_bar():
    r = _cli("--check", CHECK, "--progress")
    assert r.exit_code == 0, r.output
    assert "check" in r.stderr and "checked against search" not in r.stderr
