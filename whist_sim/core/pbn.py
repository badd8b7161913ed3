"""PBN (Portable Bridge Notation) files: the deal string, boards and whole files.

The notation itself (cards, hands, ``0:`` / ``N:`` deals) lives in :mod:`whist_sim.core.cards`; this
module adds the PBN *file* layer on top of it, so that deals travel to and from bridge software
(endplay, DDS front ends, dealers, BridgeComposer, ...).

Seats: whist-sim seats 0, 1, 2, 3 are PBN's **N, E, S, W** (clockwise, as in whist-sim). A PBN deal
string is ``"<first>:<hand> <hand> <hand> <hand>"``: the hands clockwise from the named first seat,
each hand ``spades.hearts.diamonds.clubs`` (``AKQ2.K3.QJ54.872``; a void is an empty suit). A hand
not known is ``-``. Three-player deals (RULES §8) are written with W as ``-``.

A PBN file is a sequence of *games* (here: boards), each a run of tag pairs ``[Name "value"]``,
games separated by a blank line; ``;`` starts a comment to the end of the line, ``{...}`` is a
comment, lines starting with ``%`` are directives (``% PBN 2.1``) and are skipped, and the value
``"#"`` repeats the tag's value of the previous game. Tag values are escaped so that any text
reads back exactly and a tag pair stays on one line (:func:`escape_value`). Text after a tag that
is not a tag pair (the sections of ``Auction`` and ``Play``) is kept as that tag's section but not
interpreted.

:func:`parse_pbn` reads a file's text into :class:`PbnBoard` values; :func:`format_pbn` writes
boards with the export tag set bridge tools expect (Event, Site, Date, Board, West, North, East,
South, Dealer, Vulnerable, Deal, Scoring, Declarer, Contract, Result; unknown values ``?``: a
whist deal has no bridge contract, and writing whist's there would be read as bridge's,
docs/PBN.md). This is an independent reader and writer of the format, not a full PBN 2.1
validator.

Boards and dealers: whist-sim writes deal ``i`` of a run as board ``i + 1`` with dealer
``i % players``, which for four players is the bridge rotation (board 1 dealt by N, 2 by E, ...);
some bridge tools take the dealer from the board number rather than the ``Dealer`` tag.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .cards import NotationError, card_str, cards_of, format_hand, parse_hand

#: PBN seat letters by whist-sim seat: 0 = N, 1 = E, 2 = S, 3 = W.
PBN_SEATS = "NESW"

#: The export tags written for every board, in order (PBN §3.1's mandatory tag set).
EXPORT_TAGS = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable",
    "Deal", "Scoring", "Declarer", "Contract", "Result",
)


def pbn_seat(seat: int) -> str:
    """``'N'``, ``'E'``, ``'S'`` or ``'W'`` for whist-sim seat 0..3."""
    if not 0 <= int(seat) <= 3:
        raise NotationError(f"seat {seat} is not in 0..3 (N, E, S, W)")
    return PBN_SEATS[int(seat)]


def parse_pbn_seat(text: str) -> int:
    """Whist-sim seat 0..3 of a PBN seat letter (``N``, ``E``, ``S``, ``W``, any case)."""
    t = str(text).strip().upper()
    if len(t) != 1 or t not in PBN_SEATS:
        raise NotationError(f"PBN seat {text!r}: expected N, E, S or W")
    return PBN_SEATS.index(t)


# --------------------------------------------------------------------------- the deal string


def format_pbn_deal(hands: Sequence[int], first: int = 0) -> str:
    """The PBN deal string of hands by seat: ``'N:AKQ2.K3.QJ54.872 ... ... ...'``.

    ``first`` is the seat written first (the dealer, by PBN custom; default N). Three hands (a
    three-player deal) are written with W as ``-``.
    """
    n = len(hands)
    if n not in (3, 4):
        raise NotationError(f"a PBN deal has 3 or 4 hands, got {n}")
    first = int(first)
    if not 0 <= first < 4:
        raise NotationError(f"first seat {first} is not in 0..3 (N, E, S, W)")
    parts = []
    for i in range(4):
        seat = (first + i) % 4
        parts.append(format_hand(int(hands[seat])) if seat < n else "-")
    return f"{PBN_SEATS[first]}:" + " ".join(parts)


def parse_pbn_deal(text: str, size: int | None = None) -> list[int | None]:
    """Hands by seat (N, E, S, W = 0..3) of a PBN deal string; ``None`` for a hand written ``-``.

    ``size``: the required number of cards in every known hand (``None`` = any). The hands must not
    share a card. :class:`NotationError` names the offending part.
    """
    if not isinstance(text, str):
        raise NotationError(f"PBN deal {text!r}: expected text")
    src = text.strip()
    if len(src) < 2 or src[1] != ":":
        raise NotationError(f"PBN deal {text!r}: expected 'N:' (or E:, S:, W:) then four hands")
    first = parse_pbn_seat(src[0])
    parts = src[2:].split()
    if len(parts) != 4:
        raise NotationError(f"PBN deal {text!r}: expected 4 hands, found {len(parts)}")
    hands: list[int | None] = [None] * 4
    seen = 0
    for i, part in enumerate(parts):
        seat = (first + i) % 4
        if part == "-":
            continue
        try:
            m = parse_hand(part, size=size)
        except NotationError as e:
            raise NotationError(f"PBN deal, {PBN_SEATS[seat]}: {e}") from None
        dup = m & seen
        if dup:
            raise NotationError(
                f"PBN deal, {PBN_SEATS[seat]}: card(s) "
                f"{' '.join(card_str(c) for c in cards_of(dup))} already in another hand"
            )
        seen |= m
        hands[seat] = m
    return hands


# --------------------------------------------------------------------------- boards and files


@dataclass
class PbnBoard:
    """One game of a PBN file: its tags in file order (and the line where it starts).

    ``sections`` holds the raw text that follows a tag (such as the calls after ``[Auction]``);
    ``lines`` the line number (1-based) of each tag, for messages that name a tag and its line.
    """

    tags: dict[str, str] = field(default_factory=dict)
    line: int = 0
    sections: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)

    def where(self, tag: str | None = None) -> str:
        """Where the board is, for a message: ``board 3 (line 40)`` (the line where the game
        starts) or, for a tag, ``board 3, line 52`` (the tag's line)."""
        board = self.tags.get("Board", "?")
        if not (board.isprintable() and len(board) <= 20):
            board = repr(board[:20])
        if tag is None:
            return f"board {board} (line {self.line})"
        return f"board {board}, line {self.lines.get(tag, self.line)}"

    @property
    def deal_text(self) -> str | None:
        return self.tags.get("Deal")

    def hands(self, size: int | None = None) -> list[int | None]:
        """The hands of the board's ``Deal`` tag by seat (:func:`parse_pbn_deal`)."""
        if self.deal_text is None:
            raise NotationError(f"PBN board at line {self.line} has no Deal tag")
        return parse_pbn_deal(self.deal_text, size=size)


def is_pbn(text: str) -> bool:
    """Whether ``text`` looks like a PBN file (a line that starts with a tag pair ``[Name "``)."""
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("[") and '"' in s:
            return True
    return False


#: The short escapes of a tag value besides PBN's own ``\\"`` and ``\\\\`` (:func:`escape_value`).
_SHORT_ESCAPES = {"\n": "n", "\r": "r", "\t": "t"}
_SHORT_UNESCAPES = {v: k for k, v in _SHORT_ESCAPES.items()}


def escape_value(value: str) -> str:
    """A tag value as written between the quotes of ``[Name "value"]``, read back exactly by
    :func:`unescape_value`.

    PBN escapes a quote as ``\\"`` and a backslash as ``\\\\``. A tag pair must stay on one
    line, and a PBN line holds printing characters only, so every character that is not printable
    (line breaks of any kind, tabs and other control characters, Unicode separators and format
    characters, lone surrogates) is written as ``\\n``, ``\\r``, ``\\t`` or ``\\uXXXX`` /
    ``\\UXXXXXXXX`` (hexadecimal code point). A ``]`` is written ``\\u005d``: a quote
    followed by ``]`` would end the tag pair for readers that look for ``"]`` (endplay does).
    Other printable text, non-ASCII letters included, is written as it is (the file is UTF-8;
    ``;``, ``{``, ``}``, ``[`` and ``%`` are plain text inside quotes). The whole value ``#``
    (PBN's "the previous game's value") is written ``\\u0023`` so that it is read as itself.
    """
    text = str(value)
    if text == "#":
        return "\\u0023"
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch in _SHORT_ESCAPES:
            out.append("\\" + _SHORT_ESCAPES[ch])
        elif not ch.isprintable() or ch == "]":
            code = ord(ch)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


def unescape_value(raw: str) -> str:
    """The text of a tag value as written in the file (:func:`escape_value`, read left to right).

    A backslash followed by anything else than the escapes above is kept as it is (files of
    other programs that do not escape their backslashes)."""
    out = []
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = raw[i + 1]
        if nxt in ('"', "\\"):
            out.append(nxt)
            i += 2
        elif nxt in _SHORT_UNESCAPES:
            out.append(_SHORT_UNESCAPES[nxt])
            i += 2
        elif nxt in "uU":
            width = 4 if nxt == "u" else 8
            digits = raw[i + 2 : i + 2 + width]
            if len(digits) == width and all(c in "0123456789abcdefABCDEF" for c in digits) and (
                int(digits, 16) <= 0x10FFFF
            ):
                out.append(chr(int(digits, 16)))
                i += 2 + width
            else:
                out.append(ch)
                i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _strip_comments(text: str) -> list[tuple[int, str]]:
    """(line number, text) of every line with ``;`` and ``{...}`` comments and ``%`` lines removed.

    A blank line (after comments are removed) is kept as ``''``: it separates games.
    """
    out: list[tuple[int, str]] = []
    in_brace = False
    for no, raw in enumerate(text.splitlines(), start=1):
        if not in_brace and raw.startswith("%"):
            out.append((no, "\x00"))  # a directive: neither content nor a game separator
            continue
        buf = []
        i = 0
        in_quote = False
        while i < len(raw):
            ch = raw[i]
            if in_brace:
                if ch == "}":
                    in_brace = False
            elif in_quote:
                buf.append(ch)
                if ch == "\\" and i + 1 < len(raw):
                    buf.append(raw[i + 1])
                    i += 1
                elif ch == '"':
                    in_quote = False
            elif ch == '"':
                in_quote = True
                buf.append(ch)
            elif ch == "{":
                in_brace = True
            elif ch == ";":
                break
            else:
                buf.append(ch)
            i += 1
        line = "".join(buf).strip()
        # a line that held only a comment is no game separator
        out.append((no, line if line or not raw.strip() else "\x00"))
    return out


def _tag_pairs(line: str, no: int) -> tuple[list[tuple[str, str]], str]:
    """The tag pairs at the start of ``line`` (name, value as written: still escaped) and the
    text left after them."""
    pairs = []
    rest = line
    while rest.startswith("["):
        close = _find_close(rest)
        if close < 0:
            raise NotationError(f"line {no}: tag pair {rest!r} has no closing ']'")
        inner = rest[1:close].strip()
        name, _, value = inner.partition(" ")
        value = value.strip()
        if not name or not (len(value) >= 2 and value[0] == '"' and value[-1] == '"'):
            raise NotationError(f"line {no}: expected a tag pair [Name \"value\"], got {rest!r}")
        pairs.append((name, value[1:-1]))
        rest = rest[close + 1 :].strip()
    return pairs, rest


def _find_close(s: str) -> int:
    in_quote = False
    i = 1
    while i < len(s):
        ch = s[i]
        if in_quote and ch == "\\":
            i += 2
            continue
        if ch == '"':
            in_quote = not in_quote
        elif ch == "]" and not in_quote:
            return i
        i += 1
    return -1


_GAME_KEYS = ("Board", "Deal")


def parse_pbn(text: str) -> list[PbnBoard]:
    """The games of a PBN file's text, in file order (see the module docstring for the syntax).

    A tag's value ``"#"`` is replaced by the same tag's value in the previous game. Games without a
    ``Deal`` tag are returned too (:meth:`PbnBoard.hands` then raises). Malformed tag pairs raise
    :class:`NotationError` with the line number.
    """
    boards: list[PbnBoard] = []
    current: PbnBoard | None = None
    last_tag: str | None = None
    previous: dict[str, str] = {}

    def finish() -> None:
        nonlocal current, previous
        if current is not None and current.tags:
            boards.append(current)
            previous = current.tags
        current = None

    for no, line in _strip_comments(text):
        if line == "\x00":
            continue
        if not line:
            finish()
            last_tag = None
            continue
        pairs, rest = _tag_pairs(line, no)
        for name, value in pairs:
            if current is not None and name in _GAME_KEYS and name in current.tags:
                finish()  # a second Board or Deal: a new game without a blank line between
            if current is None:
                current = PbnBoard(line=no)
            # "#" as written (not an escaped "\\u0023") repeats the previous game's value
            current.tags[name] = previous[name] if value == "#" and name in previous else (
                unescape_value(value))
            current.lines[name] = no
            last_tag = name
        if rest:
            if current is None or last_tag is None:
                raise NotationError(f"line {no}: text {rest!r} outside a game (no tag before it)")
            old = current.sections.get(last_tag, "")
            current.sections[last_tag] = (old + "\n" + rest).strip()
    finish()
    return boards


def board_tags(
    hands: Sequence[int],
    board: int,
    dealer: int = 0,
    event: str = "whist-sim",
    extra: Mapping[str, object] | None = None,
) -> dict[str, str]:
    """The export tags of one board (``?`` where a bridge tag means nothing for whist).

    The deal string starts with the dealer, as PBN files do; ``extra`` tags follow the export tags.
    """
    tags = dict.fromkeys(EXPORT_TAGS, "?")
    tags.update(
        Event=event,
        Board=str(int(board)),
        Dealer=pbn_seat(dealer),
        Vulnerable="None",
        Deal=format_pbn_deal(hands, first=dealer),
    )
    for k, v in (extra or {}).items():
        if not k or not k[0].isalpha() or not k.replace("_", "").isalnum():
            raise NotationError(f"PBN tag name {k!r}: letters, digits and '_' only")
        tags[k] = str(v)
    return tags


def format_pbn_board(tags: Mapping[str, object],
                     sections: Mapping[str, str] | None = None) -> str:
    """One game: a ``[Name "value"]`` line per tag, in the mapping's order, each followed by its
    section's lines when ``sections`` has one (``Auction``, ``Play``)."""
    out = []
    for k, v in tags.items():
        out.append(f'[{k} "{escape_value(str(v))}"]\n')
        text = (sections or {}).get(k)
        if text:
            out.append(text.rstrip("\n") + "\n")
    return "".join(out)


PBN_HEADER = "% PBN 2.1\n% EXPORT\n"


def format_pbn(boards: Iterable[Mapping[str, object] | PbnBoard], header: bool = True) -> str:
    """A PBN file of boards (tag mappings or :class:`PbnBoard`), games separated by blank lines."""
    games = []
    for b in boards:
        if isinstance(b, PbnBoard):
            games.append(format_pbn_board(b.tags, b.sections))
        else:
            games.append(format_pbn_board(b))
    return (PBN_HEADER if header else "") + "\n".join(games)


def whist_tags(
    *,
    seed: int | None = None,
    deal: int | None = None,
    hands: str = "dealt",
    thrown_in: bool = False,
    trump: int = -1,
    declarer: int = -1,
    contracts: Sequence[int] = (),
    tricks: Sequence[int] = (),
    scores: Sequence[int] = (),
) -> dict[str, str]:
    """The whist-sim tags of a board (PBN lets programs add their own tags; bridge tools ignore
    them): ``WhistSeed`` and ``WhistDeal`` (the run's seed and deal index: the random stream
    ``(seed, deal)``), ``WhistHands`` (``dealt``: the Deal tag holds the hands as dealt, before
    Frisch; ``play``: at the start of play), then for a played deal ``WhistTrump`` (C, D, H, S,
    NT), ``WhistDeclarer`` (N, E, S, W) and ``WhistContracts`` / ``WhistTricks`` /
    ``WhistScores`` (one number per seat, N E S [W]); ``WhistThrownIn "yes"`` for a thrown-in
    deal."""
    from .cards import STRAINS

    tags: dict[str, str] = {}
    if seed is not None:
        tags["WhistSeed"] = str(int(seed))
    if deal is not None:
        tags["WhistDeal"] = str(int(deal))
    if hands not in ("dealt", "play"):
        raise ValueError(f"hands must be 'dealt' or 'play', got {hands!r}")
    tags["WhistHands"] = hands
    if thrown_in:
        tags["WhistThrownIn"] = "yes"
        return tags
    if trump >= 0:
        tags["WhistTrump"] = STRAINS[int(trump)]
    if declarer >= 0:
        tags["WhistDeclarer"] = pbn_seat(declarer)
    for name, values in (("WhistContracts", contracts), ("WhistTricks", tricks),
                         ("WhistScores", scores)):
        if len(values):
            tags[name] = " ".join(str(int(v)) for v in values)
    return tags
