"""The deal loop's dispatch is generated from the registry, and every registered id reaches its own
code: each entry of ``whist_sim/core/registry.py`` names its compiled decision functions (a
searching strategy its word of the loop table), ``whist_sim/compiled/strategies/generate.py``
writes the ``base_*`` switch from them into ``decisions.py``, and nothing is left to fall back to
another strategy's play without a word: an entry without its functions, a generated file older
than the registry, and an id with no entry are each refused before anything compiles."""

from __future__ import annotations

import ast
import dataclasses
import inspect

import numpy as np
import pytest

from whist_sim.compiled.entry import deal
from whist_sim.compiled.strategies import decisions, dispatch, generate
from whist_sim.compiled.strategies.registry import (
    BID,
    BID_POLICIES,
    DECISIONS,
    PLAY,
    PLAY_POLICIES,
    Decisions,
    PolicyError,
    decision_function,
    registry_key,
    search_words,
)
from whist_sim.core import registry as core_registry

ENTRIES = {BID: BID_POLICIES, PLAY: PLAY_POLICIES}
BASES = {"call": BID, "frisch": BID, "contract": BID, "card": PLAY}


def test_the_generated_dispatch_is_the_registrys():
    """``decisions.py`` is what the generator writes from the registry now (else: run ``make
    dispatch``), and it records the registry it was written from."""
    with open(generate.TARGET, encoding="utf-8") as f:
        assert f.read() == generate.source(), "decisions.py is stale: run make dispatch"
    assert decisions.REGISTRY_KEY == registry_key()


def branches(func) -> list[tuple[set[int], str]]:
    """``(ids tested, function called)`` of each branch of a generated ``base_*``, the last
    (untested) one with no ids."""
    tree = ast.parse(inspect.getsource(func.py_func))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            ids = {c.comparators[0].value for c in ast.walk(node.test)
                   if isinstance(c, ast.Compare)}
            out.append((ids, node.body[0].value.func.id))
    last = tree.body[0].body[-1]
    out.append((set(), last.value.func.id))
    return out


@pytest.mark.parametrize("decision", list(BASES))
def test_every_registered_id_calls_the_function_its_entry_names(decision):
    kind = BASES[decision]
    table = branches(getattr(decisions, f"base_{decision}"))
    for info in ENTRIES[kind].values():
        want = ("searched" if info.searches and decision != "frisch"
                else info.decide.named(decision).split(":")[1])
        hit = [f for ids, f in table if info.id in ids] or (
            [table[-1][1]] if info.id == 0 else [])
        assert hit == [want], f"{kind} id {info.id} ({info.name}) in base_{decision}"
    tested = set().union(*(ids for ids, _ in table))
    assert tested == {i.id for i in ENTRIES[kind].values()} - {0}


@pytest.mark.parametrize("kind", [BID, PLAY])
def test_every_named_function_exists_and_is_compiled(kind):
    for info in ENTRIES[kind].values():
        for decision in DECISIONS[kind]:
            if info.decide.named(decision) is None:
                continue
            func = decision_function(info, decision)
            assert hasattr(func, "py_func"), f"{info.name}: {decision} is not a numba function"
            params = list(inspect.signature(func.py_func).parameters)
            assert params[:4] == ["st", "hm", "rp", "seat"] and params[-2:] == ["rng", "par"]


def test_a_searching_strategy_has_a_word_of_its_own_and_a_c_function():
    """Each searching entry is reached through its own word of the loop table (after the loop's
    address and the audit switch), and that word's C function is the strategy's."""
    from whist_sim.compiled.ground.addresses import T_AUDITED, T_LOOP, TABLE_WORDS

    words = search_words()
    assert set(words) == {i.name for r in ENTRIES.values() for i in r.values() if i.searches}
    assert len(set(words.values())) == len(words)
    assert set(words.values()) <= set(range(TABLE_WORDS)) - {T_LOOP, T_AUDITED}
    assert deal._SEARCH_WORDS == words and set(words) <= set(deal._SHARED)


def entry(kind: str, name: str, **changes) -> core_registry.PolicyInfo:
    reg = ENTRIES[kind]
    return dataclasses.replace(reg[name], **changes)


def refused(monkeypatch, kind: str, name: str, info) -> str:
    """The message with which the registry refuses ``info`` in place of entry ``name`` (the
    registry as it was again afterwards)."""
    table = dict(ENTRIES[kind])
    table[name] = info
    with monkeypatch.context() as m:
        m.setitem(core_registry._REGISTRY, kind, table)
        with pytest.raises(PolicyError) as err:
            core_registry.check_entries()
    return str(err.value)


def test_an_entry_without_a_decision_function_is_refused(monkeypatch):
    no_card = entry(PLAY, "expert", decide=Decisions())
    assert "no compiled card function" in refused(monkeypatch, PLAY, "expert", no_card)
    no_frisch = entry(BID, "hcp", decide=dataclasses.replace(BID_POLICIES["hcp"].decide,
                                                             frisch=None))
    assert "no compiled frisch function" in refused(monkeypatch, BID, "hcp", no_frisch)


def test_an_entry_of_the_wrong_shape_is_refused(monkeypatch):
    card_for_a_bidder = entry(BID, "hcp", decide=dataclasses.replace(
        BID_POLICIES["hcp"].decide, card="play.expert:expert_decide_card"))
    assert "does not use" in refused(monkeypatch, BID, "hcp", card_for_a_bidder)
    same_id = entry(PLAY, "expert", id=PLAY_POLICIES["heuristic"].id)
    assert "not a free whole number" in refused(monkeypatch, PLAY, "expert", same_id)
    same_word = entry(PLAY, "rollout", decide=Decisions(word=BID_POLICIES["montecarlo"]
                                                        .decide.word))
    assert "search word" in refused(monkeypatch, PLAY, "rollout", same_word)
    no_module = entry(PLAY, "expert", decide=Decisions(card="expert_decide_card"))
    assert "'module:function'" in refused(monkeypatch, PLAY, "expert", no_module)


def test_the_generator_refuses_a_function_that_is_not_there(monkeypatch):
    table = dict(PLAY_POLICIES)
    table["expert"] = entry(PLAY, "expert", decide=Decisions(card="play.nowhere:expert_card"))
    monkeypatch.setitem(core_registry._REGISTRY, PLAY, table)
    with pytest.raises(PolicyError, match="names no module"):
        generate.source()
    with pytest.raises(PolicyError, match="is not there"):
        decision_function(table["expert"], "card")


def test_a_stale_dispatch_is_refused_before_anything_compiles():
    dispatch.check_generated(registry_key())  # the one on disk, as imported
    stale = registry_key()[:-1]  # as if an entry were added after it was generated
    with pytest.raises(PolicyError, match="decisions.py is stale: .*make dispatch"):
        dispatch.check_generated(stale)


def test_an_id_with_no_entry_never_reaches_the_loop():
    from whist_sim.compiled.strategies.dispatch import BASE, loop_mode

    unknown = max(i.id for i in BID_POLICIES.values()) + 1
    pol = np.array([[unknown, 1, 1, 1], [1, 1, 1, 1]], dtype=np.int64)
    with pytest.raises(PolicyError, match=f"no bid policy has the id {unknown}"):
        loop_mode(pol)
    with pytest.raises(PolicyError, match=f"no bid policy has the id {unknown}"):
        deal._searches_of(BASE, pol)
