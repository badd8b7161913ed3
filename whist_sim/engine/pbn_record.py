"""Whole game records in PBN: a deal record (RULES §10) or a game record (§11) as PBN boards, and
back (docs/PBN.md, "Whole records").

A board carries everything a JSON record holds: the hands as dealt (``Deal``), the dealer
(``Dealer``, and ``WhistDealer``, which bridge programs do not rewrite), the
calls (``Auction``), the Frisch passes (``WhistFrisch1`` .. ``WhistFrisch3``), the contracts
(``WhistContracts``), the play (``Play``), the rule options (``WhistRules``) and the revoke mode,
and the outcome for readers (``Declarer``, ``Contract``, ``Result``, ``WhistTrump``,
``WhistTricks``, ``WhistScores``). ``Auction`` and ``Play`` are the standard PBN sections (the
first caller, the dealer's left, then every call; the opening leader, then one trick a line, a
card per seat clockwise from the leader, cards written suit first: ``SA``) where a bridge program
can read them: four players and no call above level 7. Otherwise the calls and the cards go into
the tags ``WhistAuction`` (the first caller, then the calls: ``"S:Pass 5H Pass ..."``) and
``WhistPlay`` (the leader, then the cards in playing order), which bridge programs keep as
unknown tags. A game's boards also hold the running totals
(``WhistTotals``), the game's options (``WhistGame...`` on the first board) and its winners (on
the last).

A record read back goes through :func:`replay_record` / :func:`replay_game` like any JSON record;
reading also compares the board's stated outcome (``WhistTricks``, ``WhistScores``) with what its
calls and cards give, and refuses a board where they differ (:func:`check_stated_outcome`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.cards import (
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
from .record import RecordError, ReplayResult, replay_record
from .state import PASS, IllegalAction, call_str, parse_call

BRIDGE_MAX_LEVEL = 7  # bridge programs read calls and contracts of levels 1..7 only
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


def _bridge_readable(state: Any) -> bool:
    levels = [c // 5 for c in state.calls if c != PASS]
    return state.players == 4 and all(lv <= BRIDGE_MAX_LEVEL for lv in levels)


def _table(cells: Sequence[str], width: int) -> str:
    rows = [cells[i:i + width] for i in range(0, len(cells), width)]
    return "\n".join(" ".join(f"{c:<4}" for c in row).rstrip() for row in rows)


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


def _play_table(state: Any) -> tuple[int, str]:
    """The play as PBN's table: the opening leader, then one line per trick with the card of each
    seat clockwise from the leader (``-`` for a card not played)."""
    p = state.players
    leader = state.declarer
    tricks: list[dict[int, int]] = [dict(cards) for _, cards in state.completed_tricks]
    if state.current_trick:
        tricks.append(dict(state.current_trick))
    cells = []
    for trick in tricks:
        for i in range(p):
            seat = (leader + i) % p
            cells.append(pbn_card(trick[seat]) if seat in trick else "-")
    return leader, _table(cells, p)


def record_board(record: Mapping[str, Any], rules: Rules | None = None, board: int = 1,
                 event: str = "whist-sim record",
                 extra: Mapping[str, object] | None = None) -> PbnBoard:
    """The PBN board of a deal record (checked first: a record that breaks a rule raises
    :class:`RecordError` with the breach). ``rules``: for a record without its own."""
    res = replay_record(dict(record), rules)
    if not res.ok:
        raise RecordError(res.error)
    state = res.state
    assert state is not None and res.rules is not None
    p = state.players
    hands = [parse_hand(h) for h in record["hands"]]
    tags = board_tags(hands, board, dealer=int(record["dealer"]), event=event)
    readable = _bridge_readable(state)
    if res.declarer >= 0 and readable and res.level <= BRIDGE_MAX_LEVEL:
        tags["Declarer"] = pbn_seat(res.declarer)
        tags["Contract"] = call_str(5 * res.level + res.trump)
        if res.finished:
            tags["Result"] = str(res.tricks[res.declarer] if res.tricks else 0)
    elif res.thrown_in and readable:
        tags["Contract"] = "Pass"
    own: dict[str, str] = {"WhistDealer": pbn_seat(int(record["dealer"]))}
    if "seed" in record:
        own["WhistSeed"] = str(int(record["seed"]))
    if "deal" in record:
        own["WhistDeal"] = str(int(record["deal"]))
    own.update(whist_tags(
        hands="dealt", thrown_in=res.thrown_in, trump=res.trump, declarer=res.declarer,
        contracts=[int(c) for c in record.get("contracts") or []],
        tricks=res.tricks or (), scores=(res.scores or ()) if res.finished else ()))
    if "rules" in record and record["rules"] is not None:
        own["WhistRules"] = rules_tag(res.rules)
    if record.get("revokes", "reject") != "reject":
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
        own["WhistPolicies"] = ",".join(str(x) for x in record["policies"])
    tags.update(own)
    for k, v in (extra or {}).items():
        tags[k] = str(v)
    sections: dict[str, str] = {}
    first = pbn_seat((state.dealer + 1) % p)
    calls = ["Pass" if c == PASS else call_str(c) for c in state.calls]
    if readable:
        tags["Auction"] = first
        sections["Auction"] = _table(calls, p)
        if state.plays:
            leader, table = _play_table(state)
            tags["Play"] = pbn_seat(leader)
            sections["Play"] = table
    else:
        tags["WhistAuction"] = f"{first}:" + " ".join(calls)
        if state.plays:
            tags["WhistPlay"] = f"{pbn_seat(state.declarer)}:" + " ".join(
                pbn_card(c) for c in state.plays)
    return PbnBoard(tags=tags, sections=sections)


def game_boards(game: Mapping[str, Any], rules: Rules | None = None,
                event: str = "whist-sim game") -> list[PbnBoard]:
    """The PBN boards of a game record, one per deal (board ``k + 1``), with the running totals;
    the game's options on the first board, its winners on the last."""
    from .record import _record_rules

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
                extra["WhistGameSeats"] = ",".join(info["seats"])
            if "comment" in game:
                extra["WhistGameComment"] = str(game["comment"])
        if running is not None:
            extra["WhistTotals"] = " ".join(str(int(v)) for v in running[k])
        if k == len(deals) - 1:
            if "totals" in game:
                extra["WhistGameTotals"] = " ".join(str(int(v)) for v in game["totals"])
            if "winners" in game:
                extra["WhistGameWinners"] = " ".join(pbn_seat(int(s)) for s in game["winners"])
        boards.append(record_board(d, game_rules, board=k + 1, event=event, extra=extra))
    return boards


