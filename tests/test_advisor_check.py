"""The advice checked against search: the best bids and the zero bid played again under a
searching play on the first sampled deals, the verdict (confirmed, not contradicted, contradicted),
the close call, the check's size, and the zero bid's made rate against both fields, the zero
bidder keeping the answer's play (small sizes: a two-rollout search on a few dozen deals)."""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner

from whist_sim import advise
from whist_sim.analyses.advisor import AdviceError
from whist_sim.analyses.advisor.advice_check import (
    CHECK_MAX_DEALS,
    advice_check_size,
    check_candidates,
)
from whist_sim.analyses.advisor.sampling import policy_arrays, run_scenario
from whist_sim.analyses.advisor.scenario import resolve_scenario
from whist_sim.analyses.answer_check import (
    CHECK_MIN_DEALS,
    CONTRADICTED,
    bid_verdict,
    deals_for_power,
)
from whist_sim.compiled.strategies.registry import get_info
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
    assert c.answer_bid == checked.recommended and c.runner_up == checked.runner_up
    assert c.diff == pytest.approx(evs[c.recommended] - evs[c.answer_bid])
    assert c.order_diff == pytest.approx(evs[c.answer_bid] - evs[c.runner_up])
    expected = bid_verdict(str(c.answer_bid), str(c.runner_up), str(c.recommended), c.diff_ci,
                           c.order_ci)
    assert c.verdict == expected
    assert c.holds == (c.verdict.word != CONTRADICTED)
    # the check's own estimates beside the answer's: every searched bid with its interval
    assert all(r["ev_check_ci"][0] <= r["ev_check"] <= r["ev_check_ci"][1] for r in c.bids)


def test_the_zero_bidder_keeps_the_answers_play_among_searching_opponents(checked):
    z = checked.check.zero
    assert z["p_make_answer"] == pytest.approx(checked.table.loc[0, "p_make"])
    assert z["deals_answer"] == 60 and z["deals_check"] == 40
    scen = checked.scenario
    pol, _ = policy_arrays(4, "heuristic", CHECK, own=(scen.seat, "heuristic"))
    rollout, heuristic = get_info("rollout", "play").id, get_info("heuristic", "play").id
    assert [int(x) for x in pol[1]] == [heuristic if s == scen.seat else rollout
                                        for s in range(4)]
    zsub = dataclasses.replace(scen, candidates=tuple(c for c in scen.candidates if c[1] == 0))
    again = run_scenario(zsub, 40, 5, CHECK, "heuristic", checked.infer, own_play="heuristic")
    assert z["p_make_check"] == pytest.approx(float((again.tricks[0] == 0).mean()))
    text = str(checked)
    assert "against searching opponents" in text and "the zero bidder playing heuristic" in text


def _run(diffs: np.ndarray) -> SimpleNamespace:
    """A run of two candidates whose paired score difference on each deal is ``diffs``."""
    score = np.vstack([diffs, np.zeros_like(diffs)]).astype(np.int16)
    return SimpleNamespace(score=score, tricks=np.zeros_like(score, dtype=np.int8))


def test_the_check_is_sized_for_eighty_percent_power_on_the_top_two():
    rng = np.random.default_rng(1)
    run = _run(rng.choice([-12, 12], size=5000))  # sd 12: 283 deals see 2 points
    size = advice_check_size(run, 0, 1)
    assert size.wanted == deals_for_power(12.0, 2.0) == pytest.approx(283, abs=2)
    assert size.deals == max(CHECK_MIN_DEALS, size.wanted) and not size.capped
    noisy = advice_check_size(_run(rng.choice([-40, 40], size=5000)), 0, 1)
    assert noisy.capped and noisy.deals == CHECK_MAX_DEALS and noisy.wanted > CHECK_MAX_DEALS
    small = advice_check_size(_run(rng.choice([-40, 40], size=300)), 0, 1)
    assert small.capped and small.deals == 300  # never more than the advice's own deals
    assert advice_check_size(run, 0, 1, deals=50) == type(size)(50, None, False, True)


def test_a_close_call_is_said_in_words_and_in_json(checked):
    near = dataclasses.replace(checked, ev_diff=0.4, ev_diff_ci=(-1.0, 1.8), check=None)
    assert "holds 0" in near.close_call
    assert f"a close call between {near.recommended} and {near.runner_up}" in str(near)
    d = near.to_dict()
    assert d["close_call"] is True and d["close_call_bids"] == [near.recommended, near.runner_up]
    # sure of the sample, but the check moves the gap by more than the gap: a close call too
    moved = dataclasses.replace(checked, ev_diff=1.0, ev_diff_ci=(0.2, 1.8), check=(
        dataclasses.replace(checked.check, play_shift=2.5)))
    assert "the play model's error is larger" in moved.close_call
    clear = dataclasses.replace(checked, ev_diff=5.0, ev_diff_ci=(3.0, 7.0), check=(
        dataclasses.replace(checked.check, play_shift=1.0)))
    assert clear.close_call is None and clear.to_dict()["close_call"] is False


def test_the_json_check_object(checked):
    d = checked.to_dict()["check"]
    assert {"play", "label", "deals", "holds", "verdict", "detectable", "runner_up",
            "order_ci", "deals_wanted", "capped"} <= set(d)
    assert d["verdict"] in ("confirmed", "not contradicted", "contradicted")
    assert d["label"].startswith("another play, rollout:n=2")  # the ladder does not rank it
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
    assert "checked against another play, rollout:n=2" in r.output
    assert "on the first 20 sampled deals" in r.output and "stronger" not in r.output
    verdict = next(line for line in r.output.splitlines() if line.startswith("check: "))
    assert verdict.split(" (")[0] in ("check: confirmed", "check: not contradicted",
                                      "check: contradicted")


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
