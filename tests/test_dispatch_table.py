"""Every registered policy id reaches its own code: the compiled decision points switch on the
ids (``whist_sim/compiled/strategies/dispatch.py`` for the strategies that do not search,
``whist_sim/compiled/entry/deal.py`` for those that do), and an id they do not list would play
``random``, the fall-through, without a word. This test reads their source and fails for a
registered id that no decision point names, or a searching id the full loop does not know."""

from __future__ import annotations

import ast
import inspect

import pytest

from whist_sim.compiled.entry import deal
from whist_sim.compiled.strategies import dispatch, registry
from whist_sim.compiled.strategies.registry import (
    BID_POLICIES,
    BID_RANDOM,
    PLAY_POLICIES,
    PLAY_RANDOM,
    SEARCHING_BIDS,
    SEARCHING_PLAYS,
)


def named_ids(func) -> set[int]:
    """The policy ids a function compares with (``pid == BID_HCP``, ``pol[0, s] == ...``):
    the values of the registry constants it names in comparisons."""
    tree = ast.parse(inspect.getsource(func).lstrip())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Name) and side.id.startswith(("BID_", "PLAY_")):
                    out.add(getattr(registry, side.id))
    return out


def full_point(name: str):
    """The full loop's overload of decision point ``name`` (compiled/entry/deal.py)."""
    return getattr(deal, f"_full_{name}")


BIDS = {i.id for i in BID_POLICIES.values()}
PLAYS = {i.id for i in PLAY_POLICIES.values()}


def test_ids_are_unique_and_random_is_the_fall_through():
    assert len(BIDS) == len(BID_POLICIES) and len(PLAYS) == len(PLAY_POLICIES)
    for func in (dispatch.base_call, dispatch.base_contract, dispatch.base_frisch):
        assert BID_RANDOM not in named_ids(func)
    assert PLAY_RANDOM not in named_ids(dispatch.base_card)


@pytest.mark.parametrize("base, full", [("base_call", "choose_call"),
                                        ("base_contract", "choose_contract")])
def test_every_bidding_strategy_has_its_call_and_contract(base, full):
    listed = named_ids(getattr(dispatch, base))
    searched = named_ids(full_point(full))
    assert searched == set(SEARCHING_BIDS)
    missing = BIDS - {BID_RANDOM} - listed - searched
    assert not missing, f"{base}: ids {sorted(missing)} would play random"


def test_every_bidding_strategy_but_random_passes_its_own_frisch_cards():
    missing = BIDS - {BID_RANDOM} - named_ids(dispatch.base_frisch)
    assert not missing, f"base_frisch: ids {sorted(missing)} would pass random cards"


def test_every_play_policy_has_its_card():
    listed = named_ids(dispatch.base_card)
    searched = named_ids(full_point("choose_card"))
    assert searched == set(SEARCHING_PLAYS)
    missing = PLAYS - {PLAY_RANDOM} - listed - searched
    assert not missing, f"base_card: ids {sorted(missing)} would play random"


def test_the_full_loop_hands_a_deal_to_the_base_loop_only_without_a_searching_seat():
    assert named_ids(full_point("in_base_loop")) == set(SEARCHING_BIDS) | set(SEARCHING_PLAYS)
