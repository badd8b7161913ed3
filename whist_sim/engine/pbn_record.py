"""Whole game records in PBN: a deal record (RULES §10) or a game record (§11) as PBN boards, and
back (docs/PBN.md, "Whole records").

A board carries everything a JSON record holds: the hands as dealt (``Deal``), the dealer
(``Dealer``, and ``WhistDealer``, which bridge programs do not rewrite), the calls
(``WhistAuction``: the first caller, the dealer's left, then every call: ``"S:Pass 5H Pass ..."``),
the Frisch passes (``WhistFrisch1`` .. ``WhistFrisch3``), the contracts (``WhistContracts``), the
play (``WhistPlay``: the declarer, who leads, then the cards in playing order, suit first:
``"E:SA S4 ..."``), the rule options (``WhistRules``), the revoke mode and the informative fields,
and the outcome for readers (``WhistTrump``, ``WhistDeclarer``, ``WhistContract``, ``WhistResult``,
``WhistTricks``, ``WhistScores``). A game's boards also hold the running totals (``WhistTotals``),
the game's options (``WhistGame...`` on the first board) and its winners (on the last).

Bridge programs must not read a whist deal as bridge: the standard ``Declarer``, ``Contract`` and
``Result`` tags are ``?`` (unknown), and the calls and cards are not in PBN's ``Auction`` and
``Play`` sections (a whist ``7S`` is seven tricks, a bridge ``7S`` thirteen). Boards written by
older whist-sim versions, which used those sections and tags, are still read, and their
``Contract``/``Result`` checked in the whist meaning they had.

A record read back is checked as ``replay`` checks a JSON record, by the same code
(:func:`~whist_sim.engine.record.replay_record`, :func:`~whist_sim.engine.record.replay_game`),
and its stated outcome against its calls and cards; a refusal names the board, the tag and the
tag's line (``board 1, line 27: WhistAuction: calls[6]: 5H does not beat 5S``).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.cards import (
    STRAINS,
    NotationError,
    card_str,
    format_hand,
    parse_card,
    parse_hand,
)
from ..core.pbn import (
    PBN_SEATS,
    PbnBoard,
    board_tags,
    parse_pbn,
    parse_pbn_seat,
    pbn_seat,
    whist_tags,
)
from ..core.rules import Rules, RulesError
from .record import RecordError, ReplayResult, replay_game, replay_record
from .state import PASS, IllegalAction, call_str, parse_call

BRIDGE_MAX_LEVEL = 7  # bridge levels are 1..7 (tricks above six); whist bids are not bridge bids
FRISCH_TAGS = ("WhistFrisch1", "WhistFrisch2", "WhistFrisch3")


# --------------------------------------------------------------------------- rules as a tag


def rules_tag(rules: Rules) -> str:
    """``WhistRules``: the options that differ from the rule book, ``key=value`` separated by
    spaces (``after_third_frisch=redeal zero_over=30``; ``""``: the rule book)."""
    out = []
    for k, v in sorted(rules.changes().items()):
        if isinstance(v, (list, tuple)):
            v = ",".join(v)
        elif isinstance(v, bool):
            v = "true" if v else "false"
        out.append(f"{k}={v}")
    return " ".join(out)


def parse_rules_tag(text: str) -> Rules:
    """The :class:`Rules` of a ``WhistRules`` tag (:func:`rules_tag`)."""
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    values: dict[str, Any] = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep or key not in fields:
            raise RecordError(f"WhistRules: {word!r} is not OPTION=VALUE with a rule option "
                              f"({', '.join(fields)})")
        default = getattr(Rules(), key)
        if isinstance(default, bool):
            if value not in ("true", "false"):
                raise RecordError(f"WhistRules: {key} must be true or false, got {value!r}")
            values[key] = value == "true"
        elif isinstance(default, int):
            try:
                values[key] = int(value)
            except ValueError:
                raise RecordError(
                    f"WhistRules: {key} must be a whole number, got {value!r}") from None
        else:
            values[key] = value
    try:
        return Rules(**values)
    except (RulesError, TypeError) as e:
        raise RecordError(f"WhistRules: {e}") from None


# --------------------------------------------------------------------------- record -> board


def pbn_card(card: int) -> str:
    """A card as PBN writes it in a play: suit then rank (``SA``, ``D4``)."""
    text = card_str(card)
    return text[-1] + text[:-1]


def read_card(text: str) -> int:
    """A card of a PBN play, suit first (``SA``) or whist-sim's rank first (``AS``)."""
    t = text.strip()
    if len(t) == 2 and t[0].upper() in "SHDC" and t[1].upper() in "23456789TJQKA":
        t = t[1] + t[0]
    return parse_card(t)


