"""Each parameter of a policy is declared once, on its registry entry (``Param``: default, legal
values, help); the spec parser checks every value against that declaration, and the limits table
(``PARAM_LIMITS``) and the policy-valued parameters (``POLICY_PARAMS``) are read from it."""

from __future__ import annotations

import math

import pytest

from whist_sim.compiled.strategies.registry import (
    BID,
    BID_POLICIES,
    PLAY,
    PLAY_POLICIES,
    POLICY_PARAMS,
    SEARCHING_PLAY,
    Param,
)
from whist_sim.compiled.strategies.spec import (
    PARAM_LIMITS,
    PLAY_PARAM_LIMITS,
    StrategyError,
    parse_play,
    parse_strategy,
    play_table,
    strategy_table,
)

PARAMS = [(kind, info.name, p) for kind, reg in ((BID, BID_POLICIES), (PLAY, PLAY_POLICIES))
          for info in reg.values() for p in info.params]
PARSE = {BID: parse_strategy, PLAY: parse_play}


def _id(x):
    return f"{x[1]}.{x[2].name}" if isinstance(x, tuple) else None


@pytest.mark.parametrize("entry", PARAMS, ids=_id)
def test_every_parameter_declares_a_help_line_and_a_legal_default(entry):
    kind, name, p = entry
    assert isinstance(p, Param) and p.help and "\n" not in p.help
    lo, hi = p.bounds()
    assert lo <= p.default <= hi and math.isfinite(p.default)
    if p.whole:
        assert float(p.default).is_integer()
    spec = PARSE[kind](name)
    assert spec.values()[p.name] == p.default


@pytest.mark.parametrize("entry", [e for e in PARAMS if e[2].bounded], ids=_id)
def test_a_value_just_past_a_declared_bound_is_refused_by_name(entry):
    kind, name, p = entry
    lo, hi = p.bounds()
    limits = PARAM_LIMITS if kind == BID else PLAY_PARAM_LIMITS
    assert limits[(name, p.name)] == (lo, hi, p.whole)
    step = 1 if p.whole else 1e-6
    for bad in (lo - step, hi + step):
        if not math.isfinite(bad):
            continue
        with pytest.raises(StrategyError, match=rf"{name}: {p.name} must be in"):
            PARSE[kind](f"{name}:{p.name}={bad:g}" if p.whole else f"{name}:{p.name}={bad!r}")
    if p.whole and hi > lo:
        with pytest.raises(StrategyError, match="whole number"):
            PARSE[kind](f"{name}:{p.name}={lo + 0.5}")


@pytest.mark.parametrize("entry", [e for e in PARAMS if e[2].names is not None], ids=_id)
def test_a_policy_valued_parameter_takes_the_names_of_its_kind(entry):
    kind, name, p = entry
    assert POLICY_PARAMS[(name, p.name)] == (p.names, p.word)
    reg = BID_POLICIES if p.names == BID else PLAY_POLICIES
    for other in reg.values():
        text = f"{name}:{p.name}={other.name}"
        if p.names == PLAY and other.name in SEARCHING_PLAY:
            with pytest.raises(StrategyError, match="does not search"):
                PARSE[kind](text)
        else:
            spec = PARSE[kind](text)
            assert spec.values()[p.name] == other.id and spec.value_text(p.name) == other.name
    if p.word is not None:
        assert PARSE[kind](f"{name}:{p.name}={p.word}").values()[p.name] == -1


def test_the_tables_list_every_parameter_with_its_default():
    for rows, reg in ((strategy_table(), BID_POLICIES), (play_table(), PLAY_POLICIES)):
        for row in rows:
            assert row["params"] == {p.name: p.default for p in reg[row["name"]].params}
