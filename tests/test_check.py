"""Checking an answer against search: the comparisons that say whether an answer holds, the
subsample rule, and the tournament's check object, on constructed inputs (no simulation)."""

from __future__ import annotations

import argparse
import math

import pytest

from whist_sim.analyses.check import (
    CHECK_MIN_DEALS,
    CHECK_RATIO,
    DEFAULT_CHECK_PLAY,
    CheckError,
    add_check_arguments,
    bid_holds,
    check_deals,
    check_play,
    difference_holds,
    parsed_check,
    ranking_holds,
)
from whist_sim.analyses.tournament.check import (
    RANKING_CHANGES,
    compare_check,
    ranking,
    tournament_check_deals,
)
from whist_sim.analyses.tournament.render import check_lines, check_verdict, rank_line


def test_the_default_check_is_a_search_of_sixteen_rollouts():
    assert DEFAULT_CHECK_PLAY == "rollout:n=16"
    assert check_play(DEFAULT_CHECK_PLAY) == "rollout:n=16"
    assert check_play("rollout:n=2") == "rollout:n=2"


@pytest.mark.parametrize("text", ["hcp", "no-such-play", "rollout:q=3", ""])
def test_a_check_that_is_not_a_play_policy_is_refused(text):
    with pytest.raises(CheckError):
        check_play(text)


def test_a_scripts_check_options_are_read_once(capsys):
    parser = argparse.ArgumentParser(prog="script")
    add_check_arguments(parser, "the charts")
    assert parsed_check(parser, parser.parse_args([])) == DEFAULT_CHECK_PLAY
    assert parsed_check(parser, parser.parse_args(["--check", "rollout:n=2"])) == "rollout:n=2"
    assert parsed_check(parser, parser.parse_args(["--no-check"])) is None
    with pytest.raises(SystemExit) as stop:
        parsed_check(parser, parser.parse_args(["--check", "hcp"]))
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("script: error: --check: ") and "Traceback" not in err[-1]


def test_the_subsample_rule():
    assert check_deals(10_000) == max(CHECK_MIN_DEALS, math.ceil(10_000 / CHECK_RATIO))
    assert check_deals(100_000) == 4_000
    assert check_deals(1_000) == CHECK_MIN_DEALS  # at least the minimum ...
    assert check_deals(40) == 40  # ... but never more than the answer's own deals
    assert tournament_check_deals(1_000_000) == 2_000
    assert tournament_check_deals(10_000) == 200
    with pytest.raises(CheckError):
        check_deals(0)


def test_a_bid_holds_when_the_check_recommends_it_too():
    assert bid_holds(7, 7, None)
    assert bid_holds(7, 7, (3.0, 9.0))
    assert bid_holds((0, 7), (0, 7), None)


def test_a_bid_holds_when_the_checks_best_is_not_clearly_better():
    assert bid_holds(7, 6, (-2.0, 5.0))
    assert bid_holds(7, 6, None)  # one deal: no interval, nothing clear


def test_a_bid_does_not_hold_when_the_checks_best_is_clearly_better():
    assert not bid_holds(7, 6, (0.5, 9.0))
    assert not bid_holds((0, 7), (4, 8), (1.0, 2.0))


def test_a_difference_holds_unless_the_check_clearly_reverses_it():
    assert difference_holds(5.0, (2.0, 8.0))  # the same side
    assert difference_holds(5.0, (-1.0, 3.0))  # the check cannot tell
    assert not difference_holds(5.0, (-6.0, -1.0))  # clearly the other way
    assert not difference_holds(-5.0, (1.0, 6.0))
    assert difference_holds(-5.0, (-9.0, -1.0))
    assert difference_holds(0.0, (-9.0, -1.0))  # nothing to reverse
    assert difference_holds(5.0, None)
    assert difference_holds(5.0, (math.nan, math.nan))


def test_a_ranking_holds_when_every_pair_holds():
    assert ranking_holds([True, True, True])
    assert not ranking_holds([True, False, True])
    assert ranking_holds([])


def _summary(means: dict[str, float], pairs: list[tuple[str, str, float, list[float]]],
             deals: int = 1000, zero: float = 0.9) -> dict:
    return {
        "deals": deals,
        "play": "expert",
        "strategies": [{"name": n, "mean": m, "ci": [m - 1, m + 1], "zero_success": zero}
                       for n, m in means.items()],
        "pairs": [{"a": a, "b": b, "diff": d, "ci": ci} for a, b, d, ci in pairs],
    }


