"""The readable reference engine: the executable form of RULES.md (not the fast path).

* :class:`DealState` (:mod:`.state`): one deal by phases, its legal actions, ``apply``;
* policies (:mod:`.policies`): ``random`` and ``heuristic`` exactly as docs/ENGINE.md §4-5;
* :func:`play_deal` / :class:`DealTrace` (:mod:`.play`): one deal from ``(seed, deal)``;
* :func:`play_game` / :class:`GameResult` (:mod:`.game`): deals to the target score (RULES §7);
* :mod:`.record`: JSON game records (RULES §10) and :func:`replay_record`;
* :mod:`.text`: readable renderings of traces and replay results.
"""

from .game import GameResult, play_game
from .play import DealTrace, play_deal
from .policies import Policy, get_policy
from .record import ReplayResult, record_from_trace, replay_record
from .state import DealState, IllegalAction

__all__ = [
    "DealState",
    "DealTrace",
    "GameResult",
    "IllegalAction",
    "Policy",
    "ReplayResult",
    "get_policy",
    "play_deal",
    "play_game",
    "record_from_trace",
    "replay_record",
]
