"""JSON game records (RULES §10): engine traces to records, and records checked and scored.

A record is one JSON object::

    {"dealer": 3,
     "hands": ["AKQ2.K3.QJ54.872", ...],            # as dealt, by seat, PBN (S.H.D.C)
     "frisch": [[["2C", "3C", "4C"], ...], ...],     # per Frisch, by seat: the 3 cards passed
     "calls": ["pass", "5S", "pass", ...],           # every auction call, first = dealer's left
     "contracts": [7, 0, 3, 4],                      # by seat
     "play": ["AS", "2S", ...],                      # cards in the order played
     "revokes": "reject",                            # or "penalize"
     "rules": {"players": 3, ...}}                   # optional: rule options over the rule book

``frisch``, ``contracts``, ``play``, ``revokes`` and ``rules`` are optional; a record may stop early
(it is then checked but not scored). :func:`replay_record` drives a :class:`DealState` through the
record and stops at the first breach, reported as ``"<where>: <why>"`` (``calls[6]: 5H does not
beat 5S``). Informative fields (``seed``, ``deal``, ``policies``, ``removed_card``, ``comment``,
``redeals``) are allowed and do not change the replay, but must have their type (whole numbers
>= 0, a list of texts, a card, a text), so that a record means one thing in JSON and in PBN; any
other field is refused, so that a misspelt field is not silently lost. Every refusal names the
field (``seed: must be a whole number >= 0, got "x"``; in a game ``game.first_dealer: ...``).
"""

from __future__ import annotations

import json
import operator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.cards import (
    NotationError,
    card_str,
    cards_of,
    format_hand,
    parse_card,
    parse_hand,
)
from ..core.rules import FRISCH_CARDS, MAX_REDEALS, Rules, RulesError
from .game import game_winners
from .play import DealTrace
from .state import DealState, IllegalAction, call_str, parse_call, strain_str

REVOKE_MODES = ("reject", "penalize")
REQUIRED_FIELDS = ("dealer", "hands", "calls")
OPTIONAL_FIELDS = ("frisch", "contracts", "play", "revokes", "rules")
INFO_FIELDS = ("seed", "deal", "policies", "removed_card", "comment", "redeals")
GAME_FIELDS = ("deals", "game", "rules", "running_totals", "totals", "winners", "comment")


class RecordError(ValueError):
    """A record that is malformed or breaks a rule; the message starts with where."""


# --------------------------------------------------------------------------- trace -> record


def record_from_trace(trace: DealTrace) -> dict[str, Any]:
    """The RULES §10 record of an engine deal (``whist-sim replay`` accepts it back).

    The record carries the full rule options (``rules``) and, for information, ``seed``, ``deal``
    and (for the ``one_random`` deck) ``removed_card``.
    """
    rec: dict[str, Any] = {
        "seed": trace.seed,
        "deal": trace.deal,
        "dealer": trace.dealer,
        "hands": [format_hand(h) for h in trace.dealt],
        "frisch": [[[card_str(c) for c in cards_of(m)] for m in f] for f in trace.frisch],
        "calls": [call_str(c) for c in trace.calls],
        "contracts": list(trace.contracts),
        "play": [card_str(c) for c in trace.plays],
        "revokes": "reject",
        "rules": trace.rules.to_dict(),
    }
    if trace.removed_card >= 0:
        rec["removed_card"] = card_str(trace.removed_card)
    if trace.redeals:
        rec["redeals"] = trace.redeals
    return rec


# --------------------------------------------------------------------------- replay


