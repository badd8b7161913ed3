"""A game of Israeli Whist: deals with the dealer rotating until the target score (RULES §7).

Game deal ``g`` (0-based) is dealt by ``(first_dealer + g) % P`` and uses the random stream
``(seed, g)`` (docs/ENGINE.md §3); thrown-in deals count as deals and pass the deal on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.rules import Rules
from .play import DealTrace, play_deal, resolve_policies

_DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class GameResult:
    """The deals of one game and its outcome. Points are game points (RULES §6)."""

    seed: int
    rules: Rules
    first_dealer: int
    traces: tuple[DealTrace, ...]  # every deal in order, thrown-in deals included
    totals: tuple[int, ...]  # final total score by seat
    winners: tuple[int, ...]  # seats that won (RULES §7); () if max_deals ran out first
    finished: bool  # True when some player reached the target

    @property
    def n_deals(self) -> int:
        return len(self.traces)


def game_winners(totals: Sequence[int], reached: Sequence[int]) -> tuple[int, ...]:
    """RULES §7: among the seats that reached the target on the same deal, the highest total
    wins; equal highest totals share the win."""
    if not reached:
        return ()
    top = max(totals[s] for s in reached)
    return tuple(s for s in sorted(reached) if totals[s] == top)


def play_game(
    seed: int,
    rules: Rules = _DEFAULT_RULES,
    policies: Sequence[str | Callable] | None = None,
    first_dealer: int = 0,
    max_deals: int = 1000,
) -> GameResult:
    """Play deals until one or more players reach ``rules.target`` (RULES §7).

    ``policies``: one per seat (name or callable), default every seat random. The game stops at
    the first deal after which some total is ``>= rules.target``; it also stops, unfinished and
    without winners, after ``max_deals`` deals.
    """
    p = rules.players
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not (
        0 <= first_dealer < p
    ):
        raise ValueError(f"first_dealer must be a seat in 0..{p - 1}, got {first_dealer!r}")
    if isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals < 1:
        raise ValueError(f"max_deals must be a whole number >= 1, got {max_deals!r}")
    seat_policies = resolve_policies(policies, p)
    totals = [0] * p
    traces: list[DealTrace] = []
    winners: tuple[int, ...] = ()
    for g in range(max_deals):
        trace = play_deal(seed, g, rules, dealer=(first_dealer + g) % p, policies=seat_policies)
        traces.append(trace)
        for s in range(p):
            totals[s] += trace.scores[s]
        reached = [s for s in range(p) if totals[s] >= rules.target]
        if reached:
            winners = game_winners(totals, reached)
            break
    return GameResult(
        seed=seed,
        rules=rules,
        first_dealer=first_dealer,
        traces=tuple(traces),
        totals=tuple(totals),
        winners=winners,
        finished=bool(winners),
    )


__all__ = ["GameResult", "game_winners", "play_game"]
