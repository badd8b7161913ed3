"""Play one whole deal with policies: :func:`play_deal` and its :class:`DealTrace`.

This is docs/ENGINE.md §3 in readable form: deal ``(seed, deal)`` uses the random stream
``DealRng(seed, deal)`` for the shuffle and then for every random decision of every seat, in the
order the decisions happen. The compiled engine must produce the same trace move for move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.rng import DealRng
from ..core.rules import MAX_REDEALS, Rules
from .policies import Policy, get_policy
from .state import DealState, IllegalAction

_DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class DealTrace:
    """Everything that happened in one deal, move by move (interface (A) of the project).

    Seats are ``0..P-1`` clockwise; hands are card bitmasks; calls are call codes
    (``0`` = pass, bid = ``5 * n + strain``); strains 0..3 = C, D, H, S and 4 = NT.
    """

    seed: int
    deal: int
    dealer: int
    rules: Rules
    dealt: tuple[int, ...]  # hand masks by seat as dealt (before Frisch)
    removed_card: int  # the card removed by the one_random deck, else -1
    frisch: tuple[tuple[int, ...], ...]  # one entry per Frisch: the 3-card masks passed, by seat
    calls: tuple[int, ...]  # every auction call code across all rounds, in order
    thrown_in: bool
    declarer: int  # -1 if thrown in
    trump: int  # 0..3 suits, 4 NT; -1 if thrown in
    level: int  # auction level of the winning bid; 0 if thrown in
    hands: tuple[int, ...]  # hand masks by seat at the start of play (after Frisch)
    contracts: tuple[int, ...]  # by seat; () if thrown in
    plays: tuple[int, ...]  # card codes in the order played
    tricks: tuple[int, ...]  # tricks taken by seat; all 0 if thrown in
    scores: tuple[int, ...]  # points by seat (RULES §6); all 0 if thrown in
    over: bool  # contracts sum to more than the tricks; False if thrown in
    redeals: int = 0  # times the deal was cancelled after the third Frisch and dealt again
    #   (after_third_frisch=redeal); every other field is the last dealing's

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def frisch_count(self) -> int:
        return len(self.frisch)

    @property
    def bid_sum(self) -> int:
        """Sum of the contracts, -1 if thrown in."""
        return sum(self.contracts) if self.contracts else -1


def resolve_policies(
    policies: Sequence[str | Callable] | str | Callable | None, players: int
) -> list[Policy]:
    """One policy per seat from names/callables; a single name or callable serves every seat."""
    if policies is None:
        policies = ("random",) * players
    elif isinstance(policies, str) or callable(policies):
        policies = (policies,) * players
    policies = list(policies)
    if len(policies) != players:
        raise ValueError(f"{len(policies)} policies given, one per seat is needed ({players})")
    return [get_policy(p) for p in policies]


def run_deal(state: DealState, policies: Sequence[Policy], rng: DealRng) -> DealState:
    """Let ``policies`` (one per seat) play ``state`` to its end, drawing from ``rng``.

    A policy that returns an illegal action raises :class:`IllegalAction` naming the seat.
    """
    while not state.is_over:
        seat = state.to_move
        action = policies[seat](state, rng)
        try:
            state.apply(action)
        except IllegalAction as e:
            raise IllegalAction(f"policy of seat {seat} chose an illegal action: {e}") from None
    return state


def trace_of(
    state: DealState, seed: int = -1, deal: int = -1, redeals: int = 0
) -> DealTrace:
    """The :class:`DealTrace` of a finished :class:`DealState` (``redeals``: how often the deal
    was dealt again before it, ``after_third_frisch=redeal``)."""
    if not state.is_over:
        raise ValueError(f"the deal is not over (phase {state.phase!r})")
    thrown = state.phase == "thrown_in"
    p = state.players
    return DealTrace(
        seed=seed,
        deal=deal,
        dealer=state.dealer,
        rules=state.rules,
        dealt=state.dealt,
        removed_card=state.removed_card,
        frisch=tuple(state.frisch),
        calls=tuple(state.calls),
        thrown_in=thrown,
        declarer=state.declarer,
        trump=state.trump,
        level=state.level,
        hands=hands_at_start_of_play(state),
        contracts=() if thrown else tuple(state.contracts),  # type: ignore[arg-type]
        plays=tuple(state.plays),
        tricks=(0,) * p if thrown else tuple(state.tricks_taken),
        scores=tuple(state.scores),
        over=False if thrown else state.over,
        redeals=redeals,
    )


def hands_at_start_of_play(state: DealState) -> tuple[int, ...]:
    """Hands by seat after the last Frisch (the dealt hands with every Frisch exchange applied)."""
    hands = list(state.dealt)
    p = state.players
    for f, passed in enumerate(state.frisch):
        offset = state.rules.direction_offset(f)
        hands = [(hands[s] & ~passed[s]) | passed[(s - offset) % p] for s in range(p)]
    return tuple(hands)


def play_deal(
    seed: int,
    deal: int,
    rules: Rules = _DEFAULT_RULES,
    dealer: int | None = None,
    policies: Sequence[str | Callable] | None = None,
) -> DealTrace:
    """Play deal number ``deal`` of a run seeded with ``seed`` (docs/ENGINE.md §3).

    ``dealer`` defaults to ``deal % rules.players``; ``policies`` holds one policy per seat, a name
    (``'random'``, ``'heuristic'``) or a callable ``policy(state, rng) -> action``; default: every
    seat random. The shuffle and all random decisions come from ``DealRng(seed, deal)``. With
    ``after_third_frisch=redeal`` a deal thrown in after the third Frisch is dealt again by the
    same dealer from the same stream (at most ``MAX_REDEALS`` times), and the trace is the last
    dealing's with ``redeals`` counting the others.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, got {type(rules).__name__}")
    if dealer is None:
        if isinstance(deal, bool) or not isinstance(deal, int) or deal < 0:
            raise ValueError(f"deal index must be a whole number >= 0, got {deal!r}")
        dealer = deal % rules.players
    seat_policies = resolve_policies(policies, rules.players)
    rng = DealRng(seed, deal)
    state = DealState.deal(rules, rng, dealer)
    run_deal(state, seat_policies, rng)
    redeals = 0
    while state.redeal_due and redeals < MAX_REDEALS:
        # after_third_frisch=redeal (RULES §3): the same dealer deals again, the stream goes on
        redeals += 1
        state = DealState.deal(rules, rng, dealer)
        run_deal(state, seat_policies, rng)
    return trace_of(state, seed, deal, redeals)


__all__ = [
    "DealTrace",
    "hands_at_start_of_play",
    "play_deal",
    "resolve_policies",
    "run_deal",
    "trace_of",
]