@dataclass
class ReplayResult:
    """What :func:`replay_record` found. Seats are ``0..P-1``; points are game points.

    ``ok`` is False for a refused record (``error`` holds the first breach). A legal record is
    ``finished`` when it reaches the end of the deal (scored, or thrown in); only then are
    ``tricks`` and ``scores`` set. ``revokes`` lists ``(index in play, seat)`` of penalised revokes.
    """

    ok: bool
    error: str = ""
    rules: Rules | None = None
    thrown_in: bool = False
    finished: bool = False
    dealer: int = -1
    declarer: int = -1
    trump: int = -1
    level: int = 0
    contracts: tuple[int, ...] | None = None
    over: bool | None = None
    tricks: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None
    removed_card: int = -1
    revokes: list[tuple[int, int]] = field(default_factory=list)
    phase: str = ""
    state: DealState | None = field(default=None, repr=False)

    def to_json_dict(self, file: str | None = None) -> dict[str, Any]:
        """The JSON object of ``whist-sim replay --json`` (one per file)."""
        out: dict[str, Any] = {} if file is None else {"file": file}
        out["ok"] = self.ok
        if not self.ok:
            out["error"] = self.error
            return out
        out["thrown_in"] = self.thrown_in
        if self.thrown_in:
            out["scores"] = list(self.scores or ())
            return out
        if self.declarer >= 0:
            out["declarer"] = self.declarer
            out["trump"] = strain_str(self.trump)
            out["level"] = self.level
        if self.contracts is not None:
            out["contracts"] = list(self.contracts)
            out["over"] = self.over
        if self.finished:
            out["tricks"] = list(self.tricks or ())
            out["scores"] = list(self.scores or ())
        if self.revokes:
            out["revokes"] = [{"play": i, "seat": s} for i, s in self.revokes]
        return out


def _refuse(where: str, why: str) -> RecordError:
    return RecordError(f"{where}: {why}" if where else why)


