"""The seats of a table as one value: a bidding strategy and a play policy per seat, parsed once.

A :class:`Seating` is built at the edge (a command's options, a function's arguments) from spec
texts or specs, and every layer below takes it as it is: :attr:`Seating.text` is what manifests
and reports record (``BID/PLAY`` per seat), :meth:`Seating.arrays` what the kernels read (policy
ids and parameter rows). It is frozen and picklable, so a chunk task carries it to a worker
unchanged; nothing parses a seat twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..ground.layout import N_PARAMS
from .registry import BID, PLAY, seat_ids, seat_params
from .spec import PlaySpec, StrategySpec, parse_play, parse_strategy, seat_text


@dataclass(frozen=True)
class Seating:
    """A bidding strategy (``bid[s]``) and a play policy (``play[s]``) for every seat ``s``
    (0..players-1, clockwise), each checked against the registry."""

    bid: tuple[StrategySpec, ...]
    play: tuple[PlaySpec, ...]

    @classmethod
    def of(cls, bid: Seating | Sequence[str | StrategySpec], play: Sequence[Any] | None = None,
           players: int | None = None) -> Seating:
        """The seating of per-seat specs or spec texts ``bid`` and ``play`` (a :class:`Seating`
        as ``bid`` is returned as it is). ``players``: the seats the table has; the counts are
        checked against it. Raises :class:`~whist_sim.compiled.strategies.registry.PolicyError` (a
        ``ValueError``) naming the problem."""
        if isinstance(bid, Seating):
            if play is not None:
                raise TypeError("give a Seating alone, without play policies")
            if players is not None:
                seat_ids(bid.bid_names, BID, players)
            return bid
        if play is None:
            raise TypeError("give the play policies by seat with the bidding strategies")
        n = players if players is not None else (0 if isinstance(bid, str) else len(bid))
        seat_ids(_names(bid), BID, n)  # the count and the names, checked first
        seat_ids(_names(play), PLAY, n)
        return cls(tuple(parse_strategy(b) for b in bid), tuple(parse_play(q) for q in play))

    @property
    def bid_names(self) -> tuple[str, ...]:
        """The bidding strategies' names by seat."""
        return tuple(b.name for b in self.bid)

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.bid)

    @property
    def text(self) -> tuple[str, ...]:
        """``BID/PLAY`` by seat, canonical spec texts."""
        return tuple(seat_text(b, q) for b, q in zip(self.bid, self.play, strict=True))

    @property
    def bid_text(self) -> tuple[str, ...]:
        """The bidding strategies' canonical spec texts by seat."""
        return tuple(b.text for b in self.bid)

    @property
    def play_text(self) -> tuple[str, ...]:
        """The play policies' canonical spec texts by seat."""
        return tuple(q.text for q in self.play)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(pol, par)`` for the kernels: policy ids ``int64[2, P]`` and parameter rows
        ``float64[2, P, N_PARAMS]`` (row 0 bidding, row 1 play; each seat's defaults, then its
        spec's values, in the registry's parameter order)."""
        p = self.players
        pol = np.empty((2, p), dtype=np.int64)
        pol[0] = [b.info.id for b in self.bid]
        pol[1] = [q.info.id for q in self.play]
        par = np.zeros((2, p, N_PARAMS), dtype=np.float64)
        par[0] = seat_params([b.name for b in self.bid], BID, [b.overrides() for b in self.bid])
        par[1] = seat_params([q.name for q in self.play], PLAY,
                             [q.overrides() for q in self.play])
        return pol, par

    def mode(self, audited: bool = False) -> Any:
        """The loop mode of the seating
        (:func:`whist_sim.compiled.strategies.dispatch.loop_mode`: ``BASE`` when no seat
        searches)."""
        from .dispatch import loop_mode

        ids = [[b.info.id for b in self.bid], [q.info.id for q in self.play]]
        return loop_mode(np.array(ids, dtype=np.int64), audited)

    def __str__(self) -> str:
        return ",".join(self.text)


def _names(specs: Any) -> Any:
    """The policy names of per-seat specs or spec texts (a string is passed on, for
    :func:`~whist_sim.compiled.strategies.registry.seat_ids` to refuse)."""
    if isinstance(specs, str):
        return specs
    return [s.name if isinstance(s, StrategySpec) else
            s.split(":")[0].strip() if isinstance(s, str) else s for s in specs]


__all__ = ["Seating"]
