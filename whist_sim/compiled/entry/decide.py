"""One decision at a time: the compiled strategies as bots of a table (``whist-sim play``).

A :class:`KernelSeats` mirrors one deal in the loop's state arrays and answers, for the seat to
act, what its bidding strategy or play policy decides (:meth:`KernelSeats.decide`); every action
taken at the table, by a bot or a person, is applied to the mirror with the loop's own
transitions (:meth:`KernelSeats.apply`). So any strategy of the registry can sit at a table that
the reference engine (:class:`whist_sim.engine.table.Table`) judges, and the bots' random draws
come from the deal's stream exactly as in a simulated deal.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.rules import Rules
from ..ground._numba import jit
from ..ground.layout import (
    H_DEALT,
    H_HAND,
    PH_AUCTION,
    PH_CONTRACTS,
    PH_FRISCH,
    PH_PLAY,
    PH_SCORE,
    S_LOOP_TABLE,
    S_PHASE,
    S_REMOVED,
    S_TURN,
    new_state,
    rules_array,
)
from ..loop.phases import (
    apply_call,
    apply_card,
    apply_contract,
    apply_frisch,
    begin_deal,
    legal_calls,
    score,
)
from ..strategies.dispatch import BASE, FULL, loop_mode
from ..strategies.seating import Seating
from .deal import decide_once, loop_address


@jit
def _apply(st, hm, rp, value):
    """Apply the (legal) action ``value`` of the seat to act with the loop's transitions."""
    seat = st[S_TURN]
    phase = st[S_PHASE]
    if phase == PH_AUCTION:
        legal_calls(st, rp, seat)
        apply_call(st, hm, rp, seat, value)
    elif phase == PH_FRISCH:
        apply_frisch(st, hm, rp, seat, np.uint64(value))
    elif phase == PH_CONTRACTS:
        apply_contract(st, rp, seat, value)
    elif phase == PH_PLAY:
        apply_card(st, hm, rp, seat, value)
    if st[S_PHASE] == PH_SCORE:
        score(st, rp)


class KernelSeats:
    """The compiled strategies of every seat, mirroring one deal (see the module doc).

    ``bids`` / ``plays``: a bidding strategy and a play policy spec by seat (text or specs);
    ``dealt``: the hands as dealt by seat (masks); ``rng_state``: the deal's random stream after
    the shuffle (``DealRng.state``); ``removed_card``: the one_random deck's removed card or -1.
    """

    def __init__(self, rules: Rules, bids: Sequence, plays: Sequence, dealer: int,
                 dealt: Sequence[int], rng_state: int, removed_card: int = -1,
                 deal: int = 0) -> None:
        p = rules.players
        self.pol, self.par = Seating.of(bids, plays, p).arrays()
        self.mode = loop_mode(self.pol)  # FULL when a seat searches
        self.rp = rules_array(rules)
        self.st, self.hm, self.rng = new_state()
        begin_deal(self.st, self.hm, self.rp, deal, dealer)
        for s in range(p):
            self.hm[H_DEALT + s] = np.uint64(dealt[s])
            self.hm[H_HAND + s] = np.uint64(dealt[s])
        self.st[S_REMOVED] = removed_card
        self.rng[0] = np.uint64(rng_state)
        if self.mode is FULL:  # the searches seated, and the loop they play their rollouts in
            self.st[S_LOOP_TABLE] = loop_address(FULL, self.pol)

    def decide(self) -> int:
        """What the strategy of the seat to act decides now (a call code, a Frisch mask, a
        contract or a card code; see :mod:`whist_sim.engine.state`)."""
        return int(decide_once(BASE, self.st, self.hm, self.rp, self.pol, self.par,
                           self.rng))

    def peek(self) -> int:
        """:meth:`decide` without using up the stream's draws (for hints)."""
        saved = self.rng[0]
        try:
            return self.decide()
        finally:
            self.rng[0] = saved

    def apply(self, action: int) -> None:
        """Mirror an action taken at the table (it must be legal: the table checks it first)."""
        _apply(self.st, self.hm, self.rp, np.int64(action))

    @property
    def rng_state(self) -> int:
        return int(self.rng[0])


__all__ = ["KernelSeats"]