def list_tag(items: Sequence[str]) -> str:
    """A list of texts as one tag value: ``heuristic,hcp,random`` when that reads back exactly
    (at least one item, none empty or holding a comma, not starting with ``[``), else the JSON
    array (``["a,b", ""]``). :func:`read_list_tag` reads either."""
    plain = ",".join(items)
    if items and all(x and "," not in x for x in items) and not plain.startswith("["):
        return plain
    return json.dumps(list(items), ensure_ascii=False)


def read_list_tag(value: str) -> list[str]:
    """The texts of a :func:`list_tag` value (``""``, as whist-sim wrote an empty list before
    the JSON form, is the empty list). Raises :class:`NotationError`."""
    if value.startswith("["):
        try:
            items = json.loads(value)
        except (ValueError, RecursionError):
            raise NotationError(f"{value[:40]!r} is not a JSON list of texts") from None
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            raise NotationError(f"{value[:40]!r} is not a JSON list of texts")
        return items
    return value.split(",") if value else []


def record_board(record: Mapping[str, Any], rules: Rules | None = None, board: int = 1,
                 event: str = "whist-sim record",
                 extra: Mapping[str, object] | None = None) -> PbnBoard:
    """The PBN board of a deal record (checked first: a record that breaks a rule raises
    :class:`RecordError` with the breach). ``rules``: for a record without its own.

    The standard ``Declarer``, ``Contract`` and ``Result`` tags are ``?`` (unknown to bridge: a
    whist bid of 7 tricks is no bridge contract of 13), and the calls and cards are in the
    ``WhistAuction`` and ``WhistPlay`` tags, not in PBN's ``Auction`` and ``Play`` sections,
    which bridge programs read as bridge calls and bridge play (docs/PBN.md)."""
    res = replay_record(dict(record), rules)
    if not res.ok:
        raise RecordError(res.error)
    state = res.state
    assert state is not None and res.rules is not None
    p = state.players
    hands = [parse_hand(h) for h in record["hands"]]
    tags = board_tags(hands, board, dealer=int(record["dealer"]), event=event)
    own: dict[str, str] = {"WhistDealer": pbn_seat(int(record["dealer"]))}
    if "seed" in record:
        own["WhistSeed"] = str(int(record["seed"]))
    if "deal" in record:
        own["WhistDeal"] = str(int(record["deal"]))
    own.update(whist_tags(
        hands="dealt", thrown_in=res.thrown_in, trump=res.trump, declarer=res.declarer,
        contracts=[int(c) for c in record.get("contracts") or []],
        tricks=res.tricks or (), scores=(res.scores or ()) if res.finished else ()))
    if res.declarer >= 0:  # the whist bid and the declarer's tricks, in their whist meaning
        own["WhistContract"] = call_str(5 * res.level + res.trump)
        if res.finished and res.tricks:
            own["WhistResult"] = str(res.tricks[res.declarer])
    if "rules" in record and record["rules"] is not None:
        own["WhistRules"] = rules_tag(res.rules)
    if record.get("revokes", "reject") not in ("reject", None):
        own["WhistRevokes"] = str(record["revokes"])
    for f, entry in enumerate(record.get("frisch") or []):
        own[FRISCH_TAGS[f]] = " ".join(
            f"{PBN_SEATS[s]}:" + ",".join(card_str(parse_card(c)) for c in entry[s])
            for s in range(p))
    for key, tag in (("removed_card", "WhistRemovedCard"), ("redeals", "WhistRedeals"),
                     ("comment", "WhistComment")):
        if key in record:
            own[tag] = str(record[key])
    if "policies" in record:
        own["WhistPolicies"] = list_tag(record["policies"])
    tags.update(own)
    for k, v in (extra or {}).items():
        tags[k] = str(v)
    first = pbn_seat((state.dealer + 1) % p)
    calls = ["Pass" if c == PASS else call_str(c) for c in state.calls]
    tags["WhistAuction"] = f"{first}:" + " ".join(calls)
    if state.plays:
        tags["WhistPlay"] = f"{pbn_seat(state.declarer)}:" + " ".join(
            pbn_card(c) for c in state.plays)
    return PbnBoard(tags=tags)


