"""Tables of play kept in memory for the play page: one person against bots, deal after deal.

A :class:`GameTable` is a game as ``whist-sim game`` deals it (RULES §7): game deal ``g`` uses the
random stream ``(seed, g)`` and is dealt by seat ``g % P``; each deal is a
:class:`whist_sim.engine.table.Table` (the same object as ``whist-sim play``), the bots are the
compiled strategies of ``seats`` (:class:`whist_sim.compiled.entry.decide.KernelSeats`). After each
deal its scores are added to the running totals; the game is over when a total reaches the
target (winners as RULES §7 says). With ``after_third_frisch=redeal`` a deal thrown in after the
third Frisch is dealt again by the same dealer from the same stream, continued (as
:func:`whist_sim.engine.play.play_deal` does); its record counts the ``redeals``.

Everything a page shows is :meth:`GameTable.view` (plain JSON types); the moves are
:meth:`GameTable.move` (refused moves raise ``IllegalAction`` or ``NotationError`` with the
reason), :meth:`GameTable.hint` and :meth:`GameTable.next_deal`; :meth:`GameTable.record` is the
finished deal's RULES §10 record, which ``whist-sim replay`` accepts.

Every accepted action of the person (a move, the next deal) raises :attr:`GameTable.seq` by
one; a page sends the ``seq`` it saw with each move, so a repeated tap is recognised and refused
(:class:`StaleMove`) instead of making a second move.

A table survives a restart as :meth:`GameTable.to_dict` (its inputs, the finished deals and
every action of the deal in progress) in a :class:`TableStore` folder;
:meth:`GameTable.from_dict` deals the deal again and replays it, checking that every bot decides
as it did and that the finished deal scores as stored, so what is read back is verified. A file
that is not such a table (not UTF-8, not JSON, nested too deep, a list, another program's
object, a field of the wrong type) is refused with a :class:`TableFileError` naming the file,
and left as it is.

An action at a kept table is a transaction (:meth:`GameTables.change`): it is made on a copy of
the table (:meth:`GameTable.draft`), the copy is saved, and only then does it become the table
(:meth:`GameTable.adopt`). A save that fails raises :class:`SaveError` and leaves the table in
memory exactly as it was, so memory and disk never disagree.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ...analyses.answer_check import DEFAULT_CHECK_PLAY
from ...core.cards import STRAINS, SUIT_SYMBOLS, card_str, cards_of, rank_of, suit_of
from ...core.rules import Rules

MAX_TABLES = 100  # tables kept in memory at once (the least recently used goes first)
TABLE_SCHEMA = "whist-sim/table/1"  # the JSON of a table kept on disk
TABLE_ID = re.compile(r"^[0-9a-f]{32}$")

#: The opponents' levels of the play page, weakest first: a plain name -> the ``BID/PLAY`` spec
#: every bot seat plays (docs/STRATEGIES.md; strength from results/tournament and results/play).
#: "strong" is the strongest measured pair that answers at once: the `learned` bidder (level with
#: `montecarlo` in results/tournament's field) and the search over the default play (the default
#: check, stronger than it on the ladder); docs/WEB.md gives the match against the earlier
#: `montecarlo/rollout:n=16`.
OPPONENT_LEVELS: dict[str, str] = {
    "beginner": "heuristic/heuristic",
    "club player": "cautious/expert",
    "strong": f"learned/{DEFAULT_CHECK_PLAY}",
}


class StaleMove(ValueError):
    """A move sent for an earlier state of the table (a repeated tap): nothing was done."""


class SaveError(RuntimeError):
    """A table that could not be written to its folder (no permission, a full disk, a folder
    that went away): the action that was to be saved was not made. The message names the
    folder and the reason."""


class TableFileError(ValueError):
    """A table file that cannot be used (not UTF-8, not JSON, not a table, or a table that does
    not replay as stored): the message names the file, which is left as it is."""


def _card(c: int, legal: bool = False) -> dict[str, Any]:
    return {"card": c, "text": card_str(c), "rank": card_str(c)[0], "suit": suit_of(c),
            "symbol": SUIT_SYMBOLS[suit_of(c)], "legal": legal}


def _hand_cards(mask: int, legal: set[int], received: dict[int, int]) -> list[dict[str, Any]]:
    """Highest suit first, high cards first (as :func:`whist_sim.engine.table.hand_text`);
    ``received``: the Frisch number (1-based) each card passed to the person came in."""
    cards = sorted(cards_of(mask), key=lambda c: (-suit_of(c), -rank_of(c)))
    return [{**_card(c, c in legal), "received": received.get(c)} for c in cards]


class GameTable:
    """One person (``human``) against bots (``seats``: a ``BID`` or ``BID/PLAY`` spec per seat;
    the person's own entry is the strategy the hint asks) in a game of ``rules``."""

    def __init__(self, rules: Rules, human: int, seats: Sequence[str], seed: int = 0,
                 table_id: str | None = None, deal: bool = True) -> None:
        from ...compiled.strategies.spec import parse_seat

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
        self.id = table_id or uuid.uuid4().hex
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
        self.seq = 0  # the person's accepted actions so far (moves and next deals)
        self.deal_rng_state: int | None = None  # where a redeal's stream starts (else None)
        if deal:
            self._deal(0, 0)

    def _deal(self, g: int, dealer: int, rng_state: int | None = None) -> None:
        """Deal game deal ``g``: from the start of its stream, or (a redeal) from
        ``rng_state``, where the stream of the deal thrown in stopped."""
        from ...compiled.entry.decide import KernelSeats
        from ...core.rng import DealRng
        from ...engine.state import DealState
        from ...engine.table import Table

        rng = DealRng(self.seed, g)
        if rng_state is not None:
            rng.state = rng_state
        state = DealState.deal(self.rules, rng, dealer)
        self.bots = KernelSeats(self.rules, self.bids, self.plays, dealer, state.dealt,
                                rng.state, state.removed_card, g)
        self.table = Table(state, self.human, self.bots)
        self.deal_index, self.dealer, self.deal_rng_state = g, dealer, rng_state
        self.counted = False
        self.new_events = self.table.run_bots()
        self._settle()

    def _settle(self) -> None:
        """Add a finished deal to the totals (once) and decide the game (RULES §7)."""
        from ...engine.game import game_winners

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
    def draft(self) -> GameTable:
        """A copy of the table to try an action on: nothing done to the copy reaches this table
        until :meth:`adopt` (the deal, the bots' state and the totals are copied; the lock is
        this table's own). About 0.2 ms for a deal in progress."""
        new = object.__new__(type(self))
        new.__dict__.update(copy.deepcopy({k: v for k, v in self.__dict__.items()
                                           if k != "lock"}))
        new.lock = self.lock
        return new

    def adopt(self, draft: GameTable) -> None:
        """Make :meth:`draft`'s copy, with the actions made on it, this table (call with the
        table's lock held)."""
        if draft.id != self.id:
            raise ValueError(f"table {draft.id} is not a draft of table {self.id}")
        self.__dict__.update({k: v for k, v in draft.__dict__.items() if k != "lock"})

    def check_seq(self, seq: int | None) -> None:
        """Refuse (:class:`StaleMove`) an action sent for an earlier state of the table;
        ``None``: the sender does not say (accepted)."""
        if seq is not None and seq != self.seq:
            raise StaleMove(f"already done: that tap was for move {seq}, the table is at move "
                            f"{self.seq}; nothing changed")

    def move(self, text: str, seq: int | None = None) -> None:
        """The person's move (text as ``whist-sim play`` takes it), then the bots' moves;
        ``seq``: the :attr:`seq` the move was chosen at (refused when the table moved on)."""
        self.check_seq(seq)
        ev = self.table.move(text)
        self.seq += 1
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
            from ...analyses.advisor import advise

            bids = [c for seat in s.contract_order if (c := s.contracts[seat]) is not None]
            a = advise(s.hand(self.human), trump=s.trump, declarer=s.declarer, level=s.level,
                       seat=self.human, bids=bids, auction=s.calls, dealer=s.dealer,
                       deals=advice_deals, seed=self.seed,
                       rules=self.rules, play=self.plays[self.human])
            out["advice"] = {"recommended": a.recommended, "runner_up": a.runner_up,
                             "deals": advice_deals, "play": a.play,
                             "ev": {int(b): round(float(v), 1)
                                    for b, v in a.table["ev"].items()}}
        return out

    def next_deal(self, seq: int | None = None) -> None:
        self.check_seq(seq)
        if not self.table.over:
            raise ValueError("the deal is not over yet")
        if self.winners:
            raise ValueError("the game is over")
        from ...core.rules import MAX_REDEALS

        p = self.rules.players
        if self.table.state.redeal_due and self.redeals < MAX_REDEALS:
            self.redeals += 1
            self._deal(self.deal_index, self.dealer, self.bots.rng_state)
        else:
            self.redeals = 0
            self._deal(self.deal_index + 1, (self.dealer + 1) % p)
        self.seq += 1

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
    def _received(self) -> dict[int, int]:
        """The cards passed to the person in each Frisch: card -> Frisch number (1-based)."""
        s, p = self.table.state, self.rules.players
        out: dict[int, int] = {}
        for f, passed in enumerate(s.frisch):
            giver = (self.human - self.rules.direction_offset(f)) % p
            for c in cards_of(passed[giver]):
                out[c] = f + 1
        return out

    def view(self) -> dict[str, Any]:
        """Everything the play page shows, as plain JSON types."""
        from ...engine.state import call_str

        t, s = self.table, self.table.state
        legal = t.legal() if t.waiting else []
        playable = {a for a, _ in legal} if s.phase == "play" else set()
        contracts = list(s.contracts)
        known = [c for c in contracts if c is not None]
        out: dict[str, Any] = {
            "id": self.id, "seq": self.seq, "seat": self.human, "players": s.players,
            "seats": self.seats,
            "rules": self.rules.to_dict(), "seed": self.seed, "deal": self.deal_index,
            "dealer": self.dealer, "redeals": self.redeals, "phase": s.phase, "over": t.over,
            "waiting": t.waiting,
            "to_move": None if t.over else s.to_move,
            "leader": s.leader if s.phase == "play" and s.leader >= 0 else None,
            "hand": _hand_cards(s.hand(self.human), playable, self._received()),
            "legal": [] if s.phase in ("frisch", "play") else [
                {"action": a, "text": x} for a, x in legal],
            "frisch_number": s.frisch_count + 1 if s.phase == "frisch" else None,
            "calls": [{"seat": (s.first_caller + i) % s.players, "text": call_str(c)}
                      for i, c in enumerate(s.calls)],
            "auction_calls": len(s.auction_calls),  # the last ones of "calls": this auction's
            "min_level": s.min_level if s.phase == "auction" else None,
            "trump": STRAINS[s.trump] if s.declarer >= 0 else None,
            "declarer": s.declarer if s.declarer >= 0 else None,
            "level": s.level if s.declarer >= 0 else None,
            "contracts": contracts, "tricks_taken": list(s.tricks_taken),
            "n_tricks": s.n_tricks,
            "contract_sum": sum(known) if len(known) == s.players else None,
            "forbidden": (s.forbidden_contract() if s.phase == "contracts" and t.waiting
                          else None),
            "current_trick": [{"seat": seat, **_card(c)} for seat, c in s.current_trick],
            "tricks": [{"winner": w, "cards": [{"seat": seat, **_card(c)} for seat, c in tr]}
                       for w, tr in s.completed_tricks],
            "events": self._events(),
            "history": t.history(),
            "scores": list(s.scores) if s.phase == "scored" else None,
            "totals": list(self.totals), "results": self.results,
            "target": self.rules.target, "winners": list(self.winners),
            "game_over": bool(self.winners),
        }
        return out

    def _events(self) -> list[dict[str, Any]]:
        """The moves of the last action (the person's, then the bots' up to the person's next
        turn), in order; a card carries ``card``, its ``trick`` (0-based) and, when it ends
        the trick, ``won_by`` (the winner), so a page can show the bots' cards one by one."""
        s = self.table.state
        plays = [(k, seat, c, w if i == len(tr) - 1 else None)
                 for k, (w, tr) in enumerate(s.completed_tricks)
                 for i, (seat, c) in enumerate(tr)]
        plays += [(len(s.completed_tricks), seat, c, None) for seat, c in s.current_trick]
        n_play = sum(e.phase == "play" for e in self.new_events)
        tail = iter(plays[len(plays) - n_play:])
        out = []
        for e in self.new_events:
            d: dict[str, Any] = {"seat": e.seat, "phase": e.phase, "text": self._event_text(e)}
            if e.phase == "play":
                k, _, c, w = next(tail)
                d.update(card=_card(c), trick=k, won_by=w)
            out.append(d)
        return out

    def _event_text(self, e) -> str:
        if e.phase == "frisch" and e.seat != self.human:
            return "passed three cards"
        if e.phase == "contracts":
            return f"contract {e.text}"
        return e.text

    # ------------------------------------------------------------------ on disk
    def to_dict(self) -> dict[str, Any]:
        """The table as JSON types: its inputs, the finished deals and every action of the
        deal in progress (``actions``: ``[seat, action]`` in order)."""
        return {
            "schema": TABLE_SCHEMA, "id": self.id, "rules": self.rules.to_dict(),
            "human": self.human, "seats": self.seats, "seed": self.seed, "seq": self.seq,
            "totals": list(self.totals), "results": self.results,
            "winners": list(self.winners), "deal": self.deal_index, "dealer": self.dealer,
            "redeals": self.redeals, "deal_rng_state": self.deal_rng_state,
            "counted": self.counted,
            "actions": [[e.seat, e.action] for e in self.table.events],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameTable:
        """The table of :meth:`to_dict`, its deal in progress dealt again and replayed: the
        bots must decide as stored and a counted deal must score as stored, or ``ValueError``
        says where the record and the replay part."""
        rules = check_table_record(d)
        g = cls(rules, int(d["human"]), list(d["seats"]), int(d["seed"]),
                table_id=str(d["id"]), deal=False)
        g._deal(int(d["deal"]), int(d["dealer"]), d["deal_rng_state"])
        actions = [(int(a), int(b)) for a, b in d["actions"]]
        done = [(e.seat, e.action) for e in g.table.events]
        while len(done) < len(actions):
            if done != actions[:len(done)]:
                break
            seat, action = actions[len(done)]
            if not g.table.waiting or seat != g.human:
                break
            g.table.move(action)
            g.table.run_bots()
            done = [(e.seat, e.action) for e in g.table.events]
        if done != actions:
            k = next((i for i, (a, b) in enumerate(zip(done, actions, strict=False))
                      if a != b),
                     min(len(done), len(actions)))
            raise ValueError(f"table {g.id}: move {k + 1} of deal {g.deal_index + 1} does not "
                             "replay as stored")
        # the totals and results are the stored ones (replaying the deal counted it afresh)
        g.totals = [int(x) for x in d["totals"]]
        g.results = list(d["results"])
        g.winners = tuple(int(x) for x in d["winners"])
        g.redeals, g.seq, g.counted = int(d["redeals"]), int(d["seq"]), bool(d["counted"])
        s = g.table.state
        if g.counted != s.is_over:
            raise ValueError(f"table {g.id}: the deal's end and its count disagree")
        if g.counted:
            scores = list(s.scores) if s.phase == "scored" else [0] * s.players
            last = g.results[-1] if g.results else {}
            if last.get("deal") != g.deal_index or last.get("scores") != scores:
                raise ValueError(f"table {g.id}: deal {g.deal_index + 1} does not score as "
                                 "stored")
        g.new_events = []
        return g


def _range(lo: int, hi: int) -> str:
    """``"in 0..3"``, ``">= 0"`` (``hi`` is :data:`_BIG`: no real bound), ``""`` (neither)."""
    if hi >= _BIG:
        return f" >= {lo}" if lo > -_BIG else ""
    return f" in {lo}..{'2**64-1' if hi == (1 << 64) - 1 else hi}"


def _whole(d: dict[str, Any], name: str, lo: int, hi: int) -> int:
    v = d[name]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"field {name!r}: expected a whole number{_range(lo, hi)}, got "
                         f"{_short(v)}")
    return v


def _wholes(d: dict[str, Any], name: str, n: int | None, lo: int, hi: int) -> list[int]:
    v = d[name]
    if (not isinstance(v, list) or (n is not None and len(v) != n)
            or not all(isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi
                       for x in v)):
        size = f"{n} " if n is not None else ""
        raise ValueError(f"field {name!r}: expected a list of {size}whole numbers"
                         f"{_range(lo, hi)}, got {_short(v)}")
    return v


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


#: the fields of a table record (:meth:`GameTable.to_dict`)
TABLE_FIELDS = ("schema", "id", "rules", "human", "seats", "seed", "seq", "totals", "results",
                "winners", "deal", "dealer", "redeals", "deal_rng_state", "counted", "actions")
_BIG = 1 << 62  # a bound for counts and points no real game reaches


def check_table_record(d: Any) -> Rules:
    """Check that ``d`` has the shape of :meth:`GameTable.to_dict` (every field there, of its
    type and in its range) before anything is dealt from it; return its rules. Raises
    ``ValueError`` naming the first field at fault (a record of another program: its schema)."""
    from ...core.rules import MAX_REDEALS

    if not isinstance(d, dict):
        kind = ("list" if isinstance(d, list) else "string" if isinstance(d, str)
                else "null" if d is None else "true or false" if isinstance(d, bool)
                else "number")
        raise ValueError(f"not a whist-sim table: the file holds a JSON {kind}, not an object")
    if d.get("schema") != TABLE_SCHEMA:
        raise ValueError(f"not a whist-sim table: its \"schema\" is {_short(d.get('schema'))}, "
                         f"not {TABLE_SCHEMA!r}")
    missing = [k for k in TABLE_FIELDS if k not in d]
    if missing:
        raise ValueError(f"field(s) {', '.join(map(repr, missing))} missing")
    if not isinstance(d["id"], str) or not TABLE_ID.match(d["id"]):
        raise ValueError(f"field 'id': expected 32 hex digits, got {_short(d['id'])}")
    if not isinstance(d["rules"], dict):
        raise ValueError(f"field 'rules': expected an object, got {_short(d['rules'])}")
    try:
        rules = Rules.from_dict(d["rules"])
    except (ValueError, TypeError) as e:
        raise ValueError(f"field 'rules': {e}") from None
    p = rules.players
    _whole(d, "human", 0, p - 1)
    if not isinstance(d["seats"], list) or len(d["seats"]) != p or not all(
            isinstance(x, str) for x in d["seats"]):
        raise ValueError(f"field 'seats': expected a list of {p} strategy specs, got "
                         f"{_short(d['seats'])}")
    _whole(d, "seed", 0, (1 << 64) - 1)
    _whole(d, "seq", 0, _BIG)
    _wholes(d, "totals", p, -_BIG, _BIG)
    _wholes(d, "winners", None, 0, p - 1)
    _whole(d, "deal", 0, _BIG)
    _whole(d, "dealer", 0, p - 1)
    _whole(d, "redeals", 0, MAX_REDEALS)
    if d["deal_rng_state"] is not None:
        _whole(d, "deal_rng_state", 0, (1 << 64) - 1)
    if not isinstance(d["counted"], bool):
        raise ValueError(f"field 'counted': expected true or false, got {_short(d['counted'])}")
    results = d["results"]
    if not isinstance(results, list) or not all(
            isinstance(r, dict) and isinstance(r.get("phase"), str)
            and isinstance(r.get("deal"), int) and not isinstance(r.get("deal"), bool)
            and all(isinstance(r.get(k), list) and len(r[k]) == p
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in r[k])
                    for k in ("scores", "totals"))
            for r in results):
        raise ValueError("field 'results': expected a list of finished deals, each "
                         "{\"deal\", \"phase\", \"scores\", \"totals\"}")
    actions = d["actions"]
    if not isinstance(actions, list) or not all(
            isinstance(a, list) and len(a) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in a)
            and 0 <= a[0] < p and 0 <= a[1] < 1 << 52 for a in actions):
        raise ValueError("field 'actions': expected a list of [seat, action] pairs of whole "
                         "numbers")
    return rules


