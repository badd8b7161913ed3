"""Every registered policy id reaches its own code: the compiled decision points switch on the
ids (``whist_sim/compiled/strategies/dispatch.py``; a searching strategy is reached there through
its word of the loop table, and ``whist_sim/compiled/entry/deal.py`` compiles its C function),
and an id they do not list would play ``random``, the fall-through, without a word. This test
reads their source and fails for a registered id that no decision point names, or a searching id
without its word and C function."""

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


BIDS = {i.id for i in BID_POLICIES.values()}
PLAYS = {i.id for i in PLAY_POLICIES.values()}


def test_ids_are_unique_and_random_is_the_fall_through():
    assert len(BIDS) == len(BID_POLICIES) and len(PLAYS) == len(PLAY_POLICIES)
    for func in (dispatch.base_call, dispatch.base_contract, dispatch.base_frisch):
        assert BID_RANDOM not in named_ids(func)
    assert PLAY_RANDOM not in named_ids(dispatch.base_card)


@pytest.mark.parametrize("base", ["base_call", "base_contract"])
def test_every_bidding_strategy_has_its_call_and_contract(base):
    listed = named_ids(getattr(dispatch, base))
    assert set(SEARCHING_BIDS) <= listed
    missing = BIDS - {BID_RANDOM} - listed
    assert not missing, f"{base}: ids {sorted(missing)} would play random"


def test_every_bidding_strategy_but_random_passes_its_own_frisch_cards():
    missing = BIDS - {BID_RANDOM} - named_ids(dispatch.base_frisch)
    assert not missing, f"base_frisch: ids {sorted(missing)} would pass random cards"


def test_every_play_policy_has_its_card():
    listed = named_ids(dispatch.base_card)
    assert set(SEARCHING_PLAYS) <= listed
    missing = PLAYS - {PLAY_RANDOM} - listed
    assert not missing, f"base_card: ids {sorted(missing)} would play random"


def test_every_searching_strategy_has_a_word_of_its_own_and_a_c_function():
    """Each searching id is reached through its own word of the loop table (after the loop's
    address and the check switch), and that word's C function is the strategy's."""
    from whist_sim.compiled.ground.addresses import T_CHECKED, T_LOOP, TABLE_WORDS

    assert set(deal._SEARCH_OF_BID) == set(SEARCHING_BIDS)
    assert set(deal._SEARCH_OF_PLAY) == set(SEARCHING_PLAYS)
    names = {**deal._SEARCH_OF_BID, **deal._SEARCH_OF_PLAY}.values()
    words = [deal._SEARCH_WORDS[n] for n in names]
    assert len(set(words)) == len(words)
    assert set(words) <= set(range(TABLE_WORDS)) - {T_LOOP, T_CHECKED}
    for n in names:
        assert n in deal._SHARED and n in (set(registry.BID_POLICIES) | set(registry.PLAY_POLICIES))