def game_boards(game: Mapping[str, Any], rules: Rules | None = None,
                event: str = "whist-sim game") -> list[PbnBoard]:
    """The PBN boards of a game record, one per deal (board ``k + 1``), with the running totals;
    the game's options on the first board, its winners on the last. The game is checked first
    (:func:`~whist_sim.engine.record.replay_game`): one that ``replay`` refuses raises
    :class:`RecordError` with the breach, and nothing is written."""
    from .record import _record_rules, replay_game

    checked = replay_game(dict(game), rules)
    if not checked.ok:
        raise RecordError(checked.error)
    game_rules = _record_rules(dict(game), Rules() if rules is None else rules)
    info = game.get("game") or {}
    running = game.get("running_totals")
    boards = []
    deals = list(game["deals"])
    for k, d in enumerate(deals):
        extra: dict[str, object] = {}
        if k == 0:
            extra["WhistGameRules"] = rules_tag(game_rules)
            for key, tag in (("seed", "WhistGameSeed"), ("target", "WhistGameTarget"),
                             ("first_dealer", "WhistGameFirstDealer")):
                if key in info:
                    extra[tag] = str(info[key])
            if "seats" in info:
                extra["WhistGameSeats"] = list_tag(info["seats"])
            if "comment" in game:
                extra["WhistGameComment"] = str(game["comment"])
        if running is not None:
            extra["WhistTotals"] = " ".join(str(int(v)) for v in running[k])
        if k == len(deals) - 1:
            if "totals" in game:
                extra["WhistGameTotals"] = " ".join(str(int(v)) for v in game["totals"])
            if "winners" in game:
                extra["WhistGameWinners"] = " ".join(pbn_seat(int(s)) for s in game["winners"])
        try:
            boards.append(record_board(d, game_rules, board=k + 1, event=event, extra=extra))
        except RecordError as e:
            raise RecordError(f"deals[{k}]: {e}") from None
    return boards


# --------------------------------------------------------------------------- board -> record
#
# The reader is as strict as the JSON reader, and by the same text of the rules: a board is
# turned into the JSON record it stands for, which `replay_record` checks; a refusal, which names
# a record field (`calls[6]: 5H does not beat 5S`), is reported with the tag that holds that
# field and the tag's line. What only PBN can get wrong (a seat letter, a tag's first seat, a
# card after the end of the play, a stated outcome) is checked here.


class _Board:
    """A board being read: refusals name the board, the tag and the tag's line."""

    def __init__(self, b: PbnBoard) -> None:
        self.b = b
        self.t = b.tags

    def fail(self, tag: str | None, why: str) -> RecordError:
        if tag is None:
            return RecordError(f"{self.b.where()}: {why}")
        return RecordError(f"{self.b.where(tag)}: {tag}: {why}")

    def whole(self, tag: str, text: str | None = None) -> int:
        value = self.t[tag] if text is None else text
        if not _WHOLE.fullmatch(value):
            raise self.fail(tag, f"{value[:40]!r} is not a whole number")
        return int(value)

    def ints(self, tag: str) -> list[int]:
        return [self.whole(tag, v) for v in self.t[tag].split()]

    def seat(self, tag: str, text: str, players: int) -> int:
        try:
            seat = parse_pbn_seat(text)
        except NotationError as e:
            raise self.fail(tag, str(e)) from None
        if seat >= players:
            raise self.fail(tag, f"{text} is not a seat of {players} players (N, E, S"
                                 f"{', W' if players == 4 else ''})")
        return seat


_WHOLE = re.compile(r"-?[0-9]{1,4000}")

#: The tag of each record field a refusal may name (``calls``: the auction's tag, ``play``: the
#: play's, ``frisch[f]``: ``WhistFrisch{f+1}``).
_FIELD_TAGS = {
    "hands": "Deal", "contracts": "WhistContracts", "revokes": "WhistRevokes",
    "rules": "WhistRules", "seed": "WhistSeed", "deal": "WhistDeal",
    "policies": "WhistPolicies", "removed_card": "WhistRemovedCard", "comment": "WhistComment",
    "redeals": "WhistRedeals",
}
_FIELD = re.compile(r"([a-z_]+)(?:\[(\d+)\])?")


def _field_tag(error: str, tags: Mapping[str, str]) -> str | None:
    """The tag that holds the record field a refusal starts with (``calls[6]: ...``)."""
    head = error.split(":", 1)[0]
    m = _FIELD.match(head)
    if " " in head or m is None:
        return None
    name, index = m.group(1), m.group(2)
    if name == "dealer":
        return "WhistDealer" if "WhistDealer" in tags else "Dealer"
    if name == "calls":
        return "Auction" if "Auction" in tags else "WhistAuction"
    if name == "play":
        return "Play" if "Play" in tags else "WhistPlay"
    if name == "frisch":
        return FRISCH_TAGS[int(index)] if index is not None and int(index) < 3 else FRISCH_TAGS[0]
    return _FIELD_TAGS.get(name)


