"""One naming of policies for both engines: the registry on the ground floor
(``whist_sim/core/registry.py``) names every policy, describes it and says which function of the
readable engine is its twin; the compiled engine and the reference engine read it, and neither
writes a name or a description of its own."""

from __future__ import annotations

import subprocess
import sys

import pytest

from whist_sim.compiled.strategies import registry as compiled_registry
from whist_sim.compiled.strategies import spec as compiled_spec
from whist_sim.core import registry, spec
from whist_sim.engine import policies, seats


def test_the_compiled_names_are_the_ground_floors():
    """The compiled side's registry and spec parser are the ground floor's, under their older
    names: the same objects, not copies."""
    for name in registry.__all__:
        assert getattr(compiled_registry, name) is getattr(registry, name), name
    for name in spec.__all__:
        assert getattr(compiled_spec, name) is getattr(spec, name), name


def test_the_reference_policies_are_the_entries_with_a_twin():
    twins = {info.name: info.reference
             for reg in (registry.BID_POLICIES, registry.PLAY_POLICIES)
             for info in reg.values() if info.reference is not None}
    assert set(policies.POLICIES) == set(twins)
    for name, func in policies.POLICIES.items():
        assert func.__name__ == twins[name]


def test_a_name_of_both_kinds_has_one_reference_policy():
    for name in set(registry.BID_POLICIES) & set(registry.PLAY_POLICIES):
        bid, play = registry.BID_POLICIES[name], registry.PLAY_POLICIES[name]
        if bid.reference and play.reference:
            assert bid.reference == play.reference


def test_the_descriptions_are_the_registrys():
    """docs/ENGINE.md §4-8: the reference engine's descriptions are the registry's texts of the
    policy's bidding and play, not words of their own."""
    for name, text in policies.DESCRIPTIONS.items():
        play = registry.PLAY_POLICIES[name]
        assert play.description in text
        bid = registry.BID_POLICIES.get(name)
        bidding = bid if bid is not None and bid.reference else \
            registry.BID_POLICIES[policies.PLAY_ONLY_BIDDING]
        assert bidding.description in text


def test_a_policy_only_the_compiled_engine_has_is_refused_by_the_reference_engine():
    with pytest.raises(seats.SeatError, match="rollout.*compiled engine plays it"):
        seats.seat_policy("heuristic", "rollout")


def test_the_reference_engine_loads_the_registry_without_the_compiled_engine():
    code = ("import sys, whist_sim.engine.policies, whist_sim.core.spec; "
            "sys.exit('numba' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