class TableStore:
    """The tables of a server on disk: one ``ID.json`` per table in ``folder``, written whole to
    a temporary file beside it, flushed to the disk, then renamed over the old one, so a crash
    or a failed write leaves the previous version. ``whist-sim serve`` makes the folder and
    checks that it can be written at start-up; the Python call makes it at the first save."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)

    def path(self, table_id: str) -> Path | None:
        return self.folder / f"{table_id}.json" if TABLE_ID.match(table_id) else None

    def save(self, table: GameTable) -> None:
        """Write the table; :class:`SaveError` (naming the folder and the reason) when it cannot
        be written, the file then left as it was and no temporary file left behind."""
        path = self.path(table.id)
        assert path is not None
        data = json.dumps(table.to_dict()).encode("utf-8")
        tmp = path.with_name(f".tmp-{path.name}.{os.getpid()}.{threading.get_ident()}")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as e:
            with contextlib.suppress(OSError):
                tmp.unlink()
            reason = e.strerror or type(e).__name__
            if self.folder.exists() and not self.folder.is_dir():
                reason = "it is not a folder any more"
            raise SaveError(f"the game could not be saved in {self.folder} ({reason})") from None

    def load(self, table_id: str) -> GameTable | None:
        """The table, replayed and checked; ``None`` when there is no such file. A file that
        does not read back (not UTF-8, not JSON or nested too deep, not a table, a table that
        does not replay as stored) raises :class:`TableFileError` naming it; the file is left
        as it is."""
        from ...core.jsonio import load_json_file

        path = self.path(table_id)
        if path is None or not path.is_file():
            return None
        try:
            g = GameTable.from_dict(load_json_file(path))
            if g.id != table_id:
                raise ValueError(f"the stored table is {g.id}, not {table_id}")
        # a file may hold anything: whatever it makes the replay raise, it is refused by name
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, OverflowError,
                RecursionError) as e:
            reason = " ".join(str(e).split()) or type(e).__name__
            raise TableFileError(f"{path}: the stored table cannot be read: {reason} (the "
                                 "file is left as it is)") from None
        return g


class GameTables:
    """The tables of a server, by id: in memory (least recently used dropped past
    :data:`MAX_TABLES`) and, with a ``store``, on disk, where a table not in memory (dropped,
    or from before a restart) is read back from."""

    def __init__(self, store: TableStore | None = None) -> None:
        self.tables: dict[str, GameTable] = {}
        self.lock = threading.Lock()
        self.store = store

    def _keep(self, table: GameTable) -> None:
        while len(self.tables) >= MAX_TABLES:
            oldest = min(self.tables.values(), key=lambda g: g.used)
            del self.tables[oldest.id]
        self.tables[table.id] = table

    def add(self, table: GameTable) -> None:
        """Keep a new table: saved first (:class:`SaveError`: it is not kept at all)."""
        self.save(table)
        with self.lock:
            self._keep(table)

    def change(self, table: GameTable, work: Callable[[GameTable], Any]) -> Any:
        """``work(draft)`` on a copy of ``table``; the copy saved; only then is it the table.
        Whatever ``work`` raises (a refused move) or the save raises (:class:`SaveError`), the
        table is left exactly as it was, in memory and on disk. Call with the table's lock
        held; returns what ``work`` returned."""
        draft = table.draft()
        out = work(draft)
        self.save(draft)
        table.adopt(draft)
        return out

    def on_disk(self, table_id: str) -> bool:
        """Is the table only on disk (to be read back and replayed by :meth:`get`)?"""
        with self.lock:
            if table_id in self.tables or self.store is None:
                return False
        path = self.store.path(table_id)
        return path is not None and path.is_file()

    def save(self, table: GameTable) -> None:
        """Write the table to the store (if any); call with the table's lock held."""
        if self.store is not None:
            self.store.save(table)

    def get(self, table_id: str) -> GameTable | None:
        """The table, from memory or read back from the store (replaying its deal: call off
        the event loop); ``ValueError`` when its file does not read back."""
        with self.lock:
            g = self.tables.get(table_id)
            if g is None and self.store is not None:
                g = self.store.load(table_id)
                if g is not None:
                    self._keep(g)
            if g is not None:
                g.used = time.monotonic()
            return g