def _refusal(rb: _Board, error: str) -> RecordError:
    """A refusal of the JSON record reader, reported with the tag and line of the field."""
    return rb.fail(_field_tag(error, rb.t), error)


def _first_caller(rb: _Board, tag: str, text: str, dealer: int, players: int) -> None:
    """The auction tag's first seat is the dealer's left, who calls first (RULES §2)."""
    seat = rb.seat(tag, text, players)
    first = (dealer + 1) % players
    if seat != first:
        raise rb.fail(tag, f"the first call is by {pbn_seat(first)}, the dealer "
                           f"{pbn_seat(dealer)}'s left (RULES §2), not {text}")


def _cells(text: str) -> list[str]:
    return [w for w in text.replace("\n", " ").split() if not w.startswith("=")]


def _players(b: PbnBoard, rules: Rules | None) -> int:
    if rules is not None:
        return rules.players
    deal = (b.deal_text or "").split()
    # a fourth hand written "-" (whist-sim) or empty "..." (written back by bridge programs)
    return 3 if len(deal) == 4 and _unknown_fourth(b.deal_text or "") else 4


def _unknown_fourth(deal: str) -> bool:
    src = deal.strip()
    if len(src) < 2 or src[1] != ":":
        return False
    try:
        first = parse_pbn_seat(src[0])
    except NotationError:
        return False
    parts = src[2:].split()
    if len(parts) != 4:
        return False
    w = parts[(3 - first) % 4]
    return w == "-" or w.replace(".", "") == ""


def _hands(rb: _Board, players: int) -> list[str]:
    text = rb.b.deal_text
    if text is None:
        raise rb.fail(None, "no Deal tag")
    src = text.strip()
    if players == 3 and _unknown_fourth(src):
        first = parse_pbn_seat(src[0])
        parts = src[2:].split()
        parts[(3 - first) % 4] = "-"
        src = f"{src[:2]}{' '.join(parts)}"
    from ..core.pbn import parse_pbn_deal

    try:
        hands = parse_pbn_deal(src)
    except NotationError as e:
        raise rb.fail("Deal", str(e)) from None
    if any(h is None for h in hands[:players]):
        raise rb.fail("Deal", f"a hand of seats {', '.join(PBN_SEATS[:players])} is not known")
    if players == 3 and hands[3] is not None:
        raise rb.fail("Deal", "a three-player deal has no fourth hand (W is '-')")
    return [format_hand(int(h)) for h in hands[:players] if h is not None]


def _calls(rb: _Board, dealer: int, p: int) -> tuple[str, list[str]]:
    """The auction's tag and its calls (whist-sim's notation), its first seat checked."""
    t = rb.t
    if "Auction" in t:  # the standard section, as whist-sim wrote boards before WhistAuction
        name = "Auction"
        _first_caller(rb, name, t[name], dealer, p)
        cells = _cells(rb.b.sections.get(name, ""))
    else:
        name = "WhistAuction"
        seat_text, sep, rest = t[name].partition(":")
        if not sep:
            raise rb.fail(name, f"{t[name][:40]!r} is not SEAT:CALL CALL ... (the first caller, "
                                "then the calls)")
        _first_caller(rb, name, seat_text.strip(), dealer, p)
        cells = rest.split()
    calls = []
    for i, c in enumerate(cells):
        try:
            calls.append("pass" if c.lower() in ("pass", "p") else call_str(parse_call(c)))
        except NotationError as e:
            raise rb.fail(name, f"calls[{i}]: {e}") from None
    return name, calls


def _frisch(rb: _Board, p: int) -> list[list[list[str]]]:
    frisch = []
    for f, tag in enumerate(FRISCH_TAGS):
        if tag not in rb.t:
            later = [x for x in FRISCH_TAGS[f + 1:] if x in rb.t]
            if later:
                raise rb.fail(later[0], f"given without {tag}")
            break
        entry: list[list[str]] = [[] for _ in range(p)]
        seen: set[int] = set()
        for part in rb.t[tag].split():
            seat_text, sep, cards = part.partition(":")
            if not sep:
                raise rb.fail(tag, f"{part!r} is not SEAT:CARD,CARD,CARD")
            seat = rb.seat(tag, seat_text, p)
            if seat in seen:
                raise rb.fail(tag, f"seat {seat_text} is given twice")
            seen.add(seat)
            try:
                entry[seat] = [card_str(parse_card(c)) for c in cards.split(",") if c]
            except NotationError as e:
                raise rb.fail(tag, str(e)) from None
        frisch.append(entry)
    return frisch