def test_the_ranking_changes_when_the_check_clearly_reverses_a_pair():
    answer = _summary({"cautious": 7.7, "heuristic": 0.0},
                      [("cautious", "heuristic", 7.7, [6.0, 9.4])])
    checked = _summary({"cautious": -5.3, "heuristic": 0.0},
                       [("cautious", "heuristic", -5.3, [-8.0, -2.6])], deals=200, zero=0.45)
    c = compare_check(answer, checked, "rollout:n=16")
    assert c["play"] == "rollout:n=16" and c["deals"] == 200
    assert c["holds"] is False and c["ranking_changes"] is True and c["same_order"] is False
    assert c["pairs"][0]["holds"] is False
    assert c["pairs"][0]["diff"] == 7.7 and c["pairs"][0]["check_diff"] == -5.3
    assert c["ranking"] == {"answer": ["cautious", "heuristic"],
                            "check": ["heuristic", "cautious"]}
    s = c["strategies"][0]
    assert (s["zero_success"], s["check_zero_success"]) == (0.9, 0.45)
    summary = {**answer, "check": c}
    assert RANKING_CHANGES in check_verdict(summary)
    assert "**no**" in "\n".join(check_lines(summary))
    assert rank_line(summary) == ("Rank under `expert` -> under `rollout:n=16`: `cautious` 1 -> 2, "
                                  "`heuristic` 2 -> 1; keeps its rank: none.")
    assert rank_line(summary) in check_lines(summary)[0]
    assert rank_line(answer) is None


def test_an_order_that_moves_within_the_noise_holds_and_says_so():
    answer = _summary({"a": 1.0, "b": 0.5}, [("a", "b", 0.5, [0.2, 0.8])])
    checked = _summary({"a": 0.4, "b": 0.6}, [("a", "b", -0.2, [-3.0, 2.6])], deals=200)
    c = compare_check(answer, checked, "rollout:n=16")
    assert c["holds"] is True and c["same_order"] is False
    verdict = check_verdict({**answer, "check": c})
    assert RANKING_CHANGES not in verdict and "within its noise" in verdict


def test_the_same_order_holds():
    answer = _summary({"a": 1.0, "b": 0.5, "c": 0.0},
                      [("a", "b", 0.5, [0.2, 0.8]), ("a", "c", 1.0, [0.7, 1.3]),
                       ("b", "c", 0.5, [0.1, 0.9])])
    checked = _summary({"a": 2.0, "b": 1.0, "c": -1.0},
                       [("a", "b", 1.0, [0.1, 1.9]), ("a", "c", 3.0, [1.0, 5.0]),
                        ("b", "c", 2.0, [0.5, 3.5])], deals=200)
    c = compare_check(answer, checked, "rollout:n=4")
    assert c["holds"] is True and c["same_order"] is True
    assert [p["holds"] for p in c["pairs"]] == [True, True, True]
    assert "the ranking holds (the same order" in check_verdict({**answer, "check": c})


def test_ranking_orders_by_mean_with_ties_to_the_earlier_entrant():
    s = [{"mean": 1.0}, {"mean": 3.0}, {"mean": 1.0}, {"mean": None}]
    assert ranking(s) == [1, 0, 2, 3]


def test_a_check_of_other_entrants_is_refused():
    answer = _summary({"a": 1.0, "b": 0.5}, [("a", "b", 0.5, [0.2, 0.8])])
    checked = _summary({"a": 1.0, "b": 0.5, "c": 0.0}, [("a", "b", 0.5, [0.2, 0.8])])
    with pytest.raises(ValueError):
        compare_check(answer, checked, "rollout:n=16")


def test_the_markdown_report_has_the_check_section_only_when_checked():
    answer = _summary({"a": 1.0, "b": 0.5}, [("a", "b", 0.5, [0.2, 0.8])])
    checked = _summary({"a": -1.0, "b": 0.5}, [("a", "b", -1.5, [-2.0, -1.0])], deals=200)
    assert check_lines(answer) == [] and check_verdict(answer) is None
    c = compare_check(answer, checked, "rollout:n=16")
    lines = check_lines({**answer, "check": c})
    text = "\n".join(lines)
    assert "check: diff" in text and "-1.50" in text and "[-2.00, -1.00]" in text
