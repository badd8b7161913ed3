"""Checking an answer against search: the comparisons that say whether an answer holds, the
subsample rule, and the tournament's check object, on constructed inputs (no simulation)."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pytest

import whist_sim.analyses.answer_check as check_module
from whist_sim.analyses.answer_check import (
    CHECK_MIN_DEALS,
    CHECK_RATIO,
    CONFIRMED,
    CONTRADICTED,
    DEFAULT_CHECK_PLAY,
    NOT_CONTRADICTED,
    CheckError,
    add_check_arguments,
    bid_holds,
    bid_verdict,
    check_deals,
    check_label,
    check_play,
    deals_for_power,
    detectable_difference,
    difference_holds,
    difference_verdict,
    measured_edge,
    parsed_check,
    ranking_holds,
    ranking_verdict,
    search_over,
)
from whist_sim.analyses.tournament.ranking_check import (
    RANKING_CHANGES,
    compare_check,
    games_check,
    ranking,
    tournament_check_deals,
)
from whist_sim.analyses.tournament.render import (
    check_lines,
    check_verdict,
    games_lines,
    rank_line,
)
from whist_sim.compiled.strategies.registry import DEFAULT_PLAY


def test_the_default_check_is_a_search_over_the_default_play():
    # derived, never written out: a search of 16 rollouts finished by DEFAULT_PLAY
    assert DEFAULT_CHECK_PLAY == search_over(DEFAULT_PLAY) == f"rollout:n=16:base={DEFAULT_PLAY}"
    assert check_play(DEFAULT_CHECK_PLAY) == "rollout:n=16:base=learned"
    assert check_play("rollout:n=2") == "rollout:n=2"
    # a change of the default play moves the default check with it: the module states the
    # derivation, not a play
    assert search_over("planner") == "rollout:n=16:base=planner"
    source = Path(check_module.__file__).read_text(encoding="utf-8")
    assert "DEFAULT_CHECK_PLAY = search_over(DEFAULT_PLAY)" in source


LADDER_STEPS = {"steps": [
    {"lower": "learned", "upper": "rollout:n=16:base=learned", "deals": 2000, "diff": 0.95,
     "ci": [0.5, 1.4], "p": 1e-5},
    {"lower": "learned", "upper": "rollout:n=16", "deals": 2000, "diff": -2.53,
     "ci": [-2.94, -2.12], "p": 1e-30},
]}


def test_a_check_is_called_stronger_only_with_the_ladders_figure(tmp_path):
    ladder = tmp_path / "ladder.json"
    ladder.write_text(json.dumps(LADDER_STEPS))
    edge = measured_edge("rollout:n=16:base=learned", "learned", ladder)
    assert edge is not None and edge.stronger and edge.diff == 0.95 and edge.deals == 2000
    label = check_label("rollout:n=16:base=learned", "learned", ladder)
    assert label == ("rollout:n=16:base=learned, +0.9 points per deal over learned (95 % CI "
                     "+0.5 to +1.4, 2,000 duplicate deals, results/play)")
    # read the other way round: expert's search is weaker than learned
    weaker = check_label("rollout:n=16", "learned", ladder)
    assert weaker.startswith("another play, rollout:n=16") and "stronger" not in weaker.split(
        ":")[0]
    assert measured_edge("rollout:n=16", "learned", ladder).diff == -2.53
    # a pair the ladder does not measure, or no ladder at all: another play
    assert check_label("rollout:n=8", "planner", ladder).startswith("another play")
    assert check_label("rollout:n=8", "learned", tmp_path / "none.json").startswith("another")


# ------------------------------------------------------------------ the three verdicts


def test_a_check_that_agrees_confirms():
    v = bid_verdict("6", "5", "6", None, (0.4, 2.1))
    assert v.word == CONFIRMED and v.detectable is None
    assert difference_verdict(1.02, (0.5, 1.54)).word == CONFIRMED
    assert difference_verdict(-1.0, (-2.0, -0.1)).word == CONFIRMED


def test_a_check_that_cannot_tell_says_how_large_a_difference_it_would_have_seen():
    # the interval 2 x 1.96 x se wide: se = 1, so 2.80 points at 80 % power
    v = bid_verdict("6", "5", "6", None, (-1.96 + 0.5, 1.96 + 0.5))
    assert v.word == NOT_CONTRADICTED and v.detectable == pytest.approx(2.8016, abs=1e-3)
    assert "would have seen a difference of 2.8 points per deal" in v.why
    # another best bid, not clearly better: not a contradiction
    assert bid_verdict("6", "5", "7", (-0.3, 1.0), (-0.5, 2.0)).word == NOT_CONTRADICTED
    d = difference_verdict(1.02, (-2.93, 0.13))  # the reversal the old check called "holds"
    assert d.word == NOT_CONTRADICTED and d.detectable == pytest.approx(
        2.8016 * 3.06 / 3.92, abs=1e-3)


def test_a_check_that_reverses_contradicts():
    assert bid_verdict("6", "5", "7", (0.3, 2.0), (0.1, 2.0)).word == CONTRADICTED
    assert bid_verdict("6", "5", "6", None, (-2.0, -0.2)).word == CONTRADICTED
    assert difference_verdict(1.02, (-2.93, -0.13)).word == CONTRADICTED
    assert difference_verdict(-1.0, (0.2, 1.0)).word == CONTRADICTED


def test_a_ranking_is_as_sure_as_its_least_sure_pair():
    yes, maybe, no = (difference_verdict(1.0, ci) for ci in ((0.5, 1.5), (-1.0, 3.0),
                                                           (-2.0, -0.5)))
    assert ranking_verdict([yes, yes]).word == CONFIRMED
    assert ranking_verdict([yes, maybe]).word == NOT_CONTRADICTED
    assert ranking_verdict([yes, maybe]).detectable == maybe.detectable
    assert ranking_verdict([yes, maybe, no]).word == CONTRADICTED


def test_the_check_size_for_eighty_percent_power():
    # ((1.96 + 0.84) x 12 / 2)^2 = 282.5...: 283 deals to see 2 points with sd 12
    assert deals_for_power(12.0) == 283
    assert deals_for_power(12.0, target=4.0) == 71
    assert deals_for_power(0.0) == 2
    assert detectable_difference(1.0) == pytest.approx(1.95996 + 0.84162, abs=1e-4)


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
    # a tournament's check without a summary to size it for power: three times its cost
    assert tournament_check_deals(1_000_000) == 1_500
    assert tournament_check_deals(10_000) == 20  # the floor
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


def test_a_check_that_clearly_reverses_a_pair_contradicts_the_ranking():
    answer = _summary({"cautious": 7.7, "heuristic": 0.0},
                      [("cautious", "heuristic", 7.7, [6.0, 9.4])])
    checked = _summary({"cautious": -5.3, "heuristic": 0.0},
                       [("cautious", "heuristic", -5.3, [-8.0, -2.6])], deals=200, zero=0.45)
    c = compare_check(answer, checked, "rollout:n=16")
    assert c["play"] == "rollout:n=16" and c["deals"] == 200
    assert c["verdict"] == CONTRADICTED and c["pairs"][0]["verdict"] == CONTRADICTED
    assert c["holds"] is False and c["ranking_changes"] is True and c["same_order"] is False
    assert c["pairs"][0]["holds"] is False and c["pairs"][0]["detectable"] is None
    assert c["pairs"][0]["diff"] == 7.7 and c["pairs"][0]["check_diff"] == -5.3
    assert c["ranking"] == {"answer": ["cautious", "heuristic"],
                            "check": ["heuristic", "cautious"]}
    s = c["strategies"][0]
    assert (s["zero_success"], s["check_zero_success"]) == (0.9, 0.45)
    summary = {**answer, "check": c}
    assert RANKING_CHANGES in check_verdict(summary)
    assert "**contradicted**" in "\n".join(check_lines(summary))
    assert rank_line(summary) == ("Rank under `expert` -> under `rollout:n=16`: `cautious` 1 -> 2, "
                                  "`heuristic` 2 -> 1; keeps its rank: none.")
    assert rank_line(summary) in check_lines(summary)[0]
    assert rank_line(answer) is None


def test_a_check_whose_estimate_reverses_a_pair_but_cannot_reject_it_does_not_contradict():
    # montecarlo:n=8 over heuristic by +1.02 [0.50, 1.54]; the check -1.40 [-2.93, +0.13]: a
    # reversed point estimate that does not exclude the answer's order
    answer = _summary({"montecarlo:n=8": 1.02, "heuristic": 0.0},
                      [("montecarlo:n=8", "heuristic", 1.02, [0.50, 1.54])])
    checked = _summary({"montecarlo:n=8": -1.40, "heuristic": 0.0},
                       [("montecarlo:n=8", "heuristic", -1.40, [-2.93, 0.13])], deals=200)
    c = compare_check(answer, checked, "rollout:n=16")
    p = c["pairs"][0]
    assert p["verdict"] == c["verdict"] == NOT_CONTRADICTED and c["same_order"] is False
    # the difference it could have seen: 2.80 standard errors of its interval
    se = (0.13 + 2.93) / (2 * 1.959964)
    assert p["detectable"] == pytest.approx(2.80 * se, abs=0.01) == c["detectable"]
    verdict = check_verdict({**answer, "check": c})
    assert "**not contradicted**" in verdict and "holds" not in verdict
    assert f"{p['detectable']:.1f} points per deal" in verdict and "within its noise" in verdict
    assert RANKING_CHANGES not in verdict


def test_a_check_that_finds_every_pair_in_the_same_order_confirms_the_ranking():
    answer = _summary({"a": 1.0, "b": 0.5, "c": 0.0},
                      [("a", "b", 0.5, [0.2, 0.8]), ("a", "c", 1.0, [0.7, 1.3]),
                       ("b", "c", 0.5, [0.1, 0.9])])
    checked = _summary({"a": 2.0, "b": 1.0, "c": -1.0},
                       [("a", "b", 1.0, [0.1, 1.9]), ("a", "c", 3.0, [1.0, 5.0]),
                        ("b", "c", 2.0, [0.5, 3.5])], deals=200)
    c = compare_check(answer, checked, "rollout:n=4")
    assert c["verdict"] == CONFIRMED and c["holds"] is True and c["same_order"] is True
    assert [p["verdict"] for p in c["pairs"]] == [CONFIRMED] * 3
    assert "the ranking is **confirmed**" in check_verdict({**answer, "check": c})


def test_the_check_is_named_by_the_ladder_or_as_another_play():
    answer = _summary({"a": 1.0, "b": 0.5}, [("a", "b", 0.5, [0.2, 0.8])])
    c = compare_check(answer, answer, "rollout:n=3")
    assert c["label"] == check_label("rollout:n=3", "expert")
    assert check_verdict({**answer, "check": c}).startswith(f"Checked against {c['label']}")
    assert "stronger" not in check_verdict({**answer, "check": c})


def test_a_check_is_sized_for_power_and_capped_at_three_times_the_answers_cost():
    from whist_sim.analyses.tournament.ranking_check import (
        CHECK_FLOOR,
        COST_CAP,
        SEARCH_COST,
        power_deals,
    )

    # a pair whose difference per deal has a standard deviation of 10 points: 197 deals see 2
    # points with 80 % power
    half = 1.959964 * 10 / math.sqrt(10_000)
    answer = _summary({"a": 1.0, "b": 0.0}, [("a", "b", 1.0, [1.0 - half, 1.0 + half])],
                      deals=10_000)
    assert power_deals(answer) == deals_for_power(10.0) == 197
    big = COST_CAP * 1_000_000 // SEARCH_COST
    assert tournament_check_deals(1_000_000, answer) == 197 < big
    # a small tournament cannot afford the power: the cap, never less than the floor
    assert tournament_check_deals(10_000, answer) == max(CHECK_FLOOR,
                                                          COST_CAP * 10_000 // SEARCH_COST)
    assert tournament_check_deals(10, answer) == 10  # never more than the answer's deals
    assert tournament_check_deals(1_000) == max(CHECK_FLOOR, COST_CAP * 1_000 // SEARCH_COST)


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
    assert "check: diff" in text and "\u22121.50" in text and "\u22122.00 to \u22121.00" in text


def _with_games(by_games: list[str], check_pairs: list[tuple[str, str, float, list[float]]]
                ) -> dict:
    """A summary of three entrants with games won in the order ``by_games`` and a check whose
    pairs (``a``, ``b``, ``a - b``, interval) are ``check_pairs``."""
    means = {"a": 3.0, "b": 2.0, "c": 1.0}
    answer = _summary(means, [("a", "b", 1.0, [0.5, 1.5]), ("a", "c", 2.0, [1.5, 2.5]),
                              ("b", "c", 1.0, [0.5, 1.5])])
    checked = _summary(means, check_pairs, deals=300)
    s = {**answer, "check": compare_check(answer, checked, "rollout:n=16")}
    s["games"] = {"games": 10, "target": 500, "seatings": 6, "mean_deals": 12.0,
                  "max_game_deals": 20, "unfinished": 0, "max_deals": 100, "entries": [],
                  "ranking": {"by_points": ["a", "b", "c"], "by_games": by_games,
                              "agree": by_games == ["a", "b", "c"]}}
    s["games"]["check"] = games_check(s)
    return s


def test_the_order_by_games_won_is_judged_on_the_checks_points_per_deal():
    clear = [("a", "b", 1.0, [0.5, 1.5]), ("a", "c", 2.0, [1.5, 2.5]), ("b", "c", 1.0, [0.5, 1.5])]
    s = _with_games(["a", "b", "c"], clear)
    assert s["games"]["check"]["verdict"] == CONFIRMED
    # games put c above b: the check's b - c interval lies above 0, so it reverses that pair
    s = _with_games(["a", "c", "b"], clear)
    g = s["games"]["check"]
    assert g["verdict"] == CONTRADICTED
    assert [(p["a"], p["b"], p["verdict"]) for p in g["pairs"]] == [
        ("a", "c", CONFIRMED), ("c", "b", CONTRADICTED)]
    assert g["pairs"][1]["check_diff"] == -1.0 and g["pairs"][1]["check_ci"] == [-1.5, -0.5]
    # a check that cannot tell b from c leaves the games' order not contradicted
    s = _with_games(["a", "c", "b"], [clear[0], clear[1], ("b", "c", 0.2, [-0.8, 1.2])])
    assert s["games"]["check"]["verdict"] == NOT_CONTRADICTED
    assert "**not contradicted**" in "\n".join(games_lines(s))


def test_games_without_a_check_that_played_say_so():
    s = _with_games(["a", "b", "c"], [("a", "b", 1.0, [0.5, 1.5]), ("a", "c", 2.0, [1.5, 2.5]),
                                      ("b", "c", 1.0, [0.5, 1.5])])
    s["check"] = {"checked": False}
    s["games"]["check"] = games_check(s)
    assert s["games"]["check"] is None
    assert "not checked against search" in "\n".join(games_lines(s))