def board_record(b: PbnBoard, rules: Rules | None = None,
                 revokes: str | None = None) -> dict[str, Any]:
    """The deal record (RULES §10) of a PBN board (:func:`record_board`'s tags; the standard
    ``Auction`` and ``Play`` sections of boards written by older whist-sim versions are read too).

    The record is checked as ``replay`` checks a JSON record, and the board's stated outcome
    against it; a board that holds no auction (a dataset's board: the outcome only) is refused.
    Raises :class:`RecordError` naming the board, the tag and its line. ``revokes``: as for
    :func:`~whist_sim.engine.record.replay_record`, over the board's ``WhistRevokes``."""
    rb = _Board(b)
    try:
        return _board_record(rb, rules, revokes)
    except NotationError as e:  # a safety net: every known case is named above
        raise rb.fail(None, str(e)) from None


def _board_record(rb: _Board, rules: Rules | None, revokes: str | None) -> dict[str, Any]:
    b, t = rb.b, rb.t
    if "Auction" not in t and "WhistAuction" not in t:
        if "WhistHands" in t:
            raise RecordError(f"{b.where()} holds the outcome only (exported from a dataset): "
                              "no auction or play to replay")
        raise RecordError(f"{b.where()} holds a deal but no auction (no WhistAuction tag): "
                          "nothing to replay")
    if t.get("WhistHands", "dealt") != "dealt":
        raise rb.fail("WhistHands", f"{t['WhistHands'][:20]!r}: a record's Deal holds the hands "
                                    "as dealt ('dealt')")
    try:
        own_rules = parse_rules_tag(t["WhistRules"]) if "WhistRules" in t else None
    except RecordError as e:
        raise rb.fail("WhistRules", str(e).removeprefix("WhistRules: ")) from None
    p = _players(b, own_rules or rules)
    record: dict[str, Any] = {}
    for key, tag in (("seed", "WhistSeed"), ("deal", "WhistDeal")):
        if tag in t:
            record[key] = rb.whole(tag)
    # WhistDealer first: a bridge program writing a board back may rewrite Dealer (endplay sets
    # N on a board without a contract it can read)
    dealer_tag = "WhistDealer" if "WhistDealer" in t else "Dealer"
    if dealer_tag not in t:
        raise rb.fail(None, "no Dealer tag")
    dealer = rb.seat(dealer_tag, t[dealer_tag], p)
    record["dealer"] = dealer
    record["hands"] = _hands(rb, p)
    record["frisch"] = _frisch(rb, p)
    _, record["calls"] = _calls(rb, dealer, p)
    record["contracts"] = rb.ints("WhistContracts") if "WhistContracts" in t else []
    record["play"] = []
    if own_rules is not None:
        record["rules"] = own_rules.to_dict()
    record["revokes"] = t.get("WhistRevokes", "reject")
    if "WhistRemovedCard" in t:
        record["removed_card"] = t["WhistRemovedCard"]
    if "WhistRedeals" in t:
        record["redeals"] = rb.whole("WhistRedeals")
    if "WhistComment" in t:
        record["comment"] = t["WhistComment"]
    if "WhistPolicies" in t:
        try:
            record["policies"] = read_list_tag(t["WhistPolicies"])
        except NotationError as e:
            raise rb.fail("WhistPolicies", str(e)) from None
    leader, leader_text = -1, ""
    if "Play" in t:
        record["play"] = _linear_play(rb, record, rules, p, revokes)
    elif "WhistPlay" in t:
        leader_text, sep, cards = t["WhistPlay"].partition(":")
        if not sep:
            raise rb.fail("WhistPlay", f"{t['WhistPlay'][:40]!r} is not SEAT:CARD CARD ... "
                                       "(the leader, then the cards in playing order)")
        leader = rb.seat("WhistPlay", leader_text.strip(), p)
        try:
            record["play"] = [card_str(read_card(c)) for c in cards.split()]
        except NotationError as e:
            raise rb.fail("WhistPlay", str(e)) from None
    res = replay_record(record, rules, revokes)
    if not res.ok:
        raise _refusal(rb, res.error)
    if "WhistPlay" in t and "Play" not in t and res.declarer >= 0 and leader != res.declarer:
        raise rb.fail("WhistPlay", f"the first card is led by {leader_text.strip()}, but the "
                                   f"declarer {pbn_seat(res.declarer)} leads (RULES §5)")
    stated = _stated_outcome(t, res)
    if stated:
        tag, why = stated
        raise RecordError(f"{b.where(tag)}: {why}")
    return record


