"""A table: one deal with a person in one seat and bots in the others (``whist-sim play``).

:class:`Table` is the library side of an interactive game, written so that a terminal (the
``play`` command) and a later web page drive the same calls:

* :attr:`Table.state` (the :class:`~whist_sim.engine.state.DealState`, which judges every move),
  :attr:`Table.waiting` (is it the person's turn?), :meth:`Table.legal` (the legal moves, as
  ``(action, text)`` pairs);
* :meth:`Table.move` (the person's move as text or an action: refused with the reason, as an
  :class:`~whist_sim.engine.state.IllegalAction`, when illegal) and :meth:`Table.run_bots` (the
  bots move until it is the person's turn or the deal is over); both return :class:`Event` s;
* :meth:`Table.hint` (what the person's own strategy would do now, and why),
  :meth:`Table.history` (the calls and tricks so far) and :meth:`Table.record` (the RULES §10
  record, which ``whist-sim replay`` accepts).

The bots are a :class:`Seats` object: anything with ``decide() -> action`` for the seat to move
and ``apply(action)`` to follow every move made at the table (the compiled strategies:
:class:`whist_sim.compiled.entry.decide.KernelSeats`; the reference policies: :class:`PolicySeats`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..core.cards import NT, STRAINS, SUIT_SYMBOLS, card_str, cards_of, suit_of
from ..core.rng import DealRng
from ..core.rules import Rules
from .play import trace_of
from .policies import Policy, est, est_q
from .record import record_from_trace
from .state import PASS, DealState, IllegalAction, call_str


class Seats(Protocol):
    """The bots of a table: the decision of the seat to move (``decide``; ``peek``: the same
    without using up random draws, for hints), and every move made (``apply``)."""

    def decide(self) -> int: ...

    def peek(self) -> int: ...

    def apply(self, action: int) -> None: ...


class PolicySeats:
    """:class:`Seats` from reference policies (``policy(state, rng) -> action``) by seat."""

    def __init__(self, state: DealState, policies: Sequence[Policy], rng: DealRng) -> None:
        self.state, self.policies, self.rng = state, list(policies), rng

    def decide(self) -> int:
        return self.policies[self.state.to_move](self.state, self.rng)

    def peek(self) -> int:
        saved = (self.rng.state, self.rng.draws)
        try:
            return self.decide()
        finally:
            self.rng.state, self.rng.draws = saved

    def apply(self, action: int) -> None:
        """Nothing to mirror: the policies read the table's own state."""


@dataclass(frozen=True)
class Event:
    """One move made at the table: ``seat``, ``phase`` it was made in, ``action``, ``text``."""

    seat: int
    phase: str
    action: int
    text: str


@dataclass(frozen=True)
class Hint:
    """What the person's strategy would do (``action``, ``text``) and why (``why``: lines)."""

    action: int
    text: str
    why: tuple[str, ...]


def card_text(card: int) -> str:
    """A card with its suit symbol: ``A♠``, ``T♥``."""
    return card_str(card)[0] + SUIT_SYMBOLS[suit_of(card)]


def hand_text(mask: int) -> str:
    """A hand by suit, highest suit first, with symbols: ``♠ A K 2  ♥ K 3  ♦ -  ♣ 8 7``."""
    parts = []
    for s in (3, 2, 1, 0):
        ranks = [card_str(c)[0] for c in reversed(cards_of(mask)) if suit_of(c) == s]
        parts.append(f"{SUIT_SYMBOLS[s]} {' '.join(ranks) or '-'}")
    return "  ".join(parts)