# --------------------------------------------------------------------------- board -> record


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
    first = parse_pbn_seat(src[0])
    parts = src[2:].split()
    if len(parts) != 4:
        return False
    w = parts[(3 - first) % 4]
    return w == "-" or w.replace(".", "") == ""


def _hands(b: PbnBoard, players: int) -> list[str]:
    text = b.deal_text
    if text is None:
        raise RecordError(f"board at line {b.line}: no Deal tag")
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
        raise RecordError(f"board at line {b.line}: Deal: {e}") from None
    if any(h is None for h in hands[:players]):
        raise RecordError(f"board at line {b.line}: Deal: a hand of seats 0..{players - 1} is "
                          "not known")
    return [format_hand(int(h)) for h in hands[:players] if h is not None]


def board_record(b: PbnBoard, rules: Rules | None = None) -> dict[str, Any]:
    """The deal record (RULES §10) of a PBN board (:func:`record_board`'s tags and sections;
    the outcome tags are not part of it). Raises :class:`RecordError` naming the tag."""
    t = b.tags
    where = f"board {t.get('Board', '?')} (line {b.line})"
    own_rules = parse_rules_tag(t["WhistRules"]) if "WhistRules" in t else None
    p = _players(b, own_rules or rules)
    record: dict[str, Any] = {}
    for key, tag in (("seed", "WhistSeed"), ("deal", "WhistDeal")):
        if tag in t:
            record[key] = _int(t[tag], where, tag)
    # WhistDealer first: a bridge program writing a board back may rewrite Dealer (endplay sets
    # N on a board without a contract it can read)
    dealer_tag = "WhistDealer" if "WhistDealer" in t else "Dealer"
    if dealer_tag not in t:
        raise RecordError(f"{where}: no Dealer tag")
    try:
        record["dealer"] = parse_pbn_seat(t[dealer_tag])
    except NotationError as e:
        raise RecordError(f"{where}: {dealer_tag}: {e}") from None
    record["hands"] = _hands(b, p)
    frisch = []
    for tag in FRISCH_TAGS:
        if tag not in t:
            break
        entry: list[list[str]] = [[] for _ in range(p)]
        for part in t[tag].split():
            seat_text, sep, cards = part.partition(":")
            try:
                seat = parse_pbn_seat(seat_text)
            except NotationError as e:
                raise RecordError(f"{where}: {tag}: {e}") from None
            if not sep or seat >= p:
                raise RecordError(f"{where}: {tag}: {part!r} is not SEAT:CARD,CARD,CARD")
            entry[seat] = [c for c in cards.split(",") if c]
        frisch.append(entry)
    if "Auction" in t:
        name, calls = "Auction", _cells(b.sections.get("Auction", ""))
    else:
        name = "WhistAuction"
        calls = t.get(name, "").partition(":")[2].split()
    for i, c in enumerate(calls):
        try:
            parse_call("pass" if c.lower() in ("pass", "p") else c)
        except NotationError as e:
            raise RecordError(f"{where}: {name} call {i + 1}: {e}") from None
    record["frisch"] = frisch
    record["calls"] = ["pass" if c.lower() in ("pass", "p") else c.upper() for c in calls]
    if "WhistContracts" in t:
        record["contracts"] = [_int(v, where, "WhistContracts")
                               for v in t["WhistContracts"].split()]
    else:
        record["contracts"] = []
    record["play"] = []
    if own_rules is not None:
        record["rules"] = own_rules.to_dict()
    record["revokes"] = t.get("WhistRevokes", "reject")
    if "WhistRemovedCard" in t:
        record["removed_card"] = t["WhistRemovedCard"]
    if "WhistRedeals" in t:
        record["redeals"] = _int(t["WhistRedeals"], where, "WhistRedeals")
    if "WhistComment" in t:
        record["comment"] = t["WhistComment"]
    if "WhistPolicies" in t:
        record["policies"] = t["WhistPolicies"].split(",")
    if "Play" in t:
        record["play"] = _linear_play(record, rules, t["Play"],
                                      _cells(b.sections.get("Play", "")), p, where, "Play")
    elif "WhistPlay" in t:
        leader, _, cards = t["WhistPlay"].partition(":")
        try:
            record["play"] = [card_str(read_card(c)) for c in cards.split()]
        except NotationError as e:
            raise RecordError(f"{where}: WhistPlay: {e}") from None
    res = replay_record(record, rules)
    if res.ok:  # what is read back is verified: the stated outcome must be the record's
        stated = check_stated_outcome(b, res)
        if stated:
            raise RecordError(f"{where}: {stated}")
    return record