def _whole(value: Any, where: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refuse(where, f"{what} must be a whole number, got {json.dumps(value)}")
    return operator.index(value)


def _list(value: Any, where: str, what: str) -> list:
    if not isinstance(value, list):
        raise _refuse(where, f"{what} must be a list, got {json.dumps(value)}")
    return value


def _same_list(stated: Any, actual: list) -> bool:
    """Is ``stated`` (a record's list) the list ``actual``? (A number or null is not.)"""
    return isinstance(stated, (list, tuple)) and list(stated) == actual


def _record_rules(record: dict, default: Rules) -> Rules:
    if "rules" not in record or record["rules"] is None:
        return default
    d = record["rules"]
    if not isinstance(d, dict):
        raise _refuse("rules", "must be an object of rule options, e.g. {\"players\": 3}")
    try:
        return Rules.from_dict(d)
    except (RulesError, TypeError) as e:
        raise _refuse("rules", str(e)) from None


def _record_revokes(record: dict, override: str | None) -> str:
    if override is not None:
        if override not in REVOKE_MODES:
            raise ValueError(f"revokes must be one of {', '.join(REVOKE_MODES)}, got {override!r}")
        return override
    mode = record.get("revokes", "reject")
    if mode is None:
        return "reject"
    if mode not in REVOKE_MODES:
        raise _refuse("revokes", f"{json.dumps(mode)} is not one of {', '.join(REVOKE_MODES)}")
    return mode


def _record_hands(record: dict, rules: Rules) -> list[int]:
    hands_in = _list(record["hands"], "hands", "hands")
    p = rules.players
    if len(hands_in) != p:
        raise _refuse(
            "hands", f"{len(hands_in)} hands given, the rules need {p} players (one hand per seat)"
        )
    hands: list[int] = []
    seen = 0
    for s, text in enumerate(hands_in):
        where = f"hands[{s}]"
        try:
            mask = parse_hand(text)
        except NotationError as e:
            raise _refuse(where, str(e)) from None
        outside = mask & ~rules.deck_mask
        if outside:
            raise _refuse(
                where,
                f"{' '.join(card_str(c) for c in cards_of(outside))} not in the "
                f"{rules.three_player_deck} deck",
            )
        dup = mask & seen
        if dup:
            other = next(i for i, h in enumerate(hands) if h & dup)
            raise _refuse(
                where,
                f"duplicate card {' '.join(card_str(c) for c in cards_of(dup))} "
                f"(also in hands[{other}])",
            )
        if mask.bit_count() != rules.hand_size:
            raise _refuse(where, f"has {mask.bit_count()} cards, expected {rules.hand_size}")
        seen |= mask
        hands.append(mask)
    return hands


def _shown(value: Any, limit: int = 60) -> str:
    """A value as JSON for a one-line message, cut to ``limit`` characters."""
    text = json.dumps(value, ensure_ascii=True, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _natural(value: Any, where: str) -> int:
    """A whole number >= 0 (a seed, a deal index, a count), refused naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _refuse(where, f"must be a whole number >= 0, got {_shown(value)}")
    return value


def _texts(value: Any, where: str) -> list[str]:
    """A list of texts (policy or seat names), refused naming ``where``."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _refuse(where, f"must be a list of texts, got {_shown(value)}")
    return value


def _check_info(record: dict, prefix: str = "") -> None:
    """The informative fields of a deal record (RULES §10) have the types whist-sim writes, so
    that a record means one thing in every format it travels in (JSON, PBN): ``seed`` and
    ``deal`` whole numbers >= 0, ``policies`` a list of texts, ``removed_card`` a card,
    ``comment`` a text, ``redeals`` a whole number >= 0. ``prefix`` (``deals[3].``) is put before
    the field's name in a refusal."""
    for key in ("seed", "deal", "redeals"):
        if key in record:
            _natural(record[key], prefix + key)
    if "policies" in record:
        _texts(record["policies"], prefix + "policies")
    if "comment" in record and not isinstance(record["comment"], str):
        raise _refuse(prefix + "comment", f"must be a text, got {_shown(record['comment'])}")
    if "removed_card" in record:
        card = record["removed_card"]
        try:
            parse_card(card)
        except NotationError as e:
            raise _refuse(prefix + "removed_card", str(e)) from None


GAME_INFO_FIELDS = ("seed", "target", "seats", "first_dealer")


def _check_game_info(info: Any, rules: Rules) -> dict:
    """The ``game`` object of a game record: ``seed`` a whole number >= 0, ``target`` the rules'
    target, ``seats`` one text per seat, ``first_dealer`` a seat; each refusal names its field."""
    if info is None:
        return {}
    if not isinstance(info, dict):
        raise _refuse("game", f"must be an object ({', '.join(GAME_INFO_FIELDS)}), got "
                              f"{_shown(info)}")
    unknown = sorted(set(info) - set(GAME_INFO_FIELDS))
    if unknown:
        raise _refuse("game", f"unknown field(s): {', '.join(unknown)} (a game has "
                              f"{', '.join(GAME_INFO_FIELDS)})")
    p = rules.players
    if "seed" in info:
        _natural(info["seed"], "game.seed")
    if "target" in info:
        _whole(info["target"], "game.target", "the target")
        if info["target"] != rules.target:
            raise _refuse("game.target", f"{info['target']!r} differs from the rules' target "
                                         f"{rules.target}")
    if "seats" in info:
        seats = _texts(info["seats"], "game.seats")
        if len(seats) != p:
            raise _refuse("game.seats", f"{len(seats)} seats, the rules need {p} players")
    if "first_dealer" in info:
        d = info["first_dealer"]
        if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < p:
            raise _refuse("game.first_dealer", f"must be a seat in 0..{p - 1}, got {_shown(d)}")
    return info


def _frisch_mask(entry: Any, where: str, seat: int) -> int:
    cards = _list(entry, where, "the cards passed")
    mask = 0
    for k, text in enumerate(cards):
        try:
            c = parse_card(text)
        except NotationError as e:
            raise _refuse(f"{where}[{k}]", str(e)) from None
        if mask >> c & 1:
            raise _refuse(where, f"duplicate card {card_str(c)}")
        mask |= 1 << c
    if len(cards) != FRISCH_CARDS:
        raise _refuse(
            where, f"seat {seat} passes {len(cards)} cards, a Frisch passes {FRISCH_CARDS}"
        )
    return mask


def replay_record(
    record: Any, rules: Rules | None = None, revokes: str | None = None
) -> ReplayResult:
    """Check ``record`` (a parsed RULES §10 object) against the rules and score it.

    ``rules``: the rule options for a record without a ``"rules"`` field (default: the rule
    book); ``revokes``: ``'reject'`` or ``'penalize'``, overriding the record's ``"revokes"``.
    A refused record gives ``ok=False`` and the first breach in ``error``; this function does not
    raise for bad records.
    """
    default_rules = Rules() if rules is None else rules
    try:
        return _replay(record, default_rules, revokes)
    except RecordError as e:
        return ReplayResult(ok=False, error=str(e))


def _replay(record: Any, default_rules: Rules, revokes_override: str | None) -> ReplayResult:
    if not isinstance(record, dict):
        raise _refuse("", f"a record must be a JSON object, got {type(record).__name__}")
    missing = [k for k in REQUIRED_FIELDS if k not in record]
    if missing:
        raise _refuse("", f"missing field(s): {', '.join(missing)}")
    unknown = sorted(set(record) - set(REQUIRED_FIELDS + OPTIONAL_FIELDS + INFO_FIELDS))
    if unknown:
        raise _refuse(
            "",
            f"unknown field(s): {', '.join(unknown)} (a record has "
            f"{', '.join(REQUIRED_FIELDS + OPTIONAL_FIELDS)})",
        )
    rules = _record_rules(record, default_rules)
    mode = _record_revokes(record, revokes_override)
    _check_info(record)
    p = rules.players
    dealer = _whole(record["dealer"], "dealer", "the dealer")
    if not 0 <= dealer < p:
        raise _refuse("dealer", f"seat {dealer} is not in 0..{p - 1}")
    hands = _record_hands(record, rules)
    state = DealState(rules, dealer, hands)

    calls = _list(record["calls"], "calls", "calls")
    frisch = record.get("frisch") or []
    frisch = _list(frisch, "frisch", "frisch")
    contracts = record.get("contracts") or []
    contracts = _list(contracts, "contracts", "contracts")
    play = record.get("play") or []
    play = _list(play, "play", "play")

    # auction and Frisch (RULES §2, §3)
    ci = 0
    while True:
        if state.phase == "auction" and ci < len(calls):
            where = f"calls[{ci}]"
            try:
                code = parse_call(calls[ci])
                state.apply(code)
            except (NotationError, IllegalAction) as e:
                raise _refuse(where, str(e)) from None
            ci += 1
        elif state.phase == "frisch":
            f = state.frisch_count
            if f >= len(frisch):
                if ci < len(calls):
                    raise _refuse(
                        f"calls[{ci}]",
                        f"the first {p} calls of the auction were passes, so Frisch {f + 1} "
                        f"came first, but the record has no frisch[{f}]",
                    )
                break  # the record stops at a Frisch
            entry = _list(frisch[f], f"frisch[{f}]", "a Frisch")
            if len(entry) != p:
                raise _refuse(f"frisch[{f}]", f"{len(entry)} entries, one per seat ({p}) needed")
            for _ in range(p):
                seat = state.to_move
                where = f"frisch[{f}][{seat}]"
                mask = _frisch_mask(entry[seat], where, seat)
                try:
                    state.apply(mask)
                except IllegalAction as e:
                    raise _refuse(where, str(e)) from None
        else:
            break
    if ci < len(calls):
        why = "the deal was thrown in" if state.phase == "thrown_in" else "the auction is over"
        raise _refuse(f"calls[{ci}]", f"{why}; no more calls are allowed")
    if len(frisch) > state.frisch_count:
        f = state.frisch_count
        raise _refuse(f"frisch[{f}]", f"no Frisch {f + 1} took place in the calls")

    # contracts (RULES §4)
    if contracts:
        if state.phase != "contracts":
            why = "the deal was thrown in" if state.phase == "thrown_in" else (
                "the auction is not over"
            )
            raise _refuse("contracts", f"given, but {why}")
        if len(contracts) != p:
            raise _refuse("contracts", f"{len(contracts)} contracts, one per seat ({p}) needed")
        for seat in state.contract_order:
            where = f"contracts[{seat}]"
            n = _whole(contracts[seat], where, "a contract")
            try:
                state.apply(n)
            except IllegalAction as e:
                raise _refuse(where, str(e)) from None

    # play (RULES §5)
    if play:
        if state.phase != "play":
            why = "the deal was thrown in" if state.phase == "thrown_in" else (
                "the contracts are not complete"
            )
            raise _refuse("play", f"given, but {why}")
        for i, text in enumerate(play):
            where = f"play[{i}]"
            if state.phase != "play":
                raise _refuse(where, f"the deal is over after {i} cards")
            try:
                state.apply(parse_card(text), allow_revoke=(mode == "penalize"))
            except (NotationError, IllegalAction) as e:
                raise _refuse(where, str(e)) from None

    return _result(state)


def _result(state: DealState) -> ReplayResult:
    res = ReplayResult(
        ok=True,
        rules=state.rules,
        thrown_in=state.phase == "thrown_in",
        finished=state.is_over,
        dealer=state.dealer,
        declarer=state.declarer,
        trump=state.trump,
        level=state.level,
        removed_card=state.removed_card,
        revokes=list(state.revokes),
        phase=state.phase,
        state=state,
    )
    if res.thrown_in:
        res.scores = (0,) * state.players
        return res
    if state.phase in ("play", "scored"):
        res.contracts = tuple(state.contracts)  # type: ignore[arg-type]
        res.over = state.over
    if state.phase == "scored":
        res.tricks = tuple(state.tricks_taken)
        res.scores = tuple(state.scores)
    return res


def load_record(path: str | Path) -> Any:
    """Read and parse a record file (``'-'`` = standard input) within the limits of
    :mod:`whist_sim.core.jsonio` (size, nesting, number length); raises :class:`RecordError`."""
    from ..core.jsonio import JsonInputError, load_json_file

    try:
        return load_json_file(path)
    except JsonInputError as e:
        raise RecordError(str(e)) from None


def replay_file(
    path: str | Path, rules: Rules | None = None, revokes: str | None = None
) -> ReplayResult:
    """:func:`replay_record` of the record in file ``path``; an unreadable file is refused."""
    try:
        record = load_record(path)
    except RecordError as e:
        return ReplayResult(ok=False, error=str(e))
    return replay_record(record, rules, revokes)


# --------------------------------------------------------------------------- games (RULES §7)


@dataclass
class GameReplayResult:
    """What :func:`replay_game` found: every deal's :class:`ReplayResult`, the totals by seat
    after each deal, and the winners (RULES §7: the first to reach the target; several on the
    same deal: the highest total, equal highest share). ``ok`` is False with the first breach in
    ``error`` (``deals[3].calls[6]: ...``, ``running_totals[4]: ...``)."""

    ok: bool
    error: str = ""
    rules: Rules | None = None
    deals: list[ReplayResult] = field(default_factory=list)
    running_totals: list[tuple[int, ...]] = field(default_factory=list)
    winners: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    @property
    def totals(self) -> tuple[int, ...]:
        return self.running_totals[-1] if self.running_totals else ()

    def to_json_dict(self, file: str | None = None) -> dict[str, Any]:
        """The JSON object of ``whist-sim replay --json`` for a game record."""
        out: dict[str, Any] = {} if file is None else {"file": file}
        out["ok"] = self.ok
        if not self.ok:
            out["error"] = self.error
            return out
        out["game"] = True
        out["deals"] = [d.to_json_dict() for d in self.deals]
        out["running_totals"] = [list(t) for t in self.running_totals]
        out["totals"] = list(self.totals)
        out["winners"] = list(self.winners)
        out["finished"] = self.finished
        return out


def _redeals(record: dict[str, Any], where: str) -> int:
    """The record's ``redeals`` (the cancelled dealings before it, RULES §11), 0 when absent;
    the engines stop redealing at ``MAX_REDEALS``, and the deal then passes on."""
    n = record.get("redeals", 0)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise _refuse(f"{where}.redeals", f"must be a whole number >= 0, got {n!r}")
    return n


def is_game_record(record: Any) -> bool:
    """A game record is an object with a ``deals`` list (a deal record has none)."""
    return isinstance(record, dict) and "deals" in record


def replay_game(
    record: Any, rules: Rules | None = None, revokes: str | None = None
) -> GameReplayResult:
    """Check a game record (``deals``, and optionally ``running_totals``, ``totals``,
    ``winners``, ``rules``, ``game``; :mod:`whist_sim.runs.game`) and total it (RULES §7).

    Every deal is checked as by :func:`replay_record` under the game's rules (``rules``: for a
    record without them) and must be finished; the dealer moves one seat to the left each deal,
    except after a deal cancelled under ``after_third_frisch=redeal`` (four passes after the third
    Frisch): then the same dealer deals again (RULES §3, as in ``game`` and ``simulate``; a record
    whose ``redeals`` reached ``MAX_REDEALS``, where the engines stop redealing, passes on); the
    game ends with the first deal after which a total reaches the target, so no deal may
    follow it; the stated running totals, totals and winners must be what the deals add up to.
    """
    default_rules = Rules() if rules is None else rules
    try:
        return _replay_game(record, default_rules, revokes)
    except RecordError as e:
        return GameReplayResult(ok=False, error=str(e))


def _replay_game(record: Any, default_rules: Rules, revokes: str | None) -> GameReplayResult:
    if not isinstance(record, dict):
        raise _refuse("", f"a game record must be a JSON object, got {type(record).__name__}")
    unknown = sorted(set(record) - set(GAME_FIELDS))
    if unknown:
        raise _refuse("", f"unknown field(s) of a game record: {', '.join(unknown)} (a game "
                          f"record has {', '.join(GAME_FIELDS)})")
    rules = _record_rules(record, default_rules)
    p = rules.players
    info = _check_game_info(record.get("game"), rules)
    if "comment" in record and not isinstance(record["comment"], str):
        raise _refuse("comment", f"must be a text, got {_shown(record['comment'])}")
    deals = _list(record["deals"], "deals", "deals")
    if not deals:
        raise _refuse("deals", "a game has at least one deal")
    stated = record.get("running_totals")
    if stated is not None:
        stated = _list(stated, "running_totals", "running totals")
        if len(stated) != len(deals):
            raise _refuse("running_totals", f"{len(stated)} entries for {len(deals)} deals")
    totals = [0] * p
    out = GameReplayResult(ok=True, rules=rules)
    dealer = info.get("first_dealer")
    why_dealer = "the game's first_dealer deals first"
    for k, d in enumerate(deals):
        where = f"deals[{k}]"
        if out.winners:
            raise _refuse(where, f"the game was over after deals[{k - 1}] (seat(s) "
                                 f"{', '.join(map(str, out.winners))} reached {rules.target})")
        if isinstance(d, dict) and "rules" in d and d["rules"] is not None:
            try:
                own = Rules.from_dict(d["rules"])
            except (RulesError, TypeError) as e:
                raise _refuse(f"{where}.rules", str(e)) from None
            if own != rules:
                raise _refuse(f"{where}.rules", "differ from the game's rules")
        res = replay_record(d, rules, revokes)
        if not res.ok:
            head = res.error.split(":", 1)[0]
            path = " " not in head and head != res.error  # "calls[6]: ..." names a field
            raise RecordError(f"{where}.{res.error}" if path else f"{where}: {res.error}")
        if not res.finished:
            raise _refuse(where, "the deal is not finished (a game holds whole deals)")
        if dealer is not None and res.dealer != dealer:
            raise _refuse(f"{where}.dealer", f"seat {res.dealer}, but {why_dealer}: seat "
                                             f"{dealer} deals this one")
        if res.state is not None and res.state.redeal_due and _redeals(d, where) < MAX_REDEALS:
            # RULES §3, after_third_frisch=redeal: the round is cancelled and (our reading) the
            # same dealer deals again, as in `game` and `simulate`
            why_dealer = (f"{where} was cancelled after the third Frisch "
                          f"(after_third_frisch=redeal), so the same dealer deals again")
        else:
            dealer = (res.dealer + 1) % p
            why_dealer = "the deal passes to the left"
        totals = [totals[s] + (res.scores or (0,) * p)[s] for s in range(p)]
        out.deals.append(res)
        out.running_totals.append(tuple(totals))
        if stated is not None and (not isinstance(stated[k], (list, tuple))
                                   or list(stated[k]) != totals):
            raise _refuse(f"running_totals[{k}]", f"{stated[k]} but the deals add up to {totals}")
        reached = [s for s in range(p) if totals[s] >= rules.target]
        if reached:
            out.winners = game_winners(totals, reached)
    if "totals" in record and not _same_list(record["totals"], totals):
        raise _refuse("totals", f"{record['totals']} but the deals add up to {totals}")
    if "winners" in record and not _same_list(record["winners"], list(out.winners)):
        raise _refuse("winners", f"{record['winners']} but RULES §7 gives "
                                 f"{list(out.winners)} (totals {totals}, target {rules.target})")
    return out


__all__ = [
    "GameReplayResult",
    "is_game_record",
    "replay_game",

    "REVOKE_MODES",
    "RecordError",
    "ReplayResult",
    "load_record",
    "parse_call",
    "record_from_trace",
    "replay_file",
    "replay_record",
]
