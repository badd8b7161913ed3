"""The registry of policies (:mod:`whist_sim.core.registry`), with the compiled functions its
entries name.

Both engines read one registry, on the ground floor (``whist_sim/core/registry.py``): names,
ids, descriptions, parameters, and where each policy's compiled decision functions are
(:class:`~whist_sim.core.registry.Decisions`, ``module:function`` under this package). Every
name of it is importable from here too. :func:`decision_function` is the compiled function an
entry names; the dispatch of the deal loop is generated from the same names
(:mod:`.generate`, ``make dispatch``).
"""

from __future__ import annotations

import importlib
from typing import Any

from ...core.registry import (
    BID,
    BID_AGGRESSIVE,
    BID_CAUTIOUS,
    BID_HCP,
    BID_HEURISTIC,
    BID_LEARNED,
    BID_LTC,
    BID_MONTECARLO,
    BID_POLICIES,
    BID_RANDOM,
    DECISIONS,
    DEFAULT_BID,
    DEFAULT_PLAY,
    FIRST_SEARCH_WORD,
    N_PARAMS,
    NT_PARAMS,
    PLAY,
    PLAY_EXPERT,
    PLAY_HEURISTIC,
    PLAY_LEARNED,
    PLAY_PLANNER,
    PLAY_POLICIES,
    PLAY_RANDOM,
    PLAY_ROLLOUT,
    POLICY_PARAMS,
    SEARCHING_BID,
    SEARCHING_PLAY,
    Decisions,
    Param,
    PolicyError,
    PolicyInfo,
    by_id,
    check_entries,
    describe,
    get_info,
    policy_names,
    registry_key,
    search_words,
    searching,
    seat_ids,
    seat_params,
)


def decision_function(info: PolicyInfo, decision: str) -> Any:
    """The compiled function (a numba dispatcher) that ``info`` names for ``decision``
    (``"call"``, ``"frisch"``, ``"contract"`` or ``"card"``), imported from its module under
    ``whist_sim.compiled.strategies``; :class:`~whist_sim.core.registry.PolicyError` naming the
    entry when it names none, or a module or function that does not exist."""
    name = info.decide.named(decision)
    where = f"{info.kind} policy {info.name!r}"
    if name is None:
        raise PolicyError(f"{where} has no compiled {decision} function")
    module, _, func = name.partition(":")
    try:
        found = getattr(importlib.import_module(f"{__package__}.{module}"), func)
    except (ImportError, AttributeError) as err:
        raise PolicyError(f"{where}: its {decision} function {name!r} is not there ({err})") \
            from None
    if not callable(found):
        raise PolicyError(f"{where}: its {decision} function {name!r} is not a function")
    return found


__all__ = [
    "BID",
    "BID_AGGRESSIVE",
    "BID_CAUTIOUS",
    "BID_HCP",
    "BID_HEURISTIC",
    "BID_LEARNED",
    "BID_LTC",
    "BID_MONTECARLO",
    "BID_POLICIES",
    "BID_RANDOM",
    "DECISIONS",
    "DEFAULT_BID",
    "DEFAULT_PLAY",
    "Decisions",
    "FIRST_SEARCH_WORD",
    "NT_PARAMS",
    "N_PARAMS",
    "PLAY",
    "PLAY_EXPERT",
    "PLAY_HEURISTIC",
    "PLAY_LEARNED",
    "PLAY_PLANNER",
    "PLAY_POLICIES",
    "PLAY_RANDOM",
    "PLAY_ROLLOUT",
    "POLICY_PARAMS",
    "Param",
    "PolicyError",
    "PolicyInfo",
    "SEARCHING_BID",
    "SEARCHING_PLAY",
    "by_id",
    "check_entries",
    "decision_function",
    "describe",
    "get_info",
    "policy_names",
    "registry_key",
    "search_words",
    "searching",
    "seat_ids",
    "seat_params",
]