class Table:
    """One deal at a table (see the module doc). ``human``: the person's seat; ``bots`` decide
    for the other seats and for :meth:`hint` (the person's own seat strategy)."""

    def __init__(self, state: DealState, human: int, bots: Seats) -> None:
        if not 0 <= human < state.players:
            raise ValueError(f"seat {human} is not in 0..{state.players - 1}")
        self.state = state
        self.human = human
        self.bots = bots
        self.events: list[Event] = []

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def over(self) -> bool:
        return self.state.is_over

    @property
    def waiting(self) -> bool:
        """True when the person is to move."""
        return not self.state.is_over and self.state.to_move == self.human

    def legal(self) -> list[tuple[int, str]]:
        """The legal moves of the seat to move, ``(action, text)``, in the engine's order."""
        return [(a, self.describe(a)) for a in self.state.legal_actions()]

    def describe(self, action: int) -> str:
        """The text of ``action`` in the current phase (cards with suit symbols)."""
        phase = self.state.phase
        if phase == "play":
            return card_text(action)
        if phase == "frisch":
            return " ".join(card_text(c) for c in cards_of(action))
        if phase == "auction":
            return call_str(action)
        return str(action)

    def _do(self, action: int) -> Event:
        seat, phase = self.state.to_move, self.state.phase
        text = self.describe(action)
        self.state.apply(action)  # raises IllegalAction with the rule it breaks
        self.bots.apply(action)
        ev = Event(seat, phase, action, text)
        self.events.append(ev)
        return ev

    def move(self, action: int | str) -> Event:
        """The person's move (text as in RULES §9-10, ``'6S'``, ``'pass'``, ``'7'``, ``'AS'``,
        ``'2C 3C 4C'``, or an action code). Raises :class:`IllegalAction` (the reason) or
        :class:`~whist_sim.core.cards.NotationError` (unreadable text); nothing moves then."""
        if not self.waiting:
            raise IllegalAction("it is not your turn" if not self.over else "the deal is over")
        return self._do(self.state.parse_action(action))

    def run_bots(self) -> list[Event]:
        """Let the bots move until it is the person's turn or the deal is over."""
        out = []
        while not self.over and not self.waiting:
            out.append(self._do(self.bots.decide()))
        return out

    def hint(self) -> Hint:
        """What the person's seat strategy would do now, and why (estimates, the trick)."""
        if not self.waiting:
            raise IllegalAction("there is nothing for you to decide now")
        action = self.bots.peek()
        return Hint(action, self.describe(action), tuple(self._why(action)))

    def _why(self, action: int) -> list[str]:
        s = self.state
        hand = s.hand(self.human)
        n = s.n_tricks
        if s.phase == "auction":
            ests = ", ".join(f"{STRAINS[t]} {est(hand, t, n, s.rules)}" for t in range(NT + 1))
            lows = [f"{lv}{STRAINS[t]}" for t in range(NT + 1)
                    if (lv := s.lowest_level(t)) is not None]
            return [f"your trick estimate with each strain as trump: {ests}",
                    "the lowest legal bid in each strain: " + (", ".join(lows) or "none"),
                    "a bid is worth making when the estimate reaches its level"
                    if action != PASS else "no strain's estimate reaches its lowest legal level"]
        if s.phase == "frisch":
            return ["pass low cards from short suits: they take no tricks, and a void to come "
                    "lets you ruff"]
        if s.phase == "contracts":
            q = est_q(hand, s.trump, s.rules)
            lines = [f"your trick estimate in {STRAINS[s.trump]}: {est(hand, s.trump, n, s.rules)}"
                     f" ({q / 4:.2f} tricks before rounding)"]
            f = s.forbidden_contract()
            if f is not None:
                lines.append(f"you bid last: {f} would make the contracts sum to {n}")
            if self.human == s.declarer:
                lines.append(f"as declarer you bid at least your auction level {s.level}")
            return lines
        need = s.contracts[self.human] - s.tricks_taken[self.human]  # type: ignore[operator]
        lines = [f"you bid {s.contracts[self.human]} and have {s.tricks_taken[self.human]}: "
                 + (f"you want {need} more trick(s)" if need > 0 else "you want no more tricks")]
        if s.current_trick:
            lines.append(f"{card_text(action)} " + ("wins the trick as it stands"
                                                    if s.would_win(action) else
                                                    "does not win the trick as it stands"))
        return lines

    def history(self) -> list[str]:
        """The calls and Frisch passes so far (the person's own passes only) and every trick."""
        s = self.state
        p = s.players
        out = []
        calls = [f"{(s.first_caller + i) % p}:{call_str(c)}" for i, c in enumerate(s.calls)]
        if calls:
            out.append("calls: " + " ".join(calls))
        for f, passed in enumerate(s.frisch):
            out.append(f"Frisch {f + 1}: you passed "
                       + " ".join(card_text(c) for c in cards_of(passed[self.human])))
        if s.declarer >= 0:
            out.append(f"trump {STRAINS[s.trump]}, declarer seat {s.declarer} at {s.level}")
        if any(c is not None for c in s.contracts):
            out.append("contracts: " + " ".join(
                f"{seat}:{c}" for seat, c in enumerate(s.contracts) if c is not None))
        for k, (winner, trick) in enumerate(s.completed_tricks):
            cards = " ".join(f"{seat}:{card_text(c)}" for seat, c in trick)
            out.append(f"trick {k + 1}: {cards} -> seat {winner}")
        if s.current_trick:
            out.append("this trick: " + " ".join(f"{seat}:{card_text(c)}"
                                                 for seat, c in s.current_trick))
        return out

    def record(self, seed: int = -1, deal: int = -1) -> dict[str, Any]:
        """The RULES §10 record of the finished deal (``whist-sim replay`` accepts it)."""
        return record_from_trace(trace_of(self.state, seed, deal))


__all__ = ["Event", "Hint", "PolicySeats", "Seats", "Table", "card_text", "hand_text"]