def _int(text: str, where: str, tag: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RecordError(f"{where}: {tag}: {text!r} is not a whole number") from None


def _linear_play(record: dict[str, Any], rules: Rules | None, leader_text: str,
                 cells: list[str], p: int, where: str, tag: str) -> list[str]:
    """The cards in playing order from PBN's play table: replay the record to the start of play,
    then take each seat's card of the trick in progress from the table, so the leader of every
    trick is the rules' trick winner. The tag's seat names the table's first column (whist-sim
    writes the declarer, who leads; a bridge program writing the board back may name the seat
    after him: the columns still name the seats)."""
    res = replay_record({**record, "play": []}, rules)
    if not res.ok:
        raise RecordError(f"{where}: {res.error}")
    state = res.state
    assert state is not None
    try:
        leader = parse_pbn_seat(leader_text)
    except NotationError as e:
        raise RecordError(f"{where}: {tag}: {e}") from None
    if leader >= p:
        raise RecordError(f"{where}: {tag}: {leader_text} is not a seat of {p} players")
    rows = [cells[i:i + p] for i in range(0, len(cells), p)]
    out: list[str] = []
    allow = record.get("revokes", "reject") == "penalize"
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
            raise RecordError(f"{where}: {tag} trick {k + 1}, {pbn_seat(state.to_move)}: "
                              f"{e}") from None
        out.append(card_str(card))
    return out


def board_is_game(b: PbnBoard) -> bool:
    return "WhistTotals" in b.tags or "WhistGameRules" in b.tags


def pbn_records(text: str, rules: Rules | None = None) -> list[dict[str, Any]]:
    """The records of a PBN file: one game record when its boards are a game's (``WhistTotals``,
    ``WhistGameRules``), else one deal record per board that has a ``Dealer`` and a ``Deal``."""
    try:
        boards = parse_pbn(text)
    except NotationError as e:
        raise RecordError(f"not a readable PBN file: {e}") from None
    boards = [b for b in boards if "Deal" in b.tags]
    if not boards:
        raise RecordError("the PBN file holds no board with a Deal tag")
    if any(board_is_game(b) for b in boards):
        return [_game_record(boards, rules)]
    return [board_record(b, rules) for b in boards]


def _game_record(boards: list[PbnBoard], rules: Rules | None) -> dict[str, Any]:
    head = boards[0].tags
    game_rules = parse_rules_tag(head.get("WhistGameRules", "")) if (
        "WhistGameRules" in head) else (rules or Rules())
    info: dict[str, Any] = {}
    where = f"board {head.get('Board', '?')} (line {boards[0].line})"
    for key, tag in (("seed", "WhistGameSeed"), ("target", "WhistGameTarget"),
                     ("first_dealer", "WhistGameFirstDealer")):
        if tag in head:
            info[key] = _int(head[tag], where, tag)
    if "WhistGameSeats" in head:
        info["seats"] = head["WhistGameSeats"].split(",")
    order = ["seed", "target", "seats", "first_dealer"]
    game: dict[str, Any] = {"game": {k: info[k] for k in order if k in info}} if info else {}
    game["rules"] = game_rules.to_dict()
    deals = []
    running = []
    for b in boards:
        rec = board_record(b, game_rules)
        rec.pop("rules", None)
        deals.append(rec)
        if "WhistTotals" in b.tags:
            running.append([_int(v, where, "WhistTotals") for v in b.tags["WhistTotals"].split()])
    game["deals"] = deals
    if running:
        game["running_totals"] = running
    last = boards[-1].tags
    if "WhistGameTotals" in last:
        game["totals"] = [_int(v, where, "WhistGameTotals")
                          for v in last["WhistGameTotals"].split()]
    if "WhistGameWinners" in last:
        game["winners"] = [parse_pbn_seat(s) for s in last["WhistGameWinners"].split()]
    if "WhistGameComment" in head:
        game["comment"] = head["WhistGameComment"]
    return game


def check_stated_outcome(b: PbnBoard, res: ReplayResult) -> str | None:
    """The first outcome tag of a board (``WhistTricks``, ``WhistScores``) that differs from the
    replay's, as an error message; ``None`` when they agree."""
    t = b.tags
    for tag, got in (("WhistTricks", res.tricks), ("WhistScores", res.scores)):
        if tag in t and got is not None and [int(v) for v in t[tag].split()] != list(got):
            return f"{tag} says {t[tag]}, but the play gives {' '.join(map(str, got))}"
    return None


__all__ = [
    "board_record",
    "check_stated_outcome",
    "game_boards",
    "load_records",
    "parse_rules_tag",
    "pbn_records",
    "record_board",
    "rules_tag",
]


def load_records(path: str | Path, rules: Rules | None = None) -> list[tuple[str, Any]]:
    """The records of a file as ``(name, record)`` pairs: a JSON file holds one record (a deal or
    a game; its name is ``path``), a PBN file one game record or one deal record per board
    (``path#board``; docs/PBN.md, whole records). Either is read within the limits of
    :mod:`whist_sim.core.jsonio` (size, UTF-8; a JSON record also nesting and number length).
    Raises :class:`RecordError`."""
    from ..core.jsonio import JsonInputError, decode_utf8, parse_json, read_capped
    from ..core.pbn import is_pbn

    try:
        text = decode_utf8(read_capped(path))
        if text.lstrip().startswith("{") or not is_pbn(text):
            return [(str(path), parse_json(text))]
    except JsonInputError as e:
        raise RecordError(str(e)) from None
    records = pbn_records(text, rules)
    if len(records) == 1:
        return [(str(path), records[0])]
    return [(f"{path}#{i + 1}", r) for i, r in enumerate(records)]
