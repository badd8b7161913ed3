"""Every whole-number rule option has a legal range, declared with its field in ``Rules``
(RULES §6-§8): no legal combination scores a deal outside what the compiled engine stores
(``int16`` score columns), and the two engines score the extreme legal values alike. Values out of
range are refused with the option's name: by ``Rules`` (a ``RulesError``, a ``ValueError``), by
the command line (the flag), by ``--rules FILE`` (the TOML key) and by the web API (a 400)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whist_sim.core.rules import (
    SCORE_STORE_LIMITS,
    Rules,
    RulesError,
    rule_ranges,
    scoring_names,
)
from whist_sim.core.scoring import score, score_extremes
from whist_sim.interfaces.cli import main

RANGES = rule_ranges()
SCORING = scoring_names()  # a new scoring number is tested here with no edit


def test_every_whole_number_option_has_a_range_around_its_default():
    ints = [f.name for f in dataclasses.fields(Rules)
            if isinstance(f.default, int) and not isinstance(f.default, bool)]
    assert sorted(RANGES) == sorted(ints)
    for name, (lo, hi) in RANGES.items():
        assert lo <= getattr(Rules(), name) <= hi, name


def test_no_legal_combination_overflows_the_stored_score():
    lo, hi = score_extremes()
    assert SCORE_STORE_LIMITS == (np.iinfo(np.int16).min, np.iinfo(np.int16).max)
    assert SCORE_STORE_LIMITS[0] <= lo and hi <= SCORE_STORE_LIMITS[1]
    # the extremes are real scores: a missed 17 and a made 17 at the range ends
    rules = Rules(players=3, three_player_deck="one_random",
                  miss_per_trick=RANGES["miss_per_trick"][1],
                  made_bonus=RANGES["made_bonus"][1])
    assert score(17, 0, False, rules) >= lo and score(17, 17, False, rules) <= hi


@pytest.mark.parametrize("name", sorted(RANGES))
def test_the_ends_of_a_range_are_legal_and_one_past_them_is_refused(name):
    lo, hi = RANGES[name]
    assert getattr(Rules(**{name: lo}), name) == lo
    assert getattr(Rules(**{name: hi}), name) == hi
    for bad in (lo - 1, hi + 1, 2**63 - 1, -(2**63)):
        with pytest.raises(RulesError) as e:
            Rules(**{name: bad})
        assert e.value.option == name and str(e.value).startswith(name)
        assert isinstance(e.value, ValueError)


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


def one_error_line(r) -> str:
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    assert "Traceback" not in r.output
    return lines[0]


@pytest.mark.parametrize("flag, value", [("--made-bonus", "40000"), ("--zero-under", "40000"),
                                         ("--zero-fail-first", "-40000"),
                                         ("--miss-per-trick", "-1"), ("--target", "0"),
                                         ("--revoke-penalty", "100000")])
@pytest.mark.parametrize("command", ["simulate", "advise", "deal", "game", "tournament"])
def test_the_command_line_refuses_an_out_of_range_flag_by_name(command, flag, value):
    r = cli(command, flag, value)
    assert r.exit_code == 2
    assert f"'{flag}'" in one_error_line(r)


def test_a_rules_file_value_out_of_range_names_the_file_and_key(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text("made_bonus = 9223372036854775807\n")
    r = cli("deal", "--seed", "1", "--rules", str(f))
    assert r.exit_code == 2
    line = one_error_line(r)
    assert "--rules" in line and str(f) in line and "made_bonus must be in -1000..1000" in line


def test_a_flag_and_a_file_that_disagree_name_the_one_at_fault(tmp_path):
    f = tmp_path / "three.toml"
    f.write_text('players = 3\n')
    r = cli("deal", "--seed", "1", "--rules", str(f), "--frisch-directions", "across,left,left")
    assert r.exit_code == 2 and "--frisch-directions" in one_error_line(r)


def test_the_web_api_refuses_an_out_of_range_value_by_name():
    from whist_sim.interfaces.web.requests import RequestError, rules_of

    for body in ({"made_bonus": 2**63}, {"rules": {"zero_under": -40000}}):
        with pytest.raises(RequestError) as e:
            rules_of(body)
        assert e.value.field == "rules"
        assert "made_bonus must be in -1000..1000" in str(e.value) or \
            "zero_under must be in -1000..1000" in str(e.value)


# ------------------------------------------------------------- both engines at the range ends

def _extreme(name: str):
    lo, hi = RANGES[name]
    return st.sampled_from((lo, hi, lo + 1, hi - 1))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=st.fixed_dictionaries({n: _extreme(n) for n in SCORING}),
       three=st.booleans(), start=st.integers(0, 10_000),
       policy=st.sampled_from(["random", "heuristic"]))
def test_both_engines_score_the_extreme_legal_values_alike(values, three, start, policy):
    from whist_sim.compiled.entry.batch import play_batch
    from whist_sim.engine import play_deal

    rules = Rules(**values, **({"players": 3, "three_player_deck": "one_random"} if three else {}))
    p = rules.players
    pol = (policy,) * p  # heuristic play makes its contracts: the t * t + made_bonus scores
    res = play_batch(99, start, 12, rules, pol, pol)
    ref_pol = [policy] * p
    for j in range(12):
        ref = play_deal(99, start + j, rules, policies=ref_pol)
        for s in range(p):
            assert int(res[f"score_{s}"][j]) == ref.scores[s], (rules, start + j, s)
            if not ref.thrown_in:
                assert ref.scores[s] == score(ref.contracts[s], ref.tricks[s], ref.over, rules)
