"""Reading the table, in readable Python: the twin of :mod:`whist_sim.compiled.search.inference`.

A searching seat weighs a sampled layout of the hidden hands by how well it explains what the
others said: every auction call and every contract made so far is compared with what a *model*
bidding strategy would have said with the layout's hand at that moment, and the layout's
likelihood is ``eps ** k``, ``k`` the calls the model would have made otherwise plus the
tricks by which each contract differs from the model's (docs/STRATEGIES.md, "Reading the
table"). This module states the count plainly on the reference engine; the compiled count is
tested equal to it.

The hand a seat held at a decision, given its hand now in the layout (``now[o]``):

* from the contracts on: the hand now plus the cards the seat has played (public);
* in an auction round before Frisch ``f``: the later hand with the exchanges the searching seat
  saw undone (what it received from the seat goes back, what it passed to the seat leaves);
  exchanges between two other seats are not undone (they are unseen).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .policies import heuristic_call, heuristic_contract
from .state import DealState

#: a model decision: the call or contract the model makes for ``state.to_move``
Model = Callable[[DealState], int]


class _View:
    """The deal as it stands, except that seat hands are read from ``hands``."""

    def __init__(self, state: DealState, hands: Sequence[int]) -> None:
        self._state = state
        self._hands = hands

    def hand(self, seat: int) -> int:
        return self._hands[seat]

    def __getattr__(self, name: str):  # everything else: the real deal's public state
        return getattr(self._state, name)


def played_by(state: DealState, seat: int) -> int:
    """The cards ``seat`` has played so far (a mask)."""
    mask = 0
    for _, trick in state.completed_tricks:
        for s, card in trick:
            if s == seat:
                mask |= 1 << card
    for s, card in state.current_trick:
        if s == seat:
            mask |= 1 << card
    return mask


def hands_in_round(state: DealState, seat: int, now: Sequence[int], r: int) -> list[int]:
    """Each seat's hand in auction round ``r`` (before Frisch ``r``), as ``seat`` reconstructs it
    from the hands ``now`` after the last Frisch (see the module doc)."""
    rules = state.rules
    p = rules.players
    passes = state.frisch
    out = []
    for o in range(p):
        h = now[o]
        for f in range(len(passes) - 1, r - 1, -1):
            off = rules.direction_offset(f)
            if (seat + off) % p == o:
                h &= ~passes[f][seat]
            if (o + off) % p == seat:
                h |= passes[f][o]
        out.append(h)
    return out


def mismatches(
    state: DealState,
    seat: int,
    layout: Sequence[int],
    call_model: Model = heuristic_call,
    contract_model: Model = heuristic_contract,
) -> int:
    """How far the other seats' calls and contracts so far are from the model's had the hands
    now been ``layout`` (one per call the model would have made otherwise, plus the tricks by
    which each contract differs from the model's) (``layout[o]``: seat ``o``'s hand now; the
    entry of ``seat`` itself is ignored: its own hand is known).

    The deal's record is replayed from its first call on a copy dealt like ``state`` (legality
    does not depend on the hands), asking the model before every decision of another seat.
    """
    p = state.players
    in_play = state.phase in ("play", "scored")
    now = []
    for o in range(p):
        h = state.hand(o) if o == seat else layout[o]
        if in_play:
            h |= played_by(state, o)
        now.append(h)
    replay = DealState(state.rules, state.dealer, state.dealt, state.removed_card)
    rnd = 0
    hands = hands_in_round(state, seat, now, rnd)
    k = 0
    for call in state.calls:
        who = replay.to_move
        if who != seat and call_model(_View(replay, hands)) != call:  # type: ignore[arg-type]
            k += 1
        replay.apply(call)
        if replay.phase == "frisch":
            for _ in range(p):
                replay.apply(state.frisch[rnd][replay.to_move])
            rnd += 1
            hands = hands_in_round(state, seat, now, rnd)
    if replay.phase != "contracts":
        return k
    for who in state.contract_order:
        c = state.contracts[who]
        if c is None:
            break
        if who != seat:
            k += abs(contract_model(_View(replay, hands)) - c)  # type: ignore[arg-type]
        replay.apply(c)
    return k
