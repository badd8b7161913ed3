"""Decisions: bidding strategies (calls, Frisch passes, contracts) and play policies (cards).

* :mod:`.registry` - the one registry (:mod:`whist_sim.core.registry`, which both engines read:
  names, stable integer ids, descriptions, parameters, decision functions), with the compiled
  function each entry names (:func:`~.registry.decision_function`);
* :mod:`.spec` - the one spec parser (:mod:`whist_sim.core.spec`): ``name`` or
  ``name:key=value[:key=value...]``;
* :mod:`.bidding` - the compiled bidding strategies (``random``, ``heuristic``, ``hcp``, ``ltc``,
  ``cautious``, ``aggressive``; ``montecarlo`` searches, so it sits above the deal loop);
* :mod:`.play` - the compiled play policies (``random``, ``heuristic``, ``expert``, ``planner``,
  ``learned``; ``rollout`` searches); :data:`DEFAULT_PLAY` is the play of a seat whose play is
  not named;
* :mod:`.decisions` - the dispatch, switching on the ids, generated from the registry by
  :mod:`.generate` (``make dispatch``);
* :mod:`.dispatch` - the decision points of the deal loop, which ask the dispatch.

The registry and the spec parser import no numba, so command-line help stays fast; the kernels
load with the deal loop. docs/CONTRIBUTING.md says how to add a strategy, docs/STRATEGIES.md
describes every one.
"""

from .registry import (
    BID,
    BID_POLICIES,
    DEFAULT_PLAY,
    PLAY,
    PLAY_POLICIES,
    PolicyError,
    PolicyInfo,
    describe,
    get_info,
    policy_names,
    seat_ids,
    seat_params,
)
from .spec import (
    PARAM_LIMITS,
    PlaySpec,
    StrategyError,
    StrategySpec,
    check_play,
    check_spec,
    param_rows,
    parse_play,
    parse_seat,
    parse_strategy,
    play_names,
    play_param_rows,
    play_table,
    strategy_names,
    strategy_table,
)

__all__ = [
    "BID",
    "BID_POLICIES",
    "DEFAULT_PLAY",
    "PARAM_LIMITS",
    "PLAY",
    "PLAY_POLICIES",
    "PolicyError",
    "PolicyInfo",
    "PlaySpec",
    "StrategyError",
    "StrategySpec",
    "check_play",
    "check_spec",
    "describe",
    "get_info",
    "param_rows",
    "parse_play",
    "parse_seat",
    "parse_strategy",
    "play_names",
    "play_param_rows",
    "play_table",
    "policy_names",
    "seat_ids",
    "seat_params",
    "strategy_names",
    "strategy_table",
]