def _linear_play(rb: _Board, record: dict[str, Any], rules: Rules | None, p: int,
                 revokes: str | None) -> list[str]:
    """The cards in playing order from PBN's play table (boards of older whist-sim versions):
    replay the record to the start of play, then take each seat's card of the trick in progress
    from the table, so the leader of every trick is the rules' trick winner. The tag's seat names
    the table's first column (whist-sim wrote the declarer, who leads; a bridge program writing
    the board back may name the seat after him: the columns still name the seats). A card after
    the end of the record (a 14th trick, a card after ``-``) is refused."""
    tag = "Play"
    cells = _cells(rb.b.sections.get(tag, ""))
    res = replay_record({**record, "play": []}, rules, revokes)
    if not res.ok:
        raise _refusal(rb, res.error)
    state = res.state
    assert state is not None
    leader = rb.seat(tag, rb.t[tag], p)
    if state.phase != "play":
        if any(c not in ("-", "+", "*") for c in cells):
            raise rb.fail(tag, "cards given, but the contracts are not complete")
        return []
    rows = [cells[i:i + p] for i in range(0, len(cells), p)]
    out: list[str] = []
    used: set[tuple[int, int]] = set()
    allow = (revokes or record.get("revokes") or "reject") == "penalize"
    while state.phase == "play":
        k = state.trick_number
        if k >= len(rows):
            break
        col = (state.to_move - leader) % p
        if col >= len(rows[k]) or rows[k][col] in ("-", "+", "*"):
            break  # the record stops here
        text = rows[k][col]
        try:
            card = read_card(text)
            state.apply(card, allow_revoke=allow)
        except (NotationError, IllegalAction) as e:
            raise rb.fail(tag, f"trick {k + 1}, {pbn_seat(state.to_move)}: {e}") from None
        used.add((k, col))
        out.append(card_str(card))
    for k, row in enumerate(rows):
        for col, text in enumerate(row):
            if (k, col) not in used and text not in ("-", "+", "*"):
                if state.phase != "play":  # a 14th trick, a 53rd card
                    raise rb.fail(tag, f"trick {k + 1}: {text} after the end of the deal "
                                       f"({len(out)} cards)")
                raise rb.fail(tag, f"trick {k + 1}: {text} after the record stops "
                                   f"(at card {len(out) + 1})")
    return out


def board_is_game(b: PbnBoard) -> bool:
    return "WhistTotals" in b.tags or "WhistGameRules" in b.tags


def _deal_boards(text: str) -> list[PbnBoard]:
    try:
        boards = parse_pbn(text)
    except NotationError as e:
        raise RecordError(f"not a readable PBN file: {e}") from None
    boards = [b for b in boards if "Deal" in b.tags]
    if not boards:
        raise RecordError("the PBN file holds no board with a Deal tag")
    if all("Auction" not in b.tags and "WhistAuction" not in b.tags and "WhistHands" in b.tags
           for b in boards):  # one line for the whole file, not one per board
        raise RecordError(f"the PBN file's {len(boards):,} board(s) hold the outcome only "
                          "(exported from a dataset): no auction or play to replay")
    return boards


def pbn_records(text: str, rules: Rules | None = None,
                revokes: str | None = None) -> list[dict[str, Any]]:
    """The records of a PBN file: one game record when its boards are a game's (``WhistTotals``,
    ``WhistGameRules``), else one deal record per board that has a ``Deal``. Each is checked as
    ``replay`` checks a JSON record; the first refused board raises :class:`RecordError`."""
    boards = _deal_boards(text)
    if any(board_is_game(b) for b in boards):
        return [_game_record(boards, rules, revokes)]
    return [board_record(b, rules, revokes) for b in boards]


