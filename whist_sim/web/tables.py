"""Tables of play kept in memory for the play page: one person against bots, deal after deal.

A :class:`GameTable` is a game as ``whist-sim game`` deals it (RULES §7): game deal ``g`` uses the
random stream ``(seed, g)`` and is dealt by seat ``g % P``; each deal is a
:class:`whist_sim.engine.table.Table` (the same object as ``whist-sim play``), the bots are the
compiled strategies of ``seats`` (:class:`whist_sim.kernels.decide.KernelSeats`). After each
deal its scores are added to the running totals; the game is over when a total reaches the
target (winners as RULES §7 says). With ``after_third_frisch=redeal`` a deal thrown in after the
third Frisch is dealt again by the same dealer from the same stream, continued (as
:func:`whist_sim.engine.play.play_deal` does); its record counts the ``redeals``.

Everything a page shows is :meth:`GameTable.view` (plain JSON types); the moves are
:meth:`GameTable.move` (refused moves raise ``IllegalAction`` or ``NotationError`` with the
reason), :meth:`GameTable.hint` and :meth:`GameTable.next_deal`; :meth:`GameTable.record` is the
finished deal's RULES §10 record, which ``whist-sim replay`` accepts.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Sequence
from typing import Any

from ..core.cards import STRAINS, SUIT_SYMBOLS, card_str, cards_of, rank_of, suit_of
from ..core.rules import Rules

MAX_TABLES = 100  # tables kept at once (the least recently used goes first)


def _card(c: int, legal: bool = False) -> dict[str, Any]:
    return {"card": c, "text": card_str(c), "rank": card_str(c)[0], "suit": suit_of(c),
            "symbol": SUIT_SYMBOLS[suit_of(c)], "legal": legal}


def _hand_cards(mask: int, legal: set[int]) -> list[dict[str, Any]]:
    """Highest suit first, high cards first (as :func:`whist_sim.engine.table.hand_text`)."""
    cards = sorted(cards_of(mask), key=lambda c: (-suit_of(c), -rank_of(c)))
    return [_card(c, c in legal) for c in cards]


class GameTable:
    """One person (``human``) against bots (``seats``: a ``BID`` or ``BID/PLAY`` spec per seat;
    the person's own entry is the strategy the hint asks) in a game of ``rules``."""

    def __init__(self, rules: Rules, human: int, seats: Sequence[str], seed: int = 0) -> None:
        from ..strategies.spec import parse_seat

        p = rules.players
        if not 0 <= human < p:
            raise ValueError(f"seat: {human} is not in 0..{p - 1}")
        if len(seats) != p:
            raise ValueError(f"seats: {len(seats)} given, but {p} players need one per seat")
        self.bids, self.plays = [], []
        for text in seats:
            b, q = parse_seat(text)  # StrategyError (a ValueError) names the problem
            self.bids.append(b.text)
            self.plays.append(q.text if q is not None else "heuristic")
        self.id = uuid.uuid4().hex
        self.rules, self.human, self.seed = rules, human, seed
        self.seats = [s.strip() for s in seats]
        self.totals = [0] * p
        self.results: list[dict[str, Any]] = []  # one per finished deal
        self.winners: tuple[int, ...] = ()
        self.lock = threading.Lock()
        self.used = time.monotonic()
        self.deal_index = -1
        self.dealer = -1
        self.redeals = 0
        self._deal(0, 0)

    def _deal(self, g: int, dealer: int, rng_state: int | None = None) -> None:
        """Deal game deal ``g``: from the start of its stream, or (a redeal) from
        ``rng_state``, where the stream of the deal thrown in stopped."""
        from ..core.rng import DealRng
        from ..engine.state import DealState
        from ..engine.table import Table
        from ..kernels.decide import KernelSeats

        rng = DealRng(self.seed, g)
        if rng_state is not None:
            rng.state = rng_state
        state = DealState.deal(self.rules, rng, dealer)
        self.bots = KernelSeats(self.rules, self.bids, self.plays, dealer, state.dealt,
                                rng.state, state.removed_card, g)
        self.table = Table(state, self.human, self.bots)
        self.deal_index, self.dealer = g, dealer
        self.counted = False
        self.new_events = self.table.run_bots()
        self._settle()

    def _settle(self) -> None:
        """Add a finished deal to the totals (once) and decide the game (RULES §7)."""
        from ..engine.game import game_winners

        s = self.table.state
        if not s.is_over or self.counted:
            return
        self.counted = True
        scores = list(s.scores) if s.phase == "scored" else [0] * s.players
        for i, v in enumerate(scores):
            self.totals[i] += v
        self.results.append({"deal": self.deal_index, "phase": s.phase, "scores": scores,
                             "totals": list(self.totals)})
        reached = [i for i in range(s.players) if self.totals[i] >= self.rules.target]
        self.winners = game_winners(self.totals, reached)

    # ------------------------------------------------------------------ moves
    def move(self, text: str) -> None:
        """The person's move (text as ``whist-sim play`` takes it), then the bots' moves."""
        ev = self.table.move(text)
        self.new_events = [ev, *self.table.run_bots()]
        self._settle()

    def hint(self, advice_deals: int = 400) -> dict[str, Any]:
        """What the person's seat strategy would do now and why; for the contract also the
        advisor's answer on ``advice_deals`` sampled deals (the seat's play policy for every
        seat, the other bidders modelled as ``heuristic``)."""
        h = self.table.hint()
        out: dict[str, Any] = {"action": h.action, "text": h.text, "why": list(h.why),
                               "strategy": self.seats[self.human], "advice": None}
        s = self.table.state
        if s.phase == "contracts":
            from ..advisor import advise

            bids = [c for seat in s.contract_order if (c := s.contracts[seat]) is not None]
            a = advise(s.hand(self.human), trump=s.trump, declarer=s.declarer, level=s.level,
                       seat=self.human, bids=bids, deals=advice_deals, seed=self.seed,
                       rules=self.rules, play=self.plays[self.human])
            out["advice"] = {"recommended": a.recommended, "runner_up": a.runner_up,
                             "deals": advice_deals, "play": a.play,
                             "ev": {int(b): round(float(v), 1)
                                    for b, v in a.table["ev"].items()}}
        return out

    def next_deal(self) -> None:
        if not self.table.over:
            raise ValueError("the deal is not over yet")
        if self.winners:
            raise ValueError("the game is over")
        from ..core.rules import MAX_REDEALS

        p = self.rules.players
        if self.table.state.redeal_due and self.redeals < MAX_REDEALS:
            self.redeals += 1
            self._deal(self.deal_index, self.dealer, self.bots.rng_state)
        else:
            self.redeals = 0
            self._deal(self.deal_index + 1, (self.dealer + 1) % p)

    def record(self) -> dict[str, Any]:
        """The RULES §10 record of the finished deal (``whist-sim replay`` accepts it)."""
        if not self.table.over:
            raise ValueError("the deal is not over yet")
        rec = self.table.record(self.seed, self.deal_index)
        rec["policies"] = [("you" if s == self.human else self.seats[s])
                           for s in range(self.rules.players)]
        if self.redeals:
            rec["redeals"] = self.redeals
        return rec

    # ------------------------------------------------------------------ the view
    def view(self) -> dict[str, Any]:
        """Everything the play page shows, as plain JSON types."""
        from ..engine.state import call_str

        t, s = self.table, self.table.state
        legal = t.legal() if t.waiting else []
        playable = {a for a, _ in legal} if s.phase == "play" else set()
        out: dict[str, Any] = {
            "id": self.id, "seat": self.human, "players": s.players, "seats": self.seats,
            "rules": self.rules.to_dict(), "seed": self.seed, "deal": self.deal_index,
            "dealer": self.dealer, "redeals": self.redeals, "phase": s.phase, "over": t.over,
            "waiting": t.waiting,
            "to_move": None if t.over else s.to_move,
            "hand": _hand_cards(s.hand(self.human), playable),
            "legal": [] if s.phase in ("frisch", "play") else [
                {"action": a, "text": x} for a, x in legal],
            "frisch_number": s.frisch_count + 1 if s.phase == "frisch" else None,
            "calls": [{"seat": (s.first_caller + i) % s.players, "text": call_str(c)}
                      for i, c in enumerate(s.calls)],
            "min_level": s.min_level if s.phase == "auction" else None,
            "trump": STRAINS[s.trump] if s.declarer >= 0 else None,
            "declarer": s.declarer if s.declarer >= 0 else None,
            "level": s.level if s.declarer >= 0 else None,
            "contracts": list(s.contracts), "tricks_taken": list(s.tricks_taken),
            "forbidden": (s.forbidden_contract() if s.phase == "contracts" and t.waiting
                          else None),
            "current_trick": [{"seat": seat, **_card(c)} for seat, c in s.current_trick],
            "tricks": [{"winner": w, "cards": [{"seat": seat, **_card(c)} for seat, c in tr]}
                       for w, tr in s.completed_tricks],
            "events": [{"seat": e.seat, "phase": e.phase, "text": self._event_text(e)}
                       for e in self.new_events],
            "history": t.history(),
            "scores": list(s.scores) if s.phase == "scored" else None,
            "totals": list(self.totals), "results": self.results,
            "target": self.rules.target, "winners": list(self.winners),
            "game_over": bool(self.winners),
        }
        return out

    def _event_text(self, e) -> str:
        if e.phase == "frisch" and e.seat != self.human:
            return "passed three cards"
        if e.phase == "contracts":
            return f"contract {e.text}"
        return e.text


class GameTables:
    """The tables of a server, by id (least recently used dropped past :data:`MAX_TABLES`)."""

    def __init__(self) -> None:
        self.tables: dict[str, GameTable] = {}
        self.lock = threading.Lock()

    def add(self, table: GameTable) -> None:
        with self.lock:
            while len(self.tables) >= MAX_TABLES:
                oldest = min(self.tables.values(), key=lambda g: g.used)
                del self.tables[oldest.id]
            self.tables[table.id] = table

    def get(self, table_id: str) -> GameTable | None:
        with self.lock:
            g = self.tables.get(table_id)
            if g is not None:
                g.used = time.monotonic()
            return g