def _game_record(boards: list[PbnBoard], rules: Rules | None,
                 revokes: str | None = None) -> dict[str, Any]:
    head, last = _Board(boards[0]), _Board(boards[-1])
    try:
        game_rules = parse_rules_tag(head.t["WhistGameRules"]) if (
            "WhistGameRules" in head.t) else (rules or Rules())
    except RecordError as e:
        raise head.fail("WhistGameRules", str(e).removeprefix("WhistRules: ")) from None
    info: dict[str, Any] = {}
    for key, tag in (("seed", "WhistGameSeed"), ("target", "WhistGameTarget"),
                     ("first_dealer", "WhistGameFirstDealer")):
        if tag in head.t:
            info[key] = head.whole(tag)
    if "WhistGameSeats" in head.t:
        try:
            info["seats"] = read_list_tag(head.t["WhistGameSeats"])
        except NotationError as e:
            raise head.fail("WhistGameSeats", str(e)) from None
    order = ["seed", "target", "seats", "first_dealer"]
    game: dict[str, Any] = {"game": {k: info[k] for k in order if k in info}} if info else {}
    game["rules"] = game_rules.to_dict()
    deals = []
    running = []
    for b in boards:
        rec = board_record(b, game_rules, revokes)
        rec.pop("rules", None)
        deals.append(rec)
        if "WhistTotals" in b.tags:
            running.append(_Board(b).ints("WhistTotals"))
    game["deals"] = deals
    if running:
        game["running_totals"] = running
    if "WhistGameTotals" in last.t:
        game["totals"] = last.ints("WhistGameTotals")
    if "WhistGameWinners" in last.t:
        p = game_rules.players
        game["winners"] = [last.seat("WhistGameWinners", s, p)
                           for s in last.t["WhistGameWinners"].split()]
    if "WhistGameComment" in head.t:
        game["comment"] = head.t["WhistGameComment"]
    checked = replay_game(game, rules, revokes)
    if not checked.ok:
        raise _game_refusal(boards, checked.error)
    return game


def _game_refusal(boards: list[PbnBoard], error: str) -> RecordError:
    """A refusal of the game record reader, reported with the board, tag and line it concerns."""
    head, last = _Board(boards[0]), _Board(boards[-1])
    m = re.match(r"(deals|running_totals)\[(\d+)\]", error)
    if m and int(m.group(2)) < len(boards):
        rb = _Board(boards[int(m.group(2))])
        if m.group(1) == "running_totals":
            return rb.fail("WhistTotals", error)
        rest = error[m.end():]
        if rest.startswith("."):
            return _refusal(rb, rest[1:])
        return rb.fail(None, error)
    for prefix, board, tag in (("game.seed", head, "WhistGameSeed"),
                               ("game.target", head, "WhistGameTarget"),
                               ("game.seats", head, "WhistGameSeats"),
                               ("game.first_dealer", head, "WhistGameFirstDealer"),
                               ("running_totals", head, "WhistTotals"),
                               ("totals", last, "WhistGameTotals"),
                               ("winners", last, "WhistGameWinners"),
                               ("comment", head, "WhistGameComment"),
                               ("rules", head, "WhistGameRules")):
        if error.startswith(prefix + ":"):
            return board.fail(tag, error)
    return head.fail(None, error)


def _stated_outcome(t: Mapping[str, str], res: ReplayResult) -> tuple[str, str] | None:
    """The first outcome tag of a board that differs from what its calls and cards give: the
    tag and the message; ``None`` when all agree. Checked: ``WhistThrownIn``, ``WhistTrump``,
    ``WhistDeclarer``, ``WhistContract``, ``WhistResult``, ``WhistTricks``, ``WhistScores``, and
    the standard ``Declarer``, ``Contract`` and ``Result`` when they hold a value (boards of older
    whist-sim versions wrote the whist bid there; ``?`` or ``""`` state nothing)."""
    over = res.declarer >= 0
    bid = call_str(5 * res.level + res.trump) if over else None
    taken = str(res.tricks[res.declarer]) if over and res.finished and res.tricks else None
    seat = pbn_seat(res.declarer) if over else None
    expected: list[tuple[str, str | None, str]] = [
        ("WhistThrownIn", "yes" if res.thrown_in else None, "the deal was not thrown in"),
        ("WhistTrump", STRAINS[res.trump] if over else None, "the auction is not over"),
        ("WhistDeclarer", seat, "the auction is not over"),
        ("WhistContract", bid, "the auction is not over"),
        ("WhistResult", taken, "the play is not finished"),
        ("Declarer", seat, "the auction is not over"),
        ("Contract", "Pass" if res.thrown_in else bid, "the auction is not over"),
        ("Result", taken, "the play is not finished"),
    ]
    for tag, want, missing in expected:
        if tag not in t or (tag in ("Declarer", "Contract", "Result") and t[tag] in ("?", "")):
            continue
        got = t[tag].strip()
        if want is None:
            why = "the deal was thrown in" if res.thrown_in and tag != "WhistThrownIn" else missing
            return tag, f"{tag} says {got}, but {why}"
        if got.upper() != want.upper():
            return tag, f"{tag} says {got}, but the calls and cards give {want}"
    for tag, values in (("WhistTricks", res.tricks), ("WhistScores", res.scores)):
        if tag not in t:
            continue
        words = t[tag].split()
        if not all(_WHOLE.fullmatch(w) for w in words):
            return tag, f"{tag}: {t[tag][:40]!r} is not whole numbers, one per seat"
        if values is None or (res.thrown_in and tag == "WhistTricks"):
            return tag, f"{tag} says {t[tag]}, but the play is not finished"
        if [int(w) for w in words] != list(values):
            return tag, (f"{tag} says {t[tag]}, but the play gives "
                         f"{' '.join(map(str, values))}")
    return None


def check_stated_outcome(b: PbnBoard, res: ReplayResult) -> str | None:
    """The first outcome tag of a board (``WhistTricks``, ``WhistScores``, ``WhistContract``...)
    that differs from the replay's, as an error message; ``None`` when they agree."""
    stated = _stated_outcome(b.tags, res)
    return None if stated is None else stated[1]


def canonical_record(record: Mapping[str, Any], rules: Rules | None = None) -> dict[str, Any]:
    """The record a PBN board gives back for ``record`` (a deal or a game record that ``replay``
    accepts): the same record in whist-sim's spelling. Hands, cards and calls are written as
    whist-sim writes them (``AKQ2.K3.QJ54.872``, ``AS``, ``pass``, ``5S``), a ``rules`` object
    holds every option, the optional lists (``frisch``, ``contracts``, ``play``) are present
    (empty when absent or null), ``revokes`` is present (``reject`` when absent or null), a null
    ``rules`` or an empty ``game`` is left out; a game's deals carry no ``rules`` (the game's
    hold), and a game has its ``rules`` (``rules`` when it had none). Every other field is kept
    as it is."""
    if "deals" in record:
        game = dict(record)
        from .record import _record_rules

        game["rules"] = _record_rules(dict(record), Rules() if rules is None else rules).to_dict()
        if not game.get("game"):
            game.pop("game", None)
        deals = []
        for d in record["deals"]:
            c = canonical_record(d)
            c.pop("rules", None)
            deals.append(c)
        game["deals"] = deals
        return game
    out = dict(record)
    out["hands"] = [format_hand(parse_hand(h)) for h in record["hands"]]
    out["frisch"] = [[[card_str(parse_card(c)) for c in seat] for seat in entry]
                     for entry in record.get("frisch") or []]
    out["calls"] = ["pass" if parse_call(c) == PASS else call_str(parse_call(c))
                    for c in record["calls"]]
    out["contracts"] = list(record.get("contracts") or [])
    out["play"] = [card_str(parse_card(c)) for c in record.get("play") or []]
    out["revokes"] = record.get("revokes") or "reject"
    if out.get("rules") is None:
        out.pop("rules", None)
    else:
        out["rules"] = Rules.from_dict(out["rules"]).to_dict()
    return out


__all__ = [
    "board_record",
    "canonical_record",
    "check_stated_outcome",
    "game_boards",
    "list_tag",
    "load_records",
    "parse_rules_tag",
    "pbn_records",
    "read_list_tag",
    "record_board",
    "rules_tag",
]


def load_records(path: str | Path, rules: Rules | None = None, each_board: bool = False,
                 revokes: str | None = None) -> list[tuple[str, Any]]:
    """The records of a file as ``(name, record)`` pairs: a JSON file holds one record (a deal or
    a game; its name is ``path``), a PBN file one game record or one deal record per board
    (``path#board``; docs/PBN.md, whole records). Either is read within the limits of
    :mod:`whist_sim.core.jsonio` (size, UTF-8; a JSON record also nesting and number length).
    Raises :class:`RecordError`; with ``each_board``, a refused board of a file of deal boards is
    given as a :class:`ReplayResult` (``ok`` False) in its place, and the other boards are read.
    ``revokes``: the revoke mode a PBN board is checked with (``replay --revokes``)."""
    from ..core.jsonio import JsonInputError, decode_utf8, parse_json, read_capped
    from ..core.pbn import is_pbn

    try:
        text = decode_utf8(read_capped(path))
        if text.lstrip().startswith("{") or not is_pbn(text):
            return [(str(path), parse_json(text))]
    except JsonInputError as e:
        raise RecordError(str(e)) from None
    boards = _deal_boards(text)
    if any(board_is_game(b) for b in boards):
        return [(str(path), _game_record(boards, rules, revokes))]
    out: list[tuple[str, Any]] = []
    for i, b in enumerate(boards):
        name = str(path) if len(boards) == 1 else f"{path}#{i + 1}"
        try:
            out.append((name, board_record(b, rules, revokes)))
        except RecordError as e:
            if not each_board:
                raise
            out.append((name, ReplayResult(ok=False, error=str(e))))
    return out
